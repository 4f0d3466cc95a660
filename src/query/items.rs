//! Top-level items (functions, classes, statements) that a change left alone, and where they
//! stand on each side, so that a query need not walk them twice.
//!
//! Part of the query layer: given base's tree, head's tree reparsed from it and the edits
//! between them, it pairs each head item the edits and tree-sitter's changed ranges do not touch
//! with the base item it was, after checking that the two are the same text and the same
//! subtree shape. It knows nothing of rules.

use super::QueryMatch;
use crate::lang::Parsed;
use std::collections::HashMap;
use std::ops::Range;
use tree_sitter::{InputEdit, Node};

/// Where base's top-level items come from.
pub struct Plan<'t> {
    /// Head's top-level items, by byte range, in order.
    pub head_items: Vec<Range<usize>>,
    /// Base's top-level items, in order.
    pub base_items: Vec<BaseItem<'t>>,
}

/// One of base's top-level items.
pub enum BaseItem<'t> {
    /// The same as head's item `head`, which stands `shift` away.
    Same {
        /// Index into [`Plan::head_items`].
        head: usize,
        /// From head's place to base's.
        shift: Shift,
    },
    /// Touched by the change: to be searched in base itself.
    Changed(Node<'t>),
}

/// How far an unchanged item moved between base and head.
#[derive(Clone, Copy, Debug)]
pub struct Shift {
    /// Head offset minus base offset.
    bytes: isize,
    /// Head row minus base row.
    rows: i64,
}

impl Shift {
    /// `found` (a match on head) placed where the same match stands in base.
    pub fn apply(self, mut found: QueryMatch) -> QueryMatch {
        let byte = |offset: usize| offset.saturating_add_signed(-self.bytes);
        found.byte_range = byte(found.byte_range.start)..byte(found.byte_range.end);
        let line = |line: u32| u32::try_from(i64::from(line) - self.rows).unwrap_or(line);
        found.line = line(found.line);
        found.end_line = line(found.end_line);
        found
    }
}

fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

/// Pairs head's untouched top-level items with base's; `None` when the roots differ in kind.
pub fn plan<'t>(base: &'t Parsed, head: &Parsed, edits: &[InputEdit]) -> Option<Plan<'t>> {
    let (base_root, head_root) = (base.tree.root_node(), head.tree.root_node());
    if base_root.kind_id() != head_root.kind_id() {
        return None;
    }
    let base_children = children(base_root);
    let head_children = children(head_root);
    // What the edits replaced and what tree-sitter says changed shape, in head's offsets.
    let mut edited = base.tree.clone();
    for edit in edits {
        edited.edit(edit);
    }
    let mut touched: Vec<(usize, usize)> = edits
        .iter()
        .map(|edit| (edit.start_byte, edit.new_end_byte))
        .chain(
            edited
                .changed_ranges(&head.tree)
                .map(|range| (range.start_byte, range.end_byte)),
        )
        .collect();
    touched.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(touched.len());
    for (start, end) in touched {
        match merged.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    // Closed intervals: an item that merely touches an edit counts as touched.
    let is_touched = |start: usize, end: usize| {
        let index = merged.partition_point(|(_, touched_end)| *touched_end < start);
        merged
            .get(index)
            .is_some_and(|(touched_start, _)| *touched_start <= end)
    };
    // Edits in order, with the growth (bytes, rows) each brings, summed as items pass them.
    let mut next_edit = 0;
    let (mut grown_bytes, mut grown_rows) = (0isize, 0i64);
    let mut same_as: HashMap<usize, (usize, Shift)> = HashMap::new();
    let (base_text, head_text) = (base.text.as_str(), head.text.as_str());
    for (index, item) in head_children.iter().enumerate() {
        let (start, end) = (item.start_byte(), item.end_byte());
        while let Some(edit) = edits
            .get(next_edit)
            .filter(|edit| edit.new_end_byte <= start)
        {
            grown_bytes += isize::try_from(edit.new_end_byte).ok()?
                - isize::try_from(edit.old_end_byte).ok()?;
            grown_rows += i64::try_from(edit.new_end_position.row).ok()?
                - i64::try_from(edit.old_end_position.row).ok()?;
            next_edit += 1;
        }
        if start == end || is_touched(start, end) {
            continue;
        }
        let base_start = start.checked_add_signed(-grown_bytes)?;
        let found = base_children.partition_point(|node| node.start_byte() < base_start);
        let Some(twin) = base_children
            .get(found)
            .filter(|node| node.start_byte() == base_start)
        else {
            continue;
        };
        let row = i64::try_from(item.start_position().row).ok()?;
        let twin_row = i64::try_from(twin.start_position().row).ok()?;
        let alike = twin.kind_id() == item.kind_id()
            && twin.end_byte() - twin.start_byte() == end - start
            && twin.descendant_count() == item.descendant_count()
            && twin.start_position().column == item.start_position().column
            && twin_row == row - grown_rows
            && base_text.get(twin.byte_range()) == head_text.get(start..end);
        if alike {
            let shift = Shift {
                bytes: grown_bytes,
                rows: grown_rows,
            };
            same_as.insert(found, (index, shift));
        }
    }
    let base_items = base_children
        .into_iter()
        .enumerate()
        .map(|(index, node)| match same_as.get(&index) {
            Some((head, shift)) => BaseItem::Same {
                head: *head,
                shift: *shift,
            },
            None => BaseItem::Changed(node),
        })
        .collect();
    Some(Plan {
        head_items: head_children.iter().map(Node::byte_range).collect(),
        base_items,
    })
}

/// Each member's head matches per head item, to be handed to base item by item.
pub struct ByItem {
    members: usize,
    items: HashMap<usize, Vec<Vec<QueryMatch>>>,
}

impl ByItem {
    /// The matches of head item `item`, per member (taken: each item is one base item's).
    pub fn take(&mut self, item: usize) -> Vec<Vec<QueryMatch>> {
        self.items
            .remove(&item)
            .unwrap_or_else(|| vec![Vec::new(); self.members])
    }
}

/// Sorts head's matches into its items; `None` when one does not lie inside exactly one item
/// (or is empty, so that its item could be either neighbour).
pub fn by_item(items: &[Range<usize>], found: &[std::rc::Rc<Vec<QueryMatch>>]) -> Option<ByItem> {
    let mut out = ByItem {
        members: found.len(),
        items: HashMap::new(),
    };
    for (member, matches) in found.iter().enumerate() {
        for found in matches.iter() {
            let range = &found.byte_range;
            if range.start >= range.end {
                return None;
            }
            let index = items
                .partition_point(|item| item.start <= range.start)
                .checked_sub(1)?;
            let item = items.get(index)?;
            if range.end > item.end {
                return None;
            }
            out.items
                .entry(index)
                .or_insert_with(|| vec![Vec::new(); out.members])[member]
                .push(found.clone());
        }
    }
    Some(out)
}
