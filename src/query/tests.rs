//! The query table against `queries/`, and every query against its grammar and vocabulary.

use super::*;
use crate::rules::ALL_RULES;
use std::collections::BTreeSet;

fn files_on_disk() -> BTreeSet<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("queries");
    let mut found = BTreeSet::new();
    for language in std::fs::read_dir(&root).unwrap() {
        let language = language.unwrap();
        for file in std::fs::read_dir(language.path()).unwrap() {
            let name = file.unwrap().file_name().to_string_lossy().to_string();
            let stem = name
                .strip_suffix(".scm")
                .unwrap_or_else(|| panic!("not a query: {name}"));
            found.insert((
                language.file_name().to_string_lossy().to_string(),
                stem.to_string(),
            ));
        }
    }
    found
}

#[test]
fn table_matches_files() {
    let table: BTreeSet<(String, String)> = QUERY_SOURCES
        .iter()
        .map(|source| (source.language.name().to_string(), source.name.to_string()))
        .collect();
    assert_eq!(table, files_on_disk());
    assert_eq!(table.len(), QUERY_SOURCES.len(), "duplicate table entries");
}

#[test]
fn every_query_compiles_with_known_captures() {
    for source in QUERY_SOURCES {
        if let Err(error) = compile(source) {
            panic!("{error}");
        }
    }
}

#[test]
fn every_query_header_names_its_rule_language_and_captures() {
    for source in QUERY_SOURCES {
        let where_ = format!("{}/{}.scm", source.language.name(), source.name);
        let header: Vec<&str> = source
            .text
            .lines()
            .take_while(|line| line.starts_with(';'))
            .collect();
        let rule_line = header
            .first()
            .unwrap_or_else(|| panic!("{where_}: no header"));
        assert!(
            rule_line.starts_with(&format!("; rule: {}", source.name))
                || rule_line.starts_with("; rule: (shared)"),
            "{where_}: first line must name the rule"
        );
        assert!(
            header
                .iter()
                .any(|line| line.starts_with(&format!("; language: {}", source.language.name()))),
            "{where_}: header must name the language"
        );
        let compiled = compile(source).unwrap();
        for name in compiled.query.capture_names() {
            if name.starts_with('_') {
                continue;
            }
            assert!(
                header.iter().any(|line| line.contains(&format!("@{name}"))),
                "{where_}: capture @{name} is not documented in the header"
            );
        }
    }
}

/// Query rules that judge only the shared queries (the test inventory and the assertions),
/// and so have no query file of their own. They are still syntax rules, hence `Query`.
const SHARED_QUERY_RULES: &[(&str, &[&str])] = &[
    ("deleted-test", &["tests"]),
    ("weakened-assertion", &["tests", "assertions"]),
];

#[test]
fn query_rules_have_a_query_for_each_declared_language_and_no_other() {
    for rule in ALL_RULES
        .iter()
        .filter(|rule| rule.maturity == crate::rules::Maturity::Stable)
    {
        if rule.engine != crate::rules::Engine::Query {
            continue;
        }
        let own = [rule.id];
        let names: &[&str] = SHARED_QUERY_RULES
            .iter()
            .find(|(id, _)| *id == rule.id)
            .map_or(&own[..], |(_, names)| names);
        for name in names {
            let with_query: BTreeSet<Language> = QUERY_SOURCES
                .iter()
                .filter(|source| source.name == *name)
                .map(|source| source.language)
                .collect();
            let declared: BTreeSet<Language> = rule.languages.iter().copied().collect();
            if *name == rule.id {
                assert_eq!(with_query, declared, "{}", rule.id);
            } else {
                assert!(with_query.is_superset(&declared), "{}: {name}", rule.id);
            }
        }
    }
}

#[test]
fn a_typo_in_a_predicate_is_rejected() {
    let source = QuerySource {
        language: Language::Python,
        name: "broken",
        text: "((identifier) @finding (#mach? @finding \"x\"))",
    };
    assert!(compile(&source).is_err());
    let source = QuerySource {
        language: Language::Python,
        name: "broken",
        text: "((identifier) @finding @wat)",
    };
    assert!(compile(&source).is_err());
    let source = QuerySource {
        language: Language::Python,
        name: "broken",
        text: "((identifier) @finding (#set! severity \"loud\"))",
    };
    assert!(compile(&source).is_err());
}

