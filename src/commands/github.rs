//! `integrity-gate github`: the GitHub Actions entry point. Reads the event, makes sure the
//! commits are present, analyses with the policy from base (stricter for agent-authored
//! changes when the policy says so), then hands the report to [`crate::github::run::deliver`].
//! Reporting never changes the verdict: the exit code comes from the report alone.

use super::{
    PolicySource, exit_for, input, load_policy_file, open_repo, override_fail_on, policy_at,
};
use crate::cli::GithubArgs;
use crate::config::Policy;
use crate::github::checks::{CheckApi, PublishOptions};
use crate::github::run::{self, Artifacts, CheckRunMode, GithubEnv, Surfaces};
use crate::github::summary::SummaryOptions;
use crate::github::{agent, event, fetch};
use crate::report::{self, Format, Style};
use crate::{Exit, Failure, git};
use std::path::PathBuf;

/// How many `--deepen` rounds a shallow checkout gets before the gate gives up.
const MAX_DEEPEN_STEPS: u32 = 8;

impl From<event::EventError> for Failure {
    fn from(error: event::EventError) -> Failure {
        Failure::new(format!("cannot read the GitHub event: {error}"))
    }
}

impl From<fetch::FetchError> for Failure {
    fn from(error: fetch::FetchError) -> Failure {
        Failure::new(error.to_string())
    }
}

fn flag(value: &str, name: &str) -> Result<bool, Failure> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(Failure::new(format!(
            "--{name} {other}: expected true or false"
        ))),
    }
}

/// Runs the whole Actions flow.
pub fn run(args: &GithubArgs) -> Result<(Vec<u8>, Exit), Failure> {
    let env_var = |key: &str| std::env::var(key).ok().filter(|value| !value.is_empty());
    let (Some(name), Some(path)) = (env_var("GITHUB_EVENT_NAME"), env_var("GITHUB_EVENT_PATH"))
    else {
        return Err(Failure::new(
            "not running in GitHub Actions: GITHUB_EVENT_NAME and GITHUB_EVENT_PATH are not set",
        )
        .with_hint(Some("use `integrity-gate diff BASE` outside Actions")));
    };
    let check_run = match args.check_run.as_str() {
        "auto" => CheckRunMode::Auto,
        "true" => CheckRunMode::On,
        "false" => CheckRunMode::Off,
        other => {
            return Err(Failure::new(format!(
                "--check-run {other}: expected auto, true or false"
            )));
        }
    };
    let annotations = flag(&args.annotations, "annotations")?;
    let step_summary = flag(&args.summary, "summary")?;
    let payload = input::read_bounded(
        std::path::Path::new(&path),
        "GITHUB_EVENT_PATH",
        input::EVENT_MAX_BYTES,
    )?;
    let plan = event::read(&name, &payload)?;
    if plan.kind == event::EventKind::WorkflowRun {
        return relay(args, &plan, check_run, annotations, step_summary);
    }
    if let Some(reason) = &plan.skip {
        return Ok((
            format!("integrity-gate: nothing to analyse ({reason})\n").into_bytes(),
            Exit::Clean,
        ));
    }
    let repo_dir: PathBuf = match (&args.repo, env_var("GITHUB_WORKSPACE")) {
        (Some(dir), _) => dir.clone(),
        (None, Some(workspace)) => PathBuf::from(workspace),
        (None, None) => std::env::current_dir()
            .map_err(|e| Failure::new(format!("cannot read the current directory: {e}")))?,
    };
    let base = match (&args.base, &plan.base_sha) {
        (Some(base), _) => base.clone(),
        (None, Some(sha)) => {
            fetch::ensure_commits(&repo_dir, sha, &plan.head_sha, MAX_DEEPEN_STEPS)?;
            sha.clone()
        }
        (None, None) => {
            let branch = plan.default_branch.as_deref().unwrap_or("main");
            let tip = fetch::fetch_branch_tip(&repo_dir, branch)?;
            fetch::ensure_commits(&repo_dir, &tip, &plan.head_sha, MAX_DEEPEN_STEPS)?;
            tip
        }
    };
    let repo = open_repo(Some(&repo_dir))?;
    let agent = plan.agent.clone().or_else(|| {
        agent::from_commits(&repo_dir, &base, &plan.head_sha)
            .ok()
            .flatten()
    });
    let source = PolicySource {
        policy_rev: None,
        config: args.config.as_deref(),
        fail_on: args.fail_on.as_deref(),
        agent: agent.is_some(),
        online: args.online,
    };
    let range = git::Range {
        base: Some(&base),
        head: Some(&plan.head_sha),
        worktree: false,
    };
    let claims = crate::claims::sources::pull_request(&payload);
    let (report, policy) = super::analyze_claimed(&repo, &range, &source, claims)?;
    let json = report::render(Format::Json, &report, Style::default());
    let sarif = report::render(Format::Sarif, &report, Style::default());
    let env = GithubEnv::from_process();
    let client = match check_run {
        CheckRunMode::Off => None,
        _ => env.client().ok().flatten(),
    };
    let surfaces = Surfaces {
        check_run,
        annotations,
        step_summary,
        publish: PublishOptions {
            neutral_on_findings: args.neutral_on_warnings,
            ..PublishOptions::default()
        },
        summary: SummaryOptions {
            agent_policy_applied: agent.is_some() && policy.agents.is_some(),
            ..SummaryOptions::default()
        },
    };
    let artifacts = Artifacts {
        json: args.json.as_deref().map(|path| (path, json.as_slice())),
        sarif: args.sarif.as_deref().map(|path| (path, sarif.as_slice())),
    };
    let mut log = Vec::new();
    run::deliver(
        &env,
        &plan,
        &report,
        &surfaces,
        artifacts,
        client.as_ref().map(|client| client as &dyn CheckApi),
        &mut log,
    );
    // The human report quotes the change; inside stop-commands nothing in it is a command,
    // even if an escape were ever missed.
    let human = report::render(Format::Human, &report, Style::default());
    log.extend(
        crate::github::commands::stop_commands(&String::from_utf8_lossy(&human)).into_bytes(),
    );
    Ok((log, exit_for(&report)))
}

