//! Checker configurations made more lenient: tsconfig strictness flags turned off, ESLint and
//! Biome rules switched off, mypy `ignore_errors`/`strict`, pyright `typeCheckingMode`, and
//! lints allowed in `Cargo.toml` `[lints]`. Each setting is compared between base and head;
//! only a change towards leniency is reported.

use super::config_text::{IniEntry, at, ini, js_settings, jsonc, toml, yaml};
use super::{Output, file_name, locate, locate_key, push};
use crate::changeset::FilePair;
use crate::finding::{Confidence, Severity, Side};
use crate::lang::Language;
use crate::rules::{Candidate, Fact, FactRef, FileContext, Moved};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let path = context.pair.path();
    let name = file_name(path);
    let (Some(head), base) = (
        context.side(Side::Head).map(|side| side.text),
        context.side(Side::Base).map(|side| side.text),
    ) else {
        return;
    };
    if name.starts_with("tsconfig") && name.ends_with(".json") || name == "jsconfig.json" {
        tsconfig(context, out, base, head);
    }
    if is_eslint_config(path) || name == "package.json" || name.starts_with("biome.json") {
        lint_rules(context, out, name, base, head);
    }
    match name {
        "mypy.ini" | ".mypy.ini" | "setup.cfg" => mypy_ini(context, out, base, head),
        "pyproject.toml" => pyproject(context, out, base, head),
        "pyrightconfig.json" => {
            let mode = |text: &str| {
                jsonc(text)
                    .and_then(|value| value.get("typeCheckingMode")?.as_str().map(str::to_string))
            };
            pyright_mode(context, out, base.and_then(mode), head, mode(head));
        }
        "Cargo.toml" => cargo_lints(context, out, base, head),
        _ => {}
    }
}

