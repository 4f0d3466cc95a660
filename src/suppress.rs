//! Inline suppressions: `integrity-gate: allow <rule>[, <rule>] -- <reason>` in a comment on a
//! finding's line or the line above it.
//!
//! A suppression silences a finding only when the same comment already exists in base, so a
//! change cannot switch the gate off for itself; the engine applies that, and the
//! `gate-config-change` rule reports suppressions a change adds.

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
    if !COMMENT_OPENERS
        .iter()
        .any(|opener| before.ends_with(opener))
    {
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

#[cfg(test)]
mod tests {
    use super::*;

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
