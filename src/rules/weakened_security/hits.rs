//! The query's matches on one side, one per reported node, with what the Rust side reads.

use super::{ID, normalize};
use crate::finding::{Severity, Side};
use crate::lang::Language;
use crate::rules::FileContext;
use crate::rules::markers::shorten;

/// How a match is judged (the pattern's `kind` property).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Insecure as written.
    Flag,
    /// Insecure when the named value is set to false (`verify=VERIFY`).
    ViaFalse,
    /// Insecure when the named value is set to true (`danger_accept_invalid_certs(x)`).
    ViaTrue,
    /// A permissive CORS origin; an error when the file also sends credentials.
    Cors,
    /// Credentials allowed cross-origin: reported only next to a permissive CORS origin.
    Credentials,
    /// An authentication decorator, dependency or route middleware, judged on removal.
    Auth,
    /// Security middleware of an app, judged on removal.
    Middleware,
    /// A cookie flag off, reported when the object around it is a cookie's options.
    Cookie,
    /// Code or a shell command run from `@message.arg`, reported when that is not a constant.
    Dynamic,
    /// `exec(..)` of `child_process`: [`Kind::Dynamic`] in a file that uses `child_process`.
    ChildProcess,
    /// Deserialization that runs code, reported unless the input is a literal or a round trip.
    Deserialize,
    /// A fast digest, reported when the code around it hashes a password.
    WeakHash,
    /// A literal JWT signing key.
    WeakSecret,
    /// `DEBUG = True`-like settings, reported in production settings files.
    Settings,
    /// `jwt.decode(..)`, reported where base verified with `jwt.verify(..)` in the same scope.
    JwtDecode,
    /// `jwt.verify(..)`.
    JwtVerify,
}

impl Kind {
    fn parse(text: &str) -> Option<Kind> {
        Some(match text {
            "flag" => Kind::Flag,
            "via-false" => Kind::ViaFalse,
            "via-true" => Kind::ViaTrue,
            "cors" => Kind::Cors,
            "credentials" => Kind::Credentials,
            "auth" => Kind::Auth,
            "middleware" => Kind::Middleware,
            "cookie" => Kind::Cookie,
            "dynamic" => Kind::Dynamic,
            "child-process" => Kind::ChildProcess,
            "deserialize" => Kind::Deserialize,
            "weak-hash" => Kind::WeakHash,
            "weak-secret" => Kind::WeakSecret,
            "settings" => Kind::Settings,
            "jwt-decode" => Kind::JwtDecode,
            "jwt-verify" => Kind::JwtVerify,
            _ => return None,
        })
    }
}

/// One match, judged.
#[derive(Clone, Debug)]
pub struct Hit {
    /// How it is judged.
    pub kind: Kind,
    /// 1-based lines of the finding node.
    pub line: u32,
    /// 1-based last line.
    pub end_line: u32,
    /// Byte range of the finding node.
    pub range: std::ops::Range<usize>,
    /// Enclosing scope and `@key` (`views › delete_account`, a route's path).
    pub key: String,
    /// The bare `@key` text, or the innermost scope's name.
    pub name: String,
    /// The name of the function around the match, if any.
    pub function: Option<String>,
    /// Whitespace-free text of the finding node.
    pub text: String,
    /// The finding node's text, shortened for messages.
    pub shown: String,
    /// The pattern's `message`.
    pub message: String,
    /// The pattern's `severity`, if any.
    pub severity: Option<Severity>,
    /// `@message.arg`, `@message.value`, `@message.object`.
    pub arg: Option<String>,
    /// The variable or setting passed in (kinds `via-*`).
    pub value: Option<String>,
    /// The options object around the match (kind `cookie`).
    pub object: Option<String>,
}

impl Hit {
    /// Identity within the file: scope, kind and text, with single and double quotes alike so
    /// that a formatter's quote style (`exec('\n'.join(..))` → `exec("\n".join(..))`) is no
    /// new match.
    pub fn identity(&self) -> (String, Kind, String) {
        (self.key.clone(), self.kind, self.text.replace('\'', "\""))
    }
}

