//! How large a plan's tasks are: as few as [`SMALL_BOARD_TASKS`] on small boards, tasks of
//! about [`TASK_SECONDS`] past N = 21, striped tasks of a few core-minutes past the table, and
//! from [`RECORD_PLAN_N`] the record plan of about [`RECORD_TASKS`] tasks.

/// The most tasks a plan of a board up to N = 21 has (checkpoints and shards of small boards
/// stay small); larger boards get smaller tasks (`Layout`'s `per_task`).
const SMALL_BOARD_TASKS: u64 = 32_768;

/// The most tasks of any plan (their estimates take 8 bytes each in every shard's set-up).
pub(in crate::quadrants) const MAX_TASKS: u64 = 1 << 22;

/// What a task of a large board should cost, in core-seconds (at the measured ~3 core-ns a
/// solution): small enough to lose little when a machine dies, large enough that the plan
/// stays under [`MAX_TASKS`].
const TASK_SECONDS: f64 = 10.0;

/// What a task of a striped plan should cost on average, in core-seconds, by
/// [`striped_seconds_per_solution`]: a few core-minutes.
const STRIPED_TASK_SECONDS: f64 = 120.0;

/// The cost of a solution in a striped plan (N = 26 to 28), in core-seconds: 3 ns doubled
/// every size from N = 25, a fit to what was measured here (AMD EPYC Zen 5, one thread):
/// 6.5 ns at N = 26 (shards), 24.5 ns at N = 28 (one part of a combination).
fn striped_seconds_per_solution(n: u32) -> f64 {
    3e-9 * 2f64.powi(n as i32 - 25)
}

/// The first board of the *record plan*: from here on a plan is striped in whole
/// combinations (no parts), about [`RECORD_TASKS`] tasks of several combinations each, so
/// that the bookkeeping of a record run (shard files, merge, status, audit) stays small and
/// a row set's east side is built once, not once per part.
pub const RECORD_PLAN_N: u32 = 27;

/// About how many tasks per record plan has (N = 27: 4,952,720; N = 28: 4,457,401), well
/// under the 10 million a record run's bookkeeping is sized for. A task is then about
/// 1/5,000,000 of the work on average, and even one of row sets 20 times the average stays
/// under 1/100,000 of it: fine enough to balance 10,000 cores.
pub const RECORD_TASKS: u64 = 5_000_000;

/// Combinations per task and parts per combination for a plan of `combos` combinations of
/// an `n` board, and whether it is striped: up to N = 21 as few tasks as
/// [`SMALL_BOARD_TASKS`]; past it tasks of about [`TASK_SECONDS`] (at 3 core-ns per solution),
/// from the board's (known or projected) count, at most [`MAX_TASKS`] of them. A board past
/// the table (`table_max_n`) whose tasks that cap would make larger is striped instead: tasks
/// of about [`STRIPED_TASK_SECONDS`], a combination split into parts where one costs more.
/// From [`RECORD_PLAN_N`] the record plan ([`record_sizes`]), unless `previous` asks for the
/// plan those boards had before it (what files of earlier runs were counted in).
pub(in crate::quadrants) fn sizes(
    n: u32,
    combos: u64,
    table_max_n: u32,
    previous: bool,
) -> (u64, u32, bool) {
    if n >= RECORD_PLAN_N && !previous {
        return record_sizes(combos);
    }
    let fewest = combos.div_ceil(MAX_TASKS);
    if n <= 21 {
        return (combos.div_ceil(SMALL_BOARD_TASKS).max(1), 1, false);
    }
    let seconds_per_combo = crate::oeis::a000170_estimate(n) * 3e-9 / combos as f64;
    let by_time = (TASK_SECONDS / seconds_per_combo).floor().max(1.0) as u64;
    if n <= table_max_n || fewest <= by_time {
        return (by_time.max(fewest).max(1), 1, false);
    }
    let seconds_per_combo =
        crate::oeis::a000170_estimate(n) * striped_seconds_per_solution(n) / combos as f64;
    let per_task = (STRIPED_TASK_SECONDS / seconds_per_combo).floor().max(1.0) as u64;
    let parts = (seconds_per_combo / STRIPED_TASK_SECONDS).ceil().max(1.0) as u32;
    (per_task, parts, true)
}

/// The record plan's sizes for `combos` combinations: whole combinations, about
/// [`RECORD_TASKS`] tasks, striped one task a stripe.
fn record_sizes(combos: u64) -> (u64, u32, bool) {
    (combos.div_ceil(RECORD_TASKS).max(1), 1, true)
}
