//! Secrets written in pieces, so that no one literal looks like a token: `"sk_live_" + "…"`,
//! adjacent literals (`"AKIA" "…"` in Python), a template of literal parts
//! (`` `ghp_${"…"}${"…"}` ``) and a literal array joined (`["xoxb", "…"].join("-")`).
//! The pieces are put back together per line; the scanner then reads the whole value.

/// At most this many values per line (a generated table stays cheap).
const MAX_VALUES: usize = 16;
/// Lines longer than this are not taken apart.
const MAX_LINE: usize = 4096;

/// The values a line assembles from two or more string literals.
pub fn assembled_values(line: &str) -> Vec<String> {
    if line.len() > MAX_LINE || !line.contains(['"', '\'', '`']) {
        return Vec::new();
    }
    let tokens = tokenize(line);
    let mut values = Vec::new();
    let mut index = 0;
    while index < tokens.len() && values.len() < MAX_VALUES {
        match &tokens[index] {
            Token::Literal(first) => {
                // "a" + "b" + 'c', or "a" "b": a run of literals joined by `+` or nothing.
                let mut value = first.clone();
                let mut pieces = 1;
                let mut next = index + 1;
                loop {
                    match (tokens.get(next), tokens.get(next + 1)) {
                        (Some(Token::Plus), Some(Token::Literal(piece))) => {
                            value.push_str(piece);
                            pieces += 1;
                            next += 2;
                        }
                        (Some(Token::Literal(piece)), _) => {
                            value.push_str(piece);
                            pieces += 1;
                            next += 1;
                        }
                        _ => break,
                    }
                }
                if pieces > 1 {
                    values.push(value);
                }
                index = next;
            }
            Token::Template(value) => {
                values.push(value.clone());
                index += 1;
            }
            Token::Open => {
                // ["a", "b"].join("-")
                let mut parts = Vec::new();
                let mut next = index + 1;
                while let Some(Token::Literal(piece)) = tokens.get(next) {
                    parts.push(piece.clone());
                    next += 1;
                    match tokens.get(next) {
                        Some(Token::Comma) => next += 1,
                        _ => break,
                    }
                }
                if let (Some(Token::Close), Some(Token::Join(separator))) =
                    (tokens.get(next), tokens.get(next + 1))
                    && parts.len() > 1
                {
                    values.push(parts.join(separator));
                    index = next + 2;
                } else {
                    index += 1;
                }
            }
            _ => index += 1,
        }
    }
    values
}

#[derive(Debug)]
enum Token {
    Literal(String),
    /// A template whose interpolations are all string literals, with them filled in.
    Template(String),
    Plus,
    Comma,
    Open,
    Close,
    /// `.join("sep")`
    Join(String),
    Other,
}

fn tokenize(line: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c.is_whitespace() {
            rest = rest.trim_start();
            continue;
        }
        if let Some(after) = rest.strip_prefix(".join(")
            && let Some((separator, tail)) = quoted(after)
            && let Some(tail) = tail.trim_start().strip_prefix(')')
        {
            tokens.push(Token::Join(separator));
            rest = tail;
            continue;
        }
        match c {
            '"' | '\'' => match quoted(rest) {
                Some((value, tail)) => {
                    tokens.push(Token::Literal(value));
                    rest = tail;
                }
                None => return tokens,
            },
            '`' => match template(rest) {
                Some((value, tail)) => {
                    tokens.push(value.map_or(Token::Other, Token::Template));
                    rest = tail;
                }
                None => return tokens,
            },
            '+' => {
                tokens.push(Token::Plus);
                rest = &rest[1..];
            }
            ',' => {
                tokens.push(Token::Comma);
                rest = &rest[1..];
            }
            '[' => {
                tokens.push(Token::Open);
                rest = &rest[1..];
            }
            ']' => {
                tokens.push(Token::Close);
                rest = &rest[1..];
            }
            _ => {
                let end = rest
                    .char_indices()
                    .find(|(_, c)| "\"'`+,[] \t".contains(*c) || rest.starts_with(".join("))
                    .map_or(rest.len(), |(at, _)| at.max(c.len_utf8()));
                tokens.push(Token::Other);
                rest = &rest[end..];
            }
        }
    }
    tokens
}

/// A `"…"` or `'…'` literal at the start of `text`: its content and what follows.
fn quoted(text: &str) -> Option<(String, &str)> {
    let quote = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let mut value = String::new();
    let mut chars = text[1..].char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                let (_, escaped) = chars.next()?;
                value.push(escaped);
            }
            c if c == quote => return Some((value, &text[1 + at + 1..])),
            c => value.push(c),
        }
    }
    None
}

/// A template literal at the start of `text`: its value when it has interpolations and every
/// one is a string literal (`${"x"}`), else `None`; and what follows.
fn template(text: &str) -> Option<(Option<String>, &str)> {
    let body = &text[1..];
    let end = body.find('`')?;
    let (inner, tail) = (&body[..end], &body[end + 1..]);
    let mut value = String::new();
    let mut rest = inner;
    let mut interpolations = 0;
    let mut literal_only = true;
    while let Some(start) = rest.find("${") {
        value.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let close = after.find('}')?;
        match quoted(after[..close].trim()) {
            Some((piece, remainder)) if remainder.trim().is_empty() => value.push_str(&piece),
            _ => literal_only = false,
        }
        interpolations += 1;
        rest = &after[close + 1..];
    }
    value.push_str(rest);
    Some(((literal_only && interpolations > 0).then_some(value), tail))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puts_literal_pieces_back_together() {
        assert_eq!(
            assembled_values(r#"const k = "sk_live_" + "abc" + 'def';"#),
            vec!["sk_live_abcdef"]
        );
        assert_eq!(assembled_values(r#"KEY = "AKIA" "Q3EG""#), vec!["AKIAQ3EG"]);
        assert_eq!(
            assembled_values(r#"const t = `ghp_${"ab"}${'cd'}`;"#),
            vec!["ghp_abcd"]
        );
        assert_eq!(
            assembled_values(r#"const s = ["xoxb", "12", "ab"].join("-");"#),
            vec!["xoxb-12-ab"]
        );
    }

    #[test]
    fn leaves_single_literals_and_runtime_parts_alone() {
        assert!(assembled_values(r#"const k = "sk_live_abc";"#).is_empty());
        assert!(assembled_values(r#"const k = "Bearer " + token;"#).is_empty());
        assert!(assembled_values(r#"const u = `${base}/v1`;"#).is_empty());
        assert!(assembled_values(r#"f("a", "b")"#).is_empty());
        assert!(assembled_values(r#"const s = "unterminated"#).is_empty());
    }
}
