//! Coverage flags in shell commands: CI steps, Make/just recipes, npm
//! scripts, tox commands and pytest `addopts`.
//!
//! Commands are tokenised loosely (quotes, commas and brackets trimmed) so the
//! same code reads `run:` blocks, Makefiles and `session.run("pytest", ...)`
//! in noxfiles. A flag that needs a tool to be unambiguous (`--fail-under`,
//! `--lines`) is attributed from the other words of the same command.

use std::sync::LazyLock;

use regex::Regex;

use super::compare::{Item, Kind, TVal};
use super::sources::{Items, text_tval};
use super::tree;

static IGNORE_FAILURE: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)] // constant pattern, exercised by tests
    Regex::new(r"\|\|\s*(true\b|:|exit\s+0\b|echo\b)").expect("valid regex")
});

static JEST_THRESHOLD: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)] // constant pattern, exercised by tests
    Regex::new(r#"--coverage[Tt]hreshold(?:=|\s+)\\?['"]?(\{.*\})"#).expect("valid regex")
});

/// Where a logical command line sits, and what makes it non-blocking.
struct Cx<'a> {
    ctx: &'a str,
    reason: Option<&'a str>,
    doc: &'a [&'a str],
    /// First document line of the logical command.
    line: u32,
    /// Number of physical lines it spans (backslash continuations).
    span: u32,
}

impl Cx<'_> {
    /// The physical line holding `needle` within this command, so a flag on a
    /// continuation line is reported where it is written.
    fn line_of(&self, needle: &str) -> u32 {
        let start = self.line.saturating_sub(1) as usize;
        let end = (start + self.span.max(1) as usize).min(self.doc.len());
        if start < end
            && !needle.is_empty()
            && let Some(p) = self.doc[start..end].iter().position(|l| l.contains(needle))
        {
            return u32::try_from(start + p + 1).unwrap_or(self.line);
        }
        self.line
    }
}

#[derive(Default, Debug)]
struct Tools {
    pytest: bool,
    coverage: bool,
    tarpaulin: bool,
    llvm_cov: bool,
    nyc: bool,
    c8: bool,
    jest: bool,
    vitest: bool,
    diff_cover: bool,
}

fn clean_token(raw: &str) -> &str {
    // `session.run("pytest",` → `pytest`
    let t = match raw.rfind(['(', '[']) {
        Some(i) if !raw.starts_with('-') => &raw[i + 1..],
        _ => raw,
    };
    t.trim_matches(|c| matches!(c, '"' | '\'' | ',' | '(' | ')' | '[' | ']' | '`'))
}

fn tools_of(tokens: &[&str]) -> Tools {
    let mut t = Tools::default();
    for tok in tokens {
        if tok.starts_with('-') {
            continue;
        }
        let base = tok.rsplit('/').next().unwrap_or(tok);
        let name = base.split('@').next().unwrap_or(base);
        t.pytest |= name.contains("pytest") || name == "py.test";
        t.coverage |= name == "coverage" || name == "coverage3";
        t.tarpaulin |= name.contains("tarpaulin");
        t.llvm_cov |= name.contains("llvm-cov");
        // istanbul's own CLI (`istanbul check-coverage --statements 95`) reads as nyc.
        t.nyc |= name == "nyc" || name == "istanbul";
        t.c8 |= name == "c8";
        t.jest |= name == "jest";
        t.vitest |= name == "vitest";
        t.diff_cover |= name.contains("diff-cover");
    }
    t
}

/// Reads coverage flags from a command text (possibly several lines) into items.
///
/// `first_line` is where the text starts in the document; each logical line is
/// then located in `doc_lines` so findings point at the right line of a
/// multi-line `run: |` block.
pub(crate) fn command_items(
    items: &mut Items,
    text: &str,
    first_line: u32,
    doc_lines: &[&str],
    ctx: &str,
    nonblocking: Option<&str>,
) {
    let mut cursor = first_line.saturating_sub(1) as usize;
    let mut pending = String::new();
    let mut pending_offset = 0u32;
    let mut span = 0u32;
    for (offset, physical) in text.split('\n').enumerate() {
        if pending.is_empty() {
            pending_offset = u32::try_from(offset).unwrap_or(u32::MAX);
            span = 0;
        }
        span += 1;
        if let Some(stripped) = physical.trim_end().strip_suffix('\\') {
            pending.push_str(stripped);
            pending.push(' ');
            continue;
        }
        pending.push_str(physical);
        let logical = std::mem::take(&mut pending);
        let trimmed = logical.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || !looks_relevant(trimmed) {
            continue;
        }
        let line = locate(doc_lines, &mut cursor, trimmed)
            .unwrap_or_else(|| first_line.saturating_add(pending_offset));
        let reason = if IGNORE_FAILURE.is_match(trimmed) {
            Some("`|| true` ignores the failure")
        } else {
            nonblocking
        };
        let cx = Cx {
            ctx,
            reason,
            doc: doc_lines,
            line,
            span,
        };
        logical_line(items, trimmed, &cx);
    }
}

