//! "Many of one cause are one finding": a single line that trips the same rule thousands of
//! times (a minified bundle of empty `catch` blocks) is reported once, with the count.
//!
//! Without this, every repeat carries its own copy of the (possibly megabyte-long) line as a
//! snippet and is redacted separately: gigabytes of memory and minutes of time for one file,
//! and a report no reviewer can read.

use crate::finding::{Finding, Side};
use crate::rules::{Candidate, Rule};
use std::collections::HashMap;

/// More findings than this of one rule on one line (and side) become one finding.
pub const MAX_REPEATS_PER_LINE: usize = 10;

/// More findings than this of one rule, severity and confidence in one file become one.
pub const MAX_ALIKE_PER_FILE: usize = 5;

/// Aggregates one file's findings: each group of more than [`MAX_ALIKE_PER_FILE`] that share
/// rule, side, severity and confidence becomes its first finding (by line), whose message then
/// names the others: by name where the rule's keys are tests ([`Rule::group`]), else by line.
/// A test file emptied by a refactor is one finding listing its tests, not forty.
pub fn aggregate(findings: Vec<(&'static Rule, String, Finding)>) -> Vec<Finding> {
    type Group = (
        &'static str,
        Side,
        crate::finding::Severity,
        crate::finding::Confidence,
    );
    let mut groups: HashMap<Group, Vec<usize>> = HashMap::new();
    for (index, (rule, _, finding)) in findings.iter().enumerate() {
        groups
            .entry((rule.id, finding.side, finding.severity, finding.confidence))
            .or_default()
            .push(index);
    }
    let mut lead: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut folded = vec![false; findings.len()];
    for members in groups
        .into_values()
        .filter(|m| m.len() > MAX_ALIKE_PER_FILE)
    {
        let mut members = members;
        members.sort_by_key(|index| (findings[*index].2.line, *index));
        for index in &members[1..] {
            folded[*index] = true;
        }
        lead.insert(members[0], members[1..].to_vec());
    }
    let listed = |indices: &[usize], name: &dyn Fn(usize) -> String| -> String {
        let mut names: Vec<String> = indices.iter().take(3).map(|index| name(*index)).collect();
        if indices.len() > 3 {
            names.push(format!("{} more", indices.len() - 3));
        }
        match names.len() {
            1 => names.remove(0),
            _ => {
                let last = names.pop().unwrap_or_default();
                format!("{} and {last}", names.join(", "))
            }
        }
    };
    let summaries: HashMap<usize, String> = lead
        .iter()
        .map(|(first, others)| {
            let (rule, key, finding) = &findings[*first];
            let count = others.len() + 1;
            let summary = match rule.group {
                Some(group) => format!(
                    "{count} {group}: `{key}`, {} (the first: {})",
                    listed(others, &|index| format!("`{}`", findings[index].1)),
                    finding.message
                ),
                None => format!(
                    "{} (and {} more `{}` findings in this file, at lines {})",
                    finding.message,
                    others.len(),
                    rule.id,
                    listed(others, &|index| findings[index].2.line.to_string())
                ),
            };
            // Keys are the change's text (a test can be named with a token): redacted as the
            // messages were.
            (*first, crate::secrets::scanner().redact_line(&summary))
        })
        .collect();
    findings
        .into_iter()
        .enumerate()
        .filter(|(index, _)| !folded[*index])
        .map(|(index, (_, _, mut finding))| {
            if let Some(summary) = summaries.get(&index) {
                finding.message = summary.clone();
            }
            finding
        })
        .collect()
}

/// Collapses each group of more than [`MAX_REPEATS_PER_LINE`] candidates that share rule, side
/// and first line into its strongest member (the first of them on ties), whose message then says
/// how many there were. Smaller groups and the order of what is kept are left alone.
pub fn collapse(candidates: Vec<(&'static Rule, Candidate)>) -> Vec<(&'static Rule, Candidate)> {
    let mut groups: HashMap<(&str, Side, u32), Vec<usize>> = HashMap::new();
    for (index, (rule, candidate)) in candidates.iter().enumerate() {
        groups
            .entry((rule.id, candidate.side, candidate.line))
            .or_default()
            .push(index);
    }
    if groups
        .values()
        .all(|members| members.len() <= MAX_REPEATS_PER_LINE)
    {
        return candidates;
    }
    // For each oversized group: the member kept, and how many it stands for.
    let mut kept: HashMap<usize, usize> = HashMap::new();
    let mut dropped = vec![false; candidates.len()];
    for members in groups.values().filter(|m| m.len() > MAX_REPEATS_PER_LINE) {
        let strongest = members
            .iter()
            .copied()
            .rev()
            .max_by_key(|index| candidates[*index].1.severity)
            .unwrap_or(members[0]);
        for index in members {
            dropped[*index] = *index != strongest;
        }
        kept.insert(strongest, members.len());
    }
    candidates
        .into_iter()
        .enumerate()
        .filter(|(index, _)| !dropped[*index])
        .map(|(index, (rule, mut candidate))| {
            if let Some(count) = kept.get(&index) {
                candidate.message = format!(
                    "{} ({count} `{}` findings on this line, reported once)",
                    candidate.message, rule.id
                );
            }
            (rule, candidate)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Severity;
    use crate::rules::ALL_RULES;

    fn candidate(line: u32, severity: Severity, message: &str) -> Candidate {
        Candidate {
            side: Side::Head,
            line,
            end_line: line,
            severity,
            message: message.to_string(),
            key: format!("k{line}{message}"),
            moved: None,
            confidence: crate::finding::Confidence::Certain,
        }
    }

    #[test]
    fn a_line_of_repeats_becomes_one_finding_with_the_count() {
        let rule = ALL_RULES[0];
        let mut candidates: Vec<_> = (0..500)
            .map(|i| (rule, candidate(1, Severity::Warning, &format!("m{i}"))))
            .collect();
        candidates[7].1.severity = Severity::Error;
        candidates.push((rule, candidate(2, Severity::Note, "other line")));
        let collapsed = collapse(candidates);
        assert_eq!(collapsed.len(), 2);
        assert_eq!(collapsed[0].1.severity, Severity::Error);
        assert!(
            collapsed[0].1.message.starts_with("m7 (500 "),
            "{}",
            collapsed[0].1.message
        );
        assert_eq!(collapsed[1].1.message, "other line");
    }

    fn finding(line: u32, severity: Severity) -> Finding {
        Finding {
            rule: "deleted-test",
            severity,
            path: "tests/test_a.py".into(),
            line,
            end_line: line,
            side: Side::Base,
            message: format!("test `t{line}` was deleted"),
            confidence: crate::finding::Confidence::Certain,
            snippet: String::new(),
            fingerprint: String::new(),
        }
    }

    #[test]
    fn many_alike_findings_in_a_file_become_one_that_lists_them() {
        let rule = crate::rules::find("deleted-test").unwrap();
        let mut given: Vec<_> = (1..=9)
            .rev()
            .map(|line| {
                (
                    rule,
                    format!("t{line}"),
                    finding(line * 10, Severity::Error),
                )
            })
            .collect();
        given.push((rule, "w".into(), finding(5, Severity::Warning)));
        let out = aggregate(given);
        assert_eq!(out.len(), 2, "{out:#?}");
        let error = out.iter().find(|f| f.severity == Severity::Error).unwrap();
        assert_eq!(error.line, 10);
        assert_eq!(
            error.message,
            "9 tests deleted from this file: `t1`, `t2`, `t3`, `t4` and 5 more (the first: test `t10` was deleted)"
        );
    }

    #[test]
    fn a_few_alike_findings_in_a_file_stay_apart() {
        let rule = crate::rules::find("empty-catch").unwrap();
        let given: Vec<_> = (1..=MAX_ALIKE_PER_FILE as u32)
            .map(|line| (rule, String::new(), finding(line, Severity::Warning)))
            .collect();
        let expected: Vec<Finding> = given.iter().map(|(_, _, f)| f.clone()).collect();
        assert_eq!(aggregate(given), expected);
    }

    #[test]
    fn a_few_findings_on_a_line_stay_as_they_are() {
        let rule = ALL_RULES[0];
        let candidates: Vec<_> = (0..MAX_REPEATS_PER_LINE)
            .map(|i| (rule, candidate(1, Severity::Warning, &format!("m{i}"))))
            .collect();
        let kept: Vec<Candidate> = collapse(candidates.clone())
            .into_iter()
            .map(|(_, candidate)| candidate)
            .collect();
        let given: Vec<Candidate> = candidates.into_iter().map(|(_, c)| c).collect();
        assert_eq!(kept, given);
    }
}
