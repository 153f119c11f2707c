//! `nqueens bench`, end to end: every thread count reported and checked, bad input refused,
//! another binary compared in turn.

use crate::common;

use common::{assert_bad_input, assert_refused, json, nqueens, stdout_of};
use serde_json::Value;

#[test]
fn bench_reports_every_thread_count_and_checks_counts() {
    let v = json(&[
        "bench",
        "--n",
        "10",
        "--runs",
        "2",
        "--warmup",
        "0",
        "--threads",
        "1,2",
        "--json",
    ]);
    assert_eq!(v["tool"], "nqueens");
    assert_eq!(v["workload"]["n"], 10);
    assert_eq!(v["workload"]["total"], 724);
    assert_eq!(v["workload"]["unique"], 92);
    assert!(v["machine"]["logical_cores"].as_u64().unwrap() >= 1);
    assert!(v["machine"]["model"].is_string());
    // What a published figure needs: when, which build, which vector build, the headline.
    let date = v["date"].as_str().unwrap();
    assert!(
        date.len() == 20 && date.ends_with('Z') && date.as_bytes()[10] == b'T',
        "{date}"
    );
    assert_eq!(v["build"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(v["build"]["commit"].as_str().is_some_and(|c| !c.is_empty()));
    assert!(["avx512f", "avx2", "bmi", "portable"].contains(&v["vector_build"].as_str().unwrap()));
    let best = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .max_by(|a, b| {
            let rate = |r: &Value| r["solutions_per_second"].as_f64().unwrap();
            rate(a).total_cmp(&rate(b))
        })
        .unwrap();
    assert_eq!(v["headline"]["threads"], best["threads"]);
    assert_eq!(
        v["headline"]["solutions_per_second"],
        best["solutions_per_second"]
    );
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["threads"], 1);
    assert_eq!(rows[0]["speedup"], 1.0);
    assert_eq!(rows[1]["threads"], 2);
    for r in rows {
        assert_eq!(r["times_s"].as_array().unwrap().len(), 2);
        assert!(r["min_s"].as_f64().unwrap() <= r["median_s"].as_f64().unwrap());
        assert!(r["median_s"].as_f64().unwrap() <= r["max_s"].as_f64().unwrap());
        assert!(r["nodes_per_second"].as_f64().unwrap() > 0.0);
    }
    let csv = stdout_of(&[
        "bench",
        "--n",
        "8",
        "--runs",
        "1",
        "--threads",
        "1,2",
        "--csv",
    ]);
    let lines: Vec<&str> = csv.lines().collect();
    // Each row says where and with what it was measured, so that files from several
    // machines can be put together.
    assert!(lines[0].starts_with("date,machine,logical_cores,vector_build,commit,n,"));
    assert!(lines[0].contains(",threads,split_depth,median_s,"));
    assert_eq!(lines.len(), 3);
    let quick = |extra: &[&str]| {
        let mut args = vec!["bench", "--n", "8", "--runs", "1", "--threads", "1"];
        args.extend_from_slice(extra);
        stdout_of(&args)
    };
    assert!(quick(&["--markdown"]).contains("| threads | median (s) |"));
    let dir = std::env::temp_dir().join(format!("nqueens-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("b.json");
    let text = quick(&["--json", "--export", file.to_str().unwrap()]);
    assert!(text.contains("threads    median_s"));
    let exported: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(exported["workload"]["total"], 92);
    // What tells two machines of one model name apart, and two builds of one commit.
    assert!(exported["machine"]["cpu"].is_object());
    assert!(exported["machine"]["cpu"]["caches"].is_array());
    assert!(exported["build"]["rustc"]
        .as_str()
        .is_some_and(|r| r.starts_with("rustc ")));
    assert!(["clean", "modified", "unknown"].contains(&exported["build"]["tree"].as_str().unwrap()));
    // Speedup is against one thread, and left out where one thread was not measured.
    let two = json(&[
        "bench",
        "--n",
        "8",
        "--runs",
        "1",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(two["results"][0]["speedup"], Value::Null);
    assert_eq!(two["results"][0]["efficiency"], Value::Null);
    let chart = dir.join("b.svg");
    assert_refused(
        nqueens()
            .args(["bench", "--n", "8", "--threads", "2", "--plot"])
            .arg(&chart),
        "--plot draws speedup and efficiency against one thread",
    );
    assert!(!chart.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_bad_input() {
    let cases: &[(&[&str], &str)] = &[
        (&["bench", "--threads", "0"], "not a thread list"),
        (&["bench", "--threads", "1,x"], "not a thread list"),
        (&["bench", "--runs", "0"], "out of range for a run count"),
        (&["bench", "--n", "40"], "known count"),
        (&["bench", "--n", "3"], "known count"),
        (
            &["bench", "--export", "x.xyz"],
            "ending in .json, .csv, .md or .txt",
        ),
        (&["bench", "--json", "--csv"], "cannot be used with"),
        (
            &["bench", "--gpu", "-a", "quadrants"],
            "the quadrant method has no GPU kernel",
        ),
        (
            &["bench", "--gpu", "--compare", "/bin/true"],
            "cannot be used with",
        ),
    ];
    assert_bad_input(cases);
}

/// `bench --compare OTHER` checks the other binary's `n` and `total` against
/// A000170 in this process: one that says `"total":1` with `"matches_known":true` for N = 8
/// is refused (exit 3), not timed.
#[test]
fn bench_compare_checks_the_other_count_itself() {
    let dir = common::tmpdir("cli", "fake-other");
    let version = stdout_of(&["--version"]);
    let fake = dir.join("nqueens");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then printf '%s' '{}'; exit 0; fi\n\
             echo '{{\"n\":8,\"total\":1,\"matches_known\":true,\"seconds\":0.01}}'\n",
            version.trim_end()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = nqueens()
        .args([
            "bench",
            "--n",
            "8",
            "--threads",
            "1",
            "--runs",
            "1",
            "--compare",
        ])
        .arg(&fake)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("not A000170(8) = 92"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Where a benchmark's export or chart cannot be written is found out before any run: at
/// N = 27 a run takes hours, so a check after the runs would not end in a test's time.
#[test]
fn bench_checks_its_outputs_before_it_runs() {
    for (flag, path, what) in [
        ("--export", "/nonexistent/b.json", "cannot write export"),
        ("--plot", "/nonexistent/b.svg", "cannot write chart"),
    ] {
        let out = nqueens()
            .args([
                "bench",
                "--n",
                "27",
                "--runs",
                "1",
                "--threads",
                "1",
                flag,
                path,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        assert!(out.stdout.is_empty());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(what),
            "{out:?}"
        );
    }
}

/// Ctrl-C (or SIGTERM) during a benchmark reports the thread counts whose runs finished,
/// says it was stopped, and exits 130 (143): nothing measured is lost.
#[test]
fn bench_stopped_by_a_signal_reports_what_it_measured() {
    let args = [
        "bench",
        "--n",
        "11",
        "--runs",
        "100000",
        "--warmup",
        "0",
        "--threads",
        "1,2",
    ];
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_nqueens"))
            .args(args)
            .arg("--json")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Long enough for some runs of about a millisecond each to finish.
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{out:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = v["results"].as_array().unwrap();
        assert_eq!(rows.len(), 1, "only the first thread count ran");
        assert!(!rows[0]["times_s"].as_array().unwrap().is_empty());
        let warned = v["warnings"].as_array().unwrap();
        assert!(warned
            .iter()
            .any(|w| w.as_str().unwrap().contains("stopped by a signal")));
    }
}

/// `bench-compare` puts exports side by side: a row each, its headline against the first
/// export's, a note where the workloads differ; an export from before the provenance fields
/// reads with them unknown; what is not an export is refused.
#[test]
fn bench_compare_puts_exports_side_by_side() {
    let dir = common::tmpdir("bench", "compare");
    let export = |name: &str, n: &str| {
        let file = dir.join(name);
        let args = [
            "bench",
            "--n",
            n,
            "--runs",
            "1",
            "--threads",
            "1",
            "--export",
        ];
        nqueens().args(args).arg(&file).assert().success();
        file
    };
    let a = export("a.json", "9");
    let b = export("b.json", "9");
    let c = export("c.json", "10");
    // An export as older builds wrote it: no date, build, vector build or headline.
    let mut old: Value = serde_json::from_str(&std::fs::read_to_string(&a).unwrap()).unwrap();
    for key in ["date", "build", "vector_build", "headline"] {
        old.as_object_mut().unwrap().remove(key);
    }
    let older = dir.join("older.json");
    std::fs::write(&older, old.to_string()).unwrap();
    let files = [&a, &b, &older];
    let v = json(
        &[
            &["bench-compare", "--json"][..],
            &files.map(|f| f.to_str().unwrap())[..],
        ]
        .concat(),
    );
    let rows = v["exports"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["against_first"], 1.0);
    let ratio = rows[1]["headline"].as_f64().unwrap() / rows[0]["headline"].as_f64().unwrap();
    assert!((rows[1]["against_first"].as_f64().unwrap() - ratio).abs() < 1e-12);
    assert_eq!(rows[2]["commit"], "unknown");
    assert_eq!(rows[2]["headline"], rows[0]["headline"]);
    assert_eq!(v["same_workload"], true);
    let text = stdout_of(&["bench-compare", a.to_str().unwrap(), c.to_str().unwrap()]);
    assert!(text.contains("count 9 (symmetric, wide), 1 run after") && text.contains("count 10"));
    // Between different workloads no ratio is given, and the note says which fields differ.
    assert!(
        text.contains("counts another workload than the first export: board 10 (the first: 9); no ratio is given"),
        "{text}"
    );
    let v = json(&[
        "bench-compare",
        "--json",
        a.to_str().unwrap(),
        c.to_str().unwrap(),
    ]);
    assert_eq!(v["exports"][1]["against_first"], Value::Null);
    assert_eq!(v["same_workload"], false);
    // Runs and warm-up runs are part of the workload.
    let mut more: Value = serde_json::from_str(&std::fs::read_to_string(&b).unwrap()).unwrap();
    more["workload"]["runs"] = 5.into();
    more["workload"]["warmup"] = 2.into();
    let more_runs = dir.join("more.json");
    std::fs::write(&more_runs, more.to_string()).unwrap();
    let v = json(&[
        "bench-compare",
        "--json",
        a.to_str().unwrap(),
        more_runs.to_str().unwrap(),
    ]);
    assert_eq!(v["exports"][1]["against_first"], Value::Null);
    assert_eq!(
        v["exports"][1]["differs_from_first"],
        serde_json::json!(["runs 5 (the first: 1)", "warm-up runs 2 (the first: 1)"])
    );
    let md = stdout_of(&["bench-compare", "--markdown", a.to_str().unwrap()]);
    assert!(md.starts_with("| date | machine |"));
    let not_one = dir.join("not.json");
    std::fs::write(&not_one, "{\"tool\":\"hyperfine\"}").unwrap();
    let out = nqueens()
        .args([
            "bench-compare",
            a.to_str().unwrap(),
            not_one.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a benchmark export"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `bench-compare` shows an export's strings escaped for each output (no escape sequence or
/// new row on the terminal; no extra column or markup in Markdown), and refuses numbers a
/// benchmark cannot have written (exit 2).
#[test]
fn bench_compare_escapes_strings_and_refuses_impossible_numbers() {
    let dir = common::tmpdir("bench", "hostile-export");
    let real = std::fs::read_to_string("docs/runs/bench/amd-epyc-2vcpu.json").unwrap();
    let hostile = real.replacen(
        "\"model\":\"AMD EPYC\"",
        "\"model\":\"EPYC\\u001b[2J\\nforged | row <script>\"",
        1,
    );
    assert_ne!(hostile, real);
    let file = dir.join("hostile.json");
    std::fs::write(&file, &hostile).unwrap();
    let text = nqueens().arg("bench-compare").arg(&file).output().unwrap();
    assert!(text.status.success(), "{text:?}");
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(!out.contains('\u{1b}'), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("forged")), "{out}");
    assert!(out.contains("EPYC\\u{1b}[2J\\nforged"), "{out}");
    let md = nqueens()
        .args(["bench-compare", "--markdown"])
        .arg(&file)
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&md.stdout);
    let row = md.lines().nth(2).unwrap();
    assert_eq!(row.matches(" | ").count(), 8, "{row}");
    assert!(row.contains("forged \\| row &lt;script&gt;"), "{row}");
    let negative = real.replacen(
        "\"solutions_per_second\":20144081.312518466",
        "\"solutions_per_second\":-1e-300",
        1,
    );
    assert_ne!(negative, real);
    std::fs::write(&file, negative).unwrap();
    assert_refused(
        nqueens().arg("bench-compare").arg(&file),
        "solutions per second",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes an executable shell script `name` in `dir` with `body`, and returns its path.
fn script(dir: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// `bench --compare` with another binary that never ends its count: SIGTERM stops the
/// benchmark and the other binary with it (its process group is sent the signal), exit 143;
/// and one that writes without end is stopped and refused once it passes the bound (exit 2),
/// its output never held whole.
#[test]
fn bench_compare_stops_the_other_binary_and_bounds_its_output() {
    let dir = common::tmpdir("bench", "other-binary");
    let sleeper = script(
        &dir,
        "sleeper",
        "case \"$1\" in --version) echo 'nqueens 9.9.9';; *) exec sleep 600;; esac",
    );
    let child = common::bin()
        .args([
            "bench",
            "--n",
            "8",
            "-t",
            "1",
            "--runs",
            "1",
            "--warmup",
            "0",
            "--compare",
        ])
        .arg(&sleeper)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{err}");
    let flood = script(
        &dir,
        "flood",
        "case \"$1\" in --version) echo 'nqueens 9.9.9';; *) exec yes;; esac",
    );
    let out = nqueens()
        .args([
            "bench",
            "--n",
            "8",
            "-t",
            "1",
            "--runs",
            "1",
            "--warmup",
            "0",
            "--compare",
        ])
        .arg(&flood)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("wrote more than 1048576 bytes"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
