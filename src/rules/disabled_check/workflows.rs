//! GitHub workflow files compared structurally: jobs by id, steps by `id`, `name`, `uses` or
//! `run`. A check step (tests, lint, build, type check) that becomes non-blocking, disabled or
//! removed is an error; the same on a step that runs no check is a warning.

use super::config_text::{is_true, yaml};
use super::matrix::{self, Entry};
use super::{Output, ci_aggregate, ci_conditions, locate, push};
use crate::changeset::LineSet;
use crate::finding::{Severity, Side};
use crate::rules::{Candidate, Fact, FileContext, Moved};

/// Fact name: a check tool that some changed workflow runs in head.
const CI_RUNS: &str = "ci-runs";
/// Fact family for workflow checks.
const CI_FAMILY: &str = "workflow";
use crate::rules::markers::shorten;
use regex::Regex;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Whether the path is a GitHub Actions workflow.
pub fn is_workflow(path: &str) -> bool {
    path.starts_with(".github/workflows/") && (path.ends_with(".yml") || path.ends_with(".yaml"))
}

fn check_pattern() -> Option<&'static Regex> {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    PATTERN
        .get_or_init(|| {
            Regex::new(
                r"(?x)(?:^|[\s;&|(/])(
                    pytest|py\.test|tox|nox|unittest|jest|vitest|mocha|ava|karma|tsc|eslint|biome|
                    ruff|mypy|pyright|basedpyright|pyre|pytype|flake8|pylint|phpunit|rspec|ctest|mvn|
                    gradle|gradlew|vue-tsc|svelte-check|astro\s+check|actionlint|shellcheck|
                    playwright\s+test|cypress\s+run|
                    cargo\s+(?:\+\S+\s+)?(?:test|nextest|clippy|check|build|fmt|miri|hack|deny|
                        semver-checks|audit|public-api|udeps|machete)|
                    cargo-semver-checks|cargo-deny|cargo-audit|
                    go\s+(?:test|vet|build)|golangci-lint|
                    (?:npm|pnpm|yarn|bun)(?:\s+-{1,2}[\w-]+(?:[=\s][^-\s]\S*)?)*?\s+(?:run\s+)?
                        (?:test|lint|build|check|typecheck|type-check|types|tsc)|
                    (?:turbo|nx)\s+(?:run(?:-many)?\s+|affected\s+)?(?:(?:-t|--targets?)[=\s])?
                        (?:test|lint|build|check|typecheck|type-check)|
                    npx\s+(?:tsc|eslint|jest|vitest|prettier)|
                    (?:black|isort|prettier)\s+(?:.*\s)?--check|
                    make\s+(?:test|check|lint|ci)|just\s+(?:test|check|lint)|
                    pre-commit\s+run|dotnet\s+test|deno\s+(?:test|lint|check)
                )\b",
            )
            .ok()
        })
        .as_ref()
}

/// Whether a command runs tests, lint, a build or a type check.
pub fn runs_check(command: &str) -> bool {
    check_pattern().is_some_and(|pattern| pattern.is_match(command))
}

/// The checks a command runs, normalized (`npm run test` and `npm test` are one check,
/// `cargo +nightly clippy` is `cargo clippy`), to tell a rewritten step from a removed one.
pub(super) fn check_tools(command: &str) -> BTreeSet<String> {
    let Some(pattern) = check_pattern() else {
        return BTreeSet::new();
    };
    pattern
        .captures_iter(command)
        .filter_map(|captures| captures.get(1))
        .map(|found| {
            let words: Vec<&str> = found
                .as_str()
                .split_whitespace()
                .filter(|word| !word.starts_with('+') && *word != "run" && *word != "npx")
                .collect();
            // `pnpm -r --filter web typecheck` is `pnpm typecheck`: the manager and the script.
            match words.as_slice() {
                [manager, .., script]
                    if matches!(*manager, "npm" | "pnpm" | "yarn" | "bun" | "turbo" | "nx") =>
                {
                    format!("{manager} {script}")
                }
                _ => words.iter().take(2).copied().collect::<Vec<_>>().join(" "),
            }
        })
        .collect()
}

