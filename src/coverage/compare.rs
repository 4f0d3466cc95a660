//! The normalised setting model and the base → head comparison.
//!
//! Extractors (`sources`, `command`) turn a file into [`Item`]s; this module
//! pairs base and head items and decides, per [`Kind`], whether the head
//! weakens what base enforced. Nothing here knows about file formats.

use std::collections::{HashMap, HashSet};

use super::sources;
use super::tree::fmt_num;
use super::{CoverageFinding, Severity};

/// How a setting's value relates to strictness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A minimum (percentage, or with a negative value a max-uncovered count).
    Min,
    /// An allowance: higher is weaker (codecov `threshold`, max uncovered).
    MaxAllowed,
    /// `true` enforces (`check-coverage`, `100`, `perFile`, a status enabled).
    Enforcing,
    /// `true` disables enforcement (`informational`, `--no-cov`).
    Disabling,
    /// Named levels, weakest first (codecov `if_ci_failed`).
    Ordered(&'static [&'static str]),
    /// A coverage step or upload exists; only its removal matters.
    Presence,
    /// An entry that takes code out of the measurement.
    Exclusion,
    /// Which configuration file the tool reads (`--cov-config`): switching it swaps every
    /// setting at once, so the switch itself is shown.
    ConfigFile,
}

/// A setting value after normalisation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TVal {
    Num(f64),
    Flag(bool),
    /// codecov `target: auto`.
    Auto,
    Word(String),
    /// Source text of something that is not a literal.
    Opaque(String),
    Present,
}

impl TVal {
    pub(crate) fn show(&self) -> String {
        match self {
            TVal::Num(n) => fmt_num(*n),
            TVal::Flag(b) => b.to_string(),
            TVal::Auto => "auto".to_string(),
            TVal::Word(w) => format!("\"{w}\""),
            TVal::Opaque(e) => format!("`{e}`"),
            TVal::Present => "present".to_string(),
        }
    }
}

/// One normalised setting on one side of the change.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Item {
    /// Unique within a file and readable: it is the message subject.
    pub key: String,
    /// The key without its location, for pairing moved settings.
    pub family: String,
    pub kind: Kind,
    pub value: TVal,
    pub line: u32,
    /// What the tool assumes when the setting is absent, if that matters.
    pub default: Option<TVal>,
    /// Why this setting cannot fail the build even if coverage drops.
    pub nonblocking: Option<String>,
    /// Written inside a GitHub expression that picks between values per job
    /// (`${{ matrix.coverage && '-n auto' || '-n auto --no-cov' }}`): it holds in
    /// some jobs only.
    pub conditional: bool,
}

impl Item {
    pub(crate) fn new(
        key: impl Into<String>,
        family: impl Into<String>,
        kind: Kind,
        value: TVal,
        line: u32,
    ) -> Self {
        Item {
            key: key.into(),
            family: family.into(),
            kind,
            value,
            line,
            default: None,
            nonblocking: None,
            conditional: false,
        }
    }

    pub(crate) fn with_default(mut self, default: TVal) -> Self {
        self.default = Some(default);
        self
    }
}

/// Base and head of one changed file, for [`compare_changes`].
#[derive(Debug, Clone, Copy)]
pub struct FileChange<'a> {
    /// Repo-relative path with forward slashes (the head path for renames).
    pub path: &'a str,
    /// Base text, `None` when the file is added.
    pub base: Option<&'a str>,
    /// Head text, `None` when the file is deleted.
    pub head: Option<&'a str>,
}

/// Compares base and head of one file.
///
/// A head that no longer parses is `Err(message)` unless base held coverage
/// settings: then the settings can no longer be checked (and codecov, for one,
/// silently falls back to its defaults on an invalid file), so that is an
/// `Error` finding on the head instead. A base that does not parse gives no
/// findings: nothing was enforced that the change could weaken.
pub fn compare(
    path: &str,
    base: Option<&str>,
    head: Option<&str>,
) -> Result<Vec<CoverageFinding>, String> {
    compare_changes(&[FileChange { path, base, head }])
        .into_iter()
        .next()
        .unwrap_or(Ok(Vec::new()))
}

