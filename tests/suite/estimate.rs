//! `nqueens estimate N`: a count's cost projected from a seeded sample of its tasks.

use crate::common;

use common::{assert_bad_input, json, stdout_of};
use serde_json::Value;

/// The projected solutions of a repeatable sample (`--tasks`, `--seed`) and whether their
/// interval holds the known count.
fn solutions(v: &Value) -> (f64, f64, f64, f64) {
    let s = &v["solutions"];
    let known = v["known"].as_u64().unwrap() as f64;
    (
        s["value"].as_f64().unwrap(),
        s["low"].as_f64().unwrap(),
        s["high"].as_f64().unwrap(),
        known,
    )
}

#[test]
fn a_sample_projects_the_count_and_its_cost() {
    for (n, algorithm) in [(13, "symmetric"), (16, "quadrants")] {
        let args = [
            "estimate",
            &n.to_string(),
            "-a",
            algorithm,
            "--tasks",
            "400",
            "--seed",
            "5",
            "--shard-minutes",
            "1",
            "--json",
        ];
        let v = json(&args);
        assert_eq!(v["algorithm"], algorithm);
        assert_eq!(v["sampled"].as_array().unwrap().len(), 400);
        let (value, low, high, known) = solutions(&v);
        // The estimator is unbiased, the interval 95%: with this seed it holds the count, and
        // the central value is within 15% of it.
        assert!(
            low <= known && known <= high,
            "n={n}: {low} {value} {high} vs {known}"
        );
        assert!(
            (value / known - 1.0).abs() < 0.15,
            "n={n}: {value} vs {known}"
        );
        let core = &v["core_seconds"];
        assert!(core["value"].as_f64().unwrap() > 0.0, "{core}");
        assert!(core["low"].as_f64().unwrap() <= core["high"].as_f64().unwrap());
        assert!(v["shards"].as_u64().unwrap() >= 1);
        // The quadrant method says its memory; backtracking needs none to speak of.
        assert_eq!(
            v["memory_estimate_bytes"].is_null(),
            algorithm == "symmetric"
        );
        // The same seed draws the same tasks.
        let tasks = |v: &Value| -> Vec<u64> {
            v["sampled"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["task"].as_u64().unwrap())
                .collect()
        };
        assert_eq!(tasks(&v), tasks(&json(&args)));
    }
}

#[test]
fn the_text_says_the_cost_the_memory_and_the_shards() {
    let text = stdout_of(&["estimate", "12", "--tasks", "50", "--seed", "1"]);
    for key in [
        "n ",
        "cost ",
        "plan ",
        "sample ",
        "by tasks ",
        "solutions ",
        "memory ",
        "shards ",
    ] {
        assert!(text.lines().any(|l| l.starts_with(key)), "{key}: {text}");
    }
    assert!(text.contains("A000170(12) = 14200"), "{text}");
    // The figure to plan by leads, named as such.
    let second = text.lines().nth(1).unwrap_or_default();
    assert!(
        second.starts_with("cost ") && second.ends_with("(the figure to plan by)"),
        "{text}"
    );
    assert!(text.contains("nqueens count 12 --shard I/1 -t 1"), "{text}");
    // One of a thing is not "1 things".
    let one = stdout_of(&["estimate", "16", "--tasks", "1", "-t", "1", "--seed", "1"]);
    let sample = one.lines().find(|l| l.starts_with("sample ")).unwrap();
    assert!(
        sample.contains(" 1 task (") && sample.contains(" on 1 thread,"),
        "{one}"
    );
    assert!(
        one.contains("memory     peak ") && one.contains(" here on 1 thread: "),
        "{one}"
    );
}

