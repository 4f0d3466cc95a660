//! Command-line definitions (clap). Parsing only: `lib::run` acts on them.

use crate::report::Format;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Stops pull requests that make CI green by cheating.
#[derive(Debug, Parser)]
#[command(name = "integrity-gate", version, about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Analyse merge-base(BASE, HEAD)..HEAD, like a pull request (three-dot).
    Diff(DiffArgs),
    /// List every rule: id, default severity, languages, summary.
    Rules,
    /// Show a rule's full documentation.
    Explain {
        /// The rule id, e.g. `skipped-test`.
        rule: String,
    },
    /// Tools for query authors.
    #[command(hide = true, subcommand)]
    Debug(DebugCommand),
}

/// Arguments of `diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Base revision; defaults to origin/HEAD, then main, then master.
    pub base: Option<String>,
    /// Head revision (required in a bare repository).
    #[arg(long, value_name = "REV")]
    pub head: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Read the policy from this file instead of `.integrity-gate.yml` at the base revision.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Also include uncommitted changes and untracked files of the working tree.
    #[arg(long)]
    pub worktree: bool,
    /// Override the policy's lowest blocking severity (error, warning, note, never).
    #[arg(long, value_name = "LEVEL")]
    pub fail_on: Option<String>,
    /// Run in this directory instead of the current one.
    #[arg(short = 'C', long = "repo", value_name = "DIR")]
    pub repo: Option<PathBuf>,
}

/// Debug subcommands.
#[derive(Debug, Subcommand)]
pub enum DebugCommand {
    /// Print a file's syntax tree.
    Parse {
        /// The file.
        file: PathBuf,
    },
    /// Run one embedded query on a file and print its matches.
    Query {
        /// Query name: a rule id or `tests`.
        query: String,
        /// The file.
        file: PathBuf,
    },
}
