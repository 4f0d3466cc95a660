//! Reading values out of source text, shared by `unsafe-operation` and `logged-secret`: string
//! literals, local aliases substituted into an expression, base64 literals decoded, and the
//! environment reads (a secret-named variable, the whole environment) an expression makes.
//!
//! Everything here works on the text of one call or assignment, never a whole file, and every
//! expansion is bounded, so a crafted file costs at most [`MAX_RESOLVED`] bytes per call.

use crate::query::{KEY_SEPARATOR, QueryMatch};
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Upper bound on a resolved expression's size: aliases of aliases cannot blow up.
const MAX_RESOLVED: usize = 8 * 1024;
/// How many alias levels are followed.
const MAX_DEPTH: usize = 4;

pub(crate) fn regex(
    cell: &'static OnceLock<Option<Regex>>,
    pattern: &str,
) -> Option<&'static Regex> {
    cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()
}

/// One local name bound to an expression (`rc = home / ".bashrc"`, `const cmd = "curl …"`).
#[derive(Clone, Debug)]
pub struct Alias {
    /// The enclosing scope (`test_hook` for a local, empty for a module-level name).
    pub scope: String,
    /// The bound expression's text.
    pub value: String,
    /// 1-based line of the binding, to tell a binding the change added.
    pub line: u32,
}

/// The aliases of one side, by name.
#[derive(Default)]
pub struct Aliases {
    by_name: HashMap<String, Vec<Alias>>,
}

impl Aliases {
    /// Builds the table from the shared `aliases` query's matches on one side.
    pub fn from_matches(matches: &[QueryMatch], text: &str) -> Aliases {
        let mut by_name: HashMap<String, Vec<Alias>> = HashMap::new();
        for found in matches {
            let Some(value) = text.get(found.byte_range.clone()) else {
                continue;
            };
            // A module binding (`const fs = require("fs")`) names an API, not a value.
            let module = value.starts_with("require(") || value.starts_with("await import(");
            if value.len() > MAX_RESOLVED || module {
                continue;
            }
            let scope = found
                .key
                .rsplit_once(KEY_SEPARATOR)
                .map(|(scope, _)| scope.to_string())
                .unwrap_or_default();
            by_name.entry(found.name.clone()).or_default().push(Alias {
                scope,
                value: value.to_string(),
                line: found.line,
            });
        }
        Aliases { by_name }
    }

    /// `expression` (found in `scope` on `line`) with every alias visible there replaced by
    /// its value, recursively up to [`MAX_DEPTH`] levels; also the lines of the bindings used.
    pub fn resolve(&self, expression: &str, scope: &str, line: u32) -> (String, Vec<u32>) {
        let mut lines = Vec::new();
        let mut text = expression.to_string();
        for _ in 0..MAX_DEPTH {
            let (next, changed) = self.substitute_once(&text, scope, line, &mut lines);
            text = next;
            if !changed || text.len() > MAX_RESOLVED {
                break;
            }
        }
        (text, lines)
    }

    fn substitute_once(
        &self,
        text: &str,
        scope: &str,
        line: u32,
        lines: &mut Vec<u32>,
    ) -> (String, bool) {
        static IDENT: OnceLock<Option<Regex>> = OnceLock::new();
        let Some(ident) = regex(&IDENT, r"[A-Za-z_$][A-Za-z0-9_$]*") else {
            return (text.to_string(), false);
        };
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        let mut changed = false;
        for found in ident.find_iter(text) {
            let before = &text[..found.start()];
            let after = &text[found.end()..];
            // Attributes (`x.name`), keyword arguments (`name=`), object keys (`name:`) and
            // call names are not uses of a local.
            let attribute = before.ends_with('.') && !before.ends_with("..");
            let keyword =
                after.trim_start().starts_with('=') && !after.trim_start().starts_with("==");
            let key = after.starts_with(':') && !after.starts_with("::");
            let path = after.starts_with("::") || before.ends_with("::");
            if attribute || keyword || key || path || in_literal(before) {
                continue;
            }
            let Some(alias) = self.visible(found.as_str(), scope, line) else {
                continue;
            };
            if out.len() + alias.value.len() > MAX_RESOLVED {
                break;
            }
            out.push_str(&text[last..found.start()]);
            out.push_str(&alias.value);
            last = found.end();
            lines.push(alias.line);
            changed = true;
        }
        out.push_str(&text[last..]);
        (out, changed)
    }

