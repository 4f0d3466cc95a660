//! "Many of one cause are one finding": a single line that trips the same rule thousands of
//! times (a minified bundle of empty `catch` blocks) is reported once, with the count.
//!
//! Without this, every repeat carries its own copy of the (possibly megabyte-long) line as a
//! snippet and is redacted separately: gigabytes of memory and minutes of time for one file,
//! and a report no reviewer can read.

use crate::finding::{Finding, Severity, Side};
use crate::rules::{Candidate, Rule};
use std::collections::HashMap;

/// What makes findings alike: rule, side, severity and confidence.
type Alike = (
    &'static str,
    Side,
    crate::finding::Severity,
    crate::finding::Confidence,
);

/// More findings than this of one rule on one line (and side) become one finding.
pub const MAX_REPEATS_PER_LINE: usize = 10;

/// More findings than this of one rule, severity and confidence in one file become one.
pub const MAX_ALIKE_PER_FILE: usize = 5;

/// Aggregates one file's findings: each group of more than [`MAX_ALIKE_PER_FILE`] that share
/// rule, side, severity and confidence becomes its first finding (by line), whose message then
/// names the others: by name where the rule's keys are tests ([`Rule::group`]), else by line.
/// A test file emptied by a refactor is one finding listing its tests, not forty.
pub fn aggregate(findings: Vec<(&'static Rule, String, Finding)>) -> Vec<Finding> {
    let mut groups: HashMap<Alike, Vec<usize>> = HashMap::new();
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

/// Files that must share a test-name pattern before their findings are one cause.
pub const MIN_FILES_ALIKE: usize = 3;

/// One change's findings per file, as (rule, key, finding).
pub type PerFile = Vec<Vec<(&'static Rule, String, Finding)>>;

/// Folds the findings of test-keyed rules ([`Rule::group`]) that repeat one test-name pattern
/// across [`MIN_FILES_ALIKE`] files or more (`test_cerebras_provider_pass_http_client` in
/// `test_cerebras.py`, `test_zai_provider_pass_http_client` in `test_zai.py`, ...) into the
/// first of them: one cause, such as a per-provider test centralised elsewhere, is one finding
/// that lists the others. The pattern is the test's name without `test` and without the words
/// its file is named after, and must keep two words or more.
pub fn fold_across_files(files: &mut PerFile) -> HashMap<&'static str, usize> {
    let mut counted: HashMap<&'static str, usize> = HashMap::new();
    type Group = (
        &'static str,
        Side,
        crate::finding::Severity,
        crate::finding::Confidence,
        String,
    );
    let mut groups: HashMap<Group, Vec<(usize, usize)>> = HashMap::new();
    for (file, findings) in files.iter().enumerate() {
        for (index, (rule, key, finding)) in findings.iter().enumerate() {
            // weakened-assertion's keys name tests too: one edit copied into every example
            // project's `regenerates table data` is one cause.
            if rule.group.is_none() && rule.id != "weakened-assertion" {
                continue;
            }
            let Some(pattern) = name_pattern(key, &finding.path) else {
                continue;
            };
            groups
                .entry((
                    rule.id,
                    finding.side,
                    finding.severity,
                    finding.confidence,
                    pattern,
                ))
                .or_default()
                .push((file, index));
        }
    }
    let mut folded: Vec<(usize, usize)> = Vec::new();
    let mut groups: Vec<(Group, Vec<(usize, usize)>)> = groups.into_iter().collect();
    groups.sort_by(|a, b| a.1.cmp(&b.1));
    for ((_, _, _, _, pattern), mut members) in groups {
        let mut file_count: Vec<usize> = members.iter().map(|(file, _)| *file).collect();
        file_count.dedup();
        if file_count.len() < MIN_FILES_ALIKE {
            continue;
        }
        members.sort_by(|a, b| {
            let (x, y) = (&files[a.0][a.1].2, &files[b.0][b.1].2);
            (&x.path, x.line).cmp(&(&y.path, y.line))
        });
        let (lead_file, lead_index) = members[0];
        let others: Vec<String> = members[1..]
            .iter()
            .take(3)
            .map(|(file, index)| {
                let (_, key, finding) = &files[*file][*index];
                format!("`{key}` ({})", finding.path)
            })
            .collect();
        let more = match members.len().saturating_sub(4) {
            0 => String::new(),
            more => format!(" and {more} more"),
        };
        let lead = &mut files[lead_file][lead_index];
        let summary = format!(
            "{} tests named `.._{}` in {} files, one cause: `{}`, {}{more} (the first: {})",
            members.len(),
            pattern,
            file_count.len(),
            lead.1,
            others.join(", "),
            lead.2.message
        );
        lead.2.message = crate::secrets::scanner().redact_line(&summary);
        *counted.entry(lead.0.id).or_default() += members.len() - 1;
        folded.extend(&members[1..]);
    }
    folded.sort_unstable();
    for (file, index) in folded.into_iter().rev() {
        files[file].remove(index);
    }
    counted
}

/// What the engine knows of one changed file when folding.
pub struct FileFate<'a> {
    /// Base-side path (the path a deleted test is reported at).
    pub path: &'a str,
    /// Head-side path, when the file is still there.
    pub head_path: Option<&'a str>,
    /// The change deletes the file, or moves it away from its base path.
    pub gone: bool,
}

/// "A test file or directory that leaves the suite is one finding": the `deleted-test`
/// findings of each deleted file become one, and those of deleted files under a directory
/// where the change deletes every file it touches become one for that directory, listing the
/// files. Severity and confidence are kept apart (a file deleted with the code it tested is a
/// warning, beside a file deleted on its own).
pub fn fold_deleted_files(files: &mut PerFile, fates: &[FileFate<'_>]) {
    use std::collections::{BTreeMap, HashSet};
    // Directories that keep or gain a file in this change: nothing above one is deleted whole.
    let mut surviving: HashSet<&str> = HashSet::new();
    for fate in fates {
        if !fate.gone {
            surviving.extend(ancestors(fate.path));
        }
        if let Some(path) = fate.head_path {
            surviving.extend(ancestors(path));
        }
    }
    // The subtree each deleted file leaves with: its highest ancestor in which the change
    // keeps no file, or the file alone. (Files the change does not touch may remain there: the
    // message names the deepest directory the group shares, and claims no removal.)
    let unit_of = |path: &'_ str| -> (bool, String) {
        match ancestors(path).find(|directory| !surviving.contains(directory)) {
            Some(directory) => (true, directory.to_string()),
            None => (false, path.to_string()),
        }
    };
    type Unit = (bool, String, Severity, crate::finding::Confidence);
    let mut units: BTreeMap<Unit, Vec<(usize, usize)>> = BTreeMap::new();
    for (file, findings) in files.iter().enumerate() {
        let Some(fate) = fates.get(file).filter(|fate| fate.gone) else {
            continue;
        };
        let (whole_directory, unit) = unit_of(fate.path);
        for (index, (rule, _, finding)) in findings.iter().enumerate() {
            if rule.id == "deleted-test" && finding.side == Side::Base {
                units
                    .entry((
                        whole_directory,
                        unit.clone(),
                        finding.severity,
                        finding.confidence,
                    ))
                    .or_default()
                    .push((file, index));
            }
        }
    }
    let mut folded: Vec<(usize, usize)> = Vec::new();
    for ((whole_directory, _, _, _), mut members) in units {
        if members.len() < 2 {
            continue;
        }
        members.sort_by(|a, b| {
            let (x, y) = (&files[a.0][a.1].2, &files[b.0][b.1].2);
            (&x.path, x.line).cmp(&(&y.path, y.line))
        });
        let mut paths: Vec<&str> = members
            .iter()
            .map(|(file, index)| files[*file][*index].2.path.as_str())
            .collect();
        paths.dedup();
        let names: Vec<String> = if whole_directory && paths.len() > 1 {
            paths.iter().map(|path| format!("`{path}`")).collect()
        } else {
            members
                .iter()
                .map(|(file, index)| format!("`{}`", files[*file][*index].1))
                .collect()
        };
        let listed = match names.len() {
            count if count > 4 => format!("{} and {} more", names[..3].join(", "), count - 3),
            _ => names.join(", "),
        };
        let (lead_file, lead_index) = members[0];
        let first = files[lead_file][lead_index].2.message.clone();
        let deleted = members
            .iter()
            .filter(|(file, _)| {
                fates
                    .get(*file)
                    .is_some_and(|fate| fate.head_path.is_none())
            })
            .count();
        let how = match deleted {
            0 => "no longer collected with their",
            all if all == members.len() => "deleted with their",
            _ => "deleted or no longer collected with their",
        };
        let summary = if whole_directory && paths.len() > 1 {
            format!(
                "{} tests {how} {} files under `{}/`: {listed} (the first: {first})",
                members.len(),
                paths.len(),
                common_directory(&paths),
            )
        } else {
            format!(
                "{} tests {how} file: {listed} (the first: {first})",
                members.len()
            )
        };
        let last_line = members
            .iter()
            .filter(|(file, _)| *file == lead_file)
            .map(|(file, index)| files[*file][*index].2.end_line)
            .max()
            .unwrap_or(files[lead_file][lead_index].2.end_line);
        let lead = &mut files[lead_file][lead_index].2;
        lead.message = crate::secrets::scanner().redact_line(&summary);
        lead.end_line = lead.end_line.max(last_line);
        folded.extend(&members[1..]);
    }
    folded.sort_unstable();
    for (file, index) in folded.into_iter().rev() {
        files[file].remove(index);
    }
}

/// The deepest directory all `paths` are in (empty for the repository's root).
fn common_directory<'p>(paths: &[&'p str]) -> &'p str {
    let Some(first) = paths.first() else {
        return "";
    };
    ancestors(first)
        .filter(|directory| {
            paths.iter().all(|path| {
                path.strip_prefix(directory)
                    .is_some_and(|rest| rest.starts_with('/'))
            })
        })
        .last()
        .unwrap_or("")
}