/// The first argument of the call `text` (`request.body` of `exec(request.body, {})`), by
/// bracket depth; the whole text when it has no parenthesis.
fn first_argument(text: &str) -> &str {
    let Some((_, inside)) = text.split_once('(') else {
        return text;
    };
    let mut depth = 0usize;
    for (at, c) in inside.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return inside[..at].trim(),
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => return inside[..at].trim(),
            _ => {}
        }
    }
    inside.trim()
}

/// `text` without the line comments that end its lines (`#` in Python, `//` elsewhere),
/// quotes on each line kept track of (`"a#b"` stays whole).
fn without_line_comments(text: &str, language: Language) -> String {
    let marker = if language == Language::Python {
        "#"
    } else {
        "//"
    };
    let mut out = String::with_capacity(text.len());
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        let mut quote: Option<char> = None;
        let mut escaped = false;
        let mut cut = line.len();
        for (at, c) in line.char_indices() {
            match quote {
                Some(_) if escaped => escaped = false,
                Some(_) if c == '\\' => escaped = true,
                Some(open) if c == open => quote = None,
                Some(_) => {}
                None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
                None if line[at..].starts_with(marker) => {
                    cut = at;
                    break;
                }
                None => {}
            }
        }
        out.push_str(line[..cut].trim_end());
    }
    out
}

/// The side's matches, one per node (the first pattern wins), without nodes nested in another
/// match of the same kind (`ssl.CERT_NONE` inside `cert_reqs=ssl.CERT_NONE`).
pub fn collect(context: &FileContext<'_>, side: Side, language: Language) -> Vec<Hit> {
    let Some(text) = context.side(side) else {
        return Vec::new();
    };
    let matches = context.matches(side, ID);
    let mut hits: Vec<Hit> = Vec::new();
    for found in matches.iter() {
        let Some(kind) = found.property("kind").and_then(Kind::parse) else {
            continue;
        };
        let (range, line) =
            method_call(context, side, found).unwrap_or((found.byte_range.clone(), found.line));
        let Some(raw) = text.text.get(range.clone()) else {
            continue;
        };
        // `exec(  # noqa: S102` over lines: a comment inside the call is no part of it.
        let uncommented = without_line_comments(raw, language);
        let raw = uncommented.as_str();
        // Only `jwt.decode` is judged by its function; the walk is not needed for the rest.
        let function = (kind == Kind::JwtDecode)
            .then(|| enclosing_function(context, side, &range))
            .flatten();
        hits.push(Hit {
            kind,
            line,
            end_line: found.end_line,
            range,
            key: found.key.clone(),
            name: found.name.clone(),
            function,
            text: normalize(raw),
            shown: shorten(
                raw.split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .as_str(),
                80,
            ),
            message: found.property("message").unwrap_or_default().to_string(),
            severity: found.property("severity").and_then(Severity::parse),
            // The first argument, unless the capture is a comment before it: then the text
            // inside the call's parentheses stands for it.
            arg: found.capture("message.arg").map(|arg| {
                if arg.starts_with('#') || arg.starts_with("//") {
                    first_argument(raw).to_string()
                } else {
                    arg.to_string()
                }
            }),
            value: found.capture("message.value").map(str::to_string),
            object: found.capture("message.object").map(str::to_string),
        });
    }
    let contained = |inner: &Hit, outer: &Hit| {
        outer.range.start <= inner.range.start
            && inner.range.end <= outer.range.end
            && outer.range != inner.range
    };
    let mut kept: Vec<Hit> = Vec::new();
    for (index, hit) in hits.iter().enumerate() {
        let duplicate = hits[..index]
            .iter()
            .any(|earlier| earlier.range == hit.range && earlier.kind == hit.kind)
            || hits
                .iter()
                .any(|other| other.kind == hit.kind && contained(hit, other));
        // A node two reporting patterns match is reported once, by the first.
        let same_node_earlier = hits[..index]
            .iter()
            .any(|earlier| earlier.range == hit.range && reported(earlier.kind));
        if duplicate || (same_node_earlier && reported(hit.kind)) {
            continue;
        }
        kept.push(hit.clone());
    }
    kept
}

