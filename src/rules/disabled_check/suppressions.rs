//! Suppression comments and lint attributes in source files, found by the `disabled-check`
//! queries on comment and attribute nodes (so a suppression spelled inside a string literal
//! never counts) and parsed here.
//!
//! A suppression is new when head holds more copies of the same normalized text than base;
//! only copies on lines the change added are reported.

use super::Output;
use crate::finding::{Severity, Side};
use crate::lang::Language;
use crate::rules::FileContext;
use crate::rules::{Candidate, Fact, Moved};
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// One recognised suppression.
#[derive(Debug, PartialEq, Eq)]
pub struct Judged {
    /// Error for blanket or file-wide, warning for narrow, note for reasoned.
    pub severity: Severity,
    /// What it silences, for the message.
    pub what: String,
}

/// Fact name for a suppression line that left a file's base (it may reappear in another file).
const LEFT: &str = "suppression";

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
}

fn normalized(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn found_on<'m>(matches: &'m [crate::query::QueryMatch], text: &'m str) -> Vec<Found<'m>> {
    matches
        .iter()
        .map(|found| {
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
            Found {
                found,
                text: text.get(found.byte_range.clone()).unwrap_or_default(),
                key: normalized(text.get(found.byte_range.clone()).unwrap_or_default()),
                anchor,
                line: normalized(text.get(line_start..line_end).unwrap_or_default()),
            }
        })
        .collect()
}

/// Which checker a suppression silences, so replacing one tool's suppression by another's
/// (`# type: ignore` by `# pyright: ignore`) still counts as new.
fn tool(text: &str) -> &'static str {
    let lower = text.to_ascii_lowercase();
    [
        "pylint", "pyright", "nosec", "noqa", "mypy", "pyre", "type", "eslint", "@ts-", "biome",
    ]
    .into_iter()
    .find(|tool| lower.contains(tool))
    .unwrap_or("lint")
}

fn judge(language: Language, found: &Found<'_>) -> Option<Judged> {
    match language {
        Language::Python => python(found.text),
        Language::Rust => rust(found.text, found.found.property("kind") == Some("inner")),
        Language::JavaScript | Language::TypeScript | Language::Tsx => javascript(found.text),
    }
}

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    let Some(head_text) = context.side(Side::Head).map(|side| side.text) else {
        return;
    };
    let head_matches = context.matches(Side::Head, "disabled-check");
    let base_matches = context.matches(Side::Base, "disabled-check");
    let base_text = context.side(Side::Base).map_or("", |side| side.text);
    let head = found_on(&head_matches, head_text);
    let base = found_on(&base_matches, base_text);
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
    // Code that already carried a suppression in base, with its strength: rewriting
    // `# type: ignore` as `# type: ignore[code]`, or following a rule's rename
    // (`ban-types` → `no-restricted-types`), changes a suppression without adding one.
    let mut base_by_anchor: HashMap<String, Severity> = HashMap::new();
    for found in base.iter().filter(|found| found.anchor.len() > 5) {
        if let Some(judged) = judge(language, found) {
            let entry = base_by_anchor
                .entry(format!("{}|{}", tool(found.text), found.anchor))
                .or_insert(judged.severity);
            *entry = (*entry).max(judged.severity);
        }
    }
    let mut head_seen: HashMap<&str, usize> = HashMap::new();
    for found in &head {
        let seen = head_seen.entry(found.key.as_str()).or_default();
        *seen += 1;
        let line = found.found.line;
        if !context.pair.added.overlaps(line, found.found.end_line) {
            continue;
        }
        // The n-th copy in head is new only when base has fewer than n copies.
        if base_counts.get(&found.key).copied().unwrap_or(0) >= *seen {
            continue;
        }
        let Some(judged) = judge(language, found) else {
            continue;
        };
        if language == Language::Python && silences_nothing(head_text, found) {
            continue;
        }
        if base_by_anchor
            .get(&format!("{}|{}", tool(found.text), found.anchor))
            .is_some_and(|before| *before >= judged.severity)
        {
            continue;
        }
        out.candidates.push(Candidate {
            side: Side::Head,
            line,
            end_line: line,
            severity: judged.severity,
            message: format!("new {}", judged.what),
            key: format!("suppression:{}", found.key),
            moved: Some(Moved {
                family: language.family(),
                key: found.line.clone(),
                already: crate::rules::FactRef::base(LEFT),
                also: Vec::new(),
                print: None,
                existed: None,
            }),
            confidence: crate::finding::Confidence::Certain,
        });
    }
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

