//! What a command-line tool ships besides itself: shell completions (`nqueens completions
//! SHELL`) and the man page (`nqueens man`), both generated from the clap definitions, so that
//! they cannot drift from `--help`.

use super::{print, Cli};
use clap::CommandFactory;
use clap_complete::Shell;

/// Arguments of `completions`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Install, for example:\\n  \\
    nqueens completions bash > ~/.local/share/bash-completion/completions/nqueens\\n  \\
    nqueens completions zsh > ~/.zfunc/_nqueens      (with fpath+=~/.zfunc in ~/.zshrc)\\n  \\
    nqueens completions fish > ~/.config/fish/completions/nqueens.fish")]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// Prints the completion script for `a.shell`.
pub fn completions(a: CompletionsArgs) -> anyhow::Result<()> {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut Cli::command(), "nqueens", &mut out);
    print(&String::from_utf8(out)?)
}

/// Prints the man page, nqueens(1), in roff.
pub fn man() -> anyhow::Result<()> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    print(&String::from_utf8(out)?)
}
