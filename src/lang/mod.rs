//! Languages the syntax rules understand: detection from a path, and parsing with tree-sitter.
//!
//! Sits after the change set and before the query engine. It knows nothing about rules: it turns
//! text into a tree and answers "what encloses this node" questions that keys are built from.

pub mod budget;
mod depth;
pub mod edits;
mod scope;

pub use depth::{Hazards, MAX_SYNTAX_DEPTH, MAX_TOKEN_RUN, ancestors, hazards};
pub use scope::{qualified_scope, string_literal_text};

use tree_sitter::{Parser, Tree};

/// A language with a bundled tree-sitter grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    /// `.js .mjs .cjs .jsx`
    JavaScript,
    /// `.ts .mts .cts`
    TypeScript,
    /// `.tsx`
    Tsx,
    /// `.py .pyi`
    Python,
    /// `.rs`
    Rust,
}

impl Language {
    /// Every language, in a fixed order.
    pub const ALL: [Language; 5] = [
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Python,
        Language::Rust,
    ];

    /// The folder name under `queries/` and the name used in docs.
    pub fn name(self) -> &'static str {
        match self {
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Python => "python",
            Language::Rust => "rust",
        }
    }

    /// Detects the language from a repo-relative path's extension.
    pub fn from_path(path: &str) -> Option<Language> {
        let file_name = path.rsplit('/').next().unwrap_or(path);
        let extension = file_name.rsplit_once('.')?.1;
        match extension {
            "js" | "mjs" | "cjs" | "jsx" => Some(Language::JavaScript),
            "ts" | "mts" | "cts" => Some(Language::TypeScript),
            "tsx" => Some(Language::Tsx),
            "py" | "pyi" => Some(Language::Python),
            "rs" => Some(Language::Rust),
            _ => None,
        }
    }

    /// The tree-sitter grammar.
    pub fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
        }
    }

    /// Whether two languages share a test ecosystem, so a test moved between them still counts.
    pub fn family(self) -> &'static str {
        match self {
            Language::JavaScript | Language::TypeScript | Language::Tsx => "js",
            Language::Python => "python",
            Language::Rust => "rust",
        }
    }
}

/// A parsed file: its text, its tree and how many syntax errors tree-sitter recovered from.
pub struct Parsed {
    /// The source text the tree was built from.
    pub text: String,
    /// The syntax tree.
    pub tree: Tree,
    /// Number of ERROR or MISSING nodes; non-zero means the queries ran on a recovered tree.
    pub error_count: usize,
}

/// Why a file could not be parsed at all.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The grammar's ABI is not accepted by the runtime (a build problem, caught by tests).
    #[error("grammar for {0} could not be loaded")]
    Grammar(&'static str),
    /// tree-sitter gave up (it only does so when cancelled).
    #[error("parser returned no tree")]
    NoTree,
    /// The parse ran past the per-file time budget and was abandoned, so that one crafted file
    /// cannot stall the run (the rule `unreadable-change` reports it).
    #[error("the per-file time budget ran out while parsing")]
    OverBudget,
}

/// Environment variable that sets the per-file parse budget in milliseconds (tests make it
/// trip on modest files; operators may widen it for huge generated sources).
pub const PARSE_BUDGET_ENV: &str = "INTEGRITY_GATE_PARSE_BUDGET_MS";

/// Parse budget when [`PARSE_BUDGET_ENV`] is unset: far above any honest source file (a 2 MiB
/// file parses in well under a second), low enough that a crafted one cannot hold the gate.
const DEFAULT_PARSE_BUDGET: std::time::Duration = std::time::Duration::from_secs(10);

/// The per-file parse budget, read once.
pub fn parse_budget() -> std::time::Duration {
    static BUDGET: std::sync::OnceLock<std::time::Duration> = std::sync::OnceLock::new();
    *BUDGET.get_or_init(|| {
        std::env::var(PARSE_BUDGET_ENV)
            .ok()
            .and_then(|value| value.trim().parse::<u64>().ok())
            .map_or(DEFAULT_PARSE_BUDGET, std::time::Duration::from_millis)
    })
}

