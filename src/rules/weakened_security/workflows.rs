//! GitHub workflows, compared with base (zizmor's checks, as deltas): a privileged trigger
//! that checks out the pull request's head, untrusted event text interpolated into a script,
//! wider `permissions`, an action pin moved off a commit SHA, `secrets: inherit` added.

use crate::changeset::{FilePair, LineSet};
use crate::finding::{Severity, Side};
use crate::rules::markers::shorten;
use crate::rules::{Candidate, ChangeOutput};
use regex::Regex;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

/// Whether the path is a GitHub Actions workflow.
pub fn is_workflow(path: &str) -> bool {
    path.starts_with(".github/workflows/") && (path.ends_with(".yml") || path.ends_with(".yaml"))
}

/// Triggers that run with the base repository's secrets and a write token on outsiders' events.
const PRIVILEGED: &[&str] = &["pull_request_target", "workflow_run"];

fn regex(cell: &'static OnceLock<Option<Regex>>, pattern: &str) -> Option<&'static Regex> {
    cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()
}

/// A checkout `ref:` that names the pull request's code.
fn pr_head_ref(text: &str) -> bool {
    static CELL: OnceLock<Option<Regex>> = OnceLock::new();
    regex(
        &CELL,
        r"pull_request\.head\.(sha|ref)|github\.head_ref|workflow_run\.head_(sha|branch)|refs/pull/|pull_request\.merge_commit_sha|github\.event\.number",
    )
    .is_some_and(|pattern| pattern.is_match(text))
}

/// `${{ … }}` expressions whose value an outsider chooses (titles, bodies, branch names, commit
/// messages, author names).
fn untrusted_expressions(text: &str) -> Vec<String> {
    static CELL: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(pattern) = regex(
        &CELL,
        r"\$\{\{\s*((?:github\.event\.(?:pull_request|issue|comment|review|review_comment|discussion|discussion_comment|head_commit|commits|pages|workflow_run|release)[\w.\[\]*'-]*\.(?:title|body|ref|label|head_branch|default_branch|message|page_name|email|name|description))|github\.head_ref)\s*\}\}",
    ) else {
        return Vec::new();
    };
    pattern
        .captures_iter(text)
        .filter_map(|captures| captures.get(1))
        .map(|found| found.as_str().to_string())
        .collect()
}

fn triggers(doc: &Value) -> BTreeSet<String> {
    // YAML 1.1 readers turn a bare `on` into `true`.
    let on = doc.get("on").or_else(|| doc.get("true"));
    match on {
        Some(Value::String(name)) => BTreeSet::from([name.clone()]),
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        Some(Value::Object(map)) => map.keys().cloned().collect(),
        _ => BTreeSet::new(),
    }
}

fn privileged(doc: &Value) -> bool {
    triggers(doc)
        .iter()
        .any(|trigger| PRIVILEGED.contains(&trigger.as_str()))
}

fn jobs(doc: &Value) -> Vec<(&str, &Value)> {
    doc.get("jobs")
        .and_then(Value::as_object)
        .map(|jobs| jobs.iter().map(|(id, job)| (id.as_str(), job)).collect())
        .unwrap_or_default()
}

fn steps(job: &Value) -> Vec<&Value> {
    job.get("steps")
        .and_then(Value::as_array)
        .map(|steps| steps.iter().collect())
        .unwrap_or_default()
}

fn text_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// The scripts of a step: `run:` and github-script's `script:`.
fn scripts(step: &Value) -> Vec<&str> {
    let mut scripts: Vec<&str> = text_of(step, "run").into_iter().collect();
    if text_of(step, "uses").is_some_and(|uses| uses.starts_with("actions/github-script"))
        && let Some(script) = step.get("with").and_then(|with| text_of(with, "script"))
    {
        scripts.push(script);
    }
    scripts
}

/// Compares one workflow file with its base.
pub fn check(index: usize, pair: &FilePair, out: &mut ChangeOutput) {
    let Some(text) = pair.head.text() else {
        return;
    };
    let Some(head) = crate::rules::disabled_check::yaml(text) else {
        return;
    };
    let base = pair
        .base
        .text()
        .and_then(crate::rules::disabled_check::yaml)
        .unwrap_or(Value::Null);
    let mut push = |needle: &str, severity: Severity, message: String, key: String| {
        // `job:<id>\n<needle>` looks for the needle from the job's own line on.
        let line = match needle.split_once('\n') {
            Some((job, needle)) => {
                let from = text
                    .lines()
                    .position(|line| line.trim_end() == format!("  {job}:"))
                    .unwrap_or(0);
                let skipped: usize = text.lines().take(from).map(|line| line.len() + 1).sum();
                let offset = u32::try_from(from).unwrap_or(0);
                let rest = text.get(skipped..).unwrap_or_default();
                let shifted = LineSet::from_lines(
                    pair.added
                        .iter()
                        .filter(|line| *line > offset)
                        .map(|line| line - offset)
                        .collect(),
                );
                locate(rest, needle, &shifted) + offset
            }
            None => locate(text, needle, &pair.added),
        };
        out.candidates.push((
            index,
            Candidate::at_line(Side::Head, line, severity, message, key),
        ));
    };
    // A privileged trigger that checks out the pull request's code.
    let checkouts = |doc: &Value| -> BTreeSet<(String, String)> {
        if !privileged(doc) {
            return BTreeSet::new();
        }
        let mut found = BTreeSet::new();
        for (id, job) in jobs(doc) {
            for step in steps(job) {
                let checkout =
                    text_of(step, "uses").is_some_and(|uses| uses.starts_with("actions/checkout"));
                let reference = step.get("with").and_then(|with| text_of(with, "ref"));
                if let (true, Some(reference)) = (checkout, reference)
                    && pr_head_ref(reference)
                {
                    found.insert((id.to_string(), reference.to_string()));
                }
            }
        }
        found
    };
    let base_checkouts = checkouts(&base);
    for (job, reference) in checkouts(&head).difference(&base_checkouts) {
        let trigger = triggers(&head)
            .into_iter()
            .find(|trigger| PRIVILEGED.contains(&trigger.as_str()))
            .unwrap_or_default();
        push(
            reference,
            Severity::Error,
            format!(
                "job `{job}` checks out the pull request's code (`ref: {}`) in a `{trigger}` \
                 workflow, which runs with the repository's secrets and a write token",
                shorten(reference, 60)
            ),
            format!("pr-checkout:{job}"),
        );
    }
    // Untrusted event text interpolated into scripts, counted per job.
    let interpolations = |doc: &Value| -> HashMap<(String, String), usize> {
        let mut counts = HashMap::new();
        for (id, job) in jobs(doc) {
            for step in steps(job) {
                for script in scripts(step) {
                    for expression in untrusted_expressions(script) {
                        *counts.entry((id.to_string(), expression)).or_insert(0) += 1;
                    }
                }
            }
        }
        counts
    };
    let base_interpolations = interpolations(&base);
    let mut head_interpolations: Vec<_> = interpolations(&head).into_iter().collect();
    head_interpolations.sort();
    for ((job, expression), count) in head_interpolations {
        if count
            <= base_interpolations
                .get(&(job.clone(), expression.clone()))
                .copied()
                .unwrap_or(0)
        {
            continue;
        }
        push(
            &expression,
            Severity::Error,
            format!(
                "`${{{{ {expression} }}}}` is interpolated into a script in job `{job}`: whoever \
                 writes that text runs commands in the workflow (pass it through `env:`)"
            ),
            format!("injection:{job}:{expression}"),
        );
    }
    permissions(&head, &base, &mut push);
    pins(&head, &base, &mut push);
    // `secrets: inherit` added to a reusable-workflow call.
    for (id, job) in jobs(&head) {
        if text_of(job, "secrets") != Some("inherit") {
            continue;
        }
        let had = base
            .get("jobs")
            .and_then(|jobs| jobs.get(id))
            .is_some_and(|old| text_of(old, "secrets") == Some("inherit"));
        if had {
            continue;
        }
        let callee = text_of(job, "uses").unwrap_or_default();
        let local = callee.starts_with("./");
        push(
            &format!("{id}\nsecrets: inherit"),
            if local {
                Severity::Warning
            } else {
                Severity::Error
            },
            format!(
                "job `{id}` passes every repository secret to `{}` (`secrets: inherit`)",
                shorten(callee, 60)
            ),
            format!("secrets-inherit:{id}"),
        );
    }
}

/// Scope → level of a `permissions` value; `None` when absent.
fn levels(value: Option<&Value>) -> Option<BTreeMap<String, String>> {
    const ALL: &[&str] = &[
        "actions",
        "attestations",
        "checks",
        "contents",
        "deployments",
        "discussions",
        "id-token",
        "issues",
        "packages",
        "pages",
        "pull-requests",
        "repository-projects",
        "security-events",
        "statuses",
    ];
    match value? {
        Value::String(all) if all == "write-all" || all == "read-all" => {
            let level = all.trim_end_matches("-all").to_string();
            Some(
                ALL.iter()
                    .map(|scope| (scope.to_string(), level.clone()))
                    .collect(),
            )
        }
        Value::Object(map) => Some(
            map.iter()
                .filter_map(|(scope, level)| Some((scope.clone(), level.as_str()?.to_string())))
                .collect(),
        ),
        _ => Some(BTreeMap::new()),
    }
}

/// `permissions` widened: `write-all` new, or a scope raised to `write` over an explicit base
/// setting (the workflow's, for a job that had none). Permissions added where base had none at
/// all replace the token's default and are not judged.
fn permissions(head: &Value, base: &Value, push: &mut impl FnMut(&str, Severity, String, String)) {
    let write_all = |value: Option<&Value>| value.and_then(Value::as_str) == Some("write-all");
    let base_top = base.get("permissions");
    let head_top = head.get("permissions");
    // (place, head setting, base setting, a job base did not have, scopes base's steps of
    // that job asked to write)
    type Place<'v> = (
        String,
        Option<&'v Value>,
        Option<&'v Value>,
        bool,
        BTreeSet<String>,
    );
    let mut places: Vec<Place<'_>> = vec![(
        "the workflow".to_string(),
        head_top,
        base_top,
        false,
        BTreeSet::new(),
    )];
    for (id, job) in jobs(head) {
        let existing = base.get("jobs").and_then(|jobs| jobs.get(id));
        let old = existing.and_then(|old| old.get("permissions")).or(base_top);
        // `permissions:` under a step, where GitHub does not read it (attrs a6ae894a moved
        // it up to the job): base meant that grant all along.
        let on_steps: BTreeSet<String> = existing
            .map(steps)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|step| levels(step.get("permissions")))
            .flat_map(|levels| levels.into_iter())
            .filter(|(_, level)| level == "write")
            .map(|(scope, _)| scope)
            .collect();
        places.push((
            format!("job `{id}`"),
            job.get("permissions"),
            old,
            existing.is_none(),
            on_steps,
        ));
    }
    for (place, now, before, new_job, on_steps) in places {
        // A new job asking for what its own work needs is least privilege done right, not a
        // widening of anything that ran before: shown, but not blocking.
        let severity = if new_job {
            Severity::Warning
        } else {
            Severity::Error
        };
        if now.is_none() {
            continue;
        }
        if write_all(now) && !write_all(before) {
            push(
                "write-all",
                Severity::Error,
                format!(
                    "{place} gets `permissions: write-all`: every scope of the token can write"
                ),
                format!("permissions:{place}:write-all"),
            );
            continue;
        }
        // No setting in base, neither the job's nor the workflow's: the token had the
        // repository's default, which explicit scopes can only narrow or restate.
        let Some(before) = before else {
            continue;
        };
        let (Some(now), Some(before)) = (levels(now), levels(Some(before))) else {
            continue;
        };
        for (scope, level) in &now {
            if level == "write" && before.get(scope).map(String::as_str) != Some("write") {
                let was = before
                    .get(scope)
                    .map_or("not granted".to_string(), |old| format!("`{old}`"));
                let message = if new_job {
                    format!(
                        "new {place} is granted `{scope}: write` (the workflow's setting: {was})"
                    )
                } else if on_steps.contains(scope) {
                    format!(
                        "{place} widens `permissions`: `{scope}: write` (was {was}; base asked for it on a step, where GitHub does not read it)"
                    )
                } else {
                    format!("{place} widens `permissions`: `{scope}: write` (was {was})")
                };
                let severity = if on_steps.contains(scope) {
                    Severity::Warning
                } else {
                    severity
                };
                push(
                    &format!("{scope}: write"),
                    severity,
                    message,
                    format!("permissions:{place}:{scope}"),
                );
            }
        }
    }
}

