//! A model of the quadrant method's join, to weigh a new decomposition before building it:
//! the two-stage join of west half-boards grouped by their north-west quarter.
//!
//! Today each west half-board is a query of the sieve of east half-boards, and a pair counts
//! where the two keys share no diagonal. Grouped, a west group's north-west quarter would be
//! matched once (stage 1), keeping the east half-boards disjoint from it, and only then each
//! member of the group tested against those (stage 2). Stage 2 makes
//! T = sum over west half-boards w of #{e : e disjoint from nw(w)} tests, and what matters is
//! T per disjoint pair (per pair counted): the survey of this question put a halving of the
//! cost per solution at T <= 40, break-even near T = 120.
//!
//! The model builds the half-boards of one row set of an even board from its quarters, as the
//! counter does (a side's north and south quarters on complementary columns, no shared
//! diagonal; the key is the 4h - 2 diagonals both halves reach), then counts the disjoint
//! pairs and T exactly, by brute force over the groups (in parallel). Row sets are balanced
//! (the east side takes h / 2 of the north rows) and drawn by a seed.
//!
//!   cargo run --profile quick --example join_model -- check          # recounts N = 8, 10, 12
//!   cargo run --profile quick --example join_model -- N SEED [SEED ...]
//!   cargo run --profile quick --features probe --example join_model -- task N ID [EVERY]
//!                                      # the row sets of task ID of the counter's plan
//!
//! Prints, per row set: the half-boards of each side, the west groups and their mean size,
//! the disjoint pairs, and T (with T for east half-boards grouped by their north-east quarter);
//! then T over all the row sets drawn, weighted by their pairs, as the cost per solution of a
//! task made of them would weigh it.

use rayon::prelude::*;
use std::collections::HashMap;

/// A quarter's placement: its columns, and its diagonals (`r + c` and `r - c + n - 1`).
#[derive(Debug, Clone, Copy)]
struct Placement {
    cols: u64,
    d1: u128,
    d2: u128,
}

/// Every placement of one queen per row of `rows` on distinct columns of `cols`, no two on a
/// diagonal.
fn quarter(rows: &[u32], cols: &[u32], n: u32) -> Vec<Placement> {
    fn rec(i: usize, p: Placement, rows: &[u32], cols: &[u32], n: u32, out: &mut Vec<Placement>) {
        let Some(&r) = rows.get(i) else {
            out.push(p);
            return;
        };
        for &c in cols {
            let (a, b) = (r + c, r + n - 1 - c);
            if p.cols >> c & 1 == 0 && p.d1 >> a & 1 == 0 && p.d2 >> b & 1 == 0 {
                let next = Placement {
                    cols: p.cols | 1 << c,
                    d1: p.d1 | 1 << a,
                    d2: p.d2 | 1 << b,
                };
                rec(i + 1, next, rows, cols, n, out);
            }
        }
    }
    let mut out = Vec::new();
    let empty = Placement {
        cols: 0,
        d1: 0,
        d2: 0,
    };
    rec(0, empty, rows, cols, n, &mut out);
    out
}

/// The match key of diagonals `d1`, `d2`: the 2h - 1 diagonals of each kind from h on, which
/// both halves of the board reach.
fn key_of(d1: u128, d2: u128, h: u32) -> u64 {
    let m = (1u128 << (2 * h - 1)) - 1;
    ((d1 >> h) & m | ((d2 >> h) & m) << (2 * h - 1)) as u64
}

/// One side's half-boards as (key, index of its north quarter), and the north quarters' keys.
fn halves(
    north_rows: &[u32],
    south_rows: &[u32],
    cols: &[u32],
    n: u32,
) -> (Vec<(u64, u32)>, Vec<u64>) {
    let h = n / 2;
    let full: u64 = cols.iter().map(|&c| 1u64 << c).sum();
    let (north, south) = (quarter(north_rows, cols, n), quarter(south_rows, cols, n));
    let mut by_cols: HashMap<u64, Vec<&Placement>> = HashMap::new();
    for s in &south {
        by_cols.entry(s.cols).or_default().push(s);
    }
    let mut out = Vec::new();
    for (i, p) in north.iter().enumerate() {
        for s in by_cols.get(&(full ^ p.cols)).into_iter().flatten() {
            if p.d1 & s.d1 == 0 && p.d2 & s.d2 == 0 {
                out.push((key_of(p.d1 | s.d1, p.d2 | s.d2, h), i as u32));
            }
        }
    }
    let keys = north.iter().map(|p| key_of(p.d1, p.d2, h)).collect();
    (out, keys)
}

