//! Shell loops over a literal list (`for pkg in core cli web; do npm test; done`) in CI steps,
//! scripts and Makefiles: an item dropped from a loop whose body runs a check is one package,
//! crate or artifact no longer checked, in a line that still looks like "test everything".

use super::workflows::runs_check;
use super::{Output, push, scripts};
use crate::finding::{Severity, Side};
use crate::rules::FileContext;
use crate::rules::markers::shorten;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Lines a loop body is looked for in, after its header.
const MAX_BODY_LINES: usize = 200;

/// Loops in a changed script or workflow that check fewer items than before.
pub fn check(context: &FileContext<'_>, out: &mut Output) {
    if !scripts::is_script_file(context.pair.path()) {
        return;
    }
    let (Some(base), Some(head)) = (context.side(Side::Base), context.side(Side::Head)) else {
        return;
    };
    if !head.text.contains("for ") {
        return;
    }
    let after = loops(head.text);
    for (gone, new) in dropped(base.text, &after) {
        if !context.is_added_line(new.line) {
            continue;
        }
        push(
            out,
            Side::Head,
            new.line,
            Severity::Error,
            format!(
                "the change drops `{}` from the loop over `{}` that runs `{}`: {} no longer checked",
                gone.join("`, `"),
                new.var,
                shorten(&new.body, 60),
                if gone.len() == 1 { "it is" } else { "they are" }
            ),
            format!("loop:{}:{}", new.var, gone.join(",")),
        );
    }
}

/// One `for VAR in ITEMS; do BODY; done`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loop {
    pub var: String,
    pub items: Vec<String>,
    /// The body, whitespace collapsed.
    pub body: String,
    /// 1-based line of the header.
    pub line: u32,
}

fn header() -> Option<&'static Regex> {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    PATTERN
        .get_or_init(|| {
            Regex::new(
                r"(?:^|[\s;&|(])for\s+([A-Za-z_]\w*)\s+in\s+([^;]*?)\s*(?:;\s*do\b(.*)|;?\s*$)",
            )
            .ok()
        })
        .as_ref()
}

/// The loops over literal items in a text (items with `$`, backticks or command substitution
/// are computed: such loops are left alone).
pub fn loops(text: &str) -> Vec<Loop> {
    let Some(pattern) = header() else {
        return Vec::new();
    };
    // Makefile and shell continuations: the loop is one logical line.
    let mut logical: Vec<(u32, String)> = Vec::new();
    let mut pending: Option<(u32, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let (start, mut joined) = pending.take().unwrap_or((number, String::new()));
        match line.trim_end().strip_suffix('\\') {
            Some(stripped) => {
                joined.push_str(stripped);
                joined.push(' ');
                pending = Some((start, joined));
            }
            None => {
                joined.push_str(line);
                logical.push((start, joined));
            }
        }
    }
    if let Some(last) = pending {
        logical.push(last);
    }
    let mut found = Vec::new();
    for (index, (line, text)) in logical.iter().enumerate() {
        if !text.contains("for ") {
            continue;
        }
        let Some(captures) = pattern.captures(text) else {
            continue;
        };
        let var = captures[1].to_string();
        let items_text = &captures[2];
        if items_text.contains(['$', '`', '(']) || items_text.trim().is_empty() {
            continue;
        }
        let items: Vec<String> = items_text
            .split_whitespace()
            .map(|item| item.trim_matches(['"', '\'']).to_string())
            .collect();
        let body = match captures.get(3) {
            Some(rest) if !rest.as_str().trim().is_empty() => rest.as_str().to_string(),
            _ => logical
                .iter()
                .skip(index + 1)
                .take(MAX_BODY_LINES)
                .map(|(_, text)| text.trim())
                .take_while(|text| !text.starts_with("done"))
                .collect::<Vec<_>>()
                .join("\n"),
        };
        let body = body.trim_start();
        let body = body
            .strip_prefix("do")
            .filter(|rest| rest.starts_with(char::is_whitespace))
            .unwrap_or(body);
        let body = body
            .split("done")
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        found.push(Loop {
            var,
            items,
            body,
            line: *line,
        });
    }
    found
}

/// A head loop that checks fewer items than its base version: the items dropped and the loop.
pub fn dropped<'h>(base: &str, head: &'h [Loop]) -> Vec<(Vec<String>, &'h Loop)> {
    let before = loops(base);
    let mut found = Vec::new();
    for old in before.iter().filter(|old| runs_check(&old.body)) {
        let same_body = head
            .iter()
            .find(|new| new.var == old.var && new.body == old.body);
        let same_var = || {
            let mut candidates = head.iter().filter(|new| new.var == old.var);
            let first = candidates.next();
            first.filter(|_| candidates.next().is_none())
        };
        let Some(new) = same_body.or_else(same_var) else {
            continue;
        };
        // A renamed item keeps the count; only a shorter list drops what it checked.
        if new.items.len() >= old.items.len() {
            continue;
        }
        let kept: BTreeSet<&String> = new.items.iter().collect();
        let gone: Vec<String> = old
            .items
            .iter()
            .filter(|item| !kept.contains(item))
            .cloned()
            .collect();
        if !gone.is_empty() {
            found.push((gone, new));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_loops_on_one_or_several_lines() {
        let text = "for pkg in core cli web; do\n  (cd packages/$pkg && npm test)\ndone\n\
                    run: for w in dist/a.whl dist/b.whl; do twine check $w; done\n\
                    \tfor d in $(ls); do make -C $$d test; done\n\
                    \tfor crate in a \\\n\t  b; do \\\n\t  cargo test -p $$crate; \\\n\tdone\n";
        let found = loops(text);
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[0].items, ["core", "cli", "web"]);
        assert_eq!(found[0].body, "(cd packages/$pkg && npm test)");
        assert_eq!(found[1].items, ["dist/a.whl", "dist/b.whl"]);
        assert_eq!(found[1].body, "twine check $w;");
        assert_eq!(found[2].items, ["a", "b"]);
        assert_eq!(found[2].line, 6);
    }

    #[test]
    fn dropped_items_of_checking_loops() {
        let base = "for pkg in core cli web; do npm test; done\nfor t in a b; do echo $t; done\n";
        let head = loops("for pkg in core web; do npm test; done\nfor t in a; do echo $t; done\n");
        let found = dropped(base, &head);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, ["cli"]);
        let head = loops("for pkg in core cli2 web; do npm test; done\n");
        assert!(dropped(base, &head).is_empty());
    }
}