/// The directories above `path`, the highest first: `a`, `a/b` for `a/b/c.py`.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('/').map(move |(at, _)| &path[..at])
}

/// More findings than this of one flood-prone rule (and side, severity and confidence) in one
/// change become one.
pub const MAX_ALIKE_PER_CHANGE: usize = 20;

/// Rules whose findings one tooling change repeats across a tree (a lint upgrade adding a
/// suppression to every file, `# pragma: no cover` sprinkled by a script, a lockfile refresh
/// naming each package): many of them are one cause. Not the others: each skipped or deleted
/// test, swallowed error or committed secret is its own thing to review (a secret must be
/// rotated), and those are already folded per file.
const FLOOD_PRONE: &[&str] = &["disabled-check", "weakened-coverage", "new-dependency"];

/// Folds each group of more than [`MAX_ALIKE_PER_CHANGE`] findings of a [`FLOOD_PRONE`] rule
/// that share side, severity and confidence into its first (by path and line), whose message
/// then counts the others and names where the first few are. `findings` is sorted.
/// `folded` counts, per rule, the findings [`fold_across_files`] already folded into others:
/// they still count towards the bound.
pub fn fold_floods(findings: Vec<Finding>, folded: &HashMap<&'static str, usize>) -> Vec<Finding> {
    let findings = fold_alike_in_change(findings, TEST_FLOOD_PRONE, true, folded);
    fold_alike_in_change(findings, FLOOD_PRONE, false, &HashMap::new())
}

