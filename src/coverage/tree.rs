//! A small, format-neutral document tree with 1-based line numbers.
//!
//! Every coverage configuration format (YAML, TOML, JSON, INI, JS/TS object
//! literals) is read into [`Node`] first, so that the per-tool extractors in
//! `sources` never care which syntax a project chose. The parsers here never
//! panic: depth is bounded and any failure is a `String` error. JS values the
//! gate cannot evaluate become [`Val::Expr`] with their source text, which is
//! how "no longer a literal" is detected later.

use std::borrow::Cow;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// Deeper structures are cut off: configuration never nests this deep, and the
/// limit keeps recursion on hostile input bounded.
const MAX_DEPTH: usize = 64;
/// Hostile files can be huge; nothing legitimate is larger than this.
const MAX_TEXT: usize = 4 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Val {
    Map(Vec<(String, Node)>),
    Seq(Vec<Node>),
    Num(f64),
    Bool(bool),
    Str(String),
    Null,
    /// Source text of a JS/TS expression that is not a literal.
    Expr(String),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub val: Val,
    pub line: u32,
}

impl Node {
    pub(crate) fn new(val: Val, line: u32) -> Self {
        Node { val, line }
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        match &self.val {
            Val::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Follows a dotted path of map keys.
    pub(crate) fn path(&self, keys: &[&str]) -> Option<&Node> {
        keys.iter().try_fold(self, |node, key| node.get(key))
    }

    pub(crate) fn entries(&self) -> &[(String, Node)] {
        match &self.val {
            Val::Map(entries) => entries,
            _ => &[],
        }
    }
}

fn check_size(text: &str) -> Result<(), String> {
    if text.len() > MAX_TEXT {
        return Err(format!("file too large to analyse ({} bytes)", text.len()));
    }
    Ok(())
}

/// 1-based line of a byte offset.
pub(crate) fn line_of_offset(text: &str, offset: usize) -> u32 {
    let end = offset.min(text.len());
    let newlines = text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    u32::try_from(newlines + 1).unwrap_or(u32::MAX)
}

// ---------------------------------------------------------------- YAML

/// Wrapper so serde-saphyr can hand us a tree whose values carry spans.
struct YNode(Val);

/// YAML keys may be numbers or booleans (`100: true` in c8 configs).
struct YKey(String);

impl<'de> Deserialize<'de> for YKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KV;
        impl<'de> Visitor<'de> for KV {
            type Value = YKey;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a scalar mapping key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<YKey, E> {
                Ok(YKey(v.to_string()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<YKey, E> {
                Ok(YKey(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<YKey, E> {
                Ok(YKey(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<YKey, E> {
                Ok(YKey(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<YKey, E> {
                Ok(YKey(v.to_string()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<YKey, E> {
                Ok(YKey(String::new()))
            }
            fn visit_none<E: de::Error>(self) -> Result<YKey, E> {
                Ok(YKey(String::new()))
            }
        }
        d.deserialize_any(KV)
    }
}

impl<'de> Deserialize<'de> for YNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct NV;
        impl<'de> Visitor<'de> for NV {
            type Value = YNode;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any YAML value")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<YNode, E> {
                Ok(YNode(Val::Bool(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<YNode, E> {
                Ok(YNode(Val::Num(v as f64)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<YNode, E> {
                Ok(YNode(Val::Num(v as f64)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<YNode, E> {
                Ok(YNode(Val::Num(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<YNode, E> {
                Ok(YNode(Val::Str(v.to_string())))
            }
            fn visit_unit<E: de::Error>(self) -> Result<YNode, E> {
                Ok(YNode(Val::Null))
            }
            fn visit_none<E: de::Error>(self) -> Result<YNode, E> {
                Ok(YNode(Val::Null))
            }
            fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<YNode, D2::Error> {
                YNode::deserialize(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<YNode, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<serde_saphyr::Spanned<YNode>>()? {
                    items.push(Node::new(item.value.0, yline(&item.referenced)));
                }
                Ok(YNode(Val::Seq(items)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<YNode, A::Error> {
                let mut entries = Vec::new();
                while let Some(key) = map.next_key::<YKey>()? {
                    let value: serde_saphyr::Spanned<YNode> = map.next_value()?;
                    entries.push((key.0, Node::new(value.value.0, yline(&value.referenced))));
                }
                Ok(YNode(Val::Map(entries)))
            }
        }
        d.deserialize_any(NV)
    }
}

/// YAML 1.2 booleans only: GitHub Actions reads `on:` and `n:` as strings,
/// and tools that accept `yes`/`off` get them interpreted per tool in `sources`.
fn yaml_options() -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    options.strict_booleans = true;
    options
}

/// Parses a YAML document. An empty document is an empty map.
pub(crate) fn parse_yaml(text: &str) -> Result<Node, String> {
    check_size(text)?;
    if text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#') || l.trim() == "---")
    {
        return Ok(Node::new(Val::Map(Vec::new()), 1));
    }
    let parsed: serde_saphyr::Spanned<YNode> =
        serde_saphyr::from_str_with_options(text, yaml_options())
            .map_err(|e| first_line(&e.to_string()))?;
    Ok(Node::new(parsed.value.0, yline(&parsed.referenced).max(1)))
}

fn yline(loc: &serde_saphyr::Location) -> u32 {
    u32::try_from(loc.line()).unwrap_or(u32::MAX)
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").trim().to_string()
}

// ---------------------------------------------------------------- TOML

pub(crate) fn parse_toml(text: &str) -> Result<Node, String> {
    check_size(text)?;
    let table = toml::de::DeTable::parse(text)
        .map_err(|e| first_line(&e.to_string()).replace('\n', " "))?;
    let mut entries = Vec::new();
    for (k, v) in table.get_ref().iter() {
        let line = line_of_offset(text, k.span().start);
        entries.push((
            k.get_ref().to_string(),
            toml_node(text, v.get_ref(), line, 0),
        ));
    }
    Ok(Node::new(Val::Map(entries), 1))
}

fn toml_node(text: &str, v: &toml::de::DeValue<'_>, line: u32, depth: usize) -> Node {
    use toml::de::DeValue;
    if depth > MAX_DEPTH {
        return Node::new(Val::Null, line);
    }
    let val = match v {
        DeValue::String(s) => Val::Str(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(&i.as_str().replace('_', ""), i.radix()) {
            Ok(n) => Val::Num(n as f64),
            Err(_) => Val::Str(i.as_str().to_string()),
        },
        DeValue::Float(f) => match f.as_str().replace('_', "").parse::<f64>() {
            Ok(n) => Val::Num(n),
            Err(_) => Val::Str(f.as_str().to_string()),
        },
        DeValue::Boolean(b) => Val::Bool(*b),
        DeValue::Datetime(d) => Val::Str(d.to_string()),
        DeValue::Array(items) => Val::Seq(
            items
                .iter()
                .map(|item| {
                    let l = line_of_offset(text, item.span().start);
                    toml_node(text, item.get_ref(), l, depth + 1)
                })
                .collect(),
        ),
        DeValue::Table(t) => Val::Map(
            t.iter()
                .map(|(k, item)| {
                    let l = line_of_offset(text, k.span().start);
                    (
                        k.get_ref().to_string(),
                        toml_node(text, item.get_ref(), l, depth + 1),
                    )
                })
                .collect(),
        ),
    };
    Node::new(val, line)
}

// ---------------------------------------------------------------- INI

/// One `key = value` entry; continuation lines are kept separately so list
/// entries keep their own line numbers.
#[derive(Debug, Clone)]
pub(crate) struct IniEntry {
    pub key: String,
    pub line: u32,
    /// (line, text) for the first-line value (if non-empty) and each continuation.
    pub values: Vec<(u32, String)>,
}

impl IniEntry {
    pub(crate) fn joined(&self) -> String {
        self.values
            .iter()
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[derive(Debug, Clone)]
pub(crate) struct IniSection {
    pub name: String,
    pub entries: Vec<IniEntry>,
}

/// A configparser-compatible reader (the dialect coverage.py, pytest and tox use):
/// `#`/`;` comment lines, `=` or `:` separators, indented continuation lines,
/// keys case-folded.
pub(crate) fn parse_ini(text: &str) -> Result<Vec<IniSection>, String> {
    check_size(text)?;
    let mut sections: Vec<IniSection> = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line_no = u32::try_from(idx + 1).unwrap_or(u32::MAX);
        let trimmed = raw.trim();
        if trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let indented = raw.starts_with(' ') || raw.starts_with('\t');
        if indented && let Some(entry) = sections.last_mut().and_then(|s| s.entries.last_mut()) {
            entry.values.push((line_no, trimmed.to_string()));
            continue;
        }
        if trimmed.starts_with('[') {
            let Some(end) = trimmed.find(']') else {
                return Err(format!("line {line_no}: unterminated section header"));
            };
            sections.push(IniSection {
                name: trimmed[1..end].trim().to_string(),
                entries: Vec::new(),
            });
            continue;
        }
        let Some(section) = sections.last_mut() else {
            return Err(format!(
                "line {line_no}: text before the first [section] header"
            ));
        };
        let sep = match (trimmed.find('='), trimmed.find(':')) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => {
                return Err(format!("line {line_no}: expected `key = value`"));
            }
        };
        let key = trimmed[..sep].trim().to_lowercase();
        let value = trimmed[sep + 1..].trim();
        let mut values = Vec::new();
        if !value.is_empty() {
            values.push((line_no, value.to_string()));
        }
        section.entries.push(IniEntry {
            key,
            line: line_no,
            values,
        });
    }
    Ok(sections)
}

// ---------------------------------------------------------------- JS / TS / JSON

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsDialect {
    JavaScript,
    TypeScript,
}

/// A parsed JS/TS file with the conversion helpers the extractors need.
pub(crate) struct JsDoc<'t> {
    text: &'t str,
    tree: tree_sitter::Tree,
    /// Top-level `const NAME = <expr>` declarations as (name, value byte range),
    /// for resolving identifiers such as `coverageThreshold: thresholds`.
    decls: Vec<(String, usize, usize)>,
}

fn js_language(dialect: JsDialect) -> tree_sitter::Language {
    match dialect {
        JsDialect::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        JsDialect::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
    }
}

/// Parses JS/TS source. A tree with syntax errors is an error: tree-sitter would
/// recover, but a config file the tool itself cannot load is worth reporting.
pub(crate) fn parse_js(text: &str, dialect: JsDialect) -> Result<JsDoc<'_>, String> {
    check_size(text)?;
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&js_language(dialect))
        .map_err(|e| format!("cannot load grammar: {e}"))?;
    let tree = parser
        .parse(text, None)
        .ok_or_else(|| "parser gave up".to_string())?;
    let root = tree.root_node();
    if root.has_error() {
        let line = first_error_line(root, 0).unwrap_or(1);
        return Err(format!("syntax error near line {line}"));
    }
    let decls = collect_decls(text, root);
    Ok(JsDoc { text, tree, decls })
}

/// Parses JSON strictly with serde_json (the proper parser decides validity),
/// then reads it through the JS grammar to get line numbers.
pub(crate) fn parse_json(text: &str) -> Result<Node, String> {
    check_size(text)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    crate::text::parse_json(text).map_err(|e| e.to_string())?;
    // `(` keeps an object from being read as a block; no newline is added in
    // front, so line numbers stay those of the file.
    let wrapped = format!("({text}\n)");
    let doc = parse_js(&wrapped, JsDialect::JavaScript)?;
    let root = doc.root();
    let expr = root
        .named_child(0)
        .and_then(|stmt| stmt.named_child(0))
        .ok_or_else(|| "empty JSON document".to_string())?;
    Ok(doc.convert(expr, 0))
}

fn first_error_line(node: tree_sitter::Node<'_>, depth: usize) -> Option<u32> {
    if node.is_error() || node.is_missing() {
        return Some(row(node));
    }
    if depth > MAX_DEPTH * 4 {
        return Some(row(node));
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.has_error() || child.is_missing() {
            return first_error_line(child, depth + 1).or(Some(row(child)));
        }
    }
    None
}

fn row(node: tree_sitter::Node<'_>) -> u32 {
    u32::try_from(node.start_position().row + 1).unwrap_or(u32::MAX)
}

fn collect_decls(text: &str, root: tree_sitter::Node<'_>) -> Vec<(String, usize, usize)> {
    let mut found = Vec::new();
    let mut cursor = root.walk();
    for stmt in root.named_children(&mut cursor) {
        let decl = if stmt.kind() == "export_statement" {
            stmt.child_by_field_name("declaration")
        } else {
            Some(stmt)
        };
        let Some(decl) = decl else { continue };
        if decl.kind() != "lexical_declaration" && decl.kind() != "variable_declaration" {
            continue;
        }
        let mut c2 = decl.walk();
        for d in decl.named_children(&mut c2) {
            if d.kind() != "variable_declarator" {
                continue;
            }
            if let (Some(name), Some(value)) = (
                d.child_by_field_name("name"),
                d.child_by_field_name("value"),
            ) && name.kind() == "identifier"
            {
                let name = text.get(name.byte_range()).unwrap_or("").to_string();
                found.push((name, value.start_byte(), value.end_byte()));
            }
        }
    }
    found
}

/// Strips wrappers that do not change a value: parentheses, `as`, `satisfies`, `!`.
fn unwrap_expr(mut node: tree_sitter::Node<'_>) -> tree_sitter::Node<'_> {
    for _ in 0..MAX_DEPTH {
        match node.kind() {
            "parenthesized_expression"
            | "satisfies_expression"
            | "as_expression"
            | "non_null_expression"
            | "type_assertion" => match node.named_child(0) {
                Some(inner) => node = inner,
                None => return node,
            },
            _ => return node,
        }
    }
    node
}

/// Expression text shown in messages is capped so a huge expression cannot
/// flood the report.
fn short(text: &str) -> String {
    // Gathered only as far as can matter (the text may be a megabyte-long expression), with
    // room past the cut so redaction sees whole tokens before the message is shortened.
    let mut one_line = String::new();
    for word in text.split_whitespace() {
        if one_line.len() > 4096 {
            break;
        }
        if !one_line.is_empty() {
            one_line.push(' ');
        }
        one_line.push_str(word);
    }
    crate::secrets::shorten_redacted(&one_line, 60, "...")
}

fn js_string(doc_text: &str, node: tree_sitter::Node<'_>) -> String {
    // The grammar splits a string into fragments and escape sequences; an
    // escape keeps its escaped character, which is all config keys need.
    let mut out = String::new();
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        let t = doc_text.get(child.byte_range()).unwrap_or("");
        match child.kind() {
            "escape_sequence" => match t.chars().nth(1) {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(c) => out.push(c),
                None => {}
            },
            _ => out.push_str(t),
        }
    }
    out
}

impl<'t> JsDoc<'t> {
    pub(crate) fn root(&self) -> tree_sitter::Node<'_> {
        self.tree.root_node()
    }

    fn text_of(&self, node: tree_sitter::Node<'_>) -> &'t str {
        self.text.get(node.byte_range()).unwrap_or("")
    }

    fn resolve_ident(&self, name: &str) -> Option<tree_sitter::Node<'_>> {
        let (_, start, end) = self.decls.iter().rev().find(|(n, _, _)| n == name)?;
        self.root()
            .descendant_for_byte_range(*start, *end)
            .map(|n| {
                // descendant_for_byte_range can return an ancestor spanning more; climb
                // down to the exact node when a child matches the range exactly.
                let mut node = n;
                while node.start_byte() == *start && node.end_byte() == *end {
                    match node.parent() {
                        Some(p) if p.start_byte() == *start && p.end_byte() == *end => node = p,
                        _ => break,
                    }
                }
                node
            })
    }

    /// Property key text, or None for computed keys.
    fn key_text(&self, key: tree_sitter::Node<'_>) -> Option<String> {
        match key.kind() {
            "property_identifier" | "identifier" | "number" | "private_property_identifier" => {
                Some(self.text_of(key).to_string())
            }
            "string" => Some(js_string(self.text, key)),
            _ => None,
        }
    }

    /// Converts an expression into a [`Node`], resolving top-level constants.
    pub(crate) fn convert(&self, node: tree_sitter::Node<'_>, depth: usize) -> Node {
        let line = row(node);
        if depth > MAX_DEPTH {
            return Node::new(Val::Expr(short(self.text_of(node))), line);
        }
        let node = unwrap_expr(node);
        let val = match node.kind() {
            "object" => {
                let mut entries = Vec::new();
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    match child.kind() {
                        "pair" => {
                            let key = child.child_by_field_name("key");
                            let value = child.child_by_field_name("value");
                            if let (Some(key), Some(value)) = (key, value) {
                                let name = self
                                    .key_text(key)
                                    .unwrap_or_else(|| format!("[{}]", short(self.text_of(key))));
                                let mut v = self.convert(value, depth + 1);
                                v.line = row(child);
                                entries.push((name, v));
                            }
                        }
                        "shorthand_property_identifier" => {
                            let name = self.text_of(child).to_string();
                            let mut v = self.convert_ident(child, &name, depth + 1);
                            v.line = row(child);
                            entries.push((name, v));
                        }
                        "spread_element" => {
                            let text = short(self.text_of(child));
                            entries.push((text.clone(), Node::new(Val::Expr(text), row(child))));
                        }
                        _ => {}
                    }
                }
                Val::Map(entries)
            }
            "array" => {
                let mut items = Vec::new();
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if child.kind() == "comment" {
                        continue;
                    }
                    items.push(self.convert(child, depth + 1));
                }
                Val::Seq(items)
            }
            "number" => match self.text_of(node).replace('_', "").parse::<f64>() {
                Ok(n) => Val::Num(n),
                Err(_) => Val::Expr(short(self.text_of(node))),
            },
            "unary_expression" => {
                let op = node
                    .child_by_field_name("operator")
                    .map(|o| self.text_of(o));
                let arg = node.child_by_field_name("argument");
                match (op, arg.map(|a| self.convert(a, depth + 1).val)) {
                    (Some("-"), Some(Val::Num(n))) => Val::Num(-n),
                    (Some("+"), Some(Val::Num(n))) => Val::Num(n),
                    (Some("!"), Some(Val::Num(n))) => Val::Bool(n == 0.0),
                    _ => Val::Expr(short(self.text_of(node))),
                }
            }
            "string" => Val::Str(js_string(self.text, node)),
            "template_string" => {
                let mut cursor = node.walk();
                let dynamic = node
                    .named_children(&mut cursor)
                    .any(|c| c.kind() == "template_substitution");
                let raw = self.text_of(node);
                if dynamic || raw.len() < 2 {
                    Val::Expr(short(raw))
                } else {
                    Val::Str(raw[1..raw.len() - 1].to_string())
                }
            }
            "true" => Val::Bool(true),
            "false" => Val::Bool(false),
            "null" | "undefined" => Val::Null,
            "regex" => Val::Str(self.text_of(node).to_string()),
            "identifier" => {
                let name = self.text_of(node).to_string();
                return self.convert_ident(node, &name, depth);
            }
            _ => Val::Expr(short(self.text_of(node))),
        };
        Node::new(val, line)
    }

    fn convert_ident(&self, at: tree_sitter::Node<'_>, name: &str, depth: usize) -> Node {
        if name == "undefined" {
            return Node::new(Val::Null, row(at));
        }
        match self.resolve_ident(name) {
            // A constant declared after use or referring to itself would loop;
            // the depth bound stops that.
            Some(target) if depth < MAX_DEPTH => self.convert(target, depth + 8),
            _ => Node::new(Val::Expr(name.to_string()), row(at)),
        }
    }

    /// Every `pair` in the file whose key is `name`, at any depth, with its value
    /// converted. Looking everywhere (instead of only at `module.exports`)
    /// covers `defineConfig(...)`, factory functions and intermediate constants.
    pub(crate) fn pairs_named(&self, name: &str) -> Vec<Node> {
        let mut out = Vec::new();
        let mut stack = vec![self.root()];
        let mut visited = 0usize;
        while let Some(node) = stack.pop() {
            visited += 1;
            if visited > 1_000_000 {
                break;
            }
            match node.kind() {
                "pair" => {
                    let key = node
                        .child_by_field_name("key")
                        .and_then(|k| self.key_text(k));
                    if key.as_deref() == Some(name)
                        && let Some(value) = node.child_by_field_name("value")
                    {
                        let mut v = self.convert(value, 0);
                        v.line = row(node);
                        out.push((node.start_byte(), v));
                        // Its value is converted already; converting each same-named pair nested
                        // inside it again was quadratic on `{x: {x: {x: ...}}}`.
                        continue;
                    }
                }
                "shorthand_property_identifier" if self.text_of(node) == name => {
                    let mut v = self.convert_ident(node, name, 0);
                    v.line = row(node);
                    out.push((node.start_byte(), v));
                }
                _ => {}
            }
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                stack.push(child);
            }
        }
        out.sort_by_key(|(start, _)| *start);
        out.into_iter().map(|(_, v)| v).collect()
    }

    /// The exported configuration object: `module.exports = X`,
    /// `export default X`, unwrapped through `defineConfig(X)`-style calls and
    /// arrow functions returning an object.
    pub(crate) fn exported(&self) -> Option<Node> {
        let root = self.root();
        let mut cursor = root.walk();
        let mut result = None;
        for stmt in root.named_children(&mut cursor) {
            let expr = match stmt.kind() {
                "export_statement" => stmt.child_by_field_name("value"),
                "expression_statement" => stmt.named_child(0).and_then(|e| {
                    if e.kind() != "assignment_expression" {
                        return None;
                    }
                    let left = e.child_by_field_name("left")?;
                    let lt = self.text_of(left).replace(char::is_whitespace, "");
                    if lt == "module.exports" || lt == "exports.default" {
                        e.child_by_field_name("right")
                    } else {
                        None
                    }
                }),
                _ => None,
            };
            if let Some(expr) = expr {
                result = Some(self.config_value(expr, 0));
            }
        }
        result
    }

    fn config_value(&self, node: tree_sitter::Node<'_>, depth: usize) -> Node {
        let node = unwrap_expr(node);
        if depth > 8 {
            return self.convert(node, 0);
        }
        match node.kind() {
            "call_expression" => {
                // defineConfig({...}) and friends: the first argument is the config.
                let arg = node
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0));
                match arg {
                    Some(arg) => self.config_value(arg, depth + 1),
                    None => self.convert(node, 0),
                }
            }
            "arrow_function" | "function_expression" | "function" => {
                let body = node.child_by_field_name("body");
                match body {
                    Some(b) if b.kind() == "statement_block" => {
                        let mut cursor = b.walk();
                        let ret = b
                            .named_children(&mut cursor)
                            .filter(|s| s.kind() == "return_statement")
                            .last()
                            .and_then(|r| r.named_child(0));
                        match ret {
                            Some(r) => self.config_value(r, depth + 1),
                            None => self.convert(node, 0),
                        }
                    }
                    Some(b) => self.config_value(b, depth + 1),
                    None => self.convert(node, 0),
                }
            }
            "identifier" => match self.resolve_ident(self.text_of(node)) {
                Some(target) => self.config_value(target, depth + 1),
                None => self.convert(node, 0),
            },
            "await_expression" => match node.named_child(0) {
                Some(inner) => self.config_value(inner, depth + 1),
                None => self.convert(node, 0),
            },
            _ => self.convert(node, 0),
        }
    }
}

/// Converts a number-ish node or string into `Cow` text for messages.
pub(crate) fn describe(val: &Val) -> Cow<'static, str> {
    match val {
        Val::Num(n) => Cow::Owned(fmt_num(*n)),
        Val::Bool(b) => Cow::Owned(b.to_string()),
        Val::Str(s) => Cow::Owned(format!("\"{}\"", short(s))),
        Val::Null => Cow::Borrowed("null"),
        Val::Expr(e) => Cow::Owned(format!("`{e}`")),
        Val::Map(_) => Cow::Borrowed("{…}"),
        Val::Seq(_) => Cow::Borrowed("[…]"),
    }
}

/// Integers print without a fractional part, others with what they need.
pub(crate) fn fmt_num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

pub(crate) fn shorten(text: &str) -> String {
    short(text)
}
