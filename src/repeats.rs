//! "Many of one cause are one finding": a single line that trips the same rule thousands of
//! times (a minified bundle of empty `catch` blocks) is reported once, with the count.
//!
//! Without this, every repeat carries its own copy of the (possibly megabyte-long) line as a
//! snippet and is redacted separately: gigabytes of memory and minutes of time for one file,
//! and a report no reviewer can read.

use crate::finding::Side;
use crate::rules::{Candidate, Rule};
use std::collections::HashMap;

/// More findings than this of one rule on one line (and side) become one finding.
pub const MAX_REPEATS_PER_LINE: usize = 10;

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
