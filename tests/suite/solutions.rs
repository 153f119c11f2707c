//! Seeing solutions: placed queens (count, solve, list), completion search, verify, trace, tree.

use crate::common;

use common::{assert_bad_input, assert_refused, json, nqueens, solution_of, stdout_of};
use nqueens::board::check::{holds, placements};
use nqueens::solve::complete::min_conflicts;
use nqueens::{complete, is_solution, Completion, Kernel, Options, Solutions};
use predicates::prelude::*;

fn list(args: &[&str]) -> Vec<Vec<usize>> {
    stdout_of(args)
        .lines()
        .map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect())
        .collect()
}

#[test]
fn every_first_queen_of_8_solves_and_counts_like_the_filtered_list() {
    let all = list(&["list", "8"]);
    for c in 1..=8usize {
        let cs = c.to_string();
        let s: Vec<usize> = stdout_of(&["solve", "8", "--first-queen", &cs])
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let zero: Vec<usize> = s.iter().map(|x| x - 1).collect();
        assert!(is_solution(&zero) && s[0] == c, "{s:?}");
        // The first completion in order is the first listed solution with that queen.
        let filtered: Vec<&Vec<usize>> = all.iter().filter(|s| s[0] == c).collect();
        assert_eq!(&s, filtered[0]);
        let v = json(&["count", "8", "--first-queen", &cs, "--json"]);
        assert_eq!(
            v["total"].as_u64().unwrap() as usize,
            filtered.len(),
            "c={c}"
        );
        assert_eq!(v["placed"], serde_json::json!([[1, c]]));
        assert!(v["known"].is_null());
        let listed = list(&["list", "8", "--first-queen", &cs]);
        assert_eq!(listed, filtered.into_iter().cloned().collect::<Vec<_>>());
    }
}

#[test]
fn counts_with_placements_equal_the_filtered_enumeration() {
    // Several placements on several boards, anywhere on the board, through the library.
    for n in 5..=10u32 {
        let all: Vec<Vec<usize>> = Solutions::new(n).unwrap().collect();
        let nn = n as usize;
        let cases: Vec<Vec<(usize, usize)>> = vec![
            vec![(nn / 2, 1)],
            vec![(nn - 1, nn - 2)],
            vec![(1, 3), (nn - 2, 0)],
            vec![(0, nn - 1), (2, 2)],
        ];
        for placed in cases {
            let Ok(placed) = placements(nn, &placed) else {
                continue;
            };
            let want = all.iter().filter(|s| holds(s, &placed)).count() as u128;
            for depth in 1..=3 {
                let opts = Options::default()
                    .with_placed(&placed)
                    .with_split_depth(depth)
                    .with_threads(2)
                    .with_kernel(Kernel::Fast);
                let got = nqueens::count(n, &opts).unwrap();
                assert_eq!(got.total, want, "n={n} {placed:?} depth {depth}");
            }
            let listed: Vec<Vec<usize>> = Solutions::with_fixed(n, &placed).unwrap().collect();
            let filtered: Vec<Vec<usize>> =
                all.iter().filter(|s| holds(s, &placed)).cloned().collect();
            assert_eq!(listed, filtered, "n={n} {placed:?}");
        }
    }
}

/// A small deterministic generator for the random placements.
fn lcg(state: &mut u64) -> usize {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*state >> 33) as usize
}

#[test]
fn search_completes_random_feasible_placements() {
    // Feasible by construction: queens taken from a known solution (found with other queens).
    let mut seed = 42u64;
    for n in [8usize, 12, 20, 40, 64, 65, 100, 500, 3000] {
        let base = match complete(n, &[(0, lcg(&mut seed) % n)]).unwrap() {
            Completion::Found(s) => s,
            other => panic!("n={n}: {other:?}"),
        };
        for _ in 0..5 {
            let k = 1 + lcg(&mut seed) % (n / 4).max(1);
            let mut placed: Vec<(usize, usize)> = (0..k)
                .map(|_| {
                    let r = lcg(&mut seed) % n;
                    (r, base[r])
                })
                .collect();
            placed.sort_unstable();
            placed.dedup();
            match complete(n, &placed).unwrap() {
                Completion::Found(s) => {
                    assert!(is_solution(&s) && holds(&s, &placed), "n={n} {placed:?}")
                }
                other => panic!("n={n} {placed:?}: {other:?}"),
            }
        }
    }
    // The local search on its own, past the exact search's range.
    let placed = [(0, 6), (99, 40)];
    assert!(matches!(
        min_conflicts(100, &placed, 1, 2000),
        Ok(Completion::Found(_))
    ));
}

