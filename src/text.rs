//! Small text utilities shared by the CLI, config and rules: edit distance, line slicing and
//! JSON parsing that survives deep nesting.

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
    let first = first.max(1) as usize;
    let last = (last.max(first as u32)) as usize;
    let count = (last - first + 1).min(max_lines);
    text.lines()
        .skip(first - 1)
        .take(count)
        .collect::<Vec<_>>()
        .join("\n")
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
