//! `commented-out-validation`: an assertion, raise/throw, guard clause, validation call or test
//! turned into a comment.
//!
//! tree-sitter is the judge, not a regex: the text of each new comment run (markers removed,
//! consecutive lines joined) is parsed on its own with the file's grammar. Prose parses with
//! errors; code parses cleanly, and the `commented-out-validation` query then looks for the
//! validation shapes in that small tree. A cheap keyword test runs first so most comments are
//! never parsed.

use super::comments::{self, Group};
use super::context::{Candidate, FileContext, Output};
use super::declare_rule;
use super::markers::shorten;
use crate::changeset::FilePair;
use crate::finding::{Severity, Side};
use crate::lang::{self, Language};
use crate::query;
use std::collections::HashSet;

declare_rule! {
    /// ## What it flags
    /// A comment added by the change whose text, with the comment markers removed, is
    /// validation code in the file's own language:
    ///
    /// - an assertion: `assert x`, `self.assertEqual(..)`, `expect(x).toBe(..)`, `assert.equal(..)`,
    ///   `assert!`/`assert_eq!`/`debug_assert!`;
    /// - a `raise`/`throw`/`panic!`/`bail!`/`ensure!`/`return Err(..)`;
    /// - a guard clause: `if not valid: return ..`, `if (!user) return res.status(401)`,
    ///   `if !ok { return Err(..) }`, and Rust `?` propagation lines;
    /// - a call whose name says it checks: `validate*`, `verify*`, `check*`, `ensure*`,
    ///   `authorize*`, `authenticate*`, `require*` (not JavaScript's `require(..)` import),
    ///   `sanitize*`, `assert*`;
    /// - a test: `it(..)`/`test(..)`/`describe(..)` and their variants, `def test_*`, `#[test]`.
    ///
    /// Consecutive `//` or `#` lines are read together, so a statement commented out over
    /// several lines is recognised, and so is a `/* ... */` block. When the comment run does not
    /// parse as a whole (prose around the code), each line is tried on its own.
    ///
    /// Code kept from running without a line comment counts too, when the change adds only the
    /// wrapper around lines that ran in base: `/*` and `*/` lines around a guard, a Python
    /// string statement (`"""` lines of their own) around it, or a new `if False:` /
    /// `if (false) {` / `if false {` branch that the guard was moved under.
    ///
    /// A validation call that the change removes and replaces, in the same hunk, by a cast of
    /// the value it checked is an error too: `schema.parse(body)` → `body as Order` (or
    /// `<Order>body`, `body as unknown as Order`), `validateOrder(x)` → `x as Order`,
    /// `Order.model_validate(data)` or `Order(**data)` → `cast(Order, data)`. The type checker
    /// now trusts what nothing checks.
    ///
    /// It is an error when the change removed the same statement in the same hunk (the code was
    /// turned into a comment), or wrapped lines that ran in base; a warning otherwise (a new
    /// docstring example or dead branch that stopped nothing is not reported).
    /// ## Why it matters
    /// Commenting a check out keeps the code compiling and the tests green while the check no
    /// longer happens, and the diff reads like a harmless comment.
    /// ## Example
    /// Fires as an error (base had the statement on that line):
    ///
    /// ```python
    /// def withdraw(account, amount):
    ///     # if amount > account.balance:
    ///     #     raise InsufficientFunds(amount)
    ///     account.balance -= amount
    /// ```
    ///
    /// Fires: `expect(total).toBe(42)` becomes `// expect(total).toBe(42)`;
    /// `ensure_authorized(&user)?;` becomes `// ensure_authorized(&user)?;`.
    /// ## Not flagged
    /// - Prose that mentions the words (`# assert that the cache is warm`, `// throw if invalid`):
    ///   it does not parse as code.
    /// - Commented-out logging or prints (`# print(x)`, `// console.log(x)`), and other code
    ///   that is not validation.
    /// - Doc comments (`///`, `//!`, `/** */`) and their examples, Python doctest (`>>>`) lines,
    ///   license headers, trailing comments after code on the same line.
    /// - Comments that already existed in base (moved or re-indented), `TODO: validate(x)` notes.
    /// - A cast beside a validation that still runs (`schema.parse(x) as Order`), a cast of a
    ///   value parsed from text (`JSON.parse(text)` → `text as Order`) and a cast of another
    ///   value than the one the removed call checked.
    /// ## Configuration
    /// `rules.commented-out-validation.severity` in `.integrity-gate.yml`; a deliberate comment
    /// that already exists in base can carry
    /// `# integrity-gate: allow commented-out-validation -- <reason>` on the line above.
    pub static COMMENTED_OUT_VALIDATION = {
        id: "commented-out-validation",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "an assertion, raise/throw, guard or validation call is commented out, or validation made a cast",
        maturity: Stable,
        check: Some(check),
    }
}

