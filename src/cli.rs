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
    /// Print where the time went (phases, rules, parses, queries, slowest files) to stderr.
    #[arg(long, global = true)]
    pub timings: bool,
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
    /// Install or manage the git pre-push hook.
    #[command(subcommand)]
    Hook(HookCommand),
    /// Check the refs git is pushing (reads git's pre-push stdin; used by the hook).
    PrePush(PrePushArgs),
    /// Run in GitHub Actions: read the event, analyse, publish a check run or annotations.
    Github(GithubArgs),
    /// End-of-turn hook for a coding agent (claude, codex, gemini, cursor): reads the agent's
    /// hook input on stdin and tells it what its changes did.
    AgentHook {
        /// The agent whose hook protocol to speak: claude, codex, gemini or cursor.
        agent: String,
    },
    /// Judge two snapshots of a sandbox (directories or tar archives) without git: the
    /// project part by every rule, changes outside it by where they are.
    Snapshot(SnapshotArgs),
    /// Tools for query authors.
    #[command(hide = true, subcommand)]
    Debug(DebugCommand),
}

/// `hook` subcommands.
#[derive(Debug, Subcommand)]
pub enum HookCommand {
    /// Write `.git/hooks/pre-push` (or into `core.hooksPath`) to run `integrity-gate pre-push`.
    Install {
        /// Replace a hook that integrity-gate did not write (a backup is kept).
        #[arg(long)]
        force: bool,
        /// Instead of the git hook, add the end-of-turn hook to this coding agent's project
        /// settings (claude, codex, gemini, cursor), keeping its other hooks.
        #[arg(long, value_name = "AGENT")]
        agent: Option<String>,
    },
}

/// Arguments of `pre-push`, as git passes them to the hook.
#[derive(Debug, Args)]
pub struct PrePushArgs {
    /// The remote's name.
    pub remote: Option<String>,
    /// The remote's URL.
    pub url: Option<String>,
    /// Read the policy from this file instead of `.integrity-gate.yml` at the base revision.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Override the policy's lowest blocking severity.
    #[arg(long, value_name = "LEVEL")]
    pub fail_on: Option<String>,
}

/// Arguments of `github` (the action passes its inputs as these flags).
#[derive(Debug, Args)]
pub struct GithubArgs {
    /// Base revision instead of the one in the event payload.
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// Read the policy from this file instead of `.integrity-gate.yml` at the base revision.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Override the policy's lowest blocking severity.
    #[arg(long, value_name = "LEVEL")]
    pub fail_on: Option<String>,
    /// Publish a check run: auto (when a token can), true, false.
    #[arg(long, value_name = "MODE", default_value = "auto")]
    pub check_run: String,
    /// Print workflow-command annotations when no check run is published.
    #[arg(long, value_name = "BOOL", default_value = "true")]
    pub annotations: String,
    /// Write the job summary to `$GITHUB_STEP_SUMMARY`.
    #[arg(long, value_name = "BOOL", default_value = "true")]
    pub summary: String,
    /// Conclude `neutral` instead of `success` when only non-blocking findings exist.
    #[arg(long)]
    pub neutral_on_warnings: bool,
    /// Write the JSON report here.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Write the SARIF report here.
    #[arg(long, value_name = "PATH")]
    pub sarif: Option<PathBuf>,
    /// On `workflow_run` (second stage of the fork-PR setup): publish this JSON report, which
    /// the first stage wrote, after validating it as untrusted data.
    #[arg(long, value_name = "PATH")]
    pub report: Option<PathBuf>,
    /// The repository (default: `$GITHUB_WORKSPACE`, then the current directory).
    #[arg(short = 'C', long = "repo", value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// Ask crates.io, PyPI and npm whether each new dependency exists and how old it is.
    #[arg(long)]
    pub online: bool,
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
    /// Ask crates.io, PyPI and npm whether each new dependency exists and how old it is.
    #[arg(long)]
    pub online: bool,
    /// Check the claims in this file (a PR description, an agent's report) against the
    /// change, beside the commit messages (`unbacked-claim`).
    #[arg(long, value_name = "FILE")]
    pub claims: Option<PathBuf>,
}

/// Arguments of `snapshot`.
#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// The sandbox before: a directory or a tar archive.
    pub before: PathBuf,
    /// The sandbox after: a directory or a tar archive.
    pub after: PathBuf,
    /// The project inside the snapshots (e.g. `home/dev/app`); everything else is "outside".
    /// Default: the whole snapshot is the project.
    #[arg(long, value_name = "PATH")]
    pub project: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Read the policy from this file instead of the project's `.integrity-gate.yml` in BEFORE.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Override the policy's lowest blocking severity (error, warning, note, never).
    #[arg(long, value_name = "LEVEL")]
    pub fail_on: Option<String>,
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
