//! Finding the claims a text states: the phrases of `phrases.txt`, in sentences that assert
//! them (not negated, deferred, conditional, asked or left unchecked).

use super::{Claim, Kind};
use regex::Regex;
use std::sync::LazyLock;

/// A claim a text states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stated {
    /// What it claims.
    pub kind: Kind,
    /// Where it was said ([`Claim::source`]).
    pub source: String,
    /// The sentence, whitespace collapsed and cut to [`QUOTE_CHARS`].
    pub quote: String,
}

/// Longest quote of a claim in a message, in characters.
pub const QUOTE_CHARS: usize = 100;

const PHRASES: &str = include_str!("phrases.txt");

/// Each kind with its phrases joined into one pattern.
static PATTERNS: LazyLock<Vec<(Kind, Regex)>> = LazyLock::new(|| compile(PHRASES));

fn compile(data: &str) -> Vec<(Kind, Regex)> {
    // A section the rule does not know is a mistake in the data file (a unit test catches
    // it); at run time its phrases are left out rather than misfiled.
    let mut sections: Vec<(Option<Kind>, Vec<&str>)> = Vec::new();
    for line in data.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let kind = Kind::ALL.into_iter().find(|kind| kind.name() == name);
            sections.push((kind, Vec::new()));
            continue;
        }
        if let Some((_, phrases)) = sections.last_mut() {
            phrases.push(line);
        }
    }
    sections
        .into_iter()
        .filter_map(|(kind, phrases)| {
            let kind = kind?;
            let joined = phrases
                .iter()
                .map(|phrase| format!("(?:{phrase})"))
                .collect::<Vec<_>>()
                .join("|");
            let regex = Regex::new(&format!(r"(?i)\b(?:{joined})\b")).ok()?;
            Some((kind, regex))
        })
        .collect()
}

/// Words that, among the few before a phrase, make it not a claim: negations, intentions,
/// conditions, requests.
const BEFORE: &[&str] = &[
    "no",
    "not",
    "never",
    "without",
    "nor",
    "neither",
    "none",
    "didn't",
    "didnt",
    "don't",
    "dont",
    "doesn't",
    "doesnt",
    "haven't",
    "havent",
    "hasn't",
    "hasnt",
    "isn't",
    "isnt",
    "aren't",
    "arent",
    "wasn't",
    "weren't",
    "won't",
    "wont",
    "cannot",
    "can't",
    "cant",
    "couldn't",
    "shouldn't",
    "wouldn't",
    "will",
    "would",
    "should",
    "could",
    "must",
    "need",
    "needs",
    "needed",
    "todo",
    "tbd",
    "if",
    "once",
    "until",
    "unless",
    "when",
    "whether",
    "before",
    "after",
    "ensure",
    "ensures",
    "sure",
    // "In order to add a regression test, #3379 added ..": a purpose, not what was done.
    "order",
    "check",
    "verify",
    "try",
    "trying",
    "tried",
    "attempt",
    "want",
    "wants",
    "please",
    "may",
    "might",
    "let's",
    "lets",
    "to-do",
    "pending",
    "wip",
    "yet",
];

/// Words right after a phrase that defer it.
const AFTER: &[&str] = &[
    "later",
    "follow-up",
    "followup",
    "follow",
    "next",
    "separately",
    "tbd",
    "todo",
    "soon",
    "pending",
    "yet",
    "eventually",
];

/// How many words before a phrase are looked at.
const WORDS_BEFORE: usize = 4;
/// How many words after it.
const WORDS_AFTER: usize = 4;

/// The claims stated in `claims`, in order.
pub fn stated(claims: &[Claim]) -> Vec<Stated> {
    let mut out = Vec::new();
    for claim in claims {
        for sentence in sentences(&claim.text) {
            if sentence.trim_end().ends_with('?') {
                continue;
            }
            for (kind, regex) in PATTERNS.iter() {
                let asserted = regex.find_iter(&sentence).any(|found| {
                    let after = &sentence[found.end()..];
                    let compound =
                        *kind == Kind::TestsAdded && (compound(after) || packaged(after));
                    !compound && !deferred(&sentence[..found.start()], after)
                });
                if asserted {
                    out.push(Stated {
                        kind: *kind,
                        source: claim.source.clone(),
                        quote: quote(&sentence),
                    });
                }
            }
        }
    }
    out
}

