//! Bounds for walking syntax trees that a hostile change can nest arbitrarily deep.
//!
//! tree-sitter parses iteratively, so a file of 100k nested brackets parses fine, but anything
//! that walks the tree per node and per level costs O(nodes · depth): query matching starts
//! candidate matches at every level, and `Node::parent` finds a parent by descending from the
//! root, so a climb to the root is O(depth²). The syntax rules therefore look no deeper than
//! [`MAX_SYNTAX_DEPTH`] levels, ancestors come from one descent ([`ancestors`]), and a file
//! nested deeper than the bound gets a note saying the rules did not see below it. A flat run of
//! thousands of tokens is quadratic for the query engine too ([`MAX_TOKEN_RUN`]).

use tree_sitter::{Node, Tree};

/// Deepest nesting (visible nodes below the root) the syntax rules look at. Real code, even
/// generated or minified, stays far below it: a test inside ten `describe`s sits some 60 levels
/// down. Deeper subtrees are not searched, and the file gets a note.
pub const MAX_SYNTAX_DEPTH: u32 = 1024;

/// Longest run of consecutive unnamed children (punctuation, keywords) the query engine is
/// given. tree-sitter's query cursor scans a node's later siblings for a named one at every
/// step, so a flat run of n tokens (100k unbalanced `(` recovered as one ERROR node) costs
/// O(n²) per query. Real code alternates tokens with named nodes; 4096 in a row is garbage.
pub const MAX_TOKEN_RUN: usize = 4096;

/// What makes a tree too costly to search in full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hazards {
    /// Nesting deeper than [`MAX_SYNTAX_DEPTH`]: queries do not look below it.
    pub too_deep: bool,
    /// A run of more than [`MAX_TOKEN_RUN`] unnamed siblings: queries do not run at all.
    pub token_run: bool,
}

/// Finds the [`Hazards`] of `tree` in one cursor walk that never goes below
/// `MAX_SYNTAX_DEPTH + 1` levels, so it costs at most the nodes the rules would see.
pub fn hazards(tree: &Tree) -> Hazards {
    let mut found = Hazards::default();
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        // A subtree of `n` visible nodes holds neither hazard when its deepest node (at most
        // `n - 1` levels down) stays within the bound and it is too small for a long run of
        // children: most subtrees are, so the walk visits few nodes past the top levels.
        let size = node.descendant_count();
        let depth = usize::try_from(cursor.depth()).unwrap_or(usize::MAX);
        if size <= MAX_TOKEN_RUN && depth.saturating_add(size - 1) <= MAX_SYNTAX_DEPTH as usize {
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    return found;
                }
            }
            continue;
        }
        let children = usize::try_from(node.child_count()).unwrap_or(usize::MAX);
        if children > MAX_TOKEN_RUN && longest_token_run(node) > MAX_TOKEN_RUN {
            found.token_run = true;
        }
        let descended = if cursor.depth() > MAX_SYNTAX_DEPTH {
            // A long union of literal types or a concatenation of strings nests as deep as it
            // is long (h3 fb669247: 2,000 MIME types in one `type`), and below the bound it
            // holds only data no rule reads: nothing unseen.
            if !data_only(node) {
                found.too_deep = true;
            }
            false
        } else {
            cursor.goto_first_child()
        };
        if !descended {
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    return found;
                }
            }
        }
    }
}

/// Nodes a data subtree is read through before it counts as code.
const MAX_DATA_NODES: usize = 1 << 20;

/// Whether the subtree at `node` holds only literal data: union and literal types, strings,
/// numbers, type names and the operators joining them.
fn data_only(node: Node<'_>) -> bool {
    const DATA: &[&str] = &[
        "union_type",
        "literal_type",
        "string",
        "string_fragment",
        "string_content",
        "string_start",
        "string_end",
        "escape_sequence",
        "concatenated_string",
        "binary_expression",
        "number",
        "type_identifier",
        "predefined_type",
        "comment",
        "|",
        "+",
        "'",
        "\"",
    ];
    if node.descendant_count() > MAX_DATA_NODES {
        return false;
    }
    let mut cursor = node.walk();
    loop {
        if !DATA.contains(&cursor.node().kind()) {
            return false;
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() || cursor.node() == node {
                return true;
            }
        }
    }
}

fn longest_token_run(node: Node<'_>) -> usize {
    let mut cursor = node.walk();
    let mut longest = 0;
    let mut run = 0;
    for child in node.children(&mut cursor) {
        run = if child.is_named() { 0 } else { run + 1 };
        longest = longest.max(run);
    }
    longest
}