/// Words one of which any validation snippet contains; comments without them are not parsed.
const KEYWORDS: &[&str] = &[
    "assert", "expect", "raise", "throw", "panic", "bail", "ensure", "err(", "return", "?",
    "valid", "verif", "check", "authori", "authent", "requir", "sanitiz", "it(", "it.", "it[",
    "test", "describe", "context", "suite", "specify",
];

/// One validation shape found in a comment run, in text-line indexes of the run.
struct Hit {
    first: usize,
    last: usize,
    kind: String,
    text: String,
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    super::validation_cast::check(context, language, out);
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    if context.pair.added.is_empty() {
        return;
    }
    let base_lines: HashSet<&str> = context
        .side(Side::Base)
        .map(|base| base.text.lines().map(str::trim).collect())
        .unwrap_or_default();
    let all = comments::collect(context, Side::Head);
    let mut runs: Vec<Run> = comments::groups(&all, head.text)
        .into_iter()
        .map(|group| {
            let wrap = if group.block {
                Wrap::BlockComment
            } else {
                Wrap::Comments
            };
            let fences = match (wrap, group.lines.first(), group.lines.last()) {
                (Wrap::BlockComment, Some(first), Some(last)) if first != last => {
                    vec![*first, *last]
                }
                _ => Vec::new(),
            };
            Run {
                group,
                wrap,
                fences,
            }
        })
        .collect();
    runs.extend(wrapped_code(context, head.text, language));
    for Run {
        group,
        wrap,
        fences,
    } in runs
    {
        // New lines around old ones (`/*` and `*/`, `"""`, `if False:`) stop them running:
        // every line inside counts as new, unless the hunk only rewrote a fence that was there.
        let wrapping = !fences.is_empty()
            && fences.iter().all(|line| context.is_added_line(*line))
            && !fences.iter().any(|line| {
                removed_in_hunk(context.pair, *line)
                    .iter()
                    .any(|removed| is_fence(removed.trim(), wrap))
            });
        // Only comment lines the change added and that base did not already have (a comment
        // moved or re-indented is not new).
        // Code put in a string or a dead branch is new there even where base had the line:
        // it was re-indented into place.
        let fresh = |index: usize| {
            (wrapping
                && (matches!(wrap, Wrap::String | Wrap::DeadBranch)
                    || !context.is_added_line(group.lines[index])))
                || (context.is_added_line(group.lines[index])
                    && !base_lines.contains(group.raw[index].as_str()))
        };
        if !(0..group.lines.len()).any(fresh) {
            continue;
        }
        let joined = group.text.join("\n").to_ascii_lowercase();
        if !KEYWORDS.iter().any(|word| joined.contains(word)) {
            continue;
        }
        for hit in find(language, &group) {
            if !(hit.first..=hit.last).any(fresh) {
                continue;
            }
            let line = group.lines[hit.first];
            let end_line = group.lines[hit.last];
            let statement = shorten(group.text[hit.first].trim(), 80);
            let anchor = (hit.first..=hit.last)
                .find(|index| fresh(*index))
                .unwrap_or(hit.first);
            let removed = removed_in_hunk(context.pair, group.lines[anchor]);
            if edits_a_commented_statement(&removed, &group.text[hit.first]) {
                continue;
            }
            // Unchanged lines that a new fence wraps were code in base.
            let wrapped_unchanged = wrapping
                && (hit.first..=hit.last).any(|index| !context.is_added_line(group.lines[index]));
            // Code re-indented into a string or a dead branch: its first line must be one the
            // hunk removed (a lone `)` removed nearby says nothing).
            let removed_here = wrapped_unchanged
                || if matches!(wrap, Wrap::String | Wrap::DeadBranch) {
                    let first = normalize(&group.text[hit.first]);
                    removed.iter().any(|line| normalize(line) == first)
                } else {
                    turned_into_comment(&removed, &group, &hit)
                };
            // A new docstring with an example, a new dead branch: nothing that ran stopped.
            if !removed_here && matches!(wrap, Wrap::String | Wrap::DeadBranch) {
                continue;
            }
            let (severity, message) = if removed_here {
                (
                    Severity::Error,
                    format!("{} `{statement}` {}", hit.kind, wrap.verb()),
                )
            } else {
                (
                    Severity::Warning,
                    format!(
                        "new comment holds a commented-out {}: `{statement}`",
                        hit.kind
                    ),
                )
            };
            out.candidates.push(Candidate {
                side: Side::Head,
                line,
                end_line,
                severity,
                message,
                key: format!("commented:{}", normalize(&hit.text)),
                moved: None,
                confidence: crate::finding::Confidence::Certain,
            });
        }
    }
}

