//! What the change takes out of the production code: the functions, classes, methods, types and
//! fields whose definitions it removes and defines nowhere else. A test deleted together with
//! the code it exercised, or a check removed because the property it read no longer exists, is
//! a feature taken away rather than a check dodged: still reported, but as a warning that names
//! what went (`deleted-test`, `weakened-assertion`).
//!
//! Built once per change from the diff's lines alone, before any file is parsed: a definition
//! the change removes stands on a removed line, and one it keeps, renames in place or moves
//! stands on an added line somewhere in the change. So the cost follows the changed lines.
//! Reading definitions by pattern instead of by syntax tree can only miss or over-read a
//! definition; either way the error is towards fewer removals (a name still defined on an
//! added line anywhere does not count), so a test is never excused by a definition that stays.
//! Test code is never a subject: only files the runners do not collect, outside test
//! directories, and in Rust only the lines above the file's first `#[cfg(test)]`.

use crate::changeset::FilePair;
use crate::lang::Language;
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// Names shorter than this are too generic to say what a test exercised.
const MIN_NAME: usize = 4;

/// Most removed definitions kept per change: a deleted package can hold tens of thousands.
const MAX_NAMES: usize = 100_000;

/// Names that say nothing about a test's subject (every test reads them).
const GENERIC: &[&str] = &[
    "self",
    "this",
    "true",
    "false",
    "none",
    "null",
    "undefined",
    "main",
    "test",
    "tests",
    "setup",
    "teardown",
    "init",
    "name",
    "value",
    "values",
    "data",
    "type",
    "types",
    "default",
    "config",
    "options",
    "result",
    "error",
    "errors",
    "index",
    "list",
    "item",
    "items",
    "path",
    "text",
    "string",
    "number",
    "object",
    "array",
    "count",
    "size",
    "length",
    "state",
    "props",
    "expect",
    "assert",
    "describe",
    "mock",
    "mocks",
    "spy",
    "before",
    "after",
    "each",
    "new",
    "from",
    "into",
    "call",
    "apply",
    "run",
    "start",
    "stop",
    "open",
    "close",
    "read",
    "write",
    "load",
    "save",
    "create",
    "update",
    "delete",
    "remove",
    "get",
    "set",
    "has",
    "add",
    "key",
    "keys",
    "id",
    "ids",
    "args",
    "kwargs",
    "input",
    "output",
    "response",
    "request",
    "client",
    "server",
    "context",
    "ctx",
    "event",
    "events",
    "message",
    "file",
    "files",
    "node",
    "nodes",
    "child",
    "children",
    "parent",
    "root",
    "self_",
    "cls",
    "super",
    "async",
    "await",
    "return",
    "fn",
    "function",
    "class",
    "struct",
    "impl",
    "enum",
    "trait",
    "const",
    "static",
    "let",
    "var",
    "pub",
    "use",
    "mod",
    "crate",
    "export",
    "import",
    "module",
    "exports",
    "require",
    "stderr",
    "stdout",
    "stdin",
    "console",
    "process",
    "exit",
    "code",
    "status",
    "json",
    "yaml",
    "body",
    "headers",
    "argv",
    "env",
    "logger",
    "opts",
    "params",
    "cwd",
];

/// The production definitions the change removes, by name, each with the path it stood in.
#[derive(Debug, Default)]
pub struct Removed {
    names: HashMap<String, String>,
    /// Distinctive string literals (messages, error codes) the change removes from the product.
    texts: HashMap<String, String>,
    /// Names the product still has but reads on fewer lines: the change's removed production
    /// lines use them more often than its added ones (a field dropped from an error type, a
    /// function replaced by another at its call sites). A move keeps the count, so only a
    /// rewrite of the code a test read lands here; the weakest of the three kinds of evidence.
    thinned: HashMap<String, Thinned>,
    /// Classes whose constructor with parameters the change removes (head's class takes none),
    /// each with its path: `new Node('get', handler)` exercised what went.
    constructors: HashMap<String, String>,
    /// The names in `names` that the product imported from a package and no longer does.
    imported: HashSet<String>,
    /// The removed `texts` that are message templates (`"bad task id: {received} should be
    /// >= {expected}"`, `f"..."`, `%s`, `${x}`): a test quotes them with the values filled in.
    templates: Vec<Template>,
}

/// A removed message template, as the fixed text between its placeholders.
#[derive(Debug)]
struct Template {
    /// The literal as the product wrote it, which the finding names.
    literal: String,
    path: String,
    fragments: Vec<String>,
    /// Whether the template starts (ends) with fixed text, which a filled-in message must too.
    anchored_start: bool,
    anchored_end: bool,
}

/// Most templates read from one change; past it, no template lowers a finding.
const MAX_TEMPLATES: usize = 2_000;
/// Fixed text a template needs to name a behaviour, in characters, and its longest piece.
const MIN_TEMPLATE_TEXT: usize = 16;
const MIN_TEMPLATE_PIECE: usize = 8;