#[test]
fn javascript_copies_stay_identical_apart_from_the_language_line() {
    let strip = |text: &str| -> String {
        text.lines()
            .filter(|line| !line.starts_with("; language:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    for source in QUERY_SOURCES
        .iter()
        .filter(|s| s.language == Language::JavaScript)
    {
        for other in [Language::TypeScript, Language::Tsx] {
            let copy = QUERY_SOURCES
                .iter()
                .find(|s| s.language == other && s.name == source.name)
                .unwrap_or_else(|| panic!("{}/{} missing", other.name(), source.name));
            assert_eq!(
                strip(source.text),
                strip(copy.text),
                "{}/{}",
                other.name(),
                source.name
            );
        }
    }
}

#[test]
fn change_wide_prefilters_look_at_every_text_of_the_family_ignoring_case() {
    let stub = "class Transport { send() { throw new Error('later'); } }";
    let implementation = "class Http extends Transport { send() { return 1; } }";
    let prefilters = Prefilters::new(&[
        (Language::JavaScript, stub),
        (Language::TypeScript, implementation),
    ]);
    // The implementation alone has none of the words; the stub elsewhere in the family does.
    assert!(prefilters.may_match(Language::TypeScript, "todo-stub", implementation));
    let quiet = Prefilters::new(&[(Language::TypeScript, implementation)]);
    assert!(!quiet.may_match(Language::TypeScript, "todo-stub", implementation));
    let shouting = Prefilters::new(&[(Language::Tsx, "function f() { /* ToDo */ }")]);
    assert!(shouting.may_match(Language::Tsx, "todo-stub", ""));
    // Other families do not count.
    let python = Prefilters::new(&[
        (Language::Python, "# TODO"),
        (Language::TypeScript, implementation),
    ]);
    assert!(!python.may_match(Language::TypeScript, "todo-stub", implementation));
    // Per-text prefilters stay per text.
    assert!(!prefilters.may_match(Language::TypeScript, "empty-catch", implementation));
    assert!(prefilters.may_match(Language::TypeScript, "empty-catch", "try {} catch {}"));
    // Queries without a prefilter always run.
    assert!(quiet.may_match(Language::TypeScript, "tests", ""));
}

#[test]
fn patterns_cut_every_query_into_its_compiled_patterns() {
    for source in QUERY_SOURCES {
        let chunks = patterns(source.text);
        let whole = compile(source).unwrap();
        assert_eq!(
            chunks.len(),
            whole.query.pattern_count(),
            "{}/{}",
            source.language.name(),
            source.name
        );
        assert!(
            chunks.len() <= 64,
            "{}/{}: masks hold 64 patterns",
            source.language.name(),
            source.name
        );
        let joined: String = chunks.iter().map(|chunk| chunk.text).collect();
        let rest = &source.text[joined.len()..];
        assert!(source.text.starts_with(&joined));
        assert!(
            rest.lines()
                .all(|line| line.trim().is_empty() || line.trim_start().starts_with(';')),
            "{}/{}: text after the last pattern: {rest:?}",
            source.language.name(),
            source.name
        );
        // Each pattern compiles alone, with the file header's vocabulary checks.
        for bit in 0..chunks.len() {
            assert!(
                compiled_selection(source.language, source.name, 1 << bit).is_some(),
                "{}/{} pattern {bit}",
                source.language.name(),
                source.name
            );
        }
    }
}

/// Every fixture file of the language, both sides.
fn fixture_texts(language: Language) -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut stack = vec![root];
    let mut out = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if Language::from_path(&path.to_string_lossy()) == Some(language)
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                out.push(text);
            }
        }
    }
    out
}

/// Prefilter and `; when:` word lists must be necessary conditions: on every fixture file, a
/// query ruled out finds nothing, and the patterns a file's own words select find exactly what
/// the whole query finds.
#[test]
fn when_words_never_drop_a_match_on_the_fixtures() {
    let summary = |matches: Vec<QueryMatch>| -> Vec<String> {
        let mut out: Vec<String> = matches
            .into_iter()
            .map(|found| {
                let mut properties: Vec<_> = found.properties.into_iter().collect();
                properties.sort();
                format!("{:?} {} {properties:?}", found.byte_range, found.key)
            })
            .collect();
        out.sort();
        out
    };
    for language in Language::ALL {
        let texts = fixture_texts(language);
        for source in QUERY_SOURCES
            .iter()
            .filter(|source| source.language == language)
        {
            // A file-level prefilter that rules a file out must be right too.
            if let Some((_, PrefilterScope::Text)) = prefilter(language, source.name) {
                let whole = compiled(language, source.name).unwrap();
                for text in &texts {
                    let prefilters = Prefilters::new(&[(language, text.as_str())]);
                    if prefilters.may_match(language, source.name, text) {
                        continue;
                    }
                    let Ok(parsed) = crate::lang::parse(language, text.clone()) else {
                        continue;
                    };
                    assert!(
                        run(whole, &parsed, language).is_empty(),
                        "{}/{}: the prefilter rules out a file the query matches:\n{text}",
                        language.name(),
                        source.name
                    );
                }
            }
            if patterns(source.text)
                .iter()
                .all(|chunk| chunk.when.is_none())
            {
                continue;
            }
            let whole = compiled(language, source.name).unwrap();
            for text in &texts {
                let prefilters = Prefilters::new(&[(language, text.as_str())]);
                let Ok(parsed) = crate::lang::parse(language, text.clone()) else {
                    continue;
                };
                let selected = prefilters
                    .compiled(language, source.name)
                    .map(|query| run(query, &parsed, language))
                    .unwrap_or_default();
                assert_eq!(
                    summary(selected),
                    summary(run(whole, &parsed, language)),
                    "{}/{} on:\n{text}",
                    language.name(),
                    source.name
                );
            }
        }
    }
}

