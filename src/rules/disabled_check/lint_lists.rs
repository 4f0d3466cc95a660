//! Python checker settings relaxed code by code: ruff and flake8 `ignore`/`extend-ignore` lists
//! that gain codes, `select` lists that lose them, `per-file-ignores` that gain a file or a
//! code, mypy `disable_error_code`, pylint `disable`, and pyright/basedpyright `report*` rules
//! set to `none`/`false` or lowered below `error`, wherever they live (pyproject.toml,
//! ruff.toml, setup.cfg, tox.ini, .flake8, mypy.ini, .pylintrc, pyrightconfig.json).
//!
//! A code ignored in base by any changed file (the same tool and scope, or the whole project
//! for a per-file ignore) is not new: settings move between files and sections.

use super::config_text::{at, ini, jsonc, toml};
use super::{Output, file_name, locate};
use crate::finding::{Confidence, Severity, Side};
use crate::rules::{Candidate, Fact, FactRef, FileContext, Moved};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Fact name: a code some changed file ignored in base, keyed `tool:scope:code`.
const IGNORED: &str = "lint-ignored";
const FAMILY: &str = "lint-config";

/// What one file configures.
#[derive(Debug, Default, PartialEq)]
struct Settings {
    /// (tool, scope, code): scope is `global` or a per-file pattern.
    ignored: BTreeSet<(String, String, String)>,
    /// tool → selected codes.
    selected: BTreeMap<String, BTreeSet<String>>,
    /// `tool rule` → level (0 off, 1 information, 2 warning, 3 error).
    reports: BTreeMap<String, u8>,
    /// The ruff config extends another one (whose selection this file does not show).
    extends: bool,
}

impl Settings {
    /// Whether `tool` runs `code` at all: a code base never selected is not relaxed by
    /// ignoring it (a rule family enabled by the same change, then ignored for some files).
    fn selects(&self, tool: &str, code: &str) -> bool {
        match self.selected.get(tool) {
            Some(selected) => selected
                .iter()
                .any(|prefix| prefix == "ALL" || code.starts_with(prefix.as_str())),
            None => true,
        }
    }
}

