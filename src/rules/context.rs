//! What a rule sees of one changed file: both sides' text, parsed lazily and at most once, query
//! results cached per side, and the lines the change added.

use crate::changeset::FilePair;
use crate::finding::{Confidence, Severity, Side};
use crate::lang::{self, Language, Parsed};
use crate::query::{self, QueryMatch};
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// Query results per side and query name.
type MatchCache = HashMap<(Side, &'static str), Rc<Vec<QueryMatch>>>;

/// One side of a file pair, with its parse done on first use.
pub struct SideText<'a> {
    /// Repo-relative path on this side.
    pub path: &'a str,
    /// The text.
    pub text: &'a str,
    parsed: OnceCell<Result<Parsed, lang::ParseError>>,
    /// Set with the parse: what bounds the queries on this side.
    hazards: OnceCell<lang::Hazards>,
}

/// What a rule proposes; the engine applies policy and suppressions and builds the finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Which side the lines refer to.
    pub side: Side,
    /// 1-based first line.
    pub line: u32,
    /// 1-based last line.
    pub end_line: u32,
    /// The evidence's strength; the policy may replace it.
    pub severity: Severity,
    /// What changed, in one sentence.
    pub message: String,
    /// Stable identity within the file (a test's qualified name), for fingerprints.
    pub key: String,
    /// Whether the judgement rests on a guess; a `likely` candidate is shown one severity
    /// lower unless the policy says otherwise.
    pub confidence: Confidence,
    /// How the engine re-judges this candidate against the base side of the other changed
    /// files, so a test moved between files is recognised.
    pub moved: Option<Moved>,
}

impl Candidate {
    /// A candidate about one line, judged within its own file.
    pub fn at_line(
        side: Side,
        line: u32,
        severity: Severity,
        message: String,
        key: String,
    ) -> Candidate {
        Candidate {
            side,
            line,
            end_line: line,
            severity,
            message,
            key,
            moved: None,
            confidence: crate::finding::Confidence::Certain,
        }
    }
}

/// Cross-file judgement for a candidate: tests move between files, so "already skipped in
/// base", "existed in base" and "still exists in head" must look at every changed file, not
/// only this one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The key in the cross-file fact table: language family and qualified name.
    pub family: &'static str,
    /// Qualified name, as in [`Candidate::key`].
    pub key: String,
    /// Fact meaning "already like this"; a fact of at least the candidate's severity drops the
    /// candidate (skipped-test: skipped in some base file; deleted-test: the test exists in
    /// some head file).
    pub already: FactRef,
    /// Fact meaning "this test existed in base"; when present, the candidate is raised to
    /// `existed_severity` with `existed_message`.
    pub existed: Option<(FactRef, Severity, String)>,
    /// Other facts, each under its own key, that drop the candidate like `already` does
    /// (deleted-test: the test's body, under another name, in another file's head).
    pub also: Vec<(FactRef, String)>,
    /// deleted-test: what the test was made of, to look for a successor under another name
    /// among the new tests of every changed file ([`super::likeness`]), and the message's
    /// start should a plausible one be found (the engine names the successor after it).
    pub print: Option<(Box<super::likeness::TestPrint>, String)>,
    /// Facts, each under its own key, that make the candidate `likely` rather than drop it,
    /// with what to add to its message (deleted-test: a class still inherits a test of that
    /// name, rewritten).
    pub likely: Vec<(FactRef, String, String)>,
}

/// Names a kind of fact on one side of the change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FactRef {
    /// The side the fact describes.
    pub side: Side,
    /// What kind of fact (`skipped`, `focused`, `test`).
    pub name: &'static str,
}

impl FactRef {
    /// A fact about the base side.
    pub const fn base(name: &'static str) -> FactRef {
        FactRef {
            side: Side::Base,
            name,
        }
    }

    /// A fact about the head side.
    pub const fn head(name: &'static str) -> FactRef {
        FactRef {
            side: Side::Head,
            name,
        }
    }
}