/// Cheap prefilter: most CI text has nothing to do with coverage.
fn looks_relevant(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    [
        "cov",
        "fail-under",
        "fail_under",
        "tarpaulin",
        "nyc",
        "c8",
        "lines",
        "branches",
        "functions",
        "statements",
        "--100",
        "per-file",
        "omit",
        "exclude",
        "ignore-filename-regex",
    ]
    .iter()
    .any(|k| l.contains(k))
}

/// Finds the document line holding the start of `logical`, searching forward.
fn locate(doc_lines: &[&str], cursor: &mut usize, logical: &str) -> Option<u32> {
    let needle: String = logical
        .split('\n')
        .next()
        .unwrap_or(logical)
        .chars()
        .take(40)
        .collect();
    let needle = needle.trim();
    if needle.is_empty() {
        return None;
    }
    let start = (*cursor).min(doc_lines.len());
    let found = doc_lines[start..]
        .iter()
        .position(|l| l.contains(needle))
        .map(|p| start + p)?;
    *cursor = found + 1;
    u32::try_from(found + 1).ok()
}

fn logical_line(items: &mut Items, line_text: &str, cx: &Cx<'_>) {
    let raw: Vec<&str> = line_text.split_whitespace().collect();
    // Split into commands at shell separators so a flag is attributed to the
    // tool of its own command.
    let mut segments: Vec<Vec<&str>> = vec![Vec::new()];
    for tok in raw {
        if matches!(tok, "&&" | "||" | ";" | "|") {
            segments.push(Vec::new());
            continue;
        }
        let ends_sep = tok.ends_with(';') && !tok.ends_with("\\;");
        let t = clean_token(tok.trim_end_matches(';'));
        if let Some(last) = segments.last_mut()
            && !t.is_empty()
        {
            last.push(t);
        }
        if ends_sep {
            segments.push(Vec::new());
        }
    }
    let mut produced = false;
    for seg in &segments {
        if seg.is_empty() {
            continue;
        }
        produced |= segment(items, seg, cx);
    }
    if let Some(m) = JEST_THRESHOLD.captures(line_text).and_then(|c| c.get(1)) {
        produced = true;
        jest_cli(items, m.as_str(), cx);
    }
    if !produced {
        presence(items, &segments, cx);
    }
}

fn push(items: &mut Items, mut item: Item, cx: &Cx<'_>, anchor: &str) {
    item.nonblocking = cx.reason.map(str::to_string);
    item.line = cx.line_of(anchor);
    item.conditional = cx
        .doc
        .get(item.line.saturating_sub(1) as usize)
        .is_some_and(|text| picked_by_expression(text, anchor));
    items.push(item);
}

/// Whether `anchor` stands inside a GitHub expression that chooses between values by the
/// job's matrix entry only (`${{ matrix.coverage && 'a' || 'b --no-cov' }}`) on `text`: every
/// pull request still runs the jobs that keep the setting. A choice by event, branch, input
/// or variable (`github.event_name == 'pull_request' && '0'`) may pick the weaker value
/// exactly where the gate runs, so it is not one.
fn picked_by_expression(text: &str, anchor: &str) -> bool {
    text.match_indices("${{").any(|(start, _)| {
        let inside = &text[start..];
        let inside = &inside[..inside.find("}}").unwrap_or(inside.len())];
        let by_matrix_only = inside.contains("matrix.")
            && ["github.", "env.", "inputs.", "vars.", "secrets.", "runner."]
                .iter()
                .all(|context| !inside.contains(context));
        by_matrix_only && inside.contains("||") && !anchor.is_empty() && inside.contains(anchor)
    })
}

