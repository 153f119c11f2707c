//! Boards as pages and pictures: `solve` and `list` with `--format html`, where `-o` writes
//! them, and the one mark of a queen placed by hand.

use crate::common::{self, assert_refused, nqueens, stdout_of};
use crate::page::{attribute, browser_or_skip, rendered, text};
use std::process::Command;

/// `solve --format html` draws its solution as a page in the same style.
#[test]
fn solve_draws_its_board_as_a_page() {
    let page = stdout_of(&["solve", "8", "--format", "html"]);
    assert!(page.starts_with("<!doctype html>"));
    let Some(chromium) = browser_or_skip("solve's page") else {
        return;
    };
    let dir = common::tmpdir("page", "solve");
    let file = dir.join("solve.html");
    std::fs::write(&file, page).unwrap();
    let dom = rendered(&chromium, &file, None);
    assert_eq!(
        attribute(&dom, "board", "data-queens"),
        "1:1 2:5 3:8 4:6 5:3 6:7 7:2 8:4"
    );
    assert_eq!(text(&dom, "line"), "solution: 1 5 8 6 3 7 2 4");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A queen placed by hand has one mark in every picture: the blue of the web page is the blue
/// of the SVG, ring and crown.
#[test]
fn a_placed_queen_is_the_same_blue_in_the_page_and_the_picture() {
    let blue = nqueens::board::svg::PLACED;
    let svg = stdout_of(&["solve", "8", "--place", "2:3", "--format", "svg"]);
    assert!(svg.contains(&format!("stroke=\"{blue}\"")), "no ring");
    assert!(svg.contains(&format!("fill=\"{blue}\"")), "no blue crown");
    let page = stdout_of(&["solve", "8", "--place", "2:3", "--format", "html"]);
    assert!(
        page.contains(&format!("--blue: {blue};")),
        "the page's blue is another"
    );
}

/// `list --format html` is a page of every board, numbered as the list numbers them; it goes
/// where `-o` says, which the streamed formats refuse.
#[test]
fn list_draws_its_boards_as_a_page() {
    let dir = common::tmpdir("page", "list");
    let file = dir.join("all.html");
    nqueens()
        .args(["list", "8", "--format", "html", "-o"])
        .arg(&file)
        .assert()
        .success()
        .stdout("");
    let page = std::fs::read_to_string(&file).unwrap();
    assert!(page.starts_with("<!doctype html>"));
    assert!(page.contains("<h1>92 solutions of the 8×8 board</h1>"));
    assert_eq!(page.matches("<figure><svg").count(), 92);
    assert!(page.contains("<figcaption>92</figcaption>"));
    assert_refused(
        nqueens()
            .args(["list", "8", "--format", "dots", "-o"])
            .arg(&file),
        "-o writes the picture or page of --format svg or html",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A web page is not written onto a terminal: it is refused with the -o to give (run under
/// `script`, which gives the command a terminal; skipped where there is none).
#[test]
fn a_page_is_not_written_onto_a_terminal() {
    let bin = env!("CARGO_BIN_EXE_nqueens");
    for command in [
        "solve 8 --format html",
        "trace 5 --format html",
        "list 6 --format html",
    ] {
        let out = match Command::new("script")
            .args(["-qec", &format!("{bin} {command}"), "/dev/null"])
            .output()
        {
            Ok(out) => out,
            Err(_) => {
                eprintln!("note: no `script` here: the terminal check skipped");
                return;
            }
        };
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{command}: {said}");
        assert!(said.contains("give -o FILE.html"), "{command}: {said}");
        assert!(!said.contains("<!doctype"), "{command}: {said}");
    }
}
