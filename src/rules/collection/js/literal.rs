//! The literal value of a runner configuration, as far as it can be read without running it.
//!
//! A JavaScript/TypeScript module is read from what `export default` or `module.exports`
//! holds, through wrapper calls (`defineConfig(..)`, `mergeConfig(a, b)`, `defineWorkspace([..])`:
//! a call stands for the merge of its object arguments, or its one array argument), arrow
//! functions that return an object, top-level `const` bindings and spreads of known objects.
//! Anything else (a member access, an operator, an imported name) is [`Literal::Unknown`]; a
//! spread that cannot be read leaves a `...` key behind. Without an export that reads as an
//! object or array, the outermost object literals of the module are merged instead, as the
//! key-path reader of `disabled-check` sees them. JSON and YAML configurations convert to the
//! same shape. Every walk is bounded (depth and steps).

use crate::lang::{self, Language};
use crate::rules::disabled_check::unescape_js;
use serde_json::Value;
use std::collections::HashMap;
use tree_sitter::Node;

/// A configuration value.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A string (or template without substitutions), number or boolean, as text.
    Text(String),
    /// A regex literal, as written (`/body/flags`).
    Regex(String),
    /// An array literal.
    Array(Vec<Literal>),
    /// Keys in source order; a spread that could not be read is the key `...`.
    Object(Vec<(String, Literal)>),
    /// A computed value: not known without running the module.
    Unknown,
}

/// The key an unreadable spread leaves in an object.
pub const SPREAD: &str = "...";

impl Literal {
    /// The value of `key` in an object (the last one written wins, as in JavaScript).
    pub fn get(&self, key: &str) -> Option<&Literal> {
        match self {
            Literal::Object(pairs) => pairs.iter().rev().find(|(name, _)| name == key),
            _ => None,
        }
        .map(|(_, value)| value)
    }

    /// The value at a path of keys.
    pub fn at(&self, path: &[&str]) -> Option<&Literal> {
        path.iter().try_fold(self, |value, key| value.get(key))
    }

    /// A string, regex or number as text.
    pub fn text(&self) -> Option<&str> {
        match self {
            Literal::Text(text) | Literal::Regex(text) => Some(text),
            _ => None,
        }
    }

    /// A literal list: one text, or an array of texts only. `None` when any part is computed.
    pub fn strings(&self) -> Option<Vec<String>> {
        match self {
            Literal::Array(items) => items
                .iter()
                .map(|item| item.text().map(str::to_string))
                .collect(),
            other => other.text().map(|text| vec![text.to_string()]),
        }
    }

    /// The literal texts of a list, even a partly computed one.
    pub fn known_strings(&self) -> Vec<String> {
        match self {
            Literal::Array(items) => items
                .iter()
                .filter_map(|item| item.text().map(str::to_string))
                .collect(),
            other => other.text().map(str::to_string).into_iter().collect(),
        }
    }

    /// The elements of an array (a single value counts as a list of one).
    pub fn items(&self) -> Vec<&Literal> {
        match self {
            Literal::Array(items) => items.iter().collect(),
            other => vec![other],
        }
    }

    /// Whether this is an object that holds `key`.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// vite's `mergeConfig`: objects merge key by key, arrays concatenate, anything else is
/// replaced by the later value.
pub fn merge(into: Literal, from: Literal) -> Literal {
    match (into, from) {
        (Literal::Object(mut pairs), Literal::Object(more)) => {
            for (key, value) in more {
                match pairs
                    .iter()
                    .rposition(|(name, _)| *name == key && key != SPREAD)
                {
                    Some(index) => {
                        let old = std::mem::replace(&mut pairs[index].1, Literal::Unknown);
                        pairs[index].1 = merge(old, value);
                    }
                    None => pairs.push((key, value)),
                }
            }
            Literal::Object(pairs)
        }
        (Literal::Array(mut items), Literal::Array(more)) => {
            items.extend(more);
            Literal::Array(items)
        }
        (_, from) => from,
    }
}

/// A JSON (or YAML) value.
pub fn from_json(value: &Value) -> Literal {
    match value {
        Value::String(text) => Literal::Text(text.clone()),
        Value::Number(number) => Literal::Text(number.to_string()),
        Value::Bool(flag) => Literal::Text(flag.to_string()),
        Value::Array(items) => Literal::Array(items.iter().map(from_json).collect()),
        Value::Object(map) => Literal::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), from_json(value)))
                .collect(),
        ),
        Value::Null => Literal::Unknown,
    }
}

