//! A tiny three-valued evaluator for skip conditions: `skipif(True)`, `skipIf(1 === 1)`,
//! `{ skip: !false }`, `#[cfg(any())]`. It answers only what is constant; anything that depends
//! on the environment (a platform check, a feature flag, a variable) is `Unknown`.

use crate::lang::Language;

/// The value of a condition, when it can be known without running anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    /// Always true.
    True,
    /// Always false.
    False,
    /// Depends on something only known at run time.
    Unknown,
}

impl Truth {
    fn not(self) -> Truth {
        match self {
            Truth::True => Truth::False,
            Truth::False => Truth::True,
            Truth::Unknown => Truth::Unknown,
        }
    }

    fn from_bool(value: bool) -> Truth {
        if value { Truth::True } else { Truth::False }
    }
}

/// Rust cfg names that nobody sets, used by hand to compile code out (`#[cfg(FALSE)]`).
const NEVER_SET_CFGS: &[&str] = &[
    "FALSE", "never", "disabled", "disable", "skip", "ignore", "ignored", "broken", "off", "none",
    "todo", "nope", "dead", "NEVER", "DISABLED",
];

/// Evaluates `text` as a condition in `language`'s syntax.
pub fn evaluate(text: &str, language: Language) -> Truth {
    // A JS arrow function passed as a condition (playwright fixtures): judge what it returns.
    let text = match text.split_once("=>") {
        Some((_, body)) if language != Language::Rust && language != Language::Python => body,
        _ => text,
    };
    let tokens = tokenize(text);
    let mut parser = Parser {
        tokens: &tokens,
        position: 0,
        language,
        depth: 0,
    };
    let value = parser.or();
    if parser.position == tokens.len() {
        value
    } else {
        Truth::Unknown
    }
}

/// Environment variables that CI services set (the gate itself runs where they are set).
const CI_VARIABLES: &str = "CI|GITHUB_ACTIONS|CONTINUOUS_INTEGRATION|GITLAB_CI|BUILDKITE|CIRCLECI|TRAVIS|TF_BUILD|JENKINS_URL|JENKINS_HOME|TEAMCITY_VERSION|DRONE|APPVEYOR|BITBUCKET_BUILD_NUMBER|CODEBUILD_BUILD_ID|GITHUB_RUN_ID";

