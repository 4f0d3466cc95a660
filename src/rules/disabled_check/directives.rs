//! Suppression directives parsed: how strong each one is and what it silences (its tool, and
//! its codes or every check of the tool), for [`super::suppressions`].

use crate::finding::Severity;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// One recognised suppression.
#[derive(Debug, PartialEq, Eq)]
pub struct Judged {
    /// Error for blanket or file-wide, warning for narrow, note for reasoned.
    pub severity: Severity,
    /// What it silences, for the message.
    pub what: String,
    /// The checker it silences (`type`, `noqa`, `eslint`; for Rust the attribute, `allow` or
    /// `expect`), so replacing one tool's suppression by another's still counts as new.
    pub tool: &'static str,
    /// The codes or lints it names; `None` when it silences every check of its tool.
    pub codes: Option<BTreeSet<String>>,
}

impl Judged {
    fn new(severity: Severity, what: String, tool: &'static str) -> Judged {
        Judged {
            severity,
            what,
            tool,
            codes: None,
        }
    }

    /// The same suppression, limited to the codes listed in `codes` (commas, spaces or
    /// brackets apart); an empty list leaves it silencing everything.
    fn naming(mut self, codes: &str) -> Judged {
        let codes: BTreeSet<String> = codes
            .split(|c: char| c == ',' || c == '[' || c == ']' || c.is_whitespace())
            .map(|code| code.trim_end_matches(':'))
            .filter(|code| !code.is_empty())
            .map(str::to_string)
            .collect();
        self.codes = (!codes.is_empty()).then_some(codes);
        self
    }
}

/// Which checker a suppression comment silences.
fn tool(text: &str) -> &'static str {
    let lower = text.to_ascii_lowercase();
    [
        "pylint", "pyright", "nosec", "noqa", "mypy", "pyre", "type", "eslint", "@ts-", "biome",
    ]
    .into_iter()
    .find(|tool| lower.contains(tool))
    .unwrap_or("lint")
}