/// An ESLint configuration: `.eslintrc*`, `eslint.config.*`, or a module of a shared config
/// package (`packages/eslint-config/index.js`, `eslint-config-acme/rules.js`).
pub(super) fn is_eslint_config(path: &str) -> bool {
    let name = file_name(path);
    if name.starts_with(".eslintrc") || name.starts_with("eslint.config.") {
        return true;
    }
    let module = [".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".json"]
        .iter()
        .any(|extension| name.ends_with(extension));
    module
        && name != "package.json"
        && !name.contains(".test.")
        && !name.contains(".spec.")
        && path
            .split('/')
            .rev()
            .skip(1)
            .any(|dir| dir.starts_with("eslint-config") || dir.ends_with("eslint-config"))
}

/// Fills each changed tsconfig's [`FilePair::extends`]: the files its head's `extends` chain
/// names by relative path, each as head has it (the change's own text when the change edits
/// it, else `read_base`'s, which head then shares). A file that cannot be read ends the chain:
/// what the rule cannot see, it does not assume.
pub(crate) fn fill_tsconfig_extends(
    files: &mut [FilePair],
    read_base: impl Fn(&str) -> Option<String>,
) {
    const MAX_DEPTH: usize = 4;
    let mut chains: Vec<(usize, Vec<(String, String)>)> = Vec::new();
    {
        let taken: BTreeSet<&str> = files
            .iter()
            .filter_map(|pair| pair.old_path.as_deref())
            .collect();
        let head_text = |path: &str| -> Option<String> {
            if let Some(pair) = files
                .iter()
                .find(|pair| pair.new_path.as_deref() == Some(path))
            {
                return pair.head.text().map(str::to_string);
            }
            if taken.contains(path) {
                return None; // deleted or renamed away by the change
            }
            read_base(path)
        };
        for (index, pair) in files.iter().enumerate() {
            let (Some(path), Some(text)) = (pair.new_path.as_deref(), pair.head.text()) else {
                continue;
            };
            if !is_tsconfig(path) {
                continue;
            }
            let mut chain: Vec<(String, String)> = Vec::new();
            let mut next = extended_path(path, text);
            while let Some(target) = next.take() {
                if chain.len() >= MAX_DEPTH || chain.iter().any(|(known, _)| *known == target) {
                    break;
                }
                let Some(found) = head_text(&target) else {
                    break;
                };
                next = extended_path(&target, &found);
                chain.push((target, found));
            }
            if !chain.is_empty() {
                chains.push((index, chain));
            }
        }
    }
    for (index, chain) in chains {
        files[index].extends = chain;
    }
}

fn is_tsconfig(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.starts_with("tsconfig") && name.ends_with(".json")
}

/// The repository path a tsconfig at `path` extends by a relative `extends` (its first, when
/// it lists several), `.json` added when it names none; `None` for a package's preset.
fn extended_path(path: &str, text: &str) -> Option<String> {
    let value = jsonc(text)?;
    let named = match value.get("extends")? {
        Value::String(one) => one.clone(),
        Value::Array(many) => many.first()?.as_str()?.to_string(),
        _ => return None,
    };
    if !(named.starts_with("./") || named.starts_with("../")) {
        return None;
    }
    let mut parts: Vec<&str> = path.split('/').collect();
    parts.pop();
    for part in named.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    let mut joined = parts.join("/");
    if !joined.ends_with(".json") {
        joined.push_str(".json");
    }
    Some(joined)
}

/// tsconfig flags whose `false` relaxes type checking; `strict` implies the first group.
const STRICT_FAMILY: &[&str] = &[
    "noImplicitAny",
    "strictNullChecks",
    "strictFunctionTypes",
    "strictBindCallApply",
    "strictPropertyInitialization",
    "noImplicitThis",
    "alwaysStrict",
    "useUnknownInCatchVariables",
    "strictBuiltinIteratorReturn",
];
const OTHER_FLAGS: &[&str] = &[
    "noImplicitReturns",
    "noUncheckedIndexedAccess",
    "noImplicitOverride",
    "noFallthroughCasesInSwitch",
    "exactOptionalPropertyTypes",
    "noUnusedLocals",
    "noUnusedParameters",
    "checkJs",
    "noPropertyAccessFromIndexSignature",
];

fn tsconfig(context: &FileContext<'_>, out: &mut Output, base: Option<&str>, head: &str) {
    let Some(base) = base.and_then(jsonc) else {
        return;
    };
    let Some(head_value) = jsonc(head) else {
        return;
    };
    let flag = |value: &Value, name: &str| -> Option<bool> {
        at(value, &["compilerOptions", name]).and_then(Value::as_bool)
    };
    let effective = |value: &Value, name: &str| -> bool {
        flag(value, name)
            .unwrap_or_else(|| STRICT_FAMILY.contains(&name) && flag(value, "strict") == Some(true))
    };
    // A setting removed while `extends` changed may now come from the extended file, which
    // this change does not show: only an explicit `false` counts then.
    let same_extends = base.get("extends") == head_value.get("extends");
    // Or from the file it extends, unchanged: a setting removed as a duplicate of the root's
    // (`"strict": true` in a package whose `extends` sets it) still applies.
    let extended: Vec<Value> = context
        .pair
        .extends
        .iter()
        .filter_map(|(_, text)| jsonc(text))
        .collect();
    let inherited = |name: &str| extended.iter().find_map(|value| flag(value, name));
    let turned_off = |name: &str| match flag(&head_value, name) {
        Some(value) => !value,
        None => same_extends && inherited(name) != Some(true),
    };
    if flag(&base, "strict") == Some(true) && turned_off("strict") {
        let line = locate_key(head, "strict", &context.pair.added);
        push(
            out,
            Side::Head,
            line,
            Severity::Error,
            "tsconfig `strict` is turned off: the strict type-checking family no longer applies"
                .into(),
            "tsconfig:strict".into(),
        );
    }
    for name in STRICT_FAMILY.iter().chain(OTHER_FLAGS) {
        if effective(&base, name)
            && !effective(&head_value, name)
            && flag(&head_value, name) == Some(false)
        {
            let line = locate_key(head, name, &context.pair.added);
            push(
                out,
                Side::Head,
                line,
                Severity::Warning,
                format!("tsconfig `{name}` is turned off"),
                format!("tsconfig:{name}"),
            );
        }
    }
}

/// Rule name → the levels it is given anywhere in the config (overrides included).
type Levels = BTreeMap<String, BTreeSet<&'static str>>;

fn level_of(value: &Value) -> Option<&'static str> {
    let value = match value {
        Value::Array(items) => items.first()?,
        Value::Object(map) => map.get("level")?,
        other => other,
    };
    match value {
        Value::String(text) => match text.as_str() {
            "off" => Some("off"),
            "warn" | "warning" | "info" => Some("warn"),
            "error" | "on" => Some("error"),
            _ => None,
        },
        Value::Number(number) => match number.as_i64() {
            Some(0) => Some("off"),
            Some(1) => Some("warn"),
            Some(2) => Some("error"),
            _ => None,
        },
        _ => None,
    }
}