/// Nesting followed through bindings, calls and functions.
const MAX_DEPTH: usize = 24;
/// Syntax nodes read per module.
const MAX_STEPS: usize = 50_000;

/// The exported value of a JavaScript/TypeScript configuration module.
pub fn module(text: &str, language: Language) -> Literal {
    module_importing(text, language, &|_| None)
}

/// The exported value of a configuration module whose imported names (`import base from
/// './jest.config.mjs'`, `const base = require('./jest.config.js')`) read as `resolve` gives
/// the module they name (`None`: unknown), so `{...base, reporters: [..]}` keeps what `base`
/// says.
pub fn module_importing(
    text: &str,
    language: Language,
    resolve: &dyn Fn(&str) -> Option<Literal>,
) -> Literal {
    let Ok(parsed) = lang::parse(language, text.to_string()) else {
        return Literal::Unknown;
    };
    let root = parsed.tree.root_node();
    let mut reader = Reader {
        source: &parsed.text,
        bindings: HashMap::new(),
        imports: HashMap::new(),
        resolve,
        steps: 0,
    };
    let mut exported = None;
    let mut cursor = root.walk();
    for child in root.named_children(&mut cursor) {
        match child.kind() {
            "lexical_declaration" | "variable_declaration" => reader.bind(child),
            "import_statement" => reader.bind_import(child),
            "export_statement" => {
                if let Some(value) = child.child_by_field_name("value") {
                    exported = Some(value);
                } else if let Some(declaration) = child.child_by_field_name("declaration") {
                    reader.bind(declaration);
                }
            }
            "expression_statement" => {
                if let Some(value) = module_exports(child, reader.source) {
                    exported = Some(value);
                }
            }
            _ => {}
        }
    }
    if let Some(node) = exported {
        let value = reader.value(node, 0);
        if matches!(value, Literal::Object(_) | Literal::Array(_)) {
            return value;
        }
    }
    reader.outermost_objects(root)
}

/// `module.exports = X` or `exports.default = X`: X.
fn module_exports<'t>(statement: Node<'t>, source: &str) -> Option<Node<'t>> {
    let assignment = statement.named_child(0)?;
    if assignment.kind() != "assignment_expression" {
        return None;
    }
    let left = source.get(assignment.child_by_field_name("left")?.byte_range())?;
    matches!(
        left,
        "module.exports" | "exports.default" | "module.exports.default"
    )
    .then(|| assignment.child_by_field_name("right"))
    .flatten()
}

struct Reader<'t, 'r> {
    source: &'t str,
    bindings: HashMap<String, Node<'t>>,
    /// Default imports and `require` bindings: local name → module specifier.
    imports: HashMap<String, String>,
    resolve: &'r dyn Fn(&str) -> Option<Literal>,
    steps: usize,
}

