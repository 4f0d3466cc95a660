//! Conditions on CI checks judged per matrix entry and per triggering event: a
//! `continue-on-error: ${{ … }}` that makes an entry non-blocking which base kept blocking, an
//! `if:` that skips a check on pull requests, on some entries, or on what the pull request's
//! author controls, and triggers that stop running a workflow on pull requests.

use super::expression::{Env, Source, Truth, truth};
use super::matrix::{Entry, identity};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The events a pull request runs a workflow with: its pull-request triggers, or an unfiltered
/// `push` (the branch push of the pull request). Empty when pull requests do not run it.
pub fn pr_events(doc: &Value) -> Vec<&'static str> {
    let triggers = triggers(doc);
    let mut events: Vec<&'static str> = ["pull_request", "pull_request_target", "merge_group"]
        .into_iter()
        .filter(|event| triggers.contains_key(*event))
        .collect();
    if events.is_empty()
        && triggers
            .get("push")
            .is_some_and(|push| !push_filtered(push))
    {
        events.push("push");
    }
    events
}

/// Whether pull requests run the workflow, or may (a reusable workflow runs with its caller,
/// `workflow_run` after another run): its checks then gate them.
pub fn gates_pull_requests(doc: &Value) -> bool {
    let triggers = triggers(doc);
    !pr_events(doc).is_empty()
        || ["workflow_call", "workflow_run"]
            .iter()
            .any(|event| triggers.contains_key(*event))
        || triggers.is_empty()
}

/// `on:` as event → its settings (`null` for a bare name).
fn triggers(doc: &Value) -> BTreeMap<String, Value> {
    // YAML 1.1 readers turn a bare `on` into `true`.
    match doc.get("on").or_else(|| doc.get("true")) {
        Some(Value::String(name)) => BTreeMap::from([(name.clone(), Value::Null)]),
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .map(|name| (name.to_string(), Value::Null))
            .collect(),
        Some(Value::Object(map)) => map.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        _ => BTreeMap::new(),
    }
}

/// Whether a `push` trigger is limited to some branches or tags (so a pull request's branch
/// push may not run it).
fn push_filtered(push: &Value) -> bool {
    ["branches", "tags", "branches-ignore", "tags-ignore"]
        .iter()
        .any(|key| push.get(key).is_some())
}