/// Something true of one side of a changed file that other files' candidates may depend on.
///
/// Facts carry a side because the two directions of a move need opposite sides: a skip added
/// in head is judged against the base of every file ("was it already skipped there?"), while a
/// test missing from head is judged against the head of every file ("does it live on
/// elsewhere?"). One table keyed by side serves both without rule-specific engine code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// Which side of its file the fact describes.
    pub side: Side,
    /// What kind of fact (`skipped`, `focused`, `test`).
    pub name: &'static str,
    /// Language family.
    pub family: &'static str,
    /// Qualified name.
    pub key: String,
    /// Strength (for `skipped`: conditional skips are weaker than unconditional ones).
    pub severity: Severity,
}

/// What a rule's check produces for one file.
#[derive(Debug, Default)]
pub struct Output {
    /// Proposed findings.
    pub candidates: Vec<Candidate>,
    /// Facts about either side, shared with the other files' candidates.
    pub facts: Vec<Fact>,
    /// Prints of the tests new or changed in head, where a deleted test may live on.
    pub prints: Vec<super::likeness::TestPrint>,
    /// Data for the rule's own change-level check ([`super::ChangeInput::handoffs`]), which
    /// judges what only two files together show. Only the rule that made it reads it.
    pub handoffs: Vec<Box<dyn std::any::Any + Send>>,
}

/// Everything a rule may read about one changed file.
pub struct FileContext<'a> {
    /// The pair being judged.
    pub pair: &'a FilePair,
    /// The language of the head path (or the base path for deletions), if it has a grammar.
    pub language: Option<Language>,
    /// How the test runner collects tests in this change (base configuration).
    pub collection: &'a super::collection::Collection,
    prefilters: &'a query::Prefilters,
    base: Option<SideText<'a>>,
    head: Option<SideText<'a>>,
    cache: RefCell<MatchCache>,
    /// When this file's parses and queries must stop (one budget per file, so a crafted file
    /// cannot hold the run; see [`lang::parse_budget`]).
    deadline: lang::budget::Deadline,
    /// Whether a query was abandoned at the deadline, leaving some rule's answer incomplete.
    cut_short: Cell<bool>,
    /// The test inventory of each side (base, head), once built.
    tests: [OnceCell<Rc<Vec<super::inventory::Test>>>; 2],
    /// What the whole change removes from production code.
    removed: &'a super::subjects::Removed,
    /// The policy's own test-function names per rule.
    test_functions: &'a super::aliases::TestFunctions,
    /// Matches with the file's aliases of test functions resolved ([`super::aliases`]).
    resolved: RefCell<MatchCache>,
    /// Each side's aliases, once collected.
    bindings: [OnceCell<super::aliases::Bindings>; 2],
    /// The edits head was reparsed from base's tree with, when it was.
    head_edits: OnceCell<Vec<tree_sitter::InputEdit>>,
    /// Each query group's output per side, by group address (see [`FileContext::run_group`]).
    group_runs: RefCell<GroupRuns>,
}

/// Per (side, group address): each member's matches, before prefilters.
/// Shared with the per-query cache, so a group's matches are held once.
type GroupRuns = HashMap<(Side, usize), (Vec<Rc<Vec<QueryMatch>>>, bool)>;