/// A command line that can no longer fail: `|| true`, `|| exit 0`, `; exit 0`, `|| :`.
pub fn neutered(line: &str) -> bool {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    PATTERN
        .get_or_init(|| {
            Regex::new(r"(?:\|\|\s*(?:true|:|exit\s+0|echo\b[^|;&]*)|;\s*exit\s+0)\s*$").ok()
        })
        .as_ref()
        .is_some_and(|pattern| pattern.is_match(line.trim()))
}

/// Text of a step that says what it runs: `run`, plus `uses` and its `with` values.
fn step_command(step: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(run) = step.get("run").and_then(Value::as_str) {
        parts.push(run.to_string());
    }
    if let Some(uses) = step.get("uses").and_then(Value::as_str) {
        parts.push(uses.to_string());
        if let Some(with) = step.get("with").and_then(Value::as_object) {
            let commands = ["command", "args", "run", "script", "arguments"];
            for (key, value) in with {
                if !commands.contains(&key.as_str()) {
                    continue;
                }
                if let Some(text) = value.as_str() {
                    parts.push(format!("{} {text}", tool_of(uses)));
                }
            }
        }
    }
    parts.join("\n")
}

/// `actions-rs/cargo@v1` → `cargo`, so `with: { command: test }` reads as `cargo test`.
fn tool_of(uses: &str) -> &str {
    uses.split('@')
        .next()
        .and_then(|name| name.rsplit('/').next())
        .unwrap_or(uses)
}

/// How a step is paired with its base version.
fn step_identity(step: &Value) -> String {
    for key in ["id", "name", "uses"] {
        if let Some(value) = step.get(key).and_then(Value::as_str) {
            // Pinned versions change with every bump; the action's name identifies the step.
            let value = if key == "uses" {
                value.split('@').next().unwrap_or(value)
            } else {
                value
            };
            return format!("{key}:{value}");
        }
    }
    let run = step.get("run").and_then(Value::as_str).unwrap_or_default();
    format!(
        "run:{}",
        run.split_whitespace().collect::<Vec<_>>().join(" ")
    )
}

/// A step's name for messages and an anchor line to find it in the file.
fn step_label(step: &Value) -> (String, String) {
    let name = step
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| {
            let command = step_command(step);
            shorten(command.lines().next().unwrap_or_default(), 60)
        });
    let anchor = step
        .get("name")
        .or_else(|| step.get("id"))
        .or_else(|| step.get("run"))
        .or_else(|| step.get("uses"))
        .and_then(Value::as_str)
        .and_then(|text| text.lines().next())
        .unwrap_or_default()
        .to_string();
    (name, anchor)
}

fn is_disabled_condition(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Bool(flag)) => !flag,
        Some(Value::Number(number)) => number.as_i64() == Some(0),
        Some(Value::String(text)) => {
            let inner = text
                .trim()
                .trim_start_matches("${{")
                .trim_end_matches("}}")
                .trim();
            matches!(inner, "false" | "0" | "''" | "\"\"")
        }
        _ => false,
    }
}

