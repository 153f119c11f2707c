//! The places that may break a rule, each with its reason. An entry that matches no problem is
//! itself a problem: a rule kept again should not keep its exception.

use crate::Problem;

/// (check, place, why). The place is a problem's place as the check writes it.
const ALLOWED: &[(&str, &str, &str)] = &[];

/// `found` without the allowed problems, and a problem for each stale entry.
pub fn apply(found: Vec<Problem>) -> Vec<Problem> {
    apply_list(found, ALLOWED)
}

fn apply_list(found: Vec<Problem>, allowed: &[(&str, &str, &str)]) -> Vec<Problem> {
    let is_allowed = |p: &Problem| {
        allowed
            .iter()
            .any(|&(check, place, _)| check == p.check && place == p.place)
    };
    let mut kept: Vec<Problem> = found.iter().filter(|p| !is_allowed(p)).cloned().collect();
    for &(check, place, _) in allowed {
        if !found.iter().any(|p| p.check == check && p.place == place) {
            kept.push(Problem {
                check: "allow-list",
                place: place.to_string(),
                message: format!(
                    "is allowed to break {check}, but keeps it: take it off the list in \
                     .ci/tidy/src/allow.rs"
                ),
            });
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allowed_place_passes_and_a_stale_one_fails() {
        let p = |place: &str| Problem {
            check: "file-length",
            place: place.into(),
            message: String::new(),
        };
        let allowed = [
            ("file-length", "src/big.rs:501", "generated"),
            ("file-length", "src/gone.rs:501", "split since"),
        ];
        let kept = apply_list(vec![p("src/big.rs:501"), p("src/other.rs:501")], &allowed);
        let places: Vec<&str> = kept.iter().map(|p| p.place.as_str()).collect();
        assert_eq!(places, ["src/other.rs:501", "src/gone.rs:501"]);
        assert_eq!(kept[1].check, "allow-list");
    }
}