fn regex(cell: &'static OnceLock<Option<Regex>>, pattern: &str) -> Option<&'static Regex> {
    cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()
}

/// The comment's text without its markers.
fn comment_body(text: &str) -> &str {
    let text = text.trim();
    let text = text
        .strip_prefix("//")
        .or_else(|| text.strip_prefix("/*"))
        .unwrap_or(text);
    let text = text.strip_suffix("*/").unwrap_or(text);
    text.trim().trim_start_matches('*').trim()
}

/// JavaScript/TypeScript directive comments.
pub fn javascript(comment: &str) -> Option<Judged> {
    static ESLINT: OnceLock<Option<Regex>> = OnceLock::new();
    static INLINE_OFF: OnceLock<Option<Regex>> = OnceLock::new();
    let body = comment_body(comment);
    let error = |what: String| {
        Some(Judged {
            severity: Severity::Error,
            what,
        })
    };
    let warning = |what: String| {
        Some(Judged {
            severity: Severity::Warning,
            what,
        })
    };
    if let Some(captures) = regex(
        &ESLINT,
        r"^eslint-disable(-next-line|-line)?(?:\s+([^\n]*?))?\s*(?:--.*)?$",
    )?
    .captures(body)
    {
        let scope = captures.get(1).map(|m| m.as_str());
        let rules: Vec<&str> = captures
            .get(2)
            .map(|m| m.as_str())
            .unwrap_or_default()
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|rule| !rule.is_empty())
            .collect();
        let named = rules.join(", ");
        return match (scope, rules.is_empty()) {
            (None, true) => error(
                "`eslint-disable` turns every ESLint rule off for the rest of the file".into(),
            ),
            (None, false) => error(format!(
                "`eslint-disable {named}` turns these rules off for the rest of the file"
            )),
            (Some(scope), true) => error(format!(
                "blanket `eslint-disable{scope}` silences every ESLint rule on that line"
            )),
            (Some(scope), false) => warning(format!("`eslint-disable{scope} {named}` suppression")),
        };
    }
    if let Some(captures) = regex(
        &INLINE_OFF,
        r#"^eslint\s+(?:[\w@/-]+\s*:\s*(?:"off"|'off'|0)\s*,?\s*)+"#,
    )?
    .captures(body)
    {
        return warning(format!(
            "inline ESLint configuration switches rules off (`{}`)",
            captures
                .get(0)
                .map(|m| m.as_str().trim())
                .unwrap_or_default()
        ));
    }
    if body.starts_with("@ts-nocheck") {
        return error("`@ts-nocheck` turns type checking off for the whole file".into());
    }
    if body.starts_with("@ts-ignore") {
        return warning("`@ts-ignore` silences every type error on the next line".into());
    }
    if let Some(rest) = body.strip_prefix("@ts-expect-error") {
        let description = rest.trim_start_matches([':', '-', ' ']).trim();
        return description.is_empty().then(|| Judged {
            severity: Severity::Warning,
            what: "`@ts-expect-error` without a description".into(),
        });
    }
    if body.starts_with("biome-ignore-all") || body.starts_with("biome-ignore-start") {
        return error(format!("file-wide `{}`", first_words(body, 2)));
    }
    if body.starts_with("biome-ignore") {
        return warning(format!("`{}` suppression", first_words(body, 2)));
    }
    None
}

fn first_words(text: &str, count: usize) -> String {
    text.split_whitespace()
        .take(count)
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches(':')
        .to_string()
}

