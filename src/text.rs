//! Small text utilities shared by the CLI, config, rules and reporters: edit distance, line
//! slicing, escaping of control characters for text shown to people, and JSON parsing that
//! survives deep nesting.

use std::borrow::Cow;

/// Levenshtein distance, for "did you mean" hints. Inputs are short names.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b_chars: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b_chars.len()).collect();
    for (i, a_char) in a.chars().enumerate() {
        let mut current = vec![i + 1; b_chars.len() + 1];
        for (j, b_char) in b_chars.iter().enumerate() {
            let substitution = previous[j] + usize::from(a_char != *b_char);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b_chars.len()]
}

/// Up to `limit` candidates nearest to `word`, best first; only reasonably close ones.
pub fn nearest<'c>(
    word: &str,
    candidates: impl Iterator<Item = &'c str>,
    limit: usize,
) -> Vec<&'c str> {
    let mut scored: Vec<(usize, &str)> = candidates
        .map(|candidate| (edit_distance(word, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= candidate.len().max(word.len()) / 2 + 1)
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(limit)
        .map(|(_, candidate)| candidate)
        .collect()
}

/// Lines `first..=last` (1-based) of `text`, at most `max_lines` of them.
pub fn line_slice(text: &str, first: u32, last: u32, max_lines: usize) -> String {
    line_slice_at(text, &line_starts(text), first, last, max_lines)
}

/// Byte offset of the start of each line of `text`, as [`str::lines`] counts lines.
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            text.bytes()
                .enumerate()
                .filter(|(index, byte)| *byte == b'\n' && index + 1 < text.len())
                .map(|(index, _)| index + 1),
        )
        .filter(|_| !text.is_empty())
        .collect()
}

