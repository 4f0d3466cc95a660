//! The change as tree-sitter edits, so that head is reparsed from base's tree: tree-sitter then
//! reuses every subtree the edits leave alone, and head costs what the change touches instead
//! of a second full parse. The tree it returns is the one a fresh parse would build.

use tree_sitter::{InputEdit, Point};

/// The edits that turn `base` into `head`, one per run of changed lines, in order and in the
/// coordinates tree-sitter expects when they are applied one after another (each edit's start
/// is where its hunk begins in head, since everything before it is already edited).
/// `removed` and `added` say, per 1-based line, whether the diff removed the base line or
/// added the head line; the unchanged lines between them pair up one to one.
///
/// tree-sitter trusts edits: a subtree outside them is reused as it is. So the unchanged lines
/// are compared, and when any pair differs (a diff that failed or disagrees with the texts)
/// there are no edits to trust: `None`, and the caller parses head afresh.
pub fn line_edits(
    base: &str,
    head: &str,
    removed: impl Fn(u32) -> bool,
    added: impl Fn(u32) -> bool,
) -> Option<Vec<InputEdit>> {
    let base_lines = line_ends(base);
    let head_lines = line_ends(head);
    let mut edits = Vec::new();
    // Line indexes (0-based) and byte offsets of the next line on each side.
    let (mut b, mut h) = (0usize, 0usize);
    let (mut base_at, mut head_at) = (0usize, 0usize);
    while b < base_lines.len() || h < head_lines.len() {
        let number = |index: usize| u32::try_from(index + 1).unwrap_or(u32::MAX);
        let base_changed = b < base_lines.len() && removed(number(b));
        let head_changed = h < head_lines.len() && added(number(h));
        if !base_changed && !head_changed {
            if b >= base_lines.len() || h >= head_lines.len() {
                // Unchanged lines left on one side only: the diff does not fit the texts.
                return None;
            }
            if base.get(base_at..base_lines[b]) != head.get(head_at..head_lines[h]) {
                return None;
            }
            base_at = base_lines[b];
            head_at = head_lines[h];
            b += 1;
            h += 1;
            continue;
        }
        let (start_b, start_h) = (b, h);
        let (start_base_at, start_head_at) = (base_at, head_at);
        while b < base_lines.len() && removed(number(b)) {
            base_at = base_lines[b];
            b += 1;
        }
        while h < head_lines.len() && added(number(h)) {
            head_at = head_lines[h];
            h += 1;
        }
        edits.push(edit(
            (start_head_at, start_h),
            (start_base_at, base_at, start_b, b),
            (head_at, h),
        ));
    }
    Some(edits)
}

/// One edit at head offset/row `start`, replacing base bytes `old.0..old.1` (rows
/// `old.2..old.3`) by head bytes up to `new_end` (row `new_end.1`). Every bound is a line start,
/// so columns are 0, except at a last line without a newline, which tree-sitter accepts as a
/// row/column past the text.
fn edit(
    start: (usize, usize),
    old: (usize, usize, usize, usize),
    new_end: (usize, usize),
) -> InputEdit {
    let (start_byte, start_row) = start;
    let (old_start, old_end, old_start_row, old_end_row) = old;
    InputEdit {
        start_byte,
        old_end_byte: start_byte + (old_end - old_start),
        new_end_byte: new_end.0,
        start_position: Point::new(start_row, 0),
        old_end_position: Point::new(start_row + (old_end_row - old_start_row), 0),
        new_end_position: Point::new(new_end.1, 0),
    }
}

/// Byte offset just past each line (after its `\n`, or the text's end for a last line
/// without one), as `str::lines` counts them.
fn line_ends(text: &str) -> Vec<usize> {
    let mut ends: Vec<usize> = memchr_newlines(text).map(|index| index + 1).collect();
    if ends.last().copied().unwrap_or(0) < text.len() {
        ends.push(text.len());
    }
    ends
}

fn memchr_newlines(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter(|(_, byte)| *byte == b'\n')
        .map(|(index, _)| index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{Language, parse, reparse};

    /// Reparsing head from base's edited tree gives the tree a fresh parse of head gives.
    fn same_as_fresh(language: Language, base: &str, head: &str) {
        let (added, removed) = crate::changeset::changed_lines(Some(base), Some(head));
        let edits = line_edits(
            base,
            head,
            |line| removed.contains(line),
            |line| added.contains(line),
        )
        .expect("the diff fits the texts");
        let old = parse(language, base.to_string()).map(|parsed| parsed.tree);
        let old = old.as_ref().ok();
        let fresh =
            parse(language, head.to_string()).map(|parsed| parsed.tree.root_node().to_sexp());
        let reparsed = reparse(
            language,
            head.to_string(),
            old.map(|tree| (tree, edits.as_slice())),
            crate::lang::budget::Deadline::after(crate::lang::parse_budget()),
        )
        .map(|parsed| parsed.tree.root_node().to_sexp());
        assert_eq!(fresh.ok(), reparsed.ok(), "{base:?} -> {head:?}");
    }

    #[test]
    fn head_reparsed_from_base_is_the_fresh_parse() {
        let base = "def test_a():\n    assert f(1) == 2\n\n\ndef test_b():\n    assert g() == 3\n\nclass T:\n    def test_c(self):\n        pass\n";
        let cases = [
            // one line changed in the middle
            base.replace("g() == 3", "g() is not None"),
            // lines inserted at the top and removed at the end
            format!("import os\n{}", base.replace("        pass\n", "")),
            // a test deleted, one added at the end without a final newline
            format!(
                "{}def test_d():\n    assert True",
                base.replace("def test_b():\n    assert g() == 3\n", "")
            ),
            // everything replaced
            "x = 1\n".to_string(),
            String::new(),
        ];
        for head in &cases {
            same_as_fresh(Language::Python, base, head);
            same_as_fresh(Language::Python, head, base);
        }
        let js = "describe('s', () => {\n  it('a', () => {\n    expect(a()).toBe(1);\n  });\n});\n";
        same_as_fresh(
            Language::TypeScript,
            js,
            &js.replace("it('a'", "it.skip('a'"),
        );
        same_as_fresh(
            Language::TypeScript,
            js,
            &js.replace("    expect(a()).toBe(1);\n", ""),
        );
        let rs = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() {\n        assert_eq!(f(), 1);\n    }\n}\n";
        same_as_fresh(
            Language::Rust,
            rs,
            &rs.replace("    #[test]\n", "    #[test]\n    #[ignore]\n"),
        );
        same_as_fresh(Language::Rust, "fn a() {}", "fn a() {}\nfn b() {}");
    }

    #[test]
    fn a_diff_that_does_not_fit_the_texts_gives_no_edits() {
        let (base, head) = ("a = 1\nb = 2\nc = 3\n", "a = 1\nb = 20\nc = 3\n");
        // Nothing marked changed although line 2 differs (a failed diff).
        assert!(line_edits(base, head, |_| false, |_| false).is_none());
        // Unchanged lines left over on one side.
        assert!(line_edits(base, "a = 1\n", |_| false, |_| false).is_none());
        let fits = line_edits(base, head, |line| line == 2, |line| line == 2);
        assert_eq!(fits.map(|edits| edits.len()), Some(1));
    }
}