thread_local! {
    // One parser per thread and language: creating parsers is cheap, but reusing them keeps
    // the per-file cost to the parse itself.
    static PARSERS: std::cell::RefCell<Vec<(Language, Parser)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Parses `text` as `language` within the [`parse_budget`] of this thread's CPU time.
pub fn parse(language: Language, text: String) -> Result<Parsed, ParseError> {
    parse_within(language, text, budget::Deadline::after(parse_budget()))
}

/// Parses `text` as `language`, abandoning the parse at `deadline`.
pub fn parse_within(
    language: Language,
    text: String,
    deadline: budget::Deadline,
) -> Result<Parsed, ParseError> {
    reparse(language, text, None, deadline)
}

/// Parses `text` as `language`; with `old`, the tree of an earlier version and the
/// [`edits::line_edits`] from it to `text`, tree-sitter reuses what the edits left alone.
pub fn reparse(
    language: Language,
    text: String,
    old: Option<(&Tree, &[tree_sitter::InputEdit])>,
    deadline: budget::Deadline,
) -> Result<Parsed, ParseError> {
    let old = old.map(|(tree, edits)| {
        let mut tree = tree.clone();
        for edit in edits {
            tree.edit(edit);
        }
        tree
    });
    let tree = PARSERS.with(|cell| -> Result<Tree, ParseError> {
        let mut parsers = cell.borrow_mut();
        let index = match parsers.iter().position(|(lang, _)| *lang == language) {
            Some(index) => index,
            None => {
                let mut parser = Parser::new();
                parser
                    .set_language(&language.grammar())
                    .map_err(|_| ParseError::Grammar(language.name()))?;
                parsers.push((language, parser));
                parsers.len() - 1
            }
        };
        let parser = &mut parsers[index].1;
        let mut check = budget::Throttled::new(deadline);
        let mut over_budget = |_: &tree_sitter::ParseState| {
            if check.passed() {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        };
        let bytes = text.as_bytes();
        let tree = parser.parse_with_options(
            &mut |offset, _| bytes.get(offset..).unwrap_or_default(),
            old.as_ref(),
            Some(tree_sitter::ParseOptions::new().progress_callback(&mut over_budget)),
        );
        match tree {
            Some(tree) => Ok(tree),
            // A cancelled parser keeps its state to resume; the next file starts afresh.
            None if deadline.passed() => {
                parser.reset();
                Err(ParseError::OverBudget)
            }
            None => {
                parser.reset();
                Err(ParseError::NoTree)
            }
        }
    })?;
    let error_count = count_errors(&tree);
    Ok(Parsed {
        text,
        tree,
        error_count,
    })
}

fn count_errors(tree: &Tree) -> usize {
    if !tree.root_node().has_error() {
        return 0;
    }
    let mut count = 0;
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            count += 1;
        } else if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grammar_loads() {
        for language in Language::ALL {
            let mut parser = Parser::new();
            assert!(
                parser.set_language(&language.grammar()).is_ok(),
                "{}",
                language.name()
            );
        }
    }

    #[test]
    fn detects_languages_by_extension() {
        assert_eq!(
            Language::from_path("a/b.test.mjs"),
            Some(Language::JavaScript)
        );
        assert_eq!(Language::from_path("x.cts"), Some(Language::TypeScript));
        assert_eq!(Language::from_path("x.tsx"), Some(Language::Tsx));
        assert_eq!(
            Language::from_path("tests/test_a.py"),
            Some(Language::Python)
        );
        assert_eq!(Language::from_path("src/lib.rs"), Some(Language::Rust));
        assert_eq!(Language::from_path("Makefile"), None);
        assert_eq!(Language::from_path("dir.rs/README"), None);
    }

    #[test]
    fn abandons_a_parse_past_its_budget_and_parses_the_next_file() {
        let big = "let a = [1, 2, 3];\n".repeat(50_000);
        let error = parse_within(
            Language::JavaScript,
            big,
            budget::Deadline::passed_already(),
        )
        .err()
        .unwrap();
        assert!(matches!(error, ParseError::OverBudget), "{error}");
        let next = parse_within(
            Language::JavaScript,
            "let b = 1;\n".into(),
            budget::Deadline::after(std::time::Duration::from_secs(60)),
        )
        .unwrap();
        assert_eq!(next.error_count, 0);
        assert_eq!(next.tree.root_node().end_byte(), 11);
    }

    #[test]
    fn counts_recovered_syntax_errors() {
        let clean = parse(Language::Python, "def f():\n    return 1\n".into()).unwrap();
        assert_eq!(clean.error_count, 0);
        let broken = parse(Language::Python, "def f(:\n    return 1\n".into()).unwrap();
        assert!(broken.error_count > 0);
    }
}