impl Template {
    /// The fixed pieces of `literal` around `{..}`, `${..}` and `%s`-style placeholders, when it
    /// has at least one placeholder and enough fixed text to be specific.
    fn of(literal: &str, path: &str) -> Option<Template> {
        let mut fragments: Vec<String> = Vec::new();
        let mut current = String::new();
        let mut placeholders = 0;
        let mut chars = literal.chars().peekable();
        let (mut starts_fixed, mut ends_fixed) = (None, true);
        while let Some(c) = chars.next() {
            let placeholder = match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    current.push('{');
                    false
                }
                '{' => chars.by_ref().any(|inner| inner == '}'),
                '$' if chars.peek() == Some(&'{') => chars.by_ref().any(|inner| inner == '}'),
                '%' if chars.peek() == Some(&'(') => {
                    let closed = chars.by_ref().any(|inner| inner == ')');
                    closed && chars.next().is_some_and(|kind| kind.is_ascii_alphabetic())
                }
                '%' if chars
                    .peek()
                    .is_some_and(|kind| matches!(kind, 's' | 'd' | 'r' | 'i' | 'f' | 'x')) =>
                {
                    chars.next();
                    true
                }
                _ => {
                    current.push(c);
                    false
                }
            };
            if placeholder {
                placeholders += 1;
                starts_fixed.get_or_insert(!current.is_empty());
                if !current.is_empty() {
                    fragments.push(std::mem::take(&mut current));
                }
                ends_fixed = false;
            } else {
                ends_fixed = true;
            }
        }
        if !current.is_empty() {
            fragments.push(current);
        }
        let fixed: usize = fragments.iter().map(|piece| piece.chars().count()).sum();
        let longest = fragments.iter().map(|piece| piece.chars().count()).max();
        (placeholders > 0
            && fixed >= MIN_TEMPLATE_TEXT
            && longest >= Some(MIN_TEMPLATE_PIECE)
            && fragments
                .iter()
                .any(|piece| piece.trim().contains(' ') && piece.chars().any(char::is_alphabetic)))
        .then(|| Template {
            literal: literal.to_string(),
            path: path.to_string(),
            fragments,
            anchored_start: starts_fixed.unwrap_or(true),
            anchored_end: ends_fixed,
        })
    }

    /// Whether `message` is this template with its placeholders filled in.
    fn fills(&self, message: &str) -> bool {
        let mut rest = message;
        for (index, piece) in self.fragments.iter().enumerate() {
            let at = if index == 0 && self.anchored_start {
                rest.starts_with(piece.as_str()).then_some(0)
            } else {
                rest.find(piece.as_str())
            };
            let Some(at) = at else {
                return false;
            };
            // A placeholder stands for something: pieces never touch.
            if index > 0 && at == 0 {
                return false;
            }
            rest = &rest[at + piece.len()..];
        }
        !self.anchored_end || rest.is_empty()
    }
}

/// A name the change's production lines read less often: where it was first removed, and on
/// how many removed and added lines of production code it stands.
#[derive(Debug, Clone)]
struct Thinned {
    path: String,
    removed: u32,
    added: u32,
}

