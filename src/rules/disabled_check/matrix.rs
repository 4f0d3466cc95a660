//! A job's `strategy.matrix` expanded into its entries as GitHub does (axes multiplied,
//! `exclude` removed, `include` entries added to the combinations whose axis values they keep,
//! or appended), so a condition can be judged per entry and entries paired between base and
//! head.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// More entries than this and the matrix is not expanded (the judgement gives up).
const MAX_ENTRIES: usize = 256;

/// One matrix entry.
pub type Entry = Map<String, Value>;

/// The entries of a job's matrix: one empty entry without a matrix, `None` when the matrix is
/// computed (`${{ fromJSON(..) }}`) or too large.
pub fn entries(job: &Value) -> Option<Vec<Entry>> {
    let Some(matrix) = job
        .get("strategy")
        .and_then(|strategy| strategy.get("matrix"))
    else {
        return Some(vec![Map::new()]);
    };
    let matrix = matrix.as_object()?;
    let mut axes: Vec<(&String, &Vec<Value>)> = Vec::new();
    for (key, value) in matrix {
        if key == "include" || key == "exclude" {
            continue;
        }
        axes.push((key, value.as_array()?));
    }
    let mut combinations: Vec<Entry> = vec![Map::new()];
    for (key, values) in &axes {
        let mut next = Vec::new();
        for combination in &combinations {
            for value in *values {
                let mut extended = combination.clone();
                extended.insert((*key).clone(), value.clone());
                next.push(extended);
            }
        }
        if next.len() > MAX_ENTRIES {
            return None;
        }
        combinations = next;
    }
    if axes.is_empty() {
        combinations.clear();
    }
    if let Some(excluded) = matrix.get("exclude") {
        let excluded = excluded.as_array()?;
        combinations.retain(|combination| {
            !excluded.iter().any(|rule| {
                rule.as_object().is_some_and(|rule| {
                    rule.iter()
                        .all(|(key, value)| combination.get(key) == Some(value))
                })
            })
        });
    }
    let original = combinations.len();
    if let Some(included) = matrix.get("include") {
        for entry in included.as_array()? {
            let entry = entry.as_object()?;
            let mut added = false;
            for combination in combinations.iter_mut().take(original) {
                let keeps_axes = entry.iter().all(|(key, value)| {
                    !axes.iter().any(|(axis, _)| *axis == key)
                        || combination.get(key) == Some(value)
                });
                if keeps_axes {
                    for (key, value) in entry {
                        combination.insert(key.clone(), value.clone());
                    }
                    added = true;
                }
            }
            if !added {
                combinations.push(entry.clone());
            }
            if combinations.len() > MAX_ENTRIES {
                return None;
            }
        }
    }
    if combinations.is_empty() {
        combinations.push(Map::new());
    }
    Some(combinations)
}

/// What names an entry across base and head: its values other than booleans (a flag such as
/// `experimental: true` is what changes, not which configuration runs).
pub fn identity(entry: &Entry) -> String {
    let named: BTreeMap<&String, String> = entry
        .iter()
        .filter(|(_, value)| !value.is_boolean())
        .map(|(key, value)| {
            let text = match value {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            (key, text)
        })
        .collect();
    named
        .iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether an entry names a pre-release toolchain or runtime (`nightly`, `3.14-dev`, `beta`),
/// where a failure allowed is the usual policy rather than a check switched off.
pub fn prerelease(identity: &str) -> bool {
    const WORDS: [&str; 14] = [
        "nightly",
        "beta",
        "alpha",
        "dev",
        "rc",
        "canary",
        "next",
        "pre",
        "prerelease",
        "insiders",
        "edge",
        "unstable",
        "preview",
        "experimental",
    ];
    identity
        .to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| {
            WORDS.contains(&word)
                || (word.starts_with("rc") && word[2..].chars().all(|c| c.is_ascii_digit()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(matrix: &str) -> Value {
        serde_json::from_str(&format!(r#"{{"strategy": {{"matrix": {matrix}}}}}"#)).unwrap()
    }

    fn identities(job: &Value) -> Vec<String> {
        entries(job).unwrap().iter().map(identity).collect()
    }

    #[test]
    fn axes_exclude_and_include() {
        let job = job(r#"{"os": ["ubuntu", "windows"], "python": ["3.11", "3.12"],
                "exclude": [{"os": "windows", "python": "3.11"}],
                "include": [{"os": "windows", "python": "3.12", "experimental": true},
                            {"os": "ubuntu", "python": "3.14-dev", "experimental": true}]}"#);
        let all = entries(&job).unwrap();
        assert_eq!(all.len(), 4);
        assert_eq!(
            all[2].get("experimental"),
            Some(&Value::Bool(true)),
            "windows 3.12 extended: {all:?}"
        );
        assert_eq!(
            identities(&job),
            [
                "os=ubuntu, python=3.11",
                "os=ubuntu, python=3.12",
                "os=windows, python=3.12",
                "os=ubuntu, python=3.14-dev"
            ]
        );
    }

    #[test]
    fn include_only_and_computed_matrices() {
        assert_eq!(
            identities(&job(r#"{"include": [{"target": "a"}, {"target": "b"}]}"#)),
            ["target=a", "target=b"]
        );
        assert!(entries(&job(r#""${{ fromJSON(needs.setup.outputs.matrix) }}""#)).is_none());
        assert_eq!(entries(&serde_json::json!({})).unwrap().len(), 1);
        assert!(prerelease("python=3.14-dev"));
        assert!(prerelease("toolchain=nightly"));
        assert!(!prerelease("os=ubuntu-latest, python=3.12"));
    }
}