fn is_lint_file(name: &str) -> bool {
    matches!(
        name,
        "pyproject.toml"
            | "ruff.toml"
            | ".ruff.toml"
            | "setup.cfg"
            | "tox.ini"
            | ".flake8"
            | "mypy.ini"
            | ".mypy.ini"
            | ".pylintrc"
            | "pylintrc"
            | "pyrightconfig.json"
    )
}

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let name = file_name(context.pair.path());
    if !is_lint_file(name) {
        return;
    }
    let read = |side: Side| context.side(side).map(|text| settings(name, text.text));
    let base = read(Side::Base);
    if let Some(base) = &base {
        for (tool, scope, code) in &base.ignored {
            out.facts.push(Fact {
                side: Side::Base,
                name: IGNORED,
                family: FAMILY,
                key: format!("{tool}:{scope}:{code}"),
                severity: Severity::Error,
            });
        }
    }
    // A new configuration relaxes nothing that was checked before.
    let (Some(base), Some(head), Some(text)) = (
        base,
        read(Side::Head),
        context.side(Side::Head).map(|side| side.text),
    ) else {
        return;
    };
    let added = &context.pair.added;
    for (tool, scope, code) in head.ignored.difference(&base.ignored) {
        // Narrowed from the whole project to some files: not wider.
        if scope != "global"
            && base
                .ignored
                .contains(&(tool.clone(), "global".into(), code.clone()))
        {
            continue;
        }
        // Never selected in base, or ignored for tests only (`S101` in `tests/**`).
        if !base.selects(tool, code) || (scope != "global" && test_scope(scope)) {
            continue;
        }
        // Only rules that find bugs make an ignore blocking; style, docstring and naming
        // rules switched off are a matter of taste.
        let finds_bugs = tool != "mypy" && tool != "pylint" && catches_bugs(code);
        let (blocking, place) = if scope == "global" {
            let category = code == "ALL" || code.chars().all(|c| c.is_ascii_alphabetic());
            (
                category && (code == "ALL" || finds_bugs),
                if category {
                    "every rule of the category is off for the whole project"
                } else {
                    "the rule is off for the whole project"
                }
                .to_string(),
            )
        } else {
            (
                one_source_file(scope) && finds_bugs,
                format!("in `{scope}`"),
            )
        };
        let severity = if blocking {
            Severity::Error
        } else {
            Severity::Warning
        };
        let line = locate(text, None, code, added);
        let key = format!("{tool}:{scope}:{code}");
        out.candidates.push(Candidate {
            side: Side::Head,
            line,
            end_line: line,
            severity,
            message: format!("{tool} now ignores `{code}` ({place})"),
            key: format!("lint-list:{key}"),
            moved: Some(Moved {
                family: FAMILY,
                key: key.clone(),
                already: FactRef::base(IGNORED),
                also: vec![(FactRef::base(IGNORED), format!("{tool}:global:{code}"))],
                print: None,
                likely: Vec::new(),
                existed: None,
            }),
            confidence: Confidence::Certain,
        });
    }
    for (tool, before) in &base.selected {
        let Some(after) = head.selected.get(tool) else {
            continue;
        };
        if after.contains("ALL") {
            continue;
        }
        for code in before.difference(after) {
            // `E501` dropped while `E` stays selected: still selected.
            if after.iter().any(|kept| code.starts_with(kept.as_str())) {
                continue;
            }
            let line = locate(text, None, "select", added);
            out.candidates.push(Candidate::at_line(
                Side::Head,
                line,
                Severity::Warning,
                format!("{tool} no longer selects `{code}`: those rules stop running"),
                format!("lint-select:{tool}:{code}"),
            ));
        }
    }
    for (rule, level) in &head.reports {
        let before = base.reports.get(rule).copied();
        let relaxed = match before {
            Some(before) => *level < before && *level < 3,
            None => *level == 0,
        };
        if !relaxed {
            continue;
        }
        let short = rule.rsplit(' ').next().unwrap_or(rule).trim_matches('`');
        let line = locate(text, None, short, added);
        let names = ["`none`", "`information`", "`warning`", "`error`"];
        let was = before.map_or("its default".to_string(), |before| {
            names[usize::from(before.min(3))].to_string()
        });
        out.candidates.push(Candidate::at_line(
            Side::Head,
            line,
            Severity::Warning,
            format!(
                "{rule} is lowered to {} (was {was}): {}",
                names[usize::from((*level).min(3))],
                if *level == 0 {
                    "those errors are no longer reported"
                } else {
                    "those errors no longer fail the check"
                }
            ),
            format!("report:{rule}"),
        ));
    }
}

/// Whether a ruff/flake8 code belongs to a family that finds bugs rather than style: pyflakes,
/// syntax errors, bugbear, bandit, pylint errors and warnings, blind excepts.
fn catches_bugs(code: &str) -> bool {
    const FAMILIES: [&str; 9] = ["F", "E9", "B", "S", "PLE", "PLW", "BLE", "TRY", "ASYNC"];
    FAMILIES.iter().any(|family| {
        code.strip_prefix(family).is_some_and(|rest| {
            // `B` is bugbear but `BLE` is not `B` + `LE`; `S` is not `SIM`.
            rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_digit())
        })
    })
}

/// Whether a per-file pattern reaches tests, examples or docs only.
pub(super) fn test_scope(pattern: &str) -> bool {
    let lower = pattern.to_ascii_lowercase();
    lower.split('/').any(|part| {
        matches!(
            part,
            "test"
                | "tests"
                | "__tests__"
                | "testing"
                | "e2e"
                | "examples"
                | "example"
                | "docs"
                | "benchmarks"
                | "fixtures"
                | "conftest.py"
        ) || part.starts_with("test_")
            || part.starts_with("test.")
            || part.ends_with("_test.py")
            || part.contains(".test.")
            || part.contains(".spec.")
    })
}