impl Removed {
    /// Reads the change: definitions on the removed lines of production files, less every name
    /// defined on an added line of any changed file (kept, edited in place, moved or renamed to)
    /// and every name the head side of a changed production file still reads.
    pub fn of_change(pairs: &[&FilePair], is_test_file: impl Fn(&FilePair) -> bool) -> Removed {
        let production = |pair: &FilePair| {
            !is_test_file(pair)
                && !pair.old_path.as_deref().is_some_and(in_test_directory)
                && !pair.new_path.as_deref().is_some_and(in_test_directory)
        };
        let mut removed: HashMap<String, String> = HashMap::new();
        let mut texts: HashMap<String, String> = HashMap::new();
        let mut uses: HashMap<String, Thinned> = HashMap::new();
        let mut constructors: HashMap<String, String> = HashMap::new();
        let mut imported: HashSet<String> = HashSet::new();
        // The project's own Python packages, as far as the change shows them: the first folder
        // of each changed path (past `src/`). An import from them names the project's code,
        // which an unchanged file may still define.
        let own_packages: HashSet<&str> = pairs
            .iter()
            .filter_map(|pair| {
                let path = pair.path();
                let path = path.strip_prefix("src/").unwrap_or(path);
                path.split_once('/').map(|(first, _)| first)
            })
            .collect();
        for pair in pairs {
            let Some(language) = source_language(pair.path()) else {
                continue;
            };
            let (Some(base), Some(path)) = (pair.base.text(), pair.old_path.as_deref()) else {
                continue;
            };
            if pair.removed.is_empty() || !production(pair) {
                continue;
            }
            let tests_from = match language {
                Some(Language::Rust) => rust_tests_start(base),
                _ => u32::MAX,
            };
            let starts = crate::text::line_starts(base);
            for line in pair.removed.iter().take_while(|line| *line < tests_from) {
                if removed.len() >= MAX_NAMES {
                    break;
                }
                let Some(text) = line_at(base, &starts, line) else {
                    continue;
                };
                for name in definitions(text) {
                    removed
                        .entry(name.to_string())
                        .or_insert_with(|| path.to_string());
                }
                for name in external_imports(text).chain(python_imports(text, &own_packages)) {
                    if !removed.contains_key(name) {
                        removed.insert(name.to_string(), path.to_string());
                        imported.insert(name.to_string());
                    }
                }
                if let Some(class) =
                    removed_constructor(text, base, &starts, line, pair.head.text())
                {
                    constructors.insert(class.to_string(), path.to_string());
                }
                // Removing a comment or a guard is no rewrite of what a test read: a deleted
                // check with its test is the dodge this rule must keep an error.
                // A refusal replaced by working code is a feature landing, and what it read
                // may be a subject; one simply deleted is not.
                let guarding = || {
                    (guards(text)
                        || (pair.removed.contains(line + 1)
                            && line_at(base, &starts, line + 1).is_some_and(guards)))
                        && !replaced_by_code(pair, line)
                };
                let refusal = guarding();
                if uses.len() < MAX_NAMES && !is_comment(text) && !refusal {
                    let mut seen: Vec<&str> = Vec::new();
                    for word in identifiers(text).filter(|word| distinctive(word)) {
                        if !seen.contains(&word) {
                            seen.push(word);
                            uses.entry(word.to_string())
                                .or_insert_with(|| Thinned {
                                    path: path.to_string(),
                                    removed: 0,
                                    added: 0,
                                })
                                .removed += 1;
                        }
                    }
                }
                if texts.len() < MAX_NAMES && !refusal {
                    for literal in distinctive_literals(text) {
                        texts
                            .entry(literal.to_string())
                            .or_insert_with(|| path.to_string());
                    }
                }
            }
        }
        if removed.is_empty() && texts.is_empty() && uses.is_empty() && constructors.is_empty() {
            return Removed::default();
        }
        if !uses.is_empty() {
            for pair in pairs.iter().filter(|pair| production(pair)) {
                let Some(language) = source_language(pair.path()) else {
                    continue;
                };
                let Some(head) = pair.head.text().filter(|_| !pair.added.is_empty()) else {
                    continue;
                };
                let tests_from = match language {
                    Some(Language::Rust) => rust_tests_start(head),
                    _ => u32::MAX,
                };
                let starts = crate::text::line_starts(head);
                for line in pair.added.iter().take_while(|line| *line < tests_from) {
                    // A line commented out still counts as there: disabling code is another
                    // rule's finding, not a rewrite.
                    let Some(text) = line_at(head, &starts, line) else {
                        continue;
                    };
                    let mut seen: Vec<&str> = Vec::new();
                    for word in identifiers(text) {
                        if !seen.contains(&word)
                            && let Some(counts) = uses.get_mut(word)
                        {
                            seen.push(word);
                            counts.added += 1;
                        }
                    }
                }
            }
            // Clearly fewer: a name reworded across a large refactor (the project's own name,
            // a shared helper) is read about as often before and after.
            // And a definition the change removed or rewrote, or a compound name (`RangeError`,
            // `fee_rate`): a plain word a refactor happened to touch (`skills`, `version`)
            // says nothing about what a test read.
            uses.retain(|name, counts| {
                (removed.contains_key(name) || compound(name))
                    && counts.removed > counts.added
                    && counts.removed >= 2 * counts.added
            });
        }
        // Kept, edited in place, moved or renamed to: defined again on an added line of any
        // changed file. Only lines that name a removed definition are read as code.
        for pair in pairs {
            if source_language(pair.path()).is_none() {
                continue;
            }
            let Some(head) = pair.head.text().filter(|_| !pair.added.is_empty()) else {
                continue;
            };
            let starts = crate::text::line_starts(head);
            for line in pair.added.iter() {
                let Some(text) = line_at(head, &starts, line) else {
                    continue;
                };
                if identifiers(text).any(|word| removed.contains_key(word)) {
                    for name in definitions(text) {
                        removed.remove(name);
                    }
                }
            }
        }
        // A name production code still reads is still defined somewhere (another overload, an
        // unchanged file): only names gone from every changed production file count.
        // So is a message or code it still holds.
        for pair in pairs {
            if removed.is_empty() && texts.is_empty() {
                break;
            }
            if source_language(pair.path()).is_none() || !production(pair) {
                continue;
            }
            if let Some(head) = pair.head.text() {
                for word in identifiers(head) {
                    removed.remove(word);
                }
                if !texts.is_empty() {
                    for literal in distinctive_literals(head) {
                        texts.remove(literal);
                    }
                }
            }
        }
        for name in removed.keys() {
            uses.remove(name);
        }
        let mut templates: Vec<Template> = texts
            .iter()
            .filter_map(|(literal, path)| Template::of(literal, path))
            .take(MAX_TEMPLATES + 1)
            .collect();
        if templates.len() > MAX_TEMPLATES {
            templates.clear();
        }
        templates.sort_by(|a, b| a.literal.cmp(&b.literal));
        Removed {
            names: removed,
            texts,
            thinned: uses,
            constructors,
            imported,
            templates,
        }
    }

    /// The first removed definition (by position in `text`) that `text` reads, with the path it
    /// stood in: a name used as a whole identifier, not one inside a longer name.
    /// Also a removed message or error code the text quotes, or holds as a whole line of a
    /// multi-line string.
    pub fn read_by(&self, text: &str) -> Option<(&str, &str)> {
        if self.is_empty() {
            return None;
        }
        identifiers(text)
            .find_map(|word| self.names.get_key_value(word).map(as_pair))
            .or_else(|| {
                distinctive_literals(text)
                    .find_map(|literal| self.texts.get_key_value(literal).map(as_pair))
            })
            .or_else(|| {
                // A line of expected output in a multi-line string (`dedent("""\n  Setting up
                // build environment\n  0.0.1\n""")`) is the message itself, unquoted.
                text.lines()
                    .map(str::trim)
                    .filter(|line| line.chars().count() >= MIN_LITERAL && line.contains(' '))
                    .find_map(|line| self.texts.get_key_value(line).map(as_pair))
            })
            .or_else(|| {
                if self.templates.is_empty() {
                    return None;
                }
                distinctive_literals(text).find_map(|message| {
                    self.templates
                        .iter()
                        .find(|template| template.fills(message))
                        .map(|template| (template.literal.as_str(), template.path.as_str()))
                })
            })
            .or_else(|| {
                self.constructors
                    .iter()
                    .find(|(class, _)| constructs_with_arguments(text, class))
                    .map(as_pair)
            })
    }

    /// The first name `code` reads that the change's production lines read less often now
    /// (see [`Removed::thinned`]), with the path it was first removed from. Weaker evidence
    /// than [`Removed::read_by`]: asked of a test's code only, never of its name.
    pub fn rewritten_for(&self, code: &str) -> Option<(&str, &str)> {
        identifiers(code).find_map(|word| {
            self.thinned
                .get_key_value(word)
                .map(|(name, counts)| (name.as_str(), counts.path.as_str()))
        })
    }

