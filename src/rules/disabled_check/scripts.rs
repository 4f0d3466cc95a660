//! Command lines in scripts, hooks, CI files and package.json `scripts`: hook bypasses
//! (`--no-verify`, `HUSKY=0`, `SKIP=`), test commands that can no longer fail or that exclude
//! tests, and package.json check scripts replaced by `echo`/`exit 0`/`true`.
//!
//! Plain files are read line by line (a line counts when the change added it and base has no
//! identical line); package.json is compared script by script.

use super::config_text::{jsonc, shell_words};
use super::workflows::{is_workflow, neutered, runs_check};
use super::{Output, file_name, locate, push};
use crate::finding::{Severity, Side};
use crate::rules::FileContext;
use crate::rules::markers::shorten;
use regex::Regex;
use serde_json::Value;
use std::collections::HashSet;
use std::sync::OnceLock;

/// Files whose lines are commands: shell scripts, make/just files, hooks, CI configurations.
pub(super) fn is_script_file(path: &str) -> bool {
    let name = file_name(path);
    let extension = name
        .rsplit_once('.')
        .map(|(_, ext)| ext)
        .unwrap_or_default();
    matches!(
        extension,
        "sh" | "bash" | "zsh" | "ps1" | "bat" | "cmd" | "mk"
    ) || matches!(
        name,
        "Makefile"
            | "makefile"
            | "GNUmakefile"
            | "justfile"
            | "Justfile"
            | "tox.ini"
            | "Taskfile.yml"
            | "lefthook.yml"
            | ".gitlab-ci.yml"
            | ".travis.yml"
            | "azure-pipelines.yml"
            | "Jenkinsfile"
            | ".pre-commit-config.yaml"
    ) || is_hook(path)
        || is_workflow(path)
        || path.starts_with(".circleci/")
        || path.starts_with(".github/actions/")
}

fn is_hook(path: &str) -> bool {
    [".husky/", ".githooks/", ".git-hooks/", "githooks/"]
        .iter()
        .any(|dir| path.starts_with(dir) || path.contains(&format!("/{dir}")))
        && !path.contains("/_/")
}

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let path = context.pair.path();
    if file_name(path) == "package.json" {
        package_json(context, out);
    } else if is_script_file(path) {
        lines(context, out, path);
    }
}

fn lines(context: &FileContext<'_>, out: &mut Output, path: &str) {
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    let base_lines: HashSet<&str> = context
        .side(Side::Base)
        .map(|base| base.text.lines().map(str::trim).collect())
        .unwrap_or_default();
    let workflow = is_workflow(path);
    let mentions_pre_commit = head.text.contains("pre-commit");
    for (index, line) in head.text.lines().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let trimmed = line.trim();
        if !context.is_added_line(number)
            || base_lines.contains(trimmed)
            || trimmed.starts_with('#')
        {
            continue;
        }
        let mut found = scan(trimmed, !workflow);
        if mentions_pre_commit && let Some(skipped) = trimmed.strip_prefix("SKIP:") {
            found.push((
                Severity::Warning,
                format!("skips pre-commit hooks `{}`", skipped.trim()),
            ));
        }
        if is_hook(path) && matches!(trimmed, "exit 0" | "exit" | "true" | ":") {
            found.push((
                Severity::Error,
                format!("git hook `{path}` now exits before running its checks"),
            ));
        }
        for (severity, message) in found {
            push(
                out,
                Side::Head,
                number,
                severity,
                message,
                format!("script:{trimmed}"),
            );
        }
    }
}

