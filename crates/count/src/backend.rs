//! What counts a backtracking plan's tasks ([`Backend`]): one of this CPU's kernels, or the
//! GPU's counter. The names are the ones a user types (`--kernel wide`, `--kernel gpu`) and the
//! files and reports write.

use super::backtracking::kernel::Kernel;
use nqueens_board::error::{Error, Result};

/// What counts a backtracking plan's tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// A kernel on this CPU.
    Cpu(Kernel),
    /// The GPU's counter (`crate::gpu`): the tasks' subtrees counted on an NVIDIA GPU.
    Gpu,
}

impl Default for Backend {
    fn default() -> Backend {
        Backend::Cpu(Kernel::default())
    }
}

impl Backend {
    /// Every name, the CPU's kernels first.
    pub const NAMES: &'static [&'static str] = &["simple", "fast", "lanes", "wide", "gpu"];

    /// The name used on the command line, in files and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cpu(k) => k.name(),
            Backend::Gpu => "gpu",
        }
    }

    /// The CPU kernel, where it is one.
    pub fn kernel(self) -> Option<Kernel> {
        match self {
            Backend::Cpu(k) => Some(k),
            Backend::Gpu => None,
        }
    }
}

impl From<Kernel> for Backend {
    fn from(k: Kernel) -> Backend {
        Backend::Cpu(k)
    }
}

impl std::str::FromStr for Backend {
    type Err = Error;

    /// Parses a name (exact, lowercase): a kernel's, or `gpu`.
    fn from_str(s: &str) -> Result<Backend> {
        match s {
            "gpu" => Ok(Backend::Gpu),
            _ => s.parse::<Kernel>().map(Backend::Cpu).map_err(|_| {
                Error::Usage(format!(
                    "unknown kernel '{s}': expected one of {}",
                    Backend::NAMES.join(", ")
                ))
            }),
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Backend {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backends_parse_and_print_the_names_users_and_files_use() {
        for &name in Backend::NAMES {
            let b: Backend = name.parse().unwrap();
            assert_eq!(b.name(), name);
            assert_eq!(b.to_string(), name);
        }
        assert_eq!("gpu".parse::<Backend>(), Ok(Backend::Gpu));
        assert_eq!("wide".parse::<Backend>(), Ok(Backend::Cpu(Kernel::Wide)));
        let e = "turbo".parse::<Backend>().unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown kernel 'turbo': expected one of simple, fast, lanes, wide, gpu"
        );
        assert_eq!(Kernel::NAMES, &Backend::NAMES[..4]);
    }
}