pub(super) fn regex(
    cell: &'static OnceLock<Option<Regex>>,
    pattern: &str,
) -> Option<&'static Regex> {
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
    let error = |what: String| Some(Judged::new(Severity::Error, what, tool(comment)));
    let warning = |what: String| Some(Judged::new(Severity::Warning, what, tool(comment)));
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
            ))
            .map(|judged| judged.naming(&named)),
            (Some(scope), true) => error(format!(
                "blanket `eslint-disable{scope}` silences every ESLint rule on that line"
            )),
            (Some(scope), false) => warning(format!("`eslint-disable{scope} {named}` suppression"))
                .map(|judged| judged.naming(&named)),
        };
    }
    if let Some(captures) = regex(
        &INLINE_OFF,
        r#"^eslint\s+(?:[\w@/-]+\s*:\s*(?:"off"|'off'|0)\s*,?\s*)+"#,
    )?
    .captures(body)
    {
        let setting = captures
            .get(0)
            .map(|m| m.as_str().trim())
            .unwrap_or_default();
        let rules: Vec<&str> = setting
            .split(',')
            .filter_map(|pair| pair.split(':').next())
            .map(|rule| rule.trim_start_matches("eslint").trim())
            .collect();
        return warning(format!(
            "inline ESLint configuration switches rules off (`{setting}`)"
        ))
        .map(|judged| judged.naming(&rules.join(",")));
    }
    if body.starts_with("@ts-nocheck") {
        return error("`@ts-nocheck` turns type checking off for the whole file".into());
    }
    if body.starts_with("@ts-ignore") {
        return warning("`@ts-ignore` silences every type error on the next line".into());
    }
    if let Some(rest) = body.strip_prefix("@ts-expect-error") {
        let description = rest.trim_start_matches([':', '-', ' ']).trim();
        return description.is_empty().then(|| {
            Judged::new(
                Severity::Warning,
                "`@ts-expect-error` without a description".into(),
                tool(comment),
            )
        });
    }
    if body.starts_with("biome-ignore-all") || body.starts_with("biome-ignore-start") {
        return error(format!("file-wide `{}`", first_words(body, 2)));
    }
    if body.starts_with("biome-ignore") {
        let words = first_words(body, 2);
        let rule = words.split_whitespace().nth(1).unwrap_or_default();
        return warning(format!("`{words}` suppression")).map(|judged| judged.naming(rule));
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
    let error = |what: String| Some(Judged::new(Severity::Error, what, tool(comment)));
    let warning = |what: String| Some(Judged::new(Severity::Warning, what, tool(comment)));
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
            Some(codes) => warning(format!("`# noqa: {}` suppression", codes.as_str().trim()))
                .map(|judged| judged.naming(codes.as_str())),
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
            Some(codes) => warning(format!("`# {tool}: ignore{}` suppression", codes.as_str()))
                .map(|judged| judged.naming(codes.as_str())),
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
        return warning(format!("`# pylint: {directive}={names}` suppression"))
            .map(|judged| judged.naming(names));
    }
    if let Some(found) = regex(
        &NOSEC,
        r"#\s*nosec\b(?:\s*:?\s*([A-Z][0-9]+(?:\s*,\s*[A-Z][0-9]+)*))?",
    )?
    .captures(comment)
    {
        return match found.get(1) {
            Some(codes) => warning(format!("`# nosec {}` suppression", codes.as_str()))
                .map(|judged| judged.naming(codes.as_str())),
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
        let codes = directive.split_once('[').map_or("", |(_, codes)| codes);
        return warning(format!("`# {directive}` suppression")).map(|judged| judged.naming(codes));
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

/// Lints about unused code, naming and documentation style, never about a wrong result.
const HYGIENE_LINTS: &[&str] = &[
    "unused",
    "dead_code",
    "unused_imports",
    "unused_variables",
    "unused_macros",
    "unused_mut",
    "unused_assignments",
    "nonstandard_style",
    "non_snake_case",
    "non_camel_case_types",
    "non_upper_case_globals",
    "missing_docs",
    "clippy::needless_doctest_main",
    "clippy::module_name_repetitions",
    "clippy::too_many_arguments",
    "clippy::type_complexity",
    "clippy::style",
];

/// Rust source without its comments (`clippy::a, // why` inside an attribute), string
/// literals kept whole (a `reason` may hold a URL).
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        match (in_string, c, chars.peek()) {
            (true, '\\', _) => {
                out.push(c);
                out.extend(chars.next());
                continue;
            }
            (_, '"', _) => in_string = !in_string,
            (false, '/', Some('/')) => {
                chars.by_ref().find(|&c| c == '\n');
                out.push('\n');
                continue;
            }
            (false, '/', Some('*')) => {
                chars.next();
                let mut previous = ' ';
                chars.by_ref().find(|&c| {
                    let end = previous == '*' && c == '/';
                    previous = c;
                    end
                });
                out.push(' ');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// Rust `allow`/`expect` attributes; `inner` for `#![...]`.
pub fn rust(attribute: &str, inner: bool) -> Option<Judged> {
    let text: String = without_comments(attribute)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
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
        return (!has_reason).then(|| {
            Judged::new(
                Severity::Warning,
                format!("`{attribute}` without a `reason`"),
                kind,
            )
            .naming(&named)
        });
    }
    let blanket = lints.iter().any(|lint| BLANKET_LINTS.contains(lint));
    // Lints about unused code, names and style: silencing them hides no wrong result
    // (zellij 828a1508 `#![allow(dead_code)]` in new test mocks, tracing 3825a50c
    // `#[allow(unused)]` on a test's shadowing macro, fd e9fe3379 on a unix-only field).
    let hygiene_only = lints.iter().all(|lint| HYGIENE_LINTS.contains(lint));
    let (severity, what) = if inner {
        (
            // The `unused` group holds `unused_must_use`: module-wide it hides dropped results.
            if hygiene_only && !lints.contains(&"unused") {
                Severity::Warning
            } else {
                Severity::Error
            },
            format!("module-wide `{attribute}` silences these lints for the whole module"),
        )
    } else if blanket {
        (
            if hygiene_only {
                Severity::Warning
            } else {
                Severity::Error
            },
            format!("blanket `{attribute}` silences a whole lint group"),
        )
    } else if has_reason {
        (Severity::Note, format!("`{attribute}` (with a reason)"))
    } else {
        (Severity::Warning, format!("`{attribute}` suppression"))
    };
    Some(Judged::new(severity, what, kind).naming(&named))
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

    fn codes(judged: Option<Judged>) -> Option<Vec<String>> {
        judged
            .and_then(|judged| judged.codes)
            .map(|codes| codes.into_iter().collect())
    }

    #[test]
    fn codes_and_tools() {
        assert_eq!(
            codes(python("# noqa: E501, F401")).unwrap(),
            ["E501", "F401"]
        );
        assert_eq!(codes(python("# noqa")), None);
        assert_eq!(
            codes(python("# type: ignore[attr-defined, misc]")).unwrap(),
            ["attr-defined", "misc"]
        );
        assert_eq!(codes(python("# pyre-ignore[16]")).unwrap(), ["16"]);
        assert_eq!(
            codes(python("# pylint: disable=no-member,unused-import")).unwrap(),
            ["no-member", "unused-import"]
        );
        assert_eq!(
            codes(javascript(
                "// eslint-disable-next-line no-console, no-alert"
            ))
            .unwrap(),
            ["no-alert", "no-console"]
        );
        assert_eq!(
            codes(javascript("/* eslint no-console: \"off\", no-alert: 0 */")).unwrap(),
            ["no-alert", "no-console"]
        );
        assert_eq!(
            codes(javascript("// biome-ignore lint/style/noVar: legacy")).unwrap(),
            ["lint/style/noVar"]
        );
        let expect = rust("#[expect(clippy::a, clippy::b)]", false).unwrap();
        assert_eq!(expect.tool, "expect");
        assert_eq!(codes(Some(expect)).unwrap(), ["clippy::a", "clippy::b"]);
        assert_eq!(
            rust("#[cfg_attr(test, allow(unused))]", false)
                .unwrap()
                .tool,
            "allow"
        );
        assert_eq!(python("# type: ignore").unwrap().tool, "type");
        let commented = "#![expect(\n    clippy::a, // None need it.\n    clippy::b /* , c */\n)]";
        assert_eq!(
            codes(rust(commented, true)).unwrap(),
            ["clippy::a", "clippy::b"]
        );
        let reasoned = rust("#[allow(a, reason = \"see https://x.y/z\")]", false).unwrap();
        assert_eq!(reasoned.severity, Severity::Note);
    }

    #[test]
    fn rust_attributes() {
        assert_eq!(
            severity(rust("#[allow(dead_code)]", false)),
            Some(Severity::Warning)
        );
        // Module-wide: an error, unless every lint is about unused code, names or style.
        assert_eq!(
            severity(rust("#![allow(dead_code)]", true)),
            Some(Severity::Warning)
        );
        assert_eq!(
            severity(rust("#![allow(dead_code, clippy::unwrap_used)]", true)),
            Some(Severity::Error)
        );
        assert_eq!(
            severity(rust("#![allow(warnings)]", true)),
            Some(Severity::Error)
        );
        assert_eq!(
            severity(rust("#[allow(unused)]", false)),
            Some(Severity::Warning)
        );
        assert_eq!(
            severity(rust("#![allow(unused)]", true)),
            Some(Severity::Error)
        );
        assert_eq!(
            severity(rust("#[allow(warnings)]", false)),
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
            severity(rust("#[cfg_attr(test, allow(warnings))]", false)),
            Some(Severity::Error)
        );
        assert_eq!(
            severity(rust("#[cfg_attr(not(unix), allow(unused))]", false)),
            Some(Severity::Warning)
        );
        assert_eq!(
            severity(rust("#[cfg_attr(feature = \"x\", derive(Debug))]", false)),
            None
        );
    }
}
