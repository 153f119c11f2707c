//! How the process ends: the whole exit policy in one place. [`Exit`] names each code;
//! [`MEANINGS`] says what each means, the one text that `nqueens --help` ([`help`]) and the
//! README's table (checked by a test here) are made of; [`Exit::of`] maps an error to its
//! code; [`with_flags`] says a library message in the command line's words. `main` uses
//! nothing else.

use super::args::env;
use nqueens::Error;

/// What an exit code means: the codes (one, or the three of the signals) and their meaning.
#[derive(Debug, Clone, Copy)]
pub struct Meaning {
    /// The codes, as a reader sees them (`2`, `129, 130, 143`).
    pub codes: &'static str,
    /// What they mean.
    pub meaning: &'static str,
}

/// Every exit code and what it means, in order.
pub const MEANINGS: [Meaning; 5] = [
    Meaning {
        codes: "0",
        meaning: "success",
    },
    Meaning {
        codes: "1",
        meaning: "runtime failure (I/O, a result that could not be written); `verify`: a board \
                  that is not a solution; `status`: not finished yet",
    },
    Meaning {
        codes: "2",
        meaning: "bad usage or input, or a file that fails a check: the message says what was \
                  wrong and what is allowed, and stdout stays empty",
    },
    Meaning {
        codes: "3",
        meaning: "a computed count disagrees with a known OEIS value; `audit`: a recount differs",
    },
    Meaning {
        codes: "129, 130, 143",
        meaning: "stopped by SIGHUP, Ctrl-C or SIGTERM: `count` (with `--checkpoint`, what was \
                  finished is saved), `bench` (the finished runs reported), `estimate` (the \
                  finished draws' projection reported, marked as stopped), `trace --animate`",
    },
];

/// The paragraph of `nqueens --help` that lists the exit codes, made of [`MEANINGS`].
pub fn help() -> String {
    let each: Vec<String> = MEANINGS
        .iter()
        .map(|m| format!("{} {}", m.codes, m.meaning))
        .collect();
    format!("Exit codes: {}.", each.join(". "))
}

/// The README's table of exit codes, made of [`MEANINGS`].
#[cfg(test)]
fn markdown() -> String {
    let mut t = String::from("| code | meaning |\n| --- | --- |\n");
    for m in MEANINGS {
        t += &format!("| {} | {} |\n", m.codes, m.meaning);
    }
    t
}

/// The codes the program exits with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: the command did what was asked.
    Success,
    /// 1: a runtime failure (I/O, a result that could not be written); `verify`: a board
    /// that is not a solution; `status`: a run not finished yet.
    Failure,
    /// 2: bad usage or input, or a file that fails a check.
    Usage,
    /// 3: a computed count disagrees with a known value; `audit`: a recount differs.
    Mismatch,
    /// 128 + the signal's number: a count stopped by SIGHUP (129), SIGINT (130) or SIGTERM
    /// (143).
    Signal(u8),
}

impl Exit {
    /// The number the process exits with.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Failure => 1,
            Exit::Usage => 2,
            Exit::Mismatch => 3,
            Exit::Signal(n) => 128u8.saturating_add(n),
        }
    }

    /// The exit of a command that failed with `e`: a count stopped by a signal exits with
    /// that signal's code, a library error with its own ([`Error::exit_code`]), anything else
    /// as a runtime failure.
    pub fn of(e: &anyhow::Error) -> Exit {
        if let Some(i) = e.downcast_ref::<Interrupted>() {
            return Exit::Signal(i.signal);
        }
        match e.downcast_ref::<Error>().map(Error::exit_code) {
            Some(2) => Exit::Usage,
            Some(3) => Exit::Mismatch,
            _ => Exit::Failure,
        }
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> std::process::ExitCode {
        std::process::ExitCode::from(e.code())
    }
}

/// The first stopping signal this process was sent, 0 while none.
static SIGNALLED: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Notes that stopping signal `signal` came (the first one is kept). It only stores an
/// atomic, so a signal handler may call it.
pub fn note_signal(signal: u8) {
    let _ = SIGNALLED.compare_exchange(
        0,
        signal,
        std::sync::atomic::Ordering::SeqCst,
        std::sync::atomic::Ordering::SeqCst,
    );
}

/// The first stopping signal this process was sent, if one was: what a wait (for a FIFO's
/// reader) checks, so that a signal ends it.
pub fn signalled() -> Option<u8> {
    match SIGNALLED.load(std::sync::atomic::Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// A count stopped by a signal: says what was kept, and exits with the signal's code.
#[derive(Debug)]
pub struct Interrupted {
    /// The signal's number (1, 2 or 15).
    pub signal: u8,
    /// What was saved or lost, and how to go on.
    pub message: String,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Interrupted {}

/// The library's options as its messages name them (`` `max_memory` ``: the field of
/// `Options` or `LongRun`), and the flags that set them on the command line.
const FLAGS: [(&str, &str); 9] = [
    ("`max_memory`", "--max-memory"),
    ("`zero_based`", "--zero-based"),
    ("`shard`", "--shard I/K"),
    ("`threads`", "--threads"),
    ("the `symmetric` algorithm", "--algorithm symmetric"),
    ("a `checkpoint` file", "a --checkpoint file"),
    ("`checkpoint` file", "--checkpoint file"),
    ("`quadrants.parts`", env::PARTS),
    ("`force`", "--force"),
];

/// A library message as the command line says it: the options it names become the flags
/// that set them.
pub fn with_flags(message: &str) -> String {
    FLAGS.iter().fold(message.to_string(), |m, (option, flag)| {
        m.replace(option, flag)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's table of exit codes is the one [`MEANINGS`] makes, and `--help` says
    /// every code.
    #[test]
    fn the_readme_and_help_say_the_codes_as_the_code_does() {
        let readme = include_str!("../../README.md");
        assert!(
            readme.contains(&markdown()),
            "README's table, as it should be:\n{}",
            markdown()
        );
        let help = help();
        for exit in [Exit::Success, Exit::Failure, Exit::Usage, Exit::Mismatch] {
            assert!(help.contains(&format!(" {} ", exit.code())), "{help}");
        }
        for signal in [1, 2, 15] {
            assert!(
                help.contains(&Exit::Signal(signal).code().to_string()),
                "{help}"
            );
        }
    }

    /// Every code is the number `--help` and the README give it.
    #[test]
    fn each_exit_has_its_number() {
        let codes = [
            (Exit::Success, 0),
            (Exit::Failure, 1),
            (Exit::Usage, 2),
            (Exit::Mismatch, 3),
            (Exit::Signal(1), 129),
            (Exit::Signal(2), 130),
            (Exit::Signal(15), 143),
        ];
        for (exit, code) in codes {
            assert_eq!(exit.code(), code, "{exit:?}");
        }
        let usage = anyhow::Error::new(Error::Usage("no".into()));
        assert_eq!(Exit::of(&usage), Exit::Usage);
        let stopped = anyhow::Error::new(Interrupted {
            signal: 15,
            message: "stopped".into(),
        });
        assert_eq!(Exit::of(&stopped), Exit::Signal(15));
        assert_eq!(Exit::of(&anyhow::anyhow!("other")), Exit::Failure);
    }
}
