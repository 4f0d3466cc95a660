//! Comments of one side of a file, for the rules that read what people write in them
//! (`commented-out-validation`, `todo-stub`): where each comment sits, whether it is a doc
//! comment, its text without the comment markers, and runs of consecutive line comments.
//!
//! The comment tokens come from the shared `comments` query; this module only does text work
//! on them and knows nothing about what a rule looks for.

use super::context::FileContext;
use crate::finding::Side;
use crate::lang::Language;
use regex::Regex;
use std::sync::LazyLock;

/// One comment token.
#[derive(Clone, Debug)]
pub struct Comment {
    /// 1-based first line.
    pub line: u32,
    /// 1-based last line.
    pub end_line: u32,
    /// The token's text, markers included.
    pub raw: String,
    /// Nothing but whitespace precedes it on its first line.
    pub own_line: bool,
    /// A documentation comment (`///`, `//!`, `/** */`, `/*! */`), whose code is examples.
    pub doc: bool,
    /// A `/* ... */` comment.
    pub block: bool,
}

/// A run of comment text read as one piece: consecutive own-line line comments, or one block
/// comment. `lines[i]` is the file line that `text[i]` came from.
#[derive(Clone, Debug)]
pub struct Group {
    /// File line of each text line.
    pub lines: Vec<u32>,
    /// The text of each line without comment markers.
    pub text: Vec<String>,
    /// The raw source line (trimmed) of each text line, to compare with the other side.
    pub raw: Vec<String>,
    /// One `/* ... */` comment, rather than a run of line comments.
    pub block: bool,
}

/// Every comment of `side`, in document order.
pub fn collect(context: &FileContext<'_>, side: Side) -> Vec<Comment> {
    let Some(text) = context.side(side).map(|side| side.text) else {
        return Vec::new();
    };
    let Some(language) = context.language else {
        return Vec::new();
    };
    context
        .matches(side, "comments")
        .iter()
        .filter_map(|found| {
            let raw = text.get(found.byte_range.clone())?.to_string();
            let line_start = text[..found.byte_range.start]
                .rfind('\n')
                .map_or(0, |index| index + 1);
            let own_line = text[line_start..found.byte_range.start].trim().is_empty();
            Some(Comment {
                line: found.line,
                end_line: found.end_line,
                doc: is_doc(language, &raw),
                block: raw.starts_with("/*"),
                raw,
                own_line,
            })
        })
        .collect()
}

fn is_doc(language: Language, raw: &str) -> bool {
    match language {
        Language::Python => false,
        Language::Rust => {
            (raw.starts_with("///") && !raw.starts_with("////"))
                || raw.starts_with("//!")
                || (raw.starts_with("/**") && !raw.starts_with("/***") && raw != "/**/")
                || raw.starts_with("/*!")
        }
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            raw.starts_with("/**") && !raw.starts_with("/***") && raw != "/**/"
        }
    }
}

/// The comment's text without markers, one entry per line.
pub fn uncomment(comment: &Comment) -> Vec<String> {
    let raw = comment.raw.trim_end();
    if comment.block {
        let inner = raw.strip_prefix("/*").unwrap_or(raw);
        let inner = inner.strip_suffix("*/").unwrap_or(inner);
        let lines: Vec<&str> = inner.split('\n').collect();
        // ` * text` continuation lines lose their leading star when every line has one.
        let starred = lines
            .iter()
            .skip(1)
            .filter(|line| !line.trim().is_empty())
            .all(|line| line.trim_start().starts_with('*'));
        return lines
            .iter()
            .enumerate()
            .map(|(index, line)| {
                let line = line.trim_end_matches('\r');
                if starred && index > 0 {
                    let trimmed = line.trim_start();
                    trimmed.strip_prefix('*').unwrap_or(trimmed).to_string()
                } else {
                    line.to_string()
                }
            })
            .collect();
    }
    let text = raw
        .strip_prefix("//")
        .or_else(|| raw.strip_prefix('#'))
        .unwrap_or(raw);
    vec![text.to_string()]
}