    /// The message tail naming what went: `; the change also removes `x` (src/a.ts), which it
    /// read`, or, for a name the product reads less often now, how much less.
    pub fn explain(&self, name: &str, path: &str, what: &str) -> String {
        match self.thinned.get(name).filter(|counts| counts.path == path) {
            Some(counts) => format!(
                "; the change also rewrites the product's code around `{name}` ({path}; on {} \
                 removed and {} added production lines), which {what}",
                counts.removed, counts.added
            ),
            None if !self.names.contains_key(name) && self.constructors.contains_key(name) => {
                format!(
                    "; the change also removes the constructor of `{name}` that took arguments ({path}), which {what}"
                )
            }
            None if self.imported.contains(name) => format!(
                "; the change's production code stops importing `{name}` ({path}), which {what}"
            ),
            None => format!("; the change also removes `{name}` ({path}), which {what}"),
        }
    }

    /// No removals: what a file judged on its own sees.
    pub fn none() -> &'static Removed {
        static NONE: OnceLock<Removed> = OnceLock::new();
        NONE.get_or_init(Removed::default)
    }

    /// Whether the change removes no definition at all.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
            && self.texts.is_empty()
            && self.thinned.is_empty()
            && self.constructors.is_empty()
    }
}

/// The class whose constructor with parameters starts on the removed base `line` (`text`),
/// when head's class of that name takes none: construction with arguments went.
fn removed_constructor<'b>(
    text: &str,
    base: &'b str,
    starts: &[usize],
    line: u32,
    head: Option<&str>,
) -> Option<&'b str> {
    static CONSTRUCTOR: OnceLock<Option<Regex>> = OnceLock::new();
    static CLASS: OnceLock<Option<Regex>> = OnceLock::new();
    let takes = |code: &str| {
        crate::rules::unsafe_operation::values::regex(
            &CONSTRUCTOR,
            r"^\s*(?:(?:public|private|protected)\s+)?constructor\s*\(\s*[^)\s]",
        )
        .is_some_and(|pattern| pattern.is_match(code))
    };
    if !takes(text) {
        return None;
    }
    let class_pattern = crate::rules::unsafe_operation::values::regex(
        &CLASS,
        r"^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)",
    )?;
    let class = (1..line).rev().take(2_000).find_map(|at| {
        let code = line_at(base, starts, at)?;
        class_pattern
            .captures(code)?
            .get(1)
            .map(|name| name.as_str())
    })?;
    let head = head?;
    let mut lines = head.lines().skip_while(|code| {
        class_pattern
            .captures(code)
            .and_then(|captures| captures.get(1))
            .is_none_or(|name| name.as_str() != class)
    });
    lines.next()?;
    let still_takes = lines
        .take_while(|code| !class_pattern.is_match(code))
        .any(takes);
    (!still_takes && class.len() >= 3).then_some(class)
}

/// Whether `text` constructs `class` with arguments (`new Node('get', handler)`).
fn constructs_with_arguments(text: &str, class: &str) -> bool {
    let needle = format!("new {class}");
    text.match_indices(&needle).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let rest = text[at + needle.len()..].trim_start();
        let rest = match rest.strip_prefix('<') {
            Some(generic) => generic.split_once('>').map_or("", |(_, after)| after),
            None => rest,
        };
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
            && rest
                .strip_prefix('(')
                .is_some_and(|arguments| !arguments.trim_start().starts_with(')'))
    })
}

/// Source files whose definitions can be a test's subject, with their grammar if the gate has
/// one (`Some(None)`: a source language read by pattern only, such as Go or Java).
fn source_language(path: &str) -> Option<Option<Language>> {
    if let Some(language) = Language::from_path(path) {
        return Some(Some(language));
    }
    let extension = path.rsplit_once('.').map(|(_, extension)| extension)?;
    matches!(
        extension,
        "go" | "java" | "kt" | "scala" | "cs" | "rb" | "php" | "swift" | "vue" | "svelte"
    )
    .then_some(None)
}

/// A directory on the path holds tests, helpers or fixtures rather than the product.
fn in_test_directory(path: &str) -> bool {
    let mut directories: Vec<&str> = path.split('/').collect();
    let file = directories.pop().unwrap_or_default();
    let file = file.to_ascii_lowercase();
    file.starts_with("test_")
        || file.starts_with("conftest")
        || file.contains("_test.")
        || file.contains(".test.")
        || file.contains(".spec.")
        || directories.iter().any(|directory| {
            matches!(
                directory.to_ascii_lowercase().as_str(),
                "test"
                    | "tests"
                    | "__tests__"
                    | "spec"
                    | "specs"
                    | "testing"
                    | "testdata"
                    | "test-utils"
                    | "test_utils"
                    | "testutils"
                    | "fixtures"
                    | "__fixtures__"
                    | "__mocks__"
                    | "e2e"
                    | "benches"
                    | "examples"
            )
        })
}

/// The 1-based line of Rust `text` from which its tests start (the first `#[cfg(test)]`, or
/// the first `#[test]` of a file that holds tests outside a test module), or past the end.
fn rust_tests_start(text: &str) -> u32 {
    text.lines()
        .position(|line| {
            let line = line.trim_start();
            line.starts_with("#[cfg(test)]") || line.starts_with("#[test]")
        })
        .and_then(|index| u32::try_from(index + 1).ok())
        .unwrap_or(u32::MAX)
}