/// What a trigger change does to pull requests: the workflow no longer runs on them (error
/// when nothing else runs it for the branch, warning when an unfiltered `push` still does),
/// or a `paths-ignore` that now skips pull requests changing source.
pub fn trigger_change(base: &Value, head: &Value) -> Option<(bool, String)> {
    const PR: [&str; 3] = ["pull_request", "pull_request_target", "merge_group"];
    let base_triggers = triggers(base);
    let head_triggers = triggers(head);
    let had = PR.iter().any(|event| base_triggers.contains_key(*event));
    // A reusable workflow runs when its caller does: the caller's triggers decide.
    let has = PR
        .iter()
        .chain(&["workflow_call", "workflow_run"])
        .any(|event| head_triggers.contains_key(*event));
    if had && !has {
        let push = head_triggers.get("push");
        let blocking = push.is_none_or(push_filtered);
        let still = if blocking {
            String::new()
        } else {
            " (pushes to the pull request's branch still run it)".to_string()
        };
        return Some((
            blocking,
            format!("the workflow no longer runs on pull requests{still}"),
        ));
    }
    let ignored = |triggers: &BTreeMap<String, Value>| -> BTreeSet<String> {
        triggers
            .get("pull_request")
            .and_then(|settings| settings.get("paths-ignore"))
            .and_then(Value::as_array)
            .map(|paths| {
                paths
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    let before = ignored(&base_triggers);
    let source: Vec<String> = ignored(&head_triggers)
        .difference(&before)
        .filter(|path| ignores_source(path))
        .cloned()
        .collect();
    (!source.is_empty()).then(|| {
        (
            false,
            format!(
                "pull requests that change only `{}` no longer run the workflow (`paths-ignore`)",
                source.join("`, `")
            ),
        )
    })
}

/// Whether a path pattern reaches code rather than docs or metadata.
fn ignores_source(pattern: &str) -> bool {
    const DIRS: [&str; 8] = [
        "src", "lib", "packages", "crates", "app", "pkg", "test", "tests",
    ];
    const EXTENSIONS: [&str; 11] = [
        "py", "rs", "ts", "tsx", "js", "jsx", "go", "java", "c", "cpp", "h",
    ];
    let pattern = pattern.trim_start_matches('!').trim_start_matches("./");
    if matches!(pattern, "**" | "**/*" | "*") {
        return true;
    }
    let first = pattern.split('/').next().unwrap_or_default();
    DIRS.contains(&first)
        || pattern
            .rsplit_once('.')
            .is_some_and(|(_, extension)| EXTENSIONS.contains(&extension))
}

fn text_of(value: &Value) -> Option<String> {
    match value {
        Value::Bool(flag) => Some(flag.to_string()),
        Value::Number(number) => Some(number.to_string()),
        Value::String(text) => Some(text.clone()),
        _ => None,
    }
}

/// Whether `continue-on-error` lets an entry fail: `None` when it cannot be known.
fn nonblocking(value: Option<&Value>, entry: &Entry) -> Option<bool> {
    let text = match value {
        None => return Some(false),
        Some(value) => text_of(value)?,
    };
    let env = Env {
        event: None,
        matrix: Some(entry),
    };
    match truth(&text, &env) {
        Truth::Yes => Some(true),
        Truth::No => Some(false),
        Truth::Unknown(_) => None,
    }
}

/// Matrix entries that base ran blocking and head lets fail through a `continue-on-error`
/// expression; `None` when head's value is no expression or every entry stays as it was.
pub fn made_nonblocking(
    base: Option<&Value>,
    head: Option<&Value>,
    base_entries: &[Entry],
    head_entries: &[Entry],
) -> Option<Vec<String>> {
    // A literal `true` is judged on its own; an expression that did not change over a matrix
    // that did not change changes nothing.
    let expression = head.and_then(text_of)?;
    if matches!(expression.trim(), "true" | "false") {
        return None;
    }
    let mut base_blocking = BTreeSet::new();
    for entry in base_entries {
        if nonblocking(base, entry) == Some(false) {
            base_blocking.insert(identity(entry));
        }
    }
    let (mut blocking, mut lenient) = (BTreeSet::new(), BTreeSet::new());
    for entry in head_entries {
        match nonblocking(head, entry) {
            Some(false) => {
                blocking.insert(identity(entry));
            }
            Some(true) => {
                lenient.insert(identity(entry));
            }
            None => {}
        }
    }
    let weakened: Vec<String> = lenient
        .difference(&blocking)
        .filter(|entry| base_blocking.contains(*entry))
        .cloned()
        .collect();
    (!weakened.is_empty()).then_some(weakened)
}

/// How a new `if:` keeps a check from running where the gate runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// False for every pull-request event and every entry.
    OnPullRequests,
    /// False for these matrix entries, which base ran.
    Entries(Vec<String>),
    /// Decided by something the pull request's author sets (branch name, title, labels).
    AuthorSwitch,
}

/// Judges head's `if:` against base's for the events a pull request runs with. `entries` is
/// `None` for a job-level condition (no matrix there) or a matrix that cannot be expanded.
pub fn skipped(
    base: Option<&Value>,
    head: Option<&Value>,
    events: &[&str],
    base_entries: Option<&[Entry]>,
    head_entries: Option<&[Entry]>,
) -> Option<Skip> {
    let head_text = head.and_then(text_of)?;
    let base_text = base.and_then(text_of);
    let squash = |text: &str| text.split_whitespace().collect::<String>();
    if base_text.as_deref().map(squash) == Some(squash(&head_text)) || events.is_empty() {
        return None;
    }
    let verdicts = |text: Option<&str>, entries: Option<&[Entry]>| -> BTreeMap<String, Truth> {
        let none = [Entry::new()];
        let (entries, matrix) = match entries {
            Some(entries) => (entries, true),
            None => (&none[..], false),
        };
        let mut by_identity: BTreeMap<String, Truth> = BTreeMap::new();
        for entry in entries {
            let verdict = match text {
                None => Truth::Yes,
                Some(text) => events
                    .iter()
                    .map(|event| {
                        truth(
                            text,
                            &Env {
                                event: Some(event),
                                matrix: matrix.then_some(entry),
                            },
                        )
                    })
                    .fold(Truth::No, either),
            };
            let slot = by_identity.entry(identity(entry)).or_insert(Truth::No);
            *slot = either(*slot, verdict);
        }
        by_identity
    };
    let before = verdicts(base_text.as_deref(), base_entries);
    let after = verdicts(Some(&head_text), head_entries);
    let ran: Vec<&String> = before
        .iter()
        .filter(|(_, verdict)| **verdict != Truth::No)
        .map(|(identity, _)| identity)
        .collect();
    if ran.is_empty() {
        return None;
    }
    if after.values().all(|verdict| *verdict == Truth::No) {
        return Some(Skip::OnPullRequests);
    }
    let dropped: Vec<String> = ran
        .iter()
        .filter(|identity| after.get(**identity) == Some(&Truth::No))
        .map(|identity| (*identity).clone())
        .collect();
    if !dropped.is_empty() {
        return Some(Skip::Entries(dropped));
    }
    let author = |verdict: Option<&Truth>| verdict == Some(&Truth::Unknown(Source::Author));
    ran.iter()
        .any(|identity| author(after.get(*identity)) && !author(before.get(*identity)))
        .then_some(Skip::AuthorSwitch)
}

/// Whether a step with this `if:` may run on a pull request for the matrix entries named
/// `identity` (any entry when `None`).
pub fn runs_for(
    condition: Option<&Value>,
    events: &[&str],
    entries: Option<&[Entry]>,
    identity: Option<&str>,
) -> bool {
    let Some(text) = condition.and_then(text_of) else {
        return true;
    };
    let none = [Entry::new()];
    let (entries, matrix) = match entries {
        Some(entries) => (entries, true),
        None => (&none[..], false),
    };
    entries
        .iter()
        .filter(|entry| identity.is_none_or(|wanted| super::matrix::identity(entry) == wanted))
        .any(|entry| {
            events.iter().any(|event| {
                truth(
                    &text,
                    &Env {
                        event: Some(event),
                        matrix: matrix.then_some(entry),
                    },
                ) != Truth::No
            })
        })
}

/// Whether the condition holds for any of several evaluations.
fn either(a: Truth, b: Truth) -> Truth {
    match (a, b) {
        (Truth::Yes, _) | (_, Truth::Yes) => Truth::Yes,
        (Truth::No, other) | (other, Truth::No) => other,
        (Truth::Unknown(x), Truth::Unknown(y)) => Truth::Unknown(x.max(y)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn conditions_on_pull_requests() {
        let events = ["pull_request"];
        let skip = |head: &str| skipped(None, Some(&json!(head)), &events, None, None);
        assert_eq!(
            skip("github.event_name == 'push'"),
            Some(Skip::OnPullRequests)
        );
        assert_eq!(skip("${{ !cancelled() }}"), None);
        assert_eq!(skip("steps.filter.outputs.src == 'true'"), None);
        assert_eq!(
            skip("!startsWith(github.head_ref, 'release/')"),
            Some(Skip::AuthorSwitch)
        );
        let entries: Vec<Entry> = ["3.11", "3.12"]
            .iter()
            .map(|python| json!({ "python": python }).as_object().unwrap().clone())
            .collect();
        assert_eq!(
            skipped(
                None,
                Some(&json!("matrix.python != '3.12'")),
                &events,
                Some(&entries),
                Some(&entries)
            ),
            Some(Skip::Entries(vec!["python=3.12".to_string()]))
        );
        assert_eq!(
            skipped(
                Some(&json!("matrix.python != '3.12'")),
                Some(&json!("matrix.python != '3.12' && !cancelled()")),
                &events,
                Some(&entries),
                Some(&entries)
            ),
            None
        );
    }

    #[test]
    fn triggers_that_drop_pull_requests() {
        let base = json!({"on": ["push", "pull_request"]});
        let head = json!({"on": {"push": {"branches": ["main"]}}});
        assert_eq!(
            trigger_change(&base, &head).map(|(error, _)| error),
            Some(true)
        );
        let head = json!({"on": ["push"]});
        assert_eq!(
            trigger_change(&base, &head).map(|(error, _)| error),
            Some(false)
        );
        let head = json!({"on": {"pull_request": {"paths-ignore": ["src/**", "docs/**"]}}});
        assert!(
            trigger_change(&base, &head).is_some_and(|(_, message)| message.contains("src/**"))
        );
        assert_eq!(
            trigger_change(&base, &json!({"on": {"workflow_call": null}})),
            None
        );
        let head = json!({"on": {"pull_request": {"paths": ["src/**"]}, "merge_group": null}});
        assert_eq!(trigger_change(&base, &head), None);
        assert_eq!(pr_events(&json!({"on": {"push": null}})), ["push"]);
        assert!(pr_events(&json!({"on": {"push": {"branches": ["main"]}}})).is_empty());
    }
}
