//! The commands behind the command line. Each returns the bytes to print and how the run
//! ended; only `main` prints errors and exits.
//!
//! [`analyze`] is the one path from a revision range to a [`Report`]: `diff`, `pre-push` and
//! `github` all go through it, so they read the policy from base the same way.

pub mod agent_hook;
pub mod github;
pub mod input;
mod online;
pub mod push;
pub mod snapshot;

use crate::config::{self, FailOn, Policy, PolicyOrigin};
use crate::engine::{self, Report};
use crate::git::{self, Git};
use crate::{Exit, Failure, lang, query, report, rules};
use std::path::Path;

/// Where the policy comes from and what overrides it.
#[derive(Clone, Debug, Default)]
pub struct PolicySource<'a> {
    /// `--config PATH`: read this file instead of `.integrity-gate.yml` at base.
    pub config: Option<&'a Path>,
    /// `--fail-on LEVEL`.
    pub fail_on: Option<&'a str>,
    /// The change is agent-authored: apply the policy's stricter `agents:` section.
    pub agent: bool,
    /// Ask the package registries about new dependencies (`--online`).
    pub online: bool,
    /// Read the policy at this revision instead of at BASE: a push that creates a branch has
    /// no remote commit of its own, and its base is an old fork point, so the policy comes
    /// from the remote's default branch as it is now.
    pub policy_rev: Option<&'a str>,
}

/// Analyses a range: reads the change, the policy from the base ref as it is now (the commit
/// BASE resolves to, not the merge-base: a branch cut before base tightened its policy is
/// judged by the tighter one), and runs the engine.
pub fn analyze(
    repo: &Git,
    range: &git::Range<'_>,
    source: &PolicySource<'_>,
) -> Result<(Report, Policy), Failure> {
    analyze_claimed(repo, range, source, Vec::new())
}

/// [`analyze`], with `claims` (a pull request's text, an agent's message, `--claims FILE`)
/// checked beside the range's commit messages by `unbacked-claim`.
pub fn analyze_claimed(
    repo: &Git,
    range: &git::Range<'_>,
    source: &PolicySource<'_>,
    claims: Vec<crate::claims::Claim>,
) -> Result<(Report, Policy), Failure> {
    let reading = crate::timings::span("phase", || "git: read the change".into());
    let (base_commit, mut change) = repo.change_set(range)?;
    change.claims = claims;
    let messages = crate::timings::span("phase", || "git: commit messages".into());
    change.claims.extend(crate::claims::sources::commits(
        repo,
        &change.base,
        &change.head,
    ));
    drop(messages);
    repo.mark_reverts(&mut change);
    drop(reading);
    let _policy_span = crate::timings::span("phase", || "policy".into());
    let policy_commit = match source.policy_rev {
        Some(rev) => Some(repo.resolve(rev)?),
        None => base_commit,
    };
    let mut policy = match (source.config, policy_commit) {
        (Some(path), _) => load_policy_file(path)?,
        (None, Some(commit)) => policy_at(repo, commit)?,
        (None, None) => Policy::default(),
    };
    if source.agent {
        policy = policy.tightened_for_agents();
    }
    policy = override_fail_on(policy, source.fail_on)?;
    drop(_policy_span);
    let mut report = engine::analyze(&change, &policy);
    if source.online {
        online::check(&mut report, &change, &policy);
    }
    Ok((report, policy))
}

/// The policy with `--fail-on LEVEL` applied, when given.
pub fn override_fail_on(mut policy: Policy, level: Option<&str>) -> Result<Policy, Failure> {
    if let Some(level) = level {
        policy.fail_on = FailOn::parse(level).ok_or_else(|| {
            Failure::new(format!(
                "--fail-on {level}: expected one of error, warning, note, never"
            ))
        })?;
    }
    Ok(policy)
}

/// The exit for a report.
pub fn exit_for(report: &Report) -> Exit {
    if report.blocking > 0 {
        Exit::Blocking
    } else {
        Exit::Clean
    }
}

fn load_policy_file(path: &Path) -> Result<Policy, Failure> {
    let text = input::read_bounded(path, "policy", input::POLICY_MAX_BYTES)?;
    let shown = path.display().to_string();
    let mut policy = config::parse(&text, &shown)?;
    policy.source = PolicyOrigin::file(&shown);
    Ok(policy)
}

/// The policy file at `commit`, or the defaults when it has none.
pub fn policy_at(repo: &Git, commit: git2::Oid) -> Result<Policy, Failure> {
    let Some(bytes) = repo.read_file_at(commit, rules::POLICY_PATH, input::POLICY_MAX_BYTES)?
    else {
        return Ok(Policy::default());
    };
    let commit = commit.to_string();
    let origin = format!("{}:{}", &commit[..12], rules::POLICY_PATH);
    let text = String::from_utf8(bytes)
        .map_err(|_| Failure::new(format!("invalid policy: {origin}: not UTF-8")))?;
    let mut policy = config::parse(&text, &origin)?;
    policy.source = PolicyOrigin::commit(&commit, rules::POLICY_PATH);
    Ok(policy)
}

/// Opens the repository at `dir`, or the current directory.
pub fn open_repo(dir: Option<&Path>) -> Result<Git, Failure> {
    let cwd = match dir {
        Some(dir) => dir.to_path_buf(),
        None => std::env::current_dir()
            .map_err(|e| Failure::new(format!("cannot read the current directory: {e}")))?,
    };
    Ok(Git::discover(&cwd)?)
}

/// `integrity-gate diff`.
pub fn diff(args: &crate::cli::DiffArgs) -> Result<(Vec<u8>, Exit), Failure> {
    use std::io::IsTerminal;
    let repo = open_repo(args.repo.as_deref())?;
    let range = git::Range {
        base: args.base.as_deref(),
        head: args.head.as_deref(),
        worktree: args.worktree,
    };
    let source = PolicySource {
        policy_rev: None,
        config: args.config.as_deref(),
        fail_on: args.fail_on.as_deref(),
        agent: false,
        online: args.online,
    };
    if !args.format.is_machine_readable() {
        crate::progress::allow();
    }
    let claims = match &args.claims {
        Some(path) => {
            let text = input::read_bounded(path, "claims", crate::claims::MAX_CLAIM_BYTES as u64)?;
            vec![crate::claims::Claim::new(path.display().to_string(), &text)]
        }
        None => Vec::new(),
    };
    let (report, _) = analyze_claimed(&repo, &range, &source, claims)?;
    let color = args.format == report::Format::Human
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty());
    let _render = crate::timings::span("phase", || "render report".into());
    let bytes = report::render(args.format, &report, report::Style { color });
    Ok((bytes, exit_for(&report)))
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

/// `integrity-gate explain RULE`.
pub fn explain(id: &str) -> Result<String, Failure> {
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

/// `integrity-gate debug parse|query`.
pub fn debug(command: &crate::cli::DebugCommand) -> Result<String, Failure> {
    use crate::cli::DebugCommand;
    let (file, query_name) = match command {
        DebugCommand::Parse { file } => (file, None),
        DebugCommand::Query { query, file } => (file, Some(query.as_str())),
    };
    let shown = file.display().to_string();
    let language = lang::Language::from_path(&shown)
        .ok_or_else(|| Failure::new(format!("{shown}: no grammar for this file type")))?;
    let limit = crate::changeset::MAX_FILE_BYTES as u64;
    let text = input::read_bounded(file, "file", limit)?;
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
