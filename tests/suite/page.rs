//! The search as a web page (`trace --format html`) and a board as one (`solve --format
//! html`): the page holds every step `trace` prints, opens at the step its address names,
//! and shows at step k the queens of step k, checked in a real browser (headless Chromium).
//!
//! Where no Chromium is installed, the browser checks are skipped with a note, unless
//! `NQUEENS_REQUIRE_BROWSER` is set (as `.ci/run` sets it), when they fail instead.

use crate::common::{self, assert_refused, nqueens, stdout_of};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The headless browser: `NQUEENS_CHROMIUM`, or `chromium` (Debian's package) or
/// `chromium-browser` or `google-chrome` on the PATH.
fn browser() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("NQUEENS_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

/// The browser, or `None` with a note where there is none and none is required.
pub(crate) fn browser_or_skip(test: &str) -> Option<PathBuf> {
    let found = browser();
    if found.is_none() {
        assert!(
            std::env::var_os("NQUEENS_REQUIRE_BROWSER").is_none(),
            "NQUEENS_REQUIRE_BROWSER is set and no Chromium was found: install it (apt-get \
             install chromium) or name it with NQUEENS_CHROMIUM"
        );
        eprintln!("note: {test}: no Chromium on this machine, the browser checks skipped");
    }
    found
}

/// The page `file` as the browser has it once its script ran, opened at `#step=K` where
/// `step` is given.
pub(crate) fn rendered(browser: &Path, file: &Path, step: Option<u64>) -> String {
    rendered_in(browser, file, step, "800,600")
}

/// [`rendered`] in a window of `size` (`"800,600"`: a projector's).
fn rendered_in(browser: &Path, file: &Path, step: Option<u64>, size: &str) -> String {
    let url = match step {
        Some(k) => format!("file://{}#step={k}", file.display()),
        None => format!("file://{}", file.display()),
    };
    let out = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("--window-size={size}"))
        .arg(&url)
        .output()
        .unwrap();
    assert!(out.status.success(), "{url}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The value of attribute `name` of the element with id `id` in `dom`.
pub(crate) fn attribute(dom: &str, id: &str, name: &str) -> String {
    let at = dom.find(&format!("id=\"{id}\"")).expect(id);
    let tag = &dom[dom[..at].rfind('<').unwrap()..at + dom[at..].find('>').unwrap()];
    let key = format!(" {name}=\"");
    let start = tag.find(&key).unwrap_or_else(|| panic!("{name} in {tag}")) + key.len();
    tag[start..start + tag[start..].find('"').unwrap()].to_string()
}

/// The text of the element with id `id` in `dom`, tags dropped and spaces collapsed.
pub(crate) fn text(dom: &str, id: &str) -> String {
    let at = dom.find(&format!("id=\"{id}\"")).expect(id);
    let inner = &dom[at + dom[at..].find('>').unwrap() + 1..];
    let end = inner.find("</p>").unwrap();
    let mut plain = String::new();
    let mut in_tag = false;
    for ch in inner[..end].chars() {
        match ch {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => plain.push(c),
            _ => {}
        }
    }
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What `trace` prints of an `n` board (`extra` options added; `placed`, the queens placed
/// first, from 1), step by step: each step's line (its words, spaces collapsed) and the
/// queens on the board after it, counted from 1 (`"1:2 2:4"`).
fn steps_of(n: u32, extra: &[&str], placed: &[(usize, u64)]) -> Vec<(String, String)> {
    let base = u64::from(!extra.contains(&"--zero-based"));
    let mut args = vec![
        "trace".to_string(),
        n.to_string(),
        "--max-steps".into(),
        "0".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let lines = stdout_of(&args);
    let json = stdout_of(&[args.as_slice(), &["--format", "json"]].concat());
    let mut board: Vec<Option<u64>> = vec![None; n as usize];
    for &(r, c) in placed {
        board[r - 1] = Some(c);
    }
    let mut steps = Vec::new();
    for (line, event) in lines.lines().zip(json.lines()) {
        let e: serde_json::Value = serde_json::from_str(event).unwrap();
        let row = e["row"].as_u64().map(|r| (r + 1 - base) as usize);
        let col = e["col"].as_u64().map(|c| c + 1 - base);
        match e["event"].as_str().unwrap() {
            "place" => board[row.unwrap() - 1] = col,
            "remove" => board[row.unwrap() - 1] = None,
            _ => {}
        }
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        let queens: Vec<String> = board
            .iter()
            .enumerate()
            .filter_map(|(r, c)| c.map(|c| format!("{}:{c}", r + 1)))
            .collect();
        steps.push((words.join(" "), queens.join(" ")));
    }
    steps
}

/// The steps worth opening the page at: a take-back, a blocked row, a solution, and one
/// more in between.
fn telling_steps(steps: &[(String, String)]) -> Vec<u64> {
    let first = |word: &str| {
        steps
            .iter()
            .position(|(line, _)| line.starts_with(word))
            .map(|i| i as u64 + 1)
    };
    let mut ks: Vec<u64> = [first("remove"), first("blocked"), first("solution")]
        .into_iter()
        .flatten()
        .collect();
    ks.push(steps.len() as u64 / 2 + 1);
    ks
}

/// For N = 4, 6 and 8, the page opened at a take-back, a blocked row, a solution and a
/// step between shows the queens `trace --format json` has after that step, and the step's
/// line in the words `trace` prints.
#[test]
fn the_page_shows_at_step_k_what_trace_prints_at_step_k() {
    let Some(chromium) = browser_or_skip("the page") else {
        return;
    };
    let dir = common::tmpdir("page", "steps");
    let mut checks = Vec::new();
    for n in [4u32, 6, 8] {
        let steps = steps_of(n, &["--all"], &[]);
        let file = dir.join(format!("search-{n}.html"));
        let out = file.to_str().unwrap();
        let size = n.to_string();
        let args = [
            "trace",
            &size,
            "--all",
            "--max-steps",
            "0",
            "--format",
            "html",
            "-o",
            out,
        ];
        nqueens().args(args).assert().success();
        for k in telling_steps(&steps) {
            checks.push((file.clone(), k, steps[k as usize - 1].clone()));
        }
    }
    std::thread::scope(|s| {
        let runs: Vec<_> = checks
            .iter()
            .map(|(file, k, want)| {
                let chromium = &chromium;
                s.spawn(move || {
                    let dom = rendered(chromium, file, Some(*k));
                    assert_eq!(attribute(&dom, "board", "data-step"), k.to_string());
                    assert_eq!(attribute(&dom, "board", "data-queens"), want.1, "step {k}");
                    assert_eq!(text(&dom, "line"), format!("step {k}: {}", want.0));
                })
            })
            .collect();
        for r in runs {
            r.join().unwrap();
        }
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Queens placed before the search are on the board from step 0 and at every step after;
/// `--zero-based` numbers the page's lines from 0 and leaves `data-queens` from 1.
#[test]
fn a_page_from_placed_queens_keeps_them_and_counts_from_zero_when_asked() {
    let Some(chromium) = browser_or_skip("placed queens") else {
        return;
    };
    let dir = common::tmpdir("page", "placed");
    let file = dir.join("placed.html");
    let out = file.to_str().unwrap();
    let args = [
        "trace",
        "6",
        "--place",
        "1:3",
        "--zero-based",
        "--format",
        "html",
        "-o",
        out,
    ];
    // --zero-based reads --place from 0 too: row 1, column 3 is 2:4 counted from 1.
    nqueens().args(args).assert().success();
    let start = rendered(&chromium, &file, None);
    assert_eq!(attribute(&start, "board", "data-queens"), "2:4");
    let steps = steps_of(6, &["--place", "1:3", "--zero-based"], &[(2, 4)]);
    let k = steps.len() as u64;
    let end = rendered(&chromium, &file, Some(k));
    assert_eq!(
        attribute(&end, "board", "data-queens"),
        steps[k as usize - 1].1
    );
    assert!(steps[k as usize - 1].1.contains("2:4"));
    assert_eq!(
        text(&end, "line"),
        format!("step {k}: {}", steps[k as usize - 1].0)
    );
    assert!(text(&end, "summary").starts_with("first solution found in"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The page fetches nothing: no external script, style sheet, font or picture.
#[test]
fn the_page_stands_alone() {
    let page = stdout_of(&["trace", "5", "--format", "html"]);
    for outside in [
        "src=",
        "<link",
        "@import",
        "url(http",
        "@font-face",
        "fetch(",
    ] {
        assert!(!page.contains(outside), "the page holds {outside}");
    }
    assert!(page.contains("<script id=\"data\" type=\"application/json\">"));
}

/// A trace too long for a page is refused before anything is written; -o is for the page;
/// a board too large to draw is refused.
#[test]
fn pages_refuse_what_they_cannot_show() {
    let dir = common::tmpdir("page", "refusals");
    let file = dir.join("long.html");
    let out = file.to_str().unwrap();
    let long = [
        "trace",
        "12",
        "--all",
        "--max-steps",
        "0",
        "--format",
        "html",
        "-o",
        out,
    ];
    assert_refused(nqueens().args(long), "a page replays at most 1000000 steps");
    assert!(!file.exists());
    // The whole search of N = 10 (106,615 steps) makes a page.
    let whole = [
        "trace",
        "10",
        "--all",
        "--max-steps",
        "0",
        "--format",
        "html",
        "-o",
        out,
    ];
    nqueens().args(whole).assert().success();
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("106615 steps"));
    // A page cut by the step limit says so, on the page and on the terminal.
    let cut = nqueens()
        .args(["trace", "12", "--all", "--format", "html", "-o", out])
        .output()
        .unwrap();
    assert!(cut.status.success(), "{cut:?}");
    let said = String::from_utf8_lossy(&cut.stderr);
    assert!(
        said.contains("the page stops at step 10000, before the search ends"),
        "{said}"
    );
    let page = std::fs::read_to_string(&file).unwrap();
    assert!(page.contains("The trace stops there, before the search ends"));
    // solve writes its page (or any format) where -o says.
    let board = dir.join("board.html");
    nqueens()
        .args(["solve", "8", "--format", "html", "-o"])
        .arg(&board)
        .assert()
        .success()
        .stdout("");
    assert!(std::fs::read_to_string(&board)
        .unwrap()
        .starts_with("<!doctype html>"));
    assert_refused(
        nqueens().args(["trace", "8", "-o", out]),
        "-o writes the page of --format html",
    );
    assert_refused(
        nqueens().args(["trace", "33", "--format", "html"]),
        "trace draws boards up to N = 32",
    );
    assert_refused(
        nqueens().args(["solve", "33", "--format", "html"]),
        "--format html draws boards up to N = 32",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A blocked row looks full: every square of it is attacked by a queen above or was tried
/// already (`data-tried`, row:column from 1). Checked at eight of the steps of `trace 6 --all`
/// that `trace` calls blocked, spread from the first to the last (a browser a step: each takes
/// a second or more), with the history of the last steps beside the board; at each, the page's
/// own check that the tried squares it kept step by step are those the events give.
#[test]
fn a_blocked_row_shows_its_tried_squares() {
    let n = 6usize;
    let steps = steps_of(n as u32, &["--all"], &[]);
    let blocked: Vec<u64> = (1..=steps.len() as u64)
        .filter(|&k| steps[k as usize - 1].0.contains("blocked"))
        .collect();
    assert!(blocked.len() > 10, "{} blocked steps", blocked.len());
    let Some(chromium) = browser_or_skip("tried squares") else {
        return;
    };
    let dir = common::tmpdir("page", "tried");
    let file = dir.join("trace.html");
    nqueens()
        .args(["trace", "6", "--all", "--format", "html", "-o"])
        .arg(&file)
        .assert()
        .success();
    let parse = |list: &str| -> Vec<(usize, usize)> {
        list.split_whitespace()
            .map(|rc| {
                let (r, c) = rc.split_once(':').unwrap();
                (
                    r.parse::<usize>().unwrap() - 1,
                    c.parse::<usize>().unwrap() - 1,
                )
            })
            .collect()
    };
    // Eight blocked steps, the first and the last among them, each in a browser of its own.
    let stride = (blocked.len() - 1).div_ceil(7);
    let mut picked: Vec<u64> = blocked.iter().step_by(stride).copied().collect();
    picked.push(*blocked.last().unwrap());
    picked.dedup();
    let check = |k: u64| {
        let dom = rendered(&chromium, &file, Some(k));
        let line = text(&dom, "line");
        let row: usize = line
            .split("blocked row ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|r| r.parse().ok())
            .unwrap_or_else(|| panic!("step {k}: {line}"));
        let queens = parse(&attribute(&dom, "board", "data-queens"));
        let tried = parse(&attribute(&dom, "board", "data-tried"));
        for c in 0..n {
            let attacked = queens.iter().any(|&(qr, qc)| {
                qr != row - 1 && (qc == c || qr.abs_diff(row - 1) == qc.abs_diff(c))
            });
            assert!(
                attacked || tried.contains(&(row - 1, c)),
                "step {k}, {line}: square {row}:{} is neither attacked nor tried ({tried:?})",
                c + 1
            );
        }
        assert!(dom.contains("id=\"history\""), "step {k}: no history");
        // Kept step by step and worked out again from the events, they agree.
        assert_eq!(
            attribute(&dom, "board", "data-tried-check"),
            "agrees",
            "step {k}"
        );
    };
    assert!(picked.len() >= 8, "{picked:?}");
    std::thread::scope(|s| {
        let runs: Vec<_> = picked.iter().map(|&k| s.spawn(move || check(k))).collect();
        for r in runs {
            r.join().unwrap();
        }
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

/// On a projector's 800×600 (the headless browser's window) the board is most of the screen,
/// not the panel, and a solution's columns stay on one line.
#[test]
fn the_page_reads_on_a_projector() {
    let Some(chromium) = browser_or_skip("the page on a projector") else {
        return;
    };
    let dir = common::tmpdir("page", "projector");
    let file = dir.join("trace.html");
    nqueens()
        .args(["trace", "8", "--format", "html", "-o"])
        .arg(&file)
        .assert()
        .success();
    let steps = steps_of(8, &[], &[]);
    let solved = steps
        .iter()
        .position(|(line, _)| line.contains("solution"))
        .unwrap()
        + 1;
    let dom = rendered_in(&chromium, &file, Some(solved as u64), "800,600");
    let style = attribute(&dom, "board", "style");
    let width: u32 = style
        .split("width: ")
        .nth(1)
        .and_then(|w| w.split("px").next())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{style}"));
    // The panel once kept its widest and left the board 326 px here; the board now takes the
    // height the window has (the header and the labels aside).
    assert!(
        width >= 380,
        "the board is {width} px wide in an 800-px window"
    );
    assert!(
        dom.contains("class=\"nowrap\""),
        "the solution's columns may wrap"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