/// How lines of code stopped running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wrap {
    /// `//` or `#` line comments.
    Comments,
    /// One `/* ... */` comment.
    BlockComment,
    /// A Python string statement (`"""` ... `"""`), which is evaluated and thrown away.
    String,
    /// A branch that never runs: `if False:`, `if (false) {`, `if false {`.
    DeadBranch,
}

impl Wrap {
    fn verb(self) -> &'static str {
        match self {
            Wrap::Comments => "was turned into a comment",
            Wrap::BlockComment => "was wrapped in a block comment",
            Wrap::String => "was wrapped in a string statement, which never runs",
            Wrap::DeadBranch => "was put under a condition that is always false",
        }
    }
}

/// Lines read as one piece of would-be code, with how they are kept from running and the
/// lines of the wrapper around them (empty for line comments).
struct Run {
    group: Group,
    wrap: Wrap,
    fences: Vec<u32>,
}

/// Whether a removed base line was a wrapper of the same kind (the hunk rewrote a fence that
/// was there: `'''` → `"""`).
fn is_fence(line: &str, wrap: Wrap) -> bool {
    match wrap {
        Wrap::BlockComment => line.starts_with("/*") || line.ends_with("*/"),
        Wrap::String => line.ends_with("\"\"\"") || line.ends_with("\'\'\'"),
        Wrap::DeadBranch => always_false(line).is_some(),
        Wrap::Comments => false,
    }
}

/// The condition of a line that opens a branch that never runs: `if False:`, `if 0:`,
/// `if (false) {`, `if false {`.
fn always_false(line: &str) -> Option<&str> {
    let trimmed = line.trim();
    [
        "if False:",
        "if 0:",
        "if (false) {",
        "if (0) {",
        "if false {",
    ]
    .into_iter()
    .find(|opener| trimmed == *opener)
}

