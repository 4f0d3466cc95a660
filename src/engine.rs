//! The engine: runs every enabled rule over every changed file, in parallel, and turns the
//! rules' candidates into findings.
//!
//! Sits between the change set and the reporters. Per file it builds one [`FileContext`] (so
//! each side is parsed at most once, whatever the number of rules), then judges candidates
//! across files (a test moved between files is not a new skip), applies the policy's levels,
//! `allow:` entries and base-only inline suppressions, and attaches snippets.

use crate::changeset::{ChangeSet, FilePair};
use crate::config::{Level, Policy};
use crate::finding::{Confidence, Finding, Note, Severity, Side, stable_hash};
use crate::rules::likeness::{self, TestPrint};
use crate::rules::{
    ALL_RULES, Candidate, ChangeInput, ChangeOutput, Fact, FactRef, FileContext, Output, Rule,
    UNREADABLE_CHANGE, inventory, over_budget,
};
use crate::suppress;
use crate::text::{line_slice_at, line_starts};
use rayon::prelude::*;
use std::collections::HashMap;

/// Longest snippet attached to a finding, in lines.
const SNIPPET_LINES: usize = 8;
/// Longest snippet, in characters: one minified line can be megabytes long.
const SNIPPET_CHARS: usize = 1000;

/// The outcome of one analysis, before any formatting.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Merge-base commit.
    pub base: String,
    /// Head commit.
    pub head: String,
    /// Findings in output order.
    pub findings: Vec<Finding>,
    /// Per-file conditions that limited the analysis.
    pub notes: Vec<Note>,
    /// Changed files analysed (not ignored by the policy).
    pub files_scanned: usize,
    /// Findings that block under the policy's `fail-on`.
    pub blocking: usize,
    /// The test inventory delta, when the change touched test files.
    pub tests: Option<TestSummary>,
    /// Where the policy came from (`None` for a report that was not analysed here).
    pub policy: Option<crate::config::PolicyOrigin>,
}

/// How the set of tests changed: counts over the changed files' test inventories.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TestSummary {
    /// Tests in the changed files at base.
    pub base: usize,
    /// Tests in the changed files at head.
    pub head: usize,
    /// Net new tests: `base - deleted + added = head` (renamed and moved tests count in neither).
    pub added: usize,
    /// Tests only in base (reported by `deleted-test`).
    pub deleted: usize,
    /// Tests newly skipped (reported by `skipped-test`).
    pub skipped: usize,
}

/// Cross-file facts: (rule, side, fact name, language family, key) → strongest severity.
type FactTable<'a> = HashMap<(&'a str, Side, &'a str, &'a str, &'a str), Severity>;