/// Compares several files of one change together, so that a threshold moved
/// from one file to another (package.json `jest` → jest.config.js, `.coveragerc`
/// → pyproject.toml, a CI flag → config) is judged by value rather than as a
/// removal. Results are in input order; findings belong to that file.
pub fn compare_changes(files: &[FileChange<'_>]) -> Vec<Result<Vec<CoverageFinding>, String>> {
    let mut results: Vec<Result<Vec<Out>, String>> = Vec::with_capacity(files.len());
    let mut removed: Vec<(usize, Item)> = Vec::new();
    let mut added: Vec<(usize, Item)> = Vec::new();

    for (idx, file) in files.iter().enumerate() {
        if !sources::is_coverage_source(file.path) {
            results.push(Ok(Vec::new()));
            continue;
        }
        let base_items = match file.base {
            None => Vec::new(),
            Some(text) => match sources::extract(file.path, text) {
                Ok(items) => items,
                Err(_) => {
                    results.push(Ok(Vec::new()));
                    continue;
                }
            },
        };
        let head_items = match file.head {
            None => Vec::new(),
            Some(text) => match sources::extract(file.path, text) {
                Ok(items) => items,
                Err(err) => {
                    results.push(unparseable(file.path, &err, &base_items));
                    continue;
                }
            },
        };
        let mut outs = Vec::new();
        let head_by_key: HashMap<&str, &Item> =
            head_items.iter().map(|i| (i.key.as_str(), i)).collect();
        let base_keys: HashSet<&str> = base_items.iter().map(|i| i.key.as_str()).collect();
        for b in &base_items {
            match head_by_key.get(b.key.as_str()) {
                Some(h) => outs.extend(judge_pair(b, h, None)),
                None => removed.push((idx, b.clone())),
            }
        }
        for h in &head_items {
            if !base_keys.contains(h.key.as_str()) {
                added.push((idx, h.clone()));
            }
        }
        results.push(Ok(outs));
    }

    // Pair leftovers by family: same file first, then across files.
    let mut used = vec![false; added.len()];
    let mut unpaired_removed = Vec::new();
    for (r_idx, r) in removed {
        let pick = |same_file: bool, used: &[bool]| {
            added.iter().enumerate().position(|(ai, (a_idx, a))| {
                !used[ai] && a.family == r.family && ((*a_idx == r_idx) == same_file)
            })
        };
        let found = pick(true, &used).or_else(|| pick(false, &used));
        match found {
            Some(ai) => {
                used[ai] = true;
                let (a_idx, a) = &added[ai];
                let moved_from = if *a_idx == r_idx {
                    r.key.clone()
                } else {
                    format!("{} in {}", r.key, files[r_idx].path)
                };
                if let Some(Ok(outs)) = results.get_mut(*a_idx) {
                    outs.extend(judge_pair(&r, a, Some(moved_from)));
                }
            }
            None => unpaired_removed.push((r_idx, r)),
        }
    }
    for (r_idx, r) in unpaired_removed {
        if let Some(Ok(outs)) = results.get_mut(r_idx) {
            outs.extend(judge_removed(&r));
        }
    }
    for (ai, (a_idx, a)) in added.iter().enumerate() {
        if used[ai] {
            continue;
        }
        if let Some(Ok(outs)) = results.get_mut(*a_idx) {
            outs.extend(judge_added(a));
        }
    }

    results.into_iter().map(|r| r.map(finish)).collect()
}

/// A finding before folding, keeping the setting key it is about.
#[derive(Debug, Clone)]
struct Out {
    key: String,
    removal: bool,
    /// Dropped unless some removal folds into it (an opaque parent).
    needs_children: bool,
    finding: CoverageFinding,
    /// "was" text for folding a removal into a parent finding.
    was: String,
}

fn out(item: &Item, severity: Severity, side_is_base: bool, message: String, removal: bool) -> Out {
    // A setting some jobs keep and others drop weakens only part of the matrix: shown, and
    // left to a reviewer.
    let (severity, message) = if item.conditional && severity == Severity::Error {
        (
            Severity::Warning,
            format!("{message}; only in the jobs a `${{{{ }}}}` expression picks it for"),
        )
    } else {
        (severity, message)
    };
    Out {
        key: item.key.clone(),
        removal,
        needs_children: false,
        was: format!("{} {}", item.key, item.value.show()),
        finding: CoverageFinding {
            severity,
            side_is_base,
            line: item.line,
            end_line: item.line,
            message,
        },
    }
}

fn unparseable(path: &str, err: &str, base_items: &[Item]) -> Result<Vec<Out>, String> {
    let held: Vec<&Item> = base_items
        .iter()
        .filter(|i| i.kind != Kind::Exclusion)
        .collect();
    if held.is_empty() {
        return Err(format!("{path}: cannot parse coverage config: {err}"));
    }
    let line = err
        .split("line ")
        .nth(1)
        .and_then(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_digit())
                .collect::<String>()
                .parse::<u32>()
                .ok()
        })
        .unwrap_or(1)
        .max(1);
    let list = summarize(held.iter().map(|i| format!("{} {}", i.key, i.value.show())));
    Ok(vec![Out {
        key: String::new(),
        removal: false,
        needs_children: false,
        was: String::new(),
        finding: CoverageFinding {
            severity: Severity::Error,
            side_is_base: false,
            line,
            end_line: line,
            message: format!(
                "{path} no longer parses ({err}); the coverage settings it held can no longer be checked: {list}"
            ),
        },
    }])
}

