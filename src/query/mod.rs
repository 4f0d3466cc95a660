//! The query engine: embedded `.scm` files, compiled once per process, run on parsed files.
//!
//! Queries are embedded with `include_str!` from the table below, so the code under review cannot
//! change what the gate looks for. A test walks `queries/` and fails when a file is missing from
//! the table or an entry has no file; another compiles every query against its grammar and checks
//! its captures against the vocabulary in [`CAPTURES`]. Only after those tests is the `expect` in
//! [`compiled`] acceptable: an embedded query that fails to compile is a build defect.
//!
//! Compiling costs milliseconds per pattern on large grammars, and the gate compiles once per
//! run, so it compiles only what a change may need: a query whose `; prefilter:` words occur in
//! no text is not compiled, and a pattern preceded by `; when: WORDS` is left out unless some
//! text of that language holds one of the words. `tests::when_words_never_drop_a_match_on_the_fixtures`
//! checks on every fixture file that the selection finds what the whole query finds.

pub mod items;
mod table;

pub use table::QUERY_SOURCES;

use crate::lang::{Language, Parsed, qualified_scope, string_literal_text};
use std::collections::HashMap;
use std::sync::OnceLock;
use streaming_iterator::StreamingIterator;
use tree_sitter::{Query, QueryCursor};

/// Capture names the Rust side reads. Names starting with `_` are helpers for predicates, and
/// `message.NAME` captures are spliced into messages as `{NAME}`.
pub const CAPTURES: &[(&str, &str)] = &[
    ("finding", "required: the node whose range is reported"),
    (
        "key",
        "optional: the name that pairs base and head matches (a test's name); without it the key is the enclosing scope",
    ),
    (
        "condition",
        "optional: an expression the rule evaluates (a skip condition, a cfg predicate)",
    ),
];

/// Keys a pattern may set with `(#set! KEY "VALUE")`.
pub const PROPERTIES: &[&str] = &["severity", "message", "kind", "condition"];

/// One embedded query file.
pub struct QuerySource {
    /// The folder name under `queries/`.
    pub language: Language,
    /// The file stem: a rule id, or a shared query such as `tests`.
    pub name: &'static str,
    /// The file's text.
    pub text: &'static str,
}

/// A query compiled for its grammar, with capture indexes resolved once.
pub struct CompiledQuery {
    query: Query,
    finding: u32,
    key: Option<u32>,
    properties: Vec<HashMap<&'static str, String>>,
}

/// One match of a query in one file.
#[derive(Clone, Debug)]
pub struct QueryMatch {
    /// Index of the pattern in the query file.
    pub pattern: usize,
    /// Byte range of the `@finding` node.
    pub byte_range: std::ops::Range<usize>,
    /// 1-based first line of the `@finding` node.
    pub line: u32,
    /// 1-based last line of the `@finding` node.
    pub end_line: u32,
    /// The enclosing scope's names followed by the `@key` text: `suite › test name`.
    pub key: String,
    /// The bare `@key` text (or the innermost scope name when there is no `@key`).
    pub name: String,
    /// Text of the other named captures (`condition`, `message.*`), first node of each.
    pub captures: HashMap<String, String>,
    /// The pattern's `#set!` properties.
    pub properties: HashMap<&'static str, String>,
}

impl QueryMatch {
    /// A `#set!` property of the matching pattern.
    pub fn property(&self, key: &str) -> Option<&str> {
        self.properties.get(key).map(String::as_str)
    }

    /// A capture's text.
    pub fn capture(&self, name: &str) -> Option<&str> {
        self.captures.get(name).map(String::as_str)
    }
}

/// Separator between scope names in keys; it cannot occur in an identifier.
pub const KEY_SEPARATOR: &str = " › ";

