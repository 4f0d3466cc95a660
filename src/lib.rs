//! integrity-gate: reads a change (base vs head) and reports the moves that make CI green by
//! cheating: skipped, focused and deleted tests, weakened assertions, stubs, swallowed errors,
//! lowered coverage, leaked secrets, new dependencies and disabled checks.
//!
//! The pipeline runs one way: [`git`] → [`changeset`] → [`lang`] + [`query`] → [`rules`] →
//! [`engine`] → [`report`]. [`run`] is the whole command line, callable in-process by tests;
//! only `main` exits.

#![warn(
    missing_docs,
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::exit,
    clippy::unwrap_used,
    clippy::expect_used
)]

pub mod changeset;
pub mod claims;
pub mod cli;
pub mod commands;
pub mod config;
pub mod coverage;
pub mod deps;
pub mod engine;
pub mod finding;
pub mod fixtures;
#[doc(hidden)]
pub mod fuzzing;
pub mod git;
pub mod github;
pub mod hook;
pub mod lang;
pub mod paths;
pub mod progress;
pub mod query;
pub mod repeats;
pub mod report;
pub mod rules;
pub mod secrets;
pub mod suppress;
pub mod text;
pub mod timings;
pub mod workspace;

use clap::Parser;
use cli::{Cli, Command, HookCommand};
use std::ffi::OsString;
use std::io::Write;

/// How a successful run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Nothing blocking (exit 0).
    Clean,
    /// At least one blocking finding (exit 1).
    Blocking,
}

impl Exit {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Clean => 0,
            Exit::Blocking => 1,
        }
    }
}

/// Why the gate could not run (exit 2): a one-line cause and an optional fix.
#[derive(Debug)]
pub struct Failure {
    /// The cause, one line.
    pub message: String,
    /// How to fix it.
    pub hint: Option<String>,
    /// Already-formatted text to print as is (clap's help and usage errors).
    pub rendered: Option<String>,
}

impl Failure {
    /// A failure with a message and no hint.
    pub fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            hint: None,
            rendered: None,
        }
    }

    /// Adds a hint.
    pub fn with_hint(mut self, hint: Option<&str>) -> Failure {
        self.hint = hint.map(str::to_string);
        self
    }
}

impl From<git::GitError> for Failure {
    fn from(error: git::GitError) -> Failure {
        Failure::new(error.to_string()).with_hint(error.hint().as_deref())
    }
}

impl From<config::ConfigError> for Failure {
    fn from(error: config::ConfigError) -> Failure {
        // Key names are quoted to help fix the file; a key can still look like a credential.
        let message = secrets::scanner().redact_text(&format!("invalid policy: {error}"));
        Failure::new(message)
    }
}

/// What `run` printed besides the exit: help text goes to stdout with exit 0.
pub enum Outcome {
    /// The command ran.
    Done(Exit),
    /// `--help` or `--version`: print this and exit 0.
    Help(String),
}

/// Runs the command line `args` (including the program name), writing results to `stdout`.
pub fn run(args: Vec<OsString>, stdout: &mut dyn Write) -> Result<Outcome, Failure> {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            use clap::error::ErrorKind;
            return match error.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    Ok(Outcome::Help(error.render().to_string()))
                }
                _ => Err(Failure {
                    message: "invalid arguments".into(),
                    hint: None,
                    rendered: Some(error.render().to_string()),
                }),
            };
        }
    };
    if cli.timings {
        timings::enable();
    }
    let output = match cli.command {
        Command::Diff(args) => commands::diff(&args)?,
        Command::Rules => (commands::rules_table().into_bytes(), Exit::Clean),
        Command::Explain { rule } => (commands::explain(&rule)?.into_bytes(), Exit::Clean),
        Command::Debug(command) => (commands::debug(&command)?.into_bytes(), Exit::Clean),
        Command::Hook(HookCommand::Install { force, agent }) => match agent {
            Some(agent) => {
                commands::agent_hook::install(&agent, &commands::push::program_for_hook())?
            }
            None => commands::push::install(force)?,
        },
        Command::AgentHook { agent } => commands::agent_hook::run(&agent)?,
        Command::Snapshot(args) => commands::snapshot::run(&args)?,
        Command::PrePush(args) => commands::push::pre_push(&args)?,
        Command::Github(args) => commands::github::run(&args)?,
    };
    let _report = timings::span("phase", || "write output".into());
    write_stdout(stdout, &output.0)?;
    Ok(Outcome::Done(output.1))
}

/// Writes output; a closed pipe (`| head`) is not an error.
fn write_stdout(stdout: &mut dyn Write, bytes: &[u8]) -> Result<(), Failure> {
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(error) => Err(Failure::new(format!("cannot write output: {error}"))),
    }
}
