//! The aggregate CI job ("all tests passed", `re-actors/alls-green`) that branch protection
//! requires in place of every check: it fails when a job it needs failed. Removing it, dropping
//! a check job from its `needs`, allowing a job to fail, or dropping its check of the results
//! lets a failing check merge.

use regex::Regex;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The jobs a job waits for.
pub fn needs(job: &Value) -> Vec<String> {
    match job.get("needs") {
        Some(Value::String(name)) => vec![name.clone()],
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether job `from` waits for `target`, directly or through the jobs it needs (bounded).
pub fn reaches(jobs: &serde_json::Map<String, Value>, from: &str, target: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut queue: Vec<String> = jobs.get(from).map(needs).unwrap_or_default();
    while let Some(job) = queue.pop() {
        if job == target {
            return true;
        }
        if seen.len() > 512 || !seen.insert(job.clone()) {
            continue;
        }
        queue.extend(jobs.get(&job).map(needs).unwrap_or_default());
    }
    false
}

fn steps(job: &Value) -> impl Iterator<Item = &Value> {
    job.get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// Text of a step that may read the results: `run`, `uses` and `with` values.
fn step_text(step: &Value) -> String {
    let mut text = String::new();
    for key in ["run", "uses"] {
        if let Some(value) = step.get(key).and_then(Value::as_str) {
            text.push_str(value);
            text.push('\n');
        }
    }
    if let Some(with) = step.get("with").and_then(Value::as_object) {
        for value in with.values().filter_map(Value::as_str) {
            text.push_str(value);
            text.push('\n');
        }
    }
    text
}

/// Whether some step checks the results of the jobs it needs (`needs.*.result`,
/// `toJSON(needs)`, the alls-green action); reading a job's outputs is not that.
fn checks_results(job: &Value) -> bool {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    let pattern = PATTERN
        .get_or_init(|| {
            Regex::new(r"alls-green|needs\.[\w*-]+\.result|(?i:tojson)\(\s*needs\s*\)").ok()
        })
        .as_ref();
    steps(job).any(|step| pattern.is_some_and(|pattern| pattern.is_match(&step_text(step))))
}

fn gate_name() -> Option<&'static Regex> {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    PATTERN
        .get_or_init(|| {
            Regex::new(r"(?i)(?:^|[-_ ])(?:all|alls|success|pass(?:ed)?|green|ok|complete|required|gate|done|finished|result)(?:$|[-_ ])").ok()
        })
        .as_ref()
}

/// Whether a job is an aggregate gate over other jobs: it reads their results (or is the
/// alls-green action), or is named as one (`all-tests-passed`, `ci-success`) and waits for
/// two or more jobs while running nothing itself.
pub fn is_aggregate(id: &str, job: &Value, runs_check: impl Fn(&Value) -> bool) -> bool {
    let needed = needs(job).len();
    if needed == 0 || runs_check(job) {
        return false;
    }
    if checks_results(job) {
        return true;
    }
    let name = job.get("name").and_then(Value::as_str).unwrap_or(id);
    needed >= 2
        && [id, name]
            .iter()
            .any(|name| gate_name().is_some_and(|pattern| pattern.is_match(name)))
}

/// `allowed-failures` / `allowed-skips` of alls-green: the needed jobs it lets fail.
fn allowed(job: &Value) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for step in steps(job) {
        let Some(with) = step.get("with") else {
            continue;
        };
        for key in ["allowed-failures", "allowed-skips"] {
            let text = match with.get(key) {
                Some(Value::String(text)) => text.clone(),
                Some(Value::Array(items)) => items
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(","),
                _ => continue,
            };
            names.extend(
                text.split([',', '\n', ' ', '[', ']', '"', '\''])
                    .map(str::trim)
                    .filter(|name| !name.is_empty() && !name.contains("${{"))
                    .map(str::to_string),
            );
        }
    }
    names
}

/// What the change does to an aggregate job that stays: needed check jobs it no longer waits
/// for (`stays_and_checks` tells which still exist and run checks), jobs it now lets fail, and
/// whether it stopped reading the results.
pub fn weakened(
    base: &Value,
    head: &Value,
    stays_and_checks: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut found = Vec::new();
    let now: BTreeSet<String> = needs(head).into_iter().collect();
    let dropped: Vec<String> = needs(base)
        .into_iter()
        .filter(|job| !now.contains(job) && stays_and_checks(job))
        .collect();
    if !dropped.is_empty() {
        found.push(format!(
            "no longer waits for `{}`: a failure there no longer fails it",
            dropped.join("`, `")
        ));
    }
    let before = allowed(base);
    let lets_fail: Vec<String> = allowed(head)
        .difference(&before)
        .filter(|job| now.contains(*job))
        .cloned()
        .collect();
    if !lets_fail.is_empty() {
        found.push(format!("now lets `{}` fail", lets_fail.join("`, `")));
    }
    if checks_results(base) && !checks_results(head) && !now.is_empty() {
        found.push("no longer checks the results of the jobs it waits for".to_string());
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn aggregates_and_their_weakenings() {
        let gate = json!({
            "needs": ["lint", "test"],
            "if": "always()",
            "steps": [{"uses": "re-actors/alls-green@release/v1", "with": {"jobs": "${{ toJSON(needs) }}"}}]
        });
        assert!(is_aggregate("check", &gate, |_| false));
        let named = json!({"needs": ["a", "b"], "steps": [{"run": "echo ok"}]});
        assert!(is_aggregate("all-tests-passed", &named, |_| false));
        assert!(!is_aggregate("deploy", &named, |_| false));
        let head = json!({
            "needs": ["lint", "test"],
            "steps": [{"uses": "re-actors/alls-green@release/v1",
                       "with": {"jobs": "${{ toJSON(needs) }}", "allowed-failures": "test"}}]
        });
        assert_eq!(weakened(&gate, &head, |_| true), ["now lets `test` fail"]);
        let head = json!({"needs": ["lint"], "steps": [{"run": "echo ok"}]});
        assert_eq!(
            weakened(&gate, &head, |_| true).len(),
            2,
            "{:?}",
            weakened(&gate, &head, |_| true)
        );
    }
}
