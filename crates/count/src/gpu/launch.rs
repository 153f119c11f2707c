//! One launch of the GPU kernel: a batch of tasks' boards, expanded a few rows on the host
//! into subtrees, one per GPU thread, and each task's counts put back together.

use crate::backtracking::kernel::found::Found;
use nqueens_board::spec::Spec;

/// Which of the backtracking kernel's two searches counts a launch (docs/guide/gpu.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuSearch {
    /// `nq_count`: 64-bit masks, the stack in the thread's local memory, one start per thread.
    Local,
    /// `nq_count32`: 32-bit masks (boards of N <= 32; wider ones are counted by `Local`),
    /// the stack in shared memory, threads taking starts from a global counter.
    Shared,
}

/// Threads a block of a launch, on the GPU and in the kernel's CPU build alike.
pub const THREADS: u32 = 128;

/// The most free rows per board has (the kernel's arrays).
pub const MAX_ROWS: usize = 64;

/// Threads a block of the second search (`nq_count32`), whose stacks share the block's
/// shared memory: at 64 threads and 32 levels of 16 bytes, 32 KiB.
pub const THREADS32: u32 = 64;

/// The widest board the second search takes (its masks are 32 bits).
pub const MAX_N32: u32 = 32;

/// A task's board as the kernel reads it (`struct nq_board` in `kernel.cu`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct LaunchBoard {
    /// The board's columns.
    pub full: u64,
    /// Free row `i`'s squares the fixed queens attack or the task bars.
    pub forbid: [u64; MAX_ROWS],
    /// How far the diagonals move from free row `i` to the next.
    pub gap: [u8; MAX_ROWS],
    /// Free rows.
    pub k: u32,
    /// The last free row (`k - 1`).
    pub last: u32,
}

/// A subtree of a board, one thread's work (`struct nq_start` in `kernel.cu`): the queens of
/// the board's first `level` free rows placed, the columns and diagonals they take as seen
/// from free row `level`, and that row's free squares (`avail`, counted as nodes already).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Start {
    /// Columns taken.
    pub cols: u64,
    /// The diagonals going down to the right, shifted to row `level`.
    pub d1: u64,
    /// The diagonals going down to the left, shifted to row `level`.
    pub d2: u64,
    /// Row `level`'s free squares.
    pub avail: u64,
    /// The board's index in the launch.
    pub board: u32,
    /// The free row the subtree starts at (below the board's last).
    pub level: u32,
}

/// One launch of the kernel: the boards of a batch of tasks, their subtrees, and what the
/// host counted of each task while it expanded it.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// The tasks' boards (one per task that has subtrees).
    pub boards: Vec<LaunchBoard>,
    /// The subtrees, a thread each.
    pub starts: Vec<Start>,
    /// The task of each board.
    owner: Vec<usize>,
    /// What the host counted of each task: the rows it expanded, and whole the tasks of one
    /// free row or none.
    host: Vec<Found>,
}

impl Launch {
    /// Whether every board fits the second search's 32-bit masks.
    pub fn fits32(&self) -> bool {
        self.boards.iter().all(|b| b.full >> MAX_N32 == 0)
    }

    /// The most levels a start's stack takes (its rows from its level to its board's last),
    /// at least 1.
    pub fn stack_levels(&self) -> u32 {
        let levels = |s: &Start| self.boards[s.board as usize].last - s.level + 1;
        self.starts.iter().map(levels).max().unwrap_or(1)
    }

    /// The launch of `specs`, each expanded on the host to `depth` free rows at most (fewer
    /// where its last free row comes first: the kernel always searches at least one row).
    pub fn of(specs: &[Spec], depth: usize) -> Launch {
        let mut l = Launch {
            host: vec![Found::default(); specs.len()],
            ..Launch::default()
        };
        for (task, s) in specs.iter().enumerate() {
            l.expand(task, s, depth);
        }
        l
    }

    /// Expands task `task` (board `s`): counts its first row's squares as nodes, and its
    /// placements of the free rows above `depth` (or above its last free row but one) on
    /// the host; each one with free squares left is a subtree.
    fn expand(&mut self, task: usize, s: &Spec, depth: usize) {
        if s.k == 0 {
            self.host[task].solutions = 1;
            return;
        }
        let first = s.full & !s.forbid[0];
        self.host[task].nodes = first.count_ones() as u64;
        if s.k == 1 {
            self.host[task].solutions = first.count_ones() as u64;
            return;
        }
        let last = s.k - 1;
        let board = self.boards.len() as u32;
        let mut b = LaunchBoard {
            full: s.full,
            forbid: [0; MAX_ROWS],
            gap: [0; MAX_ROWS],
            k: s.k as u32,
            last: last as u32,
        };
        b.forbid[..s.k].copy_from_slice(&s.forbid[..s.k]);
        b.gap[..s.k].copy_from_slice(&s.gap[..s.k]);
        self.boards.push(b);
        self.owner.push(task);
        let to = depth.min(last - 1);
        let root = Start {
            avail: first,
            board,
            ..Start::default()
        };
        self.place(task, s, root, to);
    }

    /// The subtrees of `at` (on free row `at.level`) at free row `to`, the nodes of the rows
    /// between counted on the host.
    fn place(&mut self, task: usize, s: &Spec, at: Start, to: usize) {
        let i = at.level as usize;
        if i == to {
            if at.avail != 0 {
                self.starts.push(at);
            }
            return;
        }
        let mut a = at.avail;
        while a != 0 {
            let bit = a & a.wrapping_neg();
            a ^= bit;
            let g = s.gap[i];
            let next = Start {
                cols: at.cols | bit,
                d1: (at.d1 | bit) << g,
                d2: (at.d2 | bit) >> g,
                avail: 0,
                board: at.board,
                level: at.level + 1,
            };
            let free = s.full & !(next.cols | next.d1 | next.d2 | s.forbid[i + 1]);
            self.host[task].nodes += free.count_ones() as u64;
            self.place(
                task,
                s,
                Start {
                    avail: free,
                    ..next
                },
                to,
            );
        }
    }

    /// Each task's solutions and nodes, from the host's part and its subtrees' counts
    /// (`solutions[t]` and `nodes[t]` of start `t`).
    pub fn finish(&self, solutions: &[u64], nodes: &[u64]) -> Vec<Found> {
        let mut out = self.host.clone();
        for ((s, &found), &below) in self.starts.iter().zip(solutions).zip(nodes) {
            let o = &mut out[self.owner[s.board as usize]];
            o.solutions += found;
            o.nodes += below;
        }
        out
    }
}