/// Python suppression comments (`# noqa`, `# type: ignore`, ...).
pub fn python(comment: &str) -> Option<Judged> {
    static FILE_NOQA: OnceLock<Option<Regex>> = OnceLock::new();
    static NOQA: OnceLock<Option<Regex>> = OnceLock::new();
    static TYPE_IGNORE: OnceLock<Option<Regex>> = OnceLock::new();
    static PYLINT: OnceLock<Option<Regex>> = OnceLock::new();
    static NOSEC: OnceLock<Option<Regex>> = OnceLock::new();
    static OTHER: OnceLock<Option<Regex>> = OnceLock::new();
    let error = |what: String| {
        Some(Judged {
            severity: Severity::Error,
            what,
        })
    };
    let warning = |what: String| {
        Some(Judged {
            severity: Severity::Warning,
            what,
        })
    };
    if let Some(found) = regex(&FILE_NOQA, r"(?i)#\s*(flake8|ruff)\s*:\s*noqa\b")?.captures(comment)
    {
        let tool = found.get(1).map(|m| m.as_str()).unwrap_or_default();
        return error(format!(
            "file-wide `# {tool}: noqa` silences the linter for the whole file"
        ));
    }
    if let Some(found) = regex(
        &NOQA,
        r"(?i)#\s*noqa\b(?:\s*:\s*([A-Z]+[0-9]*(?:\s*[,\s]\s*[A-Z]+[0-9]*)*))?",
    )?
    .captures(comment)
    {
        return match found.get(1) {
            Some(codes) => warning(format!("`# noqa: {}` suppression", codes.as_str().trim())),
            None => error("blanket `# noqa` silences every lint on that line".into()),
        };
    }
    if let Some(found) = regex(
        &TYPE_IGNORE,
        r"#\s*(type|pyright)\s*:\s*ignore\s*(\[[^\]]*\])?",
    )?
    .captures(comment)
    {
        let tool = found.get(1).map(|m| m.as_str()).unwrap_or_default();
        return match found.get(2) {
            Some(codes) => warning(format!("`# {tool}: ignore{}` suppression", codes.as_str())),
            None => error(format!(
                "blanket `# {tool}: ignore` silences every type error on that line"
            )),
        };
    }
    if let Some(found) = regex(
        &PYLINT,
        r"#\s*pylint\s*:\s*(disable(?:-next)?|skip-file)\s*(?:=\s*([\w\-, ]+))?",
    )?
    .captures(comment)
    {
        let directive = found.get(1).map(|m| m.as_str()).unwrap_or_default();
        let names = found.get(2).map(|m| m.as_str().trim()).unwrap_or_default();
        if directive == "skip-file" || names.split(',').any(|name| name.trim() == "all") {
            return error(format!(
                "`# pylint: {directive}{}` turns pylint off",
                if names.is_empty() {
                    String::new()
                } else {
                    format!("={names}")
                }
            ));
        }
        return warning(format!("`# pylint: {directive}={names}` suppression"));
    }
    if let Some(found) = regex(
        &NOSEC,
        r"#\s*nosec\b(?:\s*:?\s*([A-Z][0-9]+(?:\s*,\s*[A-Z][0-9]+)*))?",
    )?
    .captures(comment)
    {
        return match found.get(1) {
            Some(codes) => warning(format!("`# nosec {}` suppression", codes.as_str())),
            None => error("blanket `# nosec` silences every security check on that line".into()),
        };
    }
    if let Some(found) =
        regex(&OTHER, r"#\s*(mypy\s*:\s*ignore-errors|pyre-ignore-all-errors|pyre-(?:ignore|fixme)(?:\[[^\]]*\])?)")?
            .captures(comment)
    {
        let directive = found.get(1).map(|m| m.as_str()).unwrap_or_default();
        if directive.starts_with("mypy") || directive.starts_with("pyre-ignore-all") {
            return error(format!("file-wide `# {directive}` turns type checking off"));
        }
        return warning(format!("`# {directive}` suppression"));
    }
    None
}

/// Lint groups whose `allow` silences broad classes of lints at once.
const BLANKET_LINTS: &[&str] = &[
    "warnings",
    "unused",
    "nonstandard_style",
    "future_incompatible",
    "clippy::all",
    "clippy::correctness",
    "clippy::suspicious",
    "clippy::style",
    "clippy::complexity",
    "clippy::perf",
];