/// The names a line of code defines: functions, classes, methods, types, constants and fields,
/// in Python, JavaScript/TypeScript, Rust, Go and Java spellings.
fn definitions(line: &str) -> impl Iterator<Item = &str> {
    static PATTERNS: OnceLock<Vec<Regex>> = OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        [
            // `def f`, `fn f`, `func f`, `func (r T) f`, `function f`, `function* f`
            r"\b(?:def|fn|function\s*\*?|func(?:\s*\([^)]*\))?)\s+([A-Za-z_$][\w$]*)",
            // `class C`, `struct S`, `enum E`, `trait T`, `interface I`, `type T =`, `record R`
            r"\b(?:class|struct|enum|trait|interface|type|record|union)\s+([A-Za-z_$][\w$]*)",
            // module-level `const X =`, `export const x =`, `pub static X:` (a `let` or an indented
            // `const` is a local variable, not a definition)
            r"^(?:export\s+|pub(?:\([^)]*\))?\s+)?(?:const|static)\s+(?:mut\s+)?([A-Za-z_$][\w$]*)\s*[:=]",
            // a method: `  async foo(a, b) {`, `  public static bar<T>(x: T): U {`
            r"^\s*(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set|pub(?:\([^)]*\))?)\s+)*\*?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^;]*\)\s*(?::\s*[^;{]+)?\{\s*$",
            // a field or property: `  readonly domain: string;`, `  pub domain: String,`,
            // `  domain?: Foo`, `self.domain = ..`, `this.domain = ..`
            r"^\s*(?:(?:public|private|protected|static|readonly|declare|override|pub(?:\([^)]*\))?)\s+)*([A-Za-z_$][\w$]*)\s*[?!]?\s*:\s*[A-Za-z_$\[(<{][^=]*[,;]?\s*$",
            r"\b(?:self|this)\.([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=[^=]",
        ]
        .iter()
        .filter_map(|pattern| Regex::new(pattern).ok())
        .collect()
    });
    patterns
        .iter()
        .flat_map(move |pattern| pattern.captures_iter(line))
        .filter_map(|captures| captures.get(1))
        .map(|name| name.as_str())
        .filter(|name| distinctive(name))
}

/// The names a JavaScript/TypeScript line imports from a package (`import type { Config,
/// Connection } from '@planetscale/database'`, `const { Client } = require('pg')`): a product
/// that stops importing one stops supporting it, as if it had defined it. Relative and aliased
/// paths (`./x`, `~/x`, `@/x`, `#x`) import the project's own code, defined elsewhere.
/// The names a Python import line binds from another distribution: `from pydantic import v1
/// as pydantic_v1` (`pydantic_v1`), `from yaml import dump, load` (`dump`, `load`), `import
/// pydantic as pydantic_v1` (`pydantic_v1`). Relative imports and the project's own packages
/// (`own`) are left out; so is a bare `import yaml`, whose name is a whole library.
/// The names bound are read in `line`, the whole import on one line.
fn python_imports<'l>(line: &'l str, own: &HashSet<&str>) -> impl Iterator<Item = &'l str> {
    static IMPORT: OnceLock<Option<Regex>> = OnceLock::new();
    let found = IMPORT
        .get_or_init(|| {
            Regex::new(
                r"^\s*(?:from\s+([A-Za-z_][\w.]*)\s+import\s+([\w\s,]+?)|import\s+([A-Za-z_][\w.]*)\s+as\s+(\w+))\s*(?:#.*)?$",
            )
            .ok()
        })
        .as_ref()
        .and_then(|pattern| pattern.captures(line));
    let names = found.and_then(|captures| {
        let module = captures.get(1).or_else(|| captures.get(3))?.as_str();
        let top = module.split('.').next().unwrap_or(module);
        if own.contains(top) {
            return None;
        }
        match captures.get(2) {
            Some(names) => Some(names.as_str()),
            None => captures.get(4).map(|alias| alias.as_str()),
        }
    });
    names
        .unwrap_or_default()
        .split(',')
        .filter_map(|item| item.split_whitespace().last())
        // Only a compound name (`pydantic_v1`, `BaseModel`): `load` or `dump` is read by every
        // `json.load(..)` a test makes.
        .filter(|name| *name != "as" && distinctive(name) && compound(name))
}

fn external_imports(line: &str) -> impl Iterator<Item = &str> {
    static IMPORT: OnceLock<Option<Regex>> = OnceLock::new();
    let found = IMPORT
        .get_or_init(|| {
            Regex::new(
                r#"^\s*(?:import\s+(?:type\s+)?\{([^}]*)\}\s*from|(?:const|let|var)\s+\{([^}]*)\}\s*=\s*require\()\s*['"]([^'"]+)['"]"#,
            )
            .ok()
        })
        .as_ref()
        .and_then(|pattern| pattern.captures(line));
    let names = found.and_then(|captures| {
        let source = captures.get(3)?.as_str();
        let own = source.starts_with(['.', '~', '#', '/']) || source.starts_with("@/");
        (!own).then(|| captures.get(1).or_else(|| captures.get(2)))?
    });
    names
        .map(|names| names.as_str())
        .unwrap_or_default()
        .split(',')
        .flat_map(|name| name.split([' ', ':']).filter(|part| !part.is_empty()))
        .filter(|name| *name != "as" && *name != "type" && distinctive(name))
}

/// A name specific enough to say what a test exercised.
fn distinctive(name: &str) -> bool {
    name.len() >= MIN_NAME
        && !GENERIC.contains(&name.to_ascii_lowercase().as_str())
        && !matches!(
            name,
            "if" | "for"
                | "while"
                | "switch"
                | "catch"
                | "match"
                | "return"
                | "else"
                | "func"
                | "constructor"
                | "elif"
                | "with"
                | "loop"
                | "unsafe"
                | "where"
        )
}

fn as_pair<'r>((name, path): (&'r String, &'r String)) -> (&'r str, &'r str) {
    (name.as_str(), path.as_str())
}

/// Shortest string literal specific enough to name a behaviour (`'PREPARE_UNSUPPORTED'`,
/// `"interleave is not supported"`), in characters.
const MIN_LITERAL: usize = 10;

