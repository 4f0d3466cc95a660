//! Best-effort line numbers for TOML and JSON manifests. The serde parsers used for those
//! formats give no spans, so the extractors search the head text instead: first for a line
//! that opens the right section (the anchor), then for the first line at or after it that holds
//! the key as a whole token. A miss falls back to a search of the whole text, then to 0.

/// Characters that continue a package name or key; a match must not touch one on either side.
/// `.` is deliberately absent so that `[dependencies.serde]` still matches `dependencies`.
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Byte offset of the first occurrence of `needle` in `line` as a whole token.
pub(crate) fn token_pos(line: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    let mut from = 0;
    while let Some(rel) = line.get(from..).and_then(|rest| rest.find(needle)) {
        let at = from + rel;
        let end = at + needle.len();
        let before_ok = line[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !is_name_char(c));
        let after_ok = line[end..].chars().next().is_none_or(|c| !is_name_char(c));
        // A needle that itself starts or ends with a name character must be bounded there; one
        // that starts with a quote (JSON keys) is bounded by construction.
        if before_ok && after_ok {
            return Some(at);
        }
        from = at + needle.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// 1-based line of the first token `needle` at or after the first line for which `anchor`
/// returns a byte offset (the search on the anchor line starts at that offset). Falls back
/// to the first token anywhere, then 0.
pub(crate) fn find_after(text: &str, anchor: &dyn Fn(&str) -> Option<usize>, needle: &str) -> u32 {
    let mut in_scope = false;
    for (i, line) in text.lines().enumerate() {
        let start = if in_scope {
            Some(0)
        } else {
            let a = anchor(line);
            if a.is_some() {
                in_scope = true;
            }
            a
        };
        if let Some(start) = start
            && line
                .get(start..)
                .and_then(|rest| token_pos(rest, needle))
                .is_some()
        {
            return line_no(i);
        }
    }
    find_anywhere(text, needle)
}

/// 1-based line of the first whole-token occurrence of `needle`, or 0.
pub(crate) fn find_anywhere(text: &str, needle: &str) -> u32 {
    text.lines()
        .position(|l| token_pos(l, needle).is_some())
        .map_or(0, line_no)
}

fn line_no(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// Anchor for a TOML table: a header line (`[...]`/`[[...]]`) containing every part of
/// `parts` as tokens, or a dotted-key line starting with the first part.
pub(crate) fn toml_anchor(parts: &[&str]) -> impl Fn(&str) -> Option<usize> {
    let parts: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
    move |line: &str| {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        if t.starts_with('[') {
            let close = t.find(']').unwrap_or(t.len());
            let header = &t[..close];
            if parts.iter().all(|p| token_pos(header, p).is_some()) {
                // Search the header itself too: `[dependencies.serde]` names the key there.
                return Some(indent + 1);
            }
            return None;
        }
        let first = parts.first()?;
        if t.starts_with(first.as_str()) && token_pos(t, first) == Some(0) {
            return Some(indent + first.len());
        }
        None
    }
}

/// Anchor for a JSON object key: the line containing `"key"` followed by a colon.
pub(crate) fn json_anchor(key: &str) -> impl Fn(&str) -> Option<usize> {
    let quoted = format!("\"{key}\"");
    move |line: &str| {
        let at = line.find(&quoted)?;
        let after = at + quoted.len();
        line[after..].trim_start().starts_with(':').then_some(after)
    }
}

/// Line of a TOML key (bare or quoted) or array string inside table `parts`.
pub(crate) fn toml_key_line(text: &str, parts: &[&str], key: &str) -> u32 {
    let anchor = toml_anchor(parts);
    let quoted = format!("\"{key}\"");
    let n = find_after(text, &anchor, key);
    if n != 0 {
        return n;
    }
    find_after(text, &anchor, &quoted)
}

/// Line of a JSON key `"key"` inside the object `section`.
pub(crate) fn json_key_line(text: &str, section: &str, key: &str) -> u32 {
    let anchor = json_anchor(section);
    find_after(text, &anchor, &format!("\"{key}\""))
}