/// Every `uses:` of a document with the job it is in: `(job, action, ref)`.
fn references(doc: &Value) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for (id, job) in jobs(doc) {
        let mut add = |uses: &str| {
            if uses.starts_with("./") || uses.starts_with("docker://") {
                return;
            }
            if let Some((action, reference)) = uses.split_once('@') {
                found.push((id.to_string(), action.to_string(), reference.to_string()));
            }
        };
        if let Some(uses) = text_of(job, "uses") {
            add(uses);
        }
        for step in steps(job) {
            if let Some(uses) = text_of(step, "uses") {
                add(uses);
            }
        }
    }
    found
}

fn commit_pin(reference: &str) -> bool {
    reference.len() == 40 && reference.chars().all(|c| c.is_ascii_hexdigit())
}

/// An action that base pinned by commit SHA (in the same job, or anywhere in the file for a new
/// job) and head references by tag or branch.
fn pins(head: &Value, base: &Value, push: &mut impl FnMut(&str, Severity, String, String)) {
    let base_refs = references(base);
    let mut seen = BTreeSet::new();
    for (job, action, reference) in references(head) {
        if commit_pin(&reference) {
            continue;
        }
        let same_job: Vec<&String> = base_refs
            .iter()
            .filter(|(old_job, old_action, _)| *old_job == job && *old_action == action)
            .map(|(_, _, old)| old)
            .collect();
        let anywhere: Vec<&String> = base_refs
            .iter()
            .filter(|(_, old_action, _)| *old_action == action)
            .map(|(_, _, old)| old)
            .collect();
        let olds = if same_job.is_empty() {
            anywhere
        } else {
            same_job
        };
        let Some(pin) = olds.iter().find(|old| commit_pin(old)) else {
            continue;
        };
        if olds.iter().any(|old| !commit_pin(old)) || !seen.insert((job.clone(), action.clone())) {
            continue;
        }
        push(
            &format!("{action}@{reference}"),
            Severity::Error,
            format!(
                "`{action}` moves from the commit pin `{}` to `@{reference}`, which its owner \
                 can move to other code",
                &pin[..12.min(pin.len())]
            ),
            format!("unpinned:{job}:{action}"),
        );
    }
}

/// The first head line holding `needle`, preferring lines the change added.
fn locate(text: &str, needle: &str, added: &LineSet) -> u32 {
    let mut first = None;
    for (index, line) in text.lines().enumerate() {
        if line.contains(needle) {
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            if added.contains(number) {
                return number;
            }
            first.get_or_insert(number);
        }
    }
    first.or_else(|| added.iter().next()).unwrap_or(1)
}