fn regex(cell: &'static OnceLock<Option<Regex>>, pattern: &str) -> Option<&'static Regex> {
    cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()
}

/// Findings on one command line. `neutering` also reports `|| true` on check commands (off for
/// workflows, which compare steps structurally).
pub fn scan(line: &str, neutering: bool) -> Vec<(Severity, String)> {
    static NO_VERIFY: OnceLock<Option<Regex>> = OnceLock::new();
    static HUSKY: OnceLock<Option<Regex>> = OnceLock::new();
    static SKIP: OnceLock<Option<Regex>> = OnceLock::new();
    static CARGO_SKIP: OnceLock<Option<Regex>> = OnceLock::new();
    let mut found = Vec::new();
    if regex(
        &NO_VERIFY,
        r"\bgit\b.*\b(?:commit|push|merge|rebase|am|cherry-pick)\b.*--no-verify\b",
    )
    .is_some_and(|pattern| pattern.is_match(line))
    {
        found.push((
            Severity::Error,
            format!(
                "bypasses git hooks with `--no-verify`: `{}`",
                shorten(line, 70)
            ),
        ));
    }
    if regex(
        &HUSKY,
        r"\b(?:HUSKY=0|HUSKY_SKIP_HOOKS=1|HUSKY_SKIP_HOOKS=true)\b",
    )
    .is_some_and(|pattern| pattern.is_match(line))
    {
        found.push((
            Severity::Error,
            "turns husky git hooks off (`HUSKY=0`)".to_string(),
        ));
    }
    if let Some(captures) =
        regex(&SKIP, r"\bSKIP=([\w,.-]+)").and_then(|pattern| pattern.captures(line))
        && (line.contains("pre-commit") || line.contains("git commit") || line.contains("git push"))
    {
        let hooks = captures.get(1).map(|m| m.as_str()).unwrap_or_default();
        found.push((
            Severity::Warning,
            format!("skips pre-commit hooks `{hooks}`"),
        ));
    }
    if line.contains("--passWithNoTests") || line.contains("--pass-with-no-tests") {
        found.push(match narrowed_selection(line) {
            Some(selection) => (
                Severity::Error,
                format!(
                    "`--passWithNoTests` next to a narrowed selection (`{}`): when it matches no test the command passes without running any",
                    shorten(&selection, 50)
                ),
            ),
            None => (
                Severity::Warning,
                "`--passWithNoTests` lets the test command pass when it finds no tests"
                    .to_string(),
            ),
        });
    }
    if let Some(captures) = regex(
        &CARGO_SKIP,
        r"\bcargo\s+(?:\+\S+\s+)?(?:test|nextest)\b.*\s--\s.*--skip[ =]+(\S+)",
    )
    .and_then(|pattern| pattern.captures(line))
    {
        let skipped = captures.get(1).map(|m| m.as_str()).unwrap_or_default();
        found.push((
            Severity::Warning,
            format!("`cargo test -- --skip` excludes tests matching `{skipped}`"),
        ));
    }
    if line.contains("pytest") {
        let words = shell_words(line);
        for (severity, what) in super::runner_config::pytest_exclusions(&words) {
            found.push((severity, format!("the pytest command {what}")));
        }
    }
    if let Some(at) = line.find("--testPathIgnorePatterns") {
        let words = shell_words(&line[at..]);
        let pattern = words
            .first()
            .and_then(|word| word.split_once('=').map(|(_, value)| value.to_string()))
            .or_else(|| words.get(1).cloned())
            .unwrap_or_default();
        found.push((
            Severity::Warning,
            format!("the jest command excludes test paths matching `{pattern}`"),
        ));
    }
    if neutering && neutered(line) && runs_check(line) {
        found.push((
            Severity::Error,
            format!("check command can no longer fail: `{}`", shorten(line, 70)),
        ));
    }
    found
}

/// What narrows the tests a jest/vitest command line runs: a path pattern argument or a
/// selecting option (`--testPathPattern`, `-t`, `--selectProjects`, `--onlyChanged`, ...).
fn narrowed_selection(line: &str) -> Option<String> {
    const SELECTING: &[&str] = &[
        "--testPathPattern",
        "--testPathPatterns",
        "--testPathIgnorePatterns",
        "--testNamePattern",
        "-t",
        "--selectProjects",
        "--findRelatedTests",
        "--onlyChanged",
        "-o",
        "--changedSince",
        "--lastCommit",
        "--related",
        "--changed",
        "--project",
        "--dir",
    ];
    // Options whose next word is their value, not a path pattern.
    const VALUED: &[&str] = &[
        "--config",
        "-c",
        "--maxWorkers",
        "-w",
        "--reporters",
        "--reporter",
        "--coverageDirectory",
        "--outputFile",
        "--shard",
        "--testTimeout",
        "--env",
        "--environment",
        "--rootDir",
        "--root",
        "--mode",
        "--pool",
        "--coverageProvider",
    ];
    let words = shell_words(line);
    let runner = words.iter().position(|word| {
        let name = word.rsplit('/').next().unwrap_or(word);
        matches!(name, "jest" | "vitest")
    })?;
    let mut rest = words[runner + 1..]
        .iter()
        .take_while(|word| !matches!(word.as_str(), "&&" | "||" | ";" | "|"));
    while let Some(word) = rest.next() {
        let option = word.split('=').next().unwrap_or(word);
        if SELECTING.contains(&option) {
            return Some(word.clone());
        }
        if VALUED.contains(&option) && !word.contains('=') {
            rest.next();
            continue;
        }
        let subcommand = matches!(word.as_str(), "run" | "watch" | "related" | "bench");
        if !word.starts_with('-') && !subcommand {
            return Some(word.clone());
        }
    }
    None
}

/// Script names whose job is to check: `test`, `test:unit`, `lint`, `typecheck`, `check`.
fn is_check_script(name: &str) -> bool {
    let stem = name.split([':', '-', '_']).next().unwrap_or(name);
    matches!(
        stem,
        "test" | "tests" | "lint" | "typecheck" | "tsc" | "check" | "ci" | "verify"
    )
}

/// A script body that does nothing: `echo ...`, `exit 0`, `true`, `:`, empty.
fn does_nothing(script: &str) -> bool {
    let script = script.trim();
    script.is_empty()
        || matches!(
            script,
            "exit 0" | "true" | ":" | "node -e ''" | "node -e \"\""
        )
        || script.starts_with("echo ") && !script.contains("&&") && !script.contains(';')
        || script.ends_with("&& exit 0") && script.starts_with("echo ")
}

fn package_json(context: &FileContext<'_>, out: &mut Output) {
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    let Some(head_json) = jsonc(head.text) else {
        return;
    };
    let base_json = context.side(Side::Base).and_then(|base| jsonc(base.text));
    let scripts = |json: Option<&Value>| -> Vec<(String, String)> {
        json.and_then(|json| json.get("scripts"))
            .and_then(Value::as_object)
            .map(|scripts| {
                scripts
                    .iter()
                    .filter_map(|(name, value)| Some((name.clone(), value.as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default()
    };
    let base_scripts = scripts(base_json.as_ref());
    for (name, body) in scripts(Some(&head_json)) {
        let before = base_scripts
            .iter()
            .find(|(base_name, _)| *base_name == name)
            .map(|(_, body)| body.as_str());
        if before == Some(body.as_str()) {
            continue;
        }
        let line = locate(head.text, None, &format!("\"{name}\""), &context.pair.added);
        let key = format!("package.json:scripts.{name}");
        if is_check_script(&name)
            && does_nothing(&body)
            && before.is_some_and(|before| !does_nothing(before))
        {
            push(
                out,
                Side::Head,
                line,
                Severity::Error,
                format!(
                    "package.json script `{name}` no longer runs its checks: `{}` (was `{}`)",
                    shorten(&body, 50),
                    shorten(before.unwrap_or_default(), 50)
                ),
                key.clone(),
            );
            continue;
        }
        let base_found: Vec<String> = before
            .map(|before| {
                scan(before, true)
                    .into_iter()
                    .map(|(_, message)| message)
                    .collect()
            })
            .unwrap_or_default();
        for (severity, message) in scan(&body, true) {
            if base_found.contains(&message) {
                continue;
            }
            push(
                out,
                Side::Head,
                line,
                severity,
                format!("package.json script `{name}`: {message}"),
                format!("{key}:{message}"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_finds_hook_bypasses_and_exclusions() {
        assert_eq!(scan("git commit -m x --no-verify", true).len(), 1);
        assert_eq!(scan("HUSKY=0 git push", true).len(), 1);
        assert_eq!(scan("SKIP=flake8,mypy pre-commit run -a", true).len(), 1);
        assert_eq!(scan("cargo test -- --skip slow_io", true).len(), 1);
        assert_eq!(scan("pytest || true", true).len(), 1);
        assert!(scan("pytest -q", true).is_empty());
        assert!(scan("echo --no-verify is documented", true).is_empty());
    }

    #[test]
    fn pass_with_no_tests_is_an_error_next_to_a_narrowed_selection() {
        for line in [
            "jest --passWithNoTests src/smoke",
            "npx jest --passWithNoTests --testPathPattern=smoke",
            "vitest run --passWithNoTests -t smoke",
            "jest --onlyChanged --passWithNoTests",
        ] {
            assert!(narrowed_selection(line).is_some(), "{line}");
        }
        for line in [
            "jest --passWithNoTests",
            "jest --passWithNoTests --config jest.ci.js --ci",
            "vitest run --passWithNoTests --reporter dot",
            "jest --passWithNoTests && echo src/smoke",
        ] {
            assert_eq!(narrowed_selection(line), None, "{line}");
        }
    }

    #[test]
    fn recognises_scripts_that_do_nothing() {
        assert!(does_nothing("echo \"no tests\""));
        assert!(does_nothing("exit 0"));
        assert!(!does_nothing("echo building && tsc"));
        assert!(!does_nothing("jest"));
    }
}