/// An estimate whose sample found no solution says it cannot support its
/// projection, and never advises a K that count refuses (N = 28 in one shard: its file would
/// be far past what merge reads), whatever its sample. In the N = 28 plan of 13 parts a
/// combination (the plan before the record plan: 521 million tasks, most of them empty, so
/// that the sample takes seconds; a record plan's task takes core-hours).
#[test]
#[ignore = "heavy tier (seconds to a minute): .ci/run runs it with -- --ignored"]
fn an_estimate_warns_of_an_empty_sample_and_advises_only_a_k_count_accepts() {
    for seed in ["1", "3"] {
        let args = [
            "estimate", "28", "--tasks", "2", "-t", "1", "--seed", seed, "--json",
        ];
        let out = common::nqueens()
            .env("NQUEENS_QUARTER_PARTS", "13")
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let k = v["shards"].as_u64().unwrap();
        assert!(k >= v["least_shards"].as_u64().unwrap(), "{v}");
        assert!(
            k >= 249,
            "K = {k}: count refuses fewer than 249 shards of N = 28"
        );
        let found: u64 = v["sampled"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["solutions"].as_u64().unwrap())
            .sum();
        if found == 0 {
            assert!(
                v["warnings"][0]
                    .as_str()
                    .unwrap()
                    .contains("rest on nothing"),
                "{v}"
            );
        }
    }
}

#[test]
fn a_tiny_plan_is_not_drawn_forever() {
    // One task: two draws, however long the budget.
    let v = json(&["estimate", "2", "--seconds", "600", "--json"]);
    assert_eq!(v["sampled"].as_array().unwrap().len(), 2);
    assert!(v["sample_seconds"].as_f64().unwrap() < 600.0);
}

#[test]
fn bad_estimates_are_refused() {
    assert_bad_input(&[
        (&["estimate", "12", "--tasks", "0"], "out of range"),
        (&["estimate", "12", "--tasks", "100001"], "out of range"),
        (&["estimate", "12", "--seconds", "0"], "out of range"),
        (
            &["estimate", "12", "--seconds", "soon"],
            "is not a duration",
        ),
        (&["estimate", "12", "--shard-minutes", "0"], "out of range"),
        (
            &["estimate", "12", "--tasks", "5", "--seconds", "3"],
            "cannot be used with",
        ),
        (&["estimate", "30", "-a", "quadrants"], "from 4 to 28"),
        (&["estimate", "65"], "between 1 and 64"),
    ]);
}

/// An interval that reaches down to nothing is called too wide, with how many
/// tasks would narrow it (it printed "0.0000e0 to 1.8e18"); the memory line does not read as
/// a peak past the plan's bound.
#[test]
fn a_thin_sample_says_its_interval_is_too_wide_and_how_many_tasks_would_do() {
    let out = common::nqueens()
        .args(["estimate", "20", "--tasks", "3", "--seed", "5", "-t", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("too wide to use; about "), "{text}");
    assert!(text.contains("tasks would narrow it to ±50%"), "{text}");
    assert!(!text.contains("0.0000e0 to"), "{text}");
    assert!(!text.contains("only 3 of the 3"), "{text}");
    assert!(!text.contains("may use up to"), "{text}");
}

/// Ctrl-C during the sample prints what the draws finished by then say, marked as stopped,
/// and exits 130; a sample stopped before any draw finished says there is nothing to project.
#[test]
fn an_interrupted_estimate_reports_its_finished_draws() {
    use std::process::Stdio;
    // 100,000 draws of N = 19 take minutes; its tasks take about a millisecond each.
    let args = [
        "estimate",
        "19",
        "-a",
        "symmetric",
        "--tasks",
        "100000",
        "-t",
        "1",
    ];
    for json in [false, true] {
        let mut cmd = common::bin();
        cmd.args(args);
        if json {
            cmd.arg("--json");
        }
        let child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
        let child = child.unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        // SAFETY: kill(2) on our own child's pid.
        assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("estimate stopped by SIGINT: the report"),
            "{err}"
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let stopped = "stopped early: projected from the first ";
        if json {
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["interrupted"], true);
            assert!(v["warnings"][0].as_str().unwrap().starts_with(stopped));
            let kept = v["sampled"].as_array().unwrap().len();
            assert!((1..100_000).contains(&kept), "{kept}");
        } else {
            let first = text.lines().nth(1).unwrap();
            assert!(
                first.starts_with(&format!("STOPPED    {stopped}")),
                "{text}"
            );
            assert!(text.contains("\ncost "), "{text}");
        }
    }
}