fn collect_levels(value: &Value, levels: &mut Levels) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                if key == "rules" {
                    rules_object(child, "", levels);
                } else {
                    collect_levels(child, levels);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_levels(item, levels)),
        _ => {}
    }
}

/// ESLint `rules: { name: level }`, Biome `rules: { group: { name: level } }`.
fn rules_object(value: &Value, prefix: &str, levels: &mut Levels) {
    let Some(map) = value.as_object() else {
        return;
    };
    for (name, setting) in map {
        let full = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        if let Some(level) = level_of(setting) {
            levels.entry(full).or_default().insert(level);
        } else if setting.is_object() {
            rules_object(setting, &full, levels);
        }
    }
}

fn js_levels(text: &str, language: Language) -> Levels {
    let mut levels = Levels::new();
    for setting in js_settings(text, language) {
        let mut parts = setting.path.rsplitn(2, '.');
        let (Some(rule), Some(parent)) = (parts.next(), parts.next()) else {
            continue;
        };
        if !(parent == "rules" || parent.ends_with(".rules")) {
            continue;
        }
        let raw = setting.raw.trim();
        let first = raw
            .trim_start_matches('[')
            .split(',')
            .next()
            .unwrap_or(raw)
            .trim();
        let level = match first.trim_matches(|c| c == '"' || c == '\'') {
            "off" | "0" => "off",
            "warn" | "1" => "warn",
            "error" | "2" => "error",
            _ => continue,
        };
        levels.entry(rule.to_string()).or_default().insert(level);
    }
    levels
}

fn levels(name: &str, text: &str) -> Option<Levels> {
    let extension = name
        .rsplit_once('.')
        .map(|(_, ext)| ext)
        .unwrap_or_default();
    let mut levels = Levels::new();
    match extension {
        "js" | "mjs" | "cjs" => return Some(js_levels(text, Language::JavaScript)),
        "ts" | "mts" | "cts" => return Some(js_levels(text, Language::TypeScript)),
        "yml" | "yaml" => collect_levels(&yaml(text)?, &mut levels),
        _ if name == "package.json" => {
            let value = jsonc(text)?;
            collect_levels(value.get("eslintConfig")?, &mut levels);
        }
        _ => collect_levels(&jsonc(text).or_else(|| yaml(text))?, &mut levels),
    }
    Some(levels)
}

/// Fact name: a lint rule some changed config file enables in head.
const RULE_ON: &str = "lint-rule-on";
const RULE_FAMILY: &str = "lint-rules";

/// The presets a config extends (`extends: ["eslint:recommended", ...]`).
fn presets(name: &str, text: &str) -> BTreeSet<String> {
    let extension = name
        .rsplit_once('.')
        .map(|(_, ext)| ext)
        .unwrap_or_default();
    let language = match extension {
        "js" | "mjs" | "cjs" => Some(Language::JavaScript),
        "ts" | "mts" | "cts" => Some(Language::TypeScript),
        _ => None,
    };
    if let Some(language) = language {
        return js_settings(text, language)
            .into_iter()
            .filter(|setting| setting.path == "extends")
            .flat_map(|setting| setting.values)
            .collect();
    }
    let value = if name == "package.json" {
        jsonc(text).and_then(|value| value.get("eslintConfig").cloned())
    } else {
        jsonc(text).or_else(|| yaml(text))
    };
    match value.as_ref().and_then(|value| value.get("extends")) {
        Some(Value::String(preset)) => BTreeSet::from([preset.clone()]),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => BTreeSet::new(),
    }
}

