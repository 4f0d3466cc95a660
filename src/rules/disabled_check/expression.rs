//! GitHub Actions expressions (`if:`, `continue-on-error: ${{ … }}`) evaluated for one matrix
//! entry and one triggering event, three-valued: what the gate cannot know (`env`, `steps`,
//! `needs`, secrets) is unknown, and an unknown that the pull request's author can set (the
//! branch name, the title, labels, commit messages) is told apart, since a condition on it is
//! a switch the author holds.

use serde_json::{Map, Value};

/// Where an unknown value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// Run state, configuration or secrets the gate cannot see.
    Other,
    /// Something the pull request's author chooses.
    Author,
}

/// An expression's truth for one evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Truth {
    Yes,
    No,
    Unknown(Source),
}

/// What an expression is evaluated against.
#[derive(Debug, Clone, Copy)]
pub struct Env<'a> {
    /// `github.event_name`, when known.
    pub event: Option<&'a str>,
    /// The matrix entry (`None` where the matrix cannot be read, or for a job-level `if:`).
    pub matrix: Option<&'a Map<String, Value>>,
}

#[derive(Debug, Clone, PartialEq)]
enum Val {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Json(Value),
    Unknown(Source),
}

impl Val {
    fn from_json(value: &Value) -> Val {
        match value {
            Value::Null => Val::Null,
            Value::Bool(flag) => Val::Bool(*flag),
            Value::Number(number) => number
                .as_f64()
                .map_or(Val::Unknown(Source::Other), Val::Num),
            Value::String(text) => Val::Str(text.clone()),
            other => Val::Json(other.clone()),
        }
    }

    fn truth(&self) -> Truth {
        let yes = match self {
            Val::Null => false,
            Val::Bool(flag) => *flag,
            Val::Num(number) => *number != 0.0 && !number.is_nan(),
            Val::Str(text) => !text.is_empty(),
            Val::Json(_) => true,
            Val::Unknown(source) => return Truth::Unknown(*source),
        };
        if yes { Truth::Yes } else { Truth::No }
    }

    fn unknown(&self) -> Option<Source> {
        match self {
            Val::Unknown(source) => Some(*source),
            _ => None,
        }
    }

    /// GitHub's loose conversion to a number, used when operand types differ.
    fn number(&self) -> f64 {
        match self {
            Val::Null => 0.0,
            Val::Bool(flag) => f64::from(u8::from(*flag)),
            Val::Num(number) => *number,
            Val::Str(text) if text.trim().is_empty() => 0.0,
            Val::Str(text) => text.trim().parse().unwrap_or(f64::NAN),
            Val::Json(_) | Val::Unknown(_) => f64::NAN,
        }
    }
}