/// Returns true when a threshold flag was found.
fn segment(items: &mut Items, seg: &[&str], cx: &Cx<'_>) -> bool {
    let (ctx, line) = (cx.ctx, cx.line);
    let tools = tools_of(seg);
    let js_tool = if tools.c8 {
        Some("c8")
    } else if tools.nyc {
        Some("nyc")
    } else {
        None
    };
    let mut found = false;
    let mut i = 0;
    while i < seg.len() {
        let tok = seg[i];
        i += 1;
        if !tok.starts_with('-') {
            continue;
        }
        let (name, inline) = match tok.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (tok, None),
        };
        // Takes the flag's value: inline, or the next word unless it is a flag.
        let value = |i: &mut usize| -> Option<String> {
            if let Some(v) = inline {
                return Some(v.to_string());
            }
            let next = seg.get(*i)?;
            if next.starts_with("--")
                || (next.starts_with('-') && next[1..].parse::<f64>().is_err())
            {
                return None;
            }
            *i += 1;
            Some((*next).to_string())
        };
        let ctx_key = |flag: &str| format!("ci {flag} ({ctx})");
        match name {
            "--cov-fail-under" => {
                if let Some(v) = value(&mut i) {
                    let item = Item::new(
                        ctx_key("pytest --cov-fail-under"),
                        "coverage.py fail_under",
                        Kind::Min,
                        text_tval(&v),
                        line,
                    );
                    push(items, item, cx, name);
                    found = true;
                }
            }
            "--fail-under" => {
                let (flag, family) = if tools.tarpaulin {
                    ("cargo tarpaulin --fail-under", "tarpaulin fail-under")
                } else if tools.diff_cover {
                    ("diff-cover --fail-under", "diff-cover fail-under")
                } else if tools.coverage {
                    ("coverage report --fail-under", "coverage.py fail_under")
                } else {
                    ("--fail-under", "--fail-under")
                };
                if let Some(v) = value(&mut i) {
                    push(
                        items,
                        Item::new(ctx_key(flag), family, Kind::Min, text_tval(&v), line),
                        cx,
                        name,
                    );
                    found = true;
                }
            }
            "--fail-under-lines" | "--fail-under-functions" | "--fail-under-regions" => {
                if let Some(v) = value(&mut i) {
                    let flag = format!("cargo llvm-cov {name}");
                    let family = format!("llvm-cov {}", name.trim_start_matches('-'));
                    push(
                        items,
                        Item::new(ctx_key(&flag), family, Kind::Min, text_tval(&v), line),
                        cx,
                        name,
                    );
                    found = true;
                }
            }
            "--fail-uncovered-lines"
            | "--fail-uncovered-functions"
            | "--fail-uncovered-regions" => {
                if let Some(v) = value(&mut i) {
                    let flag = format!("cargo llvm-cov {name}");
                    let family = format!("llvm-cov {}", name.trim_start_matches('-'));
                    push(
                        items,
                        Item::new(
                            ctx_key(&flag),
                            family,
                            Kind::MaxAllowed,
                            text_tval(&v),
                            line,
                        ),
                        cx,
                        name,
                    );
                    found = true;
                }
            }
            "--cov-config" | "--rcfile" if tools.pytest || tools.coverage => {
                if let Some(v) = value(&mut i) {
                    let item = Item::new(
                        ctx_key(&format!("coverage.py {name}")),
                        "coverage.py config file",
                        Kind::ConfigFile,
                        TVal::Word(v),
                        line,
                    )
                    .with_default(TVal::Word("the default search".to_string()));
                    push(items, item, cx, name);
                    found = true;
                }
            }
            "--no-cov" => {
                let item = Item::new(
                    ctx_key("pytest --no-cov"),
                    "pytest --no-cov",
                    Kind::Disabling,
                    TVal::Flag(true),
                    line,
                )
                .with_default(TVal::Flag(false));
                push(items, item, cx, name);
                found = true;
            }
            "--check-coverage" | "--checkCoverage" => {
                let tool = js_tool.unwrap_or("nyc");
                let v = inline.map(text_tval).unwrap_or(TVal::Flag(true));
                let item = Item::new(
                    ctx_key(&format!("{tool} --check-coverage")),
                    format!("{tool} check-coverage"),
                    Kind::Enforcing,
                    v,
                    line,
                )
                .with_default(TVal::Flag(false));
                push(items, item, cx, name);
                found = true;
            }
            "--lines" | "--branches" | "--functions" | "--statements" if js_tool.is_some() => {
                let tool = js_tool.unwrap_or("nyc");
                let metric = &name[2..];
                if let Some(v) = value(&mut i) {
                    let default = if metric == "lines" { 90.0 } else { 0.0 };
                    let item = Item::new(
                        ctx_key(&format!("{tool} {name}")),
                        format!("{tool} {metric}"),
                        Kind::Min,
                        text_tval(&v),
                        line,
                    )
                    .with_default(TVal::Num(default));
                    push(items, item, cx, name);
                    found = true;
                }
            }
            "--100" | "--per-file" | "--perFile" if js_tool.is_some() => {
                let tool = js_tool.unwrap_or("nyc");
                let opt = if name == "--100" { "100" } else { "per-file" };
                let v = inline.map(text_tval).unwrap_or(TVal::Flag(true));
                let item = Item::new(
                    ctx_key(&format!("{tool} --{opt}")),
                    format!("{tool} {opt}"),
                    Kind::Enforcing,
                    v,
                    line,
                )
                .with_default(TVal::Flag(false));
                push(items, item, cx, name);
                found = true;
            }
            n if tools.vitest && n.starts_with("--coverage.") => {
                let setting = n.trim_start_matches("--coverage.");
                let setting = setting.strip_prefix("thresholds.").unwrap_or(setting);
                let metric_kind = if matches!(setting, "100" | "perFile") {
                    Some(Kind::Enforcing)
                } else if matches!(setting, "lines" | "functions" | "branches" | "statements") {
                    Some(Kind::Min)
                } else {
                    None
                };
                if let Some(kind) = metric_kind {
                    let v = match kind {
                        Kind::Enforcing => inline.map(text_tval).unwrap_or(TVal::Flag(true)),
                        _ => match value(&mut i) {
                            Some(v) => text_tval(&v),
                            None => continue,
                        },
                    };
                    let mut item = Item::new(
                        ctx_key(&format!("vitest --coverage.thresholds.{setting}")),
                        format!("vitest thresholds.{setting}"),
                        kind,
                        v,
                        line,
                    );
                    if kind == Kind::Enforcing {
                        item = item.with_default(TVal::Flag(false));
                    }
                    push(items, item, cx, name);
                    found = true;
                } else if setting == "exclude"
                    && let Some(v) = value(&mut i)
                {
                    exclusion(
                        items,
                        &ctx_key("vitest --coverage.exclude"),
                        "vitest coverage.exclude",
                        &v,
                        line,
                    );
                }
            }
            "--omit" if tools.coverage || tools.pytest => {
                if let Some(v) = value(&mut i) {
                    for part in v.split(',') {
                        exclusion(
                            items,
                            &ctx_key("coverage --omit"),
                            "coverage.py omit",
                            part,
                            line,
                        );
                    }
                }
            }
            "--exclude-files" if tools.tarpaulin => {
                if let Some(v) = value(&mut i) {
                    exclusion(
                        items,
                        &ctx_key("cargo tarpaulin --exclude-files"),
                        "tarpaulin exclude-files",
                        &v,
                        line,
                    );
                }
            }
            "--ignore-filename-regex" if tools.llvm_cov => {
                if let Some(v) = value(&mut i) {
                    exclusion(
                        items,
                        &ctx_key("cargo llvm-cov --ignore-filename-regex"),
                        "llvm-cov ignore-filename-regex",
                        &v,
                        line,
                    );
                }
            }
            "--exclude" | "-x" if js_tool.is_some() => {
                let tool = js_tool.unwrap_or("nyc");
                if let Some(v) = value(&mut i) {
                    exclusion(
                        items,
                        &ctx_key(&format!("{tool} --exclude")),
                        &format!("{tool} exclude"),
                        &v,
                        line,
                    );
                }
            }
            _ => {}
        }
    }
    found
}

