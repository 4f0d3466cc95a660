//! Inline suppressions: `integrity-gate: allow <rule>[, <rule>] -- <reason>` in a comment on a
//! finding's line or the line above it.
//!
//! A suppression silences a finding only when it already stood in base at the same place, so a
//! change cannot switch the gate off for itself: the comment line must pair with a base line
//! holding the same suppression, and the line it covers must pair with the line it covered in
//! base (the same line, or the base line it edits). A copy of a base suppression elsewhere, or
//! a base suppression that new code slides under, is new. The engine applies that, and the
//! `gate-config-change` rule reports suppressions that do not stand in base.

use crate::changeset::{FilePair, LineSet};

/// Comment openers a suppression may follow on its line.
const COMMENT_OPENERS: &[&str] = &["#", "//", "/*", "<!--", "--", ";", "*", "!"];

/// One parsed suppression comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// Rule ids it names (`*` for all).
    pub rules: Vec<String>,
    /// The reason after `--`, if any; a suppression without one never silences anything.
    pub reason: Option<String>,
}

impl Suppression {
    /// Whether it names `rule` (or `*`).
    pub fn covers(&self, rule: &str) -> bool {
        self.rules.iter().any(|name| name == rule || name == "*")
    }
}

/// Parses a suppression out of one source line, if the line holds one inside a comment.
pub fn parse_line(line: &str) -> Option<Suppression> {
    const MARKER: &str = "integrity-gate:";
    let at = line.find(MARKER)?;
    let before = line[..at].trim_end();
    // The opener must start a comment, not sit inside a string: `"# integrity-gate: …"` in a
    // test's literal is data.
    let opens_comment = COMMENT_OPENERS.iter().any(|opener| {
        before
            .strip_suffix(opener)
            .is_some_and(|code| !code.ends_with(['"', '\'', '`']))
    });
    if !opens_comment {
        return None;
    }
    // Documentation that shows the syntax in backticks (`# integrity-gate: allow x -- why`)
    // is not a suppression: an odd number of backticks before the marker opens a code span.
    if before.matches('`').count() % 2 == 1 {
        return None;
    }
    let rest = line[at + MARKER.len()..]
        .trim_start()
        .strip_prefix("allow")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = rest
        .trim_end()
        .trim_end_matches("*/")
        .trim_end_matches("-->")
        .trim_end();
    let (names, reason) = match rest.split_once("--") {
        Some((names, reason)) => (names, Some(reason.trim())),
        None => (rest, None),
    };
    let rules: Vec<String> = names
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect();
    if rules.is_empty() {
        return None;
    }
    Some(Suppression {
        rules,
        reason: reason
            .filter(|reason| !reason.is_empty())
            .map(str::to_string),
    })
}

/// Where each head line of a file pair stood in base, for asking whether its suppressions
/// did. Built once per file (linear in its size); each question is then cheap.
pub struct Placement<'a> {
    base: Vec<&'a str>,
    head: Vec<&'a str>,
    counterparts: Vec<Option<u32>>,
}

