//! Source excluded from a checker: new lines in `.eslintignore`/`.prettierignore`/
//! `.stylelintignore`, ESLint `ignorePatterns`/flat-config `ignores`, Biome `files.ignore`
//! (`!` entries of `files.includes`), ruff/flake8 `exclude`/`extend-exclude`, mypy and pyright
//! `exclude`, pyright `ignore`, tsconfig `exclude`. Build output, vendored and generated code,
//! lockfiles and documents are what such lists are for: only patterns that reach source count,
//! and one named source file excluded from a linter or type checker is an error (the
//! configuration form of a file-wide suppression).

use super::config_text::{at, ini, js_settings, jsonc, string_list, toml, yaml};
use super::{Output, file_name, locate};
use crate::finding::{Confidence, Severity, Side};
use crate::lang::Language;
use crate::rules::{Candidate, Fact, FactRef, FileContext, Moved};
use std::collections::BTreeSet;

/// Fact name: a pattern some changed file excluded in base, keyed `tool:pattern`.
const EXCLUDED: &str = "excluded-path";
const FAMILY: &str = "checker-ignores";

/// (tool, pattern) pairs a file excludes.
fn patterns(path: &str, text: &str) -> BTreeSet<(&'static str, String)> {
    let name = file_name(path);
    let mut found = BTreeSet::new();
    let mut add = |tool: &'static str, items: Vec<String>| {
        for item in items {
            let item = item.trim();
            if !item.is_empty() && !item.starts_with('#') {
                found.insert((tool, item.to_string()));
            }
        }
    };
    let lines = |text: &str| text.lines().map(str::to_string).collect::<Vec<_>>();
    match name {
        ".eslintignore" => add("ESLint", lines(text)),
        ".prettierignore" => add("Prettier", lines(text)),
        ".stylelintignore" => add("Stylelint", lines(text)),
        _ if super::checker_config::is_eslint_config(path) => {
            let language = match name.rsplit_once('.').map(|(_, ext)| ext) {
                Some("js" | "mjs" | "cjs") => Some(Language::JavaScript),
                Some("ts" | "mts" | "cts") => Some(Language::TypeScript),
                _ => None,
            };
            match language {
                Some(language) => {
                    for setting in js_settings(text, language) {
                        let key = setting.path.rsplit('.').next().unwrap_or_default();
                        if key == "ignorePatterns" {
                            add("ESLint", setting.values);
                        }
                    }
                    add("ESLint", global_ignores(text, language));
                }
                None => {
                    let value = jsonc(text).or_else(|| yaml(text));
                    add(
                        "ESLint",
                        string_list(value.as_ref().and_then(|v| v.get("ignorePatterns")), false),
                    );
                }
            }
        }
        _ if name.starts_with("biome.json") => {
            if let Some(value) = jsonc(text) {
                add(
                    "Biome",
                    string_list(at(&value, &["files", "ignore"]), false),
                );
                add(
                    "Biome",
                    string_list(at(&value, &["linter", "ignore"]), false),
                );
                let negated = string_list(at(&value, &["files", "includes"]), false)
                    .into_iter()
                    .filter_map(|entry| entry.strip_prefix('!').map(str::to_string))
                    .collect();
                add("Biome", negated);
            }
        }
        _ if name.starts_with("tsconfig") && name.ends_with(".json") => {
            if let Some(value) = jsonc(text) {
                add("tsc", string_list(value.get("exclude"), false));
            }
        }
        "pyrightconfig.json" => {
            if let Some(value) = jsonc(text) {
                add("pyright", string_list(value.get("exclude"), false));
                add("pyright", string_list(value.get("ignore"), false));
            }
        }
        "pyproject.toml" | "ruff.toml" | ".ruff.toml" => {
            let Some(value) = toml(text) else {
                return found;
            };
            let ruff = if name == "pyproject.toml" {
                at(&value, &["tool", "ruff"])
            } else {
                Some(&value)
            };
            for key in ["exclude", "extend-exclude"] {
                add(
                    "ruff",
                    string_list(ruff.and_then(|ruff| ruff.get(key)), false),
                );
            }
            for tool in ["pyright", "basedpyright"] {
                for key in ["exclude", "ignore"] {
                    add(
                        "pyright",
                        string_list(at(&value, &["tool", tool, key]), false),
                    );
                }
            }
            add(
                "mypy",
                string_list(at(&value, &["tool", "mypy", "exclude"]), false),
            );
        }
        "setup.cfg" | "tox.ini" | ".flake8" | "mypy.ini" | ".mypy.ini" => {
            for entry in ini(text) {
                let key = entry.key.replace('_', "-");
                let tool = match (entry.section.as_str(), key.as_str()) {
                    ("flake8", "exclude" | "extend-exclude") => "flake8",
                    ("mypy", "exclude") => "mypy",
                    _ => continue,
                };
                add(
                    tool,
                    entry.value.split([',', '\n']).map(str::to_string).collect(),
                );
            }
        }
        _ => {}
    }
    found
}

