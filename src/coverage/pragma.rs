//! Coverage-exclusion comments and attributes on added source lines
//! (`# pragma: no cover`, `/* istanbul ignore next */`, `#[coverage(off)]`, …).
//!
//! The check is language-agnostic text work on one line: markers count only
//! inside a comment that starts outside any string literal on that line, so
//! `msg = "use # pragma: no cover"` does not fire. Strings spanning several
//! lines (docstrings) cannot be seen from one line; that rare case may fire.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::{CoverageFinding, Severity};

struct Marker {
    name: &'static str,
    pattern: &'static str,
}

/// Matched against comment text only.
const COMMENT_MARKERS: &[Marker] = &[
    Marker {
        name: "# pragma: no cover",
        // coverage.py's default exclusion regex, plus the common `nocover`.
        pattern: r"(?i)^\s*#\s*pragma[:\s]?\s*no\s*-?cover",
    },
    Marker {
        name: "# pragma: no branch",
        pattern: r"(?i)^\s*#\s*pragma[:\s]?\s*no\s*-?branch",
    },
    Marker {
        name: "istanbul ignore",
        pattern: r"^\s*(?:/\*\*?|//)\s*istanbul\s+ignore\b",
    },
    Marker {
        name: "c8 ignore",
        pattern: r"^\s*(?:/\*\*?|//)\s*c8\s+ignore\s+(?:next|start|file|if|else)\b",
    },
    Marker {
        name: "v8 ignore",
        pattern: r"^\s*(?:/\*\*?|//)\s*v8\s+ignore\s+(?:next|start|file|if|else)\b",
    },
    Marker {
        name: "node:coverage ignore",
        pattern: r"^\s*(?:/\*\*?|//)\s*node:coverage\s+(?:ignore\s+next|disable)\b",
    },
    Marker {
        name: "LCOV_EXCL",
        pattern: r"^\s*(?:/\*|//|#)\s*LCOV_EXCL_(?:LINE|START|BR_LINE|BR_START)\b",
    },
    Marker {
        name: "coverage:ignore",
        pattern: r"^\s*(?://|#)\s*coverage:ignore-(?:line|start|file)\b",
    },
];

static COMMENT_REGEXES: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    COMMENT_MARKERS
        .iter()
        .map(|m| {
            #[allow(clippy::expect_used)] // constant patterns, each exercised by tests
            let re = Regex::new(m.pattern).expect("valid marker regex");
            (m.name, re)
        })
        .collect()
});

/// Rust attributes that take code out of coverage instrumentation.
static RUST_ATTR: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)] // constant pattern, exercised by tests
    Regex::new(
        r"^\s*#!?\[\s*(?:coverage\s*\(\s*off\s*\)|no_coverage\b|cfg_attr\s*\(.*\bcoverage\s*\(\s*off\s*\)|cfg\s*\(\s*not\s*\(\s*(?:tarpaulin_include|tarpaulin|coverage)\s*\)\s*\)|cfg_attr\s*\(\s*tarpaulin\s*,\s*(?:skip|no_coverage)\s*\))",
    )
    .expect("valid rust attribute regex")
});

