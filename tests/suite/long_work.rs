//! Long work asks first, and what it advises works: a count projected past a day with nothing
//! to resume from needs `--force`, and the way it names to resume is one that is accepted.

use crate::common;

use common::{assert_bad_input, nqueens};

/// Long work with nothing to resume from asks first: a count or a table
/// projected past a day on the threads given needs --force (`count 28 -t 2`, about 80 years,
/// and `table 25..28`, about 26 days, started); one with a checkpoint or a shard was planned
/// and starts as before.
#[test]
fn work_past_a_day_with_nothing_to_resume_needs_force() {
    assert_bad_input(&[
        (
            &["count", "24", "-t", "2"],
            "past a day with no checkpoint to resume from",
        ),
        (&["count", "28", "-t", "2"], "--force"),
        (&["table", "25..26", "-t", "2"], "past a day"),
        (&["table", "20..24", "-t", "2"], "past a day"),
    ]);
    // With a checkpoint the count starts: its note, then (here) a checkpoint it cannot write.
    let out = nqueens()
        .args([
            "count",
            "24",
            "-t",
            "2",
            "--checkpoint",
            "/no/such/dir/c.ckpt",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("past a day"), "{err}");
    assert!(err.starts_with("note: N = 24 is about "), "{err}");
}

/// The advice a refused count gives works when followed: `count 28 -t 2` cannot keep its
/// tasks in one checkpoint, so it names shards, not a checkpoint; the count of one of those
/// shards with a checkpoint is not refused (here it stops at the checkpoint it cannot write,
/// after planning N = 28: seconds and about 500 MB).
#[test]
#[ignore = "heavy tier (plans N = 28): .ci/run runs it with -- --ignored"]
fn the_advice_of_a_refused_count_works_when_followed() {
    let out = nqueens().args(["count", "28", "-t", "2"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("Give --checkpoint"), "{err}");
    let k = err
        .split("(--shard I/")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("no shards advised: {err}"));
    let shard = format!("1/{k}");
    let out = nqueens()
        .args(["count", "28", "-t", "2", "--shard", &shard])
        .args(["--checkpoint", "/no/such/dir/c.ckpt"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("note: shard {shard} of N = 28 is about ")),
        "{err}"
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "refused, not only stopped by its checkpoint: {err}"
    );
    assert!(
        err.contains("cannot write checkpoint /no/such/dir/c.ckpt"),
        "{err}"
    );
}
