//! Which files hold coverage settings, and how each tool's settings become
//! [`Item`]s.
//!
//! Each extractor reads one format through `tree` and emits items with stable
//! keys; it makes no judgement. Keys name the tool and the setting path the
//! way the tool's docs do, so messages read like the config the user wrote.

use std::collections::HashMap;

use super::command;
use super::compare::{Item, Kind, TVal};
use super::tree::{self, JsDialect, Node, Val};
use super::variables;

/// Items with keys made unique: a second occurrence of a key gets ` #2`.
#[derive(Default)]
pub(crate) struct Items {
    items: Vec<Item>,
    seen: HashMap<String, u32>,
}

impl Items {
    pub(crate) fn push(&mut self, mut item: Item) {
        let count = self.seen.entry(item.key.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            item.key = format!("{} #{}", item.key, count);
        }
        self.items.push(item);
    }

    pub(crate) fn into_vec(self) -> Vec<Item> {
        self.items
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    PackageJson,
    JestJs(JsDialect),
    JestJson,
    VitestJs(JsDialect),
    /// `.nycrc`/`.c8rc` in JSON or YAML; the tool name is in the field.
    Rc(&'static str),
    RcJs(&'static str, JsDialect),
    Coveragerc,
    SetupCfg,
    ToxIni,
    PytestIni,
    Pyproject,
    Codecov,
    Tarpaulin,
    CiYaml,
    CiText,
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn js_dialect(ext: &str) -> Option<JsDialect> {
    match ext {
        "js" | "mjs" | "cjs" | "jsx" => Some(JsDialect::JavaScript),
        "ts" | "mts" | "cts" => Some(JsDialect::TypeScript),
        _ => None,
    }
}

fn classify(path: &str) -> Option<Source> {
    let path = path.trim_start_matches("./");
    let name = basename(path);
    let lower = name.to_ascii_lowercase();
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s, e),
        _ => (name, ""),
    };
    match name {
        "package.json" => return Some(Source::PackageJson),
        "jest.config.json" => return Some(Source::JestJson),
        ".nycrc" | ".nycrc.json" | ".nycrc.yml" | ".nycrc.yaml" => return Some(Source::Rc("nyc")),
        ".c8rc" | ".c8rc.json" | ".c8rc.yml" | ".c8rc.yaml" => return Some(Source::Rc("c8")),
        ".coveragerc" => return Some(Source::Coveragerc),
        // Alternative configurations a command names (`--cov-config=.coveragerc-ci`).
        _ if name.starts_with(".coveragerc") => return Some(Source::Coveragerc),
        "setup.cfg" => return Some(Source::SetupCfg),
        "tox.ini" => return Some(Source::ToxIni),
        "pytest.ini" | ".pytest.ini" => return Some(Source::PytestIni),
        "pyproject.toml" => return Some(Source::Pyproject),
        "codecov.yml" | ".codecov.yml" | "codecov.yaml" | ".codecov.yaml" => {
            return Some(Source::Codecov);
        }
        "tarpaulin.toml" | ".tarpaulin.toml" => return Some(Source::Tarpaulin),
        ".gitlab-ci.yml" | "azure-pipelines.yml" | ".travis.yml" | "bitbucket-pipelines.yml" => {
            return Some(Source::CiYaml);
        }
        "Makefile" | "makefile" | "GNUmakefile" | "justfile" | "Justfile" | ".justfile"
        | "noxfile.py" => return Some(Source::CiText),
        // JavaScript build scripts whose targets run commands (`exec("nyc check-coverage …")`).
        "Makefile.js" | "makefile.js" | "make.js" | "Jakefile.js" | "jakefile.js" => {
            return Some(Source::CiText);
        }
        _ => {}
    }
    if let Some(dialect) = js_dialect(ext) {
        match stem {
            "jest.config" => return Some(Source::JestJs(dialect)),
            "vitest.config" | "vite.config" | "vitest.workspace" | "vitest.projects" => {
                return Some(Source::VitestJs(dialect));
            }
            "nyc.config" | ".nycrc" => return Some(Source::RcJs("nyc", dialect)),
            ".c8rc" | "c8.config" => return Some(Source::RcJs("c8", dialect)),
            _ => {}
        }
    }
    let yaml = lower.ends_with(".yml") || lower.ends_with(".yaml");
    if yaml
        && (path.starts_with(".github/workflows/")
            || path.contains("/.github/workflows/")
            || path.starts_with(".circleci/")
            || (path.starts_with(".github/actions/") && stem.eq_ignore_ascii_case("action")))
    {
        return Some(Source::CiYaml);
    }
    if lower.ends_with(".mk") || lower.ends_with(".just") || lower.ends_with(".sh") {
        return Some(Source::CiText);
    }
    None
}

/// Is this path a file that may hold a coverage threshold (so the engine parses it)?
///
/// Covers jest/vitest/nyc/c8 configs, `package.json`, coverage.py and pytest
/// configs (`.coveragerc`, `setup.cfg`, `tox.ini`, `pytest.ini`,
/// `pyproject.toml`), codecov files, tarpaulin configs, CI workflows
/// (GitHub, GitLab, CircleCI, Azure, Travis, Bitbucket), Makefiles,
/// justfiles, shell scripts and `noxfile.py`.
pub fn is_coverage_source(path: &str) -> bool {
    classify(path).is_some()
}

/// Is this path a tool's own configuration file (jest, vitest, nyc, c8, coverage.py, pytest,
/// tox, codecov, tarpaulin, a manifest), as opposed to CI workflows, Makefiles and scripts,
/// which whatever runs the project's checks may call from anywhere?
pub fn is_tool_config(path: &str) -> bool {
    classify(path).is_some_and(|source| !matches!(source, Source::CiYaml | Source::CiText))
}

/// Reads a file's coverage settings. `Err` when the file does not parse.
pub(crate) fn extract(path: &str, text: &str) -> Result<Vec<Item>, String> {
    let Some(source) = classify(path) else {
        return Ok(Vec::new());
    };
    let mut items = Items::default();
    match source {
        Source::PackageJson => package_json(&mut items, text)?,
        Source::JestJson => jest_node(&mut items, &tree::parse_json(text)?),
        Source::JestJs(dialect) => {
            let doc = tree::parse_js(text, dialect)?;
            jest_parts(
                &mut items,
                &doc.pairs_named("coverageThreshold"),
                &doc.pairs_named("coveragePathIgnorePatterns"),
                &doc.pairs_named("collectCoverageFrom"),
            );
        }
        Source::VitestJs(dialect) => {
            let doc = tree::parse_js(text, dialect)?;
            for coverage in doc.pairs_named("coverage") {
                vitest_coverage(&mut items, &coverage);
            }
        }
        Source::Rc(tool) => {
            let node = tree::parse_json(text).or_else(|json_err| {
                tree::parse_yaml(text)
                    .map_err(|yaml_err| format!("{json_err}; as YAML: {yaml_err}"))
            })?;
            nyc_like(&mut items, tool, &node);
        }
        Source::RcJs(tool, dialect) => {
            let doc = tree::parse_js(text, dialect)?;
            if let Some(node) = doc.exported() {
                nyc_like(&mut items, tool, &node);
            }
        }
        Source::Coveragerc | Source::SetupCfg | Source::ToxIni | Source::PytestIni => {
            ini_file(&mut items, source, text)?;
        }
        Source::Pyproject => pyproject(&mut items, text)?,
        Source::Codecov => codecov(&mut items, &tree::parse_yaml(text)?),
        Source::Tarpaulin => tarpaulin(&mut items, &tree::parse_toml(text)?),
        Source::CiYaml => {
            let node = tree::parse_yaml(text)?;
            let lines: Vec<&str> = text.lines().collect();
            let mut walker = CiWalker {
                items: &mut items,
                lines: &lines,
                env: Vec::new(),
            };
            walker.walk(&node, &mut Vec::new(), None, 0);
        }
        Source::CiText => ci_text(&mut items, text, path),
    }
    Ok(items.into_vec())
}

// ---------------------------------------------------------------- values

fn boolish(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "y" => Some(true),
        "false" | "no" | "off" | "n" => Some(false),
        _ => None,
    }
}

/// A number written as text: `80`, `"80"`, `80%`, `80.5 %`.
pub(crate) fn text_tval(s: &str) -> TVal {
    let t = s.trim().trim_matches(|c| c == '"' || c == '\'');
    let num = t.trim_end_matches('%').trim();
    if let Ok(n) = num.parse::<f64>()
        && n.is_finite()
    {
        return TVal::Num(n);
    }
    if t.eq_ignore_ascii_case("auto") {
        return TVal::Auto;
    }
    // Env-var and template interpolation hide the value from the gate.
    if t.contains('$') || t.contains("{{") || t.contains('`') || t.contains('%') {
        return TVal::Opaque(tree::shorten(t));
    }
    if let Some(b) = boolish(t) {
        return TVal::Flag(b);
    }
    TVal::Word(t.to_string())
}

fn node_tval(node: &Node) -> TVal {
    match &node.val {
        Val::Num(n) => TVal::Num(*n),
        Val::Bool(b) => TVal::Flag(*b),
        Val::Str(s) => text_tval(s),
        Val::Null => TVal::Word("null".to_string()),
        Val::Expr(e) => TVal::Opaque(e.clone()),
        Val::Map(_) => TVal::Opaque("{…}".to_string()),
        Val::Seq(_) => TVal::Opaque("[…]".to_string()),
    }
}

fn list_entries(node: &Node) -> Vec<(String, u32)> {
    match &node.val {
        Val::Seq(items) => items
            .iter()
            .map(|n| match &n.val {
                Val::Str(s) => (s.clone(), n.line),
                other => (tree::describe(other).into_owned(), n.line),
            })
            .collect(),
        Val::Str(s) => s
            .split([',', '\n'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| (s.to_string(), node.line))
            .collect(),
        Val::Expr(e) => vec![(format!("`{e}`"), node.line)],
        _ => Vec::new(),
    }
}

/// One exclusion item per entry. The family ignores where the list lives, so
/// an entry moved between equivalent lists is not new.
fn exclusions(items: &mut Items, list_key: &str, family: &str, entries: &[(String, u32)]) {
    for (entry, line) in entries {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        items.push(Item::new(
            format!("{list_key} `{entry}`"),
            format!("{family} `{entry}`"),
            Kind::Exclusion,
            TVal::Present,
            *line,
        ));
    }
}

// ---------------------------------------------------------------- jest

const METRICS: [&str; 4] = ["branches", "functions", "lines", "statements"];

/// Flattens a threshold object: leaves are minimums (jest negative numbers
/// are max-uncovered counts, handled by `Kind::Min`), nested objects are
/// per-path thresholds, anything else is opaque.
fn flatten_min(items: &mut Items, key: &str, family: &str, node: &Node, depth: usize) {
    match &node.val {
        Val::Map(entries) if depth < 8 => {
            for (k, v) in entries {
                if k.starts_with("...") {
                    continue;
                }
                flatten_min(
                    items,
                    &format!("{key}.{k}"),
                    &format!("{family}.{k}"),
                    v,
                    depth + 1,
                );
            }
        }
        Val::Null => {}
        _ => items.push(Item::new(
            key,
            family,
            Kind::Min,
            node_tval(node),
            node.line,
        )),
    }
}

/// A threshold object as a whole, so that deleting it gives one finding that
/// lists what it held (nested removals fold into it) instead of one per metric.
fn container(items: &mut Items, key: &str, node: &Node) {
    if matches!(node.val, Val::Map(_)) {
        items.push(Item::new(
            key,
            key,
            Kind::Presence,
            TVal::Present,
            node.line,
        ));
    }
}

fn jest_node(items: &mut Items, config: &Node) {
    let pick = |k: &str| config.get(k).cloned().into_iter().collect::<Vec<_>>();
    jest_parts(
        items,
        &pick("coverageThreshold"),
        &pick("coveragePathIgnorePatterns"),
        &pick("collectCoverageFrom"),
    );
}

fn jest_parts(items: &mut Items, thresholds: &[Node], ignores: &[Node], collect: &[Node]) {
    for t in thresholds {
        container(items, "jest coverageThreshold", t);
        flatten_min(
            items,
            "jest coverageThreshold",
            "jest coverageThreshold",
            t,
            0,
        );
    }
    for ig in ignores {
        exclusions(
            items,
            "jest coveragePathIgnorePatterns",
            "jest coveragePathIgnorePatterns",
            &list_entries(ig),
        );
    }
    for c in collect {
        // Only negated globs take files out; positive ones choose what is measured.
        let negated: Vec<(String, u32)> = list_entries(c)
            .into_iter()
            .filter(|(e, _)| e.starts_with('!'))
            .collect();
        exclusions(
            items,
            "jest collectCoverageFrom",
            "jest collectCoverageFrom",
            &negated,
        );
    }
}

fn package_json(items: &mut Items, text: &str) -> Result<(), String> {
    let root = tree::parse_json(text)?;
    if let Some(jest) = root.get("jest") {
        jest_node(items, jest);
    }
    for tool in ["nyc", "c8"] {
        if let Some(cfg) = root.get(tool) {
            nyc_like(items, tool, cfg);
        }
    }
    if let Some(scripts) = root.get("scripts") {
        let lines: Vec<&str> = text.lines().collect();
        for (name, node) in scripts.entries() {
            if let Val::Str(cmd) = &node.val {
                let ctx = format!("script {name}");
                command::command_items(items, cmd, node.line, &lines, &ctx, None);
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- vitest

fn vitest_coverage(items: &mut Items, coverage: &Node) {
    const PREFIX: &str = "vitest test.coverage";
    match &coverage.val {
        Val::Map(entries) => {
            for (k, v) in entries {
                match k.as_str() {
                    "thresholds" => {
                        let key = format!("{PREFIX}.thresholds");
                        container(items, &key, v);
                        vitest_thresholds(items, &key, "vitest thresholds", v, 0);
                    }
                    m if METRICS.contains(&m) => items.push(Item::new(
                        format!("{PREFIX}.{m}"),
                        format!("vitest thresholds.{m}"),
                        Kind::Min,
                        node_tval(v),
                        v.line,
                    )),
                    "100" | "perFile" => items.push(
                        Item::new(
                            format!("{PREFIX}.{k}"),
                            format!("vitest thresholds.{k}"),
                            Kind::Enforcing,
                            node_tval(v),
                            v.line,
                        )
                        .with_default(TVal::Flag(false)),
                    ),
                    "exclude" => exclusions(
                        items,
                        &format!("{PREFIX}.exclude"),
                        "vitest coverage.exclude",
                        &list_entries(v),
                    ),
                    _ => {}
                }
            }
        }
        Val::Expr(_) => items.push(Item::new(
            PREFIX,
            PREFIX,
            Kind::Min,
            node_tval(coverage),
            coverage.line,
        )),
        _ => {}
    }
}

fn vitest_thresholds(items: &mut Items, key: &str, family: &str, node: &Node, depth: usize) {
    match &node.val {
        Val::Map(entries) if depth < 8 => {
            for (k, v) in entries {
                let (key, family) = (format!("{key}.{k}"), format!("{family}.{k}"));
                match k.as_str() {
                    // autoUpdate only ever raises thresholds.
                    "autoUpdate" => {}
                    "100" | "perFile" => items.push(
                        Item::new(key, family, Kind::Enforcing, node_tval(v), v.line)
                            .with_default(TVal::Flag(false)),
                    ),
                    _ => vitest_thresholds(items, &key, &family, v, depth + 1),
                }
            }
        }
        Val::Null => {}
        _ => items.push(Item::new(
            key,
            family,
            Kind::Min,
            node_tval(node),
            node.line,
        )),
    }
}

// ---------------------------------------------------------------- nyc / c8

/// nyc and c8 share their option names (yargs, kebab or camel case).
fn nyc_like(items: &mut Items, tool: &str, config: &Node) {
    for (k, v) in config.entries() {
        let key = kebab(k);
        match key.as_str() {
            "check-coverage" | "per-file" | "100" => items.push(
                Item::new(
                    format!("{tool} {key}"),
                    format!("{tool} {key}"),
                    Kind::Enforcing,
                    node_tval(v),
                    v.line,
                )
                .with_default(TVal::Flag(false)),
            ),
            m if METRICS.contains(&m) => {
                // Both tools check lines ≥ 90 by default once check-coverage is on.
                let default = if m == "lines" { 90.0 } else { 0.0 };
                items.push(
                    Item::new(
                        format!("{tool} {m}"),
                        format!("{tool} {m}"),
                        Kind::Min,
                        node_tval(v),
                        v.line,
                    )
                    .with_default(TVal::Num(default)),
                );
            }
            "exclude" => exclusions(
                items,
                &format!("{tool} exclude"),
                &format!("{tool} exclude"),
                &list_entries(v),
            ),
            _ => {}
        }
    }
}

fn kebab(k: &str) -> String {
    let mut out = String::new();
    for c in k.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

// ---------------------------------------------------------------- coverage.py / pytest / tox

fn fail_under(key: &str, value: TVal, line: u32) -> Item {
    // pytest-cov's --cov-fail-under and coverage.py's fail_under are one
    // setting: the family lets a move between them be judged by value.
    Item::new(key, "coverage.py fail_under", Kind::Min, value, line).with_default(TVal::Num(0.0))
}

fn ini_file(items: &mut Items, source: Source, text: &str) -> Result<(), String> {
    let sections = tree::parse_ini(text)?;
    let lines: Vec<&str> = text.lines().collect();
    for section in &sections {
        let name = section.name.as_str();
        let coverage_part = match (source, name) {
            (Source::Coveragerc, "report" | "run") => Some(name),
            (_, n) if n.starts_with("coverage:") => Some(&n["coverage:".len()..]),
            _ => None,
        };
        if let Some(part) = coverage_part {
            for e in &section.entries {
                let key = e.key.replace('-', "_");
                match (part, key.as_str()) {
                    ("report", "fail_under") => items.push(fail_under(
                        &format!("coverage.py {part}.fail_under"),
                        text_tval(&strip_inline_comment(&e.joined())),
                        e.line,
                    )),
                    ("run" | "report", "omit") => {
                        let entries = ini_list(&e.values, true);
                        exclusions(
                            items,
                            &format!("coverage.py {part}.omit"),
                            "coverage.py omit",
                            &entries,
                        );
                    }
                    ("report", "exclude_lines" | "exclude_also") => {
                        let entries = ini_list(&e.values, false);
                        exclusions(
                            items,
                            &format!("coverage.py report.{key}"),
                            "coverage.py exclude_lines",
                            &entries,
                        );
                    }
                    _ => {}
                }
            }
        }
        let pytest_section = matches!(name, "pytest" | "tool:pytest")
            && matches!(
                source,
                Source::PytestIni | Source::SetupCfg | Source::ToxIni
            );
        if pytest_section {
            for e in section.entries.iter().filter(|e| e.key == "addopts") {
                command::command_items(items, &e.joined(), e.line, &lines, "addopts", None);
            }
        }
        if source == Source::ToxIni && (name == "testenv" || name.starts_with("testenv:")) {
            // tox still runs the env but ignores its result.
            let ignored = section
                .entries
                .iter()
                .any(|e| e.key == "ignore_outcome" && boolish(&e.joined()) == Some(true));
            let reason = ignored.then_some("tox ignore_outcome = true");
            for e in section
                .entries
                .iter()
                .filter(|e| e.key.starts_with("commands"))
            {
                command::command_items(
                    items,
                    &e.joined(),
                    e.line,
                    &lines,
                    &format!("tox [{name}]"),
                    reason,
                );
            }
        }
    }
    Ok(())
}

/// configparser keeps `fail_under = 90  # note` verbatim; coverage.py would
/// then fail to parse it, but a trailing comment is the likely intent.
fn strip_inline_comment(v: &str) -> String {
    let cut = [" #", "\t#", " ;", "\t;"]
        .iter()
        .filter_map(|m| v.find(m))
        .min()
        .unwrap_or(v.len());
    v[..cut].trim().to_string()
}

/// coverage.py splits file lists on commas and newlines, regex lists on newlines only.
fn ini_list(values: &[(u32, String)], split_commas: bool) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for (line, v) in values {
        if split_commas {
            out.extend(
                v.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(|s| (s.to_string(), *line)),
            );
        } else if !v.trim().is_empty() {
            out.push((v.trim().to_string(), *line));
        }
    }
    out
}

fn pyproject(items: &mut Items, text: &str) -> Result<(), String> {
    let root = tree::parse_toml(text)?;
    let lines: Vec<&str> = text.lines().collect();
    for part in ["report", "run"] {
        let Some(section) = root.path(&["tool", "coverage", part]) else {
            continue;
        };
        for (k, v) in section.entries() {
            let key = k.replace('-', "_");
            match (part, key.as_str()) {
                ("report", "fail_under") => {
                    items.push(fail_under(
                        "coverage.py report.fail_under",
                        node_tval(v),
                        v.line,
                    ));
                }
                (_, "omit") => exclusions(
                    items,
                    &format!("coverage.py {part}.omit"),
                    "coverage.py omit",
                    &list_entries(v),
                ),
                ("report", "exclude_lines" | "exclude_also") => exclusions(
                    items,
                    &format!("coverage.py report.{key}"),
                    "coverage.py exclude_lines",
                    &list_entries(v),
                ),
                _ => {}
            }
        }
    }
    for path in [
        &["tool", "pytest", "ini_options", "addopts"][..],
        &["tool", "pytest", "addopts"][..],
    ] {
        let Some(addopts) = root.path(path) else {
            continue;
        };
        let cmd = match &addopts.val {
            Val::Str(s) => s.clone(),
            Val::Seq(parts) => parts
                .iter()
                .filter_map(|p| match &p.val {
                    Val::Str(s) => Some(s.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" "),
            _ => continue,
        };
        command::command_items(items, &cmd, addopts.line, &lines, "addopts", None);
    }
    Ok(())
}

// ---------------------------------------------------------------- codecov

fn codecov(items: &mut Items, root: &Node) {
    if let Some(status) = root.path(&["coverage", "status"]) {
        for kind in ["project", "patch", "changes"] {
            let Some(node) = status.get(kind) else {
                continue;
            };
            let key = format!("codecov coverage.status.{kind}");
            match status_enabled(node) {
                Some(enabled) => items.push(
                    Item::new(&key, &key, Kind::Enforcing, TVal::Flag(enabled), node.line)
                        .with_default(TVal::Flag(true)),
                ),
                None => continue,
            }
            let entries = node.entries();
            // Settings written straight under `project:` apply to an unnamed status.
            if entries
                .iter()
                .any(|(k, _)| STATUS_SETTINGS.contains(&k.as_str()))
            {
                codecov_status(items, &key, node);
                continue;
            }
            for (name, cfg) in entries {
                let skey = format!("{key}.{name}");
                match status_enabled(cfg) {
                    Some(false) => items.push(
                        Item::new(&skey, &skey, Kind::Enforcing, TVal::Flag(false), cfg.line)
                            .with_default(TVal::Flag(true)),
                    ),
                    Some(true) => {
                        items.push(Item::new(
                            &skey,
                            &skey,
                            Kind::Presence,
                            TVal::Present,
                            cfg.line,
                        ));
                        codecov_status(items, &skey, cfg);
                    }
                    None => {}
                }
            }
        }
    }
    if let Some(v) = root.path(&["codecov", "require_ci_to_pass"]) {
        let key = "codecov codecov.require_ci_to_pass";
        items.push(
            Item::new(key, key, Kind::Enforcing, node_tval(v), v.line)
                .with_default(TVal::Flag(true)),
        );
    }
    if let Some(ignore) = root.get("ignore") {
        exclusions(
            items,
            "codecov ignore",
            "codecov ignore",
            &list_entries(ignore),
        );
    }
}

const STATUS_SETTINGS: [&str; 5] = [
    "target",
    "threshold",
    "informational",
    "if_ci_failed",
    "if_not_found",
];

/// `off`/`false` disable a status; a map, `true`/`on` or an empty value enable it.
fn status_enabled(node: &Node) -> Option<bool> {
    match &node.val {
        Val::Bool(b) => Some(*b),
        Val::Str(s) => boolish(s),
        Val::Map(_) | Val::Null => Some(true),
        _ => None,
    }
}

fn codecov_status(items: &mut Items, key: &str, cfg: &Node) {
    for (k, v) in cfg.entries() {
        let skey = format!("{key}.{k}");
        let item = match k.as_str() {
            "target" => Item::new(&skey, &skey, Kind::Min, node_tval(v), v.line),
            "threshold" => Item::new(&skey, &skey, Kind::MaxAllowed, node_tval(v), v.line)
                .with_default(TVal::Num(0.0)),
            "informational" => Item::new(&skey, &skey, Kind::Disabling, node_tval(v), v.line)
                .with_default(TVal::Flag(false)),
            "if_ci_failed" => Item::new(
                &skey,
                &skey,
                Kind::Ordered(&["success", "error"]),
                node_tval(v),
                v.line,
            )
            .with_default(TVal::Word("error".to_string())),
            "if_not_found" => Item::new(
                &skey,
                &skey,
                Kind::Ordered(&["success", "failure"]),
                node_tval(v),
                v.line,
            )
            .with_default(TVal::Word("success".to_string())),
            _ => continue,
        };
        items.push(item);
    }
}

// ---------------------------------------------------------------- tarpaulin

fn tarpaulin(items: &mut Items, root: &Node) {
    let mut visit = |table: &str, node: &Node| {
        for (k, v) in node.entries() {
            let prefix = if table.is_empty() {
                String::new()
            } else {
                format!("{table}.")
            };
            match k.replace('_', "-").as_str() {
                "fail-under" => items.push(Item::new(
                    format!("tarpaulin {prefix}fail-under"),
                    "tarpaulin fail-under",
                    Kind::Min,
                    node_tval(v),
                    v.line,
                )),
                "exclude-files" => exclusions(
                    items,
                    &format!("tarpaulin {prefix}exclude-files"),
                    "tarpaulin exclude-files",
                    &list_entries(v),
                ),
                _ => {}
            }
        }
    };
    visit("", root);
    for (name, table) in root.entries() {
        if matches!(table.val, Val::Map(_)) {
            visit(name, table);
        }
    }
}

// ---------------------------------------------------------------- CI YAML

struct CiWalker<'a, 'l> {
    items: &'a mut Items,
    lines: &'l [&'l str],
    /// Numeric `env:` values of the workflow, job and step being walked, outermost first.
    env: Vec<HashMap<String, String>>,
}

/// The numbers of an `env:` map (`COV_MIN: 95`).
fn numeric_env(node: &Node) -> HashMap<String, String> {
    let mut found = HashMap::new();
    if let Val::Map(entries) = &node.val {
        for (name, value) in entries {
            let text = match &value.val {
                Val::Num(number) => tree::fmt_num(*number),
                Val::Str(text) if text.trim().parse::<f64>().is_ok() => text.trim().to_string(),
                _ => continue,
            };
            found.insert(name.clone(), text);
        }
    }
    found
}

fn truthy(node: &Node) -> bool {
    match &node.val {
        Val::Bool(b) => *b,
        Val::Str(s) => boolish(s) == Some(true),
        _ => false,
    }
}

fn falsy_condition(node: &Node) -> bool {
    match &node.val {
        Val::Bool(b) => !*b,
        Val::Str(s) => {
            let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
            t == "false" || t == "${{false}}" || t == "0"
        }
        Val::Num(n) => *n == 0.0,
        _ => false,
    }
}

/// Readable context for a path in a CI file: GitHub's `jobs.<id>.steps[…]`
/// becomes "job test, step Run tests".
fn ctx_of(path: &[String]) -> String {
    if path.len() >= 2 && path[0] == "jobs" {
        let mut s = format!("job {}", path[1]);
        if path.len() >= 3 && path[2].starts_with("steps[") {
            let label = path[2].trim_start_matches("steps[").trim_end_matches(']');
            s.push_str(&format!(", step {label}"));
        }
        return s;
    }
    path.join(".")
}

impl CiWalker<'_, '_> {
    fn walk(
        &mut self,
        node: &Node,
        path: &mut Vec<String>,
        nonblocking: Option<&str>,
        depth: usize,
    ) {
        if depth > 32 {
            return;
        }
        match &node.val {
            Val::Map(entries) => {
                let scoped = node.get("env").map(numeric_env);
                let pushed = scoped.is_some();
                if let Some(scope) = scoped {
                    self.env.push(scope);
                }
                let mut reason = nonblocking.map(str::to_string);
                for (k, v) in entries {
                    match k.as_str() {
                        "continue-on-error" if truthy(v) => {
                            reason = Some("continue-on-error: true".into())
                        }
                        "allow_failure" if truthy(v) => reason = Some("allow_failure: true".into()),
                        "if" if falsy_condition(v) => reason = Some("if: false".into()),
                        _ => {}
                    }
                }
                if let Some(uses) = node.get("uses").and_then(|u| match &u.val {
                    Val::Str(s) => Some(s.as_str()),
                    _ => None,
                }) {
                    self.action(node, uses, path, reason.as_deref());
                }
                for (k, v) in entries {
                    if matches!(
                        k.as_str(),
                        "name" | "id" | "uses" | "if" | "continue-on-error"
                    ) {
                        continue;
                    }
                    path.push(k.clone());
                    self.walk(v, path, reason.as_deref(), depth + 1);
                    path.pop();
                }
                if pushed {
                    self.env.pop();
                }
            }
            Val::Seq(items) => {
                let base = path.pop().unwrap_or_default();
                for (i, item) in items.iter().enumerate() {
                    let label = ["name", "id", "uses"]
                        .iter()
                        .find_map(|k| match item.get(k).map(|n| &n.val) {
                            Some(Val::Str(s)) => Some(s.split('@').next().unwrap_or(s).to_string()),
                            _ => None,
                        })
                        .unwrap_or_else(|| (i + 1).to_string());
                    path.push(format!("{base}[{label}]"));
                    self.walk(item, path, nonblocking, depth + 1);
                    path.pop();
                }
                path.push(base);
            }
            Val::Str(s) => {
                let ctx = ctx_of(path);
                let mut variables = HashMap::new();
                for scope in &self.env {
                    variables.extend(scope.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                let s = variables::substitute(s, &variables);
                command::command_items(self.items, &s, node.line, self.lines, &ctx, nonblocking);
            }
            _ => {}
        }
    }

    /// Coverage upload actions: their presence and `fail_ci_if_error`.
    fn action(&mut self, step: &Node, uses: &str, path: &[String], reason: Option<&str>) {
        let name = uses.split('@').next().unwrap_or(uses).to_ascii_lowercase();
        let tool = if name.contains("codecov") {
            "codecov"
        } else if name.contains("coveralls") {
            "coveralls"
        } else {
            return;
        };
        let ctx = ctx_of(path);
        let mut presence = Item::new(
            format!("ci {tool} upload ({ctx})"),
            format!("coverage upload {tool}"),
            Kind::Presence,
            TVal::Present,
            step.line,
        );
        presence.nonblocking = reason.map(str::to_string);
        self.items.push(presence);
        if let Some(v) = step.path(&["with", "fail_ci_if_error"]) {
            let mut item = Item::new(
                format!("ci {tool} upload ({ctx}) fail_ci_if_error"),
                format!("{tool} fail_ci_if_error"),
                Kind::Enforcing,
                node_tval(v),
                v.line,
            )
            .with_default(TVal::Flag(false));
            item.nonblocking = reason.map(str::to_string);
            self.items.push(item);
        }
    }
}

// ---------------------------------------------------------------- Makefile, justfile, shell

/// Line-based: the context is the Make target or just recipe a command sits
/// under, so keys survive edits elsewhere in the file.
fn ci_text(items: &mut Items, text: &str, path: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let variables = variables::numeric_definitions(&lines);
    let file = basename(path);
    let makefile = {
        let f = file.to_ascii_lowercase();
        f.contains("makefile") || f.ends_with(".mk")
    };
    let mut target = String::new();
    let mut i = 0;
    while i < lines.len() {
        let start = i;
        let mut logical = String::new();
        loop {
            let l = lines[i];
            if let Some(stripped) = l.strip_suffix('\\') {
                logical.push_str(stripped);
                logical.push(' ');
                i += 1;
                if i >= lines.len() {
                    break;
                }
            } else {
                logical.push_str(l);
                i += 1;
                break;
            }
        }
        let line_no = u32::try_from(start + 1).unwrap_or(u32::MAX);
        let trimmed = logical.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indented = logical.starts_with('\t') || logical.starts_with(' ');
        if !indented && let Some(name) = recipe_header(trimmed) {
            target = name;
            continue;
        }
        // Make ignores a recipe line's failure when it starts with `-`.
        let unprefixed = trimmed.trim_start_matches(['@', '+']);
        let (cmd, reason) = match unprefixed.strip_prefix('-') {
            Some(rest) if indented && makefile => (
                rest.trim_start_matches(['@', '+']),
                Some("make `-` prefix ignores the failure"),
            ),
            _ => (unprefixed, None),
        };
        let ctx = if target.is_empty() {
            file.to_string()
        } else {
            format!("{file} target {target}")
        };
        let cmd = variables::substitute(cmd, &variables);
        command::command_items(items, &cmd, line_no, &lines, &ctx, reason);
    }
}

/// `test: deps` (Make) or `test arg="x":` (just), but not `VAR := value`.
fn recipe_header(line: &str) -> Option<String> {
    let colon = line.find(':')?;
    if line[colon..].starts_with(":=") || line[colon..].starts_with("::=") {
        return None;
    }
    let head = &line[..colon];
    if head.contains('=') && !head.contains(' ') {
        return None;
    }
    let name = head.split_whitespace().next()?;
    let name = name.trim_start_matches('@');
    if name.is_empty()
        || !name.chars().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '%' | '$' | '(' | ')')
        })
    {
        return None;
    }
    Some(name.to_string())
}