/// Rust `allow`/`expect` attributes; `inner` for `#![...]`.
pub fn rust(attribute: &str, inner: bool) -> Option<Judged> {
    let text: String = attribute.split_whitespace().collect::<Vec<_>>().join(" ");
    let body = text
        .trim_start_matches('#')
        .trim_start_matches('!')
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim();
    // `cfg_attr(cond, allow(..))`: judge the inner attribute.
    let body = match body.strip_prefix("cfg_attr") {
        Some(rest) => {
            let inner_start = ["allow(", "expect("]
                .iter()
                .filter_map(|name| rest.find(name))
                .min()?;
            rest[inner_start..].trim_end_matches(')').trim()
        }
        None => body,
    };
    let (kind, arguments) = if let Some(rest) = body.strip_prefix("allow") {
        ("allow", rest)
    } else if let Some(rest) = body.strip_prefix("expect") {
        ("expect", rest)
    } else {
        return None;
    };
    let arguments = arguments.trim().strip_prefix('(')?;
    let arguments = arguments.strip_suffix(')').unwrap_or(arguments);
    let has_reason = arguments.contains("reason");
    let lints: Vec<&str> = arguments
        .split(',')
        .map(str::trim)
        .filter(|lint| !lint.is_empty() && !lint.starts_with("reason"))
        .collect();
    if lints.is_empty() {
        return None;
    }
    let named = lints.join(", ");
    let attribute = format!("#{}[{kind}({named})]", if inner { "!" } else { "" });
    if kind == "expect" {
        return (!has_reason).then(|| Judged {
            severity: Severity::Warning,
            what: format!("`{attribute}` without a `reason`"),
        });
    }
    let blanket = lints.iter().any(|lint| BLANKET_LINTS.contains(lint));
    let (severity, what) = if inner {
        (
            Severity::Error,
            format!("module-wide `{attribute}` silences these lints for the whole module"),
        )
    } else if blanket {
        (
            Severity::Error,
            format!("blanket `{attribute}` silences a whole lint group"),
        )
    } else if has_reason {
        (Severity::Note, format!("`{attribute}` (with a reason)"))
    } else {
        (Severity::Warning, format!("`{attribute}` suppression"))
    };
    Some(Judged { severity, what })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn severity(judged: Option<Judged>) -> Option<Severity> {
        judged.map(|judged| judged.severity)
    }

    #[test]
    fn javascript_directives() {
        assert_eq!(
            severity(javascript("/* eslint-disable */")),
            Some(Severity::Error)
        );
        assert_eq!(
            severity(javascript("// eslint-disable-next-line")),
            Some(Severity::Error)
        );
        assert_eq!(
            severity(javascript(
                "// eslint-disable-next-line no-console -- debug"
            )),
            Some(Severity::Warning)
        );
        assert_eq!(
            severity(javascript("// @ts-expect-error: wrong upstream types")),
            None
        );
        assert_eq!(
            severity(javascript("// @ts-expect-error")),
            Some(Severity::Warning)
        );
        assert_eq!(
            severity(javascript("// we never use @ts-ignore here")),
            None
        );
        assert_eq!(
            severity(javascript("/* eslint no-console: \"off\" */")),
            Some(Severity::Warning)
        );
        assert_eq!(
            severity(javascript("/* eslint no-console: \"error\" */")),
            None
        );
    }

    #[test]
    fn python_directives() {
        assert_eq!(severity(python("# noqa")), Some(Severity::Error));
        assert_eq!(
            severity(python("# noqa: E501, F401")),
            Some(Severity::Warning)
        );
        assert_eq!(
            severity(python("# type: ignore[attr-defined]")),
            Some(Severity::Warning)
        );
        assert_eq!(severity(python("# type: ignore")), Some(Severity::Error));
        assert_eq!(severity(python("# type: int")), None);
        assert_eq!(
            severity(python("# pylint: disable=all")),
            Some(Severity::Error)
        );
        assert_eq!(severity(python("# nosec B101")), Some(Severity::Warning));
        assert_eq!(
            severity(python("# ruff: noqa: F401")),
            Some(Severity::Error)
        );
    }

    #[test]
    fn rust_attributes() {
        assert_eq!(
            severity(rust("#[allow(dead_code)]", false)),
            Some(Severity::Warning)
        );
        assert_eq!(
            severity(rust("#![allow(dead_code)]", true)),
            Some(Severity::Error)
        );
        assert_eq!(
            severity(rust("#[allow(clippy::all)]", false)),
            Some(Severity::Error)
        );
        assert_eq!(
            severity(rust("#[expect(dead_code, reason = \"x\")]", false)),
            None
        );
        assert_eq!(
            severity(rust("#[expect(dead_code)]", false)),
            Some(Severity::Warning)
        );
        assert_eq!(
            severity(rust("#[cfg_attr(test, allow(unused))]", false)),
            Some(Severity::Error)
        );
        assert_eq!(
            severity(rust("#[cfg_attr(feature = \"x\", derive(Debug))]", false)),
            None
        );
    }
}