fn summarize(parts: impl Iterator<Item = String>) -> String {
    let parts: Vec<String> = parts.collect();
    if parts.len() > 5 {
        format!("{}, and {} more", parts[..5].join(", "), parts.len() - 5)
    } else {
        parts.join(", ")
    }
}

/// Is `head` weaker than `base` for this kind? Returns the severity and an
/// optional explanation appended to the message.
fn weaker(kind: Kind, base: &TVal, head: &TVal) -> Option<(Severity, Option<&'static str>)> {
    use TVal::*;
    if base == head {
        return None;
    }
    // Once a literal becomes an expression the gate cannot see the value; an
    // expression that was already opaque in base gives nothing to compare.
    if matches!(base, Opaque(_)) {
        return None;
    }
    if matches!(head, Opaque(_)) && kind != Kind::Presence && kind != Kind::Exclusion {
        return Some((Severity::Error, Some("no longer a literal")));
    }
    match kind {
        Kind::Min => match (base, head) {
            (Num(b), Num(h)) => {
                let (b, h) = (*b, *h);
                if b == 0.0 {
                    None
                } else if h == 0.0 {
                    Some((Severity::Error, Some("0 enforces nothing")))
                } else if (b > 0.0) != (h > 0.0) {
                    Some((
                        Severity::Warning,
                        Some(
                            "switches between a percentage and a max-uncovered count; not comparable",
                        ),
                    ))
                } else if h < b {
                    if b < 0.0 {
                        Some((Severity::Error, Some("more uncovered items allowed")))
                    } else {
                        Some((Severity::Error, None))
                    }
                } else {
                    None
                }
            }
            (Num(b), Auto) if *b > 0.0 => Some((
                Severity::Warning,
                Some("auto only compares with the base commit's coverage"),
            )),
            (Auto, Num(h)) if *h < 100.0 => Some((
                Severity::Warning,
                Some("a fixed target may be below the base commit's coverage"),
            )),
            (Num(b), Flag(false) | Word(_)) if *b > 0.0 => {
                Some((Severity::Error, Some("no longer a number")))
            }
            (Auto, Flag(false) | Word(_)) => Some((Severity::Error, Some("no longer a number"))),
            _ => None,
        },
        Kind::MaxAllowed => match (base, head) {
            (Num(b), Num(h)) if h > b => Some((Severity::Error, Some("allows a larger drop"))),
            (Num(_), Word(_) | Flag(_)) => Some((Severity::Error, Some("no longer a number"))),
            _ => None,
        },
        Kind::Enforcing => match (base, head) {
            (Flag(true), Flag(false)) => Some((Severity::Error, Some("no longer enforced"))),
            (Flag(true), Word(_)) => Some((Severity::Error, Some("no longer a boolean"))),
            _ => None,
        },
        Kind::Disabling => match (base, head) {
            (Flag(false), Flag(true)) => Some((Severity::Error, Some("no longer blocks"))),
            _ => None,
        },
        Kind::Ordered(levels) => {
            let rank = |v: &TVal| match v {
                Word(w) => levels.iter().position(|l| l.eq_ignore_ascii_case(w)),
                _ => None,
            };
            match (rank(base), rank(head)) {
                (Some(b), Some(h)) if h < b => Some((Severity::Error, Some("relaxed"))),
                _ => None,
            }
        }
        Kind::ConfigFile => match (base, head) {
            (Word(_), Word(_)) => Some((
                Severity::Warning,
                Some("another configuration file, whose thresholds and omissions replace these"),
            )),
            _ => None,
        },
        Kind::Presence | Kind::Exclusion => None,
    }
}

fn with_note(message: String, note: Option<&str>) -> String {
    match note {
        Some(n) => format!("{message} ({n})"),
        None => message,
    }
}

