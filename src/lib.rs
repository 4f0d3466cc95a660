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
pub mod cli;
pub mod config;
pub mod coverage;
pub mod engine;
pub mod finding;
pub mod fixtures;
pub mod git;
pub mod lang;
pub mod query;
pub mod report;
pub mod rules;
pub mod secrets;
pub mod suppress;
pub mod text;

use clap::Parser;
use cli::{Cli, Command, DebugCommand, DiffArgs};
use config::{FailOn, Policy};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::Path;

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
    fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            hint: None,
            rendered: None,
        }
    }

    fn with_hint(mut self, hint: Option<&str>) -> Failure {
        self.hint = hint.map(str::to_string);
        self
    }
}

impl From<git::GitError> for Failure {
    fn from(error: git::GitError) -> Failure {
        Failure::new(error.to_string()).with_hint(error.hint())
    }
}

impl From<config::ConfigError> for Failure {
    fn from(error: config::ConfigError) -> Failure {
        Failure::new(format!("invalid policy: {error}"))
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
    let output = match cli.command {
        Command::Diff(args) => diff(&args)?,
        Command::Rules => (rules_table().into_bytes(), Exit::Clean),
        Command::Explain { rule } => (explain(&rule)?.into_bytes(), Exit::Clean),
        Command::Debug(command) => (debug(&command)?.into_bytes(), Exit::Clean),
    };
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

fn diff(args: &DiffArgs) -> Result<(Vec<u8>, Exit), Failure> {
    let cwd = match &args.repo {
        Some(dir) => dir.clone(),
        None => std::env::current_dir()
            .map_err(|e| Failure::new(format!("cannot read the current directory: {e}")))?,
    };
    let repo = git::Git::discover(&cwd)?;
    let range = git::Range {
        base: args.base.as_deref(),
        head: args.head.as_deref(),
        worktree: args.worktree,
    };
    let (merge_base, change) = repo.change_set(&range)?;
    let mut policy = match &args.config {
        Some(path) => load_policy_file(path)?,
        None => {
            let origin = format!(
                "{}:.integrity-gate.yml",
                &change.base[..12.min(change.base.len())]
            );
            match repo.read_file_at(merge_base, rules::POLICY_PATH)? {
                Some(bytes) => {
                    let text = String::from_utf8(bytes).map_err(|_| {
                        Failure::new(format!("invalid policy: {origin}: not UTF-8"))
                    })?;
                    config::parse(&text, &origin)?
                }
                None => Policy::default(),
            }
        }
    };
    if let Some(level) = &args.fail_on {
        policy.fail_on = FailOn::parse(level).ok_or_else(|| {
            Failure::new(format!(
                "--fail-on {level}: expected one of error, warning, note, never"
            ))
        })?;
    }
    let report = engine::analyze(&change, &policy);
    let color = args.format == report::Format::Human
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty());
    let bytes = report::render(args.format, &report, report::Style { color });
    let exit = if report.blocking > 0 {
        Exit::Blocking
    } else {
        Exit::Clean
    };
    Ok((bytes, exit))
}

fn load_policy_file(path: &Path) -> Result<Policy, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::new(format!("cannot read policy {}: {e}", path.display())))?;
    Ok(config::parse(&text, &path.display().to_string())?)
}

/// The `rules` listing.
pub fn rules_table() -> String {
    let mut out = String::new();
    let width = rules::ALL_RULES
        .iter()
        .map(|rule| rule.id.len())
        .max()
        .unwrap_or(0);
    for rule in rules::ALL_RULES {
        let planned = if rule.maturity == rules::Maturity::Planned {
            " [planned: not implemented yet]"
        } else {
            ""
        };
        out.push_str(&format!(
            "{:<width$}  {:<7}  {:<45}  {}{}\n",
            rule.id,
            rule.severity.as_str(),
            rule.languages_label(),
            rule.summary,
            planned,
        ));
    }
    out
}

fn explain(id: &str) -> Result<String, Failure> {
    match rules::find(id) {
        Some(rule) => Ok(format!(
            "# {}\n\nDefault severity: {}. Languages: {}. Engine: {}.\n\n{}",
            rule.id,
            rule.severity.as_str(),
            rule.languages_label(),
            rule.engine.name(),
            rule.docs_markdown()
        )),
        None => {
            let nearest = rules::nearest_ids(id);
            let hint = if nearest.is_empty() {
                "run `integrity-gate rules` for the list".to_string()
            } else {
                format!("did you mean `{}`?", nearest.join("`, `"))
            };
            Err(Failure::new(format!("unknown rule `{id}`")).with_hint(Some(&hint)))
        }
    }
}

fn debug(command: &DebugCommand) -> Result<String, Failure> {
    let (file, query_name) = match command {
        DebugCommand::Parse { file } => (file, None),
        DebugCommand::Query { query, file } => (file, Some(query.as_str())),
    };
    let shown = file.display().to_string();
    let language = lang::Language::from_path(&shown)
        .ok_or_else(|| Failure::new(format!("{shown}: no grammar for this file type")))?;
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure::new(format!("cannot read {shown}: {e}")))?;
    let parsed = lang::parse(language, text).map_err(|e| Failure::new(e.to_string()))?;
    let Some(name) = query_name else {
        return Ok(format!("{}\n", parsed.tree.root_node().to_sexp()));
    };
    let compiled = query::compiled(language, name)
        .ok_or_else(|| Failure::new(format!("no query `{name}` for {}", language.name())))?;
    let mut out = String::new();
    for found in query::run(compiled, &parsed, language) {
        out.push_str(&format!(
            "{}-{} pattern {} key {:?} captures {:?} properties {:?}\n",
            found.line, found.end_line, found.pattern, found.key, found.captures, found.properties
        ));
    }
    Ok(out)
}