/// [`line_slice`] with the line starts found once ([`line_starts`]): a file with thousands of
/// findings would otherwise be rescanned for each.
pub fn line_slice_at(
    text: &str,
    starts: &[usize],
    first: u32,
    last: u32,
    max_lines: usize,
) -> String {
    let first = first.max(1) as usize;
    let last = (last.max(first as u32)) as usize;
    let count = (last - first + 1).min(max_lines);
    (first - 1..first - 1 + count)
        .map_while(|index| {
            let start = *starts.get(index)?;
            let end = starts.get(index + 1).copied().unwrap_or(text.len());
            // `lines()` on the one line keeps its exact idea of line endings.
            Some(text[start..end].lines().next().unwrap_or_default())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// True for characters that change how text is laid out or read rather than showing up: C0
/// and C1 controls and DEL (a newline starts a fake workflow command, ESC colours or hides a
/// terminal line, CR overwrites it), the Unicode line and paragraph separators, and the
/// bidirectional formatting characters that reorder what a reviewer sees (Trojan Source).
fn is_hidden_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'
                ..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every control character (see [`is_hidden_control`]) written as a visible
/// escape (`\n`, `\r`, `\t`, `\u{1b}`), so one string from a change stays one line of
/// output and cannot move the cursor, recolour the terminal or reorder the line. Every
/// human-facing string taken from a change or an operator goes through this.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_hidden_control(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`escape_controls`] for multi-line text shown line by line (snippets): line breaks stay,
/// tabs stay (they only indent), everything else is escaped within its line.
pub fn escape_controls_in_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| {
            line.split('\t')
                .map(escape_controls)
                .collect::<Vec<_>>()
                .join("\t")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Multi-line text made safe for a log that GitHub Actions reads: controls escaped within each
/// line ([`escape_controls_in_lines`]), and a backslash before any line that would otherwise
/// start (after leading whitespace, which the runner skips) with `::`, so text quoted from a
/// change or an argument can never be read as a workflow command.
pub fn defuse_commands(text: &str) -> String {
    escape_controls_in_lines(text)
        .split('\n')
        .map(|line| {
            if line.trim_start().starts_with("::") {
                format!("\\{line}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Standard or URL-safe base64 (padding optional) to bytes; `None` for anything else.
pub fn base64_bytes(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut bits = 0u32;
    let mut count = 0;
    let mut bytes = Vec::with_capacity(text.len() * 3 / 4);
    for c in text.bytes() {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        bits = ((bits << 6) | u32::from(value)) & 0x00ff_ffff;
        count += 6;
        if count >= 8 {
            count -= 8;
            bytes.push(u8::try_from((bits >> count) & 0xff).ok()?);
        }
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("skiped-test", "skipped-test"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn nearest_suggests_close_names_only() {
        let names = ["rules", "ignore", "allow", "fail-on"];
        assert_eq!(nearest("rulez", names.into_iter(), 1), ["rules"]);
        assert!(nearest("zzzzzzzzzz", names.into_iter(), 3).is_empty());
    }

    #[test]
    fn line_slice_is_one_based_and_capped() {
        let text = "a\nb\nc\nd";
        assert_eq!(line_slice(text, 2, 3, 10), "b\nc");
        assert_eq!(line_slice(text, 1, 4, 2), "a\nb");
        assert_eq!(line_slice(text, 9, 9, 2), "");
    }

    #[test]
    fn indexed_slices_match_lines() {
        for text in ["", "a", "a\n", "a\r\nb\n\nc", "x\ny\r", "\n\n"] {
            let lines: Vec<&str> = text.lines().collect();
            for first in 1..=lines.len() as u32 + 1 {
                for last in first..=lines.len() as u32 + 1 {
                    let expected = lines
                        .iter()
                        .skip(first as usize - 1)
                        .take((last - first + 1).min(2) as usize)
                        .copied()
                        .collect::<Vec<_>>()
                        .join("\n");
                    assert_eq!(line_slice(text, first, last, 2), expected, "{text:?}");
                }
            }
        }
    }

    #[test]
    fn controls_are_escaped_visibly_and_plain_text_is_borrowed() {
        assert!(matches!(
            escape_controls("plain `text` é"),
            Cow::Borrowed(_)
        ));
        assert_eq!(
            escape_controls("a\n::error::x\r\u{1b}[31m\u{85}\u{2028}\u{202e}\u{7f}"),
            "a\\n::error::x\\r\\u{1b}[31m\\u{85}\\u{2028}\\u{202e}\\u{7f}"
        );
        for c in [
            '\u{0}', '\u{1f}', '\u{9b}', '\u{2029}', '\u{2066}', '\u{200f}',
        ] {
            assert!(!escape_controls(&format!("x{c}y")).contains(c), "{c:?}");
        }
    }

    #[test]
    fn snippets_keep_their_lines_and_tabs() {
        assert_eq!(
            escape_controls_in_lines("a\tb\r\n\u{1b}c"),
            "a\tb\\r\n\\u{1b}c"
        );
    }

    #[test]
    fn no_line_can_start_a_workflow_command() {
        let out = defuse_commands("error: bad 'x\n  ::error::forged\n::add-mask::y'\nok\n");
        assert_eq!(
            out,
            "error: bad 'x\n\\  ::error::forged\n\\::add-mask::y'\nok\n"
        );
        assert!(out.lines().all(|line| !line.trim_start().starts_with("::")));
    }
}

/// Nesting depth past which JSON values are replaced by `null` before parsing. serde_json
/// refuses documents nested deeper than 128 levels, so one deep array in an unrelated field
/// would hide a whole manifest from the rules; none of them reads anywhere near this deep.
const JSON_MAX_DEPTH: usize = 64;

/// Parses JSON like `serde_json::from_str`, but a document nested too deep for serde_json
/// still parses, with its deepest values replaced by `null`.
pub fn parse_json(text: &str) -> serde_json::Result<serde_json::Value> {
    match serde_json::from_str(text) {
        Err(error) => match prune_deep_json(text) {
            Some(pruned) => serde_json::from_str(&pruned),
            None => Err(error),
        },
        parsed => parsed,
    }
}

/// `text` with every array or object that opens at [`JSON_MAX_DEPTH`] replaced by `null`;
/// `None` when nothing is that deep. One pass, no recursion; cuts fall on ASCII brackets, so
/// the result stays valid UTF-8.
fn prune_deep_json(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut depth = 0usize;
    // While skipping a pruned value: where it started and the depth it opened at.
    let mut pruning: Option<usize> = None;
    let mut in_string = false;
    let mut escaped = false;
    for (index, byte) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                if depth == JSON_MAX_DEPTH && pruning.is_none() {
                    out.push_str(&text[copied..index]);
                    out.push_str("null");
                    pruning = Some(depth);
                }
                depth += 1;
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if pruning == Some(depth) {
                    pruning = None;
                    copied = index + 1;
                }
            }
            _ => {}
        }
    }
    if copied == 0 && out.is_empty() {
        return None;
    }
    if pruning.is_none() {
        out.push_str(&text[copied..]);
    }
    Some(out)
}

#[cfg(test)]
mod json_tests {
    use super::*;

    #[test]
    fn deep_json_parses_with_its_deepest_values_pruned() {
        let deep = format!("{}{}", "[".repeat(500), "]".repeat(500));
        let text = format!(r#"{{"a": {deep}, "s": "[[{{", "dependencies": {{"x": "1"}}}}"#);
        assert!(serde_json::from_str::<serde_json::Value>(&text).is_err());
        let value = parse_json(&text).unwrap();
        assert_eq!(value["dependencies"]["x"], "1");
        assert_eq!(value["s"], "[[{");
        let mut inner = &value["a"];
        for _ in 1..JSON_MAX_DEPTH {
            inner = &inner[0];
        }
        assert_eq!(inner[0], serde_json::Value::Null);
    }

    #[test]
    fn shallow_or_broken_json_is_left_alone() {
        assert_eq!(parse_json(r#"{"a": [1]}"#).unwrap()["a"][0], 1);
        assert!(parse_json("{").is_err());
        let unclosed = format!("{{\"a\": {}", "[".repeat(200));
        assert!(parse_json(&unclosed).is_err());
    }
}