/// `plugin:@typescript-eslint/recommended` → `plugin:@typescript-eslint`: presets of one
/// plugin replace each other (`recommended` → `recommended-type-checked`).
fn preset_source(preset: &str) -> &str {
    preset
        .rsplit_once('/')
        .map(|(source, _)| source)
        .or_else(|| preset.rsplit_once(':').map(|(source, _)| source))
        .unwrap_or(preset)
}

fn lint_rules(
    context: &FileContext<'_>,
    out: &mut Output,
    name: &str,
    base: Option<&str>,
    head: &str,
) {
    let Some(head_levels) = levels(name, head) else {
        return;
    };
    // Rules move between config files (a shared config split, eslintrc → flat config).
    for (rule, set) in &head_levels {
        if !set.contains("off") {
            out.facts.push(Fact {
                side: Side::Head,
                name: RULE_ON,
                family: RULE_FAMILY,
                key: rule.clone(),
                severity: Severity::Error,
            });
        }
    }
    // A new config file relaxes nothing that was checked before.
    let Some(base) = base else {
        return;
    };
    let base_levels = levels(name, base).unwrap_or_default();
    let tool = if name.starts_with("biome") {
        "Biome"
    } else {
        "ESLint"
    };
    for (rule, base_set) in &base_levels {
        if head_levels.contains_key(rule) || base_set.contains("off") {
            continue;
        }
        let was = base_set.iter().next().copied().unwrap_or("on");
        let leaf = rule.rsplit('/').next().unwrap_or(rule);
        let line = locate(base, None, leaf, &context.pair.removed);
        out.candidates.push(Candidate {
            side: Side::Base,
            line,
            end_line: line,
            severity: Severity::Warning,
            message: format!(
                "{tool} rule `{rule}` is removed from {name} (was `{was}`): it falls back to its preset's level, if any"
            ),
            key: format!("lint-rule-removed:{rule}"),
            moved: Some(Moved {
                family: RULE_FAMILY,
                key: rule.clone(),
                already: FactRef::head(RULE_ON),
                also: Vec::new(),
                print: None,
                likely: Vec::new(),
                existed: None,
            }),
            confidence: Confidence::Certain,
        });
    }
    if tool == "ESLint" {
        let kept = presets(name, head);
        let sources: BTreeSet<&str> = kept.iter().map(|preset| preset_source(preset)).collect();
        for preset in presets(name, base).difference(&kept) {
            if sources.contains(preset_source(preset)) {
                continue;
            }
            let line = locate(head, None, "extends", &context.pair.added);
            push(
                out,
                Side::Head,
                line,
                Severity::Warning,
                format!(
                    "ESLint preset `{preset}` is no longer extended in {name}: its rules stop applying"
                ),
                format!("lint-preset:{preset}"),
            );
        }
    }
    for (rule, head_set) in &head_levels {
        if !head_set.contains("off") {
            continue;
        }
        if base_levels
            .get(rule)
            .is_some_and(|base_set| base_set.contains("off"))
        {
            continue;
        }
        let leaf = rule.rsplit('/').next().unwrap_or(rule);
        let line = locate_key(head, leaf, &context.pair.added);
        let was = base_levels
            .get(rule)
            .and_then(|set| set.iter().next().copied())
            .map_or_else(
                || "its preset's level".to_string(),
                |level| format!("`{level}`"),
            );
        push(
            out,
            Side::Head,
            line,
            Severity::Warning,
            format!("{tool} rule `{rule}` is switched off in {name} (was {was})"),
            format!("lint-rule:{rule}"),
        );
    }
}

/// mypy flags whose `true` → `false` relaxes checking.
const MYPY_FLAGS: &[&str] = &[
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "check_untyped_defs",
    "disallow_any_generics",
    "disallow_untyped_calls",
    "warn_return_any",
    "strict_optional",
    "no_implicit_optional",
    "disallow_untyped_decorators",
    "strict_equality",
];

/// One mypy section's settings: `global` or a module pattern → key → value text.
type MypySections = BTreeMap<String, BTreeMap<String, String>>;

