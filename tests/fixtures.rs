//! Runs every case under `fixtures/<rule>/<case>/` in-process and compares the findings with
//! the case's `expected.txt`. `INTEGRITY_GATE_BLESS=1 cargo test` rewrites the expectations.
//!
//! Enforced: a `flag-` case reports its rule at least once, a `clean-` case never reports it;
//! every implemented rule has both kinds, and a `flag-` case in each declared language.
//!
//! A file `<name>.symlink` in `base/` or `head/` stands for a symbolic link `<name>` whose
//! target is the file's content (see `integrity_gate::fixtures`).

use integrity_gate::config::{self, Policy};
use integrity_gate::lang::Language;
use integrity_gate::rules::{ALL_RULES, Maturity};
use integrity_gate::{engine, fixtures};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

struct Case {
    rule: String,
    name: String,
    dir: PathBuf,
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for rule in std::fs::read_dir(root()).unwrap() {
        let rule = rule.unwrap();
        let rule_name = rule.file_name().to_string_lossy().to_string();
        if rule_name.starts_with('_') || !rule.file_type().unwrap().is_dir() {
            continue;
        }
        for case in std::fs::read_dir(rule.path()).unwrap() {
            let case = case.unwrap();
            cases.push(Case {
                rule: rule_name.clone(),
                name: case.file_name().to_string_lossy().to_string(),
                dir: case.path(),
            });
        }
    }
    cases.sort_by(|a, b| (&a.rule, &a.name).cmp(&(&b.rule, &b.name)));
    cases
}

/// The policy a case runs under: its base `.integrity-gate.yml`, as the CLI would read it;
/// a file `agent-authored` beside `base/` makes the change agent-authored, as the `github`
/// command does for a pull request an agent opened.
fn policy(case: &Case) -> Policy {
    let path = case.dir.join("base/.integrity-gate.yml");
    let policy = match std::fs::read_to_string(&path) {
        Ok(text) => config::parse(&text, &path.display().to_string()).unwrap(),
        Err(_) => Policy::default(),
    };
    if case.dir.join("agent-authored").exists() {
        policy.tightened_for_agents()
    } else {
        policy
    }
}

fn languages(case: &Case) -> BTreeSet<Language> {
    let mut found = BTreeSet::new();
    for side in ["base", "head"] {
        for path in fixtures::read_tree(&case.dir.join(side)).unwrap().keys() {
            found.extend(Language::from_path(path));
        }
    }
    found
}

#[test]
fn fixture_cases() {
    let bless = std::env::var_os("INTEGRITY_GATE_BLESS").is_some();
    let mut failures = Vec::new();
    let mut flagged_languages: BTreeMap<String, BTreeSet<Language>> = BTreeMap::new();
    let mut kinds: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for case in cases() {
        let label = format!("{}/{}", case.rule, case.name);
        let mut change =
            fixtures::change_set(&case.dir.join("base"), &case.dir.join("head")).unwrap();
        change.claims = fixtures::claims(&case.dir).unwrap();
        let report = engine::analyze(&change, &policy(&case));
        let rows = fixtures::expected_rows(&report);
        let fired = report
            .findings
            .iter()
            .any(|finding| finding.rule == case.rule);
        let expected_path = case.dir.join("expected.txt");
        if case.name.starts_with("flag-") {
            kinds.entry(case.rule.clone()).or_default().insert("flag");
            flagged_languages
                .entry(case.rule.clone())
                .or_default()
                .extend(languages(&case));
            if !fired {
                failures.push(format!(
                    "{label}: expected `{}` to fire, it did not\n{rows}",
                    case.rule
                ));
            }
        } else if case.name.starts_with("clean-") {
            kinds.entry(case.rule.clone()).or_default().insert("clean");
            if fired {
                failures.push(format!(
                    "{label}: expected `{}` to stay silent\n{rows}",
                    case.rule
                ));
            }
        } else {
            failures.push(format!("{label}: case names start with flag- or clean-"));
        }
        if bless {
            std::fs::write(&expected_path, &rows).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != rows {
            failures.push(format!(
                "{label}: findings differ from expected.txt\n--- expected\n{expected}--- actual\n{rows}"
            ));
        }
    }
    for rule in ALL_RULES
        .iter()
        .filter(|rule| rule.maturity == Maturity::Stable)
    {
        let have = kinds.get(rule.id).cloned().unwrap_or_default();
        if !have.contains("flag") || !have.contains("clean") {
            failures.push(format!("{}: needs both flag- and clean- fixtures", rule.id));
        }
        let flagged = flagged_languages.get(rule.id).cloned().unwrap_or_default();
        for language in rule.languages {
            if !flagged.contains(language) {
                failures.push(format!(
                    "{}: no flag- fixture in {}",
                    rule.id,
                    language.name()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