    /// The binding of `name` visible in `scope` at `line`: the nearest one before it. Scopes
    /// are only named ones (JavaScript functions are not), so nearness stands in for them.
    fn visible(&self, name: &str, scope: &str, line: u32) -> Option<&Alias> {
        self.by_name
            .get(name)?
            .iter()
            .filter(|alias| alias.line <= line)
            .filter(|alias| {
                alias.scope.is_empty()
                    || scope == alias.scope
                    || scope.starts_with(&format!("{}{KEY_SEPARATOR}", alias.scope))
            })
            .max_by_key(|alias| (alias.line, alias.scope.len()))
    }
}

/// Whether the end of `before` is inside a string literal that is not an interpolation
/// (`{…}`/`${…}`), judged by counting unescaped quotes on the text so far.
fn in_literal(before: &str) -> bool {
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    let mut escaped = false;
    for c in before.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (_, '\\') => escaped = true,
            (None, '"' | '\'' | '`') => quote = Some(c),
            (Some(open), _) if c == open && depth == 0 => quote = None,
            (Some(_), '{') => depth += 1,
            (Some(_), '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    quote.is_some() && depth == 0
}

/// One string literal in an expression.
#[derive(Debug)]
pub struct Literal {
    /// Byte range of the whole literal, quotes included.
    pub range: std::ops::Range<usize>,
    /// The content, escapes left as written.
    pub content: String,
}

/// The string literals of `text`, in order (Python prefixes, JS template strings and Rust raw
/// strings included; escapes are kept as written).
pub fn literals(text: &str) -> Vec<Literal> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        let c = bytes[index];
        if c == b'#' && text[..index].ends_with('r') {
            // Rust raw string `r#"…"#`.
            let hashes = text[index..].bytes().take_while(|b| *b == b'#').count();
            if bytes.get(index + hashes) == Some(&b'"') {
                let start = index + hashes + 1;
                let close = format!("\"{}", "#".repeat(hashes));
                if let Some(end) = text[start..].find(&close) {
                    out.push(Literal {
                        range: index - 1..start + end + close.len(),
                        content: text[start..start + end].to_string(),
                    });
                    index = start + end + close.len();
                    continue;
                }
            }
        }
        if matches!(c, b'"' | b'\'' | b'`') {
            // A Rust lifetime or char (`'a`) is too short to matter; treat it like a literal.
            let mut end = index + 1;
            let mut escaped = false;
            while end < bytes.len() {
                let b = bytes[end];
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == c {
                    break;
                }
                end += 1;
            }
            let content = text
                .get(index + 1..end.min(bytes.len()))
                .unwrap_or_default();
            out.push(Literal {
                range: index..(end + 1).min(bytes.len()),
                content: content.to_string(),
            });
            index = end + 1;
            continue;
        }
        index += 1;
    }
    out
}

