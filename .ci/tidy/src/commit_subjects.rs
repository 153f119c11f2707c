//! A commit's subject has at most [`MAX_CHARS`] characters (`room: what changed`); the why
//! goes in the body.

use crate::Problem;
use std::path::Path;
use std::process::Command;

/// The most characters a commit subject may have.
pub const MAX_CHARS: usize = 72;

/// The subjects of the commits `base..HEAD` in the repository at `root`.
pub fn check(root: &Path, base: &str) -> Vec<Problem> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["log", "--format=%h %s", &format!("{base}..HEAD")])
        .output();
    let text = match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        Ok(o) => {
            return vec![Problem {
                check: "commit-subjects",
                place: base.to_string(),
                message: format!(
                    "git log cannot read {base}..HEAD: {}",
                    String::from_utf8_lossy(&o.stderr).trim()
                ),
            }]
        }
        Err(e) => {
            return vec![Problem {
                check: "commit-subjects",
                place: base.to_string(),
                message: format!("cannot run git: {e}"),
            }]
        }
    };
    long_subjects(&text)
}

/// The problems of `git log --format='%h %s'` output: each subject past the limit.
fn long_subjects(log: &str) -> Vec<Problem> {
    log.lines()
        .filter_map(|line| {
            let (hash, subject) = line.split_once(' ')?;
            let chars = subject.chars().count();
            (chars > MAX_CHARS).then(|| Problem {
                check: "commit-subjects",
                place: format!("commit {hash}"),
                message: format!(
                    "its subject has {chars} characters: at most {MAX_CHARS}, the why in the body"
                ),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_subject_is_named_by_its_commit() {
        let log = format!("abc1234 cli: a short one\ndef5678 {}\n", "x".repeat(73));
        let found = long_subjects(&log);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].place, "commit def5678");
    }
}