impl<'t> Reader<'t, '_> {
    /// Records `import name from 'specifier'` (the default import only).
    fn bind_import(&mut self, statement: Node<'t>) {
        let Some(source) = statement.child_by_field_name("source") else {
            return;
        };
        let specifier = self.source.get(source.byte_range()).unwrap_or_default();
        let specifier = specifier.trim_matches(|c| c == '"' || c == '\'' || c == '`');
        let mut cursor = statement.walk();
        for clause in statement.named_children(&mut cursor) {
            if clause.kind() != "import_clause" {
                continue;
            }
            let mut inner = clause.walk();
            for name in clause.named_children(&mut inner) {
                if name.kind() == "identifier"
                    && let Some(name) = self.source.get(name.byte_range())
                {
                    self.imports.insert(name.to_string(), specifier.to_string());
                }
            }
        }
    }

    /// `require('specifier')`: the specifier.
    fn required(&self, value: Node<'t>) -> Option<String> {
        if value.kind() != "call_expression" {
            return None;
        }
        let function = value.child_by_field_name("function")?;
        if self.source.get(function.byte_range())? != "require" {
            return None;
        }
        let argument = value.child_by_field_name("arguments")?.named_child(0)?;
        (argument.kind() == "string").then(|| {
            let text = self.source.get(argument.byte_range()).unwrap_or_default();
            text.trim_matches(|c| c == '"' || c == '\'').to_string()
        })
    }

    /// Records `const name = value` bindings of a declaration.
    fn bind(&mut self, declaration: Node<'t>) {
        let mut cursor = declaration.walk();
        for declarator in declaration.named_children(&mut cursor) {
            if declarator.kind() != "variable_declarator" {
                continue;
            }
            let (Some(name), Some(value)) = (
                declarator.child_by_field_name("name"),
                declarator.child_by_field_name("value"),
            ) else {
                continue;
            };
            if name.kind() == "identifier"
                && let Some(name) = self.source.get(name.byte_range())
            {
                match self.required(value) {
                    Some(specifier) => {
                        self.imports.insert(name.to_string(), specifier);
                    }
                    None => {
                        self.bindings.insert(name.to_string(), value);
                    }
                }
            }
        }
    }

    fn value(&mut self, node: Node<'t>, depth: usize) -> Literal {
        self.steps += 1;
        if depth > MAX_DEPTH || self.steps > MAX_STEPS {
            return Literal::Unknown;
        }
        let text = self.source.get(node.byte_range()).unwrap_or_default();
        match node.kind() {
            "string" => Literal::Text(unescape_js(
                text.get(1..text.len().saturating_sub(1))
                    .unwrap_or_default(),
            )),
            "template_string" => {
                let substituted = node
                    .named_children(&mut node.walk())
                    .any(|child| child.kind() == "template_substitution");
                if substituted {
                    Literal::Unknown
                } else {
                    Literal::Text(unescape_js(
                        text.get(1..text.len().saturating_sub(1))
                            .unwrap_or_default(),
                    ))
                }
            }
            "regex" => Literal::Regex(text.to_string()),
            "number" | "true" | "false" => Literal::Text(text.to_string()),
            "object" => self.object(node, depth),
            "array" => {
                let mut items = Vec::new();
                let mut cursor = node.walk();
                for element in node.named_children(&mut cursor) {
                    match element.kind() {
                        "comment" => {}
                        "spread_element" => match element
                            .named_child(0)
                            .map(|inner| self.value(inner, depth + 1))
                        {
                            Some(Literal::Array(more)) => items.extend(more),
                            _ => items.push(Literal::Unknown),
                        },
                        _ => items.push(self.value(element, depth + 1)),
                    }
                }
                Literal::Array(items)
            }
            "identifier" => match self.bindings.get(text).copied() {
                Some(bound) => self.value(bound, depth + 1),
                None => match self.imports.get(text) {
                    Some(specifier) => (self.resolve)(specifier).unwrap_or(Literal::Unknown),
                    None => Literal::Unknown,
                },
            },
            "parenthesized_expression"
            | "satisfies_expression"
            | "as_expression"
            | "non_null_expression"
            | "type_assertion"
            | "await_expression" => match node.named_child(0) {
                Some(inner) => self.value(inner, depth + 1),
                None => Literal::Unknown,
            },
            "arrow_function" | "function_expression" | "function" => {
                match node.child_by_field_name("body") {
                    Some(body) if body.kind() == "statement_block" => match returned(body) {
                        Some(value) => self.value(value, depth + 1),
                        None => Literal::Unknown,
                    },
                    Some(body) => self.value(body, depth + 1),
                    None => Literal::Unknown,
                }
            }
            // `...require('../../jest/jest.config.shared')`, spread without a binding.
            "call_expression" => match self.required(node) {
                Some(specifier) => (self.resolve)(&specifier).unwrap_or(Literal::Unknown),
                None => self.call(node, depth),
            },
            _ => Literal::Unknown,
        }
    }

    fn object(&mut self, node: Node<'t>, depth: usize) -> Literal {
        let mut pairs: Vec<(String, Literal)> = Vec::new();
        let mut cursor = node.walk();
        for member in node.named_children(&mut cursor) {
            match member.kind() {
                "pair" => {
                    let (Some(key), Some(value)) = (
                        member.child_by_field_name("key"),
                        member.child_by_field_name("value"),
                    ) else {
                        continue;
                    };
                    let key = key_text(self.source.get(key.byte_range()).unwrap_or_default());
                    let value = self.value(value, depth + 1);
                    pairs.push((key, value));
                }
                "shorthand_property_identifier" => {
                    let name = self.source.get(member.byte_range()).unwrap_or_default();
                    let value = match self.bindings.get(name).copied() {
                        Some(bound) => self.value(bound, depth + 1),
                        None => Literal::Unknown,
                    };
                    pairs.push((name.to_string(), value));
                }
                "spread_element" => match member
                    .named_child(0)
                    .map(|inner| self.value(inner, depth + 1))
                {
                    Some(Literal::Object(more)) => pairs.extend(more),
                    _ => pairs.push((SPREAD.to_string(), Literal::Unknown)),
                },
                _ => {}
            }
        }
        Literal::Object(pairs)
    }

    /// A call stands for the merge of its object arguments, or its one array argument.
    fn call(&mut self, node: Node<'t>, depth: usize) -> Literal {
        let Some(arguments) = node.child_by_field_name("arguments") else {
            return Literal::Unknown;
        };
        let mut merged: Option<Literal> = None;
        let mut cursor = arguments.walk();
        let values: Vec<Literal> = arguments
            .named_children(&mut cursor)
            .filter(|argument| argument.kind() != "comment")
            .collect::<Vec<_>>()
            .into_iter()
            .map(|argument| self.value(argument, depth + 1))
            .collect();
        if let [Literal::Array(items)] = values.as_slice() {
            return Literal::Array(items.clone());
        }
        for value in values {
            if let Literal::Object(_) = value {
                merged = Some(match merged {
                    Some(into) => merge(into, value),
                    None => value,
                });
            }
        }
        merged.unwrap_or(Literal::Unknown)
    }

    /// The merge of every object literal that is not inside another object or array.
    fn outermost_objects(&mut self, root: Node<'t>) -> Literal {
        let mut merged = Literal::Object(Vec::new());
        let mut cursor = root.walk();
        'walk: loop {
            let node = cursor.node();
            self.steps += 1;
            if self.steps > MAX_STEPS {
                break;
            }
            let descend = match node.kind() {
                "object" => {
                    let value = self.object(node, 0);
                    merged = merge(merged, value);
                    false
                }
                "array" => false,
                _ => true,
            };
            if descend && cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        merged
    }
}