/// Own-line, non-doc comments grouped into runs: consecutive line comments join, a block
/// comment stands alone. Trailing comments (`x = 1  # note`) are left out.
pub fn groups(comments: &[Comment], source: &str) -> Vec<Group> {
    let source_lines: Vec<&str> = source.lines().collect();
    let raw_line = |line: u32| {
        source_lines
            .get(line.saturating_sub(1) as usize)
            .map(|text| text.trim().to_string())
            .unwrap_or_default()
    };
    let mut out: Vec<Group> = Vec::new();
    let mut previous_line_comment: Option<u32> = None;
    for comment in comments.iter().filter(|c| c.own_line && !c.doc) {
        let text = uncomment(comment);
        let lines: Vec<u32> = (comment.line..comment.line + text.len() as u32).collect();
        let raw: Vec<String> = lines.iter().map(|line| raw_line(*line)).collect();
        let joins = !comment.block && previous_line_comment == Some(comment.line.saturating_sub(1));
        match out.last_mut() {
            Some(group) if joins => {
                group.lines.extend(lines);
                group.text.extend(text);
                group.raw.extend(raw);
            }
            _ => out.push(Group {
                lines,
                text,
                raw,
                block: comment.block,
            }),
        }
        previous_line_comment = (!comment.block).then_some(comment.end_line);
    }
    out
}

static TODO_TAG: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?:^|[^\w])(TODO|FIXME|XXX|HACK)(?:[^\w]|$)|^\s*(?i:todo|fixme|xxx|hack)\s*(?:[:(]|$)",
    )
    .ok()
});

/// The TODO-style tag a comment's text carries (`TODO`, `FIXME`, `XXX`, `HACK`), if any: the
/// upper-case word anywhere, or the word in any case opening the comment (`# todo: later`).
pub fn todo_tag(text: &str) -> Option<String> {
    let regex = TODO_TAG.as_ref()?;
    let captures = regex.captures(text)?;
    captures.get(1).or_else(|| captures.get(0)).map(|found| {
        found
            .as_str()
            .trim()
            .trim_end_matches([':', '('])
            .to_ascii_uppercase()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comment(raw: &str) -> Comment {
        Comment {
            line: 1,
            end_line: 1 + raw.matches('\n').count() as u32,
            raw: raw.to_string(),
            own_line: true,
            doc: false,
            block: raw.starts_with("/*"),
        }
    }

    #[test]
    fn uncomments_line_and_block_comments() {
        assert_eq!(uncomment(&comment("# assert x")), [" assert x"]);
        assert_eq!(uncomment(&comment("// it()")), [" it()"]);
        assert_eq!(uncomment(&comment("/* a\n * b\n */")), [" a", " b", ""]);
        assert_eq!(
            uncomment(&comment("/* test\n  (\n  )\n*/")),
            [" test", "  (", "  )", ""]
        );
    }

    #[test]
    fn recognises_doc_comments() {
        assert!(is_doc(Language::Rust, "/// x"));
        assert!(is_doc(Language::Rust, "//! x"));
        assert!(!is_doc(Language::Rust, "//// x"));
        assert!(!is_doc(Language::Rust, "// x"));
        assert!(is_doc(Language::JavaScript, "/** @example */"));
        assert!(!is_doc(Language::JavaScript, "/* x */"));
    }

    #[test]
    fn finds_todo_tags() {
        assert_eq!(todo_tag(" TODO: later").as_deref(), Some("TODO"));
        assert_eq!(todo_tag(" todo: later").as_deref(), Some("TODO"));
        assert_eq!(todo_tag(" see FIXME(#12)").as_deref(), Some("FIXME"));
        assert_eq!(todo_tag(" XXX").as_deref(), Some("XXX"));
        assert_eq!(todo_tag(" a todo list"), None);
        assert_eq!(todo_tag(" TODOS are fine"), None);
        assert_eq!(todo_tag(" hackathon"), None);
    }
}
