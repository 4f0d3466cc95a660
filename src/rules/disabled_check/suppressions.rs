//! Suppression comments and lint attributes in source files, found by the `disabled-check`
//! queries on comment and attribute nodes (so a suppression spelled inside a string literal
//! never counts) and parsed here.
//!
//! A suppression is new when head holds more copies of the same normalized text than base;
//! only copies on lines the change added are reported. Among those, one is still not new when
//! the same statement or item ([`super::statement`]) already carried a suppression of the
//! same tool silencing at least as much: in this file's base (rewrapped, rewritten narrower)
//! or in another changed file's base (moved or copied with its statement). Codes compare as
//! sets, so `#[allow(a, b, c)]` rewritten `#[expect(b)]` is narrower, while `# noqa: F401`
//! rewritten `# noqa`, or `#[allow(b)]` rewritten `#[allow(a, b)]`, is wider.

use super::Output;
use super::directives::{Judged, javascript, python, regex, rust};
use super::statement;
use crate::finding::{Severity, Side};
use crate::lang::Language;
use crate::rules::FileContext;
use crate::rules::{Candidate, Fact, FactRef, Moved};
use regex::Regex;
use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

/// Fact name for a suppression line that left a file's base (it may reappear in another file).
const LEFT: &str = "suppression";

/// Fact name for what a statement's suppressions silenced in a changed file's base, keyed by
/// tool, statement and codes (`*` for all of the tool's checks).
const SILENCED: &str = "silenced statement";

/// Statements whose codes are listed under every combination (a later suppression naming any
/// subset of them is no wider); past this, under each code and the whole list only.
const MAX_CODES_COMBINED: usize = 6;

/// A suppression found on one side: its normalized text, the code before it on its line and
/// the whole line, both normalized.
struct Found<'m> {
    found: &'m crate::query::QueryMatch,
    text: &'m str,
    key: String,
    /// What the suppression applies to: the code before it on its line, or for a comment on
    /// its own line the next non-blank line.
    anchor: String,
    line: String,
    /// The statement or item it applies to, when the language has them named.
    statement: Option<statement::Statement>,
    /// Its strength and what it silences; `None` when it is no suppression after all.
    judged: Option<Judged>,
}

impl Found<'_> {
    /// The places base and head suppressions are compared at: the statement, and the line.
    fn places(&self) -> impl Iterator<Item = String> + '_ {
        let statement = self
            .statement
            .as_ref()
            .map(|statement| format!("statement:{}", statement.local));
        let anchor = (self.anchor.len() > 5).then(|| self.anchor.clone());
        statement.into_iter().chain(anchor)
    }
}

fn normalized(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn found_on<'m>(
    context: &FileContext<'_>,
    side: Side,
    matches: &'m [crate::query::QueryMatch],
    text: &'m str,
) -> Vec<Found<'m>> {
    let Some(language) = context.language else {
        return Vec::new();
    };
    let parsed = context.parsed(side);
    matches
        .iter()
        .enumerate()
        .flat_map(|(index, found)| {
            let source = text.get(found.byte_range.clone()).unwrap_or_default();
            directive_pieces(language, source).map(move |piece| (index, found, piece))
        })
        .map(|(index, found, source)| {
            let start = found.byte_range.start;
            let line_start = text[..start.min(text.len())]
                .rfind('\n')
                .map_or(0, |at| at + 1);
            let line_end = text[start.min(text.len())..]
                .find('\n')
                .map_or(text.len(), |at| start + at);
            let code = normalized(text.get(line_start..start).unwrap_or_default());
            let anchor = if code.is_empty() {
                let after = text.get(found.byte_range.end..).unwrap_or_default();
                let next = after
                    .lines()
                    .skip(1)
                    .map(str::trim)
                    .find(|line| !line.is_empty())
                    .unwrap_or_default();
                format!("next:{}", normalized(next))
            } else {
                format!("code:{code}")
            };
            let inner = found.property("kind") == Some("inner");
            let statement = parsed
                .filter(|_| index < statement::MAX_NAMED)
                .and_then(|parsed| {
                    statement::of(parsed, language, found.byte_range.clone(), inner)
                });
            Found {
                found,
                text: source,
                key: normalized(source),
                anchor,
                line: normalized(text.get(line_start..line_end).unwrap_or_default()),
                statement,
                judged: judge(language, source, inner)
                    .map(|judged| closed_later(judged, text, found.byte_range.end))
                    .map(|judged| {
                        unused_over_code(language, inner, judged, text, found.byte_range.end)
                    }),
            }
        })
        .collect()
}