/// Second stage of the fork-PR setup: publish the first stage's report for the commit the
/// `workflow_run` event names. The report is untrusted; nothing is analysed here, but the
/// verdict is recomputed from its findings under the policy this stage reads itself.
fn relay(
    args: &GithubArgs,
    plan: &event::EventPlan,
    check_run: CheckRunMode,
    annotations: bool,
    step_summary: bool,
) -> Result<(Vec<u8>, Exit), Failure> {
    let path = args.report.as_deref().ok_or_else(|| {
        Failure::new("on workflow_run, pass the first stage's report with --report PATH")
    })?;
    let json = input::read_bounded(path, "report", input::REPORT_MAX_BYTES)?;
    let scanner = crate::secrets::scanner();
    let mut report = crate::github::relay::read_report(
        &json,
        &plan.head_sha,
        |id| crate::rules::find(id).map(|rule| rule.id),
        |text| scanner.redact_text(text),
    )
    .map_err(|error| Failure::new(error.to_string()))?;
    let mut log = Vec::new();
    let policy = override_fail_on(relay_policy(args, plan, &mut log)?, args.fail_on.as_deref())?;
    crate::github::relay::apply_policy(&mut report, &policy);
    let env = GithubEnv::from_process();
    let client = match check_run {
        CheckRunMode::Off => None,
        _ => env.client().ok().flatten(),
    };
    let surfaces = Surfaces {
        check_run,
        annotations,
        step_summary,
        publish: PublishOptions {
            neutral_on_findings: args.neutral_on_warnings,
            ..PublishOptions::default()
        },
        summary: SummaryOptions::default(),
    };
    run::deliver(
        &env,
        plan,
        &report,
        &surfaces,
        Artifacts::default(),
        client.as_ref().map(|client| client as &dyn CheckApi),
        &mut log,
    );
    Ok((log, exit_for(&report)))
}

/// The policy the relay trusts: `--config`, else `.integrity-gate.yml` on the base
/// repository's default branch in this stage's checkout (`--repo`, `GITHUB_WORKSPACE` or the
/// current directory), never anything the relayed report says. Without a repository it is the
/// default policy, and the log says so.
fn relay_policy(
    args: &GithubArgs,
    plan: &event::EventPlan,
    log: &mut Vec<u8>,
) -> Result<Policy, Failure> {
    if let Some(path) = args.config.as_deref() {
        return load_policy_file(path);
    }
    let workspace = std::env::var_os("GITHUB_WORKSPACE")
        .filter(|value| !value.is_empty())
        .map(PathBuf::from);
    let Ok(repo) = open_repo(args.repo.as_deref().or(workspace.as_deref())) else {
        log.extend_from_slice(
            b"integrity-gate: no repository in this job; the relayed findings are judged under the default policy\n",
        );
        return Ok(Policy::default());
    };
    let branch = plan.default_branch.as_deref().unwrap_or("main");
    let candidates = [
        args.base.clone(),
        Some(format!("refs/remotes/origin/{branch}")),
        Some(format!("refs/heads/{branch}")),
        Some("HEAD".to_string()),
    ];
    let commit = candidates
        .iter()
        .flatten()
        .find_map(|spec| repo.resolve(spec).ok())
        .ok_or_else(|| {
            Failure::new(format!(
                "cannot find the base branch `{branch}` in the checkout to read the policy from"
            ))
        })?;
    let policy = policy_at(&repo, commit)?;
    log.extend_from_slice(
        format!(
            "integrity-gate: the relayed findings are judged under {}\n",
            policy.origin
        )
        .as_bytes(),
    );
    Ok(policy)
}