/// Why a query could not be used; only ever seen by the registry tests.
#[derive(Debug, thiserror::Error)]
pub enum QueryLoadError {
    /// tree-sitter rejected the query text.
    #[error("{language}/{name}.scm: {message}")]
    Syntax {
        /// Language folder.
        language: &'static str,
        /// Query name.
        name: &'static str,
        /// tree-sitter's message.
        message: String,
    },
    /// The query uses something outside the vocabulary.
    #[error("{language}/{name}.scm: {message}")]
    Vocabulary {
        /// Language folder.
        language: &'static str,
        /// Query name.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// Compiles and validates one embedded query.
pub fn compile(source: &QuerySource) -> Result<CompiledQuery, QueryLoadError> {
    compile_text(source, source.text)
}

/// Compiles `text`, which is `source`'s text or a selection of its patterns.
fn compile_text(source: &QuerySource, text: &str) -> Result<CompiledQuery, QueryLoadError> {
    let language = source.language.name();
    let vocabulary = |message: String| QueryLoadError::Vocabulary {
        language,
        name: source.name,
        message,
    };
    let query =
        Query::new(&source.language.grammar(), text).map_err(|error| QueryLoadError::Syntax {
            language,
            name: source.name,
            message: error.to_string(),
        })?;
    for name in query.capture_names() {
        let known = name.starts_with('_')
            || name.starts_with("message.")
            || CAPTURES.iter().any(|(capture, _)| capture == name);
        if !known {
            return Err(vocabulary(format!("unknown capture @{name}")));
        }
    }
    let finding = query
        .capture_index_for_name("finding")
        .ok_or_else(|| vocabulary("no @finding capture".into()))?;
    let key = query.capture_index_for_name("key");
    let mut properties = Vec::with_capacity(query.pattern_count());
    for pattern in 0..query.pattern_count() {
        // Unknown predicates are kept silently by tree-sitter, so a typo would never filter.
        if let Some(predicate) = query.general_predicates(pattern).first() {
            return Err(vocabulary(format!(
                "unsupported predicate #{} in pattern {pattern}",
                predicate.operator
            )));
        }
        if !query.property_predicates(pattern).is_empty() {
            return Err(vocabulary(format!(
                "#is?/#is-not? are not supported (pattern {pattern})"
            )));
        }
        let mut settings = HashMap::new();
        for property in query.property_settings(pattern) {
            let key = PROPERTIES
                .iter()
                .find(|known| **known == &*property.key)
                .ok_or_else(|| vocabulary(format!("unknown #set! key {}", property.key)))?;
            let value = property.value.as_deref().unwrap_or_default().to_string();
            if *key == "severity" && crate::finding::Severity::parse(&value).is_none() {
                return Err(vocabulary(format!("bad severity {value:?}")));
            }
            settings.insert(*key, value);
        }
        properties.push(settings);
    }
    Ok(CompiledQuery {
        query,
        finding,
        key,
        properties,
    })
}

/// The compiled query `name` for `language`, or `None` when no such file exists.
pub fn compiled(language: Language, name: &str) -> Option<&'static CompiledQuery> {
    static CACHE: OnceLock<Vec<OnceLock<CompiledQuery>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| QUERY_SOURCES.iter().map(|_| OnceLock::new()).collect());
    let index = source_index(language, name)?;
    let source = &QUERY_SOURCES[index];
    Some(cache[index].get_or_init(|| {
        #[allow(clippy::expect_used)] // validated for every embedded query by query::tests
        compile(source).expect("embedded query compiles (checked by tests)")
    }))
}

/// The position of query `name` for `language` in [`QUERY_SOURCES`].
fn source_index(language: Language, name: &str) -> Option<usize> {
    QUERY_SOURCES
        .iter()
        .position(|source| source.language == language && source.name == name)
}

/// [`patterns`] of the embedded query at `index`, cut once per process.
fn cut(index: usize) -> &'static [Pattern] {
    static CUTS: OnceLock<Vec<Vec<Pattern>>> = OnceLock::new();
    CUTS.get_or_init(|| {
        QUERY_SOURCES
            .iter()
            .map(|source| patterns(source.text))
            .collect()
    })
    .get(index)
    .map_or(&[], Vec::as_slice)
}

/// The query `name` for `language` with only the patterns `mask` selects (bit `i` = the
/// file's `i`-th pattern; see [`patterns`]); `None` when no such file exists or no pattern is
/// selected. Each selection is compiled once per process.
pub fn compiled_selection(
    language: Language,
    name: &str,
    mask: u64,
) -> Option<&'static CompiledQuery> {
    type Selections = HashMap<(usize, u64), &'static OnceLock<Option<CompiledQuery>>>;
    static SELECTIONS: OnceLock<std::sync::Mutex<Selections>> = OnceLock::new();
    let index = source_index(language, name)?;
    let source = &QUERY_SOURCES[index];
    let chunks = cut(index);
    let all = all_patterns(chunks.len());
    if mask & all == all {
        return compiled(language, name);
    }
    if mask & all == 0 {
        return None;
    }
    // The lock only hands out the slot; compiling happens outside it, so queries still compile
    // in parallel.
    let slot = {
        let mut selections = SELECTIONS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *selections
            .entry((index, mask & all))
            .or_insert_with(|| Box::leak(Box::new(OnceLock::new())))
    };
    slot.get_or_init(|| compile_text(source, &selected_patterns(chunks, mask)).ok())
        .as_ref()
}