/// Test rules whose findings a refactor repeats across a tree (a package removed, an error
/// type renamed in every test): past [`MAX_ALIKE_PER_CHANGE`] alike findings in one change,
/// they are folded by directory, at the deepest level that leaves no more than that many, so
/// each area still has its own finding. (The other test rules are not: a skip or a focus is
/// one decision per test, and each is its own thing to review.)
const TEST_FLOOD_PRONE: &[&str] = &["deleted-test", "weakened-assertion"];

/// Folds each group of more than [`MAX_ALIKE_PER_CHANGE`] findings of `rules` that share side,
/// severity and confidence: into one finding, or (`by_directory`) into one per directory at
/// the deepest level that leaves no more than that many. `findings` is sorted.
fn fold_alike_in_change(
    findings: Vec<Finding>,
    rules: &[&str],
    by_directory: bool,
    folded_before: &HashMap<&'static str, usize>,
) -> Vec<Finding> {
    let mut groups: HashMap<Alike, Vec<usize>> = HashMap::new();
    for (index, finding) in findings.iter().enumerate() {
        if rules.contains(&finding.rule) {
            groups
                .entry((
                    finding.rule,
                    finding.side,
                    finding.severity,
                    finding.confidence,
                ))
                .or_default()
                .push(index);
        }
    }
    // By directory, the bound is on the rule: a refactor's 18 errors, 18 warnings and 19
    // notes of one rule are 55 findings of one cause. Each alike group then gets its share of
    // the bound in directories.
    let mut per_rule: HashMap<&str, usize> = HashMap::new();
    for ((rule, ..), members) in &groups {
        *per_rule.entry(rule).or_default() += members.len();
    }
    for (rule, total) in per_rule.iter_mut() {
        *total += folded_before.get(rule).copied().unwrap_or(0);
    }
    let mut folded = vec![false; findings.len()];
    let mut summaries: HashMap<usize, String> = HashMap::new();
    for ((rule, ..), members) in groups {
        let total = per_rule.get(rule).copied().unwrap_or(members.len());
        let over = if by_directory {
            total > MAX_ALIKE_PER_CHANGE
        } else {
            members.len() > MAX_ALIKE_PER_CHANGE
        };
        if !over {
            continue;
        }
        let areas = if by_directory {
            let share = (MAX_ALIKE_PER_CHANGE * members.len() / total.max(1)).max(1);
            areas_of(&findings, &members, share)
        } else {
            std::iter::once((String::new(), members)).collect()
        };
        for (area, mut area_members) in areas {
            if area_members.len() < 2 {
                continue;
            }
            area_members.sort_unstable();
            let lead = &findings[area_members[0]];
            let mut files: Vec<&str> = area_members
                .iter()
                .map(|index| findings[*index].path.as_str())
                .collect();
            files.dedup();
            let places: Vec<String> = area_members[1..]
                .iter()
                .take(3)
                .map(|index| format!("{}:{}", findings[*index].path, findings[*index].line))
                .collect();
            let (count, more) = (area_members.len() - 1, area_members.len().saturating_sub(4));
            let summary = if by_directory {
                let place = match area.as_str() {
                    "" => String::new(),
                    area => format!(" under `{area}/`"),
                };
                let more = match more {
                    0 => String::new(),
                    more => format!(" and {more} more"),
                };
                format!(
                    "{} (and {count} more `{}` findings{place} in {} files of this change: {}{more})",
                    lead.message,
                    lead.rule,
                    files.len(),
                    places.join(", "),
                )
            } else {
                format!(
                    "{} (and {count} more `{}` findings in {} files of this change, one cause: {} and {more} more)",
                    lead.message,
                    lead.rule,
                    files.len(),
                    places.join(", "),
                )
            };
            // Paths are the change's text, redacted like the messages.
            summaries.insert(
                area_members[0],
                crate::secrets::scanner().redact_line(&summary),
            );
            for index in &area_members[1..] {
                folded[*index] = true;
            }
        }
    }
    findings
        .into_iter()
        .enumerate()
        .filter(|(index, _)| !folded[*index])
        .map(|(index, mut finding)| {
            if let Some(summary) = summaries.remove(&index) {
                finding.message = summary;
            }
            finding
        })
        .collect()
}