fn words(text: &str) -> impl DoubleEndedIterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|word| !word.is_empty())
        .map(|word| word.to_lowercase().replace('’', "'"))
}

fn deferred(before: &str, after: &str) -> bool {
    // A clause break ("done, but no tests added" / "X; tests pass") ends the look-back.
    let clause = before
        .char_indices()
        .rfind(|(_, c)| matches!(c, ',' | ':' | '(' | ')' | '—' | '–'))
        .map_or(before, |(at, c)| &before[at + c.len_utf8()..]);
    // ASCII needle: the byte after a match is a char boundary.
    let clause = match clause
        .as_bytes()
        .windows(5)
        .rposition(|window| window.eq_ignore_ascii_case(b" but "))
    {
        Some(at) => &clause[at + 5..],
        None => clause,
    };
    let negated = words(clause)
        .rev()
        .take(WORDS_BEFORE)
        .any(|word| BEFORE.contains(&word.as_str()) || word.ends_with("n't"));
    // "TODO: add tests", "WIP - tests pass": a marker of unfinished work reaches across the
    // clause break.
    let unfinished = words(before)
        .rev()
        .take(WORDS_BEFORE)
        .any(|word| matches!(word.as_str(), "todo" | "to-do" | "tbd" | "wip" | "fixme"));
    let later = words(after)
        .take(WORDS_AFTER)
        .any(|word| AFTER.contains(&word.as_str()));
    negated || unfinished || later || qualified(after)
}

/// "Add tests and requirements.txt to sdist", "include tests in the wheel": the tests are
/// shipped in a package, none is written.
fn packaged(after: &str) -> bool {
    const PACKAGES: &[&str] = &[
        "sdist",
        "sdists",
        "wheel",
        "wheels",
        "tarball",
        "manifest",
        "distribution",
        "npmignore",
        "package-data",
    ];
    let words: Vec<String> = words(after).take(WORDS_AFTER + 2).collect();
    words.iter().enumerate().any(|(at, word)| {
        matches!(word.as_str(), "to" | "in" | "into")
            && words[at + 1..]
                .iter()
                .take(2)
                .any(|next| PACKAGES.contains(&next.as_str()))
    })
}

/// "I've added tests (if relevant)", "tests updated where applicable": a pull request
/// template's checkbox that claims tests only where the author judged them needed, which a
/// change without tests does not contradict.
fn qualified(after: &str) -> bool {
    let words: Vec<String> = words(after).take(WORDS_AFTER + 1).collect();
    words.windows(2).any(|pair| {
        matches!(pair[0].as_str(), "if" | "where" | "when" | "as")
            && matches!(
                pair[1].as_str(),
                "relevant"
                    | "applicable"
                    | "needed"
                    | "necessary"
                    | "appropriate"
                    | "required"
                    | "possible"
                    | "any"
            )
    })
}

/// Nouns that make "test" part of another thing: "a new test runner" adds no test.
const COMPOUNDS: &[&str] = &[
    "runner",
    "runners",
    "suite",
    "framework",
    "harness",
    "config",
    "configuration",
    "setup",
    "helper",
    "helpers",
    "util",
    "utils",
    "utilities",
    "data",
    "command",
    "script",
    "scripts",
    "job",
    "jobs",
    "workflow",
    "environment",
    "env",
    "infrastructure",
    "infra",
    "dependency",
    "dependencies",
    "tooling",
    "target",
    "targets",
    "matrix",
    "image",
    "container",
    "server",
    "database",
    "db",
    "account",
    "user",
    "mode",
    "flag",
    "step",
    "stage",
    "bed",
    "beds",
    "bench",
    "benches",
    "scene",
    "scenes",
    "example",
    "examples",
    "app",
    "apps",
    "page",
    "pages",
    "crate",
    "crates",
    "binary",
    "tool",
    "tools",
    "plan",
    "report",
    "reports",
    "results",
    "log",
    "logs",
    "asset",
    "assets",
    "directory",
    "directories",
    "folder",
    "dir",
    "project",
    "package",
    "module",
    "cluster",
    "network",
    "instance",
    "device",
    "build",
];

fn compound(after: &str) -> bool {
    words(after)
        .next()
        .is_some_and(|word| COMPOUNDS.contains(&word.as_str()))
}

static HTML_COMMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)<!--.*?(?:-->|\z)").unwrap_or_else(|_| unreachable!("a constant pattern"))
});