fn mypy_ini_sections(text: &str) -> MypySections {
    let mut sections = MypySections::new();
    for IniEntry {
        section,
        key,
        value,
    } in ini(text)
    {
        let name = if section == "mypy" {
            "global".to_string()
        } else if let Some(module) = section.strip_prefix("mypy-") {
            module.to_string()
        } else {
            continue;
        };
        sections
            .entry(name)
            .or_default()
            .insert(key, value.to_lowercase());
    }
    sections
}

fn mypy_toml_sections(value: &Value) -> MypySections {
    let mut sections = MypySections::new();
    let Some(mypy) = at(value, &["tool", "mypy"]) else {
        return sections;
    };
    let flatten = |map: &serde_json::Map<String, Value>| -> BTreeMap<String, String> {
        map.iter()
            .filter(|(key, _)| *key != "overrides")
            .map(|(key, value)| {
                let text = match value {
                    Value::String(text) => text.to_lowercase(),
                    other => other.to_string(),
                };
                (key.clone(), text)
            })
            .collect()
    };
    if let Some(map) = mypy.as_object() {
        sections.insert("global".into(), flatten(map));
    }
    for entry in mypy
        .get("overrides")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(map) = entry.as_object() else {
            continue;
        };
        let module = match map.get("module") {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", "),
            _ => continue,
        };
        sections.insert(module, flatten(map));
    }
    sections
}

