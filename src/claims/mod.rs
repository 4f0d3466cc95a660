//! Claims made about a change (a pull request's title and body, the range's commit messages,
//! an agent's final message) and the judgement of `unbacked-claim`: which of them the change
//! itself contradicts.
//!
//! It runs after every other rule, on their findings: "all tests pass" is contradicted by a
//! `skipped-test` finding of the same change, "no new dependencies" by a `new-dependency` one.
//! What counts as a claim is data ([`phrases.txt`](phrases.txt)); what contradicts each kind is
//! here.

pub mod sources;
mod stated;

pub use stated::{Stated, stated};

use crate::changeset::FilePair;
use crate::finding::{Finding, Severity, Side, stable_hash};
use crate::rules::Candidate;
use regex::Regex;
use std::sync::LazyLock;

/// One text that may claim things about the change, with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Where the text came from, as the finding names it: `commit 1a2b3c4d5e6f`,
    /// `pull request title`, `the agent's last message`.
    pub source: String,
    /// The text.
    pub text: String,
}

impl Claim {
    /// A claim text from `source`, cut to [`MAX_CLAIM_BYTES`] (on a character boundary).
    pub fn new(source: impl Into<String>, text: &str) -> Claim {
        let mut end = text.len().min(MAX_CLAIM_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        Claim {
            source: source.into(),
            text: text[..end].to_string(),
        }
    }
}

/// Longest claim text read, in bytes: a pull request body or an agent's message past this is
/// read up to it.
pub const MAX_CLAIM_BYTES: usize = 64 * 1024;

/// The kinds of claim the rule checks; each has a section in `phrases.txt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// "Added tests", "covered by tests".
    TestsAdded,
    /// "All tests pass", "fixed the failing test".
    TestsPass,
    /// "No behaviour change", "pure refactor".
    NoBehaviourChange,
    /// "Coverage unchanged", "increased coverage".
    CoverageKept,
    /// "No new dependencies".
    NoNewDependencies,
    /// "Lint clean", "fixed the type errors".
    LintClean,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 6] = [
        Kind::TestsAdded,
        Kind::TestsPass,
        Kind::NoBehaviourChange,
        Kind::CoverageKept,
        Kind::NoNewDependencies,
        Kind::LintClean,
    ];

    /// The section name in `phrases.txt`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::TestsAdded => "tests-added",
            Kind::TestsPass => "tests-pass",
            Kind::NoBehaviourChange => "no-behaviour-change",
            Kind::CoverageKept => "coverage-kept",
            Kind::NoNewDependencies => "no-new-dependencies",
            Kind::LintClean => "lint-clean",
        }
    }

    /// The rules whose findings contradict this kind of claim.
    fn contradicted_by(self) -> &'static [&'static str] {
        match self {
            Kind::TestsAdded => &[],
            Kind::TestsPass => &[
                "skipped-test",
                "deleted-test",
                "weakened-assertion",
                "focused-test",
            ],
            Kind::NoBehaviourChange => &["deleted-test", "weakened-assertion"],
            Kind::CoverageKept => &["weakened-coverage"],
            Kind::NoNewDependencies => &["new-dependency"],
            Kind::LintClean => &["disabled-check"],
        }
    }
}

/// A finding of `unbacked-claim`, before the engine applies the policy: the index of the pair
/// it is anchored on, and the candidate.
pub type Contradiction = (usize, Candidate);

/// The claims among `claims` that the change contradicts, one per kind of claim, anchored at
/// the strongest contradicting evidence (another rule's finding, a changed expected value) or,
/// for "tests added" with no test in the change, at the first changed file. `findings` are the
/// other rules' findings after the policy, `pairs` the analysed file pairs (see [`counts`] for
/// which findings are evidence).
pub fn contradictions(
    claims: &[Claim],
    pairs: &[&FilePair],
    findings: &[Finding],
) -> Vec<Contradiction> {
    let stated = stated(claims);
    let commits = commit_sources(claims);
    let mut out = Vec::new();
    for kind in Kind::ALL {
        let of_kind: Vec<&Stated> = stated.iter().filter(|claim| claim.kind == kind).collect();
        // A claim about the whole change (the pull request, the agent's message, the only
        // commit) is the one to answer for.
        let Some(first) = of_kind
            .iter()
            .find(|claim| !claim.source.starts_with(COMMIT))
            .or(of_kind.first())
            .copied()
        else {
            continue;
        };
        let elsewhere = of_kind.len() - 1;
        let Some(mut evidence) = evidence(kind, pairs, findings) else {
            continue;
        };
        // One commit of several says what it did, not what the range does: "fix the tests"
        // in one commit is no claim about a test another commit removed. The finding it rests
        // on still blocks on its own; "tests added" with no test anywhere is false of every
        // commit.
        if first.source.starts_with(COMMIT) && commits > 1 && kind != Kind::TestsAdded {
            evidence.severity = evidence.severity.min(Severity::Warning);
            evidence.says.push_str(&format!(
                " (the claim is one of {commits} commits' and may be about that commit alone)"
            ));
        }
        let Some(index) = evidence.pair.or_else(|| pair_of(pairs, &evidence.path)) else {
            continue;
        };
        let also = match elsewhere {
            0 => String::new(),
            n => format!(" (and {n} more claim{} like it)", plural(n)),
        };
        let message = format!(
            "{} claims \"{}\"{also}, but {}",
            first.source, first.quote, evidence.says
        );
        let key = stable_hash(&[kind.name(), &first.quote]);
        let mut candidate = Candidate::at_line(
            evidence.side,
            evidence.line,
            evidence.severity,
            message,
            key,
        );
        candidate.end_line = evidence.end_line.max(evidence.line);
        out.push((index, candidate));
    }
    out
}