fn exclusion(items: &mut Items, list_key: &str, family: &str, entry: &str, line: u32) {
    // Exclusions keep the command's first line; entries rarely span lines.
    let entry = entry.trim().trim_matches(|c| c == '"' || c == '\'');
    if entry.is_empty() {
        return;
    }
    items.push(Item::new(
        format!("{list_key} `{entry}`"),
        format!("{family} `{entry}`"),
        Kind::Exclusion,
        TVal::Present,
        line,
    ));
}

/// `jest --coverageThreshold='{"global":{"lines":90}}'`: same family as the
/// config file setting, so moving it between the two is judged by value.
fn jest_cli(items: &mut Items, json: &str, cx: &Cx<'_>) {
    let (ctx, line) = (cx.ctx, cx.line);
    let name = "--coverageThreshold";
    let unescaped = json.replace("\\\"", "\"");
    let candidates = [json, unescaped.as_str()];
    let node = candidates.iter().find_map(|c| {
        // The regex is greedy; trim trailing quote noise until it parses.
        let mut s = c.trim_end_matches(['\'', '"', '\\']);
        for _ in 0..4 {
            if let Ok(n) = tree::parse_json(s) {
                return Some(n);
            }
            s = s.trim_end_matches(|ch| ch != '}');
            s = s.strip_suffix('}').unwrap_or(s);
            s = s.trim_end_matches(|ch| ch != '}');
        }
        None
    });
    let Some(node) = node else {
        let item = Item::new(
            format!("ci jest --coverageThreshold ({ctx})"),
            "jest coverageThreshold",
            Kind::Min,
            TVal::Opaque(tree::shorten(json)),
            line,
        );
        push(items, item, cx, name);
        return;
    };
    let mut leaves = Vec::new();
    collect_leaves(&node, String::new(), &mut leaves, 0);
    for (path, leaf) in leaves {
        let value = match &leaf.val {
            tree::Val::Num(n) => TVal::Num(*n),
            tree::Val::Str(s) => text_tval(s),
            other => TVal::Opaque(tree::describe(other).into_owned()),
        };
        let item = Item::new(
            format!("ci jest --coverageThreshold {path} ({ctx})"),
            format!("jest coverageThreshold.{path}"),
            Kind::Min,
            value,
            line,
        );
        push(items, item, cx, name);
    }
}