/// The quoted strings of `text` that read as a message or a code: long enough, with a letter,
/// not a path or URL (those recur in unrelated code).
fn distinctive_literals(text: &str) -> impl Iterator<Item = &str> {
    crate::rules::likeness::literals_of(text)
        .into_iter()
        .filter(|literal| {
            literal.chars().count() >= MIN_LITERAL
                && literal.chars().any(char::is_alphabetic)
                && !literal.contains('/')
                && !literal.starts_with(|c: char| c.is_ascii_digit())
        })
}

/// The identifiers of `text`, in order.
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|word| word.len() >= MIN_NAME && !word.starts_with(|c: char| c.is_ascii_digit()))
}

/// A name made of several words: `camelCase`, `PascalCase`, `snake_case`, `SCREAMING_CASE`.
fn compound(name: &str) -> bool {
    let inner = name.trim_matches(|c| c == '_' || c == '$');
    inner.contains('_')
        || (inner.chars().skip(1).any(|c| c.is_ascii_uppercase())
            && inner.chars().any(|c| c.is_ascii_lowercase()))
}

/// A line that is only a comment: deleting one that mentions a name changes no behaviour, so
/// it must not make the name look rewritten.
pub(crate) fn is_comment(line: &str) -> bool {
    let line = line.trim_start();
    ["//", "#", "/*", "*", "--", "\"\"\"", "'''"]
        .iter()
        .any(|opener| line.starts_with(opener))
        && !line.starts_with("#[")
        && !line.starts_with("#!")
}

