//! What a command-line tool ships besides itself: shell completions (`nqueens completions
//! SHELL`) and the man page (`nqueens man`), both generated from the clap definitions, so that
//! they cannot drift from `--help`.

use super::output::{print_rendered, Target};
use clap_complete::Shell;
use nqueens::board::shown::Show;
use nqueens::Error;
use std::path::{Path, PathBuf};

/// Arguments of `completions`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Install, for example:\n  \
    mkdir -p ~/.local/share/bash-completion/completions &&\n    \
    nqueens completions bash > ~/.local/share/bash-completion/completions/nqueens\n  \
    mkdir -p ~/.zfunc && nqueens completions zsh > ~/.zfunc/_nqueens   (with fpath+=~/.zfunc \
    in ~/.zshrc)\n  \
    mkdir -p ~/.config/fish/completions &&\n    \
    nqueens completions fish > ~/.config/fish/completions/nqueens.fish")]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// Prints the completion script for `a.shell`.
pub fn completions(a: CompletionsArgs, mut cli: clap::Command) -> anyhow::Result<()> {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cli, "nqueens", &mut out);
    print_rendered(&String::from_utf8(out)?)
}

/// Arguments of `man`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Every command has its page: nqueens(1), nqueens-count(1), \
    nqueens-merge(1) and so on. Install them all for one user:\n  \
    mkdir -p ~/.local/share/man/man1 && nqueens man --dir ~/.local/share/man/man1\n\
    then `man nqueens-count`."
)]
pub struct ManArgs {
    /// The command whose page to print (`nqueens man count` prints nqueens-count(1)); none:
    /// nqueens(1).
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
    /// Write every page (nqueens.1 and nqueens-COMMAND.1 for each command) into DIR, an
    /// existing directory, instead of printing one.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<PathBuf>,
}

/// The command line's definitions, built (each command knows its full name, `nqueens-count`).
fn built(cli: clap::Command) -> clap::Command {
    let mut cmd = pages(cli);
    cmd.build();
    cmd
}

/// The command line's definitions as the man pages render them: each command's page with the
/// program's version, no page for `help`.
fn pages(cli: clap::Command) -> clap::Command {
    // A command's page lists its own options: `-V` is the program's alone.
    cli.disable_help_subcommand(true)
}

/// The page of `cmd`, naming the program and its version as its source (`nqueens 0.1.0`),
/// the same on every page and for every build of that version.
fn page_of(cmd: clap::Command) -> clap_mangen::Man {
    clap_mangen::Man::new(cmd).source(concat!("nqueens ", env!("CARGO_PKG_VERSION")))
}

/// Writes the page of `cmd` and of each of its commands into `dir`, as `clap_mangen` names
/// them (`nqueens.1`, `nqueens-count.1`, ...), each through the output path: every file is
/// checked before any is written, a regular file is replaced atomically, and anything else
/// (a link to nothing, a directory of that name) is refused rather than written through.
fn write_pages(cmd: clap::Command, dir: &Path) -> anyhow::Result<()> {
    fn collect(cmd: clap::Command, out: &mut Vec<clap_mangen::Man>) {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
            collect(sub, out);
        }
        out.push(page_of(cmd));
    }
    let mut pages = Vec::new();
    collect(cmd, &mut pages);
    let targets = pages
        .iter()
        .map(|m| Target::file_in(dir, &m.get_filename(), "man page"))
        .collect::<Result<Vec<_>, _>>()?;
    for (page, target) in pages.iter().zip(&targets) {
        let mut roff = Vec::new();
        page.render(&mut roff)?;
        target.write(&String::from_utf8(roff)?)?;
    }
    Ok(())
}

/// Prints a man page in roff (nqueens(1), or a command's), or writes every page to a
/// directory.
pub fn man(a: ManArgs, cli: clap::Command) -> anyhow::Result<()> {
    if let Some(dir) = &a.dir {
        if !dir.is_dir() {
            return Err(Error::Usage(format!(
                "--dir {}: not a directory; make it first (mkdir -p {})",
                dir.shown(),
                dir.shown()
            ))
            .into());
        }
        return write_pages(built(cli), dir);
    }
    let cmd = built(cli);
    let page = match &a.command {
        None => cmd,
        Some(name) => {
            let names: Vec<String> = cmd
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .collect();
            cmd.find_subcommand(name).cloned().ok_or_else(|| {
                Error::Usage(format!(
                    "no command `{name}`: the pages are of {}",
                    names.join(", ")
                ))
            })?
        }
    };
    let mut out = Vec::new();
    page_of(page).render(&mut out)?;
    print_rendered(&String::from_utf8(out)?)
}