#[test]
fn solve_with_placements_large_and_impossible() {
    let v = json(&["solve", "100", "--first-queen", "7", "--json"]);
    assert_eq!(v["method"], "search");
    let s = solution_of(&v);
    assert!(is_solution(&s) && s[0] == 6);
    // 6×6 has no solution with a corner queen: a normal, clear answer.
    nqueens()
        .args(["solve", "6", "--place", "1:1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("cannot be completed"));
    let v = json(&[
        "solve", "6", "--place", "1:1", "--json", "--method", "search",
    ]);
    assert!(v["solution"].is_null());
    // What solve prints, verify accepts.
    let grid = stdout_of(&["solve", "12", "--place", "6:6", "--format", "grid"]);
    nqueens().arg("verify").write_stdin(grid).assert().success();
}

#[test]
fn placement_errors_name_the_queens() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "8", "--place", "1:1", "--place", "3:3"],
            "queens 1:1 and 3:3 attack each other on a diagonal",
        ),
        (
            &["count", "8", "--place", "2:1", "--place", "2:5"],
            "queens 2:1 and 2:5 share row 2",
        ),
        (
            &["list", "8", "--place", "1:4", "--place", "6:4"],
            "queens 1:4 and 6:4 share column 4",
        ),
        (
            &["solve", "8", "--first-queen", "3", "--place", "1:5"],
            "queens 1:3 and 1:5 share row 1",
        ),
        (
            &["solve", "8", "--place", "9:1"],
            "queen 9:1 is off the 8×8 board",
        ),
        (
            &["count", "8", "--first-queen", "12"],
            "queen 1:12 is off the 8×8 board",
        ),
        (&["count", "8", "--place", "0:3"], "count from 1"),
        (&["list", "8", "--place", "3"], "write ROW:COL"),
        (&["solve", "8", "--first-queen", "0"], "not a column"),
        (
            &["count", "8", "--first-queen", "2", "-a", "symmetric"],
            "cannot count with placed queens",
        ),
        (
            &["list", "8", "--first-queen", "2", "--unique"],
            "--unique cannot be combined",
        ),
        (
            &["solve", "50", "--first-queen", "2", "--method", "construct"],
            "cannot honour placed queens",
        ),
    ];
    assert_bad_input(cases);
}

#[test]
fn verify_reads_every_format_and_names_attacks() {
    for f in ["list", "pairs", "grid", "dots", "matrix", "json"] {
        let board = stdout_of(&["solve", "8", "--format", f]);
        nqueens()
            .arg("verify")
            .write_stdin(board)
            .assert()
            .code(0)
            .stdout(predicate::str::contains("solution: 8 queens"));
    }
    nqueens()
        .args(["verify"])
        .write_stdin("15863724\n")
        .assert()
        .code(0);
    nqueens()
        .args(["verify"])
        .write_stdin("1 5 8 6 3 7 4 2\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("2 problems"))
        .stdout(predicate::str::contains(
            "queens 3:8 and 7:4 are on the same diagonal",
        ))
        .stdout(predicate::str::contains(
            "queens 4:6 and 8:2 are on the same diagonal",
        ));
    nqueens()
        .args(["verify"])
        .write_stdin("(1,1) (2,3) (3,1)\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "queens 1:1 and 3:1 share column 1",
        ))
        .stdout(predicate::str::contains("1 problem\n"))
        .stdout(predicate::str::contains("2:3").not());
}