/// Comment regions of one line, each starting at its comment opener
/// (`#`, `//` or `/*`). Quotes open strings only outside comments.
fn comment_regions(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let mut regions = Vec::new();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if let Some(q) = quote {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' | b'\'' | b'`' => {
                // A lone apostrophe inside prose (`don't`) would open a
                // string; only treat it as a quote after a non-letter.
                let prev = if i > 0 { bytes[i - 1] } else { b' ' };
                if c == b'\'' && prev.is_ascii_alphanumeric() {
                    i += 1;
                    continue;
                }
                quote = Some(c);
            }
            b'#'
                // `#[...]` is a Rust attribute, not a comment.
                if bytes.get(i + 1) != Some(&b'[') && bytes.get(i + 1) != Some(&b'!') => {
                    regions.push(&line[i..]);
                    return regions;
                }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                regions.push(&line[i..]);
                return regions;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = line[i + 2..].find("*/").map(|e| i + 2 + e + 2);
                let stop = end.unwrap_or(line.len());
                regions.push(&line[i..stop]);
                i = stop;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    regions
}

/// One added source line: a new coverage-exclusion pragma? Returns the marker found.
///
/// Markers: `# pragma: no cover`, `# pragma: no branch`, `istanbul ignore`,
/// `c8 ignore`, `v8 ignore`, `node:coverage ignore`, `LCOV_EXCL`,
/// `coverage:ignore`, `#[coverage(off)]` (also `cfg_attr(…, coverage(off))`,
/// `#[no_coverage]` and tarpaulin's `cfg(not(tarpaulin_include))`).
pub fn exclusion_pragma(line: &str) -> Option<&'static str> {
    // Cheap prefilter before any scanning.
    let lower = line.to_ascii_lowercase();
    if ![
        "cover",
        "ignore",
        "lcov_excl",
        "tarpaulin",
        "pragma",
        "node:coverage",
    ]
    .iter()
    .any(|k| lower.contains(k))
    {
        return None;
    }
    if RUST_ATTR.is_match(line) {
        return Some("#[coverage(off)]");
    }
    for region in comment_regions(line) {
        for (name, re) in COMMENT_REGEXES.iter() {
            if re.is_match(region) {
                return Some(name);
            }
        }
    }
    None
}

/// Findings for exclusion pragmas on `added_lines` (1-based head lines) of one
/// file. A pragma already present in base on a line with the same text is a
/// move, not a new exclusion, and is skipped (counted, so a duplicated line
/// still fires once per extra copy).
pub fn pragma_findings(
    base: Option<&str>,
    head: &str,
    added_lines: &[u32],
) -> Vec<CoverageFinding> {
    let mut in_base: HashMap<(&'static str, String), usize> = HashMap::new();
    for l in base.unwrap_or("").lines() {
        if let Some(marker) = exclusion_pragma(l) {
            *in_base.entry((marker, normalize(l))).or_insert(0) += 1;
        }
    }
    let mut in_head_kept: HashMap<(&'static str, String), usize> = HashMap::new();
    let added: std::collections::HashSet<u32> = added_lines.iter().copied().collect();
    // Lines that carry a pragma and were not added use up base copies first.
    let head_lines: Vec<&str> = head.lines().collect();
    for (idx, l) in head_lines.iter().enumerate() {
        let no = u32::try_from(idx + 1).unwrap_or(u32::MAX);
        if added.contains(&no) {
            continue;
        }
        if let Some(marker) = exclusion_pragma(l) {
            *in_head_kept.entry((marker, normalize(l))).or_insert(0) += 1;
        }
    }
    let mut findings = Vec::new();
    let mut sorted: Vec<u32> = added.into_iter().collect();
    sorted.sort_unstable();
    for no in sorted {
        let Some(l) = head_lines.get(no.saturating_sub(1) as usize) else {
            continue;
        };
        let Some(marker) = exclusion_pragma(l) else {
            continue;
        };
        if is_unreachable_in_tests(l) {
            continue;
        }
        let key = (marker, normalize(l));
        let base_count = in_base.get(&key).copied().unwrap_or(0);
        let kept = in_head_kept.entry(key).or_insert(0);
        if *kept < base_count {
            *kept += 1;
            continue;
        }
        findings.push(CoverageFinding {
            severity: Severity::Warning,
            side_is_base: false,
            line: no,
            end_line: no,
            message: format!(
                "new coverage exclusion `{marker}` takes code out of the coverage measurement"
            ),
        });
    }
    findings
}

fn normalize(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Code that no test run can execute, which projects conventionally exclude (coverage.py's own
/// documentation lists these): `if TYPE_CHECKING:` imports, `if __name__ == "__main__":`,
/// `raise NotImplementedError` and `...` bodies, `@overload`/`@abstractmethod` stubs. Excluding
/// them hides no tested behaviour.
pub fn is_unreachable_in_tests(text: &str) -> bool {
    const CONVENTIONAL: &[&str] = &[
        "TYPE_CHECKING",
        "__name__",
        "NotImplementedError",
        "@overload",
        "abstractmethod",
        "\\.\\.\\.",
        "\\.{3}",
    ];
    CONVENTIONAL.iter().any(|pattern| text.contains(pattern))
}