/// How [`Claim::source`] names a commit message.
pub(crate) const COMMIT: &str = "commit ";

/// How many commits' messages are among `claims`.
fn commit_sources(claims: &[Claim]) -> usize {
    let mut commits: Vec<&str> = claims
        .iter()
        .map(|claim| claim.source.as_str())
        .filter(|source| source.starts_with(COMMIT))
        .collect();
    commits.sort_unstable();
    commits.dedup();
    commits.len()
}

/// What contradicts a claim, and where.
struct Evidence {
    /// The pair it is in, when known; otherwise found by `path`.
    pair: Option<usize>,
    path: String,
    side: Side,
    line: u32,
    end_line: u32,
    severity: Severity,
    /// The end of the finding's sentence: "the change skips a test: ...".
    says: String,
}

fn evidence(kind: Kind, pairs: &[&FilePair], findings: &[Finding]) -> Option<Evidence> {
    if kind == Kind::TestsAdded {
        return no_test_changed(pairs);
    }
    let rules = kind.contradicted_by();
    let against: Vec<&Finding> = findings
        .iter()
        .filter(|finding| rules.contains(&finding.rule) && counts(kind, finding))
        .collect();
    // The strongest first, then the first in output order.
    let strongest = against.iter().copied().max_by(|a, b| {
        a.severity
            .cmp(&b.severity)
            .then(b.sort_key().cmp(&a.sort_key()))
    });
    let changed_value = match kind {
        Kind::NoBehaviourChange => expected_value_changed(pairs, Severity::Error),
        Kind::TestsPass => expected_value_changed(pairs, Severity::Warning),
        _ => None,
    };
    let Some(finding) = strongest else {
        return changed_value;
    };
    if changed_value
        .as_ref()
        .is_some_and(|value| value.severity > finding.severity)
    {
        return changed_value;
    }
    let more = against.len() - 1;
    let more = match more {
        0 => String::new(),
        n => format!(" (and {n} more finding{} of this kind)", plural(n)),
    };
    Some(Evidence {
        pair: None,
        path: finding.path.clone(),
        side: finding.side,
        line: finding.line,
        end_line: finding.end_line,
        severity: match kind {
            // Any dependency added makes "no new dependencies" false, however harmless it is.
            Kind::NoNewDependencies => Severity::Error,
            _ => finding.severity,
        },
        says: format!(
            "`{}` reports at {}:{}: {}{more}",
            finding.rule,
            finding.path,
            finding.line,
            crate::rules::markers::shorten(&finding.message, 160)
        ),
    })
}

/// Whether a finding is evidence against a kind of claim. Notes are not (the rule is unsure
/// the change did what the claim denies), except a dependency added to one of the project's
/// manifests, which `new-dependency` reports as a note when nothing else is wrong with it:
/// that is still a new dependency. A manifest in a test-fixture copy of another project is not
/// the project's.
fn counts(kind: Kind, finding: &Finding) -> bool {
    if finding.severity >= Severity::Warning {
        return true;
    }
    kind == Kind::NoNewDependencies
        && finding.message.starts_with("new dependency")
        && !finding
            .message
            .contains("no workspace of the project takes in")
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn pair_of(pairs: &[&FilePair], path: &str) -> Option<usize> {
    pairs.iter().position(|pair| {
        pair.new_path.as_deref() == Some(path) || pair.old_path.as_deref() == Some(path)
    })
}

/// Lines that declare or call a test, in any of the languages the gate reads.
static TEST_MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        // A doctest is a test: a Rust doc comment's code fence (`/// ````), a Python `>>>`.
        r"#\[(?:tokio::)?test\b|\bdef\s+test_|\bfunc\s+Test|@Test\b|\b(?:it|test|describe|specify)(?:\.each)?\s*\(|^\s*(?://[/!])\s*```|^\s*>>>\s",
    )
    .unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// "Tests added" with no test added or changed: no test file gains a line, and no added line