/// Whether the run of removed base lines holding `line` gave way to added head lines that do
/// something (not only braces, comments, `pass`, a bare return or a log call). Unchanged lines
/// pair up in order on both sides, so the run's place in head follows the k-th unchanged line
/// before it.
fn replaced_by_code(pair: &FilePair, line: u32) -> bool {
    let Some(head) = pair.head.text() else {
        return false;
    };
    let unchanged_before = (line as usize - 1).saturating_sub(pair.removed.count_before(line));
    // The head line of the `unchanged_before`-th unchanged line (0: the file's start).
    let mut low = 0u32;
    let mut high = u32::try_from(head.lines().count()).unwrap_or(u32::MAX);
    if unchanged_before > 0 {
        while low < high {
            let middle = low + (high - low) / 2;
            let unchanged = middle as usize - pair.added.count_before(middle + 1);
            if unchanged < unchanged_before {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
    }
    let starts = crate::text::line_starts(head);
    (low + 1..)
        .take_while(|added| pair.added.contains(*added))
        .take(200)
        .filter_map(|added| line_at(head, &starts, added))
        .any(does_something)
}

/// A head line that does work: not blank, a comment, punctuation, `pass`, a bare return or
/// a log call.
fn does_something(line: &str) -> bool {
    let line = line.trim();
    !(line.is_empty()
        || is_comment(line)
        || line.chars().all(|c| "{}()[];,".contains(c))
        || matches!(
            line.trim_end_matches(';'),
            "pass" | "..." | "continue" | "break" | "Ok(())" | "None"
        )
        || line
            .trim_end_matches(';')
            .strip_prefix("return")
            .is_some_and(|value| is_literal(value.trim()))
        || [
            "console.",
            "print(",
            "log.",
            "logger.",
            "logging.",
            "println!",
            "eprintln!",
        ]
        .iter()
        .any(|log| line.starts_with(log)))
}

/// A constant: what a refusal swapped for a fallback returns (`0`, `''`, `[]`, `None`, ...).
fn is_literal(value: &str) -> bool {
    value.is_empty()
        || matches!(
            value,
            "None"
                | "null"
                | "undefined"
                | "true"
                | "false"
                | "True"
                | "False"
                | "[]"
                | "{}"
                | "()"
                | "Ok(())"
                | "nil"
                | "-1"
        )
        || value.parse::<f64>().is_ok()
        || (value.len() >= 2
            && ["\"", "'", "`"].iter().any(|quote| {
                value.starts_with(quote)
                    && value.ends_with(quote)
                    && value[1..value.len() - 1].len() < 40
            }))
}

/// A line that refuses bad input or state: it raises, returns an error or an HTTP refusal,
/// or asserts.
fn guards(line: &str) -> bool {
    const REFUSALS: &[&str] = &[
        "throw ",
        "throw(",
        "raise ",
        "raise(",
        "panic!",
        "bail!",
        "ensure!",
        "assert",
        "Err(",
        "abort(",
        "reject(",
        "status(4",
        "status(5",
        "status_code=4",
        "Exception(",
        "Error(",
        "invariant(",
        "validate",
        "Validate",
    ];
    REFUSALS.iter().any(|refusal| line.contains(refusal))
}

fn line_at<'t>(text: &'t str, starts: &[usize], line: u32) -> Option<&'t str> {
    let index = usize::try_from(line).ok()?.checked_sub(1)?;
    let start = *starts.get(index)?;
    let end = starts.get(index + 1).copied().unwrap_or(text.len());
    text.get(start..end)
        .map(|line| line.trim_end_matches(['\n', '\r']))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changeset::{Content, FilePair, Status};

    fn pair(path: &str, base: Option<&str>, head: Option<&str>) -> FilePair {
        let status = match (base, head) {
            (None, _) => Status::Added,
            (_, None) => Status::Deleted,
            _ => Status::Modified,
        };
        FilePair::new(
            status,
            base.map(|_| path.to_string()),
            head.map(|_| path.to_string()),
            base.map_or(Content::Absent, |text| Content::from_bytes(text.into())),
            head.map_or(Content::Absent, |text| Content::from_bytes(text.into())),
        )
    }

    fn removed(pairs: &[FilePair]) -> Removed {
        let pairs: Vec<&FilePair> = pairs.iter().collect();
        Removed::of_change(&pairs, |pair| pair.path().contains("test"))
    }

    #[test]
    fn message_templates_match_their_filled_in_messages() {
        let template = |literal: &str| Template::of(literal, "src/error.rs");
        let rust = template("Received bad task id: {received} should be >= to {expected}.")
            .expect("a template");
        assert!(rust.fills("Received bad task id: 5 should be >= to 13."));
        assert!(!rust.fills("Received bad task id: 5 should be >= to 13. Oops"));
        assert!(!rust.fills("Got bad task id: 5 should be >= to 13."));
        let python = template("cannot read %s from the archive").expect("a template");
        assert!(python.fills("cannot read 'a.txt' from the archive"));
        assert!(!python.fills("cannot read from the archive"));
        let js = template("Unknown plugin ${name}: check its spelling").expect("a template");
        assert!(js.fills("Unknown plugin vite-x: check its spelling"));
        let named = template("missing %(field)s in the order header").expect("a template");
        assert!(named.fills("missing total in the order header"));
        // Too little fixed text, or none of it words, names no behaviour.
        assert!(template("{} not found").is_none());
        assert!(template("{}: {} -> {}, {}").is_none());
        assert!(template("a plain message without placeholders").is_none());
        assert!(template("escaped {{braces}} only, nothing to fill").is_none());
    }

    #[test]
    fn a_test_quoting_a_removed_template_reads_what_went() {
        let pairs = [pair(
            "src/error.rs",
            Some(
                "pub enum Error {\n    #[error(\"Received bad task id: {received} should be >= to {expected}.\")]\n    BadTaskId { received: u32, expected: u32 },\n    #[error(\"Index `{0}` not found.\")]\n    IndexNotFound(String),\n}\n",
            ),
            Some(
                "pub enum Error {\n    #[error(\"Index `{0}` not found.\")]\n    IndexNotFound(String),\n}\n",
            ),
        )];
        let change = removed(&pairs);
        let test = "snapshot!(error, @\"Received bad task id: 5 should be >= to 13.\");";
        assert!(change.read_by(test).is_some());
        // A message the product still has reads nothing that went.
        assert!(
            change
                .read_by("snapshot!(error, @\"Index `doggo` not found.\");")
                .is_none()
        );
    }

    #[test]
    fn python_imports_from_other_distributions_are_read() {
        let own: HashSet<&str> = ["app"].into_iter().collect();
        let names = |line: &str| {
            python_imports(line, &own)
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names("    from pydantic import v1 as pydantic_v1"),
            ["pydantic_v1"]
        );
        assert_eq!(
            names("import pydantic as pydantic_v1  # type: ignore"),
            ["pydantic_v1"]
        );
        assert_eq!(names("from yaml import dump, SafeLoader"), ["SafeLoader"]);
        assert!(names("from app.models import OrderModel").is_empty());
        assert!(names("from .models import OrderModel").is_empty());
        assert!(names("import pydantic_core").is_empty());
    }

    #[test]
    fn definitions_in_each_language_are_read() {
        let names = |line: &str| definitions(line).map(str::to_string).collect::<Vec<_>>();
        assert_eq!(names("def compute_tax(x):"), ["compute_tax"]);
        assert_eq!(
            names("export async function resolvePath(a) {"),
            ["resolvePath"]
        );
        assert_eq!(
            names("pub fn forwarded_header(&self) -> Option<&str> {"),
            ["forwarded_header"]
        );
        assert_eq!(names("class TracePolicy:"), ["TracePolicy"]);
        assert_eq!(
            names("export const createLspCommand = () => {"),
            ["createLspCommand"]
        );
        assert_eq!(
            names("  hasCjsFactory(moduleID: string): boolean {"),
            ["hasCjsFactory"]
        );
        assert_eq!(names("  readonly domain: ErrorDomain;"), ["domain"]);
        assert_eq!(names("        self.retries = retries"), ["retries"]);
        assert_eq!(names("    this.retries = retries;"), ["retries"]);
        assert!(names("    if (this.retries == 3) {").is_empty());
        assert_eq!(
            names("func (s *Server) HandleLogin(w http.ResponseWriter) {"),
            ["HandleLogin"]
        );
        // calls, control flow and generic names define nothing
        assert!(names("  computeTax(order);").is_empty());
        assert!(names("  if (ready) {").is_empty());
        assert!(names("def test(x):").is_empty());
        // local variables and object literals' values are no definitions
        assert!(names("    let actual = run(cmd);").is_empty());
        assert!(names("  const rendered = render(view);").is_empty());
        assert!(names("  domain: 'CLI',").is_empty());
        assert_eq!(names("export const DEFAULT_PORT = 8080;"), ["DEFAULT_PORT"]);
    }

    #[test]
    fn a_definition_removed_from_production_code_is_removed() {
        let change = removed(&[pair(
            "src/policy.py",
            Some("class TracePolicy:\n    pass\n\ndef keep():\n    pass\n"),
            Some("def keep():\n    pass\n"),
        )]);
        assert_eq!(
            change.read_by("p = TracePolicy(mode='x')"),
            Some(("TracePolicy", "src/policy.py"))
        );
        assert_eq!(change.read_by("keep()"), None);
    }

    #[test]
    fn a_deleted_file_removes_everything_it_defined() {
        let change = removed(&[pair(
            "src/lib/isWatchmanInstalled.ts",
            Some("export default async function isWatchmanInstalled() {\n  return true;\n}\n"),
            None,
        )]);
        assert!(change.read_by("await isWatchmanInstalled()").is_some());
    }

    #[test]
    fn a_definition_kept_edited_moved_or_renamed_to_is_not_removed() {
        let change = removed(&[
            // edited in place: the signature changed
            pair(
                "src/a.ts",
                Some("export function parseConfig(a) {\n}\n"),
                Some("export function parseConfig(a, b) {\n}\n"),
            ),
            // moved to another file
            pair("src/b.py", Some("def load_settings():\n    pass\n"), None),
            pair("src/c.py", None, Some("def load_settings():\n    pass\n")),
            // one of two definitions removed, the name still read by production code
            pair(
                "src/d.py",
                Some(
                    "class A:\n    def render_row(self):\n        pass\n\nclass B:\n    def render_row(self):\n        pass\n",
                ),
                Some("class A:\n    pass\n\nclass B:\n    def render_row(self):\n        pass\n"),
            ),
        ]);
        assert_eq!(change.read_by("parseConfig(x)"), None);
        assert_eq!(change.read_by("load_settings()"), None);
        assert!(change.names.is_empty() && change.texts.is_empty());
        // One of two definitions went: not removed, but the product reads it on fewer lines.
        assert_eq!(change.read_by("b.render_row()"), None);
        let (name, path) = change.rewritten_for("b.render_row()").unwrap();
        assert!(
            change
                .explain(name, path, "it read")
                .contains("rewrites the product's code around `render_row` (src/d.py; on 1 removed and 0 added"),
            "{}",
            change.explain(name, path, "it read")
        );
    }

    #[test]
    fn a_name_the_product_reads_less_often_is_thinned_and_a_moved_one_is_not() {
        let change = removed(&[
            // `domain` leaves the error type's constructor; a method still reads it.
            pair(
                "src/errors.ts",
                Some(
                    "export class CliError {\n  constructor(code, domain) {\n    this.domain = domain;\n    this.code = code;\n  }\n  label() {\n    return this.domain;\n  }\n}\n",
                ),
                Some(
                    "export class CliError {\n  constructor(code) {\n    this.code = code;\n  }\n  label() {\n    return this.domain;\n  }\n}\n",
                ),
            ),
            // `renderTable` moves from one file to another, unchanged.
            pair(
                "src/a.ts",
                Some("export const x = renderTable(rows);\n"),
                None,
            ),
            pair(
                "src/b.ts",
                None,
                Some("export const x = renderTable(rows);\n"),
            ),
            // A comment that mentions a name is no use of it.
            pair(
                "src/notes.ts",
                Some("// the widgetFactory is set by the caller\nexport const y = 1;\n"),
                Some("export const y = 1;\n"),
            ),
            // Test code thinning its own helpers says nothing about the product.
            pair(
                "src/util.test.ts",
                Some("const mockDomain = makeDomain();\n"),
                Some("\n"),
            ),
        ]);
        assert_eq!(change.read_by("expect(error.domain).toBe('CLI')"), None);
        let (name, path) = change
            .rewritten_for("expect(error.domain).toBe('CLI')")
            .unwrap();
        assert_eq!((name, path), ("domain", "src/errors.ts"));
        assert!(
            change
                .explain(name, path, "the removed checks read")
                .contains("on 2 removed and 0 added production lines")
        );
        assert_eq!(
            change.rewritten_for("expect(renderTable(rows)).toBe('')"),
            None
        );
        assert_eq!(change.rewritten_for("makeDomain()"), None);
        assert_eq!(change.rewritten_for("widgetFactory()"), None);
        assert_eq!(
            change.rewritten_for("expect(result.stderr).toMatch(/x/)"),
            None
        );
    }

    #[test]
    fn test_code_is_never_a_subject() {
        let change = removed(&[
            pair(
                "tests/helpers.py",
                Some("def make_client():\n    pass\n"),
                None,
            ),
            pair(
                "src/__tests__/util.ts",
                Some("function buildFixture() {\n}\n"),
                None,
            ),
            pair(
                "src/lib.rs",
                Some(
                    "pub fn real_api() {}\n#[cfg(test)]\nmod tests {\n    fn helper_setup() {}\n}\n",
                ),
                Some("#[cfg(test)]\nmod tests {\n}\n"),
            ),
        ]);
        assert_eq!(change.read_by("make_client()"), None);
        assert_eq!(change.read_by("buildFixture()"), None);
        assert_eq!(change.read_by("helper_setup()"), None);
        assert_eq!(
            change.read_by("real_api()"),
            Some(("real_api", "src/lib.rs"))
        );
    }

    #[test]
    fn a_message_or_code_the_product_no_longer_holds_is_removed() {
        let change = removed(&[pair(
            "src/runtime.py",
            Some(
                "def prepare(plan):\n    raise RuntimeError('PREPARE_AFFECTED_COUNT_UNSUPPORTED')\n    log('kept message here')\n",
            ),
            Some("def prepare(plan):\n    return execute(plan)\n    log('kept message here')\n"),
        )]);
        assert_eq!(
            change.read_by(
                "with pytest.raises(RuntimeError, match='PREPARE_AFFECTED_COUNT_UNSUPPORTED'):"
            ),
            Some(("PREPARE_AFFECTED_COUNT_UNSUPPORTED", "src/runtime.py"))
        );
        // Still in the product (on a line the diff did not touch): not removed.
        assert_eq!(change.read_by("assert logged('kept message here')"), None);
        // Too short or a path: not distinctive.
        assert!(
            distinctive_literals("x('ok'); y('src/a/b/c.py')")
                .next()
                .is_none()
        );
    }

    #[test]
    fn only_whole_identifiers_are_read() {
        let change = removed(&[pair("src/a.py", Some("def parse_row():\n    pass\n"), None)]);
        assert_eq!(change.read_by("parse_rows(x)"), None);
        assert_eq!(change.read_by("my_parse_row(x)"), None);
        assert!(change.read_by("mod.parse_row(x)").is_some());
    }
}