/// The expression of the first `return` directly in a function body.
fn returned(body: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = body.walk();
    body.named_children(&mut cursor)
        .find(|statement| statement.kind() == "return_statement")
        .and_then(|statement| statement.named_child(0))
}

fn key_text(text: &str) -> String {
    text.trim_matches(|c| c == '"' || c == '\'' || c == '`' || c == '[' || c == ']')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(text: &str) -> Literal {
        module(text, Language::TypeScript)
    }

    #[test]
    fn reads_through_wrappers_functions_and_bindings() {
        let value = ts(
            "import { defineConfig } from 'vitest/config'\nconst shared = { environment: 'node' }\nconst unit = { test: { name: 'unit', include: ['src/**/*.unit.ts'] } }\nexport default defineConfig(({ mode }) => ({\n  test: { ...shared, projects: ['packages/*', unit, { extends: true, test: { include: [`a/**`], exclude: [...configDefaults.exclude, 'b/**'] } }, makeProject()] },\n})) satisfies UserConfig\n",
        );
        assert_eq!(
            value.at(&["test", "environment"]),
            Some(&Literal::Text("node".into()))
        );
        let projects = value.at(&["test", "projects"]).unwrap().items();
        assert_eq!(projects.len(), 4);
        assert_eq!(projects[0], &Literal::Text("packages/*".into()));
        assert_eq!(
            projects[1].at(&["test", "include"]).unwrap().strings(),
            Some(vec!["src/**/*.unit.ts".to_string()])
        );
        let exclude = projects[2].at(&["test", "exclude"]).unwrap();
        assert_eq!(exclude.strings(), None);
        assert_eq!(exclude.known_strings(), ["b/**"]);
        assert_eq!(projects[3], &Literal::Unknown);
    }

    #[test]
    fn module_exports_merge_config_and_fallback() {
        let jest = module(
            "const base = require('./base');\nmodule.exports = { ...base, testMatch: ['**/*.it.js'], testRegex: /x\\.js$/ };",
            Language::JavaScript,
        );
        assert_eq!(jest.get(SPREAD), Some(&Literal::Unknown));
        assert_eq!(
            jest.get("testRegex"),
            Some(&Literal::Regex("/x\\.js$/".into()))
        );
        let merged = ts(
            "export default mergeConfig(viteConfig, defineConfig({ test: { include: ['a'] } }), { test: { include: ['b'] } })",
        );
        assert_eq!(
            merged.at(&["test", "include"]).unwrap().strings(),
            Some(vec!["a".to_string(), "b".to_string()])
        );
        // No readable export: the outermost objects.
        let fallback = ts(
            "const config = createConfig();\nconfig.extend({ test: { dir: 'src' } });\nexport default config;",
        );
        assert_eq!(
            fallback.at(&["test", "dir"]),
            Some(&Literal::Text("src".into()))
        );
        let workspace =
            ts("export default defineWorkspace(['packages/*', { test: { name: 'x' } }])");
        assert_eq!(workspace.items().len(), 2);
    }

    #[test]
    fn imported_configurations_read_through_the_resolver() {
        let base = Literal::Object(vec![(
            "testPathIgnorePatterns".into(),
            Literal::Array(vec![Literal::Text("/e2e/".into())]),
        )]);
        let resolve = |specifier: &str| (specifier == "./jest.config.mjs").then(|| base.clone());
        for text in [
            "import baseConfig from './jest.config.mjs';\nexport default { ...baseConfig, reporters: ['summary'] };",
            "const baseConfig = require('./jest.config.mjs');\nmodule.exports = { ...baseConfig, reporters: ['summary'] };",
        ] {
            let ci = module_importing(text, Language::JavaScript, &resolve);
            assert_eq!(
                ci.get("testPathIgnorePatterns").and_then(Literal::strings),
                Some(vec!["/e2e/".to_string()]),
                "{text}"
            );
            assert_eq!(ci.get(SPREAD), None);
        }
        // An import the resolver does not know stays an unreadable spread.
        let other = module_importing(
            "import preset from 'some-preset';\nexport default { ...preset };",
            Language::JavaScript,
            &resolve,
        );
        assert_eq!(other.get(SPREAD), Some(&Literal::Unknown));
    }

    #[test]
    fn hostile_nesting_is_bounded() {
        let deep = format!("export default {}1{}", "[".repeat(5000), "]".repeat(5000));
        let _ = ts(&deep);
        let cycle = ts("const a = b; const b = a; export default { x: a };");
        assert_eq!(cycle.get("x"), Some(&Literal::Unknown));
    }
}
