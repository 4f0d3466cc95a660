//! Parsing configuration files into comparable values: JSON (and JSONC, as tsconfig allows),
//! YAML, TOML, INI (a small hand parser), and the literal parts of JavaScript config modules
//! (with tree-sitter). A file that does not parse yields `None`: the rule then stays silent on
//! it rather than guessing.

use crate::lang::{self, Language};
use serde_json::Value;

/// Parses JSON, accepting comments and trailing commas (tsconfig, `.eslintrc`, biome).
pub fn jsonc(text: &str) -> Option<Value> {
    crate::text::parse_json(text)
        .ok()
        .or_else(|| crate::text::parse_json(&strip_jsonc(text)).ok())
}

/// Removes `//` and `/* */` comments outside strings, and commas before `}` or `]`.
fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.peek() == Some(&'/') => {
                for next in chars.by_ref() {
                    if next == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut previous = ' ';
                for next in chars.by_ref() {
                    if next == '\n' {
                        out.push('\n');
                    }
                    if previous == '*' && next == '/' {
                        break;
                    }
                    previous = next;
                }
            }
            _ => out.push(c),
        }
    }
    // Trailing commas: a comma followed only by whitespace before `}` or `]`.
    let mut cleaned = String::with_capacity(out.len());
    let bytes: Vec<char> = out.chars().collect();
    let mut in_string = false;
    let mut index = 0;
    while index < bytes.len() {
        let c = bytes[index];
        if in_string {
            cleaned.push(c);
            if c == '\\' && index + 1 < bytes.len() {
                cleaned.push(bytes[index + 1]);
                index += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            cleaned.push(c);
        } else if c == ',' {
            let next = bytes[index + 1..].iter().find(|c| !c.is_whitespace());
            if !matches!(next, Some('}') | Some(']')) {
                cleaned.push(c);
            }
        } else {
            cleaned.push(c);
        }
        index += 1;
    }
    cleaned
}

/// Parses YAML into a JSON value.
pub fn yaml(text: &str) -> Option<Value> {
    serde_saphyr::from_str(text).ok()
}

/// Parses TOML into a JSON value.
pub fn toml(text: &str) -> Option<Value> {
    let value: toml::Value = toml::from_str(text).ok()?;
    serde_json::to_value(value).ok()
}

/// One `key = value` of an INI file, with continuation lines joined by newlines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IniEntry {
    /// Section name without brackets.
    pub section: String,
    /// Key, lower-cased.
    pub key: String,
    /// Value, continuation lines joined with `\n`.
    pub value: String,
}

/// A small INI reader for setup.cfg, tox.ini, pytest.ini, mypy.ini and .flake8: sections,
/// `key = value` or `key: value`, indented continuation lines, `#`/`;` comment lines.
pub fn ini(text: &str) -> Vec<IniEntry> {
    let mut entries: Vec<IniEntry> = Vec::new();
    let mut section = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        if line.starts_with(char::is_whitespace) {
            if let Some(last) = entries.last_mut()
                && last.section == section
            {
                if !last.value.is_empty() {
                    last.value.push('\n');
                }
                last.value.push_str(trimmed);
            }
            continue;
        }
        if let Some(name) = trimmed
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
        {
            section = name.trim().to_string();
            continue;
        }
        let split = trimmed.find(['=', ':']);
        if let Some(at) = split {
            entries.push(IniEntry {
                section: section.clone(),
                key: trimmed[..at].trim().to_lowercase(),
                value: trimmed[at + 1..].trim().to_string(),
            });
        }
    }
    entries
}

/// A literal found in a JavaScript config module: the path of enclosing object keys
/// (`test.exclude`) and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsSetting {
    /// Enclosing property keys, outermost first, joined by `.`.
    pub path: String,
    /// String elements of an array value, or the single string/number/boolean as text.
    pub values: Vec<String>,
    /// The raw value text (for levels such as `"off"`, `0`, `["error", {...}]`).
    pub raw: String,
    /// Whether the value is a literal, or an array of literals only: no variable, call, spread
    /// or interpolated template (a computed value cannot be read without running the module).
    pub literal: bool,
}