static UNCHECKED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:[-*+]|\d+[.)])\s+\[\s\]").unwrap_or_else(|_| unreachable!("a constant"))
});

static CHECKED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:[-*+]|\d+[.)])\s+\[[xX]\]\s*")
        .unwrap_or_else(|_| unreachable!("a constant"))
});

/// The sentences of a text that can state something: prose outside code blocks, quotes,
/// HTML comments, trailers and unchecked checklist items; a line break ends a sentence.
fn sentences(text: &str) -> Vec<String> {
    let text = HTML_COMMENT.replace_all(text, "");
    let mut out = Vec::new();
    let mut fenced = false;
    // `<details>` blocks and HTML list items hold quoted material: the release notes and
    // commit lists a dependency bot pastes into its message ("<li>tests: add more tests</li>").
    let mut details = false;
    // The unfinished sentence of the line before, when the next line continues it: a body
    // wrapped at 72 columns ("I'm not sure\nhow to add a test for this") is one sentence.
    let mut carry = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let continues = !trimmed.is_empty()
            && !trimmed.starts_with(['-', '*', '+', '#', '|', '>'])
            && !trimmed.starts_with(|c: char| c.is_ascii_digit());
        if !continues && !carry.is_empty() {
            push_sentence(&mut out, &std::mem::take(&mut carry));
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            push_sentence(&mut out, &std::mem::take(&mut carry));
            fenced = !fenced;
            continue;
        }
        let lower = trimmed.to_ascii_lowercase();
        if lower.contains("<details") {
            details = true;
        }
        if lower.contains("</details>") {
            details = false;
            continue;
        }
        if fenced
            || details
            || lower.contains("<li>")
            || lower.contains("</li>")
            || lower.contains("<a href")
            || trimmed.starts_with('>')
            || line.starts_with("    ")
            || line.starts_with('\t')
            || UNCHECKED.is_match(line)
            || is_trailer(trimmed)
        {
            push_sentence(&mut out, &std::mem::take(&mut carry));
            continue;
        }
        let line = CHECKED.replace(line, "");
        let line = strip_inline_code(&line);
        let line = if carry.is_empty() {
            line
        } else {
            format!("{} {}", std::mem::take(&mut carry), line.trim_start())
        };
        let mut start = 0;
        let bytes: Vec<(usize, char)> = line.char_indices().collect();
        for (position, (at, c)) in bytes.iter().enumerate() {
            let ends = match c {
                '!' | '?' | ';' => true,
                // "v1.2" and "e.g." are not sentence ends: a dot ends one before a space.
                '.' => bytes
                    .get(position + 1)
                    .is_none_or(|(_, next)| next.is_whitespace()),
                _ => false,
            };
            if ends {
                push_sentence(&mut out, &line[start..at + c.len_utf8()]);
                start = at + c.len_utf8();
            }
        }
        carry = line[start..].trim().to_string();
        // A sentence is not carried past a few lines: a paragraph with no full stop is no
        // reason to glue the whole message together.
        if carry.len() > 400 {
            push_sentence(&mut out, &std::mem::take(&mut carry));
        }
    }
    push_sentence(&mut out, &carry);
    out
}

fn push_sentence(out: &mut Vec<String>, sentence: &str) {
    let sentence = sentence.trim();
    if !sentence.is_empty() {
        out.push(sentence.to_string());
    }
}

/// `Signed-off-by:`, `Co-authored-by:` and other trailers name people, not what changed.
fn is_trailer(line: &str) -> bool {
    line.split_once(": ").is_some_and(|(key, _)| {
        key.contains('-')
            && !key.contains(' ')
            && key.chars().next().is_some_and(char::is_uppercase)
    })
}

fn strip_inline_code(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut inside = false;
    for c in line.chars() {
        if c == '`' {
            inside = !inside;
            out.push(' ');
        } else if !inside {
            out.push(c);
        }
    }
    out
}

fn quote(sentence: &str) -> String {
    let collapsed = sentence.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::rules::markers::shorten(&collapsed, QUOTE_CHARS)
}

#[cfg(test)]
pub(super) fn sections_in_data() -> Vec<String> {
    PHRASES
        .lines()
        .map(str::trim)
        .filter_map(|line| line.strip_prefix('[').and_then(|l| l.strip_suffix(']')))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
pub(super) fn compiled_kinds() -> Vec<Kind> {
    PATTERNS.iter().map(|(kind, _)| *kind).collect()
}