/// Code the change wrapped so that it never runs, other than in comments: a Python string
/// statement whose quotes stand on lines of their own, and the body of a new `if False:` (or
/// `if (false) {`, `if false {`) branch. Found from the added lines, so the cost follows the
/// change.
fn wrapped_code(context: &FileContext<'_>, text: &str, language: Language) -> Vec<Run> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut runs = Vec::new();
    let mut last_end = 0u32;
    for line in context.pair.added.iter() {
        if line <= last_end {
            continue;
        }
        let Some(opener) = lines.get(line as usize - 1) else {
            continue;
        };
        let trimmed = opener.trim();
        let quote = ["\"\"\"", "\'\'\'"]
            .into_iter()
            .find(|quote| language == Language::Python && trimmed == *quote);
        let (wrap, body, end) = if let Some(quote) = quote {
            // The closing quotes alone on a later line; at most a few hundred lines on.
            let Some(offset) = lines
                .iter()
                .skip(line as usize)
                .take(400)
                .position(|other| other.trim() == quote)
            else {
                continue;
            };
            let end = line + 1 + offset as u32;
            // The tree says whether the quotes open a string statement that ends there: the
            // closing quotes of a new docstring are followed by code, not wrapped around it.
            if !string_statement(context, line, indent(opener), end) {
                continue;
            }
            (Wrap::String, (line + 1)..end, end)
        } else if always_false(trimmed).is_some() {
            let depth = indent(opener);
            let body_end =
                if language == Language::Python {
                    lines
                        .iter()
                        .enumerate()
                        .skip(line as usize)
                        .take(400)
                        .find(|(_, other)| !other.trim().is_empty() && indent(other) <= depth)
                        .map_or(lines.len(), |(at, _)| at)
                } else {
                    match lines.iter().enumerate().skip(line as usize).take(400).find(
                        |(_, other)| indent(other) == depth && other.trim_start().starts_with('}'),
                    ) {
                        Some((at, _)) => at,
                        None => continue,
                    }
                } as u32;
            let end = if language == Language::Python {
                body_end
            } else {
                body_end + 1
            };
            (Wrap::DeadBranch, (line + 1)..(body_end + 1), end)
        } else {
            continue;
        };
        if body.is_empty() {
            continue;
        }
        last_end = end;
        let numbers: Vec<u32> = body.clone().collect();
        let text: Vec<String> = numbers
            .iter()
            .map(|at| {
                lines
                    .get(*at as usize - 1)
                    .copied()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        let raw: Vec<String> = text.iter().map(|line| line.trim().to_string()).collect();
        let fences = match wrap {
            Wrap::String => vec![line, end],
            _ => vec![line],
        };
        runs.push(Run {
            group: Group {
                lines: numbers,
                text,
                raw,
                block: false,
            },
            wrap,
            fences,
        });
    }
    runs
}

/// Whether head's syntax tree has a string statement (an expression statement that is only a
/// string) starting on 1-based `line` at `column` and ending on `end`.
fn string_statement(context: &FileContext<'_>, line: u32, column: usize, end: u32) -> bool {
    let Some(parsed) = context.parsed(Side::Head) else {
        return false;
    };
    let at = tree_sitter::Point {
        row: line as usize - 1,
        column,
    };
    let Some(mut node) = parsed.tree.root_node().descendant_for_point_range(at, at) else {
        return false;
    };
    // Up from the quote token to the string (a few levels: string_start, string).
    for _ in 0..4 {
        if node.kind() == "string" {
            break;
        }
        match node.parent() {
            Some(parent) => node = parent,
            None => return false,
        }
    }
    node.kind() == "string"
        && node.start_position().row == at.row
        && node.end_position().row + 1 == end as usize
        && node.parent().is_some_and(|parent| {
            parent.kind() == "expression_statement" && parent.named_child_count() == 1
        })
}

/// The validation shapes in a comment run: the whole run parsed at once when it is code, else
/// each line that is code on its own. Nested shapes are reported once, by the outermost.
fn find(language: Language, group: &Group) -> Vec<Hit> {
    let texts: Vec<&str> = group
        .text
        .iter()
        .map(String::as_str)
        .map(|line| {
            if is_doctest(line) || is_bullet(line) {
                ""
            } else {
                line
            }
        })
        .collect();
    if let Some(hits) = parse_hits(language, &texts, 0) {
        return hits;
    }
    let mut hits = Vec::new();
    for (index, line) in texts.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(found) = parse_hits(language, &[line], index) {
            hits.extend(found);
        }
    }
    hits
}

/// `- check(x)`, `* ensure(y)`: an item of a list in prose, which would parse as arithmetic.
fn is_bullet(line: &str) -> bool {
    let trimmed = line.trim_start();
    ["- ", "* ", "+ "]
        .iter()
        .any(|bullet| trimmed.starts_with(bullet))
}

/// `>>> assert x` is a doctest example.
fn is_doctest(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.starts_with(">>>")
}

/// Parses `lines` as code; `None` when it does not parse cleanly (prose), else its validation
/// shapes with line indexes shifted by `offset`.
fn parse_hits(language: Language, lines: &[&str], offset: usize) -> Option<Vec<Hit>> {
    if lines.iter().all(|line| line.trim().is_empty()) {
        return None;
    }
    let (source, prefix_lines) = snippet(language, lines);
    let parsed = lang::parse(language, source).ok()?;
    if parsed.error_count > 0 {
        return None;
    }
    let compiled = query::compiled(language, "commented-out-validation")?;
    let matches = query::run(compiled, &parsed, language);
    let root = parsed.tree.root_node();
    let mut ranges: Vec<(std::ops::Range<usize>, Hit)> = Vec::new();
    for found in &matches {
        let Some(node) =
            root.descendant_for_byte_range(found.byte_range.start, found.byte_range.end)
        else {
            continue;
        };
        if in_annotation_or_label(node, language) {
            continue;
        }
        let kind = describe(found.property("kind").unwrap_or_default());
        let first = found.line.saturating_sub(1 + prefix_lines) as usize + offset;
        let last = found.end_line.saturating_sub(1 + prefix_lines) as usize + offset;
        let text = parsed
            .text
            .get(found.byte_range.clone())
            .unwrap_or_default()
            .to_string();
        ranges.push((
            found.byte_range.clone(),
            Hit {
                first,
                last: last.min(offset + lines.len() - 1),
                kind: kind.to_string(),
                text,
            },
        ));
    }
    ranges.sort_by_key(|(range, _)| (range.start, std::cmp::Reverse(range.end)));
    let mut hits: Vec<Hit> = Vec::new();
    let mut covered: Option<std::ops::Range<usize>> = None;
    for (range, hit) in ranges {
        if covered
            .as_ref()
            .is_some_and(|outer| outer.start <= range.start && range.end <= outer.end)
        {
            continue;
        }
        covered = Some(range);
        hits.push(hit);
    }
    Some(hits)
}

/// The text to parse: Python dedented (indentation is syntax), Rust wrapped in a function body
/// (statements are not items), JavaScript as is. Returns the number of wrapper lines in front.
fn snippet(language: Language, lines: &[&str]) -> (String, u32) {
    match language {
        Language::Python => {
            let indent = lines
                .iter()
                .filter(|line| !line.trim().is_empty())
                .map(|line| line.len() - line.trim_start().len())
                .min()
                .unwrap_or(0);
            let body: Vec<&str> = lines
                .iter()
                .map(|line| line.get(indent..).unwrap_or_else(|| line.trim_start()))
                .collect();
            (format!("{}\n", body.join("\n")), 0)
        }
        Language::Rust => (
            format!(
                "fn __integrity_gate_snippet() {{\n{}\n}}\n",
                lines.join("\n")
            ),
            1,
        ),
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            (format!("{}\n", lines.join("\n")), 0)
        }
    }
}