impl<'a> FileContext<'a> {
    /// Builds the context; nothing is parsed until a rule asks.
    pub fn new(
        pair: &'a FilePair,
        collection: &'a super::collection::Collection,
        prefilters: &'a query::Prefilters,
    ) -> FileContext<'a> {
        let side = |path: Option<&'a String>, text: Option<&'a str>| match (path, text) {
            (Some(path), Some(text)) => Some(SideText {
                path,
                text,
                parsed: OnceCell::new(),
                hazards: OnceCell::new(),
            }),
            _ => None,
        };
        FileContext {
            pair,
            language: Language::from_path(pair.path()),
            collection,
            prefilters,
            base: side(pair.old_path.as_ref(), pair.base.text()),
            head: side(pair.new_path.as_ref(), pair.head.text()),
            cache: RefCell::new(HashMap::new()),
            deadline: lang::budget::Deadline::after(lang::parse_budget()),
            cut_short: Cell::new(false),
            tests: [OnceCell::new(), OnceCell::new()],
            removed: super::subjects::Removed::none(),
            test_functions: super::aliases::no_test_functions(),
            resolved: RefCell::new(HashMap::new()),
            bindings: [OnceCell::new(), OnceCell::new()],
            head_edits: OnceCell::new(),
            group_runs: RefCell::new(HashMap::new()),
        }
    }

    /// Tells the context the policy's own test-function names (`rules.<id>.test-functions`).
    pub fn with_test_functions(
        mut self,
        test_functions: &'a super::aliases::TestFunctions,
    ) -> FileContext<'a> {
        self.test_functions = test_functions;
        self
    }

    /// Tells the context what the whole change removes from production code (see
    /// [`super::subjects`]); without it, nothing.
    pub fn with_removed(mut self, removed: &'a super::subjects::Removed) -> FileContext<'a> {
        self.removed = removed;
        self
    }

    /// The production definitions the whole change removes.
    pub fn removed(&self) -> &'a super::subjects::Removed {
        self.removed
    }

    /// The side's text, when that side exists and is text.
    pub fn side(&self, side: Side) -> Option<&SideText<'a>> {
        match side {
            Side::Base => self.base.as_ref(),
            Side::Head => self.head.as_ref(),
        }
    }

    /// The side's syntax tree, parsed on first use; `None` without a grammar or text.
    pub fn parsed(&self, side: Side) -> Option<&Parsed> {
        let language = self.language?;
        let text = self.side(side)?;
        text.parsed
            .get_or_init(|| {
                // Head is reparsed from base's tree: it costs what the change touched, not a
                // second parse of the whole file.
                let earlier = match side {
                    Side::Head => self.parsed(Side::Base).zip(self.base.as_ref()),
                    Side::Base => None,
                };
                let edits = earlier.and_then(|(_, base)| {
                    lang::edits::line_edits(
                        base.text,
                        text.text,
                        |line| self.pair.removed.contains(line),
                        |line| self.pair.added.contains(line),
                    )
                });
                let earlier = earlier.filter(|_| edits.is_some());
                let _parsing = crate::timings::span("parse", || match earlier {
                    Some(_) => format!("{} (head, from base)", language.name()),
                    None => language.name().to_string(),
                });
                let parsed = lang::reparse(
                    language,
                    text.text.to_string(),
                    earlier
                        .zip(edits.as_deref())
                        .map(|((base, _), edits)| (&base.tree, edits)),
                    self.deadline,
                );
                if let Ok(parsed) = &parsed {
                    text.hazards.get_or_init(|| lang::hazards(&parsed.tree));
                    if let (Some(_), Some(edits)) = (earlier, edits) {
                        let _ = self.head_edits.set(edits);
                    }
                }
                parsed
            })
            .as_ref()
            .ok()
    }

    /// Why the side's text could not be parsed (over the time budget); `None` when it parsed,
    /// no rule needed it parsed, or it has no grammar or text.
    pub fn parse_failure(&self, side: Side) -> Option<&lang::ParseError> {
        self.side(side)?.parsed.get()?.as_ref().err()
    }

    /// Matches of the embedded query `name` on `side`, computed once per side; for the test
    /// queries of JavaScript-family files, also the calls through the file's aliases of test
    /// functions (`const skip = it.skip; skip(..)`) and the policy's own test-function names.
    pub fn matches(&self, side: Side, name: &'static str) -> Rc<Vec<QueryMatch>> {
        if let Some(cached) = self.resolved.borrow().get(&(side, name)) {
            return Rc::clone(cached);
        }
        let raw = self.raw_matches(side, name);
        let result = match (self.language, self.parsed(side)) {
            (Some(language), Some(parsed))
                if language.family() == "js" && super::aliases::resolves(name) =>
            {
                let bindings = self.bindings[side as usize]
                    .get_or_init(|| super::aliases::Bindings::collect(parsed, self.test_functions));
                super::aliases::resolve(&raw, parsed, language, name, bindings, self.test_functions)
                    .map_or(raw, Rc::new)
            }
            _ => raw,
        };
        self.resolved
            .borrow_mut()
            .insert((side, name), Rc::clone(&result));
        result
    }

    fn raw_matches(&self, side: Side, name: &'static str) -> Rc<Vec<QueryMatch>> {
        if let Some(cached) = self.cache.borrow().get(&(side, name)) {
            return Rc::clone(cached);
        }
        let may_match = match (self.language, self.side(side)) {
            (Some(language), Some(text)) => self.prefilters.may_match(language, name, text.text),
            _ => false,
        };
        // A flat run of thousands of tokens would cost the query engine O(n²); such a side is
        // not searched at all (the engine notes it).
        let searchable = |_: &&Parsed| {
            may_match
                && !self
                    .side(side)
                    .and_then(|text| text.hazards.get())
                    .is_some_and(|hazards| hazards.token_run)
        };
        if let (Some(language), Some(parsed)) =
            (self.language, self.parsed(side).filter(searchable))
            && let Some((group, _)) = self.prefilters.group(language, name)
        {
            return self.run_group(side, name, language, parsed, group);
        }
        let result = match (self.language, self.parsed(side).filter(searchable)) {
            (Some(language), Some(parsed)) => self
                .prefilters
                .compiled(language, name)
                .map(|compiled| {
                    let _querying =
                        crate::timings::span("query", || format!("{}/{name}", language.name()));
                    let (matches, cut_short) =
                        query::run_until(compiled, parsed, language, Some(self.deadline));
                    if cut_short {
                        self.cut_short.set(true);
                    }
                    matches
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let result = Rc::new(result);
        self.cache
            .borrow_mut()
            .insert((side, name), Rc::clone(&result));
        result
    }

    /// Runs `name`'s whole group on `side` in one walk and caches every member's matches (a
    /// member whose prefilter rules this text out gets none, as when run alone).
    fn run_group(
        &self,
        side: Side,
        name: &'static str,
        language: Language,
        parsed: &Parsed,
        group: &query::Group,
    ) -> Rc<Vec<QueryMatch>> {
        let (per_member, cut_short) = self.group_output(side, language, parsed, group);
        if cut_short {
            self.cut_short.set(true);
        }
        let text = self.side(side).map_or("", |text| text.text);
        let mut cache = self.cache.borrow_mut();
        for (member, matches) in group.members.iter().zip(per_member) {
            let matches = if self.prefilters.may_match(language, member, text) {
                matches
            } else {
                Rc::new(Vec::new())
            };
            cache.entry((side, member)).or_insert(matches);
        }
        cache
            .get(&(side, name))
            .map_or_else(|| Rc::new(Vec::new()), Rc::clone)
    }

    /// Every member's matches of `group` on `side`, computed once. Base is searched only in
    /// the top-level items the change touched when it can be: see [`FileContext::base_from_head`].
    fn group_output(
        &self,
        side: Side,
        language: Language,
        parsed: &Parsed,
        group: &query::Group,
    ) -> (Vec<Rc<Vec<QueryMatch>>>, bool) {
        let slot = (side, std::ptr::from_ref(group) as usize);
        if let Some((found, cut_short)) = self.group_runs.borrow().get(&slot) {
            return (found.clone(), *cut_short);
        }
        let from_head = match side {
            Side::Base => self.base_from_head(language, parsed, group),
            Side::Head => None,
        };
        let (found, cut_short) = from_head.unwrap_or_else(|| {
            let _querying = crate::timings::span("query", || {
                format!("{}/{}", language.name(), group.members.join("+"))
            });
            group.run_until(parsed, language, Some(self.deadline))
        });
        let found: Vec<Rc<Vec<QueryMatch>>> = found.into_iter().map(Rc::new).collect();
        self.group_runs
            .borrow_mut()
            .insert(slot, (found.clone(), cut_short));
        (found, cut_short)
    }

    /// Base's matches of `group` without walking all of base: a top-level item (function,
    /// class, statement) that the change left alone is the same subtree on both sides, so its
    /// matches are head's, moved to base's lines; only the items the change touched are searched
    /// in base. Exact for groups whose every pattern starts below the root
    /// ([`query::Group::inside`]), since each of their matches lies inside one top-level item:
    /// `tests::base_from_head_finds_what_a_whole_walk_finds` checks it on every fixture. `None`
    /// (search all of base) when head was not reparsed from base's tree, a pattern may start at
    /// the root, or the items do not line up.
    fn base_from_head(
        &self,
        language: Language,
        base: &Parsed,
        group: &query::Group,
    ) -> Option<(Vec<Vec<QueryMatch>>, bool)> {
        if !group.inside {
            return None;
        }
        let edits = self.head_edits.get()?;
        let head_side = self.head.as_ref()?;
        if head_side
            .hazards
            .get()
            .is_some_and(|hazards| hazards.token_run)
        {
            return None;
        }
        let head = self.parsed(Side::Head)?;
        let (head_found, head_cut) = self.group_output(Side::Head, language, head, group);
        if head_cut {
            return None;
        }
        let plan = crate::query::items::plan(base, head, edits)?;
        let _querying = crate::timings::span("query", || {
            format!(
                "{}/{} (base: changed items)",
                language.name(),
                group.members.join("+")
            )
        });
        let mut by_item = crate::query::items::by_item(&plan.head_items, &head_found)?;
        let mut out = vec![Vec::new(); group.members.len()];
        let mut cut_short = false;
        for item in &plan.base_items {
            match item {
                crate::query::items::BaseItem::Same { head, shift } => {
                    for (member, matches) in by_item.take(*head).into_iter().enumerate() {
                        out[member].extend(matches.into_iter().map(|found| shift.apply(found)));
                    }
                }
                crate::query::items::BaseItem::Changed(node) => {
                    let (found, cut) =
                        group.run_in_item(base, language, Some(self.deadline), *node);
                    cut_short |= cut;
                    for (member, matches) in found.into_iter().enumerate() {
                        out[member].extend(matches);
                    }
                }
            }
        }
        Some((out, cut_short))
    }

    /// The side's test inventory, built by `build` on first use.
    pub fn memo_tests(
        &self,
        side: Side,
        build: impl FnOnce() -> Vec<super::inventory::Test>,
    ) -> Rc<Vec<super::inventory::Test>> {
        let slot = match side {
            Side::Base => &self.tests[0],
            Side::Head => &self.tests[1],
        };
        Rc::clone(slot.get_or_init(|| Rc::new(build())))
    }

    /// Whether a query ran past the file's time budget, so some rule saw only part of the file.
    pub fn cut_short(&self) -> bool {
        self.cut_short.get()
    }

    /// Records that a rule's own bounded walk stopped before the end of what it had to read.
    pub fn mark_cut_short(&self) {
        self.cut_short.set(true);
    }

    /// Whether 1-based `line` of head was added by the change.
    pub fn is_added_line(&self, line: u32) -> bool {
        self.pair.added.contains(line)
    }

    /// What made a parsed side too costly to search in full ([`lang::hazards`]), per side that
    /// was parsed and has any, for the engine's notes.
    pub fn hazards(&self) -> Vec<(Side, lang::Hazards)> {
        [Side::Base, Side::Head]
            .into_iter()
            .filter_map(|side| {
                let hazards = *self.side(side)?.hazards.get()?;
                (hazards != lang::Hazards::default()).then_some((side, hazards))
            })
            .collect()
    }

    /// Syntax errors per side that were parsed, for the engine's notes.
    pub fn parse_errors(&self) -> Vec<(Side, usize)> {
        [Side::Base, Side::Head]
            .into_iter()
            .filter_map(|side| {
                let parsed = self.side(side)?.parsed.get()?.as_ref().ok()?;
                (parsed.error_count > 0).then_some((side, parsed.error_count))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changeset::{Content, FilePair, Status};

    /// Base searched item by item, with head's matches standing in for the items the change left
    /// alone, must give exactly what a walk of all of base gives: the same matches, in the same
    /// order, with the same ranges, lines, keys and captures.
    fn same_as_whole_walk(path: &str, base: &str, head: &str) -> usize {
        let Some(language) = Language::from_path(path) else {
            return 0;
        };
        let texts = [(language, base), (language, head)];
        same_under(&query::Prefilters::new(&texts), path, base, head)
    }

    fn same_under(prefilters: &query::Prefilters, path: &str, base: &str, head: &str) -> usize {
        let Some(language) = Language::from_path(path) else {
            return 0;
        };
        let pair = FilePair::new(
            Status::Modified,
            Some(path.to_string()),
            Some(path.to_string()),
            Content::Text(base.to_string()),
            Content::Text(head.to_string()),
        );
        let collection = super::super::collection::Collection::default();
        let context = FileContext::new(&pair, &collection, prefilters);
        let (Some(parsed), Some(_)) = (context.parsed(Side::Base), context.parsed(Side::Head))
        else {
            return 0;
        };
        let mut compared = 0;
        for source in query::QUERY_SOURCES
            .iter()
            .filter(|source| source.language == language)
        {
            let Some((group, member)) = prefilters.group(language, source.name) else {
                continue;
            };
            if member > 0 {
                continue;
            }
            let Some((scoped, _)) = context.base_from_head(language, parsed, group) else {
                continue;
            };
            let (whole, _) = group.run_until(parsed, language, None);
            let detail = |members: &[Vec<QueryMatch>]| -> Vec<Vec<String>> {
                members
                    .iter()
                    .map(|matches| {
                        matches
                            .iter()
                            .map(|found| {
                                let mut captures: Vec<_> = found.captures.iter().collect();
                                captures.sort();
                                let mut properties: Vec<_> = found.properties.iter().collect();
                                properties.sort();
                                format!(
                                    "{} {:?} {}-{} {:?} {:?} {captures:?} {properties:?}",
                                    found.pattern,
                                    found.byte_range,
                                    found.line,
                                    found.end_line,
                                    found.key,
                                    found.name
                                )
                            })
                            .collect()
                    })
                    .collect()
            };
            assert_eq!(
                detail(&scoped),
                detail(&whole),
                "{path}: {:?}\n--- base\n{base}\n--- head\n{head}",
                group.members
            );
            compared += 1;
        }
        compared
    }

    #[test]
    fn base_from_head_finds_what_a_whole_walk_finds() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut stack = vec![root];
        let mut pairs: Vec<(String, String, String)> = Vec::new();
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if !path.is_dir() {
                    continue;
                }
                if path.file_name().is_some_and(|name| name == "base") {
                    let head_dir = dir.join("head");
                    let mut files = vec![path.clone()];
                    while let Some(file) = files.pop() {
                        if file.is_dir() {
                            files.extend(
                                std::fs::read_dir(&file)
                                    .unwrap()
                                    .flatten()
                                    .map(|e| e.path()),
                            );
                            continue;
                        }
                        let relative = file.strip_prefix(&path).unwrap();
                        let (Ok(base), Ok(head)) = (
                            std::fs::read_to_string(&file),
                            std::fs::read_to_string(head_dir.join(relative)),
                        ) else {
                            continue;
                        };
                        pairs.push((relative.to_string_lossy().into_owned(), base, head));
                    }
                } else {
                    stack.push(path);
                }
            }
        }
        // One set of groups per language, as for a change holding every fixture: compiling
        // per pair would cost most of the test's time.
        let mut compared = 0;
        for language in Language::ALL {
            let mine: Vec<&(String, String, String)> = pairs
                .iter()
                .filter(|(path, _, _)| Language::from_path(path) == Some(language))
                .collect();
            let texts: Vec<(Language, &str)> = mine
                .iter()
                .flat_map(|(_, base, head)| [(language, base.as_str()), (language, head.as_str())])
                .collect();
            let prefilters = query::Prefilters::new(&texts);
            for (path, base, head) in mine {
                compared += same_under(&prefilters, path, base, head);
            }
        }
        assert!(compared > 100, "only {compared} comparisons");
    }

    #[test]
    fn base_from_head_survives_edits_at_the_edges_and_moved_items() {
        let items: Vec<String> = (0..12)
            .map(|index| {
                format!(
                    "@pytest.mark.skip\ndef test_{index}():\n    x = f({index})  # TODO\n    assert x == {index}\n\n"
                )
            })
            .collect();
        let base: String = items.concat();
        let variants = [
            format!("import os\n{base}"),
            format!("{base}def test_new():\n    assert True\n"),
            items[1..].concat(),
            items[..11].concat(),
            [&items[..5], &items[6..]].concat().concat(),
            [&items[..5], &["x = '''\n".to_string()], &items[5..]]
                .concat()
                .concat(),
            base.replace("assert x == 3", "assert x"),
            [&items[6..], &items[..6]].concat().concat(),
            base.replace("def test_4", "class T:\n  def test_4"),
        ];
        for head in &variants {
            assert!(same_as_whole_walk("tests/test_a.py", &base, head) > 0);
            assert!(same_as_whole_walk("tests/test_a.py", head, &base) > 0);
        }
        let js = "describe('a', () => {\n  it('b', () => { expect(1).toBe(1); });\n});\n";
        let js_base = format!("{js}{js}test('c', () => {{}});\n");
        let js_head = js_base.replacen("toBe(1)", "toBeTruthy()", 1);
        assert!(same_as_whole_walk("a.test.js", &js_base, &js_head) > 0);
    }
}