fn judge_pair(base: &Item, head: &Item, moved_from: Option<String>) -> Vec<Out> {
    let moved = moved_from
        .map(|m| format!(" (moved from {m})"))
        .unwrap_or_default();
    if base.kind == Kind::Exclusion || head.kind == Kind::Exclusion {
        return Vec::new();
    }
    if let Some((severity, note)) = weaker(head.kind, &base.value, &head.value) {
        if let TVal::Opaque(expr) = &head.value {
            let was = match &base.value {
                TVal::Present => String::new(),
                v => format!(" (was {})", v.show()),
            };
            let msg = format!("{} is no longer a literal (`{expr}`){was}{moved}", head.key);
            return vec![out(head, severity, false, msg, false)];
        }
        let msg = format!(
            "{} {} → {}{}",
            head.key,
            base.value.show(),
            head.value.show(),
            moved
        );
        return vec![out(head, severity, false, with_note(msg, note), false)];
    }
    if base.nonblocking.is_none()
        && let Some(reason) = &head.nonblocking
    {
        // A setting that was already unenforced in base gave nothing to lose.
        let enforcing = !matches!(
            (head.kind, &head.value),
            (Kind::Min, TVal::Num(0.0)) | (Kind::Enforcing, TVal::Flag(false))
        );
        if enforcing {
            let msg = format!("{} made non-blocking ({reason}){moved}", head.key);
            return vec![out(head, Severity::Error, false, msg, false)];
        }
    }
    Vec::new()
}

fn judge_removed(base: &Item) -> Vec<Out> {
    match base.kind {
        // Back to the default configuration file, which is compared on its own.
        Kind::Exclusion | Kind::ConfigFile => return Vec::new(),
        Kind::Min if base.value == TVal::Num(0.0) => return Vec::new(),
        Kind::Enforcing if base.value == TVal::Flag(false) => return Vec::new(),
        Kind::Disabling if base.value == TVal::Flag(true) => return Vec::new(),
        _ => {}
    }
    if let Some(default) = &base.default {
        return match weaker(base.kind, &base.value, default) {
            Some((severity, _)) => {
                let msg = format!(
                    "{} removed (was {}; the default is {})",
                    base.key,
                    base.value.show(),
                    default.show()
                );
                vec![out(base, severity, true, msg, true)]
            }
            None => Vec::new(),
        };
    }
    let msg = match base.kind {
        Kind::Presence => format!("{} removed", base.key),
        _ => format!("{} removed (was {})", base.key, base.value.show()),
    };
    vec![out(base, Severity::Error, true, msg, true)]
}

fn judge_added(head: &Item) -> Vec<Out> {
    if let TVal::Opaque(expr) = &head.value {
        // Only a finding if base had literal settings under this key; see `finish`.
        let msg = format!("{} is no longer a literal (`{expr}`)", head.key);
        let mut o = out(head, Severity::Error, false, msg, false);
        o.needs_children = true;
        return vec![o];
    }
    if head.kind == Kind::Exclusion {
        if super::pragma::is_unreachable_in_tests(&head.key) {
            return Vec::new();
        }
        let msg = format!("new coverage exclusion: {}", head.key);
        return vec![out(head, Severity::Warning, false, msg, false)];
    }
    if let Some(default) = &head.default
        && let Some((severity, note)) = weaker(head.kind, default, &head.value)
    {
        let msg = format!(
            "{} {} (default) → {}",
            head.key,
            default.show(),
            head.value.show()
        );
        return vec![out(head, severity, false, with_note(msg, note), false)];
    }
    Vec::new()
}

/// Folds removals of nested settings into the finding about their parent
/// (a removed codecov status, a `coverageThreshold` that became a variable),
/// then orders findings by line.
fn finish(outs: Vec<Out>) -> Vec<CoverageFinding> {
    let parents: Vec<String> = outs.iter().map(|o| o.key.clone()).collect();
    let mut folded: HashMap<usize, Vec<String>> = HashMap::new();
    let mut keep = vec![true; outs.len()];
    for (i, o) in outs.iter().enumerate() {
        if !o.removal || o.key.is_empty() {
            continue;
        }
        // The shortest parent wins, so a whole removed section gives one finding.
        let parent = parents
            .iter()
            .enumerate()
            .filter(|(j, p)| {
                *j != i && !p.is_empty() && o.key.starts_with(p.as_str()) && {
                    let rest = &o.key[p.len()..];
                    rest.starts_with('.') || rest.starts_with(' ')
                }
            })
            .min_by_key(|(_, p)| p.len())
            .map(|(j, _)| j);
        if let Some(j) = parent {
            keep[i] = false;
            let rest = o.was[parents[j].len()..].trim_start_matches(['.', ' ']);
            folded.entry(j).or_default().push(rest.to_string());
        }
    }
    let mut findings: Vec<CoverageFinding> = Vec::new();
    for (i, o) in outs.into_iter().enumerate() {
        if !keep[i] {
            continue;
        }
        let mut f = o.finding;
        match folded.remove(&i) {
            Some(inner) => {
                f.message = format!("{}; it held {}", f.message, summarize(inner.into_iter()));
            }
            None if o.needs_children => continue,
            None => {}
        }
        findings.push(f);
    }
    findings.sort_by(|a, b| {
        (a.line, a.side_is_base, &a.message).cmp(&(b.line, b.side_is_base, &b.message))
    });
    findings
}