struct FileResult {
    candidates: Vec<(&'static Rule, Candidate)>,
    facts: Vec<(&'static str, Fact)>,
    handoffs: Vec<(&'static str, Box<dyn std::any::Any + Send>)>,
    /// Prints of new or changed tests, where deleted tests may live on.
    prints: Vec<TestPrint>,
    notes: Vec<Note>,
    /// Collected test ids per side, with the language family, for the inventory summary.
    tests: Option<(&'static str, Vec<String>, Vec<String>)>,
}

/// The workspace declarations that decide whose the changed fixture-looking manifests are:
/// both sides of the declaring files the change touched (ignored paths included: they still
/// declare), and the base side of the others.
pub fn workspaces(change: &ChangeSet) -> crate::workspace::Workspaces {
    let wanted = crate::workspace::files_to_read(
        change
            .files
            .iter()
            .flat_map(|pair| [pair.old_path.as_deref(), pair.new_path.as_deref()])
            .flatten(),
    );
    if wanted.is_empty() {
        return crate::workspace::Workspaces::default();
    }
    // A side that exists but is not text (too large, a symlink) counts as unreadable.
    let touched = change.files.iter().flat_map(|pair| {
        [
            (pair.old_path.as_deref(), &pair.base),
            (pair.new_path.as_deref(), &pair.head),
        ]
        .into_iter()
        .filter_map(|(path, content)| Some((path?, content)))
        .filter(|(path, content)| {
            wanted.contains(*path) && !matches!(content, crate::changeset::Content::Absent)
        })
        .map(|(path, content)| match content {
            crate::changeset::Content::Text(text) => (path, Some(text.as_str())),
            _ => (path, None),
        })
    });
    let untouched = change
        .workspace_files
        .iter()
        .map(|(path, text)| (path.as_str(), text.as_deref()));
    crate::workspace::Workspaces::new(touched.chain(untouched))
}

/// Analyses a change set under a policy.
pub fn analyze(change: &ChangeSet, policy: &Policy) -> Report {
    // A pair is skipped only when every path it has is ignored: a file renamed out of an
    // analysed path into an ignored one is analysed as the rename it is (a skip added on the
    // way is found; leaving the runner's collection is a deleted test), never dropped.
    let pairs: Vec<&FilePair> = change
        .files
        .iter()
        .filter(|pair| !pair_paths(pair).all(|path| policy.is_ignored(path)))
        .collect();
    let rules: Vec<&'static Rule> = ALL_RULES
        .iter()
        .copied()
        .filter(|rule| {
            (rule.check.is_some() || rule.change_check.is_some())
                && policy.level(rule) != Level::Off
        })
        .collect();
    let texts: Vec<(crate::lang::Language, &str)> = pairs
        .iter()
        .filter_map(|pair| Some((crate::lang::Language::from_path(pair.path())?, *pair)))
        .flat_map(|(language, pair)| {
            [pair.base.text(), pair.head.text()]
                .into_iter()
                .flatten()
                .map(move |text| (language, text))
        })
        .collect();
    let compiling = crate::timings::span("phase", || "compile queries".into());
    let prefilters = crate::query::Prefilters::new(&texts);
    crate::query::warm(&texts, &prefilters);
    drop(compiling);
    let collecting = crate::timings::span("phase", || "runner configs".into());
    let collection = crate::rules::collection::Collection::from_configs(&change.runner_configs)
        .with_head_changes(&change.files)
        .with_base_js_files(&change.base_js_files);
    drop(collecting);
    let removed = removed_definitions(&pairs, &collection);
    crate::progress::start(pairs.len());
    let results: Vec<FileResult> = pairs
        .par_iter()
        .map(|pair| {
            let started = crate::timings::enabled().then(std::time::Instant::now);
            let result = analyze_file(
                pair,
                &rules,
                &collection,
                &prefilters,
                &removed,
                &policy.test_functions,
            );
            crate::progress::tick();
            if let Some(started) = started {
                let bytes = [pair.base.text(), pair.head.text()]
                    .into_iter()
                    .flatten()
                    .map(str::len)
                    .sum();
                crate::timings::file(pair.path(), started.elapsed(), bytes);
            }
            result
        })
        .collect();
    crate::progress::finish();
    let _judging = crate::timings::span("phase", || "judge across files".into());

    let mut facts: FactTable = HashMap::new();
    for result in &results {
        for (rule, fact) in &result.facts {
            let entry = facts
                .entry((rule, fact.side, fact.name, fact.family, fact.key.as_str()))
                .or_insert(fact.severity);
            *entry = (*entry).max(fact.severity);
        }
    }

    let successors = likeness::Index::new(results.iter().flat_map(|result| &result.prints));
    let added_literals = added_test_literals(&pairs, &results);
    let mut findings = Vec::new();
    let mut notes: Vec<Note> = change.notes.clone();
    notes.extend(
        pairs
            .iter()
            .filter(|pair| pair_paths(pair).any(|path| policy.is_ignored(path)))
            .map(|pair| Note {
                path: pair.path().to_string(),
                message: "moved between an ignored and an analysed path: analysed as a rename; \
                          changes inside the policy's `ignore:` paths are not analysed"
                    .to_string(),
            }),
    );
    let workspaces = workspaces(change);
    let mut judged: HashMap<&str, usize> = HashMap::new();
    let mut per_file: crate::repeats::PerFile = Vec::new();
    for (pair, result) in pairs.iter().zip(&results) {
        notes.extend(result.notes.iter().cloned());
        let mut kept = Vec::new();
        for (rule, candidate) in &result.candidates {
            let Some(candidate) = judge_across_files(
                rule,
                candidate.clone(),
                &facts,
                &successors,
                &added_literals,
            ) else {
                continue;
            };
            *judged.entry(rule.id).or_default() += 1;
            kept.push((*rule, candidate));
        }
        let lines = LineStarts::default();
        let mut shown = Vec::new();
        for (rule, candidate) in crate::repeats::collapse(kept) {
            let key = candidate.key.clone();
            if let Some(finding) = to_finding(rule, candidate, pair, policy, &lines) {
                shown.push((rule, key, finding));
            }
        }
        per_file.push(shown);
    }
    let fates: Vec<crate::repeats::FileFate> = pairs
        .iter()
        .map(|pair| crate::repeats::FileFate {
            path: pair.old_path.as_deref().unwrap_or(pair.path()),
            head_path: pair.new_path.as_deref(),
            gone: pair.old_path.is_some() && pair.new_path != pair.old_path,
        })
        .collect();
    crate::repeats::fold_deleted_files(&mut per_file, &fates);
    let folded_across_files = crate::repeats::fold_across_files(&mut per_file);
    for shown in per_file {
        findings.extend(crate::repeats::aggregate(shown));
    }
    for rule in &rules {
        let Some(change_check) = rule.change_check else {
            continue;
        };
        let input = ChangeInput {
            pairs: &pairs,
            workspaces: &workspaces,
            policy,
            head_top_level: change.head_top_level.as_ref(),
            related_tests: &change.related_tests,
            handoffs: results
                .iter()
                .enumerate()
                .flat_map(|(index, result)| {
                    result
                        .handoffs
                        .iter()
                        .filter(|(id, _)| *id == rule.id)
                        .map(move |(_, handoff)| (index, handoff.as_ref()))
                })
                .collect(),
        };
        let mut output = ChangeOutput::default();
        let checking = crate::timings::span("rule", || format!("{} (across files)", rule.id));
        change_check(&input, &mut output);
        drop(checking);
        notes.extend(output.notes);
        // Per file, like the per-file rules' findings: many alike become one.
        let mut by_file: HashMap<usize, Vec<Candidate>> = HashMap::new();
        for (index, candidate) in output.candidates {
            by_file.entry(index).or_default().push(candidate);
        }
        let mut by_file: Vec<(usize, Vec<Candidate>)> = by_file.into_iter().collect();
        by_file.sort_by_key(|(index, _)| *index);
        for (index, candidates) in by_file {
            let Some(pair) = pairs.get(index) else {
                continue;
            };
            let lines = LineStarts::default();
            let mut shown = Vec::new();
            for candidate in candidates {
                let key = candidate.key.clone();
                if let Some(finding) = to_finding(rule, candidate, pair, policy, &lines) {
                    shown.push((*rule, key, finding));
                }
            }
            findings.extend(crate::repeats::aggregate(shown));
        }
    }
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings.dedup_by(|a, b| a.sort_key() == b.sort_key());
    let mut findings = crate::repeats::fold_floods(findings, &folded_across_files);
    // Last: the other rules' findings are its evidence.
    findings.extend(claim_findings(change, &pairs, &findings, policy));
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    // A path or a note can carry a secret as well as a line can (a token used as a file name).
    let scanner = crate::secrets::scanner();
    for note in &mut notes {
        note.path = scanner.redact_path(&note.path);
        note.message = scanner.redact_line(&note.message);
    }
    notes.sort();
    notes.dedup();
    let blocking = findings
        .iter()
        .filter(|finding| policy.fail_on.blocks(finding.severity))
        .count();
    Report {
        base: change.base.clone(),
        head: change.head.clone(),
        findings,
        notes,
        files_scanned: pairs.len(),
        blocking,
        tests: test_summary(&results, &judged, &rules),
        policy: Some(policy.source.clone()),
    }
}

/// `unbacked-claim`: the change's claims that its findings (or its files) contradict, through
/// the same policy, suppression and redaction steps as every rule's.
fn claim_findings(
    change: &ChangeSet,
    pairs: &[&FilePair],
    findings: &[Finding],
    policy: &Policy,
) -> Vec<Finding> {
    let rule = &crate::rules::UNBACKED_CLAIM;
    if change.claims.is_empty() || policy.level(rule) == Level::Off {
        return Vec::new();
    }
    let _checking = crate::timings::span("rule", || rule.id.to_string());
    crate::claims::contradictions(&change.claims, pairs, findings)
        .into_iter()
        .filter_map(|(index, candidate)| {
            let pair = pairs.get(index)?;
            to_finding(rule, candidate, pair, policy, &LineStarts::default())
        })
        .collect()
}

/// The literals on the lines the change adds to test files, read only when some deleted test
/// is looked for under other names.
fn added_test_literals(pairs: &[&FilePair], results: &[FileResult]) -> likeness::AddedLiterals {
    let wanted = results.iter().any(|result| {
        result
            .candidates
            .iter()
            .any(|(_, candidate)| candidate.moved.as_ref().is_some_and(|m| m.print.is_some()))
    });
    if !wanted {
        return likeness::AddedLiterals::default();
    }
    let lines = pairs
        .iter()
        .filter(|pair| {
            pair.new_path
                .as_deref()
                .is_some_and(crate::rules::is_test_path)
        })
        .filter_map(|pair| Some((pair.head.text()?, *pair)))
        .flat_map(|(text, pair)| {
            let starts = line_starts(text);
            pair.added
                .iter()
                .filter_map(|line| {
                    let index = usize::try_from(line).ok()?.checked_sub(1)?;
                    let start = *starts.get(index)?;
                    let end = starts.get(index + 1).copied().unwrap_or(text.len());
                    text.get(start..end)
                })
                .collect::<Vec<&str>>()
        });
    likeness::AddedLiterals::of_lines(lines)
}

/// The old and new path of a pair (one of them for an added or deleted file).
fn pair_paths(pair: &FilePair) -> impl Iterator<Item = &str> {
    [&pair.old_path, &pair.new_path]
        .into_iter()
        .flatten()
        .map(String::as_str)
}

/// Adds findings produced outside the engine (the `--online` registry look-ups) to a report,
/// through the same policy, suppression and redaction steps, keeping order and counts right.
pub fn append(
    report: &mut Report,
    change: &ChangeSet,
    policy: &Policy,
    rule: &'static Rule,
    candidates: Vec<(usize, Candidate)>,
) {
    if policy.level(rule) == Level::Off {
        return;
    }
    for (index, candidate) in candidates {
        let Some(pair) = change.files.get(index) else {
            continue;
        };
        if let Some(finding) = to_finding(rule, candidate, pair, policy, &LineStarts::default()) {
            report.findings.push(finding);
        }
    }
    report
        .findings
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    report
        .findings
        .dedup_by(|a, b| a.sort_key() == b.sort_key());
    report.blocking = report
        .findings
        .iter()
        .filter(|finding| policy.fail_on.blocks(finding.severity))
        .count();
}

/// The inventory delta over the changed files. `deleted` and `skipped` count what the two
/// rules judged (so moves and renames are not deletions); when a rule is off, `deleted` falls
/// back to identities missing from every head, and `skipped` is 0. `added` is the net growth
/// once deletions are accounted for.
fn test_summary(
    results: &[FileResult],
    judged: &HashMap<&str, usize>,
    rules: &[&'static Rule],
) -> Option<TestSummary> {
    let inventories: Vec<_> = results.iter().filter_map(|r| r.tests.as_ref()).collect();
    if inventories.is_empty() {
        return None;
    }
    let side = |head: bool| {
        inventories
            .iter()
            .flat_map(|tests| {
                let ids = if head { &tests.2 } else { &tests.1 };
                ids.iter().map(|id| (tests.0, id.as_str()))
            })
            .collect::<std::collections::HashSet<_>>()
    };
    let base = side(false);
    let head = side(true);
    let enabled = |id: &str| rules.iter().any(|rule| rule.id == id);
    let deleted = if enabled("deleted-test") {
        judged.get("deleted-test").copied().unwrap_or(0)
    } else {
        base.difference(&head).count()
    };
    let base_count: usize = inventories.iter().map(|tests| tests.1.len()).sum();
    let head_count: usize = inventories.iter().map(|tests| tests.2.len()).sum();
    // Net new tests, so that `base - deleted + added = head`: a renamed or moved test is
    // neither deleted nor added.
    let added = (head_count + deleted).saturating_sub(base_count);
    Some(TestSummary {
        base: base_count,
        head: head_count,
        added,
        deleted,
        skipped: judged.get("skipped-test").copied().unwrap_or(0),
    })
}

/// What the change removes from production code, for rules that tell a feature taken away from
/// a check dodged.
fn removed_definitions(
    pairs: &[&FilePair],
    collection: &crate::rules::collection::Collection,
) -> crate::rules::subjects::Removed {
    let _reading = crate::timings::span("phase", || "removed definitions".into());
    crate::rules::subjects::Removed::of_change(pairs, |pair| {
        let Some(path) = pair.old_path.as_deref().or(pair.new_path.as_deref()) else {
            return false;
        };
        match crate::lang::Language::from_path(path) {
            // Every Rust file may hold tests; its inline test module is left out by line.
            Some(crate::lang::Language::Rust) | None => false,
            Some(language) => inventory::is_test_file(path, Side::Base, language, collection),
        }
    })
}

fn analyze_file(
    pair: &FilePair,
    rules: &[&'static Rule],
    collection: &crate::rules::collection::Collection,
    prefilters: &crate::query::Prefilters,
    removed: &crate::rules::subjects::Removed,
    test_functions: &crate::rules::aliases::TestFunctions,
) -> FileResult {
    let mut result = FileResult {
        candidates: Vec::new(),
        facts: Vec::new(),
        handoffs: Vec::new(),
        prints: Vec::new(),
        notes: Vec::new(),
        tests: None,
    };
    if let Some(reason) = pair.skip_reason() {
        result.notes.push(Note {
            path: pair.path().to_string(),
            message: reason.to_string(),
        });
    }
    let context = FileContext::new(pair, collection, prefilters)
        .with_removed(removed)
        .with_test_functions(test_functions);
    for rule in rules {
        let applies = rule.languages.is_empty()
            || context
                .language
                .is_some_and(|language| rule.languages.contains(&language));
        let Some(check) = rule.check.filter(|_| applies) else {
            continue;
        };
        let mut output = Output::default();
        let checking = crate::timings::span("rule", || rule.id.to_string());
        check(&context, &mut output);
        drop(checking);
        result.candidates.extend(
            output
                .candidates
                .into_iter()
                .map(|candidate| (*rule, candidate)),
        );
        result
            .facts
            .extend(output.facts.into_iter().map(|fact| (rule.id, fact)));
        result.prints.extend(output.prints);
        result.handoffs.extend(
            output
                .handoffs
                .into_iter()
                .map(|handoff| (rule.id, handoff)),
        );
    }
    if let Some(language) = context.language {
        let _counting = crate::timings::span("rule", || "(test counts for the summary)".into());
        let base = inventory::collected_ids(&context, Side::Base);
        let head = inventory::collected_ids(&context, Side::Head);
        if !base.is_empty() || !head.is_empty() {
            result.tests = Some((language.family(), base, head));
        }
    }
    // Known only once every rule (and the inventory) has run, so the engine reports it on the
    // rule's behalf.
    if let Some(rule) = rules.iter().find(|rule| rule.id == UNREADABLE_CHANGE.id) {
        result.candidates.extend(
            over_budget(&context)
                .into_iter()
                .map(|candidate| (*rule, candidate)),
        );
    }
    hazard_findings(&context, rules, &mut result);
    for (side, errors) in context.parse_errors() {
        result.notes.push(Note {
            path: pair.path().to_string(),
            message: format!(
                "{errors} syntax error(s) on the {} side; syntax rules ran on the recovered tree",
                side.as_str()
            ),
        });
    }
    result
}

/// Shapes the syntax rules cannot search (nesting past [`crate::lang::MAX_SYNTAX_DEPTH`], a
/// run of more than [`crate::lang::MAX_TOKEN_RUN`] bare tokens). A change that brings one in has
/// blinded the syntax rules on this file (a padded array is enough), so that is an
/// `unreadable-change` error; a shape base already had is a warning; one only in base, a note.
fn hazard_findings(context: &FileContext<'_>, rules: &[&'static Rule], result: &mut FileResult) {
    let found = context.hazards();
    let head = found
        .iter()
        .find(|(side, _)| *side == Side::Head)
        .map(|(_, h)| *h);
    if head.is_some() {
        // Base is judged too, even when no rule needed its tree.
        context.parsed(Side::Base);
    }
    let base = context
        .hazards()
        .into_iter()
        .find(|(side, _)| *side == Side::Base)
        .map(|(_, hazards)| hazards);
    let describe = |hazards: crate::lang::Hazards, side: Side| {
        if hazards.token_run {
            format!(
                "more than {} tokens in a row without code between them on the {} side; \
                 syntax rules did not run on it",
                crate::lang::MAX_TOKEN_RUN,
                side.as_str()
            )
        } else {
            format!(
                "code nested deeper than {} levels on the {} side; syntax rules did not look \
                 below that depth",
                crate::lang::MAX_SYNTAX_DEPTH,
                side.as_str()
            )
        }
    };
    let path = context.pair.path().to_string();
    if let Some(hazards) = base.filter(|_| head.is_none()) {
        result.notes.push(Note {
            path,
            message: describe(hazards, Side::Base),
        });
        return;
    }
    let Some(hazards) = head else {
        return;
    };
    let severity = if base == Some(hazards) {
        Severity::Warning
    } else {
        Severity::Error
    };
    match rules.iter().find(|rule| rule.id == UNREADABLE_CHANGE.id) {
        Some(rule) => result.candidates.push((
            *rule,
            Candidate::at_line(
                Side::Head,
                1,
                severity,
                describe(hazards, Side::Head),
                "syntax-hazard".to_string(),
            ),
        )),
        None => result.notes.push(Note {
            path,
            message: describe(hazards, Side::Head),
        }),
    }
}

/// Applies the cross-file facts: drops a candidate that some changed file already explains (a
/// moved test that was skipped before; a deleted test that lives on in another file's head,
/// under its name or, via `also`, its body), and raises one whose test existed in another file.
/// A deleted test with the same code under another name elsewhere is a move; one with a
/// plausible successor becomes a `likely` finding that names it.
fn judge_across_files(
    rule: &Rule,
    mut candidate: Candidate,
    facts: &FactTable,
    successors: &likeness::Index<'_>,
    added_literals: &likeness::AddedLiterals,
) -> Option<Candidate> {
    let Some(moved) = candidate.moved.take() else {
        return Some(candidate);
    };
    let fact_for = |fact: FactRef, key: &str| {
        facts
            .get(&(rule.id, fact.side, fact.name, moved.family, key))
            .copied()
    };
    let fact = |fact: FactRef| fact_for(fact, moved.key.as_str());
    let drops = |found: Option<Severity>| found.is_some_and(|other| other >= candidate.severity);
    if drops(fact(moved.already))
        || moved
            .also
            .iter()
            .any(|(other, key)| drops(fact_for(*other, key)))
    {
        return None;
    }
    if let Some((_, _, more)) = moved
        .likely
        .iter()
        .find(|(other, key, _)| fact_for(*other, key).is_some())
    {
        candidate.confidence = Confidence::Likely;
        candidate.message.push_str(more);
    } else if let Some((print, message)) = &moved.print {
        if let Some(successor) = successors.successor(print) {
            if successor.likeness == likeness::Likeness::Same {
                return None;
            }
            candidate.confidence = Confidence::Likely;
            candidate.message = format!(
                "{message}; it may live on as `{}` ({}:{}), which shares {}",
                successor.print.key, successor.print.path, successor.print.line, successor.evidence
            );
        } else if let Some((found, total, what)) = added_literals.returned(print) {
            candidate.confidence = Confidence::Likely;
            candidate.message = format!(
                "{message}; {found} of its {total} {what} reappear on lines the change adds to \
                 tests (folded into a table or another test?)"
            );
        }
    }
    if let Some((name, severity, message)) = moved.existed {
        if fact(name).is_none() {
            // A note-level candidate stands only for a test that existed in another file.
            return (candidate.severity > Severity::Note).then_some(candidate);
        }
        if candidate.severity < severity {
            candidate.severity = severity;
            candidate.message = message;
        }
    }
    Some(candidate)
}

/// Each side's [`line_starts`], found on first use and shared by the findings of one file.
#[derive(Default)]
struct LineStarts<'a> {
    base: std::cell::OnceCell<Vec<usize>>,
    head: std::cell::OnceCell<Vec<usize>>,
    /// Where head's lines stood in base, for suppressions: built once per file, since a file
    /// can carry thousands of findings (and copied suppressions).
    placement: std::cell::OnceCell<Option<suppress::Placement<'a>>>,
}

impl<'a> LineStarts<'a> {
    /// The 1-based line `number` of `side`'s text.
    fn line(&self, pair: &'a FilePair, side: Side, number: u32) -> Option<String> {
        let (text, starts) = match side {
            Side::Head => (pair.head.text()?, &self.head),
            Side::Base => (pair.base.text()?, &self.base),
        };
        let starts = starts.get_or_init(|| line_starts(text));
        (number as usize <= starts.len()).then(|| line_slice_at(text, starts, number, number, 1))
    }
}

fn to_finding<'a>(
    rule: &'static Rule,
    candidate: Candidate,
    pair: &'a FilePair,
    policy: &Policy,
    lines: &LineStarts<'a>,
) -> Option<Finding> {
    let (path, text) = match candidate.side {
        Side::Head => (pair.new_path.as_deref(), pair.head.text()),
        Side::Base => (pair.old_path.as_deref(), pair.base.text()),
    };
    let path = path.unwrap_or_else(|| pair.path());
    if policy.allowed(rule.id, path).is_some() {
        return None;
    }
    if suppressed(rule.id, &candidate, pair, lines) {
        return None;
    }
    let severity = match policy.rules.get(rule.id) {
        Some(Level::On(severity)) => *severity,
        Some(Level::Off) => return None,
        None => candidate.severity,
    };
    // A guess ranks one step lower unless the policy says how high it ranks, and never above
    // the rule's level.
    let severity = match candidate.confidence {
        Confidence::Certain => severity,
        Confidence::Likely => policy
            .likely
            .get(rule.id)
            .map_or_else(|| severity.lower(), |likely| (*likely).min(severity)),
    };
    // Redaction happens here, once, for every rule: no reporter can show what a finding
    // never holds.
    let scanner = crate::secrets::scanner();
    // Cut after redacting, so that a cut can never leave part of a secret unrecognised.
    let snippet = text
        .map(|text| {
            let starts = match candidate.side {
                Side::Head => &lines.head,
                Side::Base => &lines.base,
            }
            .get_or_init(|| line_starts(text));
            line_slice_at(
                text,
                starts,
                candidate.line,
                candidate.end_line,
                SNIPPET_LINES,
            )
        })
        .map(|snippet| {
            crate::rules::markers::shorten(&scanner.redact_text(&snippet), SNIPPET_CHARS)
        })
        .unwrap_or_default();
    let message = scanner.redact_line(&candidate.message);
    // A token used as a file name is shown redacted like any other: losing the annotation's
    // placement on GitHub is better than printing the token (see `leaked-secret`).
    let path = scanner.redact_path(path);
    Some(Finding {
        rule: rule.id,
        severity,
        line: candidate.line,
        end_line: candidate.end_line.max(candidate.line),
        side: candidate.side,
        fingerprint: stable_hash(&[rule.id, &path, &candidate.key]),
        path,
        message,
        confidence: candidate.confidence,
        snippet,
    })
}

/// A suppression counts when it is on the finding's first line or the line above, names the
/// rule and gives a reason, and stood in base at that place (see [`suppress::stood_in_base`]);
/// a finding about base (a removal) may rest on any base suppression.
fn suppressed<'a>(
    rule: &str,
    candidate: &Candidate,
    pair: &'a FilePair,
    lines: &LineStarts<'a>,
) -> bool {
    if pair.base.text().is_none() {
        return false;
    }
    let first = candidate.line.saturating_sub(1).max(1);
    (first..=candidate.line).any(|number| {
        let Some(line) = lines.line(pair, candidate.side, number) else {
            return false;
        };
        suppress::parse_line(&line).is_some_and(|suppression| {
            suppression.covers(rule)
                && suppression.reason.is_some()
                && (candidate.side == Side::Base
                    || lines
                        .placement
                        .get_or_init(|| suppress::Placement::new(pair))
                        .as_ref()
                        .is_some_and(|placement| placement.stood_in_base(number)))
        })
    })
}