fn jobs(value: &Value) -> Map<String, Value> {
    value
        .get("jobs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

fn steps(job: &Value) -> Vec<Value> {
    job.get("steps")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn job_runs_check(job: &Value) -> bool {
    steps(job)
        .iter()
        .any(|step| runs_check(&step_command(step)))
        || job
            .get("uses")
            .and_then(Value::as_str)
            .is_some_and(runs_check)
}

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let head = context
        .side(Side::Head)
        .and_then(|side| yaml(side.text).map(|value| (side.text, value)));
    let head_jobs = head
        .as_ref()
        .map(|(_, value)| jobs(value))
        .unwrap_or_default();
    let mut head_tools: BTreeSet<String> = head_jobs
        .values()
        .flat_map(|job| steps(job).iter().map(step_command).collect::<Vec<_>>())
        .flat_map(|command| check_tools(&command))
        .collect();
    for (id, job) in &head_jobs {
        head_tools.extend(called_workflow(job));
        if ci_aggregate::is_aggregate(id, job, job_runs_check) {
            head_tools.insert(gate_key(job));
        }
    }
    // Checks move between workflow files; a check that runs in any changed workflow's head
    // was not removed.
    for tool in &head_tools {
        out.facts.push(Fact {
            side: Side::Head,
            name: CI_RUNS,
            family: CI_FAMILY,
            key: tool.clone(),
            severity: Severity::Error,
        });
    }
    let base = context
        .side(Side::Base)
        .and_then(|side| yaml(side.text).map(|value| (side.text, value)));
    let events = head
        .as_ref()
        .map(|(_, value)| ci_conditions::pr_events(value))
        .unwrap_or_default();
    let Some((base_text, base)) = base else {
        // A new workflow: its check steps that cannot fail are new.
        if let Some((head_text, _)) = head.as_ref() {
            for (id, job) in &head_jobs {
                for step in steps(job) {
                    new_step(context, out, id, &step, head_text);
                }
            }
        }
        return;
    };
    let base_jobs = jobs(&base);
    let gating = ci_conditions::gates_pull_requests(&base);
    if let Some((head_text, head_value)) = head.as_ref()
        && base_jobs.values().any(runs_more_than_a_build)
        && let Some((blocking, what)) = ci_conditions::trigger_change(&base, head_value)
    {
        let line = head_text
            .lines()
            .position(|line| {
                if what.contains("paths-ignore") {
                    line.trim_start().starts_with("paths-ignore:")
                } else {
                    line.starts_with("on:") || line.starts_with("\"on\":")
                }
            })
            .map_or(1, |index| u32::try_from(index + 1).unwrap_or(u32::MAX));
        let severity = if blocking {
            Severity::Error
        } else {
            Severity::Warning
        };
        let ran: Vec<String> = base_jobs
            .values()
            .filter(|job| job_runs_check(job))
            .map(describe_checks)
            .collect();
        push(
            out,
            Side::Head,
            line,
            severity,
            format!("{what}; its jobs ran {}", shorten(&ran.join(", "), 120)),
            "workflow:triggers".to_string(),
        );
    }
    for (id, base_job) in &base_jobs {
        let Some(head_job) = head_jobs.get(id) else {
            let mut tools: BTreeSet<String> = steps(base_job)
                .iter()
                .flat_map(|step| check_tools(&step_command(step)))
                .collect();
            tools.extend(called_workflow(base_job));
            let aggregate = ci_aggregate::is_aggregate(id, base_job, job_runs_check);
            let line = locate(base_text, None, &format!("{id}:"), &context.pair.removed);
            for tool in tools.difference(&head_tools) {
                removed(
                    out,
                    line,
                    format!(
                        "the change removes CI job `{id}`, which ran `{tool}` ({})",
                        describe_checks(base_job)
                    ),
                    tool,
                    gating,
                );
            }
            let gate = gate_key(base_job);
            // Renamed: a gate of head waits for every job this one did that still exists.
            let renamed = || {
                head_jobs.iter().any(|(other, job)| {
                    ci_aggregate::is_aggregate(other, job, job_runs_check)
                        && ci_aggregate::needs(base_job)
                            .iter()
                            .filter(|needed| head_jobs.contains_key(*needed))
                            .all(|needed| ci_aggregate::reaches(&head_jobs, other, needed))
                })
            };
            if aggregate && !head_tools.contains(&gate) && !renamed() {
                removed(
                    out,
                    line,
                    format!(
                        "the change removes CI job `{id}`, which failed when `{}` failed (the status a branch protection rule requires in their place)",
                        ci_aggregate::needs(base_job).join("`, `")
                    ),
                    &gate,
                    gating,
                );
            }
            continue;
        };
        let Some((head_text, _)) = head.as_ref() else {
            continue;
        };
        if ci_aggregate::is_aggregate(id, base_job, job_runs_check) {
            // A check reached through another job it now needs still gates it.
            let stays_and_checks = |needed: &str| {
                head_jobs.get(needed).is_some_and(job_runs_check)
                    && !ci_aggregate::reaches(&head_jobs, id, needed)
            };
            for what in ci_aggregate::weakened(base_job, head_job, stays_and_checks) {
                let line = locate(
                    head_text,
                    Some(&format!("{id}:")),
                    "needs",
                    &context.pair.added,
                );
                push(
                    out,
                    Side::Head,
                    line,
                    Severity::Error,
                    format!("CI job `{id}`, which gates on the others, {what}"),
                    format!("workflow:{id}:gate:{what}"),
                );
            }
        }
        compare_job(
            context,
            out,
            id,
            (base_job, head_job),
            (head_text, base_text),
            &head_tools,
            (&events, gating),
        );
    }
    for (id, head_job) in &head_jobs {
        if base_jobs.contains_key(id) {
            continue;
        }
        if let Some((head_text, _)) = head.as_ref() {
            for step in steps(head_job) {
                new_step(context, out, id, &step, head_text);
            }
        }
    }
}

/// Whether a job runs a check other than a build (a publish or deploy job builds too).
fn runs_more_than_a_build(job: &Value) -> bool {
    steps(job)
        .iter()
        .flat_map(|step| check_tools(&step_command(step)))
        .any(|tool| !tool.ends_with("build"))
}

/// The key under which an aggregate gate job is looked for in other workflow files: the jobs
/// it waits for (a renamed gate waits for the same ones).
fn gate_key(job: &Value) -> String {
    let mut needs = ci_aggregate::needs(job);
    needs.sort();
    format!("gate {}", needs.join(" "))
}

/// A job that calls a reusable workflow of this repository whose name says it checks
/// (`uses: ./.github/workflows/test.yml`): removing the call stops those checks.
fn called_workflow(job: &Value) -> Option<String> {
    let uses = job.get("uses").and_then(Value::as_str)?;
    let path = uses.strip_prefix("./")?;
    let name = file_name_of(path).to_ascii_lowercase();
    ["test", "lint", "check", "type", "ci", "build", "semver"]
        .iter()
        .any(|word| name.contains(word))
        .then(|| format!("calls {path}"))
}

fn file_name_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A step new in head: a check in it that can no longer fail is an error.
fn new_step(context: &FileContext<'_>, out: &mut Output, job: &str, step: &Value, head_text: &str) {
    let Some(run) = step.get("run").and_then(Value::as_str) else {
        return;
    };
    let (name, anchor) = step_label(step);
    for line in run.lines().map(str::trim) {
        if neutered(line) && runs_check(line) {
            let at = locate(head_text, Some(&anchor), line, &context.pair.added);
            push(
                out,
                Side::Head,
                at,
                Severity::Error,
                format!(
                    "new CI step `{name}` (job `{job}`) runs a check that can never fail: `{}`",
                    shorten(line, 70)
                ),
                format!("workflow:{job}:{}:neutered:{line}", step_identity(step)),
            );
        }
    }
}

/// A removed check, dropped by the engine when another changed workflow still runs it.
fn removed(out: &mut Output, line: u32, message: String, tool: &str, gating: bool) {
    out.candidates.push(Candidate {
        side: Side::Base,
        line,
        end_line: line,
        // A workflow pull requests never ran (scheduled, manual) gated none of them.
        severity: if gating {
            Severity::Error
        } else {
            Severity::Warning
        },
        message,
        key: format!("workflow:removed:{tool}"),
        moved: Some(Moved {
            family: CI_FAMILY,
            key: tool.to_string(),
            already: crate::rules::FactRef::head(CI_RUNS),
            also: Vec::new(),
            print: None,
            likely: Vec::new(),
            existed: None,
        }),
        confidence: crate::finding::Confidence::Certain,
    });
}

fn describe_checks(job: &Value) -> String {
    let commands: Vec<String> = steps(job)
        .iter()
        .map(step_command)
        .filter(|command| runs_check(command))
        .map(|command| {
            format!(
                "`{}`",
                shorten(command.lines().next().unwrap_or_default(), 50)
            )
        })
        .collect();
    if commands.is_empty() {
        "checks".to_string()
    } else {
        commands.join(", ")
    }
}

/// What a job's conditions are judged against: the pull-request events of head's triggers and
/// each side's matrix entries (`None` when the matrix cannot be expanded).
struct Scope<'a> {
    events: &'a [&'static str],
    base_entries: Option<Vec<Entry>>,
    head_entries: Option<Vec<Entry>>,
    head_steps: &'a [Value],
}