/// An ESLint `eslint-disable` block closed by a later `eslint-enable` (of every rule, or of
/// those it named): it covers the lines between, not the rest of the file. A suppression
/// of named rules over a block is narrow (a warning); every rule over a block stays an error.
fn closed_later(mut judged: Judged, text: &str, end: usize) -> Judged {
    const REST: &str = "for the rest of the file";
    if judged.tool != "eslint" || !judged.what.contains(REST) {
        return judged;
    }
    let after = text.get(end..).unwrap_or_default();
    let closing = after.match_indices("eslint-enable").find(|(at, _)| {
        let rest = &after[at + "eslint-enable".len()..];
        let rest = rest.split(['\n', '*']).next().unwrap_or_default();
        let rest = rest.split("--").next().unwrap_or_default();
        let enabled: BTreeSet<&str> = rest
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|rule| !rule.is_empty())
            .collect();
        enabled.is_empty()
            || judged
                .codes
                .as_ref()
                .is_some_and(|codes| codes.iter().all(|code| enabled.contains(code.as_str())))
    });
    let Some((at, _)) = closing else {
        return judged;
    };
    let line = text[..end + at].matches('\n').count() + 1;
    judged.what = judged
        .what
        .replace(REST, &format!("until the `eslint-enable` on line {line}"));
    if judged.codes.is_some() {
        judged.severity = judged.severity.min(Severity::Warning);
    }
    judged
}

/// The directives of one comment, each judged on its own: a Python comment can hold several
/// (`# type: ignore # noqa: B950`), and dropping one of them leaves the others as they were.
/// Other languages' comments are one directive each.
fn directive_pieces(language: Language, comment: &str) -> impl Iterator<Item = &str> {
    let starts: Vec<usize> = match language {
        Language::Python => comment.match_indices('#').map(|(at, _)| at).collect(),
        _ => Vec::new(),
    };
    let whole = starts.len() <= 1;
    let pieces: Vec<&str> = if whole {
        vec![comment]
    } else {
        starts
            .iter()
            .zip(starts.iter().skip(1).chain([&comment.len()]))
            .map(|(start, end)| comment[*start..*end].trim_end())
            .collect()
    };
    pieces.into_iter()
}

/// `#[allow(unused)]` is a warning on a field, a macro or a type, but the `unused` group also
/// holds `unused_must_use`: on a function, `impl`, `mod` or `trait` it hides results dropped in
/// the code below it, an error (see [`directives::rust`]).
fn unused_over_code(
    language: Language,
    inner: bool,
    mut judged: Judged,
    text: &str,
    attribute_end: usize,
) -> Judged {
    let names_unused = judged
        .codes
        .as_ref()
        .is_some_and(|codes| codes.contains("unused"));
    if language != Language::Rust || inner || judged.severity != Severity::Warning || !names_unused
    {
        return judged;
    }
    let item = text
        .get(attribute_end..)
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("#[") && !line.starts_with("//"))
        .take(1)
        .next()
        .unwrap_or_default();
    let words: Vec<&str> = item
        .split(|c: char| c.is_whitespace() || c == '(' || c == '<' || c == '{')
        .filter(|word| !word.is_empty())
        .collect();
    let code_item = words
        .iter()
        .find(|word| {
            !(matches!(
                **word,
                "pub" | "crate)" | "super)" | "async" | "const" | "unsafe" | "extern" | "\"C\""
            ) || word.starts_with("pub("))
        })
        .is_some_and(|word| matches!(*word, "fn" | "impl" | "mod" | "trait"));
    if code_item {
        judged.severity = Severity::Error;
    }
    judged
}

fn judge(language: Language, text: &str, inner: bool) -> Option<Judged> {
    match language {
        Language::Python => python(text),
        Language::Rust => rust(text, inner),
        Language::JavaScript | Language::TypeScript | Language::Tsx => javascript(text),
    }
}