/// The text of the patterns whose bits `mask` sets, in order.
fn selected_patterns(chunks: &[Pattern], mask: u64) -> String {
    chunks
        .iter()
        .enumerate()
        .filter(|(bit, _)| mask & (1 << bit) != 0)
        .map(|(_, chunk)| chunk.text)
        .collect()
}

/// A mask selecting the first `count` patterns.
fn all_patterns(count: usize) -> u64 {
    if count >= 64 {
        u64::MAX
    } else {
        (1u64 << count) - 1
    }
}

/// One pattern of a query file with the comments before it.
#[derive(Debug)]
pub struct Pattern {
    /// The pattern's text, with its leading comments (the first also holds the file header).
    pub text: &'static str,
    /// Words from a `; when:` comment: the pattern can only match in a text holding one of
    /// them, so it is compiled only when some text of the change does.
    pub when: Option<Vec<&'static str>>,
}

/// The patterns of a query file, in order. A pattern starts where a parenthesis or bracket
/// opens at the top level (strings and comments skipped) and owns the comment lines right
/// before it; it runs to the next pattern, so trailing captures (`(comment) @finding`) stay
/// with it.
pub fn patterns(text: &'static str) -> Vec<Pattern> {
    let mut starts = Vec::new();
    let mut depth = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((index, c)) = chars.next() {
        match c {
            ';' => while chars.next_if(|(_, c)| *c != '\n').is_some() {},
            '"' => {
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '(' | '[' => {
                if depth == 0 {
                    starts.push(index);
                }
                depth += 1;
            }
            ')' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    // Each pattern after the first also owns the comment lines right above it.
    let mut bounds: Vec<usize> = starts
        .iter()
        .skip(1)
        .map(|start| {
            let mut bound = text[..*start].rfind('\n').map_or(0, |newline| newline + 1);
            while bound > 0 {
                let previous = text[..bound - 1]
                    .rfind('\n')
                    .map_or(0, |newline| newline + 1);
                if text[previous..bound].trim_start().starts_with(';') {
                    bound = previous;
                } else {
                    break;
                }
            }
            bound
        })
        .collect();
    bounds.insert(0, 0);
    bounds.push(text.len());
    bounds
        .windows(2)
        .filter(|_| !starts.is_empty())
        .map(|window| {
            let chunk = &text[window[0]..window[1]];
            let when = chunk
                .lines()
                .filter_map(|line| line.trim().strip_prefix("; when:"))
                .map(|words| words.split_whitespace().collect())
                .next();
            Pattern { text: chunk, when }
        })
        .collect()
}

/// Words of which at least one must occur for the query `name` to match, from the file's
/// `; prefilter:` header line (in the text itself) or `; prefilter-change:` line (in any text
/// of the language family in the change, ignoring ASCII case: for queries whose matches in one
/// file are facts for another file's findings, such as a base class implemented elsewhere);
/// `None` when the query
/// declares neither. Compiling a query costs milliseconds on large grammars, so a change that
/// cannot match skips it.
pub fn prefilter(
    language: Language,
    name: &str,
) -> Option<(&'static [&'static str], PrefilterScope)> {
    type Header = Option<(Vec<&'static str>, PrefilterScope)>;
    static HEADERS: OnceLock<Vec<Header>> = OnceLock::new();
    let headers = HEADERS.get_or_init(|| {
        QUERY_SOURCES
            .iter()
            .map(|source| {
                source
                    .text
                    .lines()
                    .take_while(|line| line.starts_with(';'))
                    .find_map(|line| {
                        if let Some(words) = line.strip_prefix("; prefilter-change:") {
                            Some((words, PrefilterScope::Change))
                        } else {
                            Some((line.strip_prefix("; prefilter:")?, PrefilterScope::Text))
                        }
                    })
                    .map(|(words, scope)| (words.split_whitespace().collect(), scope))
            })
            .collect()
    });
    let (words, scope) = headers.get(source_index(language, name)?)?.as_ref()?;
    Some((words.as_slice(), *scope))
}

/// Where a query's prefilter words are looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrefilterScope {
    /// In the text the query would run on.
    Text,
    /// In any text of the same language family in the change.
    Change,
}

type Selection = (
    Language,
    &'static str,
    u64,
    OnceLock<Option<&'static CompiledQuery>>,
);

/// Which queries, and which of their patterns, a change may need, decided once from all its
/// texts.
#[derive(Default)]
pub struct Prefilters {
    /// (language, query) pairs with a change-wide prefilter that some text satisfied.
    change_wide: Vec<(Language, &'static str)>,
    /// (language, query, mask, compiled) for queries with `; when:` patterns: the patterns some
    /// text of that language may match, and the query compiled with them once looked up.
    /// Queries not listed compile whole.
    selections: Vec<Selection>,
    /// The queries a change may need, per language, in groups compiled as one query each
    /// ([`Group`]); empty when built without texts (then each query runs on its own).
    groups: Vec<PlannedGroup>,
}

/// A group's language and member queries, and the group compiled on first use.
type PlannedGroup = (Language, Vec<&'static str>, OnceLock<Option<Group>>);

impl std::fmt::Debug for Prefilters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let selections: Vec<_> = self
            .selections
            .iter()
            .map(|(language, name, mask, _)| (language, name, mask))
            .collect();
        f.debug_struct("Prefilters")
            .field("change_wide", &self.change_wide)
            .field("selections", &selections)
            .finish()
    }
}

impl Prefilters {
    /// Evaluates the change-wide prefilters over every text of the change.
    pub fn new(texts: &[(Language, &str)]) -> Prefilters {
        let change_wide = QUERY_SOURCES
            .iter()
            .filter(|source| {
                let Some((words, PrefilterScope::Change)) = prefilter(source.language, source.name)
                else {
                    return false;
                };
                let Ok(finder) = aho_corasick::AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .build(words.iter())
                else {
                    return true;
                };
                texts.iter().any(|(language, text)| {
                    language.family() == source.language.family() && finder.is_match(text)
                })
            })
            .map(|source| (source.language, source.name))
            .collect();
        let selections = QUERY_SOURCES
            .iter()
            .enumerate()
            .filter_map(|(index, source)| {
                let chunks = cut(index);
                if chunks.iter().all(|chunk| chunk.when.is_none()) {
                    return None;
                }
                let mut mask = 0u64;
                for (bit, chunk) in chunks.iter().enumerate().take(64) {
                    let needed = chunk.when.as_ref().is_none_or(|words| {
                        texts.iter().any(|(language, text)| {
                            *language == source.language
                                && words.iter().any(|word| text.contains(word))
                        })
                    });
                    if needed {
                        mask |= 1 << bit;
                    }
                }
                Some((source.language, source.name, mask, OnceLock::new()))
            })
            .collect();
        let mut prefilters = Prefilters {
            change_wide,
            selections,
            groups: Vec::new(),
        };
        prefilters.groups = prefilters.plan_groups(texts);
        prefilters
    }

    /// Splits the queries some text may need into groups per language: one walk of a file per
    /// group instead of one per query. A small change gets one group per thread (balanced by
    /// query length), so that compiling, its largest cost, stays parallel; past
    /// [`ONE_WALK_FROM_BYTES`] of text the walks cost more than compiling, and all the
    /// language's queries form one group.
    fn plan_groups(&self, texts: &[(Language, &str)]) -> Vec<PlannedGroup> {
        let mut groups = Vec::new();
        for language in Language::ALL {
            let bytes: usize = texts
                .iter()
                .filter(|(known, _)| *known == language)
                .map(|(_, text)| text.len())
                .sum();
            let threads = if bytes >= one_walk_from_bytes(language) {
                1
            } else {
                rayon::current_num_threads().max(1)
            };
            let mut needed: Vec<&QuerySource> = QUERY_SOURCES
                .iter()
                .filter(|source| source.language == language && warmed(source))
                .filter(|source| {
                    texts.iter().any(|(known, text)| {
                        *known == language && self.may_match(language, source.name, text)
                    })
                })
                .collect();
            if needed.is_empty() {
                continue;
            }
            needed.sort_by_key(|source| std::cmp::Reverse(source.text.len()));
            let mut planned: Vec<(usize, Vec<&'static str>)> = vec![(0, Vec::new()); threads];
            for source in needed {
                if let Some(lightest) = planned.iter_mut().min_by_key(|(size, _)| *size) {
                    lightest.0 += source.text.len();
                    lightest.1.push(source.name);
                }
            }
            groups.extend(
                planned
                    .into_iter()
                    .filter(|(_, names)| !names.is_empty())
                    .map(|(_, names)| (language, names, OnceLock::new())),
            );
        }
        groups
    }

    /// The compiled group that holds query `name` of `language`, and the query's place in it.
    pub fn group(&self, language: Language, name: &str) -> Option<(&Group, usize)> {
        let (_, names, group) = self
            .groups
            .iter()
            .find(|(known, names, _)| *known == language && names.contains(&name))?;
        let group = group
            .get_or_init(|| {
                Group::compile(language, names, |name| self.selected_text(language, name))
            })
            .as_ref()?;
        let member = group.members.iter().position(|member| *member == name)?;
        Some((group, member))
    }

    /// The text of query `name` as this change compiles it: the patterns its `when:` words
    /// select, or the whole query; `None` when no pattern is selected.
    fn selected_text(&self, language: Language, name: &str) -> Option<String> {
        let index = source_index(language, name)?;
        let mask = self
            .selections
            .iter()
            .find(|(known, known_name, _, _)| *known == language && *known_name == name)
            .map_or(u64::MAX, |(_, _, mask, _)| *mask);
        let chunks = cut(index);
        let all = all_patterns(chunks.len());
        if mask & all == all {
            return Some(QUERY_SOURCES[index].text.to_string());
        }
        (mask & all != 0).then(|| selected_patterns(chunks, mask))
    }

    /// The compiled query `name` for `language`, with the patterns this change may need.
    pub fn compiled(&self, language: Language, name: &str) -> Option<&'static CompiledQuery> {
        match self
            .selections
            .iter()
            .find(|(known, known_name, _, _)| *known == language && *known_name == name)
        {
            Some((_, _, mask, resolved)) => {
                *resolved.get_or_init(|| compiled_selection(language, name, *mask))
            }
            None => compiled(language, name),
        }
    }

    /// Whether the query `name` may match in `text` (of `language`) by its prefilter.
    pub fn may_match(&self, language: Language, name: &str, text: &str) -> bool {
        match prefilter(language, name) {
            None => true,
            Some((words, PrefilterScope::Text)) => words.iter().any(|word| text.contains(word)),
            Some((_, PrefilterScope::Change)) => self
                .change_wide
                .iter()
                .any(|(known, known_name)| *known == language && *known_name == name),
        }
    }
}

/// Compiles, in parallel, the queries that the given texts may need (by their prefilters).
/// Query compilation dominates the gate's run time on a small change (milliseconds per pattern
/// on the TypeScript grammar), and each query is independent, so this spreads it over all cores
/// before the files are analysed. Queries whose header says `; warm: no` run on derived text
/// (uncommented comments) and compile on demand.
pub fn warm(texts: &[(Language, &str)], prefilters: &Prefilters) {
    use rayon::prelude::*;
    if !prefilters.groups.is_empty() {
        prefilters
            .groups
            .par_iter()
            .for_each(|(language, names, _)| {
                if let Some(name) = names.first() {
                    let _ = prefilters.group(*language, name);
                }
            });
        return;
    }
    let needed: Vec<&QuerySource> = QUERY_SOURCES
        .iter()
        .filter(|source| warmed(source))
        .filter(|source| {
            texts.iter().any(|(language, text)| {
                *language == source.language && prefilters.may_match(*language, source.name, text)
            })
        })
        .collect();
    needed.par_iter().for_each(|source| {
        let _ = prefilters.compiled(source.language, source.name);
    });
}

/// Whether the engine runs the query on changed files (`; warm: no` marks queries a rule runs
/// on text of its own, such as comment contents parsed as code).
fn warmed(source: &QuerySource) -> bool {
    !source
        .text
        .lines()
        .take_while(|l| l.starts_with(';'))
        .any(|l| l.starts_with("; warm: no"))
}

/// Several queries of one language compiled as one. Walking a syntax tree costs far more than
/// matching patterns at each node (measured: eight Python queries over a 363 KB test file,
/// 55 ms one by one, 9 ms joined), so one walk for all the queries of a group replaces one
/// walk per query. Each match is handed back to the query its pattern came from, numbered as
/// in that query, so a rule sees what running its query alone gives.
pub struct Group {
    compiled: CompiledQuery,
    /// Query names, in the order their texts were joined.
    pub members: Vec<&'static str>,
    /// Per pattern of the joined query: the member it belongs to and the member's first
    /// pattern.
    owners: Vec<(usize, usize)>,
    /// Whether every pattern starts at a node below the root ([`starts_below_root`]), so each
    /// match lies inside one top-level item and the group can run item by item.
    pub inside: bool,
}

impl Group {
    fn compile(
        language: Language,
        names: &[&'static str],
        text_of: impl Fn(&str) -> Option<String>,
    ) -> Option<Group> {
        let mut text = String::new();
        let mut members = Vec::new();
        let mut starts = Vec::new();
        for name in names {
            let Some(member_text) = text_of(name) else {
                continue;
            };
            starts.push(text.len());
            members.push(*name);
            text.push_str(&member_text);
            text.push('\n');
        }
        let first = QUERY_SOURCES
            .iter()
            .find(|source| source.language == language && members.first() == Some(&source.name))?;
        // Every member compiles alone (query::tests), so joined they do too; should a selection
        // not, its queries run one by one, as without groups.
        let compiled = compile_text(first, &text).ok()?;
        let mut owners = Vec::with_capacity(compiled.query.pattern_count());
        let mut first_pattern = vec![None; members.len()];
        let count = compiled.query.pattern_count();
        let inside = (0..count).all(|pattern| {
            let start = compiled.query.start_byte_for_pattern(pattern);
            let end = if pattern + 1 < count {
                compiled.query.start_byte_for_pattern(pattern + 1)
            } else {
                text.len()
            };
            text.get(start..end).is_some_and(starts_below_root)
        });
        for pattern in 0..count {
            let start = compiled.query.start_byte_for_pattern(pattern);
            let member = starts
                .partition_point(|member_start| *member_start <= start)
                .saturating_sub(1);
            let first = *first_pattern[member].get_or_insert(pattern);
            owners.push((member, first));
        }
        Some(Group {
            compiled,
            members,
            owners,
            inside,
        })
    }

    /// [`Group::run_until`] over the subtree of `start`, a child of the root: the matches
    /// whose pattern starts inside it, numbered and keyed as in a run over the whole tree. For
    /// an [`inside`](Group::inside) group, the runs over every top-level item, in order, give
    /// what one run over the tree gives.
    pub fn run_in_item(
        &self,
        parsed: &Parsed,
        language: Language,
        deadline: Option<crate::lang::budget::Deadline>,
        start: tree_sitter::Node<'_>,
    ) -> (Vec<Vec<QueryMatch>>, bool) {
        let members = u32::try_from(self.members.len()).unwrap_or(u32::MAX);
        let (matches, cut_short) = run_from(
            &self.compiled,
            parsed,
            language,
            deadline,
            MATCH_LIMIT.saturating_mul(members),
            Some(start),
        );
        (self.split(matches), cut_short)
    }

    /// Hands each match back to its member, numbered as in the member's own query.
    fn split(&self, matches: Vec<QueryMatch>) -> Vec<Vec<QueryMatch>> {
        let mut out = vec![Vec::new(); self.members.len()];
        for mut found in matches {
            let Some((member, first)) = self.owners.get(found.pattern).copied() else {
                continue;
            };
            found.pattern -= first;
            if let Some(matches) = out.get_mut(member) {
                matches.push(found);
            }
        }
        out
    }

    /// Runs every member on `parsed` in one walk: per member, its matches as its own query
    /// would give them, and whether the deadline cut the walk short.
    pub fn run_until(
        &self,
        parsed: &Parsed,
        language: Language,
        deadline: Option<crate::lang::budget::Deadline>,
    ) -> (Vec<Vec<QueryMatch>>, bool) {
        let members = u32::try_from(self.members.len()).unwrap_or(u32::MAX);
        let (matches, cut_short) = run_with_limit(
            &self.compiled,
            parsed,
            language,
            deadline,
            MATCH_LIMIT.saturating_mul(members),
        );
        (self.split(matches), cut_short)
    }
}

/// Text of one language in a change (both sides) from which its queries are joined into a
/// single group: where one more walk of every file (about 70 ms per MB) costs more than
/// compiling the language's queries on one thread instead of two. The Python queries compile
/// in about 15 ms, those of the JavaScript family and Rust in 50 to 120 ms
/// (`cargo bench --bench query_compile`).
fn one_walk_from_bytes(language: Language) -> usize {
    match language {
        Language::Python => 128 << 10,
        _ => 1 << 20,
    }
}

/// In-progress matches one query may hold at a time (tree-sitter drops the oldest beyond).
const MATCH_LIMIT: u32 = 4096;

/// Runs `query` over a parsed file and returns its matches in document order.
pub fn run(query: &CompiledQuery, parsed: &Parsed, language: Language) -> Vec<QueryMatch> {
    run_until(query, parsed, language, None).0
}

/// [`run`], abandoned once `deadline` passes; the flag says whether it was (the matches are
/// then incomplete, and the caller must not present them as the whole answer).
pub fn run_until(
    query: &CompiledQuery,
    parsed: &Parsed,
    language: Language,
    deadline: Option<crate::lang::budget::Deadline>,
) -> (Vec<QueryMatch>, bool) {
    run_with_limit(query, parsed, language, deadline, MATCH_LIMIT)
}

fn run_with_limit(
    query: &CompiledQuery,
    parsed: &Parsed,
    language: Language,
    deadline: Option<crate::lang::budget::Deadline>,
    match_limit: u32,
) -> (Vec<QueryMatch>, bool) {
    run_from(query, parsed, language, deadline, match_limit, None)
}

/// [`run_with_limit`] from `start` (a child of the root) instead of the root: matches whose
/// pattern starts inside `start`'s subtree, with the same start-depth bound counted from the
/// root.
fn run_from(
    query: &CompiledQuery,
    parsed: &Parsed,
    language: Language,
    deadline: Option<crate::lang::budget::Deadline>,
    match_limit: u32,
    start: Option<tree_sitter::Node<'_>>,
) -> (Vec<QueryMatch>, bool) {
    let check = std::cell::RefCell::new(deadline.map(crate::lang::budget::Throttled::new));
    let past_deadline = || {
        check
            .borrow_mut()
            .as_mut()
            .is_some_and(|check| check.passed())
    };
    let source = parsed.text.as_str();
    let mut cursor = QueryCursor::new();
    // Bound pathological inputs: a match limit keeps memory flat on generated files, and a
    // start depth keeps a 100k-deep file from costing O(nodes · depth); the engine notes files
    // nested deeper than that.
    cursor.set_match_limit(match_limit);
    // Depth counts from where the cursor starts: one level less below a top-level item.
    let depth = match start {
        Some(_) => crate::lang::MAX_SYNTAX_DEPTH.saturating_sub(1),
        None => crate::lang::MAX_SYNTAX_DEPTH,
    };
    cursor.set_max_start_depth(Some(depth));
    let root = parsed.tree.root_node();
    let mut stop_past_deadline = |_: &tree_sitter::QueryCursorState| {
        if past_deadline() {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let mut matches = cursor.matches_with_options(
        &query.query,
        start.unwrap_or(root),
        source.as_bytes(),
        tree_sitter::QueryCursorOptions::new().progress_callback(&mut stop_past_deadline),
    );
    let mut out = Vec::new();
    let names = query.query.capture_names();
    while let Some(found) = matches.next() {
        if past_deadline() {
            return (out, true);
        }
        let Some(finding) = found
            .captures()
            .iter()
            .find(|capture| capture.index == query.finding)
        else {
            continue;
        };
        let node = finding.node;
        let scope = qualified_scope(root, node, source, language);
        let key_node = query.key.and_then(|key| {
            found
                .captures()
                .iter()
                .find(|capture| capture.index == key)
                .map(|capture| capture.node)
        });
        let (name, key) = match key_node {
            Some(key_node) => {
                let name = string_literal_text(key_node, source);
                let mut parts = scope;
                parts.push(name.clone());
                (name, parts.join(KEY_SEPARATOR))
            }
            None => {
                let name = scope.last().cloned().unwrap_or_default();
                let key = if scope.is_empty() {
                    "<module>".to_string()
                } else {
                    scope.join(KEY_SEPARATOR)
                };
                (name, key)
            }
        };
        let mut captures = HashMap::new();
        for capture in found.captures() {
            let capture_name = names[capture.index as usize];
            if capture_name.starts_with('_') || capture.index == query.finding {
                continue;
            }
            let text = source
                .get(capture.node.byte_range())
                .unwrap_or_default()
                .to_string();
            captures.entry(capture_name.to_string()).or_insert(text);
        }
        out.push(QueryMatch {
            pattern: found.pattern_index,
            byte_range: node.byte_range(),
            line: to_line(node.start_position().row),
            end_line: to_line(node.end_position().row),
            key,
            name,
            captures,
            properties: query.properties[found.pattern_index].clone(),
        });
    }
    let cut_short = past_deadline() || deadline.is_some_and(|deadline| deadline.passed());
    (out, cut_short)
}

/// Whether a pattern's text (comments allowed) can only start matching at a node below the
/// root: its outermost step is one node of a named type that is not a root type (`module`,
/// `program`, `source_file`) nor the wildcard, without a quantifier, possibly grouped with
/// predicates, or an alternation of such steps. Its matches then lie inside one top-level
/// item, and such a match on an item both sides hold unchanged is the same on both. Anything
/// else (sibling sequences, which may run across top-level items; a wildcard, which may match
/// the root) is `false`.
pub fn starts_below_root(pattern: &str) -> bool {
    let tokens = query_tokens(pattern);
    let mut at = 0;
    let Some(step) = Step::parse(&tokens, &mut at) else {
        return false;
    };
    // One pattern per text: anything after the step is another pattern or a stray token.
    at == tokens.len() && step.below_root()
}

/// One step of a query pattern: a node, a group, an alternation or a bare token.
enum Step<'a> {
    /// `(kind ...)` with its children.
    Node(&'a str),
    /// `((a) (b) (#pred ..))`: the steps inside, predicates left out.
    Group(Vec<Step<'a>>),
    /// `[a b]`.
    Alternation(Vec<Step<'a>>),
    /// A string, `_`, an anchor or a field name.
    Token,
    /// Any step followed by `*`, `+` or `?`.
    Quantified,
    /// `(#pred ...)`.
    Predicate,
}

impl<'a> Step<'a> {
    fn parse(tokens: &[&'a str], at: &mut usize) -> Option<Step<'a>> {
        let first = *tokens.get(*at)?;
        *at += 1;
        let mut step = match first {
            "(" => {
                let head = *tokens.get(*at)?;
                if head.starts_with('#') {
                    Self::skip_to_close(tokens, at)?;
                    Step::Predicate
                } else if head == "(" || head == "[" || head == "\"" || head.starts_with('"') {
                    let mut inner = Vec::new();
                    while *tokens.get(*at)? != ")" {
                        match Step::parse(tokens, at)? {
                            Step::Predicate => {}
                            other => inner.push(other),
                        }
                    }
                    *at += 1;
                    Step::Group(inner)
                } else {
                    *at += 1;
                    while *tokens.get(*at)? != ")" {
                        Step::parse(tokens, at)?;
                    }
                    *at += 1;
                    Step::Node(head)
                }
            }
            "[" => {
                let mut inner = Vec::new();
                while *tokens.get(*at)? != "]" {
                    inner.push(Step::parse(tokens, at)?);
                }
                *at += 1;
                Step::Alternation(inner)
            }
            ")" | "]" => return None,
            _ => Step::Token,
        };
        while let Some(next) = tokens.get(*at) {
            if next.starts_with('@') {
                *at += 1;
            } else if matches!(*next, "*" | "+" | "?") {
                *at += 1;
                step = Step::Quantified;
            } else {
                break;
            }
        }
        Some(step)
    }

    fn skip_to_close(tokens: &[&'a str], at: &mut usize) -> Option<()> {
        let mut depth = 1usize;
        while depth > 0 {
            match *tokens.get(*at)? {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                _ => {}
            }
            *at += 1;
        }
        Some(())
    }

    fn below_root(&self) -> bool {
        match self {
            Step::Node(kind) => {
                !matches!(*kind, "_" | "module" | "program" | "source_file" | "ERROR")
                    && kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            }
            Step::Group(inner) => matches!(inner.as_slice(), [only] if only.below_root()),
            Step::Alternation(inner) => !inner.is_empty() && inner.iter().all(Step::below_root),
            Step::Token | Step::Quantified | Step::Predicate => false,
        }
    }
}

/// The tokens of query text: brackets, strings, captures, quantifiers and words; comments
/// dropped.
fn query_tokens(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let c = bytes[at];
        match c {
            b';' => {
                while at < bytes.len() && bytes[at] != b'\n' {
                    at += 1;
                }
            }
            b'"' => {
                let start = at;
                at += 1;
                while at < bytes.len() && bytes[at] != b'"' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
                at = (at + 1).min(bytes.len());
                tokens.extend(text.get(start..at));
            }
            b'(' | b')' | b'[' | b']' | b'*' | b'+' | b'?' | b'.' => {
                tokens.extend(text.get(at..at + 1));
                at += 1;
            }
            _ if c.is_ascii_whitespace() => at += 1,
            _ => {
                let start = at;
                while at < bytes.len()
                    && !bytes[at].is_ascii_whitespace()
                    && !matches!(bytes[at], b'(' | b')' | b'[' | b']' | b'"' | b';')
                {
                    // `?` ends a predicate name (`#match?`) only as part of it.
                    at += 1;
                }
                tokens.extend(text.get(start..at));
            }
        }
    }
    tokens
}

fn to_line(row: usize) -> u32 {
    u32::try_from(row).unwrap_or(u32::MAX - 1).saturating_add(1)
}

#[cfg(test)]
mod tests;