fn compare_job(
    context: &FileContext<'_>,
    out: &mut Output,
    id: &str,
    (base_job, head_job): (&Value, &Value),
    (head_text, base_text): (&str, &str),
    head_tools: &BTreeSet<String>,
    (events, gating): (&[&'static str], bool),
) {
    let added = &context.pair.added;
    let checks = job_runs_check(base_job);
    let severity = if checks {
        Severity::Error
    } else {
        Severity::Warning
    };
    let anchor = format!("{id}:");
    if is_true(head_job.get("continue-on-error")) && !is_true(base_job.get("continue-on-error")) {
        let line = locate(head_text, Some(&anchor), "continue-on-error", added);
        push(
            out,
            Side::Head,
            line,
            severity,
            format!("CI job `{id}` is made non-blocking with `continue-on-error: true`"),
            format!("workflow:{id}:continue-on-error"),
        );
    }
    let head_steps = steps(head_job);
    let scope = Scope {
        events,
        base_entries: matrix::entries(base_job),
        head_entries: matrix::entries(head_job),
        head_steps: &head_steps,
    };
    let subject = Subject {
        label: format!("CI job `{id}`"),
        key: format!("workflow:{id}"),
        anchor: &anchor,
        checks,
        job_level: true,
    };
    judge_conditions(
        context,
        out,
        &subject,
        (base_job, head_job),
        head_text,
        &scope,
    );
    if is_disabled_condition(head_job.get("if")) && !is_disabled_condition(base_job.get("if")) {
        let line = locate(head_text, Some(&anchor), "if:", added);
        push(
            out,
            Side::Head,
            line,
            severity,
            format!("CI job `{id}` is switched off with an always-false `if:`"),
            format!("workflow:{id}:if-false"),
        );
    }
    let base_steps = steps(base_job);
    let mut paired = vec![false; head_steps.len()];
    for base_step in &base_steps {
        let identity = step_identity(base_step);
        let command = step_command(base_step);
        let position = head_steps
            .iter()
            .enumerate()
            .position(|(index, step)| !paired[index] && step_identity(step) == identity)
            .or_else(|| {
                head_steps.iter().enumerate().position(|(index, step)| {
                    !paired[index] && !command.is_empty() && step_command(step) == command
                })
            });
        let Some(position) = position else {
            let tools = check_tools(&command);
            let (name, step_anchor) = step_label(base_step);
            let line = locate(
                base_text,
                Some(&anchor),
                &step_anchor,
                &context.pair.removed,
            );
            for tool in tools.difference(head_tools) {
                removed(
                    out,
                    line,
                    format!(
                        "the change removes step `{name}` from CI job `{id}`; it ran `{}`",
                        shorten(command.lines().next().unwrap_or_default(), 60)
                    ),
                    tool,
                    gating,
                );
            }
            continue;
        };
        paired[position] = true;
        compare_step(
            context,
            out,
            id,
            (base_step, &head_steps[position]),
            head_text,
            &scope,
        );
    }
    for (index, step) in head_steps.iter().enumerate() {
        if !paired[index] {
            new_step(context, out, id, step, head_text);
        }
    }
}

/// A job or step whose `continue-on-error` and `if:` are judged.
struct Subject<'a> {
    /// "CI job `test`", "CI check step `Lint` (job `test`)".
    label: String,
    key: String,
    anchor: &'a str,
    checks: bool,
    /// A job's `if:` cannot read the matrix.
    job_level: bool,
}

/// `continue-on-error` expressions that let matrix entries fail, and `if:` conditions that
/// skip a check where a pull request runs it.
fn judge_conditions(
    context: &FileContext<'_>,
    out: &mut Output,
    subject: &Subject<'_>,
    (base, head): (&Value, &Value),
    head_text: &str,
    scope: &Scope<'_>,
) {
    let added = &context.pair.added;
    let label = &subject.label;
    if let (Some(base_entries), Some(head_entries)) = (&scope.base_entries, &scope.head_entries)
        && !is_true(head.get("continue-on-error"))
        && let Some(entries) = ci_conditions::made_nonblocking(
            base.get("continue-on-error"),
            head.get("continue-on-error"),
            base_entries,
            head_entries,
        )
    {
        let severity = if subject.checks && !entries.iter().all(|entry| matrix::prerelease(entry)) {
            Severity::Error
        } else {
            Severity::Warning
        };
        let expression = head
            .get("continue-on-error")
            .and_then(Value::as_str)
            .unwrap_or_default();
        // The setting may be unchanged (the matrix changed): its own line, not another job's.
        let line = locate(
            head_text,
            Some(subject.anchor),
            "continue-on-error",
            &LineSet::default(),
        );
        push(
            out,
            Side::Head,
            line,
            severity,
            format!(
                "{label} is made non-blocking for matrix {} `{}` (`continue-on-error: {}`)",
                if entries.len() == 1 {
                    "entry"
                } else {
                    "entries"
                },
                shorten(&entries.join("`, `"), 120),
                shorten(expression, 60)
            ),
            format!("{}:continue-on-error:{}", subject.key, entries.join(";")),
        );
    }
    if !subject.checks || is_disabled_condition(head.get("if")) {
        return;
    }
    let (base_entries, head_entries) = if subject.job_level {
        (None, None)
    } else {
        (scope.base_entries.as_deref(), scope.head_entries.as_deref())
    };
    let Some(skip) = ci_conditions::skipped(
        base.get("if"),
        head.get("if"),
        scope.events,
        base_entries,
        head_entries,
    ) else {
        return;
    };
    // A check split into steps by condition (a pull-request step and a push step, one per
    // Python version) still runs where another step of the job runs the same tool.
    let tools = check_tools(&step_command(head));
    let covered = |identity: Option<&str>| {
        scope.head_steps.iter().any(|other| {
            other != head
                && !check_tools(&step_command(other)).is_disjoint(&tools)
                && ci_conditions::runs_for(
                    other.get("if"),
                    scope.events,
                    scope.head_entries.as_deref(),
                    identity,
                )
        })
    };
    let skip = match skip {
        _ if subject.job_level || tools.is_empty() => skip,
        ci_conditions::Skip::Entries(entries) => {
            let left: Vec<String> = entries
                .into_iter()
                .filter(|entry| !covered(Some(entry)))
                .collect();
            if left.is_empty() {
                return;
            }
            ci_conditions::Skip::Entries(left)
        }
        other => {
            if covered(None) {
                return;
            }
            other
        }
    };
    let condition = head.get("if").map(|value| match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    });
    let condition = shorten(condition.as_deref().unwrap_or_default(), 80);
    let (severity, what) = match &skip {
        ci_conditions::Skip::OnPullRequests => {
            (Severity::Error, "no longer runs on pull requests".to_string())
        }
        ci_conditions::Skip::Entries(entries) => (
            Severity::Warning,
            format!(
                "is now skipped for matrix {} `{}`",
                if entries.len() == 1 { "entry" } else { "entries" },
                shorten(&entries.join("`, `"), 100)
            ),
        ),
        ci_conditions::Skip::AuthorSwitch => (
            Severity::Warning,
            "now runs or not as the pull request's branch name, title, labels or commit message decide"
                .to_string(),
        ),
    };
    let line = locate(head_text, Some(subject.anchor), "if:", added);
    push(
        out,
        Side::Head,
        line,
        severity,
        format!("{label} {what}: `if: {condition}`"),
        format!("{}:if:{skip:?}", subject.key),
    );
}

