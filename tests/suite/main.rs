//! The end-to-end tests, one module a capability, in one test binary (one link instead of one
//! a file: the suite's build is most of its time).
//!
//! `cargo test --profile quick` (the README's test command; `--release` runs the same tests)
//! runs the quick tier: everything but the tests marked `#[ignore]` as the heavy tier
//! (full-size rehearsal checks, long kills and resumes, large N: seconds to a minute each),
//! which `.ci/run` runs too (`cargo test --profile quick -- --ignored --skip
//! rehearsal_writes_a_made_up_n28_run`; that one writes a million files for
//! scripts/measure/rehearsal.sh). One module: `cargo test --profile quick --test suite trust::`.

mod common;

mod bench;
mod board_pages;
mod claims;
mod cli;
mod counts;
mod docs;
mod estimate;
mod fields_and_audit;
mod files;
mod forgery;
mod formats;
mod library;
mod limits;
mod long_work;
mod longrun;
mod manuals;
mod output;
mod page;
mod presentation;
mod refusals;
mod rehearsal;
mod resumed_shards;
mod scripts;
mod shards;
mod solutions;
mod special_files;
mod status;
mod trust;
