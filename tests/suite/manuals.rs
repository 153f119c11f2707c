//! What the program ships besides itself: shell completions and man pages, generated from its
//! own definitions.

use crate::common;

use common::{assert_bad_input, nqueens, stdout_of};

/// Completions for every shell clap knows and the man page, generated from the
/// definitions: they name the subcommands and options `--help` names.
#[test]
fn completions_and_the_man_page_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = nqueens().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        for word in ["merge", "status", "audit", "--shard", "--checkpoint"] {
            assert!(text.contains(word), "{shell}: no {word}");
        }
    }
    let out = nqueens().arg("man").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(".TH nqueens 1"), "{text}");
    assert!(
        text.contains("merge") && text.contains("completions"),
        "{text}"
    );
    let out = nqueens().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Every command has its man page: `man COMMAND` prints it (its options
/// described), `man --dir DIR` writes them all (nqueens.1, nqueens-count.1, …) for `man` to
/// find; an unknown command or a missing directory is refused.
#[test]
fn every_command_has_a_man_page() {
    let count = stdout_of(&["man", "count"]);
    assert!(count.contains(".TH nqueens-count 1"), "{count}");
    assert!(
        count.contains("\\-\\-shard") && count.contains("\\-\\-checkpoint"),
        "{count}"
    );
    let dir = common::tmpdir("cli", "man-pages");
    nqueens()
        .args(["man", "--dir"])
        .arg(&dir)
        .assert()
        .success();
    for page in [
        "nqueens.1",
        "nqueens-count.1",
        "nqueens-merge.1",
        "nqueens-status.1",
    ] {
        let text = std::fs::read_to_string(dir.join(page)).unwrap();
        assert!(text.contains(".TH"), "{page}");
    }
    assert_bad_input(&[
        (&["man", "nope"], "no command `nope`"),
        (&["man", "--dir", "/no/such/dir"], "not a directory"),
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A command's page lists the options the command takes: `-V, --version` is the program's
/// (`nqueens -V`, with the commit it was built from), and no page of a command offers it.
#[test]
fn only_the_program_has_a_version_option() {
    let version = stdout_of(&["--version"]);
    assert!(version.starts_with(&format!("nqueens {} (commit ", env!("CARGO_PKG_VERSION"))));
    assert!(stdout_of(&["man"]).contains("\\-\\-version"));
    for command in ["count", "solve", "bench", "trace"] {
        let page = stdout_of(&["man", command]);
        assert!(
            !page.contains("\\-\\-version"),
            "{command}'s page offers --version"
        );
        assert!(page.contains(&format!("\"nqueens {}\"", env!("CARGO_PKG_VERSION"))));
    }
}
