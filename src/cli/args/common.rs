//! The groups of options that several subcommands share: what counts (threads, algorithm,
//! kernel, memory) and the queens placed before a search.

use super::env;
use super::parse::{parse_column, parse_split_depth, parse_square, parse_threads};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use nqueens::board::check::placements_as;
use nqueens::{Algorithm, Backend, Error, Options};
use std::str::FromStr;

/// A value parser for an enum the library names: its names listed in `--help`, parsed by its
/// `FromStr`.
pub fn named<T>(names: &'static [&'static str]) -> impl TypedValueParser<Value = T>
where
    T: FromStr<Err = Error> + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(names).try_map(|s: String| s.parse::<T>())
}

/// Options shared by everything that counts.
#[derive(Debug, Clone, clap::Args)]
pub struct EngineArgs {
    /// Worker threads (at least 1). Default: the number of logical CPUs.
    #[arg(long, short = 't', value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// The counting method: `auto` (the default: `quadrants` for even N >= 16 and odd
    /// N >= 17 up to 28, else `symmetric`; `plain` with placed queens), `quadrants`
    /// (half-boards joined from quarter-boards and matched by their diagonals; N 4 to 28, no
    /// placed queens; needs memory, see --max-memory), or a backtracker: `symmetric` (all 8
    /// symmetries; also gives the unique count), `mirror` (left half of row 0, counted twice),
    /// `plain` (no symmetry; the only one that takes placed queens).
    #[arg(long, short = 'a', value_parser = named::<Algorithm>(Algorithm::NAMES))]
    pub algorithm: Option<Algorithm>,
    /// How finely the board is split into independent tasks: 1, 2 or 3. Depth 1 is the
    /// algorithm's seeds (a row-0 queen, or a symmetric border constellation); each step deeper
    /// fixes one more free row. Default: the smallest depth giving at least 8 tasks per thread.
    /// Backtracking only (with `auto`, a split depth asks for backtracking).
    #[arg(long, value_name = "D", value_parser = parse_split_depth)]
    pub split_depth: Option<u32>,
    /// The counting kernel: `wide` (16 nodes of one row expanded per step, with AVX-512 where
    /// the CPU has it and N <= 32, 8 with AVX2, scalar code elsewhere), `lanes` (four subtrees searched in lock
    /// step, branch-free), `fast` (explicit stack), `simple` (plain recursion, the yardstick), or
    /// `gpu` (as `--gpu`).
    #[arg(long, short = 'k', value_parser = named::<Backend>(Backend::NAMES), default_value_t = Backend::default())]
    pub kernel: Backend,
    /// Count on an NVIDIA GPU (the kernel `gpu`: the backtracking plan's tasks, each a few
    /// rows on this CPU and then each subtree on a GPU thread): a build with the `gpu` feature
    /// (`cargo build --release --features gpu`), a GPU and its driver. See docs/guide/gpu.md.
    #[arg(long, conflicts_with = "kernel")]
    pub gpu: bool,
    /// The most memory the count may use (e.g. 8G, 512M): the quadrant method counts a large
    /// task in smaller pieces to stay within it, and refuses to start, saying what it would
    /// need, only when its quarter table and each thread's slices leave less than 16 MiB per
    /// thread (`auto` backtracks instead). Default: half of the available memory.
    #[arg(long, value_name = "SIZE", value_parser = nqueens::memory::parse)]
    pub max_memory: Option<u64>,
}

impl EngineArgs {
    /// The library's options for these arguments (and the environment's, [`env`]).
    pub fn options(&self) -> Result<Options, Error> {
        let backend = if self.gpu { Backend::Gpu } else { self.kernel };
        let mut o = options()?.with_backend(backend);
        o.algorithm = self.algorithm;
        o.threads = self.threads;
        o.split_depth = self.split_depth;
        o.max_memory = self.max_memory;
        Ok(o)
    }
}

/// The library's default options with what the environment sets ([`env`]): what commands
/// without counting flags (`merge`, `status`, `audit`) rebuild plans with.
pub fn options() -> Result<Options, Error> {
    Ok(Options::default().with_quadrants(env::quadrant_settings()?))
}

/// Queens placed before the search, for `count`, `solve`, `list` and `trace`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PlaceArgs {
    /// Place a queen on square ROW:COL before the search (1-based: 1:1 is the top-left
    /// square; 0-based with --zero-based where offered). Repeatable. The other rows are
    /// completed by the search. Pictures and pages draw a placed queen blue, in a ring.
    #[arg(long = "place", value_name = "ROW:COL", value_parser = parse_square)]
    pub place: Vec<(usize, usize)>,
    /// Place the first row's queen in column COL (1-based, or 0-based with --zero-based where
    /// the command has it): the same as `--place 1:COL`.
    #[arg(long, value_name = "COL", value_parser = parse_column)]
    pub first_queen: Option<usize>,
}

impl PlaceArgs {
    /// The placed queens (0-based, sorted by row), checked against an `n` board; typed
    /// 1-based, or 0-based when `zero_based` is `Some(true)` (`None`: the command has no
    /// `--zero-based`, so messages do not offer it).
    pub fn queens(&self, n: usize, zero_based: Option<bool>) -> Result<Vec<(usize, usize)>, Error> {
        let base = usize::from(zero_based != Some(true));
        let offer = if zero_based.is_some() {
            " (from 0 with --zero-based)"
        } else {
            ""
        };
        let mut qs = self.place.clone();
        if let Some(c) = self.first_queen {
            if c < base {
                return Err(Error::Placement(format!(
                    "--first-queen {c} is not a column: columns count from 1{offer} to N"
                )));
            }
            qs.insert(0, (base, c));
        }
        from_user(n, &qs, base, offer)
    }
}

/// Converts squares typed by the user (counting from `base`) to 0-based ones and checks them,
/// naming queens as the user typed them.
fn from_user(
    n: usize,
    typed: &[(usize, usize)],
    base: usize,
    offer: &str,
) -> Result<Vec<(usize, usize)>, Error> {
    let mut qs = Vec::with_capacity(typed.len());
    for &(r, c) in typed {
        if r < base || c < base {
            return Err(Error::Placement(format!(
                "'{r}:{c}' is not a square: rows and columns count from 1{offer} (1:1 is the \
                 top-left square)"
            )));
        }
        qs.push((r - base, c - base));
    }
    placements_as(n, &qs, base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_one_based() {
        assert_eq!(from_user(8, &[(1, 5)], 1, ""), Ok(vec![(0, 4)]));
        assert_eq!(from_user(8, &[(0, 4)], 0, ""), Ok(vec![(0, 4)]));
        assert!(from_user(8, &[(0, 3)], 1, "")
            .unwrap_err()
            .to_string()
            .contains("count from 1"));
        let e = from_user(8, &[(0, 0), (2, 2)], 0, "")
            .unwrap_err()
            .to_string();
        assert!(e.contains("queens 0:0 and 2:2"), "{e}");
        let e = from_user(8, &[(8, 0)], 0, "").unwrap_err().to_string();
        assert!(e.contains("queen 8:0 is off the 8×8 board: rows and columns go from 0 to 7"));
    }
}