/// Every `key: value` pair in a JavaScript/TypeScript module, with its key path. Spreads and
/// computed values are kept as raw text; only literals are listed in `values`.
pub fn js_settings(text: &str, language: Language) -> Vec<JsSetting> {
    let Ok(parsed) = lang::parse(language, text.to_string()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cursor = parsed.tree.walk();
    let source = parsed.text.as_str();
    // The keys of the enclosing pairs, with the cursor depth of each pair: kept as the walk goes
    // (climbing with `Node::parent` from every pair was O(pairs · depth²) on nested objects).
    let mut enclosing: Vec<(u32, String)> = Vec::new();
    'walk: loop {
        let node = cursor.node();
        let depth = cursor.depth();
        while enclosing.last().is_some_and(|(at, _)| *at >= depth) {
            enclosing.pop();
        }
        // No configuration nests its settings this deep; a hostile one would otherwise cost
        // O(pairs · depth) in key paths and raw value copies.
        let too_deep = enclosing.len() >= MAX_KEY_DEPTH;
        if node.kind() == "pair"
            && !too_deep
            && let (Some(key), Some(value)) = (
                node.child_by_field_name("key"),
                node.child_by_field_name("value"),
            )
        {
            enclosing.push((depth, key_text(key, source)));
            let path: Vec<&str> = enclosing.iter().map(|(_, key)| key.as_str()).collect();
            let raw = source
                .get(value.byte_range())
                .unwrap_or_default()
                .to_string();
            let mut values = Vec::new();
            let mut all_literal = true;
            if value.kind() == "array" {
                let mut inner = value.walk();
                for element in value.named_children(&mut inner) {
                    if element.kind() == "comment" {
                        continue;
                    }
                    match literal(element, source) {
                        Some(literal) => values.push(literal),
                        None => all_literal = false,
                    }
                }
            } else if let Some(literal) = literal(value, source) {
                values.push(literal);
            } else {
                all_literal = false;
            }
            out.push(JsSetting {
                path: path.join("."),
                values,
                raw,
                literal: all_literal,
            });
        }
        if !too_deep && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    out
}

/// Deepest key path [`js_settings`] lists.
const MAX_KEY_DEPTH: usize = 64;

fn key_text(key: tree_sitter::Node<'_>, source: &str) -> String {
    let text = source.get(key.byte_range()).unwrap_or_default();
    text.trim_matches(|c| c == '"' || c == '\'' || c == '`' || c == '[' || c == ']')
        .to_string()
}

fn literal(node: tree_sitter::Node<'_>, source: &str) -> Option<String> {
    let text = source.get(node.byte_range())?;
    match node.kind() {
        "template_string"
            if node
                .named_children(&mut node.walk())
                .any(|child| child.kind() == "template_substitution") =>
        {
            None
        }
        "string" | "template_string" => Some(unescape_js(
            text.get(1..text.len().saturating_sub(1))
                .unwrap_or_default(),
        )),
        "regex" | "number" | "true" | "false" => Some(text.to_string()),
        _ => None,
    }
}

/// The value of a JavaScript string literal's body: `\\.` is `\.`, `\'` is `'`.
pub fn unescape_js(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\n') | None => {}
            Some(other) => out.push(other),
        }
    }
    out
}

/// Splits a command line into words, honouring single and double quotes.
pub fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut has_word = false;
    for c in text.chars() {
        match quote {
            Some(open) if c == open => quote = None,
            Some(_) => current.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                has_word = true;
            }
            None if c.is_whitespace() => {
                if has_word || !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                    has_word = false;
                }
            }
            None => current.push(c),
        }
    }
    if has_word || !current.is_empty() {
        words.push(current);
    }
    words
}

/// A JSON value as a list of strings: an array's string elements, or a string split on
/// whitespace (INI-style lists) when `split` is set.
pub fn string_list(value: Option<&Value>, split: bool) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| item.as_str().map(str::to_string))
            .collect(),
        Some(Value::String(text)) if split => text.split_whitespace().map(str::to_string).collect(),
        Some(Value::String(text)) => vec![text.clone()],
        _ => Vec::new(),
    }
}

/// The value at a dotted path of object keys.
pub fn at<'v>(value: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter()
        .try_fold(value, |current, key| current.get(*key))
}

/// Whether a YAML/JSON value is literally true (`true`, `"true"`).
pub fn is_true(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(text)) => text.trim().eq_ignore_ascii_case("true"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_accepts_comments_and_trailing_commas() {
        let value =
            jsonc("{\n  // comment\n  \"a\": \"http://x\", /* b */\n  \"list\": [1, 2,],\n}\n")
                .unwrap();
        assert_eq!(value["a"], "http://x");
        assert_eq!(value["list"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn ini_joins_continuation_lines() {
        let entries = ini("[pytest]\naddopts =\n    -q\n    --ignore=x\n[mypy]\nstrict: true\n");
        assert_eq!(entries[0].value, "-q\n--ignore=x");
        assert_eq!(entries[1].section, "mypy");
        assert_eq!(entries[1].value, "true");
    }

    #[test]
    fn shell_words_keep_quoted_text() {
        assert_eq!(
            shell_words(r#"-k "not slow and not db" --ignore=a"#),
            ["-k", "not slow and not db", "--ignore=a"]
        );
    }

    #[test]
    fn js_settings_have_key_paths() {
        let settings = js_settings(
            "export default defineConfig({ test: { exclude: ['a/**', \"b\"] } })",
            Language::JavaScript,
        );
        let exclude = settings
            .iter()
            .find(|setting| setting.path == "test.exclude")
            .unwrap();
        assert_eq!(exclude.values, ["a/**", "b"]);
        assert!(exclude.literal);
    }

    #[test]
    fn js_settings_unescape_strings_and_mark_computed_values() {
        let settings = js_settings(
            "module.exports = { testRegex: '\\\\.check\\\\.js$', testMatch: [...base, 'a'], roots: [`${dir}/src`], x: `plain` }",
            Language::JavaScript,
        );
        let get = |path: &str| {
            settings
                .iter()
                .find(|setting| setting.path == path)
                .unwrap()
        };
        assert_eq!(get("testRegex").values, ["\\.check\\.js$"]);
        assert!(get("testRegex").literal);
        assert!(!get("testMatch").literal);
        assert_eq!(get("testMatch").values, ["a"]);
        assert!(!get("roots").literal);
        assert_eq!(get("x").values, ["plain"]);
    }
}