fn compare_step(
    context: &FileContext<'_>,
    out: &mut Output,
    job: &str,
    (base_step, head_step): (&Value, &Value),
    head_text: &str,
    scope: &Scope<'_>,
) {
    let added = &context.pair.added;
    let command = step_command(head_step);
    let checks = runs_check(&command) || runs_check(&step_command(base_step));
    let severity = if checks {
        Severity::Error
    } else {
        Severity::Warning
    };
    let (name, anchor) = step_label(head_step);
    let identity = step_identity(head_step);
    let what = if checks { "check step" } else { "step" };
    if is_true(head_step.get("continue-on-error")) && !is_true(base_step.get("continue-on-error")) {
        let line = locate(head_text, Some(&anchor), "continue-on-error", added);
        push(
            out,
            Side::Head,
            line,
            severity,
            format!(
                "CI {what} `{name}` (job `{job}`) is made non-blocking with `continue-on-error: true`"
            ),
            format!("workflow:{job}:{identity}:continue-on-error"),
        );
    }
    let subject = Subject {
        label: format!("CI {what} `{name}` (job `{job}`)"),
        key: format!("workflow:{job}:{identity}"),
        anchor: &anchor,
        checks,
        job_level: false,
    };
    judge_conditions(
        context,
        out,
        &subject,
        (base_step, head_step),
        head_text,
        scope,
    );
    if is_disabled_condition(head_step.get("if")) && !is_disabled_condition(base_step.get("if")) {
        let line = locate(head_text, Some(&anchor), "if:", added);
        push(
            out,
            Side::Head,
            line,
            severity,
            format!("CI {what} `{name}` (job `{job}`) is switched off with an always-false `if:`"),
            format!("workflow:{job}:{identity}:if-false"),
        );
    }
    let base_run = base_step
        .get("run")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let base_neutered: Vec<&str> = base_run
        .lines()
        .map(str::trim)
        .filter(|line| neutered(line))
        .collect();
    if let Some(run) = head_step.get("run").and_then(Value::as_str) {
        for line in run.lines().map(str::trim) {
            if neutered(line) && runs_check(line) && !base_neutered.contains(&line) {
                let at = locate(head_text, Some(&anchor), line, added);
                push(
                    out,
                    Side::Head,
                    at,
                    Severity::Error,
                    format!(
                        "CI step `{name}` (job `{job}`) can no longer fail: `{}`",
                        shorten(line, 70)
                    ),
                    format!("workflow:{job}:{identity}:neutered:{line}"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_check_commands() {
        assert!(runs_check("npm test"));
        assert!(runs_check("cargo +nightly clippy --all-targets"));
        assert!(runs_check("python -m pytest -q"));
        assert!(runs_check("uv run mypy src"));
        assert!(!runs_check("npm ci"));
        assert!(!runs_check("echo done"));
    }

    #[test]
    fn normalizes_check_tools() {
        assert_eq!(check_tools("npm run test"), check_tools("npm test"));
        assert_eq!(
            check_tools("uv run --locked tox run -e typing"),
            check_tools("tox run -e py")
        );
        assert_eq!(
            check_tools("cargo +nightly clippy --all-targets"),
            check_tools("cargo clippy")
        );
    }

    #[test]
    fn recognises_neutered_lines() {
        assert!(neutered("pytest || true"));
        assert!(neutered("npm test || exit 0"));
        assert!(neutered("cargo test; exit 0"));
        assert!(!neutered("pytest || (echo failed && exit 1)"));
        assert!(!neutered("test -f x || exit 1"));
    }
}