/// The command a call assembles from its literal pieces: literals separated by `+` (or
/// juxtaposed) are concatenated, literals separated by `,` or a method call (`.arg(`) become
/// separate words. Base64 literals decoded where the expression decodes them.
pub fn assemble(text: &str) -> String {
    let decodes = decodes_base64(text);
    let mut words: Vec<String> = Vec::new();
    let mut previous_end = None;
    let mut size = 0;
    for literal in literals(text) {
        if matches!(
            literal.content.as_str(),
            "base64" | "utf8" | "utf-8" | "hex" | "ascii" | "latin1"
        ) {
            continue;
        }
        let content = if decodes {
            decode_base64(&literal.content).unwrap_or(literal.content)
        } else {
            literal.content
        };
        let separate = previous_end.is_none_or(|end| {
            let between = text.get(end..literal.range.start).unwrap_or_default();
            between.contains([',', '(', ')', '[', ']', ';', '\n'])
        });
        size += content.len();
        match words.last_mut() {
            Some(last) if !separate => last.push_str(&content),
            _ => words.push(content),
        }
        previous_end = Some(literal.range.end);
        if size > MAX_RESOLVED {
            break;
        }
    }
    // An argument vector (`["bash", "-c", cmd]`, `.arg("-c").arg(cmd)`): each element is one
    // word, so one holding spaces is quoted; a single command string is a shell line as is.
    let argv = words.len() > 1
        && words
            .first()
            .is_some_and(|first| !first.contains(char::is_whitespace));
    if !argv {
        return words.join(" ");
    }
    words
        .iter()
        .map(|word| {
            if word.contains(char::is_whitespace) || word.contains(['|', ';', '&', '>']) {
                format!("'{}'", word.replace('\'', "'\\''"))
            } else {
                word.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether an expression decodes base64 (`b64decode`, `atob`, `Buffer.from(…, "base64")`,
/// Rust's `base64` engines).
pub fn decodes_base64(text: &str) -> bool {
    ["b64decode", "atob(", "base64", "decodebytes"]
        .iter()
        .any(|marker| text.contains(marker))
}

/// `text` with each base64 literal that decodes to printable text replaced by that text, so
/// paths and commands hidden that way are read like plain ones.
pub fn with_decoded_literals(text: &str) -> String {
    if !decodes_base64(text) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for literal in literals(text) {
        if let Some(decoded) = decode_base64(&literal.content) {
            out.push_str(&text[last..literal.range.start]);
            out.push('"');
            out.push_str(&decoded.replace('"', "'"));
            out.push('"');
            last = literal.range.end;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// Standard or URL-safe base64 to printable text; `None` for anything else (short strings,
/// binary results).
pub fn decode_base64(text: &str) -> Option<String> {
    let text = text.trim();
    if text.len() < 8 || text.len() > MAX_RESOLVED {
        return None;
    }
    // Decoding stops at the first padding character.
    let bytes = crate::text::base64_bytes(text.split('=').next().unwrap_or_default())?;
    let decoded = String::from_utf8(bytes).ok()?;
    let printable = decoded
        .chars()
        .all(|c| !c.is_control() || c == '\n' || c == '\t');
    let readable = decoded.contains(char::is_whitespace) || decoded.contains(['/', '.']);
    (printable && readable).then_some(decoded)
}

/// Whether a name (an environment variable, a config field) holds a credential by its words:
/// `GITHUB_TOKEN`, `apiKey`, `client_secret`, `DB_PASSWORD`, `private_key`, `credentials`.
/// Public or non-secret roles are not (`PUBLIC_KEY`, `STRIPE_PUBLISHABLE_KEY`, `KEY_ID`,
/// `next_page_token`, `csrf_token`, `SORT_KEY`).
pub fn is_secret_name(name: &str) -> bool {
    let words = name_words(name);
    let Some(last) = words.last() else {
        return false;
    };
    if words
        .iter()
        .any(|word| matches!(word.as_str(), "public" | "publishable" | "pub"))
    {
        return false;
    }
    let previous = words
        .len()
        .checked_sub(2)
        .and_then(|index| words.get(index));
    let previous = previous.map(String::as_str).unwrap_or_default();
    match last.as_str() {
        "token" => !matches!(
            previous,
            "csrf"
                | "xsrf"
                | "page"
                | "next"
                | "continuation"
                | "cancellation"
                | "sync"
                | "pagination"
                | "cursor"
                | "lexer"
                | "parser"
                | "end"
                | "start"
                | "id"
        ),
        "secret" | "password" | "passwd" | "passphrase" | "credentials" | "credential"
        | "creds" | "apikey" | "privatekey" | "secretkey" | "accesskey" | "pat" => true,
        "pass" | "pwd" => !previous.is_empty(),
        "key" => {
            !previous.is_empty()
                && !matches!(
                    previous,
                    "sort"
                        | "primary"
                        | "partition"
                        | "cache"
                        | "idempotency"
                        | "foreign"
                        | "hot"
                        | "shortcut"
                        | "keyboard"
                        | "map"
                        | "dict"
                        | "row"
                        | "lookup"
                        | "group"
                        | "storage"
                        | "hash"
                        | "unique"
                        | "composite"
                        | "range"
                        | "object"
                        | "s3"
                        | "translation"
                        | "i18n"
                        | "react"
                        | "query"
                        | "route"
                        | "cursor"
                )
        }
        _ => false,
    }
}

/// A name's lower-case words: `SECRET_KEY` → secret, key; `apiKey` → api, key.
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == '.' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    // Trailing digits (`TOKEN2`, `KEY_2`) do not change the role.
    while let Some(last) = words.last_mut() {
        let trimmed = last.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        if trimmed == 0 {
            words.pop();
        } else {
            last.truncate(trimmed);
            break;
        }
    }
    words
}

/// What an expression reads from the environment.
#[derive(Debug, PartialEq, Eq)]
pub enum EnvRead {
    /// A secret-named variable, with its name and byte range in the text.
    Secret(String, std::ops::Range<usize>),
    /// The whole environment (`os.environ`, `process.env`, `env::vars()`).
    Everything(std::ops::Range<usize>),
}

/// The environment reads of `text`: secret-named variables and whole-environment values.
pub fn env_reads(text: &str) -> Vec<EnvRead> {
    static NAMED: OnceLock<Option<Regex>> = OnceLock::new();
    static WHOLE: OnceLock<Option<Regex>> = OnceLock::new();
    let mut out = Vec::new();
    if let Some(named) = regex(
        &NAMED,
        r#"(?:(?:\bos\.)?environ\s*\[\s*|(?:\bos\.)?environ\.get\(\s*|(?:\bos\.)?getenv\(\s*|(?:std::)?env::var(?:_os)?\(\s*|\benv!\(\s*|option_env!\(\s*|Deno\.env\.get\(\s*|process\.env\s*\[\s*)["'`]([A-Za-z_][A-Za-z0-9_]*)["'`](?:\s*[\])])?|(?:process|import\.meta|Bun)\.env\.([A-Za-z_][A-Za-z0-9_]*)"#,
    ) {
        for captures in named.captures_iter(text) {
            let Some(name) = captures.get(1).or_else(|| captures.get(2)) else {
                continue;
            };
            if is_secret_name(name.as_str())
                && let Some(whole) = captures.get(0)
            {
                out.push(EnvRead::Secret(name.as_str().to_string(), whole.range()));
            }
        }
    }
    if let Some(whole) = regex(
        &WHOLE,
        r"\bos\.environ\b|\bprocess\.env\b|\benv::vars(?:_os)?\(\)|\bDeno\.env\.toObject\(\)",
    ) {
        for found in whole.find_iter(text) {
            let after = text[found.end()..].trim_start();
            let before = text[..found.start()].trim_end();
            let call_form = found.as_str().ends_with(')');
            let narrowed = !call_form && after.starts_with('[')
                || after.starts_with(".get")
                || after.starts_with(".setdefault")
                || after.starts_with(".pop")
                || after.starts_with(".keys")
                || after.starts_with("?.")
                || (!call_form
                    && after.starts_with('.')
                    && !after.starts_with(".copy")
                    && !after.starts_with(".items")
                    && !after.starts_with(".values"))
                || !call_form && after.starts_with("=") && !after.starts_with("==");
            let names_only = before.ends_with(" in")
                || before.ends_with("Object.keys(")
                || before.ends_with("len(")
                || before.ends_with("keys(");
            if !narrowed && !names_only {
                out.push(EnvRead::Everything(found.range()));
            }
        }
    }
    out
}

/// Whether the text around `range` redacts the value it reads: a fixed-length prefix or
/// suffix slice, a length, a hash, a mask helper, a presence test.
pub fn redacted_at(text: &str, range: &std::ops::Range<usize>) -> bool {
    static BEFORE: OnceLock<Option<Regex>> = OnceLock::new();
    static AFTER: OnceLock<Option<Regex>> = OnceLock::new();
    let start = range.start.saturating_sub(80);
    let before = text
        .get(floor(text, start)..range.start)
        .unwrap_or_default();
    let after = skip_unwrapping(text.get(range.end..).unwrap_or_default());
    let after = after
        .get(..floor(after, after.len().min(80)))
        .unwrap_or(after);
    let before_redacts = regex(
        &BEFORE,
        r"(?i)(?:mask|redact|hash|sha\d*|md5|digest|fingerprint|obfuscat|censor|anonymi|truncat|len|bool|Boolean|typeof|isinstance|type|is_some|hmac)\w*\s*[(!]\s*(?:[^()]*,\s*)?$|!!\s*$|\b(?:if|not|and|or)\s+$|(?:typeof|!)\s*$",
    )
    .is_some_and(|pattern| pattern.is_match(before));
    let after_redacts = regex(
        &AFTER,
        r#"^\)?\s*(?:\[\s*-?\d*\s*:\s*-?\d+\s*\]|\[\s*-\d+\s*:\s*\]|\[\s*\.\.=?\s*\d+\s*\]|\.(?:slice|substring|substr)\(\s*-?\d+\s*(?:,\s*-?\d+\s*)?\)|\.get\(\s*\.\.=?\d+\s*\)|\.chars\(\)\.take\(|\.length\b|\.len\(\)|\.is_empty\(\)|\.is_some\(\)|\.is_none\(\)|\.is_ok\(\)|\.startswith\(|\.startsWith\(|\s+is\s+(?:not\s+)?None|\s*[!=]==?\s*(?:null|undefined|None|""|'')|\s*\?\s*["'`]|\s+if\b|\s+else\b|\s*\?\?\s*["'`]|\s+in\s)"#,
    )
    .is_some_and(|pattern| pattern.is_match(after));
    before_redacts || after_redacts
}

/// `text` past the calls that only unwrap or convert a value (`.unwrap()`, `?`,
/// `.unwrap_or_default()`, `.to_string()`), so what is done to the value itself is next.
fn skip_unwrapping(text: &str) -> &str {
    static CHAIN: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(pattern) = regex(
        &CHAIN,
        r#"^(?:\s*[\])]|\?(?:\.)?|\.(?:unwrap|unwrap_or_default|expect|unwrap_or|to_string|to_owned|as_str|clone|as_deref|trim|strip)\([^()]*\))+"#,
    ) else {
        return text;
    };
    pattern.find(text).map_or(text, |found| {
        let rest = &text[found.end()..];
        // `?.length` keeps its dot for the redaction patterns.
        if found.as_str().ends_with("?.") {
            &text[found.end() - 1..]
        } else {
            rest
        }
    })
}

/// The largest char boundary of `text` at or below `index`.
pub fn floor(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// `text` with string literal contents blanked byte for byte, keeping interpolations (`${…}` in
/// a JS template, `{…}` in a Python f-string or a double-quoted literal), so a word inside a message (`"password reset"`,
/// sample code in a warning) is not read as code and offsets stay those of `text`.
pub fn blank_literals(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for literal in literals(text) {
        out.push_str(&text[last..literal.range.start]);
        let written = &text[literal.range.clone()];
        let template = written.starts_with('`');
        let prefix = text[..literal.range.start]
            .bytes()
            .rev()
            .take_while(u8::is_ascii_alphabetic)
            .collect::<Vec<u8>>();
        // A double-quoted literal may be a Rust format string (`"token {token}"`), which
        // reads names: its braces are kept like an f-string's.
        let formatted = written.starts_with('"')
            || (!template
                && prefix.len() <= 2
                && prefix.iter().any(|b| matches!(b, b'f' | b'F'))
                && prefix
                    .iter()
                    .all(|b| matches!(b, b'f' | b'F' | b'r' | b'R')));
        let mut depth = 0usize;
        let mut previous = '\0';
        for c in written.chars() {
            let opens = (template && c == '{' && previous == '$') || (formatted && c == '{');
            match c {
                '{' if opens || depth > 0 => {
                    depth += 1;
                    out.push(c);
                }
                '}' if depth > 0 => {
                    depth -= 1;
                    out.push(c);
                }
                _ if depth > 0 => out.push(c),
                _ => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
            }
            previous = c;
        }
        last = literal.range.end;
    }
    out.push_str(&text[last..]);
    out
}

/// Whether byte `at` of `text` is message text inside a string literal (not an interpolation).
pub fn in_literal_text(text: &str, at: usize) -> bool {
    let blanked = blank_literals(text);
    text.as_bytes().get(at).is_some_and(|byte| *byte != b' ')
        && blanked.as_bytes().get(at) == Some(&b' ')
}

/// Where HOME is pointed away from the real one (`monkeypatch.setenv("HOME", tmp_path)`,
/// `process.env.HOME = tmpdir`, `env::set_var("HOME", …)`): home paths are then test data.
pub fn redirects_home(text: &str) -> bool {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    regex(
        &PATTERN,
        r#"setenv\(\s*["'](?:HOME|USERPROFILE)["']|environ\[\s*["']HOME["']\s*\]\s*=[^=]|process\.env\.HOME\s*=[^=]|process\.env\[\s*["']HOME["']\s*\]\s*=[^=]|set_var\(\s*"HOME"|patch\.dict\([^)]*["']HOME["']|setattr\([^)]*["']home["']|spyOn\(\s*os\s*,\s*["']homedir["']|mock[^\n]*homedir|["']HOME["']\s*:\s*(?:str\()?\s*tmp"#,
    )
    .is_some_and(|pattern| pattern.is_match(text))
}

/// Whether an expression writes under a temporary directory (pytest's `tmp_path`, `tempfile`,
/// `os.tmpdir()`, `env::temp_dir()`, `tempdir()`, `/tmp/`).
pub fn under_temp(text: &str) -> bool {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    regex(
        &PATTERN,
        r#"\btmp_path\b|\btmpdir\b|\btmp_dir\b|tmp_path_factory|tempfile|mkdtemp|TemporaryDirectory|tmpdir\(\)|temp_dir\(\)|tempdir\(\)|TempDir|\btmp\b|["'`]/tmp/|["'`]/var/tmp/|RUNNER_TEMP|\$TMPDIR"#,
    )
    .is_some_and(|pattern| pattern.is_match(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        for name in [
            "GITHUB_TOKEN",
            "apiKey",
            "client_secret",
            "DB_PASSWORD",
            "private_key",
            "credentials",
            "STRIPE_KEY",
            "AWS_SECRET_ACCESS_KEY",
            "NPM_TOKEN2",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in [
            "PUBLIC_KEY",
            "STRIPE_PUBLISHABLE_KEY",
            "AWS_ACCESS_KEY_ID",
            "next_page_token",
            "csrf_token",
            "SORT_KEY",
            "key",
            "HOME",
            "TOKEN_URL",
            "NEXT_PUBLIC_API_KEY",
        ] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn assembles_pieces_and_decodes_base64() {
        assert_eq!(assemble(r#""cur" + "l -s x" + " | sh""#), "curl -s x | sh");
        assert_eq!(assemble(r#"["bash", "-c", "id"]"#), "bash -c id");
        assert_eq!(
            assemble(r#"["bash", "-c", "curl " + url + " | sh"]"#),
            "bash -c 'curl  | sh'"
        );
        // "curl x | sh"
        assert_eq!(
            assemble(r#"base64.b64decode("Y3VybCB4IHwgc2g=")"#),
            "curl x | sh"
        );
    }

    #[test]
    fn env_reads_and_redaction() {
        let text = r#"print(os.environ["GITHUB_TOKEN"])"#;
        let reads = env_reads(text);
        assert!(matches!(&reads[..], [EnvRead::Secret(name, _)] if name == "GITHUB_TOKEN"));
        assert!(matches!(
            env_reads("console.log(process.env)")[..],
            [EnvRead::Everything(_)]
        ));
        assert!(env_reads("console.log(process.env.NODE_ENV)").is_empty());
        assert!(env_reads(r#"if "TOKEN" in os.environ: pass"#).is_empty());
        let prefix = r#"print(os.environ["GITHUB_TOKEN"][:4])"#;
        let EnvRead::Secret(_, range) = &env_reads(prefix)[0] else {
            panic!()
        };
        assert!(redacted_at(prefix, range));
        let masked = r#"log.info(mask(process.env.API_TOKEN))"#;
        let EnvRead::Secret(_, range) = &env_reads(masked)[0] else {
            panic!()
        };
        assert!(redacted_at(masked, range));
    }
}