/// The truth of `text` (an `if:` or `continue-on-error:` value, with or without `${{ }}`).
pub fn truth(text: &str, env: &Env<'_>) -> Truth {
    let text = text.trim();
    let inner = match text.strip_prefix("${{") {
        Some(rest) => match rest.strip_suffix("}}") {
            // `${{ a }} && ${{ b }}` is a string, not an expression: give up.
            Some(inner) if !inner.contains("${{") => inner,
            _ => return Truth::Unknown(Source::Other),
        },
        None if text.contains("${{") => return Truth::Unknown(Source::Other),
        None => text,
    };
    let Some(tokens) = tokenize(inner) else {
        return Truth::Unknown(Source::Other);
    };
    let mut parser = Parser {
        tokens: &tokens,
        at: 0,
        env,
        depth: 0,
    };
    match parser.or() {
        Some(value) if parser.at == tokens.len() => value.truth(),
        _ => Truth::Unknown(Source::Other),
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Str(String),
    Num(f64),
    Op(&'static str),
}

/// Tokens of an expression; `None` for text that is none (bounded: long inputs give up).
fn tokenize(text: &str) -> Option<Vec<Token>> {
    const OPERATORS: [&str; 16] = [
        "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "[", "]", ",", ".", "*",
    ];
    if text.len() > 4000 {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        if c.is_whitespace() {
            at += 1;
        } else if c == '\'' {
            let mut value = String::new();
            at += 1;
            loop {
                match chars.get(at) {
                    None => return None,
                    Some('\'') if chars.get(at + 1) == Some(&'\'') => {
                        value.push('\'');
                        at += 2;
                    }
                    Some('\'') => {
                        at += 1;
                        break;
                    }
                    Some(other) => {
                        value.push(*other);
                        at += 1;
                    }
                }
            }
            tokens.push(Token::Str(value));
        } else if c.is_ascii_digit() {
            let start = at;
            while at < chars.len() && (chars[at].is_ascii_alphanumeric() || chars[at] == '.') {
                at += 1;
            }
            let word: String = chars[start..at].iter().collect();
            tokens.push(Token::Num(word.parse().ok()?));
        } else if c.is_alphabetic() || c == '_' {
            let start = at;
            while at < chars.len()
                && (chars[at].is_alphanumeric() || chars[at] == '_' || chars[at] == '-')
            {
                at += 1;
            }
            tokens.push(Token::Ident(chars[start..at].iter().collect()));
        } else {
            let rest: String = chars[at..chars.len().min(at + 2)].iter().collect();
            let op = OPERATORS.iter().find(|op| rest.starts_with(**op))?;
            tokens.push(Token::Op(op));
            at += op.len();
        }
    }
    Some(tokens)
}

struct Parser<'t, 'e> {
    tokens: &'t [Token],
    at: usize,
    env: &'e Env<'e>,
    depth: u32,
}

impl Parser<'_, '_> {
    fn peek_op(&self, op: &str) -> bool {
        matches!(self.tokens.get(self.at), Some(Token::Op(found)) if *found == op)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        let found = self.peek_op(op);
        if found {
            self.at += 1;
        }
        found
    }

    fn or(&mut self) -> Option<Val> {
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let mut left = self.and()?;
        while self.eat_op("||") {
            let right = self.and()?;
            left = match (left.truth(), right.truth()) {
                (Truth::Yes, _) => left,
                (Truth::No, _) => right,
                (Truth::Unknown(_), Truth::Yes) => right,
                (Truth::Unknown(a), Truth::No) => Val::Unknown(a),
                (Truth::Unknown(a), Truth::Unknown(b)) => Val::Unknown(a.max(b)),
            };
        }
        self.depth -= 1;
        Some(left)
    }

    fn and(&mut self) -> Option<Val> {
        let mut left = self.equality()?;
        while self.eat_op("&&") {
            let right = self.equality()?;
            left = match (left.truth(), right.truth()) {
                (Truth::No, _) => left,
                (Truth::Yes, _) => right,
                (Truth::Unknown(_), Truth::No) => right,
                (Truth::Unknown(a), Truth::Yes) => Val::Unknown(a),
                (Truth::Unknown(a), Truth::Unknown(b)) => Val::Unknown(a.max(b)),
            };
        }
        Some(left)
    }

    fn equality(&mut self) -> Option<Val> {
        let mut left = self.comparison()?;
        loop {
            let negate = if self.eat_op("==") {
                false
            } else if self.eat_op("!=") {
                true
            } else {
                return Some(left);
            };
            let right = self.comparison()?;
            left = match (left.unknown(), right.unknown()) {
                (Some(a), Some(b)) => Val::Unknown(a.max(b)),
                (Some(a), None) | (None, Some(a)) => Val::Unknown(a),
                (None, None) => Val::Bool(equal(&left, &right) != negate),
            };
        }
    }

    fn comparison(&mut self) -> Option<Val> {
        let mut left = self.unary()?;
        loop {
            let op = ["<=", ">=", "<", ">"]
                .into_iter()
                .find(|op| self.peek_op(op));
            let Some(op) = op else {
                return Some(left);
            };
            self.at += 1;
            let right = self.unary()?;
            if let Some(source) = left.unknown().max(right.unknown()) {
                left = Val::Unknown(source);
                continue;
            }
            let ordering = match (&left, &right) {
                (Val::Str(a), Val::Str(b)) => Some(a.to_lowercase().cmp(&b.to_lowercase())),
                _ => left.number().partial_cmp(&right.number()),
            };
            let holds = ordering.is_some_and(|ordering| match op {
                "<" => ordering.is_lt(),
                "<=" => ordering.is_le(),
                ">" => ordering.is_gt(),
                _ => ordering.is_ge(),
            });
            left = Val::Bool(holds);
        }
    }

    fn unary(&mut self) -> Option<Val> {
        if self.eat_op("!") {
            let value = self.unary()?;
            return Some(match value.truth() {
                Truth::Yes => Val::Bool(false),
                Truth::No => Val::Bool(true),
                Truth::Unknown(source) => Val::Unknown(source),
            });
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Option<Val> {
        let (mut value, mut path) = self.primary()?;
        loop {
            if self.eat_op(".") {
                match self.tokens.get(self.at) {
                    Some(Token::Ident(name)) => {
                        let name = name.clone();
                        self.at += 1;
                        value = self.member(value, &mut path, &name);
                    }
                    Some(Token::Op("*")) => {
                        self.at += 1;
                        value = unknown_of(&value);
                    }
                    _ => return None,
                }
            } else if self.eat_op("[") {
                let index = self.or()?;
                if !self.eat_op("]") {
                    return None;
                }
                value = match index {
                    Val::Str(name) => self.member(value, &mut path, &name),
                    _ => unknown_of(&value),
                };
            } else {
                return Some(value);
            }
        }
    }

    /// `value.name`, where `path` is the context path read so far (`github.event`).
    fn member(&self, value: Val, path: &mut Vec<String>, name: &str) -> Val {
        if let Val::Json(Value::Object(map)) = &value {
            return map.get(name).map_or(Val::Null, Val::from_json);
        }
        if !path.is_empty() {
            path.push(name.to_ascii_lowercase());
            return self.context(path).unwrap_or_else(|| unknown_of(&value));
        }
        match value {
            Val::Unknown(source) => Val::Unknown(source),
            _ => Val::Null,
        }
    }

    /// A context value, once its path is long enough to know.
    fn context(&self, path: &[String]) -> Option<Val> {
        let parts: Vec<&str> = path.iter().map(String::as_str).collect();
        let pull_request = matches!(self.env.event, Some("pull_request" | "pull_request_target"));
        Some(match parts.as_slice() {
            ["matrix", key] => match self.env.matrix {
                Some(matrix) => matrix
                    .iter()
                    .find(|(name, _)| name.eq_ignore_ascii_case(key))
                    .map_or(Val::Null, |(_, value)| Val::from_json(value)),
                None => Val::Unknown(Source::Other),
            },
            ["github", "event_name"] => match self.env.event {
                Some(event) => Val::Str(event.to_string()),
                None => Val::Unknown(Source::Other),
            },
            ["github", "ref"] => match self.env.event {
                Some("pull_request") => Val::Str("refs/pull/1/merge".to_string()),
                Some("merge_group") => {
                    Val::Str("refs/heads/gh-readonly-queue/main/pr-1-0".to_string())
                }
                _ => Val::Unknown(Source::Other),
            },
            ["github", "ref_name"] => match self.env.event {
                Some("pull_request") => Val::Str("1/merge".to_string()),
                _ => Val::Unknown(Source::Other),
            },
            ["github", "ref_type"] => Val::Str("branch".to_string()),
            ["github", "head_ref"] if pull_request => Val::Unknown(Source::Author),
            ["github", "event", "pull_request"] => return None,
            ["github", "event", "pull_request", "draft"] => Val::Unknown(Source::Other),
            [
                "github",
                "event",
                "pull_request",
                "title" | "body" | "labels" | "head",
                ..,
            ]
            | ["github", "event", "head_commit", ..]
            | ["github", "event", "commits", ..] => Val::Unknown(Source::Author),
            ["github", "event", ..] if parts.len() < 4 => return None,
            ["github"] => return None,
            _ => Val::Unknown(Source::Other),
        })
    }

    /// A literal, a parenthesised expression, a context root or a function call; with the
    /// context path it starts, if any.
    fn primary(&mut self) -> Option<(Val, Vec<String>)> {
        let token = self.tokens.get(self.at)?.clone();
        self.at += 1;
        match token {
            Token::Str(text) => Some((Val::Str(text), Vec::new())),
            Token::Num(number) => Some((Val::Num(number), Vec::new())),
            Token::Op("(") => {
                let value = self.or()?;
                self.eat_op(")").then_some((value, Vec::new()))
            }
            Token::Op(_) => None,
            Token::Ident(name) => {
                let lower = name.to_ascii_lowercase();
                match lower.as_str() {
                    "true" => return Some((Val::Bool(true), Vec::new())),
                    "false" => return Some((Val::Bool(false), Vec::new())),
                    "null" => return Some((Val::Null, Vec::new())),
                    _ => {}
                }
                if self.eat_op("(") {
                    let mut arguments = Vec::new();
                    if !self.eat_op(")") {
                        loop {
                            arguments.push(self.or()?);
                            if self.eat_op(")") {
                                break;
                            }
                            if !self.eat_op(",") {
                                return None;
                            }
                        }
                    }
                    return Some((call(&lower, &arguments), Vec::new()));
                }
                let path = vec![lower];
                let value = self.context(&path).unwrap_or(Val::Unknown(Source::Other));
                Some((value, path))
            }
        }
    }
}

fn unknown_of(value: &Val) -> Val {
    Val::Unknown(value.unknown().unwrap_or(Source::Other))
}

fn equal(left: &Val, right: &Val) -> bool {
    match (left, right) {
        (Val::Str(a), Val::Str(b)) => a.eq_ignore_ascii_case(b),
        (Val::Null, Val::Null) => true,
        (Val::Bool(a), Val::Bool(b)) => a == b,
        (Val::Json(a), Val::Json(b)) => a == b,
        (Val::Json(_), _) | (_, Val::Json(_)) => false,
        _ => left.number() == right.number(),
    }
}

/// The status functions as they are on a run that has not failed; string functions on known
/// strings; the rest unknown.
fn call(name: &str, arguments: &[Val]) -> Val {
    if let Some(source) = arguments.iter().filter_map(Val::unknown).max() {
        if matches!(name, "always" | "success" | "failure" | "cancelled") {
            return Val::Bool(matches!(name, "always" | "success"));
        }
        return Val::Unknown(source);
    }
    let text = |index: usize| match arguments.get(index) {
        Some(Val::Str(text)) => Some(text.to_lowercase()),
        Some(Val::Num(number)) => Some(number.to_string()),
        Some(Val::Bool(flag)) => Some(flag.to_string()),
        Some(Val::Null) => Some(String::new()),
        _ => None,
    };
    match name {
        "always" | "success" => Val::Bool(true),
        "failure" | "cancelled" => Val::Bool(false),
        "startswith" | "endswith" => match (text(0), text(1)) {
            (Some(a), Some(b)) => Val::Bool(if name == "startswith" {
                a.starts_with(&b)
            } else {
                a.ends_with(&b)
            }),
            _ => Val::Unknown(Source::Other),
        },
        "contains" => match arguments.first() {
            Some(Val::Json(Value::Array(items))) => {
                let needle = arguments.get(1).cloned().unwrap_or(Val::Null);
                Val::Bool(
                    items
                        .iter()
                        .any(|item| equal(&Val::from_json(item), &needle)),
                )
            }
            _ => match (text(0), text(1)) {
                (Some(a), Some(b)) => Val::Bool(a.contains(&b)),
                _ => Val::Unknown(Source::Other),
            },
        },
        "fromjson" => match arguments.first() {
            Some(Val::Str(text)) => serde_json::from_str::<Value>(text)
                .map_or(Val::Unknown(Source::Other), |value| Val::from_json(&value)),
            _ => Val::Unknown(Source::Other),
        },
        _ => Val::Unknown(Source::Other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pull_request(text: &str) -> Truth {
        truth(
            text,
            &Env {
                event: Some("pull_request"),
                matrix: None,
            },
        )
    }

    #[test]
    fn events_and_refs_of_a_pull_request() {
        assert_eq!(pull_request("github.event_name == 'push'"), Truth::No);
        assert_eq!(
            pull_request("${{ github.event_name != 'pull_request' }}"),
            Truth::No
        );
        assert_eq!(pull_request("github.ref == 'refs/heads/main'"), Truth::No);
        assert_eq!(
            pull_request("startsWith(github.ref, 'refs/tags/')"),
            Truth::No
        );
        assert_eq!(pull_request("${{ !cancelled() }}"), Truth::Yes);
        assert_eq!(
            pull_request(
                "always() && (github.event_name == 'pull_request' || github.ref == 'refs/heads/main')"
            ),
            Truth::Yes
        );
        assert_eq!(pull_request("success() && false"), Truth::No);
    }

    #[test]
    fn unknowns_and_what_the_author_controls() {
        assert_eq!(
            pull_request("!startsWith(github.head_ref, 'fix/')"),
            Truth::Unknown(Source::Author)
        );
        assert_eq!(
            pull_request("!contains(github.event.pull_request.labels.*.name, 'skip-tests')"),
            Truth::Unknown(Source::Author)
        );
        assert_eq!(
            pull_request("steps.changes.outputs.src == 'true'"),
            Truth::Unknown(Source::Other)
        );
        assert_eq!(
            pull_request("github.event.pull_request.draft == false"),
            Truth::Unknown(Source::Other)
        );
        assert_eq!(
            pull_request("github.repository == 'o/r' || github.event_name == 'pull_request'"),
            Truth::Yes
        );
        assert_eq!(
            pull_request("env.X == '1' && github.event_name == 'push'"),
            Truth::No
        );
        assert_eq!(
            pull_request("${{ a }} && ${{ b }}"),
            Truth::Unknown(Source::Other)
        );
        assert_eq!(pull_request("(("), Truth::Unknown(Source::Other));
    }

    #[test]
    fn matrix_values() {
        let matrix: Map<String, Value> =
            serde_json::from_str(r#"{"python": "3.12", "experimental": true, "n": 2}"#).unwrap();
        let env = Env {
            event: None,
            matrix: Some(&matrix),
        };
        assert_eq!(truth("matrix.python != '3.12'", &env), Truth::No);
        assert_eq!(truth("${{ matrix.experimental }}", &env), Truth::Yes);
        assert_eq!(truth("${{ matrix.missing }}", &env), Truth::No);
        assert_eq!(truth("matrix['python'] == '3.12'", &env), Truth::Yes);
        assert_eq!(truth("matrix.n >= 2 && matrix.n < 3", &env), Truth::Yes);
        assert_eq!(
            truth(
                "contains(fromJSON('[\"3.11\", \"3.12\"]'), matrix.python)",
                &env
            ),
            Truth::Yes
        );
    }
}