fn compare_mypy(
    context: &FileContext<'_>,
    out: &mut Output,
    head: &str,
    base: &MypySections,
    head_sections: &MypySections,
) {
    let empty = BTreeMap::new();
    for (section, settings) in head_sections {
        let before = base.get(section).unwrap_or(&empty);
        let is_true =
            |map: &BTreeMap<String, String>, key: &str| map.get(key).is_some_and(|v| v == "true");
        let global = section == "global";
        let place = if global {
            "globally".to_string()
        } else {
            format!("for `{section}`")
        };
        if is_true(settings, "ignore_errors") && !is_true(before, "ignore_errors") {
            let line = locate_key(head, "ignore_errors", &context.pair.added);
            push(
                out,
                Side::Head,
                line,
                if global {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                format!(
                    "mypy `ignore_errors = true` is set {place}: type errors there are no longer reported"
                ),
                format!("mypy:{section}:ignore_errors"),
            );
        }
        if is_true(before, "strict") && !is_true(settings, "strict") {
            let line = locate_key(head, "strict", &context.pair.added);
            push(
                out,
                Side::Head,
                line,
                Severity::Error,
                format!("mypy `strict` is turned off {place}"),
                format!("mypy:{section}:strict"),
            );
        }
        for flag in MYPY_FLAGS {
            if is_true(before, flag) && settings.get(*flag).is_some_and(|value| value == "false") {
                let line = locate_key(head, flag, &context.pair.added);
                push(
                    out,
                    Side::Head,
                    line,
                    Severity::Warning,
                    format!("mypy `{flag}` is turned off {place}"),
                    format!("mypy:{section}:{flag}"),
                );
            }
        }
    }
    // `strict` removed together with its whole section.
    if let Some(before) = base.get("global")
        && before.get("strict").is_some_and(|value| value == "true")
        && !head_sections.contains_key("global")
    {
        let line = context.pair.added.iter().next().unwrap_or(1);
        push(
            out,
            Side::Head,
            line,
            Severity::Error,
            "mypy `strict` is turned off globally (its section was removed)".into(),
            "mypy:global:strict".into(),
        );
    }
}

fn mypy_ini(context: &FileContext<'_>, out: &mut Output, base: Option<&str>, head: &str) {
    let Some(base) = base.map(mypy_ini_sections) else {
        return;
    };
    compare_mypy(context, out, head, &base, &mypy_ini_sections(head));
}

fn pyproject(context: &FileContext<'_>, out: &mut Output, base: Option<&str>, head: &str) {
    let (Some(base_value), Some(head_value)) = (base.and_then(toml), toml(head)) else {
        return;
    };
    let base_sections = mypy_toml_sections(&base_value);
    compare_mypy(
        context,
        out,
        head,
        &base_sections,
        &mypy_toml_sections(&head_value),
    );
    for tool in ["pyright", "basedpyright"] {
        let mode = |value: &Value| {
            at(value, &["tool", tool, "typeCheckingMode"])
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        pyright_mode(context, out, mode(&base_value), head, mode(&head_value));
    }
}

fn pyright_mode(
    context: &FileContext<'_>,
    out: &mut Output,
    base: Option<String>,
    head: &str,
    head_mode: Option<String>,
) {
    let rank = |mode: &str| match mode {
        "off" => 0,
        "basic" => 1,
        "standard" => 2,
        "strict" => 3,
        // basedpyright's stricter modes.
        "recommended" => 4,
        "all" => 5,
        _ => 2,
    };
    let (Some(before), Some(after)) = (base, head_mode) else {
        return;
    };
    if rank(&after) < rank(&before) {
        let line = locate_key(head, "typeCheckingMode", &context.pair.added);
        push(
            out,
            Side::Head,
            line,
            if after == "off" {
                Severity::Error
            } else {
                Severity::Warning
            },
            format!("pyright `typeCheckingMode` is lowered from `{before}` to `{after}`"),
            "pyright:typeCheckingMode".into(),
        );
    }
}

/// Lint groups whose `allow` in `[lints]` silences broad classes of lints.
const BLANKET_GROUPS: &[&str] = &[
    "all",
    "correctness",
    "suspicious",
    "warnings",
    "unused",
    "style",
    "complexity",
    "perf",
];

fn cargo_lint_levels(value: &Value) -> BTreeMap<String, String> {
    let mut levels = BTreeMap::new();
    for prefix in [&["lints"][..], &["workspace", "lints"][..]] {
        let Some(tools) = at(value, prefix).and_then(Value::as_object) else {
            continue;
        };
        for (tool, lints) in tools {
            let Some(lints) = lints.as_object() else {
                continue;
            };
            for (lint, setting) in lints {
                let level = match setting {
                    Value::String(level) => level.clone(),
                    Value::Object(table) => table
                        .get("level")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    _ => continue,
                };
                levels.insert(format!("{tool}::{lint}"), level);
            }
        }
    }
    levels
}

fn cargo_lints(context: &FileContext<'_>, out: &mut Output, base: Option<&str>, head: &str) {
    let (Some(base), Some(head_value)) = (base.and_then(toml), toml(head)) else {
        return;
    };
    let base_levels = cargo_lint_levels(&base);
    for (lint, level) in cargo_lint_levels(&head_value) {
        if level != "allow"
            || base_levels
                .get(&lint)
                .is_some_and(|before| before == "allow")
        {
            continue;
        }
        let short = lint.strip_prefix("rust::").unwrap_or(&lint);
        let name = short.rsplit("::").next().unwrap_or(short);
        let blanket = BLANKET_GROUPS.contains(&name);
        let line = locate_key(head, name, &context.pair.added);
        let was = base_levels.get(&lint).map_or_else(
            || "its default level".to_string(),
            |before| format!("`{before}`"),
        );
        push(
            out,
            Side::Head,
            line,
            if blanket {
                Severity::Error
            } else {
                Severity::Warning
            },
            format!("lint `{short}` is allowed in Cargo.toml `[lints]` (was {was})"),
            format!("cargo-lints:{lint}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::extended_path;

    #[test]
    fn extends_resolves_relative_paths_and_leaves_presets_alone() {
        let at = "packages/a/tsconfig.json";
        assert_eq!(
            extended_path(at, r#"{"extends": "../../tsconfig"}"#).as_deref(),
            Some("tsconfig.json")
        );
        assert_eq!(
            extended_path(at, r#"{"extends": ["./tsconfig.base.json", "x"]}"#).as_deref(),
            Some("packages/a/tsconfig.base.json")
        );
        assert_eq!(
            extended_path(at, r#"{"extends": "../../../up.json"}"#),
            None
        );
        assert_eq!(
            extended_path(at, r#"{"extends": "@tsconfig/node20"}"#),
            None
        );
        assert_eq!(extended_path(at, r#"{"compilerOptions": {}}"#), None);
    }
}