#[test]
fn verify_bad_input_exits_2_naming_the_line() {
    let dir = std::env::temp_dir().join(format!("nqueens-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ragged = dir.join("ragged.txt");
    std::fs::write(&ragged, "Q . .\n. . Q\n. Q\n").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["verify", ragged.to_str().unwrap()],
            "line 3: row 3 has 2 squares",
        ),
        (
            &["verify", "/nonexistent/board.txt"],
            "cannot read /nonexistent/board.txt",
        ),
    ];
    assert_bad_input(cases);
    for (input, msg) in [
        ("", "no board in the input"),
        ("1 5 x 6\n", "line 1: 'x' is not a column"),
        (
            "# a board\n1 9 2\n",
            "line 2: queen 2:9 is off the 3×3 board",
        ),
        ("Q . Z\n", "'Z' is not a square"),
        ("{\"n\":3,\"solution\":null}\n", "null"),
        (
            "{\"n\":4,\"solution\":[2,4,1]}\n",
            "\"n\" is 4 but \"solution\" has 3",
        ),
        ("(1,2) (2,\n", "without its ')'"),
    ] {
        assert_refused(nqueens().arg("verify").write_stdin(input), msg);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn trace_shows_the_search_and_tree_counts_its_levels() {
    let t = stdout_of(&["trace", "4"]);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[0].trim(), "1  place     row 1, column 1");
    assert!(lines[2].contains("blocked   row 3: no free square"));
    assert!(lines
        .iter()
        .any(|l| l.contains("remove    row 2, column 3")));
    assert_eq!(lines[lines.len() - 2].trim(), "17  solution  1: 2 4 1 3");
    assert_eq!(
        lines.last().unwrap().trim(),
        "first solution found in 17 steps"
    );
    let all = stdout_of(&["trace", "8", "--all", "--max-steps", "0"]);
    assert_eq!(
        all.lines().filter(|l| l.contains("  solution  ")).count(),
        92
    );
    assert_eq!(
        all.lines().last().unwrap(),
        "every solution found (92) in 6169 steps"
    );
    let grid = stdout_of(&["trace", "4", "--format", "grid", "--max-steps", "2"]);
    assert!(grid.contains("| Q |   |   |   |\n-----------------\n|   |   | Q |   |"));
    nqueens()
        .args(["trace", "8", "--max-steps", "5"])
        .assert()
        .success()
        .stdout(predicate::str::contains("stopped after 5 steps"));
    let v = json(&["tree", "8", "--json"]);
    assert_eq!(
        v["levels"],
        serde_json::json!([1, 8, 42, 140, 344, 568, 550, 312, 92])
    );
    assert_eq!(v["total"], 2057);
    assert!(stdout_of(&["tree", "4"]).contains("total  17"));
}

#[test]
fn zero_based_placements_with_zero_based_output() {
    let v = json(&["solve", "8", "--zero-based", "--place", "0:1", "--json"]);
    assert_eq!(v["placed"], serde_json::json!([[0, 1]]));
    assert_eq!(v["solution"][0], 1);
    let s = stdout_of(&[
        "list",
        "8",
        "--zero-based",
        "--first-queen",
        "0",
        "--limit",
        "1",
    ]);
    assert_eq!(s, "0 4 7 5 2 6 1 3\n");
    assert_bad_input(&[(
        &["solve", "8", "--zero-based", "--place", "8:0"],
        "queen 8:0 is off the 8×8 board: rows and columns go from 0 to 7",
    )]);
}

/// `trace --animate` redraws its frame in place, so a frame taller than the terminal is
/// refused before the first one, saying the size it needs; one that fits plays to its end
/// and says how it ended. Run in a pseudo-terminal of a set size by `script` (util-linux).
#[test]
fn animate_fits_the_terminal_or_says_what_it_needs() {
    let in_terminal = |rows: u32, args: &str| {
        let command = format!(
            "stty rows {rows} cols 80; exec {} {args}",
            env!("CARGO_BIN_EXE_nqueens")
        );
        let out = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .output()
            .expect("script (util-linux) runs a command in a pseudo-terminal");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (code, said) = in_terminal(24, "trace 23 --animate");
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("needs 26 lines, and this terminal has 24"),
        "{said}"
    );
    assert!(said.contains("N <= 21"), "{said}");
    let (code, said) = in_terminal(24, "trace 21 --animate --delay 0 --max-steps 3");
    assert_eq!(code, Some(0), "{said}");
    let (code, said) = in_terminal(10, "trace 4 --animate --delay 0");
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("step     17  solution  1: 2 4 1 3"), "{said}");
    assert!(said.contains("first solution found in 17 steps"), "{said}");
    // Up 6 lines before each frame after the first: the board's 4, the blank one, the step's.
    assert_eq!(said.matches("\x1b[6A").count(), 16, "{said}");
}

/// A board without a solution lists nothing on stdout and says so on stderr (it printed
/// nothing at all), as `solve` says it on stdout.
#[test]
fn list_of_a_board_without_solutions_says_so() {
    for n in ["2", "3"] {
        let out = nqueens().args(["list", n]).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        assert!(out.stdout.is_empty());
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(&format!("no solution: the {n}×{n} board has none")));
    }
}

/// A queen placed by hand is marked in the text formats that draw the board, as in the
/// pictures, and `verify` reads the marks back as queens.
#[test]
fn placed_queens_are_marked_in_grid_and_dots_and_read_back() {
    for (cmd, format, mark) in [
        ("solve", "dots", ". @ . . . . . ."),
        ("solve", "grid", "|   |(Q)|   |"),
        ("list", "dots", ". @ . . . . . ."),
    ] {
        let mut args = vec![cmd, "8", "--first-queen", "2", "--format", format];
        if cmd == "list" {
            args.extend(["--limit", "1"]);
        }
        let text = common::stdout_of(&args);
        // The first row of squares (after the grid's rule) holds the placed queen.
        let first = text.lines().find(|l| !l.starts_with('-')).unwrap();
        assert!(first.starts_with(mark), "{text}");
        assert_eq!(text.matches('@').count() + text.matches("(Q)").count(), 1);
        common::nqueens()
            .args(["verify", "-"])
            .write_stdin(text)
            .assert()
            .success();
    }
}