#[test]
fn a_query_past_its_deadline_is_cut_short_and_says_so() {
    let source: String = (0..200)
        .map(|index| format!("@pytest.mark.skip\ndef test_{index}():\n    pass\n"))
        .collect();
    let parsed = crate::lang::parse(Language::Python, source).unwrap();
    let query = compiled(Language::Python, "skipped-test").unwrap();
    let (all, cut_short) = run_until(query, &parsed, Language::Python, None);
    assert!(!cut_short);
    assert!(all.len() >= 200, "{}", all.len());
    let past = crate::lang::budget::Deadline::passed_already();
    let (partial, cut_short) = run_until(query, &parsed, Language::Python, Some(past));
    assert!(cut_short);
    assert!(partial.len() < all.len());
}

/// A group walks a file once for several queries; each member must get exactly what running
/// it alone gives: the same matches, pattern numbers, keys, captures and properties.
#[test]
fn a_group_gives_each_query_what_it_finds_alone_on_the_fixtures() {
    let detail = |matches: &[QueryMatch]| -> Vec<String> {
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
    };
    let mut joined = 0;
    for language in Language::ALL {
        let texts = fixture_texts(language);
        let all: Vec<(Language, &str)> =
            texts.iter().map(|text| (language, text.as_str())).collect();
        let prefilters = Prefilters::new(&all);
        for source in QUERY_SOURCES
            .iter()
            .filter(|source| source.language == language)
        {
            let Some((group, member)) = prefilters.group(language, source.name) else {
                continue;
            };
            joined += usize::from(member > 0);
            let Some(alone) = prefilters.compiled(language, source.name) else {
                continue;
            };
            for text in &texts {
                let Ok(parsed) = crate::lang::parse(language, text.clone()) else {
                    continue;
                };
                let (together, _) = group.run_until(&parsed, language, None);
                assert_eq!(
                    detail(&together[member]),
                    detail(&run(alone, &parsed, language)),
                    "{}/{} in a group with {:?}, on:\n{text}",
                    language.name(),
                    source.name,
                    group.members
                );
            }
        }
    }
    assert!(
        joined > 0,
        "no group held more than one query: nothing was compared"
    );
}

/// A large change walks each file once per language; a small one keeps compiling in parallel.
#[test]
fn a_large_change_joins_every_query_of_a_language_into_one_group() {
    let test = "import pytest\n\n@pytest.mark.skip\ndef test_x():\n    # TODO\n    try:\n        assert f() == 1\n    except Exception:\n        pass  # noqa\n";
    let large = test.repeat(one_walk_from_bytes(Language::Python) / test.len() + 1);
    let members = |text: &str| {
        let prefilters = Prefilters::new(&[(Language::Python, text)]);
        QUERY_SOURCES
            .iter()
            .filter(|source| source.language == Language::Python)
            .filter_map(|source| prefilters.group(Language::Python, source.name))
            .map(|(group, _)| group.members.len())
            .max()
            .unwrap_or(0)
    };
    let needed = members(&large);
    assert!(
        needed >= 6,
        "one group with every query the text needs, got {needed}"
    );
    if rayon::current_num_threads() > 1 {
        assert!(
            members(test) < needed,
            "a small change keeps one group per thread"
        );
    }
}

/// Only patterns whose outermost step is one node below the root count as inside one top-level
/// item; sibling sequences, wildcards, root types and quantified steps do not.
#[test]
fn patterns_that_start_below_the_root_are_told_apart() {
    for inside in [
        "((keyword_argument name: (identifier) @_n value: (false)) @finding (#match? @_n \"^v\"))",
        "(call function: (identifier) @f) @finding",
        "; a comment\n[(call) @finding (decorator) @finding]",
        "(function_definition name: (identifier) @key (#set! kind \"x\")) @finding",
    ] {
        assert!(starts_below_root(inside), "{inside}");
    }
    for outer in [
        "((attribute_item) @a . (function_item) @finding)",
        "(_ (call)) @finding",
        "(module (expression_statement) @finding)",
        "((comment)* @c (function_definition) @finding)",
        "(call) @finding (call) @finding",
        "\"fn\" @finding",
    ] {
        assert!(!starts_below_root(outer), "{outer}");
    }
}