/// `members` by directory, at the deepest level that gives no more than `limit` directories
/// (at worst, the whole change as one).
fn areas_of(
    findings: &[Finding],
    members: &[usize],
    limit: usize,
) -> std::collections::BTreeMap<String, Vec<usize>> {
    let by_depth = |depth: usize| {
        let mut areas: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        for index in members {
            let area = ancestors(&findings[*index].path)
                .take(depth)
                .last()
                .unwrap_or_default();
            areas.entry(area.to_string()).or_default().push(*index);
        }
        areas
    };
    let deepest = members
        .iter()
        .map(|index| ancestors(&findings[*index].path).count())
        .max()
        .unwrap_or(0);
    (0..=deepest)
        .rev()
        .map(by_depth)
        .find(|areas| areas.len() <= limit)
        .unwrap_or_else(|| by_depth(0))
}

/// A test's name without `test` and without the words of its file's name, joined by `_`:
/// `provider_pass_http_client` for `test_deep_seek_provider_pass_http_client` in
/// `tests/providers/test_deepseek.py`. `None` when fewer than two words are left.
fn name_pattern(key: &str, path: &str) -> Option<String> {
    let name = key
        .rsplit(crate::query::KEY_SEPARATOR)
        .next()
        .unwrap_or(key)
        .to_lowercase();
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file).to_lowercase();
    let words: Vec<&str> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty() && *word != "test" && *word != "tests")
        .filter(|word| !(word.len() >= 3 && stem.contains(word)))
        .collect();
    (words.len() >= 2).then(|| words.join("_"))
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
    fn name_patterns_drop_test_and_the_file_words() {
        assert_eq!(
            name_pattern(
                "test_deep_seek_provider_pass_http_client",
                "tests/providers/test_deepseek.py"
            )
            .as_deref(),
            Some("provider_pass_http_client")
        );
        assert_eq!(
            name_pattern("Suite › test_zai_roundtrip", "tests/test_zai.py"),
            None
        );
    }

    #[test]
    fn one_test_pattern_deleted_from_many_files_is_one_finding() {
        let rule = crate::rules::find("deleted-test").unwrap();
        let in_file = |name: &str, test: &str| {
            let mut found = finding(7, Severity::Error);
            found.path = format!("tests/test_{name}.py");
            (rule, format!("test_{name}_{test}"), found)
        };
        let mut files: PerFile = ["alpha", "bravo", "charlie"]
            .iter()
            .map(|name| vec![in_file(name, "pass_http_client"), in_file(name, "other")])
            .collect();
        files.push(vec![in_file("delta", "pass_ssl_context")]);
        fold_across_files(&mut files);
        let kept: Vec<usize> = files.iter().map(Vec::len).collect();
        // The three `pass_http_client` deletions are one; `other` is one word; `delta`'s stands
        // alone.
        assert_eq!(kept, vec![2, 1, 1, 1]);
        assert!(
            files[0][0]
                .2
                .message
                .starts_with("3 tests named `.._pass_http_client` in 3 files, one cause: `test_alpha_pass_http_client`, `test_bravo_pass_http_client` (tests/test_bravo.py)"),
            "{}",
            files[0][0].2.message
        );
    }

    fn deleted_in(
        path: &str,
        test: &str,
        line: u32,
        severity: Severity,
    ) -> (&'static Rule, String, Finding) {
        let rule = crate::rules::find("deleted-test").unwrap();
        let mut found = finding(line, severity);
        found.path = path.to_string();
        found.message = format!("test `{test}` was deleted with its file");
        (rule, test.to_string(), found)
    }

    fn fate<'a>(path: &'a str, deleted: bool) -> FileFate<'a> {
        FileFate {
            path,
            head_path: (!deleted).then_some(path),
            gone: deleted,
        }
    }

    #[test]
    fn a_deleted_test_file_is_one_finding_that_lists_its_tests() {
        let mut files: PerFile = vec![
            vec![
                deleted_in("pkg/tests/test_a.py", "test_one", 3, Severity::Error),
                deleted_in("pkg/tests/test_a.py", "test_two", 9, Severity::Error),
            ],
            vec![deleted_in(
                "pkg/tests/test_b.py",
                "test_three",
                4,
                Severity::Error,
            )],
        ];
        // test_b.py is edited, not deleted: its directory survives, and so does its finding.
        let fates = [
            fate("pkg/tests/test_a.py", true),
            fate("pkg/tests/test_b.py", false),
        ];
        fold_deleted_files(&mut files, &fates);
        assert_eq!(files.iter().map(Vec::len).collect::<Vec<_>>(), vec![1, 1]);
        let lead = &files[0][0].2;
        assert_eq!(
            lead.message,
            "2 tests deleted with their file: `test_one`, `test_two` (the first: test `test_one` was deleted with its file)"
        );
        assert_eq!(lead.end_line, 9);
    }

    #[test]
    fn test_files_deleted_under_one_directory_are_one_finding_per_severity() {
        let mut files: PerFile = vec![
            vec![deleted_in("cli/test/a.test.ts", "a", 1, Severity::Error)],
            vec![deleted_in(
                "cli/test/sub/b.test.ts",
                "b",
                1,
                Severity::Error,
            )],
            vec![deleted_in("cli/src/c.test.ts", "c", 1, Severity::Warning)],
            vec![deleted_in("cli/src/d.test.ts", "d", 1, Severity::Warning)],
            vec![deleted_in("other/e.test.ts", "e", 1, Severity::Error)],
            vec![],
        ];
        let fates = [
            fate("cli/test/a.test.ts", true),
            fate("cli/test/sub/b.test.ts", true),
            fate("cli/src/c.test.ts", true),
            fate("cli/src/d.test.ts", true),
            fate("other/e.test.ts", true),
            // `other/` keeps a file, so e.test.ts leaves alone.
            fate("other/keep.ts", false),
        ];
        fold_deleted_files(&mut files, &fates);
        let kept: Vec<usize> = files.iter().map(Vec::len).collect();
        assert_eq!(kept, vec![1, 0, 1, 0, 1, 0]);
        assert_eq!(
            files[0][0].2.message,
            "2 tests deleted with their 2 files under `cli/test/`: `cli/test/a.test.ts`, `cli/test/sub/b.test.ts` (the first: test `a` was deleted with its file)"
        );
        assert_eq!(files[2][0].2.severity, Severity::Warning);
        assert!(files[2][0].2.message.contains("under `cli/src/`"));
        assert_eq!(files[4][0].2.message, "test `e` was deleted with its file");
    }

    #[test]
    fn a_flood_of_deleted_tests_is_folded_by_directory_to_at_most_twenty() {
        let mut given: Vec<Finding> = Vec::new();
        for area in 0..3 {
            for file in 0..15 {
                let mut found = finding(1, Severity::Error);
                found.path = format!("packages/p{area}/test/f{file}.test.ts");
                given.push(found);
            }
        }
        given.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let out = fold_floods(given.clone(), &HashMap::new());
        assert_eq!(out.len(), 3, "{out:#?}");
        assert!(
            out[0].message.contains(
                "(and 14 more `deleted-test` findings under `packages/p0/test/` in 15 files"
            ),
            "{}",
            out[0].message
        );
        // Twenty alike findings are left as they are.
        let twenty: Vec<Finding> = given.into_iter().take(MAX_ALIKE_PER_CHANGE).collect();
        assert_eq!(fold_floods(twenty.clone(), &HashMap::new()), twenty);
    }

    #[test]
    fn deleted_tests_of_every_severity_count_together_toward_twenty() {
        let mut given: Vec<Finding> = Vec::new();
        for (area, severity) in [Severity::Error, Severity::Warning, Severity::Note]
            .into_iter()
            .enumerate()
        {
            for file in 0..9 {
                let mut found = finding(1, severity);
                found.path = format!("cli/test/a{area}/f{file}.test.ts");
                given.push(found);
            }
        }
        given.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let out = fold_floods(given.clone(), &HashMap::new());
        assert!(out.len() <= MAX_ALIKE_PER_CHANGE, "{}", out.len());
        // Each severity keeps its own finding: an error is never folded into a note.
        for severity in [Severity::Error, Severity::Warning, Severity::Note] {
            assert!(out.iter().any(|found| found.severity == severity));
        }
        // Under the bound nothing moves.
        let few: Vec<Finding> = given.into_iter().step_by(2).take(14).collect();
        assert_eq!(fold_floods(few.clone(), &HashMap::new()), few);
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
