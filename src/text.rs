//! Small text utilities shared by the CLI, config and rules: edit distance and line slicing.

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
}