/// A method call is reported from its method's name on (`.danger_accept_invalid_certs(true)`
/// of a builder chain), so that an edit elsewhere in the chain does not make it new: the range
/// and first line from there.
fn method_call(
    context: &FileContext<'_>,
    side: Side,
    found: &crate::query::QueryMatch,
) -> Option<(std::ops::Range<usize>, u32)> {
    let parsed = context.parsed(side)?;
    let node = crate::rules::inventory::node_at(parsed.tree.root_node(), found.byte_range.clone())?;
    if !matches!(node.kind(), "call_expression" | "call") {
        return None;
    }
    let function = node.child_by_field_name("function")?;
    let field = match function.kind() {
        "field_expression" => function.child_by_field_name("field")?,
        "member_expression" => function.child_by_field_name("property")?,
        "attribute" => function.child_by_field_name("attribute")?,
        _ => return None,
    };
    let line = u32::try_from(field.start_position().row + 1).ok()?;
    Some((field.start_byte()..found.byte_range.end, line))
}

/// The name of the innermost function around `range` (a declaration, a method, or a variable
/// an arrow function is assigned to), within a few dozen levels.
fn enclosing_function(
    context: &FileContext<'_>,
    side: Side,
    range: &std::ops::Range<usize>,
) -> Option<String> {
    let parsed = context.parsed(side)?;
    let text = context.side(side)?.text;
    let mut node = parsed
        .tree
        .root_node()
        .named_descendant_for_byte_range(range.start, range.end)?;
    for _ in 0..64 {
        let name = match node.kind() {
            "function_declaration"
            | "function_definition"
            | "function_item"
            | "method_definition"
            | "variable_declarator"
            | "generator_function_declaration" => node.child_by_field_name("name"),
            _ => None,
        };
        if let Some(name) = name.and_then(|name| text.get(name.byte_range())) {
            return Some(name.to_string());
        }
        node = node.parent()?;
    }
    None
}

/// Kinds that report the match itself when it is new.
pub fn reported(kind: Kind) -> bool {
    !matches!(
        kind,
        Kind::ViaFalse | Kind::ViaTrue | Kind::Auth | Kind::Middleware | Kind::JwtVerify
    )
}

/// Whether an argument is a constant: a plain string or number literal, a list of them, or a
/// template or f-string without substitutions.
pub fn constant(arg: &str) -> bool {
    let arg = arg.trim();
    if arg.is_empty() {
        return true;
    }
    if arg.starts_with('[') && arg.ends_with(']') {
        let inner = &arg[1..arg.len() - 1];
        return inner
            .split(',')
            .all(|item| item.trim().is_empty() || string_literal(item.trim()));
    }
    string_literal(arg) || arg.chars().all(|c| c.is_ascii_digit())
}

fn string_literal(text: &str) -> bool {
    if text.starts_with("r#\"") && text.ends_with("\"#") {
        return true;
    }
    let opens = text.find(['"', '\'', '`']).unwrap_or(text.len());
    let (prefix, body) = text.split_at(opens);
    if prefix.len() > 2 || !prefix.chars().all(|c| "rbuRBUfF".contains(c)) {
        return false;
    }
    if (prefix.contains(['f', 'F']) && body.contains('{')) || body.contains("${") {
        return false;
    }
    for quote in ["\"\"\"", "\'\'\'", "\"", "\'", "`"] {
        if let Some(inner) = body
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            // `"a" + x` is not one literal.
            return !inner.contains(quote);
        }
    }
    false
}