impl<'a> Placement<'a> {
    /// `None` unless both sides are text.
    pub fn new(pair: &'a FilePair) -> Option<Placement<'a>> {
        let base: Vec<&str> = pair.base.text()?.lines().collect();
        let head: Vec<&str> = pair.head.text()?.lines().collect();
        let counterparts = base_counterparts(head.len(), base.len(), &pair.added, &pair.removed);
        Some(Placement {
            base,
            head,
            counterparts,
        })
    }

    fn counterpart(&self, line: u32) -> Option<u32> {
        self.counterparts.get(index(line)).copied().flatten()
    }

    /// Whether the suppression on head line `line` (1-based) stood in base where it stands
    /// now: the line pairs with a base line holding the same suppression, and the first code
    /// line below it (the item it covers) pairs with the one below it in base. Pairing follows
    /// the line diff, never the text alone, so each base suppression stands for one place only.
    pub fn stood_in_base(&self, line: u32) -> bool {
        let Some(suppression) = self.head.get(index(line)).and_then(|text| parse_line(text)) else {
            return false;
        };
        let Some(base_line) = self.counterpart(line) else {
            return false;
        };
        let same_comment = self
            .base
            .get(index(base_line))
            .and_then(|text| parse_line(text))
            .is_some_and(|in_base| in_base == suppression);
        // The covered item is the first code line below, past decorators, attributes and
        // comments (which the change may add, say a skip marker): it must be the one the
        // suppression covered in base, so that a new test slid under a base suppression is
        // not "the same".
        let covered = |lines: &[&str], line: u32| {
            lines
                .iter()
                .skip(index(line) + 1)
                .take(MAX_COVERED_LINES)
                .position(|text| !is_preamble(text))
                .map(|offset| line + 1 + offset as u32)
        };
        let covers_the_same_line = covered(&self.head, line).map(|line| self.counterpart(line))
            == covered(&self.base, base_line).map(Some);
        same_comment && covers_the_same_line
    }
}

/// [`Placement::stood_in_base`] for one question about a pair.
pub fn stood_in_base(pair: &FilePair, line: u32) -> bool {
    Placement::new(pair).is_some_and(|placement| placement.stood_in_base(line))
}

/// How far below a suppression its covered code line is looked for.
const MAX_COVERED_LINES: usize = 32;

/// A line that belongs in front of the item it introduces: blank, a decorator or attribute, a
/// comment.
fn is_preamble(line: &str) -> bool {
    let line = line.trim_start();
    line.is_empty()
        || ["@", "#", "//", "/*", "*"]
            .iter()
            .any(|start| line.starts_with(start))
}

fn index(line: u32) -> usize {
    (line as usize).saturating_sub(1)
}

/// For every head line, the base line it continues: unchanged lines pair in order, and an added
/// line pairs with the removed line at the same offset of its hunk (the line it edits), if the
/// hunk removed that many. Lines a hunk only inserts pair with nothing.
fn base_counterparts(
    head_count: usize,
    base_count: usize,
    added: &LineSet,
    removed: &LineSet,
) -> Vec<Option<u32>> {
    let head_count = u32::try_from(head_count).unwrap_or(u32::MAX);
    let base_count = u32::try_from(base_count).unwrap_or(u32::MAX);
    let mut counterparts = Vec::with_capacity(head_count as usize);
    let (mut head_line, mut base_line) = (1u32, 1u32);
    while head_line <= head_count {
        let hunk_removed = (base_line..=base_count)
            .take_while(|line| removed.contains(*line))
            .count() as u32;
        if added.contains(head_line) {
            let hunk_added = (head_line..=head_count)
                .take_while(|line| added.contains(*line))
                .count() as u32;
            counterparts.extend(
                (0..hunk_added).map(|offset| (offset < hunk_removed).then_some(base_line + offset)),
            );
            head_line += hunk_added;
        } else {
            counterparts.push(Some(base_line + hunk_removed).filter(|line| *line <= base_count));
            head_line += 1;
            base_line += 1;
        }
        base_line += hunk_removed;
    }
    counterparts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changeset::{Content, Status};

    fn pair(base: &str, head: &str) -> FilePair {
        FilePair::new(
            Status::Modified,
            Some("t.py".into()),
            Some("t.py".into()),
            Content::from_bytes(base.as_bytes().to_vec()),
            Content::from_bytes(head.as_bytes().to_vec()),
        )
    }

    const ALLOW: &str = "# integrity-gate: allow skipped-test -- flaky, see #1";

    #[test]
    fn counterparts_follow_the_diff() {
        let base = "a\nb\nc\nd\n";
        let head = "a\nB\nx\nc\n";
        let pair = pair(base, head);
        let map = base_counterparts(4, 4, &pair.added, &pair.removed);
        assert_eq!(map, [Some(1), Some(2), None, Some(3)]);
    }

    #[test]
    fn a_suppression_stands_only_where_it_stood() {
        let base = format!("{ALLOW}\ndef test_a(): pass\n\ndef test_b(): pass\n");
        // Unchanged above the same line, and above that line edited.
        assert!(stood_in_base(&pair(&base, &base), 1));
        let edited = base.replace("test_a(): pass", "test_a(): skip()");
        assert!(stood_in_base(&pair(&base, &edited), 1));
        let decorated = base.replace("def test_a", "@skip\ndef test_a");
        assert!(stood_in_base(&pair(&base, &decorated), 1));
        // A copy above another test is new; so is the original once new code slides under it.
        let copied = base.replace("def test_b", &format!("{ALLOW}\ndef test_b"));
        assert!(stood_in_base(&pair(&base, &copied), 1));
        assert!(!stood_in_base(&pair(&base, &copied), 4));
        let slid = base.replace(
            &format!("{ALLOW}\n"),
            &format!("{ALLOW}\ndef test_new(): pass\n"),
        );
        assert!(!stood_in_base(&pair(&base, &slid), 1));
        // A different reason is a different suppression.
        let reworded = base.replace("flaky", "slow");
        assert!(!stood_in_base(&pair(&base, &reworded), 1));
    }

    #[test]
    fn a_suppression_inside_a_string_literal_is_data() {
        assert_eq!(
            parse_line(r##"const ALLOW: &str = "# integrity-gate: allow skipped-test -- flaky";"##),
            None
        );
        assert_eq!(parse_line("line = '// integrity-gate: allow x -- y'"), None);
        // Built in two parts so that this file holds no suppression of its own.
        let after_a_string = concat!(r#"x = "a"  # integrity-"#, "gate: allow x -- y");
        assert!(parse_line(after_a_string).is_some());
    }

    #[test]
    fn parses_rules_and_reason() {
        let parsed =
            parse_line("    # integrity-gate: allow skipped-test -- flaky upstream, see #12")
                .unwrap();
        assert_eq!(parsed.rules, ["skipped-test"]);
        assert_eq!(parsed.reason.as_deref(), Some("flaky upstream, see #12"));
        let parsed = parse_line("/* integrity-gate: allow a, b -- why */").unwrap();
        assert_eq!(parsed.rules, ["a", "b"]);
        assert_eq!(parsed.reason.as_deref(), Some("why"));
    }

    #[test]
    fn a_suppression_without_reason_has_none() {
        let parsed = parse_line("// integrity-gate: allow focused-test").unwrap();
        assert_eq!(parsed.reason, None);
        let parsed = parse_line("// integrity-gate: allow focused-test --   ").unwrap();
        assert_eq!(parsed.reason, None);
    }

    #[test]
    fn ignores_mentions_outside_comments() {
        assert_eq!(
            parse_line("x = 'integrity-gate: allow skipped-test -- r'"),
            None
        );
        assert_eq!(
            parse_line("Use `integrity-gate: allow <rule> -- <reason>`"),
            None
        );
        assert_eq!(parse_line("# integrity-gate: allowed to fail"), None);
        assert_eq!(parse_line("# integrity-gate: allow"), None);
        assert_eq!(
            parse_line(
                "    /// `# integrity-gate: allow empty-catch -- <reason>` on the line above."
            ),
            None
        );
    }
}