/// Code-shaped prose: `TODO: validate(x)` parses as a Python annotation or a JavaScript label.
fn in_annotation_or_label(node: tree_sitter::Node<'_>, language: Language) -> bool {
    let mut current = Some(node);
    while let Some(ancestor) = current {
        match (language, ancestor.kind()) {
            (Language::Python, "type") => return true,
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "labeled_statement") => {
                let body_is_loop = ancestor.child_by_field_name("body").is_some_and(|body| {
                    matches!(
                        body.kind(),
                        "for_statement"
                            | "for_in_statement"
                            | "while_statement"
                            | "do_statement"
                            | "statement_block"
                    )
                });
                if !body_is_loop {
                    return true;
                }
            }
            _ => {}
        }
        current = ancestor.parent();
    }
    false
}

fn describe(kind: &str) -> &'static str {
    match kind {
        "assertion" => "assertion",
        "raise" => "raise/throw",
        "guard" => "guard clause",
        "check-call" => "validation call",
        "propagation" => "error propagation (`?`)",
        "test" => "test",
        _ => "validation",
    }
}

/// The base lines (text) that the hunk adding head line `head_line` removed.
fn removed_in_hunk(pair: &FilePair, head_line: u32) -> Vec<&str> {
    let Some(base) = pair.base.text() else {
        return Vec::new();
    };
    let base_lines: Vec<&str> = base.lines().collect();
    hunk_removed(pair, head_line, base_lines.len())
        .into_iter()
        .filter_map(|line| base_lines.get(line as usize - 1).copied())
        .collect()
}

/// Whether the change removed the same statement in the hunk that added this comment.
fn turned_into_comment(removed: &[&str], group: &Group, hit: &Hit) -> bool {
    let removed: HashSet<String> = removed
        .iter()
        .map(|line| normalize(line))
        .filter(|line| !line.is_empty())
        .collect();
    if removed.is_empty() {
        return false;
    }
    (hit.first..=hit.last).any(|index| {
        let code = normalize(&group.text[index]);
        !code.is_empty() && removed.contains(&code)
    })
}