/// The condition's value on a CI machine, when it reads whether it runs on CI
/// (`process.env.CI`, `os.environ.get("CI")`, `"CI" in os.environ`, `isCI`, Rust `cfg(ci)`);
/// `None` when it does not mention CI. A skip true exactly there never runs where the gate
/// runs: no platform condition but a skip of the checks themselves.
pub fn on_ci(text: &str, language: Language) -> Option<Truth> {
    use regex::Regex;
    use std::sync::OnceLock;
    type Rules = Vec<(Regex, &'static str)>;
    static JS: OnceLock<Rules> = OnceLock::new();
    static PYTHON: OnceLock<Rules> = OnceLock::new();
    static RUST: OnceLock<Rules> = OnceLock::new();
    let build = |rules: &[(String, &'static str)]| -> Rules {
        rules
            .iter()
            .filter_map(|(pattern, with)| Some((Regex::new(pattern).ok()?, *with)))
            .collect()
    };
    let vars = CI_VARIABLES;
    let flags = r"\b(?:isCI|isCi|IS_CI|ON_CI|IN_CI|RUNNING_IN_CI|RUNNING_ON_CI|RUNNING_ON_CI|CI)\b";
    let rules = match language {
        Language::JavaScript | Language::TypeScript | Language::Tsx => JS.get_or_init(|| {
            build(&[
                (
                    format!(r#"(?:process\.env|Bun\.env|import\.meta\.env)(?:\.(?:{vars})\b|\[\s*['"`](?:{vars})['"`]\s*\])"#),
                    "'true'",
                ),
                (format!(r#"Deno\.env\.get\(\s*['"`](?:{vars})['"`]\s*\)"#), "'true'"),
                (r"\b(?:ci|isCi)\.isCI\b".to_string(), "true"),
                (flags.to_string(), "true"),
                (r"\bBoolean\(\s*'true'\s*\)".to_string(), "true"),
            ])
        }),
        Language::Python => PYTHON.get_or_init(|| {
            build(&[
                (
                    format!(r#"['"](?:{vars})['"]\s+not\s+in\s+(?:os\.)?environ\b"#),
                    "False",
                ),
                (format!(r#"['"](?:{vars})['"]\s+in\s+(?:os\.)?environ\b"#), "True"),
                (
                    format!(r#"(?:os\.)?(?:environ\.get|getenv)\(\s*['"](?:{vars})['"][^()]*\)"#),
                    "'true'",
                ),
                (format!(r#"(?:os\.)?environ\[\s*['"](?:{vars})['"]\s*\]"#), "'true'"),
                (flags.to_string(), "True"),
                (r"\bbool\(\s*'true'\s*\)".to_string(), "True"),
                (r"\s+is\s+not\s+".to_string(), " != "),
                (r"\s+is\s+".to_string(), " == "),
            ])
        }),
        Language::Rust => RUST.get_or_init(|| {
            build(&[
                (r#"\bfeature\s*=\s*"ci""#.to_string(), "all()"),
                (r"\b(?:ci|CI|github_actions)\b".to_string(), "all()"),
            ])
        }),
    };
    let mut rewritten = text.to_string();
    let mut mentions = false;
    for (pattern, with) in rules {
        // `is`/`is not` only make the rewritten comparisons readable; alone they say nothing.
        let rewrites_ci = !with.starts_with(' ');
        let next = pattern.replace_all(&rewritten, *with).into_owned();
        if next != rewritten && rewrites_ci {
            mentions = true;
        }
        rewritten = next;
    }
    mentions.then(|| evaluate(&rewritten, language))
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    Number(f64),
    Str(String),
    Op(&'static str),
    Opaque,
}

fn tokenize(text: &str) -> Vec<Token> {
    const OPERATORS: &[&str] = &[
        "===", "!==", "=>", "==", "!=", "&&", "||", "!", "(", ")", ",", "=", "{", "}",
    ];
    let mut tokens = Vec::new();
    let mut rest = text.trim();
    while let Some(first) = rest.chars().next() {
        if first.is_whitespace() {
            rest = rest.trim_start();
            continue;
        }
        if let Some(op) = OPERATORS.iter().find(|op| rest.starts_with(**op)) {
            tokens.push(Token::Op(op));
            rest = &rest[op.len()..];
            continue;
        }
        if first == '"' || first == '\'' || first == '`' {
            let body = &rest[1..];
            match body.find(first) {
                Some(end) => {
                    tokens.push(Token::Str(body[..end].to_string()));
                    rest = &body[end + 1..];
                }
                None => {
                    tokens.push(Token::Opaque);
                    rest = "";
                }
            }
            continue;
        }
        let word_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$'))
            .unwrap_or(rest.len());
        if word_len == 0 {
            tokens.push(Token::Opaque);
            rest = &rest[first.len_utf8()..];
            continue;
        }
        let word = &rest[..word_len];
        match word.parse::<f64>() {
            Ok(number) => tokens.push(Token::Number(number)),
            Err(_) => tokens.push(Token::Word(word.to_string())),
        }
        rest = &rest[word_len..];
    }
    tokens
}

struct Parser<'t> {
    tokens: &'t [Token],
    position: usize,
    language: Language,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.position)
    }

    fn eat_op(&mut self, ops: &[&str]) -> bool {
        match self.peek() {
            Some(Token::Op(op)) if ops.contains(op) => {
                self.position += 1;
                true
            }
            Some(Token::Word(word)) if ops.contains(&word.as_str()) => {
                self.position += 1;
                true
            }
            _ => false,
        }
    }

    fn or(&mut self) -> Truth {
        let mut value = self.and();
        while self.eat_op(&["||", "or"]) {
            let right = self.and();
            value = match (value, right) {
                (Truth::True, _) | (_, Truth::True) => Truth::True,
                (Truth::False, Truth::False) => Truth::False,
                _ => Truth::Unknown,
            };
        }
        value
    }

    fn and(&mut self) -> Truth {
        let mut value = self.unary();
        while self.eat_op(&["&&", "and"]) {
            let right = self.unary();
            value = match (value, right) {
                (Truth::False, _) | (_, Truth::False) => Truth::False,
                (Truth::True, Truth::True) => Truth::True,
                _ => Truth::Unknown,
            };
        }
        value
    }

    fn unary(&mut self) -> Truth {
        self.depth += 1;
        if self.depth > 64 {
            self.position = self.tokens.len() + 1;
            return Truth::Unknown;
        }
        let value = if self.eat_op(&["!", "not"]) {
            self.unary().not()
        } else {
            self.comparison()
        };
        self.depth -= 1;
        value
    }

    fn comparison(&mut self) -> Truth {
        let start = self.position;
        let left = self.primary();
        let left_tokens = self.tokens[start..self.position.min(self.tokens.len())].to_vec();
        let equal = if self.eat_op(&["==", "==="]) {
            true
        } else if self.eat_op(&["!=", "!=="]) {
            false
        } else {
            return left.truth;
        };
        let right_start = self.position;
        let right = self.primary();
        let right_tokens = &self.tokens[right_start..self.position.min(self.tokens.len())];
        let same = match (&left.literal, &right.literal) {
            (Some(a), Some(b)) => Some(a == b),
            _ if !left_tokens.is_empty() && left_tokens == right_tokens => Some(true),
            _ => None,
        };
        match same {
            Some(same) => Truth::from_bool(same == equal),
            None => Truth::Unknown,
        }
    }

    fn primary(&mut self) -> Value {
        let Some(token) = self.peek().cloned() else {
            return Value::unknown();
        };
        self.position += 1;
        match token {
            Token::Number(number) => {
                Value::literal(Truth::from_bool(number != 0.0), number.to_string())
            }
            Token::Str(text) => {
                let truth = match self.language {
                    // pytest evaluates string conditions as Python expressions.
                    Language::Python if !text.is_empty() => evaluate(&text, Language::Python),
                    _ => Truth::from_bool(!text.is_empty()),
                };
                Value::literal(truth, format!("{text:?}"))
            }
            Token::Op("(") => {
                let value = self.or();
                if !self.eat_op(&[")"]) {
                    self.position = self.tokens.len() + 1;
                }
                Value {
                    truth: value,
                    literal: None,
                }
            }
            Token::Op("{") => {
                // An object literal or a block: not a constant we can judge.
                self.position = self.tokens.len() + 1;
                Value::unknown()
            }
            Token::Word(word) => self.word(&word),
            Token::Op(_) | Token::Opaque => {
                self.position = self.tokens.len() + 1;
                Value::unknown()
            }
        }
    }

    fn word(&mut self, word: &str) -> Value {
        // Rust cfg predicates: any(..), all(..), not(..).
        if self.language == Language::Rust && matches!(self.peek(), Some(Token::Op("("))) {
            self.position += 1;
            let mut values = Vec::new();
            while !self.eat_op(&[")"]) {
                if self.position >= self.tokens.len() {
                    return Value::unknown();
                }
                values.push(self.cfg_item());
                self.eat_op(&[","]);
            }
            let truth = match word {
                "any" => fold_any(&values),
                "all" => fold_all(&values),
                "not" if values.len() == 1 => values[0].not(),
                _ => Truth::Unknown,
            };
            return Value {
                truth,
                literal: None,
            };
        }
        // A call such as `check()` or `os.getenv("CI")`: its value is only known at run time.
        if matches!(self.peek(), Some(Token::Op("("))) {
            let mut depth = 0usize;
            while let Some(token) = self.peek().cloned() {
                self.position += 1;
                match token {
                    Token::Op("(") => depth += 1,
                    Token::Op(")") => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            return Value::unknown();
        }
        let constant = match (self.language, word) {
            (Language::Python, "True") => Some((Truth::True, "True")),
            (Language::Python, "False" | "None") => Some((Truth::False, "False")),
            (Language::Rust, _) if NEVER_SET_CFGS.contains(&word) => Some((Truth::False, "never")),
            (_, "true") => Some((Truth::True, "true")),
            (_, "false" | "null" | "undefined" | "NaN") => Some((Truth::False, "false")),
            _ => None,
        };
        match constant {
            Some((truth, literal)) => Value::literal(truth, literal.to_string()),
            None => Value::unknown(),
        }
    }

    /// One item inside `any(..)`/`all(..)`: a nested predicate, `name`, or `name = "value"`.
    fn cfg_item(&mut self) -> Truth {
        let value = self.primary();
        if self.eat_op(&["="]) {
            self.primary();
            return Truth::Unknown;
        }
        value.truth
    }
}

fn fold_any(values: &[Truth]) -> Truth {
    if values.contains(&Truth::True) {
        Truth::True
    } else if values.iter().all(|value| *value == Truth::False) {
        Truth::False
    } else {
        Truth::Unknown
    }
}

fn fold_all(values: &[Truth]) -> Truth {
    if values.contains(&Truth::False) {
        Truth::False
    } else if values.iter().all(|value| *value == Truth::True) {
        Truth::True
    } else {
        Truth::Unknown
    }
}

struct Value {
    truth: Truth,
    literal: Option<String>,
}

impl Value {
    fn unknown() -> Value {
        Value {
            truth: Truth::Unknown,
            literal: None,
        }
    }

    fn literal(truth: Truth, text: String) -> Value {
        Value {
            truth,
            literal: Some(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Language::{JavaScript as Js, Python as Py, Rust as Rs};

    #[test]
    fn python_constants() {
        assert_eq!(evaluate("True", Py), Truth::True);
        assert_eq!(evaluate("1", Py), Truth::True);
        assert_eq!(evaluate("not False", Py), Truth::True);
        assert_eq!(evaluate("1 == 1", Py), Truth::True);
        assert_eq!(evaluate("\"True\"", Py), Truth::True);
        assert_eq!(evaluate("True or sys.platform == 'win32'", Py), Truth::True);
        assert_eq!(evaluate("x == x", Py), Truth::True);
        assert_eq!(evaluate("False", Py), Truth::False);
        assert_eq!(evaluate("0", Py), Truth::False);
        assert_eq!(evaluate("False and check()", Py), Truth::False);
    }

    #[test]
    fn python_runtime_conditions_are_unknown() {
        assert_eq!(evaluate("sys.platform == 'win32'", Py), Truth::Unknown);
        assert_eq!(evaluate("sys.version_info < (3, 10)", Py), Truth::Unknown);
        assert_eq!(evaluate("\"sys.platform == 'win32'\"", Py), Truth::Unknown);
        assert_eq!(evaluate("not HAS_NUMPY", Py), Truth::Unknown);
        assert_eq!(evaluate("", Py), Truth::Unknown);
        assert_eq!(evaluate("reason='x'", Py), Truth::Unknown);
    }

    #[test]
    fn javascript_constants() {
        assert_eq!(evaluate("true", Js), Truth::True);
        assert_eq!(evaluate("!false", Js), Truth::True);
        assert_eq!(evaluate("!!1", Js), Truth::True);
        assert_eq!(evaluate("1 === 1", Js), Truth::True);
        assert_eq!(evaluate("'flaky on CI'", Js), Truth::True);
        assert_eq!(evaluate("() => true", Js), Truth::True);
        assert_eq!(evaluate("false", Js), Truth::False);
        assert_eq!(evaluate("process.platform === 'win32'", Js), Truth::Unknown);
        assert_eq!(
            evaluate("({ browserName }) => browserName === 'firefox'", Js),
            Truth::Unknown
        );
        assert_eq!(evaluate("isCI", Js), Truth::Unknown);
    }

    #[test]
    fn rust_cfg_predicates() {
        assert_eq!(evaluate("(any())", Rs), Truth::False);
        assert_eq!(evaluate("(FALSE)", Rs), Truth::False);
        assert_eq!(evaluate("(false)", Rs), Truth::False);
        assert_eq!(evaluate("(not(all()))", Rs), Truth::False);
        assert_eq!(evaluate("(all(test, any()))", Rs), Truth::False);
        assert_eq!(evaluate("(test)", Rs), Truth::Unknown);
        assert_eq!(evaluate("(feature = \"slow\")", Rs), Truth::Unknown);
        assert_eq!(evaluate("(all(unix, feature = \"x\"))", Rs), Truth::Unknown);
        assert_eq!(evaluate("(target_os = \"linux\")", Rs), Truth::Unknown);
    }

    #[test]
    fn conditions_read_on_ci() {
        use Language::{JavaScript as Js, Python as Py, Rust as Rs};
        for (text, language) in [
            ("process.env.CI", Js),
            ("!!process.env.CI", Js),
            ("process.env['GITHUB_ACTIONS'] === 'true'", Js),
            ("process.env.CI !== undefined", Js),
            ("isCI", Js),
            ("os.environ.get(\"CI\")", Py),
            ("\"CI\" in os.environ", Py),
            ("os.getenv('GITHUB_ACTIONS') == 'true'", Py),
            ("os.environ.get('CI') is not None", Py),
            ("bool(os.environ.get(\"CI\"))", Py),
            ("ci", Rs),
            ("any(ci, feature = \"slow\")", Rs),
        ] {
            assert_eq!(on_ci(text, language), Some(Truth::True), "{text}");
        }
        for (text, language) in [
            ("!process.env.CI", Js),
            ("not os.environ.get('CI')", Py),
            ("\"CI\" not in os.environ", Py),
            ("not(ci)", Rs),
        ] {
            assert_eq!(on_ci(text, language), Some(Truth::False), "{text}");
        }
        for (text, language) in [
            ("process.platform === 'win32'", Js),
            ("sys.platform == 'win32'", Py),
            ("windows", Rs),
            ("process.env.CIRCUIT_MODE", Js),
        ] {
            assert_eq!(on_ci(text, language), None, "{text}");
        }
    }

    #[test]
    fn odd_input_never_panics() {
        for input in [
            "(((",
            ")",
            "!!!",
            "'unterminated",
            "any(",
            "=>",
            "==",
            "{a: 1}",
            "ü ö",
        ] {
            for language in Language::ALL {
                let _ = evaluate(input, language);
            }
        }
        let deep = "(".repeat(10_000);
        assert_eq!(evaluate(&deep, Py), Truth::Unknown);
        let nots = "not ".repeat(10_000) + "True";
        assert_eq!(evaluate(&nots, Py), Truth::Unknown);
    }
}