fn collect_leaves(
    node: &tree::Node,
    path: String,
    out: &mut Vec<(String, tree::Node)>,
    depth: usize,
) {
    match &node.val {
        tree::Val::Map(entries) if depth < 8 => {
            for (k, v) in entries {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                collect_leaves(v, p, out, depth + 1);
            }
        }
        _ if !path.is_empty() => out.push((path, node.clone())),
        _ => {}
    }
}

/// A coverage run without a threshold on the same line still matters: config
/// thresholds (`fail_under`, `coverageThreshold`) only apply when it runs.
fn presence(items: &mut Items, segments: &[Vec<&str>], cx: &Cx<'_>) {
    let (ctx, line) = (cx.ctx, cx.line);
    for seg in segments {
        let tools = tools_of(seg);
        let has = |flag: &str| {
            seg.iter()
                .any(|t| *t == flag || t.starts_with(&format!("{flag}=")))
        };
        let label = if tools.pytest && has("--cov") {
            "pytest --cov"
        } else if tools.coverage && seg.iter().any(|t| *t == "run" || *t == "report") {
            "coverage run"
        } else if tools.tarpaulin {
            "cargo tarpaulin"
        } else if tools.llvm_cov {
            "cargo llvm-cov"
        } else if tools.nyc {
            "nyc"
        } else if tools.c8 {
            "c8"
        } else if tools.jest && has("--coverage") {
            "jest --coverage"
        } else if tools.vitest && (has("--coverage") || seg.contains(&"coverage")) {
            "vitest --coverage"
        } else {
            continue;
        };
        // One identity per language: `pytest --cov` rewritten as `coverage run -m pytest`
        // (or tarpaulin as llvm-cov, nyc as c8) still measures the same run.
        let family = match label {
            "pytest --cov" | "coverage run" => "python",
            "cargo tarpaulin" | "cargo llvm-cov" => "rust",
            _ => "javascript",
        };
        let item = Item::new(
            format!("ci coverage run `{label}` ({ctx})"),
            format!("coverage run {family}"),
            Kind::Presence,
            TVal::Present,
            line,
        );
        push(
            items,
            item,
            cx,
            label.split_whitespace().next().unwrap_or(label),
        );
    }
}