/// What one row set gives: its disjoint pairs, and the stage-2 tests of each grouping.
struct Figures {
    east: usize,
    west: usize,
    groups: usize,
    pairs: u64,
    tests_west_by_nw: u64,
    tests_east_by_ne: u64,
}

/// For `queries` grouped by their north quarter (`part` the quarters' keys), the pairs of a
/// query and a `stored` key that share no bit, and the stage-2 tests: for each query, the
/// stored keys disjoint from its group's north quarter.
fn grouped(stored: &[u64], queries: &[(u64, u32)], part: &[u64]) -> (u64, u64, usize) {
    let mut groups: HashMap<u32, Vec<u64>> = HashMap::new();
    for &(k, g) in queries {
        groups.entry(g).or_default().push(k);
    }
    let count = groups.len();
    let groups: Vec<(u32, Vec<u64>)> = groups.into_iter().collect();
    let (pairs, tests) = groups
        .par_iter()
        .map(|(g, members)| {
            let nw = part[*g as usize];
            let kept: Vec<u64> = stored.iter().copied().filter(|e| e & nw == 0).collect();
            let pairs: u64 = members
                .iter()
                .map(|w| kept.iter().filter(|&&e| e & w == 0).count() as u64)
                .sum();
            (pairs, (members.len() * kept.len()) as u64)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    (pairs, tests, count)
}

/// The figures of the row set whose east side holds `east_rows` (the others west).
fn row_set(n: u32, east_rows: &[u32]) -> Figures {
    let h = n / 2;
    let west_rows: Vec<u32> = (0..n).filter(|r| !east_rows.contains(r)).collect();
    let split = |rows: &[u32]| -> (Vec<u32>, Vec<u32>) { rows.iter().partition(|&&r| r < h) };
    let (en, es) = split(east_rows);
    let (wn, ws) = split(&west_rows);
    let east_cols: Vec<u32> = (h..n).collect();
    let west_cols: Vec<u32> = (0..h).collect();
    let (east, ne) = halves(&en, &es, &east_cols, n);
    let (west, nw) = halves(&wn, &ws, &west_cols, n);
    let east_keys: Vec<u64> = east.iter().map(|x| x.0).collect();
    let west_keys: Vec<u64> = west.iter().map(|x| x.0).collect();
    let (pairs, tests_west_by_nw, groups) = grouped(&east_keys, &west, &nw);
    let (pairs_again, tests_east_by_ne, _) = grouped(&west_keys, &east, &ne);
    assert_eq!(pairs, pairs_again, "the pairs, counted from either side");
    Figures {
        east: east.len(),
        west: west.len(),
        groups,
        pairs,
        tests_west_by_nw,
        tests_east_by_ne,
    }
}

/// A balanced row set of an `n` board drawn by `seed`: h / 2 north rows and the rest of h
/// from the south rows go east.
fn balanced(n: u32, seed: u64) -> Vec<u32> {
    let h = n / 2;
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        // xorshift64*: enough to draw rows, reproducibly.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut draw = |from: Vec<u32>, k: u32| {
        let mut pool = from;
        let mut got = Vec::new();
        for _ in 0..k {
            let i = (next() % pool.len() as u64) as usize;
            got.push(pool.swap_remove(i));
        }
        got
    };
    let mut rows = draw((0..h).collect(), h / 2);
    rows.extend(draw((h..n).collect(), h - h / 2));
    rows.sort_unstable();
    rows
}

/// Every row set of `n` (each choice of h rows for the east side), added up: A000170(n).
fn total(n: u32) -> u64 {
    let h = n / 2;
    (0u32..1 << n)
        .filter(|s| s.count_ones() == h)
        .map(|s| row_set(n, &(0..n).filter(|r| s >> r & 1 == 1).collect::<Vec<_>>()).pairs)
        .sum()
}

/// Says what was wrong with the command line, and exits with 2.
fn refuse(why: &str) -> ! {
    eprintln!("join_model: {why}");
    std::process::exit(2);
}

/// The row sets of task `task` of the counter's plan of `n`, every `every`-th of them.
#[cfg(feature = "probe")]
fn task_rows(n: u32, task: u64, every: usize) -> Vec<Vec<u32>> {
    use nqueens_count::quadrants::Quadrants;
    use nqueens_count::quadrants::Settings;
    let q = Quadrants::unfilled(n, &Settings::default())
        .unwrap_or_else(|e| refuse(&format!("N = {n}: {e}")));
    let masks = q.task_east_rows(task);
    if masks.is_empty() {
        refuse(&format!(
            "task {task} of N = {n} holds no row sets of an even board"
        ));
    }
    println!(
        "N = {n}, task {task}: {} row sets, one in every {every} modelled",
        masks.len()
    );
    masks
        .iter()
        .step_by(every.max(1))
        .map(|m| (0..n).filter(|r| m >> r & 1 == 1).collect())
        .collect()
}

/// Without the `probe` feature the library does not say which row sets a task holds.
#[cfg(not(feature = "probe"))]
fn task_rows(_: u32, _: u64, _: usize) -> Vec<Vec<u32>> {
    refuse("`task` reads the counter's plan: run with --features probe")
}

/// The row sets the command line asks for, each with its label: drawn by seeds, or a task's.
fn asked(args: &[String]) -> (u32, Vec<(String, Vec<u32>)>) {
    let usage = "usage: join_model check | join_model N SEED [SEED ...] | join_model task N ID \
                 [EVERY]  (N an even number from 8 to 24; each SEED a whole number that draws \
                 a row set; ID a task of the counter's plan, EVERY the step between the row \
                 sets of it modelled, 1 by default)";
    let task = args.first().is_some_and(|a| a == "task");
    let rest = if task { &args[1..] } else { args };
    let (n, more) = match rest.split_first() {
        Some((n, more)) if !more.is_empty() => (n, more),
        _ => refuse(usage),
    };
    let n: u32 = match n.parse::<u32>() {
        Ok(n) if n.is_multiple_of(2) && (8..=24).contains(&n) => n,
        _ => refuse(&format!(
            "N = {n}: not an even number from 8 to 24\n{usage}"
        )),
    };
    let number = |s: &String| -> u64 {
        s.parse()
            .unwrap_or_else(|_| refuse(&format!("{s}: not a whole number\n{usage}")))
    };
    if task {
        let id = number(&more[0]);
        let every = more.get(1).map_or(1, number) as usize;
        let sets = task_rows(n, id, every);
        return (
            n,
            sets.into_iter()
                .map(|r| ("task row set".into(), r))
                .collect(),
        );
    }
    let sets = more
        .iter()
        .map(|s| {
            let seed = number(s);
            (format!("seed {seed}"), balanced(n, seed))
        })
        .collect();
    (n, sets)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args == ["check"] {
        for (n, known) in [(8, 92), (10, 724), (12, 14_200)] {
            let got = total(n);
            println!("N = {n}: {got} solutions over every row set (A000170: {known})");
            assert_eq!(got, known);
        }
        return;
    }
    let (n, sets) = asked(&args);
    // Over every row set modelled, weighted by its pairs: the cost per solution of the whole.
    let (mut pairs, mut by_nw, mut by_ne, mut best) = (0u64, 0u64, 0u64, 0u64);
    for (label, rows) in &sets {
        let f = row_set(n, rows);
        pairs += f.pairs;
        by_nw += f.tests_west_by_nw;
        by_ne += f.tests_east_by_ne;
        best += f.tests_west_by_nw.min(f.tests_east_by_ne);
        let per = |t: u64| t as f64 / f.pairs.max(1) as f64;
        println!(
            "N = {n}, {label}, east rows {rows:?}: east {}, west {} in {} groups (mean {:.1}), \
             disjoint pairs {}; stage-2 tests per pair: west by NW {:.0}, east by NE {:.0}",
            f.east,
            f.west,
            f.groups,
            f.west as f64 / f.groups.max(1) as f64,
            f.pairs,
            per(f.tests_west_by_nw),
            per(f.tests_east_by_ne)
        );
    }
    let over = |t: u64| t as f64 / pairs.max(1) as f64;
    println!(
        "N = {n}, {} row sets: disjoint pairs {pairs}; stage-2 tests per pair: west by NW {:.0}, \
         east by NE {:.0}, the better of the two in each row set {:.0}",
        sets.len(),
        over(by_nw),
        over(by_ne),
        over(best)
    );
}
