//! Entry points for the fuzz targets in `fuzz/` and for the corpus replay test: each drives one
//! reader of untrusted input the way the gate does, with arbitrary bytes, and checks what must
//! hold whatever the input. A panic here is a bug; so is a full secret left in an output.
//!
//! The targets are listed once, in [`TARGETS`]: `fuzz/fuzz_targets/*.rs` call [`run`] by name,
//! and `tests/fuzz_corpus.rs` replays the committed corpus of every target on stable Rust, so a
//! crash found by fuzzing stays fixed once its input is in `fuzz/corpus/<target>/`.

use crate::changeset::{ChangeSet, pair_trees};
use crate::config::{self, Policy};
use crate::engine;
use crate::github::{event, relay, summary};
use crate::report::{self, Format, Style};
use std::collections::BTreeMap;

/// What a target reads.
#[derive(Clone, Copy, Debug)]
pub enum Input {
    /// The policy file, as read from the base commit.
    Policy,
    /// A GitHub event payload, as every supported event and as a `workflow_run`.
    Event,
    /// A relayed JSON report (the fork-PR second stage).
    RelayReport,
    /// One line-oriented text through the secret scanner and redaction.
    Secrets,
    /// A commit message or pull request body through the claim reader.
    Claims,
    /// A base/head pair of one file at this path, through the whole pipeline and every format.
    FilePair(&'static str),
}

/// Every fuzz target: its name (the file in `fuzz/fuzz_targets/` and the folder in
/// `fuzz/corpus/`) and what it reads.
pub const TARGETS: &[(&str, Input)] = &[
    ("policy", Input::Policy),
    ("event", Input::Event),
    ("relay_report", Input::RelayReport),
    ("secrets", Input::Secrets),
    ("claims", Input::Claims),
    ("package_json", Input::FilePair("package.json")),
    ("package_lock", Input::FilePair("package-lock.json")),
    ("yarn_lock", Input::FilePair("yarn.lock")),
    ("pnpm_lock", Input::FilePair("pnpm-lock.yaml")),
    ("pyproject", Input::FilePair("pyproject.toml")),
    ("setup_cfg", Input::FilePair("setup.cfg")),
    ("tox_ini", Input::FilePair("tox.ini")),
    ("pytest_ini", Input::FilePair("pytest.ini")),
    ("coveragerc", Input::FilePair(".coveragerc")),
    ("codecov_yml", Input::FilePair("codecov.yml")),
    ("workflow", Input::FilePair(".github/workflows/ci.yml")),
    ("tsconfig", Input::FilePair("tsconfig.json")),
    ("jest_config", Input::FilePair("jest.config.js")),
    ("vitest_config", Input::FilePair("vitest.config.ts")),
    ("cargo_toml", Input::FilePair("Cargo.toml")),
    ("cargo_lock", Input::FilePair("Cargo.lock")),
    ("requirements", Input::FilePair("requirements.txt")),
    ("go_mod", Input::FilePair("go.mod")),
    ("env_file", Input::FilePair(".env")),
    ("python", Input::FilePair("tests/test_fuzz.py")),
    ("javascript", Input::FilePair("src/fuzz.test.js")),
    ("typescript", Input::FilePair("src/fuzz.test.ts")),
    ("tsx", Input::FilePair("src/fuzz.test.tsx")),
    ("rust", Input::FilePair("src/fuzz.rs")),
];

/// Runs the target `name` on `data`. Unknown names do nothing (a fuzz target and this table are
/// checked against each other by the corpus test).
pub fn run(name: &str, data: &[u8]) {
    let Some((_, input)) = TARGETS.iter().find(|(target, _)| *target == name) else {
        return;
    };
    match *input {
        Input::Policy => policy(data),
        Input::Event => github_event(data),
        Input::RelayReport => relay_report(data),
        Input::Secrets => secrets(data),
        Input::Claims => claims(data),
        Input::FilePair(path) => file_pair(path, data),
    }
}

fn policy(data: &[u8]) {
    let _ = config::parse(&String::from_utf8_lossy(data), "fuzz");
}

fn github_event(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for name in [
        "pull_request",
        "pull_request_target",
        "push",
        "merge_group",
        "workflow_run",
    ] {
        let _ = event::read(name, &text);
    }
    let _ = relay::read_workflow_run(&text);
}

fn claims(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = crate::claims::stated(&[crate::claims::Claim::new("fuzz", &text)]);
}

fn relay_report(data: &[u8]) {
    let scanner = crate::secrets::scanner();
    let _ = relay::read_report(
        &String::from_utf8_lossy(data),
        &"0".repeat(40),
        |id| crate::rules::find(id).map(|rule| rule.id),
        |text| scanner.redact_line(text),
    );
}

/// Redaction must remove what the scanner finds: rescanning the redacted line finds none of
/// the original secrets again.
fn secrets(data: &[u8]) {
    let scanner = crate::secrets::scanner();
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        let found: Vec<&str> = scanner
            .scan_line(line)
            .iter()
            .map(|hit| &line[hit.start..hit.end])
            .collect();
        let redacted = scanner.redact_line(line);
        for hit in scanner.scan_line(&redacted) {
            let again = &redacted[hit.start..hit.end];
            assert!(
                !found.contains(&again),
                "redaction left a secret in place ({})",
                hit.rule_id
            );
        }
    }
    let _ = scanner.redact_text(&text);
}

/// The first byte says where the rest splits into base and head, so one input holds both
/// sides of a change to `path`.
fn file_pair(path: &str, data: &[u8]) {
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let at = rest.len() * usize::from(split) / 255;
    let (base, head) = rest.split_at(at);
    let runner_configs = crate::rules::collection::runner_config_names()
        .filter(|name| *name == path)
        .map(|name| (name.to_string(), String::from_utf8_lossy(base).into_owned()))
        .collect();
    let change = ChangeSet {
        base: "base".to_string(),
        head: "head".to_string(),
        files: pair_trees(
            BTreeMap::from([(path.to_string(), base.to_vec())]),
            BTreeMap::from([(path.to_string(), head.to_vec())]),
        ),
        runner_configs,
        ..ChangeSet::default()
    };
    let report = engine::analyze(&change, &Policy::default());
    for format in <Format as clap::ValueEnum>::value_variants() {
        let _ = report::render(*format, &report, Style::default());
    }
    let _ = summary::markdown(&report, None, 65_000);
}