/// Flat-config `ignores` that apply to the whole run: those of an object with no other keys
/// than `ignores` and `name` (next to `files` or `rules` they only scope that object's rules).
fn global_ignores(text: &str, language: Language) -> Vec<String> {
    const SCOPED_BY: [&str; 7] = [
        "files",
        "rules",
        "languageOptions",
        "plugins",
        "settings",
        "linterOptions",
        "processor",
    ];
    let Ok(parsed) = crate::lang::parse(language, text.to_string()) else {
        return Vec::new();
    };
    let source = parsed.text.as_str();
    let key_of = |pair: tree_sitter::Node<'_>| {
        pair.child_by_field_name("key")
            .and_then(|key| source.get(key.byte_range()))
            .map(|key| key.trim_matches(['"', '\'', '`']).to_string())
    };
    let mut found = Vec::new();
    let mut stack = vec![parsed.tree.root_node()];
    let mut visited = 0usize;
    while let Some(node) = stack.pop() {
        visited += 1;
        if visited > 200_000 {
            break;
        }
        if node.kind() == "object" {
            let mut cursor = node.walk();
            let pairs: Vec<_> = node
                .named_children(&mut cursor)
                .filter(|child| child.kind() == "pair")
                .collect();
            let scoped = pairs
                .iter()
                .any(|pair| key_of(*pair).is_some_and(|key| SCOPED_BY.contains(&key.as_str())));
            for pair in &pairs {
                if scoped || key_of(*pair).as_deref() != Some("ignores") {
                    continue;
                }
                let Some(value) = pair.child_by_field_name("value") else {
                    continue;
                };
                let mut inner = value.walk();
                for element in value.named_children(&mut inner) {
                    if matches!(element.kind(), "string" | "template_string")
                        && let Some(text) = source.get(element.byte_range())
                    {
                        found.push(
                            text.get(1..text.len().saturating_sub(1))
                                .unwrap_or_default()
                                .to_string(),
                        );
                    }
                }
            }
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    found
}

/// `./src/legacy/` and `src/legacy/**` are one pattern.
fn normalized(pattern: &str) -> String {
    let mut text = pattern.trim().trim_start_matches("./").to_string();
    for suffix in ["/**/*", "/**", "/*", "/"] {
        if let Some(stripped) = text.strip_suffix(suffix) {
            text = stripped.to_string();
            break;
        }
    }
    text
}

const CODE_EXTENSIONS: [&str; 14] = [
    "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "vue", "svelte", "py", "pyi", "rs", "go",
];

/// Whether a pattern reaches source files, and whether it names exactly one.
fn reaches_source(pattern: &str) -> Option<bool> {
    const NOT_SOURCE: [&str; 33] = [
        "dist",
        "build",
        "out",
        "output",
        "coverage",
        "node_modules",
        "vendor",
        "vendored",
        "third_party",
        "thirdparty",
        "external",
        ".next",
        ".nuxt",
        ".svelte-kit",
        ".turbo",
        ".cache",
        ".output",
        "generated",
        "__generated__",
        "gen",
        "target",
        ".venv",
        "venv",
        ".tox",
        "site-packages",
        "__pycache__",
        "snapshots",
        "__snapshots__",
        "docs",
        "tmp",
        "temp",
        ".git",
        "storybook-static",
    ];
    const SOURCE_DIRS: [&str; 9] = [
        "src",
        "lib",
        "app",
        "packages",
        "components",
        "pages",
        "server",
        "client",
        "source",
    ];
    // mypy's `exclude` is a regular expression: `^src/legacy/$` reads as a path.
    let text = normalized(
        pattern
            .trim_start_matches(['!', '^', '/'])
            .trim_end_matches('$'),
    );
    let lower = text.to_ascii_lowercase();
    let segments: Vec<&str> = lower.split('/').filter(|part| !part.is_empty()).collect();
    if super::lint_lists::test_scope(&lower)
        || segments.iter().any(|part| {
            NOT_SOURCE.contains(part)
                || part.contains("generated")
                || part.contains("vendor")
                || part.ends_with(".min.js")
                || part.ends_with(".d.ts")
                || part.ends_with("_pb2.py")
        })
    {
        return None;
    }
    let last = segments.last().copied().unwrap_or_default();
    let extension = last.rsplit_once('.').map(|(_, ext)| ext);
    let code = extension.is_some_and(|ext| CODE_EXTENSIONS.contains(&ext));
    let everything = matches!(lower.as_str(), "" | "*" | "**" | "**/*");
    let source_dir = segments
        .first()
        .is_some_and(|first| SOURCE_DIRS.contains(first));
    // Another kind of file (`*.md`, `pnpm-lock.yaml`, `*.snap`) is not source.
    if extension.is_some_and(|ext| !ext.contains('*')) && !code {
        return None;
    }
    if !(code || everything || source_dir) {
        return None;
    }
    let glob = text.contains(['*', '?', '[', '{']);
    Some(code && !glob)
}

pub fn check(context: &FileContext<'_>, out: &mut Output) {
    let path = context.pair.path();
    let base = context
        .side(Side::Base)
        .map(|side| patterns(side.path, side.text));
    if let Some(base) = &base {
        for (tool, pattern) in base {
            out.facts.push(Fact {
                side: Side::Base,
                name: EXCLUDED,
                family: FAMILY,
                key: format!("{tool}:{}", normalized(pattern)),
                severity: Severity::Error,
            });
        }
    }
    let (Some(base), Some(head)) = (base, context.side(Side::Head)) else {
        return;
    };
    let before: BTreeSet<(&str, String)> = base
        .iter()
        .map(|(tool, pattern)| (*tool, normalized(pattern)))
        .collect();
    for (tool, pattern) in patterns(path, head.text) {
        let key = normalized(&pattern);
        if before.contains(&(tool, key.clone())) {
            continue;
        }
        let Some(one_file) = reaches_source(&pattern) else {
            continue;
        };
        let checker = tool != "Prettier";
        // A test app's own configuration (`test/apps/basics/tsconfig.json`) excludes test
        // code: shown, not blocking, unless the pattern climbs out of the test tree.
        let test_app = crate::rules::is_test_path(path) && !pattern.contains("..");
        // A named file that exists nowhere at head is kept from no checker today.
        let config_dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        let names_nothing = one_file
            && matches!(tool, "tsc" | "ESLint")
            && context.collection.js_file_at_head(config_dir, &pattern) == Some(false);
        let full = if config_dir.is_empty() {
            key.clone()
        } else {
            format!("{config_dir}/{key}")
        };
        // The excluded file was renamed and base excluded its old name: the same exclusion
        // (attrs 58c8e9ad, `typing-examples/` → `typing_tests/`).
        if one_file
            && let Some(old) = context.collection.renamed_from(&full)
            && let Some(old) = old
                .strip_prefix(config_dir)
                .map(|rest| rest.trim_start_matches('/'))
            && before.contains(&(tool, normalized(old)))
        {
            continue;
        }
        // A file the change adds and keeps from the checker: new code nothing checks (still an
        // error: code that fails the checker can be excluded as it arrives).
        let new_file = one_file && context.collection.created(&full);
        let severity = if one_file && checker && !test_app && !names_nothing {
            Severity::Error
        } else {
            Severity::Warning
        };
        let line = locate(head.text, None, &pattern, &context.pair.added);
        let what = if checker { "checked" } else { "formatted" };
        out.candidates.push(Candidate {
            side: Side::Head,
            line,
            end_line: line,
            severity,
            message: if new_file {
                format!(
                    "{tool} now excludes `{pattern}` in {}, a file this change adds: that new code is never checked",
                    file_name(path)
                )
            } else if names_nothing {
                format!(
                    "{tool} now excludes `{pattern}` in {}, a file that does not exist at head: it excludes nothing today",
                    file_name(path)
                )
            } else {
                format!(
                    "{tool} now excludes `{pattern}` in {}: {} no longer {what}",
                    file_name(path),
                    if one_file {
                        "that file is"
                    } else {
                        "that source is"
                    }
                ) + if test_app {
                    " (the configuration of a test app: what it excludes is test code)"
                } else {
                    ""
                }
            },
            key: format!("exclude:{tool}:{key}"),
            moved: Some(Moved {
                family: FAMILY,
                key: format!("{tool}:{key}"),
                already: FactRef::base(EXCLUDED),
                also: Vec::new(),
                print: None,
                likely: Vec::new(),
                existed: None,
            }),
            confidence: Confidence::Certain,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_patterns() {
        assert_eq!(reaches_source("src/api/client.ts"), Some(true));
        assert_eq!(reaches_source("src/legacy/"), Some(false));
        assert_eq!(reaches_source("src/components/**/*.tsx"), Some(false));
        assert_eq!(reaches_source("**/*.py"), Some(false));
        assert_eq!(reaches_source("dist/"), None);
        assert_eq!(reaches_source("src/__generated__/**"), None);
        assert_eq!(reaches_source("**/*.min.js"), None);
        assert_eq!(reaches_source("CHANGELOG.md"), None);
        assert_eq!(reaches_source("pnpm-lock.yaml"), None);
        assert_eq!(reaches_source("src/generated/schema.ts"), None);
        assert_eq!(reaches_source("build/"), None);
        assert_eq!(normalized("./dist/**"), "dist");
    }

    #[test]
    fn patterns_of_each_file_kind() {
        let found = patterns(".eslintignore", "# c\nnode_modules/\nsrc/a.ts\n");
        assert_eq!(found.len(), 2);
        let flat = "export default [{ ignores: [\"dist/**\", \"src/b.ts\"] }, { files: [\"a\"], ignores: [\"src/c.ts\"], rules: {} }];";
        assert_eq!(patterns("eslint.config.mjs", flat).len(), 2);
        let cfg = "[flake8]\nexclude = .git,\n    src/legacy\n";
        assert!(patterns("setup.cfg", cfg).contains(&("flake8", "src/legacy".to_string())));
    }
}