/// The ancestors of `node` within the tree rooted at `root`, nearest first, `root` last. One
/// descent from the root, O(depth · siblings), where climbing with `Node::parent` is O(depth)
/// per step.
pub fn ancestors<'t>(root: Node<'t>, node: Node<'t>) -> Vec<Node<'t>> {
    let mut path = Vec::new();
    let mut current = root;
    while current != node {
        let Some(child) = current.child_with_descendant(node) else {
            break;
        };
        path.push(current);
        current = child;
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{Language, parse};

    #[test]
    fn ancestors_match_climbing_parents() {
        let source = "describe('a', () => { it('b', () => { expect([[1]]).toEqual(x); }); });";
        let parsed = parse(Language::JavaScript, source.into()).unwrap();
        let root = parsed.tree.root_node();
        let offset = source.find("[1]").unwrap();
        let leaf = root
            .descendant_for_byte_range(offset + 1, offset + 2)
            .unwrap();
        let mut climbed = Vec::new();
        let mut current = leaf.parent();
        while let Some(ancestor) = current {
            climbed.push(ancestor);
            current = ancestor.parent();
        }
        assert!(climbed.len() > 10);
        assert_eq!(ancestors(root, leaf), climbed);
        assert!(ancestors(root, root).is_empty());
    }

    /// The walk without pruning, to check that pruning by subtree size changes nothing.
    fn hazards_visiting_every_node(tree: &Tree) -> Hazards {
        let mut found = Hazards::default();
        let mut cursor = tree.walk();
        loop {
            let node = cursor.node();
            if node.child_count() as usize > MAX_TOKEN_RUN
                && longest_token_run(node) > MAX_TOKEN_RUN
            {
                found.token_run = true;
            }
            let descended = if cursor.depth() > MAX_SYNTAX_DEPTH {
                found.too_deep = true;
                false
            } else {
                cursor.goto_first_child()
            };
            if !descended {
                while !cursor.goto_next_sibling() {
                    if !cursor.goto_parent() {
                        return found;
                    }
                }
            }
        }
    }

    #[test]
    fn pruned_walk_finds_what_the_full_walk_finds_at_the_bounds() {
        let depth = MAX_SYNTAX_DEPTH as usize;
        let filler = "f(1, [2, 3]);\n".repeat(300);
        for nesting in [
            depth / 2 - 1,
            depth / 2,
            depth / 2 + 1,
            depth - 2,
            depth,
            depth + 1,
        ] {
            let deep = format!(
                "{filler}x = {}1{};\n{filler}",
                "[".repeat(nesting),
                "]".repeat(nesting)
            );
            let parsed = parse(Language::JavaScript, deep).unwrap();
            assert_eq!(
                hazards(&parsed.tree),
                hazards_visiting_every_node(&parsed.tree),
                "nesting {nesting}"
            );
        }
        for run in [
            MAX_TOKEN_RUN - 1,
            MAX_TOKEN_RUN,
            MAX_TOKEN_RUN + 1,
            MAX_TOKEN_RUN * 2,
        ] {
            let flat = format!("{filler}{}", "(".repeat(run));
            let parsed = parse(Language::Python, flat).unwrap();
            assert_eq!(
                hazards(&parsed.tree),
                hazards_visiting_every_node(&parsed.tree),
                "run {run}"
            );
        }
    }

    #[test]
    fn hazards_see_deep_nesting_and_token_runs() {
        let shallow = parse(Language::JavaScript, "f([[1]]);".into()).unwrap();
        assert_eq!(hazards(&shallow.tree), Hazards::default());
        let depth = MAX_SYNTAX_DEPTH as usize;
        let deep = format!("x = {}1{};", "[".repeat(depth), "]".repeat(depth));
        let deep = parse(Language::JavaScript, deep).unwrap();
        assert!(hazards(&deep.tree).too_deep);
        assert!(!hazards(&deep.tree).token_run);
        let flat = parse(Language::Python, "(".repeat(MAX_TOKEN_RUN * 2)).unwrap();
        assert!(hazards(&flat.tree).token_run);
        let list = format!("x = [{}]", "1, ".repeat(MAX_TOKEN_RUN * 2));
        let list = parse(Language::Python, list).unwrap();
        assert_eq!(hazards(&list.tree), Hazards::default());
    }

    #[test]
    fn a_long_union_of_literals_hides_nothing_but_one_with_code_does() {
        let count = MAX_SYNTAX_DEPTH as usize * 2;
        let names: Vec<String> = (0..count).map(|n| format!("'type/{n}'")).collect();
        let union = format!("export type Mime = {} | AnyString;\n", names.join("|"));
        let union = parse(Language::TypeScript, union).unwrap();
        assert_eq!(hazards(&union.tree), Hazards::default());
        let strings = format!("const s = {};\n", names.join(" + "));
        let strings = parse(Language::TypeScript, strings).unwrap();
        assert_eq!(hazards(&strings.tree), Hazards::default());
        // The last operand of a left-deep chain sits at the top; the first ones are deepest.
        let mixed = format!("const s = check(input) + {};\n", names.join(" + "));
        let mixed = parse(Language::TypeScript, mixed).unwrap();
        assert!(hazards(&mixed.tree).too_deep);
    }
}