/// Whether a per-file pattern names one source file (not a glob, not a test): the config-file
/// form of a file-wide suppression.
fn one_source_file(pattern: &str) -> bool {
    const CODE: [&str; 3] = [".py", ".pyi", ".pyx"];
    let lower = pattern.to_ascii_lowercase();
    !pattern.contains(['*', '?', '['])
        && CODE.iter().any(|extension| lower.ends_with(extension))
        && !lower.split('/').any(|part| {
            part.starts_with("test") || part == "conftest.py" || part.ends_with("_test.py")
        })
}

fn settings(name: &str, text: &str) -> Settings {
    let mut found = Settings::default();
    match name {
        "pyproject.toml" | "ruff.toml" | ".ruff.toml" => {
            let Some(value) = toml(text) else {
                return found;
            };
            let ruff = if name == "pyproject.toml" {
                at(&value, &["tool", "ruff"])
            } else {
                Some(&value)
            };
            if let Some(ruff) = ruff {
                found.extends = ruff.get("extend").is_some();
                let select_on_top = ruff.get("select").is_some();
                ruff_settings(ruff, &mut found, true);
                let empty = Value::Object(serde_json::Map::new());
                let lint = ruff.get("lint").unwrap_or(&empty);
                ruff_settings(lint, &mut found, select_on_top);
            }
            if name == "pyproject.toml" {
                for tool in ["pyright", "basedpyright"] {
                    if let Some(section) = at(&value, &["tool", tool]) {
                        reports(tool, section, &mut found);
                    }
                }
                if let Some(codes) = at(&value, &["tool", "mypy", "disable_error_code"]) {
                    ignore_all(&mut found, "mypy", "global", &codes_of(codes));
                }
                let pylint = at(&value, &["tool", "pylint", "messages control", "disable"])
                    .or_else(|| at(&value, &["tool", "pylint", "MESSAGES CONTROL", "disable"]))
                    .or_else(|| at(&value, &["tool", "pylint", "messages_control", "disable"]));
                if let Some(codes) = pylint {
                    ignore_all(&mut found, "pylint", "global", &codes_of(codes));
                }
                if let Some(flake8) = at(&value, &["tool", "flake8"]) {
                    for key in ["ignore", "extend-ignore"] {
                        if let Some(codes) = flake8.get(key) {
                            ignore_all(&mut found, "flake8", "global", &codes_of(codes));
                        }
                    }
                }
            }
        }
        "pyrightconfig.json" => {
            if let Some(value) = jsonc(text) {
                reports("pyright", &value, &mut found);
            }
        }
        _ => {
            for entry in ini(text) {
                let section = entry.section.to_ascii_lowercase();
                let key = entry.key.replace('_', "-");
                let tool = match section.as_str() {
                    "flake8" => "flake8",
                    "mypy" => "mypy",
                    "messages control" | "messages_control" | "pylint.messages_control" => "pylint",
                    _ => continue,
                };
                match (tool, key.as_str()) {
                    ("flake8", "ignore" | "extend-ignore")
                    | ("mypy", "disable-error-code")
                    | ("pylint", "disable") => {
                        ignore_all(&mut found, tool, "global", &split_codes(&entry.value));
                    }
                    ("flake8", "select" | "extend-select") => {
                        found
                            .selected
                            .entry(tool.to_string())
                            .or_default()
                            .extend(split_codes(&entry.value));
                    }
                    ("flake8", "per-file-ignores" | "extend-per-file-ignores") => {
                        for line in entry.value.lines() {
                            if let Some((pattern, codes)) = line.split_once(':') {
                                ignore_all(&mut found, tool, pattern.trim(), &split_codes(codes));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    found
}

/// ruff's rules when `select` is not set.
const RUFF_DEFAULT: [&str; 4] = ["E4", "E7", "E9", "F"];

fn ruff_settings(section: &Value, found: &mut Settings, top: bool) {
    for key in ["ignore", "extend-ignore"] {
        if let Some(codes) = section.get(key) {
            ignore_all(found, "ruff", "global", &codes_of(codes));
        }
    }
    // Without `select` (and no `extend` of another config that may set it) ruff runs its
    // defaults: dropping `select = ["E4", "E7", "E9", "F"]` selects the same rules.
    if !top
        && section.get("select").is_none()
        && !found.selected.contains_key("ruff")
        && !found.extends
    {
        found
            .selected
            .entry("ruff".to_string())
            .or_default()
            .extend(RUFF_DEFAULT.iter().map(|code| code.to_string()));
    }
    for key in ["select", "extend-select"] {
        if let Some(codes) = section.get(key) {
            found
                .selected
                .entry("ruff".to_string())
                .or_default()
                .extend(codes_of(codes));
        }
    }
    for key in ["per-file-ignores", "extend-per-file-ignores"] {
        if let Some(table) = section.get(key).and_then(Value::as_object) {
            for (pattern, codes) in table {
                ignore_all(found, "ruff", pattern, &codes_of(codes));
            }
        }
    }
}

/// pyright's `report*` rules: `"none"`/`false` off, `"information"`, `"warning"`,
/// `"error"`/`true`.
fn reports(tool: &str, section: &Value, found: &mut Settings) {
    let Some(map) = section.as_object() else {
        return;
    };
    for (key, value) in map {
        if !key.starts_with("report") {
            continue;
        }
        let level = match value {
            Value::Bool(flag) => Some(if *flag { 3 } else { 0 }),
            Value::String(text) => match text.as_str() {
                "none" => Some(0),
                "information" => Some(1),
                "warning" => Some(2),
                "error" => Some(3),
                _ => None,
            },
            _ => None,
        };
        if let Some(level) = level {
            found.reports.insert(format!("{tool} `{key}`"), level);
        }
    }
}

fn codes_of(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_str)
            .map(|code| code.trim().to_string())
            .filter(|code| !code.is_empty())
            .collect(),
        Value::String(text) => split_codes(text),
        _ => Vec::new(),
    }
}

/// Codes of an INI list: separated by commas, spaces or lines; `#` starts a comment.
fn split_codes(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or_default())
        .flat_map(|line| line.split([',', ' ', '\t']))
        .map(str::trim)
        .filter(|code| !code.is_empty())
        .map(str::to_string)
        .collect()
}

fn ignore_all(found: &mut Settings, tool: &str, scope: &str, codes: &[String]) {
    for code in codes {
        found
            .ignored
            .insert((tool.to_string(), scope.to_string(), code.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ruff_flake8_and_pyright_settings() {
        let pyproject = "[tool.ruff]\nignore = [\"E501\"]\n[tool.ruff.lint]\nselect = [\"E\", \"F\"]\n\
                         [tool.ruff.lint.per-file-ignores]\n\"src/a.py\" = [\"F401\"]\n\
                         [tool.pyright]\nreportMissingImports = \"none\"\nreportX = true\n";
        let found = settings("pyproject.toml", pyproject);
        assert!(
            found
                .ignored
                .contains(&("ruff".into(), "global".into(), "E501".into()))
        );
        assert!(
            found
                .ignored
                .contains(&("ruff".into(), "src/a.py".into(), "F401".into()))
        );
        assert_eq!(found.selected["ruff"].len(), 2);
        assert_eq!(found.reports["pyright `reportMissingImports`"], 0);
        assert_eq!(found.reports["pyright `reportX`"], 3);
        let cfg = "[flake8]\nextend-ignore = E203, E722,\n    W605 # why\nper-file-ignores =\n    src/m.py: F401,E402\n";
        let found = settings("setup.cfg", cfg);
        let codes: Vec<&str> = found
            .ignored
            .iter()
            .map(|(_, _, code)| code.as_str())
            .collect();
        assert_eq!(codes, ["E203", "E722", "W605", "E402", "F401"]);
        assert!(one_source_file("src/m.py"));
        assert!(catches_bugs("F401") && catches_bugs("B") && catches_bugs("E999"));
        assert!(!catches_bugs("D") && !catches_bugs("SIM102") && !catches_bugs("E501"));
        assert!(!one_source_file("tests/test_m.py"));
        assert!(!one_source_file("src/**/*.py"));
    }
}