/// An edit of a statement that was already commented out: the hunk removed a comment line that
/// starts with the same callee or keyword (`// util.assertEqual<A>(..)` rewritten).
fn edits_a_commented_statement(removed: &[&str], line: &str) -> bool {
    let word = leading_word(line);
    if word.is_empty() {
        return false;
    }
    removed.iter().any(|removed| {
        let trimmed = removed.trim_start();
        let uncommented = trimmed
            .strip_prefix("//")
            .or_else(|| trimmed.strip_prefix('#'))
            .or_else(|| trimmed.strip_prefix("/*"))
            .or_else(|| trimmed.strip_prefix('*'));
        uncommented.is_some_and(|text| leading_word(text) == word)
    })
}

/// `util.assertEqual` of `util.assertEqual<A, B>(true)`, `assert` of `assert x == 1`.
fn leading_word(text: &str) -> &str {
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '!' | '$')))
        .unwrap_or(text.len());
    &text[..end]
}

/// Base lines removed by the hunk that added head line `head_line`. With zero context lines,
/// unchanged lines pair up in order, so the hunk's removed lines are those between the base
/// partners of the unchanged head lines around `head_line`.
pub(super) fn hunk_removed(pair: &FilePair, head_line: u32, base_len: usize) -> Vec<u32> {
    let unchanged_before = (1..head_line)
        .filter(|line| !pair.added.contains(*line))
        .count();
    let mut seen = 0;
    let mut out = Vec::new();
    for line in 1..=base_len as u32 {
        if pair.removed.contains(line) {
            if seen == unchanged_before {
                out.push(line);
            }
        } else {
            seen += 1;
            if seen > unchanged_before {
                break;
            }
        }
    }
    out
}

fn normalize(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(language: Language, text: &str) -> Vec<String> {
        let group = Group {
            lines: (1..=text.lines().count() as u32).collect(),
            text: text.lines().map(str::to_string).collect(),
            raw: text.lines().map(str::to_string).collect(),
            block: false,
        };
        find(language, &group)
            .into_iter()
            .map(|hit| hit.kind)
            .collect()
    }

    #[test]
    fn code_is_found_and_prose_is_not() {
        assert_eq!(
            kinds(Language::Python, " assert user.active"),
            ["assertion"]
        );
        assert_eq!(
            kinds(Language::Python, " assert that the cache is warm"),
            Vec::<String>::new()
        );
        assert_eq!(
            kinds(Language::Python, " if not valid:\n     raise Invalid()"),
            ["guard clause"]
        );
        assert_eq!(
            kinds(Language::Python, " TODO: validate(x)"),
            Vec::<String>::new()
        );
        assert_eq!(kinds(Language::Python, " print(x)"), Vec::<String>::new());
        assert_eq!(
            kinds(Language::JavaScript, " expect(a).toBe(1)"),
            ["assertion"]
        );
        assert_eq!(
            kinds(Language::JavaScript, " throw if invalid"),
            Vec::<String>::new()
        );
        assert_eq!(
            kinds(Language::JavaScript, " const fs = require('fs')"),
            Vec::<String>::new()
        );
        assert_eq!(
            kinds(Language::JavaScript, " TODO: validate(x)"),
            Vec::<String>::new()
        );
        assert_eq!(kinds(Language::Rust, " assert_eq!(a, b);"), ["assertion"]);
        assert_eq!(
            kinds(Language::Rust, " let v = parse(s)?;"),
            ["error propagation (`?`)"]
        );
        assert_eq!(
            kinds(Language::Rust, " panic if the value is bad"),
            Vec::<String>::new()
        );
        assert_eq!(
            kinds(
                Language::Rust,
                " Explain the thing\n if !ok { return Err(e); }"
            ),
            ["guard clause"]
        );
    }

    #[test]
    fn hunk_removed_lines_pair_with_added_lines() {
        let pair = FilePair::new(
            crate::changeset::Status::Modified,
            Some("a.py".into()),
            Some("a.py".into()),
            crate::changeset::Content::Text("a\nassert x\nb\nc\nassert y\n".into()),
            crate::changeset::Content::Text("a\n# assert x\nb\nc\n# assert y\nz\n".into()),
        );
        assert_eq!(hunk_removed(&pair, 2, 5), [2]);
        assert_eq!(hunk_removed(&pair, 5, 5), [5]);
        assert_eq!(hunk_removed(&pair, 6, 5), [5]);
    }
}