/// The tools whose suppressions cover one of `tool`: an `allow` silences everything an
/// `expect` of the same lints does, without the warning when the lint stops firing.
fn covering(tool: &'static str) -> Vec<&'static str> {
    match tool {
        "expect" => vec!["expect", "allow"],
        _ => vec![tool],
    }
}

/// What one tool's base suppressions silence at one place.
struct Cover {
    /// Every code named there; `None` once one of them silenced the tool's every check.
    codes: Option<BTreeSet<String>>,
    severity: Severity,
    /// The most codes one suppression there named, to tell a rule renamed in place
    /// (`ban-types` → `no-restricted-types`) from one added.
    widest: usize,
    /// How many suppressions of the tool base had there: a copy of the line beyond that
    /// count (the twelfth identical `// @ts-ignore` before the same call) is one more.
    count: usize,
}

fn code_count(codes: Option<&BTreeSet<String>>) -> usize {
    codes.map_or(usize::MAX, BTreeSet::len)
}

/// `into` silences `codes` as well: the union, or everything.
fn merge(into: &mut Option<BTreeSet<String>>, codes: Option<&BTreeSet<String>>) {
    match (into.as_mut(), codes) {
        (Some(into), Some(codes)) => into.extend(codes.iter().cloned()),
        _ => *into = None,
    }
}

/// Union of the codes each tool silences per statement, keyed `tool|statement` with the
/// statement's `name` (within the file or across files).
fn silenced_per_statement(
    found: &[Found<'_>],
    name: fn(&statement::Statement) -> Option<&str>,
) -> HashMap<String, (Option<BTreeSet<String>>, Severity)> {
    let mut per_statement: HashMap<String, (Option<BTreeSet<String>>, Severity)> = HashMap::new();
    for found in found {
        let (Some(statement), Some(judged)) =
            (found.statement.as_ref().and_then(name), &found.judged)
        else {
            continue;
        };
        let key = format!("{}|{statement}", judged.tool);
        match per_statement.get_mut(&key) {
            Some((codes, severity)) => {
                merge(codes, judged.codes.as_ref());
                *severity = (*severity).max(judged.severity);
            }
            None => {
                per_statement.insert(key, (judged.codes.clone(), judged.severity));
            }
        }
    }
    per_statement
}

fn local_name(statement: &statement::Statement) -> Option<&str> {
    Some(&statement.local)
}

fn shared_name(statement: &statement::Statement) -> Option<&str> {
    statement.shared.as_deref()
}

/// The fact keys under which a statement's silenced codes are found: `*` for everything,
/// otherwise each combination of its codes (or each code and the whole list, when many).
fn silenced_keys(place: &str, codes: Option<&BTreeSet<String>>) -> Vec<String> {
    let Some(codes) = codes else {
        return vec![format!("{place}|*")];
    };
    let codes: Vec<&String> = codes.iter().collect();
    let joined = |picked: Vec<&String>| {
        let picked: Vec<&str> = picked.into_iter().map(String::as_str).collect();
        format!("{place}|{}", picked.join(","))
    };
    if codes.len() > MAX_CODES_COMBINED {
        let mut keys: Vec<String> = codes.iter().map(|code| joined(vec![*code])).collect();
        keys.push(joined(codes));
        return keys;
    }
    (1u32..(1 << codes.len()))
        .map(|mask| {
            joined(
                codes
                    .iter()
                    .enumerate()
                    .filter(|(bit, _)| mask & (1 << bit) != 0)
                    .map(|(_, code)| *code)
                    .collect(),
            )
        })
        .collect()
}

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    let head_text = context.side(Side::Head).map(|side| side.text);
    let head_matches = context.matches(Side::Head, "disabled-check");
    let base_matches = context.matches(Side::Base, "disabled-check");
    let base_text = context.side(Side::Base).map_or("", |side| side.text);
    let head = found_on(context, Side::Head, &head_matches, head_text.unwrap_or(""));
    let base = found_on(context, Side::Base, &base_matches, base_text);
    let count = |list: &[Found<'_>]| {
        let mut counts: HashMap<String, usize> = HashMap::new();
        for found in list {
            *counts.entry(found.key.clone()).or_default() += 1;
        }
        counts
    };
    let base_counts = count(&base);
    let head_counts = count(&head);
    // Suppressions that left this file may reappear in another changed file (a move).
    for found in &base {
        if base_counts.get(&found.key) > head_counts.get(&found.key).or(Some(&0)) {
            out.facts.push(Fact {
                side: Side::Base,
                name: LEFT,
                family: language.family(),
                key: found.line.clone(),
                severity: Severity::Error,
            });
        }
    }
    // What each statement of base had silenced, for its copies and moves in other files.
    for (place, (codes, severity)) in silenced_per_statement(&base, shared_name) {
        for key in silenced_keys(&place, codes.as_ref()) {
            out.facts.push(Fact {
                side: Side::Base,
                name: SILENCED,
                family: language.family(),
                key,
                severity,
            });
        }
    }
    let Some(head_text) = head_text else {
        return;
    };
    // Code that already carried a suppression in base, with what it silenced: rewriting
    // `# type: ignore` as `# type: ignore[code]`, following a rule's rename (`ban-types` →
    // `no-restricted-types`) or rewrapping the statement changes a suppression without
    // adding one.
    let mut base_by_place: HashMap<String, Cover> = HashMap::new();
    for found in &base {
        let Some(judged) = &found.judged else {
            continue;
        };
        for place in found.places() {
            let cover = base_by_place
                .entry(format!("{}|{place}", judged.tool))
                .or_insert_with(|| Cover {
                    codes: Some(BTreeSet::new()),
                    severity: judged.severity,
                    widest: 0,
                    count: 0,
                });
            cover.count += 1;
            merge(&mut cover.codes, judged.codes.as_ref());
            cover.severity = cover.severity.max(judged.severity);
            cover.widest = cover.widest.max(code_count(judged.codes.as_ref()));
        }
    }
    let head_per_statement = silenced_per_statement(&head, local_name);
    // Head's suppressions per tool and place, to tell copies beyond base's count.
    let mut head_at_place: HashMap<String, usize> = HashMap::new();
    for found in &head {
        if let Some(judged) = &found.judged {
            for place in found.places() {
                *head_at_place
                    .entry(format!("{}|{place}", judged.tool))
                    .or_default() += 1;
            }
        }
    }
    let mut added_with_key: HashMap<&str, usize> = HashMap::new();
    let mut added_at_place: HashMap<String, usize> = HashMap::new();
    for found in &head {
        let line = found.found.line;
        if !context.pair.added.overlaps(line, found.found.end_line) {
            continue;
        }
        // Head holds `surplus` more copies of this text than base: that many of the copies on
        // added lines are new, whichever of the identical lines the diff calls added.
        let surplus = head_counts
            .get(&found.key)
            .copied()
            .unwrap_or(0)
            .saturating_sub(base_counts.get(&found.key).copied().unwrap_or(0));
        let nth = added_with_key.entry(found.key.as_str()).or_default();
        *nth += 1;
        if *nth > surplus {
            continue;
        }
        let Some(judged) = &found.judged else {
            continue;
        };
        // A copy of a suppressed line base already had, beyond base's count of it (the
        // twelfth identical `// @ts-ignore` before the same call): base's copies cover as many
        // as base had, not every copy the change adds.
        // Only the line's code counts so: a statement rewrapped repeats its suppression on
        // its new lines, one statement holding more suppressions than before.
        let beyond: BTreeSet<String> = found
            .places()
            .filter(|place| !place.starts_with("statement:"))
            .map(|place| format!("{}|{place}", judged.tool))
            .filter(|place| {
                let nth = added_at_place.entry(place.clone()).or_default();
                *nth += 1;
                let base = base_by_place.get(place).map_or(0, |cover| cover.count);
                let extra = head_at_place
                    .get(place)
                    .copied()
                    .unwrap_or(0)
                    .saturating_sub(base);
                base > 0 && *nth <= extra
            })
            .collect();
        if language == Language::Python && silences_nothing(head_text, found) {
            continue;
        }
        // Everything the statement's suppressions of this tool silence in head, so that a
        // suppression repeated on a rewrapped statement's next line is judged with the rest.
        let codes = found
            .statement
            .as_ref()
            .and_then(|statement| {
                head_per_statement.get(&format!("{}|{}", judged.tool, statement.local))
            })
            .map_or(judged.codes.as_ref(), |(codes, _)| codes.as_ref());
        if beyond.is_empty() && covered(&base_by_place, found, judged, codes) {
            continue;
        }
        // A copy beyond this file's own count is new here: the same statement's suppression in
        // this file's base (a fact like any other file's) does not excuse it.
        let also = found
            .statement
            .as_ref()
            .filter(|_| beyond.is_empty())
            .and_then(|statement| statement.shared.as_deref())
            .into_iter()
            .flat_map(|statement| {
                covering(judged.tool).into_iter().flat_map(move |tool| {
                    let place = format!("{tool}|{statement}");
                    let mut keys = vec![format!("{place}|*")];
                    if let Some(codes) = codes {
                        let codes: Vec<&str> = codes.iter().map(String::as_str).collect();
                        keys.push(format!("{place}|{}", codes.join(",")));
                    }
                    keys
                })
            })
            .map(|key| (FactRef::base(SILENCED), key))
            .collect();
        let (severity, message) = match own_deprecation(context, language, judged) {
            Some(deprecated_at) => (
                Severity::Note,
                format!(
                    "new {}: the change deprecates this module's own items (`#[deprecated]` at \
                     line {deprecated_at}), whose uses here it keeps quiet",
                    judged.what
                ),
            ),
            None => match runner_rules_in_uncollected_test(context, language, judged) {
                Some(why) => (
                    Severity::Note,
                    format!(
                        "new {} in a file the runner does not collect ({why}): a fixture for the \
                         runner's own tests, whose test-lint rules guard nothing in the suite",
                        judged.what
                    ),
                ),
                None if judged.severity > Severity::Warning
                    && is_type_checker(judged.tool)
                    && crate::rules::is_test_path(context.pair.path()) =>
                {
                    // Tests hand bad types in on purpose, and a type error there hides no
                    // product behaviour: shown, not blocking. Lint and test-runner
                    // suppressions in tests stay as strong as anywhere.
                    (
                        Severity::Warning,
                        format!("new {} (in test code)", judged.what),
                    )
                }
                // A module of documentation only (`//!` text, `#![doc = include_str!(..)]`,
                // the imports its intra-doc links name) runs no code the lints could judge.
                None if language == Language::Rust
                    && found
                        .statement
                        .as_ref()
                        .is_some_and(|statement| statement.local.starts_with("inner"))
                    && documentation_only(head_text) =>
                {
                    (
                        Severity::Note,
                        format!(
                            "new {}; the module holds only documentation and the imports its links name",
                            judged.what
                        ),
                    )
                }
                // Pyright honours `# type: ignore` too, as a blanket ignore: one swapped for
                // a `# pyright: ignore` on the same statement silences no more for pyright
                // (and mypy now checks the line). Shown, unless it is the same at both. Only
                // where a `# type: ignore` went: one kept beside it is replaced by nothing.
                None if judged.tool == "pyright"
                    && found.places().any(|place| {
                        let place = format!("type|{place}");
                        let had = base_by_place.get(&place).map_or(0, |cover| cover.count);
                        had > head_at_place.get(&place).copied().unwrap_or(0)
                    }) =>
                {
                    (
                        judged.severity.min(Severity::Warning),
                        format!(
                            "new {} (it replaces a `# type: ignore` there, which pyright honours as well)",
                            judged.what
                        ),
                    )
                }
                None => (judged.severity, format!("new {}", judged.what)),
            },
        };
        out.candidates.push(Candidate {
            side: Side::Head,
            line,
            end_line: line,
            severity,
            message,
            key: format!("suppression:{}", found.key),
            moved: Some(Moved {
                family: language.family(),
                key: found.line.clone(),
                already: FactRef::base(LEFT),
                also,
                print: None,
                likely: Vec::new(),
                existed: None,
            }),
            confidence: crate::finding::Confidence::Certain,
        });
    }
}

/// Why the runner does not collect this test-named file, when the suppression names only a
/// test runner's lint rules (`eslint-disable jest/no-focused-tests` beside the `test.only` of
/// jest's own `e2e/collect-tests/__tests__` fixture): those rules guard the suite, which this
/// file is not part of.
fn runner_rules_in_uncollected_test(
    context: &FileContext<'_>,
    language: Language,
    judged: &Judged,
) -> Option<String> {
    const RUNNER_PLUGINS: &[&str] = &["jest/", "vitest/", "mocha/", "playwright/", "jasmine/"];
    let codes = judged.codes.as_ref()?;
    let only_runner_rules = !codes.is_empty()
        && codes
            .iter()
            .all(|code| RUNNER_PLUGINS.iter().any(|plugin| code.starts_with(plugin)));
    if judged.tool != "eslint" || !only_runner_rules {
        return None;
    }
    crate::rules::focused_test::uncollected_test_file(context, language)
}

/// A Rust `allow(deprecated)` (naming no other lint) in a file where the change adds a
/// `#[deprecated]` attribute: the crate deprecates its own items and keeps their uses in the
/// defining module from warning (axum's `Host`, `Form`). The first such line, when so.
fn own_deprecation(context: &FileContext<'_>, language: Language, judged: &Judged) -> Option<u32> {
    if language != Language::Rust {
        return None;
    }
    let codes = judged.codes.as_ref()?;
    if codes.len() != 1 || !codes.contains("deprecated") {
        return None;
    }
    let head = context.side(Side::Head)?;
    head.text
        .lines()
        .enumerate()
        .filter_map(|(index, line)| Some((u32::try_from(index + 1).ok()?, line)))
        .find(|(number, line)| {
            line.trim_start().starts_with("#[deprecated") && context.pair.added.contains(*number)
        })
        .map(|(number, _)| number)
}

/// Whether base already silenced, at one of the suppression's places and with a tool that
/// covers it, at least what head silences there (`codes`) and at least as strongly; or a
/// rule was renamed there, naming no more codes than before.
fn covered(
    base_by_place: &HashMap<String, Cover>,
    found: &Found<'_>,
    judged: &Judged,
    codes: Option<&BTreeSet<String>>,
) -> bool {
    covering(judged.tool).iter().any(|tool| {
        found.places().any(|place| {
            let Some(cover) = base_by_place.get(&format!("{tool}|{place}")) else {
                return false;
            };
            let narrower = match (&cover.codes, codes) {
                (None, _) => true,
                (Some(base), Some(head)) => head.is_subset(base),
                (Some(_), None) => false,
            };
            let renamed = *tool == judged.tool && code_count(codes) <= cover.widest;
            cover.severity >= judged.severity && (narrower || renamed)
        })
    })
}

/// Whether a Rust module's source is only documentation: doc and plain comments, attributes
/// and `use` declarations (which intra-doc links need), no item that compiles to code.
fn documentation_only(text: &str) -> bool {
    let mut in_use = false;
    let mut uses = 0;
    for line in text.lines().map(str::trim) {
        if in_use {
            in_use = !line.ends_with(';');
            continue;
        }
        if line.is_empty() || line.starts_with("//") || line.starts_with("#![") {
            continue;
        }
        if line.starts_with("use ") || line.starts_with("pub use ") {
            uses += 1;
            in_use = !line.ends_with(';');
            continue;
        }
        return false;
    }
    uses > 0 || text.contains("#![doc")
}

/// A Python line suppression (`# noqa`, `# type: ignore`, `# pyright: ignore`) in a comment
/// with no code before it on its line silences nothing: those tools read them at the end of
/// a code line only. That is also the case for a suppression inside commented-out code
/// (`#     x = f()  # type: ignore`). Not `# type: ignore` before the module's first
/// statement (mypy then skips the whole file), nor file-wide or block directives (`# ruff:
/// noqa`, `# pylint: disable=..`, `# mypy: ignore-errors`).
fn silences_nothing(text: &str, found: &Found<'_>) -> bool {
    let start = found.found.byte_range.start;
    let line_start = text[..start.min(text.len())]
        .rfind('\n')
        .map_or(0, |at| at + 1);
    let code_before = !text[line_start..start.min(text.len())].trim().is_empty();
    if code_before {
        return false;
    }
    static LINE_ONLY: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(line_only) = regex(&LINE_ONLY, r"(?i)#\s*(noqa\b|(type|pyright)\s*:\s*ignore)") else {
        return false;
    };
    let file_wide = regex(
        &FILE_WIDE,
        r"(?i)#\s*((flake8|ruff)\s*:\s*noqa|pylint\s*:|mypy\s*:)",
    )
    .is_some_and(|file_wide| file_wide.is_match(found.text));
    if file_wide || !line_only.is_match(found.text) {
        return false;
    }
    // `# type: ignore` before any statement ignores the whole module.
    let before_first_statement = text[..line_start]
        .lines()
        .all(|line| line.trim().is_empty() || line.trim_start().starts_with('#'));
    let type_ignore = found.text.contains("type") && found.text.contains("ignore");
    !(type_ignore && before_first_statement)
}

static FILE_WIDE: OnceLock<Option<Regex>> = OnceLock::new();

/// The suppression silences a type checker (mypy, pyright, pyre, TypeScript), not a linter.
fn is_type_checker(tool: &str) -> bool {
    matches!(tool, "type" | "pyright" | "mypy" | "pyre" | "@ts-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_codes_are_keyed_under_every_combination() {
        let codes: BTreeSet<String> = ["a", "b", "c"].map(String::from).into();
        let keys = silenced_keys("allow|s", Some(&codes));
        assert_eq!(keys.len(), 7);
        assert!(keys.contains(&"allow|s|a,c".to_string()));
        assert_eq!(silenced_keys("type|s", None), ["type|s|*"]);
        let many: BTreeSet<String> = (0..8).map(|code| format!("c{code}")).collect();
        assert_eq!(silenced_keys("noqa|s", Some(&many)).len(), 9);
    }
}