/// anywhere declares a test. Anchored at the first added line of the first changed file.
fn no_test_changed(pairs: &[&FilePair]) -> Option<Evidence> {
    let mut first: Option<(usize, u32)> = None;
    for (index, pair) in pairs.iter().enumerate() {
        let Some(path) = pair.new_path.as_deref() else {
            continue;
        };
        let Some(text) = pair.head.text() else {
            continue;
        };
        // A test file added, edited or moved is a test changed.
        let moved = pair.old_path.as_deref() != Some(path);
        if looks_like_test(path) && (!pair.added.is_empty() || moved) {
            return None;
        }
        if pair.added.is_empty() {
            continue;
        }
        let lines: Vec<&str> = text.lines().collect();
        let declares = pair.added.iter().any(|number| {
            lines
                .get(number as usize - 1)
                .is_some_and(|line| TEST_MARKER.is_match(line))
        });
        if declares {
            return None;
        }
        if first.is_none() {
            first = Some((index, pair.added.iter().next().unwrap_or(1)));
        }
    }
    let (index, line) = first?;
    Some(Evidence {
        pair: Some(index),
        path: String::new(),
        side: Side::Head,
        line,
        end_line: line,
        severity: Severity::Error,
        says: "the change adds or changes no test (no test file gains a line, no added line \
               declares a test)"
            .to_string(),
    })
}

/// Wider than the rules' test paths on purpose: the claim is judged false only when nothing in
/// the change can be a test, and projects keep tests as data too (ruff's `resources/mdtest/*.md`,
/// `__snapshots__`, `testdata/`, `FooTest.java`, `foo_test.go`).
fn looks_like_test(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    crate::rules::is_test_path(path)
        || lower.ends_with(".snap")
        || lower.split('/').any(|part| {
            part.contains("test")
                || part.contains("spec")
                || matches!(part, "__snapshots__" | "snapshots" | "fixtures" | "e2e")
        })
}

/// Lines that assert; Rust's `.expect("message")` only names a panic and is left out.
static ASSERTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\bassert\w*!?\s*[\(\s]|(?:^|[^.\w$])expect\s*\(|\.(?:to|not)\.|\bself\.assert\w+\(|\bassertThat\s*\(|\.should\b",
    )
    .unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// Literals: strings (single, double, backtick) and numbers.
static LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`|\b\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?\b|\b(?:true|false|True|False|None|null|undefined)\b"#)
        .unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// Lines read per side of a file when looking for changed expected values.
const MAX_ASSERTION_LINES: usize = 2000;

/// An assertion whose expected value the change edits: a removed assertion line and an added
/// one that are the same once their literals are blanked out, but differ in the literals.
fn expected_value_changed(pairs: &[&FilePair], severity: Severity) -> Option<Evidence> {
    for (index, pair) in pairs.iter().enumerate() {
        let (Some(base), Some(head)) = (pair.base.text(), pair.head.text()) else {
            continue;
        };
        if pair.added.is_empty() || pair.removed.is_empty() {
            continue;
        }
        let base_lines: Vec<&str> = base.lines().collect();
        let head_lines: Vec<&str> = head.lines().collect();
        let removed: Vec<(String, &str)> = pair
            .removed
            .iter()
            .take(MAX_ASSERTION_LINES)
            .filter_map(|number| base_lines.get(number as usize - 1).copied())
            .filter(|line| ASSERTION.is_match(line))
            .map(|line| (shape(line), line.trim()))
            .collect();
        if removed.is_empty() {
            continue;
        }
        for number in pair.added.iter().take(MAX_ASSERTION_LINES) {
            let Some(line) = head_lines.get(number as usize - 1) else {
                continue;
            };
            if !ASSERTION.is_match(line) || !LITERAL.is_match(line) {
                continue;
            }
            let shaped = shape(line);
            let Some((_, old)) = removed
                .iter()
                .find(|(old_shape, old)| *old_shape == shaped && *old != line.trim())
            else {
                continue;
            };
            let path = pair.path().to_string();
            return Some(Evidence {
                pair: Some(index),
                path: path.clone(),
                side: Side::Head,
                line: number,
                end_line: number,
                severity,
                says: format!(
                    "the change edits an assertion's expected value at {path}:{number}: `{}` → `{}`",
                    crate::rules::markers::shorten(old, 80),
                    crate::rules::markers::shorten(line.trim(), 80)
                ),
            });
        }
    }
    None
}

fn shape(line: &str) -> String {
    LITERAL
        .replace_all(line, "\u{1}")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

#[cfg(test)]
mod tests;
