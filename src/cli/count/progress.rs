//! What a count shows while it runs: an indicatif bar on a terminal, or, with `--progress`,
//! a line on stderr every `--progress-every` seconds (for batch logs).

use indicatif::{ProgressBar, ProgressStyle};
use nqueens::Progress;
use std::io::IsTerminal;
use std::time::Duration;

/// Shows progress: an indicatif bar on a terminal, periodic lines with `--progress`.
pub struct ProgressView {
    pub bar: Option<ProgressBar>,
    every: Option<Duration>,
    next_line: Duration,
    /// Whether the resume from a checkpoint was reported (once, in the log lines).
    said_resumed: bool,
}

impl ProgressView {
    /// What a count of an `n` board shows: lines every `every` where asked for (`lines`), else
    /// a bar on a terminal unless `quiet`.
    pub fn new(n: u32, lines: bool, every: Duration, quiet: bool) -> ProgressView {
        let bar = (!lines && !quiet && std::io::stderr().is_terminal()).then(|| {
            // Position: thousandths of the expected work.
            let b = ProgressBar::new(1000);
            b.set_style(
                // `wide_msg` is cut to the terminal's width: one line, never wrapped.
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:20}] {percent:>3}% {wide_msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            // Drawn while the plan is built, which takes seconds for large N.
            b.set_message("planning the tasks…");
            b.enable_steady_tick(Duration::from_millis(250));
            b
        });
        if lines {
            note!("progress: planning the tasks of N = {n}");
        }
        let every = lines.then_some(every);
        ProgressView {
            bar,
            every,
            next_line: every.unwrap_or_default(),
            said_resumed: false,
        }
    }

    /// Whether anything is shown (a bar or progress lines).
    pub fn shows(&self) -> bool {
        self.bar.is_some() || self.every.is_some()
    }

    pub fn show(&mut self, p: &Progress) {
        if self.every.is_some() && p.resumed > 0 && !self.said_resumed {
            self.said_resumed = true;
            note!(
                "progress: resumed from the checkpoint: {} of {} tasks already done ({:.1}% of \
                 the expected work)",
                p.resumed,
                p.total,
                100.0 * p.resumed_work
            );
        }
        let eta = p.eta().map_or("unknown".to_string(), |d| {
            format!("{:.0}s", d.as_secs_f64())
        });
        if let Some(b) = &self.bar {
            b.set_position((p.work * 1000.0) as u64);
            b.set_message(format!(
                "{}/{} tasks, {} solutions, ETA {eta}",
                p.done, p.total, p.solutions
            ));
        }
        if let Some(every) = self.every {
            if p.elapsed >= self.next_line || p.done == p.total {
                note!(
                    "progress: {}/{} tasks, {:.1}% of the expected work, {} solutions, {:.0}s \
                     elapsed, ETA {eta}",
                    p.done,
                    p.total,
                    100.0 * p.work,
                    p.solutions,
                    p.elapsed.as_secs_f64()
                );
                while self.next_line <= p.elapsed {
                    self.next_line += every;
                }
            }
        }
    }
}
