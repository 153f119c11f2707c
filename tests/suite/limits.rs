//! The limits a user meets, kept to one rule each: sizes and the environment's values take one
//! syntax, and work that a rough scale says cannot finish in a lifetime is refused before it
//! starts, saying its cost and what to pass.

use crate::common;

use common::{assert_refused, nqueens};

/// Sizes and the environment's numbers take one syntax, as the reference says: digits only,
/// a unit right after them; a size past what a machine can have is "too large", and every
/// variable the program reads is refused with exit 2 when its value is not one it takes.
#[test]
fn sizes_and_environment_values_keep_to_one_syntax() {
    for size in [" 8G", "+8G", "8 G"] {
        assert_refused(
            nqueens().args(["count", "8", "--max-memory", size]),
            "is not a size",
        );
    }
    assert_refused(
        nqueens().args(["count", "8", "--max-memory", "18446744073709551615"]),
        "too large",
    );
    for (name, value) in [
        ("NQUEENS_QUARTER_PARTS", "+3"),
        ("NQUEENS_QUARTER_SLICES", "yes"),
        ("NQUEENS_QUARTER_SLICES", "2"),
        ("NQUEENS_QUADRANT_BUILD", "sse9"),
    ] {
        assert_refused(nqueens().args(["count", "8"]).env(name, value), name);
    }
    nqueens()
        .args(["count", "8", "--max-memory", "1.5GiB"])
        .env("NQUEENS_QUARTER_SLICES", "0")
        .assert()
        .success();
}

/// `audit` and `tree` refuse what a rough scale says cannot finish in a lifetime, as `count`
/// does, saying the cost and what to pass (`--force`): a checkpoint of N = 34 (each of its
/// tasks' recounts takes centuries), and the tree of N = 40.
#[test]
fn audit_and_tree_refuse_a_lifetime_of_work() {
    use common::forge::reseal;
    use nqueens::Algorithm;
    use nqueens_count::backtracking::plan::Plan;
    let dir = common::tmpdir("refusals", "lifetime");
    let plan = Plan::new(34, Algorithm::Symmetric, 1).unwrap();
    let id = plan.id();
    let ckpt = format!(
        "{{\"format\":\"nqueens-checkpoint\",\"version\":3,\"n\":34,\"algorithm\":\"symmetric\",\
         \"split_depth\":1,\"placed\":[],\"fingerprint\":\"{}\",\"shard\":null,\"tasks\":{},\
         \"done\":[],\"counted_by\":[],\"checksum\":\"\"}}",
        id.fingerprint,
        plan.tasks().len()
    );
    let file = dir.join("n34.ckpt");
    std::fs::write(&file, reseal(&ckpt)).unwrap();
    assert_refused(
        nqueens().arg("audit").arg(&file).args(["-t", "2"]),
        "past a lifetime: pass --force",
    );
    // With --force the guard lets it through, saying the cost (the made-up file has no
    // finished task, so nothing is recounted). Split at depth 1, the plan is made in a moment.
    let forced = nqueens()
        .arg("audit")
        .arg(&file)
        .args(["-t", "2", "--force"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&forced.stderr);
    assert!(
        err.contains("recounting one task of N = 34 takes about"),
        "{err}"
    );
    assert!(!err.contains("past a lifetime"), "{err}");
    assert_refused(
        nqueens().args(["tree", "40"]),
        "past a lifetime: pass --force",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
