//! The words that several reports share.

/// `1 run`, `5 runs`, `0 warm-up runs`, `10,576 tasks`.
pub fn plural(k: usize, what: &str) -> String {
    if k == 1 {
        format!("1 {what}")
    } else {
        format!("{} {what}s", nqueens::board::format::thousands(k as u128))
    }
}

/// `key value` lines, the keys padded to one column, as the reports print them.
pub fn key_values(lines: &[(&str, String)]) -> String {
    lines.iter().map(|(k, v)| format!("{k:<11}{v}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_plural_past_one() {
        assert_eq!(plural(1, "task"), "1 task");
        assert_eq!(plural(0, "task"), "0 tasks");
        assert_eq!(plural(2, "warm-up run"), "2 warm-up runs");
        assert_eq!(key_values(&[("n", "8".into())]), "n          8\n");
    }
}
