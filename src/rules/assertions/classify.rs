//! Reading an assertion's strength, family and tolerance from its text, per language.

use super::{Assertion, Family};
use crate::lang::Language;
use crate::rules::inventory::squash;

pub fn classify(snippet: &str, kind: &str, language: Language, line: u32) -> Assertion {
    let norm = squash(snippet);
    let first = snippet.lines().next().unwrap_or_default().trim();
    // A check written over several lines is shown by its ends: `expect(() => {` alone says
    // nothing of what is expected.
    let last = snippet
        .lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty());
    let shown = match last {
        Some(last) if snippet.trim().contains('\n') && last != first => format!("{first} … {last}"),
        _ => first.to_string(),
    };
    let mut assertion = Assertion {
        first_line: shown,
        norm: norm.clone(),
        family: Family::Check,
        strength: 2,
        tolerance: tolerance(&norm),
        count: None,
        debug_only: false,
        dead: false,
        arm: None,
        via: Vec::new(),
        known_failure: false,
        line,
    };
    match (language, kind) {
        // A helper named for membership (testfixtures' `log.check_present(..)`,
        // `assert_contains(..)`) checks that something is among others, like `assert x in y`.
        // (Python only: there `assert x in y` is the membership check it compares with.)
        (Language::Python, "helper")
            if membership_helper(norm.split('(').next().unwrap_or_default()) =>
        {
            assertion.strength = 1;
        }
        (_, "helper") => {}
        (_, "count") => {
            assertion.family = Family::Count;
            assertion.count = between(&norm, "(", ")").and_then(|n| n.parse().ok());
        }
        (_, "context") => context(&norm, &mut assertion),
        (Language::Python, _) => python(&norm, snippet, kind, &mut assertion),
        (Language::Rust, _) => rust(&norm, kind, &mut assertion),
        _ => javascript(&norm, kind, &mut assertion),
    }
    assertion
}

/// The text between the first `open` and the matching close (or the last `close`).
fn between<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    let start = text.find(open)? + open.len();
    let end = text.rfind(close)?;
    text.get(start..end)
}

/// Index of the `)` closing the text that follows an already-consumed `(`.
fn closing(rest: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for (index, c) in rest.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')') if depth == 0 => return Some(index),
            (None, ')' | ']' | '}') => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The last `.member(..)` of a chain, at bracket depth 0: `toBeCloseTo(0.3,5)`.
fn last_member(chain: &str) -> &str {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut last = None;
    for (index, c) in chain.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, '.') if depth == 0 => last = Some(index + 1),
            _ => {}
        }
    }
    last.and_then(|start| chain.get(start..)).unwrap_or(chain)
}

/// Splits at top-level commas (outside brackets and strings).
fn top_level_args(args: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (index, c) in args.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(&args[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    if start < args.len() {
        out.push(&args[start..]);
    }
    out
}

fn is_literal(text: &str) -> bool {
    let text = text.trim_start_matches('!').trim_start_matches("not");
    matches!(
        text,
        "True" | "False" | "None" | "true" | "false" | "null" | "undefined" | "1" | "0"
    ) || text.parse::<f64>().is_ok()
        || (text.len() >= 2
            && (text.starts_with('"') || text.starts_with('\''))
            && text.ends_with(text.chars().next().unwrap_or('"')))
}

/// The truth value of a literal condition (`True`, `!false`, `not None`, `1`, `"x"`), `None`
/// when the condition is not a literal. Only a literal that is true makes an assertion
/// trivially true: `assert False` / `assert!(false)` / `t.fail()` always fail where they are
/// reached, which is how tests pin "never reached".
pub(super) fn literal_truth(text: &str) -> Option<bool> {
    let mut text = text;
    let mut negated = false;
    loop {
        if let Some(rest) = text.strip_prefix('!') {
            text = rest;
        } else if let Some(rest) = text.strip_prefix("not").filter(|rest| is_literal(rest)) {
            text = rest;
        } else if let Some(rest) = text
            .strip_prefix('(')
            .and_then(|rest| rest.strip_suffix(')'))
        {
            text = rest;
            continue;
        } else {
            break;
        }
        negated = !negated;
    }
    if !is_literal(text) {
        return None;
    }
    let truth = match text {
        "True" | "true" => true,
        "False" | "false" | "None" | "null" | "undefined" => false,
        _ => match text.parse::<f64>() {
            Ok(number) => number != 0.0,
            // A quoted string: true unless empty.
            Err(_) => text.len() > 2,
        },
    };
    Some(truth != negated)
}

/// Strength of a boolean condition asserted true (`assert expr`, `assert!(expr)`,
/// `t.true(expr)`): 0 a true literal or both sides equal, 1 a truthiness or pins-nothing
/// check, 2 a comparison against something (or a false literal: "never reached").
fn condition_strength(expr: &str, raw_expr: &str) -> u8 {
    match literal_truth(expr) {
        Some(true) => return 0,
        Some(false) => return 2,
        None => {}
    }
    if same_sides(expr) {
        0
    } else if weak_comparison(expr)
        || membership_only(raw_expr)
        || expr.starts_with("isinstance(")
        || !COMPARISONS.iter().any(|op| raw_expr.contains(op))
    {
        1
    } else {
        2
    }
}

/// `"ann" in name`: membership pins less than equality (`"ann" in "joanna"` holds). A
/// comprehension (`any(x in m for m in out)`) and `not in` are left as they were.
fn membership_only(raw_expr: &str) -> bool {
    raw_expr.contains(" in ")
        && !raw_expr.contains(" not in ")
        && !raw_expr.contains(" for ")
        && !["==", "!=", "<", ">"]
            .iter()
            .any(|op| raw_expr.contains(op))
}

/// `a == a`, `a is a`: both sides of a comparison the same pure name.
fn same_sides(expr: &str) -> bool {
    ["===", "==", " is "].iter().any(|op| {
        expr.split_once(op)
            .is_some_and(|(left, right)| same_pure(left, right))
    })
}

/// Whether two operands are the same pure name or literal (`x`, `a.b[0]`, `"s"`), so comparing
/// them is trivially true. Two calls with the same text (`SecretStr('a') == SecretStr('a')`,
/// `new Foo(1)`, `Foo::new(1)`) build two values and check their equality: a real check.
fn same_pure(left: &str, right: &str) -> bool {
    !left.is_empty() && left == right && !left.contains('(')
}

/// A comparison that pins nothing: `x is not None`, `x != None`, `len(x) > 0`.
fn weak_comparison(expr: &str) -> bool {
    const NOTHING: &[&str] = &[
        "isnotNone",
        "!=None",
        "!==null",
        "!==undefined",
        "!=null",
        ">0",
        ">=0",
        "!=0",
        "!=\"\"",
        "!=''",
        "!=[]",
        "!={}",
    ];
    NOTHING.iter().any(|tail| expr.ends_with(tail))
}

/// Operators and calls that compare against something (on text with its spaces kept).
const COMPARISONS: &[&str] = &[
    "==",
    "!=",
    "<",
    ">",
    " in ",
    " is ",
    "matches!",
    "approx(",
    "isclose(",
    ".startswith(",
    ".endswith(",
    ".starts_with(",
    ".ends_with(",
    ".contains(",
];

fn python(norm: &str, raw: &str, kind: &str, assertion: &mut Assertion) {
    if kind == "raises" || norm.contains("assertRaises") || norm.contains("assertWarns") {
        assertion.family = Family::Raises;
        let args = between(norm, "(", ")").unwrap_or_default();
        let first = top_level_args(args).first().copied().unwrap_or_default();
        assertion.strength = if norm.contains("match=") || norm.contains("Regex(") {
            3
        } else if matches!(first, "" | "Exception" | "BaseException") {
            1
        } else {
            2
        };
        return;
    }
    if let Some(expr) = norm.strip_prefix("assert") {
        // `assert expr, "message"`: the message does not make it stronger.
        let expr = top_level_args(expr).first().copied().unwrap_or_default();
        let raw = raw.trim_start().strip_prefix("assert").unwrap_or(raw);
        let raw_expr = top_level_args(raw).first().copied().unwrap_or_default();
        assertion.strength = condition_strength(expr, raw_expr);
        return;
    }
    // unittest methods.
    let args = between(norm, "(", ")").unwrap_or_default();
    let parts = top_level_args(args);
    let method = norm
        .split('(')
        .next()
        .unwrap_or_default()
        .trim_start_matches("self.");
    assertion.strength = match method {
        "assertTrue" if parts.first().and_then(|p| literal_truth(p)) == Some(true) => 0,
        "assertFalse" if parts.first().and_then(|p| literal_truth(p)) == Some(false) => 0,
        "assertEqual" | "assertEquals" | "assertIs"
            if parts.len() >= 2 && same_pure(parts[0], parts[1]) =>
        {
            0
        }
        // `assertTrue(cond)` is `assert cond`: as strong as its condition
        // (`assertTrue(any("x" in m for m in out))` compares, `assertTrue(x)` is truthiness).
        "assertTrue" => {
            let raw_args = raw
                .find('(')
                .and_then(|start| {
                    let rest = &raw[start + 1..];
                    rest.get(..closing(rest)?)
                })
                .unwrap_or_default();
            let raw_first = top_level_args(raw_args)
                .first()
                .copied()
                .unwrap_or_default();
            condition_strength(parts.first().copied().unwrap_or_default(), raw_first)
        }
        "assertFalse" | "assertIsNotNone" | "assertIsInstance" | "assert_" | "assertIn" => 1,
        _ => 2,
    };
    if method.starts_with("assertAlmostEqual") {
        assertion.tolerance = keyword(norm, "delta=")
            .or_else(|| keyword(norm, "places=").map(|places| 10f64.powf(-places)))
            .or(Some(1e-7));
    }
}

/// A helper whose name says it checks membership: `check_present`, `assert_contains`,
/// `assert_in` (the last name of a dotted call).
fn membership_helper(method: &str) -> bool {
    let name = method.rsplit('.').next().unwrap_or(method);
    ["_present", "_contains", "_in"]
        .iter()
        .any(|suffix| name.ends_with(suffix))
}

fn javascript(norm: &str, kind: &str, assertion: &mut Assertion) {
    if kind == "assert" {
        let method = norm.split('(').next().unwrap_or_default();
        let args = between(norm, "(", ")").unwrap_or_default();
        let parts = top_level_args(args);
        assertion.strength = match method {
            "assert" | "assert.ok" | "expect.assert"
                if parts.first().and_then(|p| literal_truth(p)) == Some(true) =>
            {
                0
            }
            "assert" | "assert.ok" | "expect.assert" | "assert.isOk" | "assert.exists"
            | "assert.isDefined" => 1,
            "assert.throws" | "assert.rejects" => {
                assertion.family = Family::Raises;
                parts.get(1).map_or(1, |expected| raise_strength(expected))
            }
            _ if parts.len() >= 2 && same_pure(parts[0], parts[1]) => 0,
            _ => 2,
        };
        return;
    }
    // jest/vitest matcher aliases read as their canonical name, so a rename pairs exactly.
    for (alias, canonical) in MATCHER_ALIASES {
        let (alias, canonical) = (format!(".{alias}("), format!(".{canonical}("));
        if assertion.norm.contains(&alias) {
            assertion.norm = assertion.norm.replace(&alias, &canonical);
        }
    }
    let norm = assertion.norm.clone();
    let norm = norm.as_str();
    // expect(subject).…matcher(args)
    let chain = norm.strip_prefix("await").unwrap_or(norm);
    let subject = chain
        .strip_prefix("expect(")
        .and_then(|rest| rest.get(..closing(rest)?))
        .map(|inside| top_level_args(inside).first().copied().unwrap_or_default())
        .unwrap_or_default();
    let matcher_call = last_member(chain);
    let matcher = matcher_call.split('(').next().unwrap_or_default();
    let args = matcher_call
        .split_once('(')
        .map(|(_, rest)| rest.strip_suffix(')').unwrap_or(rest))
        .unwrap_or_default();
    let negated = norm.contains(".not.");
    // `await expect(p).rejects.toBe(error)`: the rejection pinned to the thrown object (or its
    // value) is a raise check, at least as strong as `rejects.toThrow('message')`.
    if chain.contains(".rejects.") && !negated {
        let pinned = match matcher {
            "toBe" | "toEqual" | "toStrictEqual" | "toMatchObject" | "toMatch"
            | "toHaveProperty"
                if !args.is_empty() =>
            {
                Some(3)
            }
            "toBeInstanceOf" => Some(2),
            _ => None,
        };
        if let Some(strength) = pinned {
            assertion.family = Family::Raises;
            assertion.strength = strength;
            return;
        }
    }
    if matches!(matcher, "toThrow" | "toThrowError" | "throw") {
        assertion.family = Family::Raises;
        assertion.strength = raise_strength(args);
        return;
    }
    if matcher == "toBeCloseTo" {
        let digits = top_level_args(args)
            .get(1)
            .and_then(|d| d.parse::<f64>().ok())
            .unwrap_or(2.0);
        assertion.tolerance = Some(10f64.powf(-digits) / 2.0);
    }
    let weak = matches!(
        matcher,
        "toBeTruthy"
            | "toBeFalsy"
            | "toBeDefined"
            | "toBeInstanceOf"
            | "ok"
            | "exist"
            | "toBeTrue"
            | "toBeFalse"
    ) || (matcher == "toHaveBeenCalled" && !negated)
        // An expected value that any value (or any object) matches: `toMatchObject({})`,
        // `toEqual(expect.anything())`, `toStrictEqual(expect.objectContaining({}))`.
        || (matches!(matcher, "toEqual" | "toStrictEqual" | "toMatchObject" | "toBe")
            && !negated
            && matches_anything(args, matcher))
        // Existence of a key only; `toHaveProperty(key, value)` pins the value.
        || (matcher == "toHaveProperty" && top_level_args(args).len() < 2)
        // Called with arguments of some type only: `toHaveBeenCalledWith(expect.any(Function))`.
        || (matcher.starts_with("toHaveBeen")
            && matcher.ends_with("CalledWith")
            && !args.is_empty()
            && top_level_args(args).iter().all(|arg| {
                arg.starts_with("expect.any(") || *arg == "expect.anything()"
            }))
        || (negated
            && matches!(
                matcher,
                "toBeNull" | "toBeUndefined" | "null" | "undefined" | "toBe" | "toEqual"
            ));
    // A literal subject is trivially true only under a built-in matcher: a custom matcher
    // (`expect('warning text').toHaveBeenWarned()`, any `expect.extend` one) checks something
    // the test cannot see.
    let trivial_subject = is_literal(subject) && BUILTIN_MATCHERS.contains(&matcher);
    assertion.strength = if trivial_subject || (!args.is_empty() && same_pure(subject, args)) {
        0
    } else if weak {
        1
    } else {
        2
    };
}

/// Whether an expected value passes for anything of its kind.
fn matches_anything(args: &str, matcher: &str) -> bool {
    matches!(
        args,
        "expect.anything()" | "expect.objectContaining({})" | "expect.arrayContaining([])"
    ) || args.starts_with("expect.any(")
        || (matcher == "toMatchObject" && args == "{}")
}

/// How much an expected-error argument pins (`toThrow(..)`, node's `assert.throws(fn, ..)`):
/// nothing or anything (1), a type or a value (2), a text: a message, a pattern or an error code
/// given literally, also inside `expect.objectContaining({message: ..})` or an options object
/// (3). `toThrow('bad')` and `assert.throws(f, /bad/)` pin the same.
fn raise_strength(expected: &str) -> u8 {
    let anything = expected.is_empty()
        || expected == "expect.anything()"
        || expected.contains("objectContaining({})")
        || expected == "{}";
    if anything {
        1
    } else if expected.contains(['"', '\'', '`'])
        || expected.starts_with('/')
        || expected.contains("(/")
        || expected.contains(":/")
    {
        3
    } else {
        2
    }
}

/// jest/vitest matchers and the alias each is another name for.
const MATCHER_ALIASES: &[(&str, &str)] = &[
    ("toBeCalled", "toHaveBeenCalled"),
    ("toBeCalledTimes", "toHaveBeenCalledTimes"),
    ("toBeCalledWith", "toHaveBeenCalledWith"),
    ("lastCalledWith", "toHaveBeenLastCalledWith"),
    ("nthCalledWith", "toHaveBeenNthCalledWith"),
    ("toReturn", "toHaveReturned"),
    ("toReturnTimes", "toHaveReturnedTimes"),
    ("toReturnWith", "toHaveReturnedWith"),
    ("lastReturnedWith", "toHaveLastReturnedWith"),
    ("nthReturnedWith", "toHaveNthReturnedWith"),
    ("toThrowError", "toThrow"),
];

/// Matchers of jest/vitest and chai whose result on a literal subject is known: anything else
/// is a custom matcher (`expect.extend`, a setup file's) and may check state the test cannot see.
const BUILTIN_MATCHERS: &[&str] = &[
    "toBe",
    "toEqual",
    "toStrictEqual",
    "toBeTruthy",
    "toBeFalsy",
    "toBeDefined",
    "toBeUndefined",
    "toBeNull",
    "toBeNaN",
    "toBeTypeOf",
    "toBeInstanceOf",
    "toContain",
    "toContainEqual",
    "toMatch",
    "toMatchObject",
    "toHaveLength",
    "toHaveProperty",
    "toBeGreaterThan",
    "toBeGreaterThanOrEqual",
    "toBeLessThan",
    "toBeLessThanOrEqual",
    "toBeCloseTo",
    "toBeOneOf",
    "toSatisfy",
    "toMatchSnapshot",
    "toMatchInlineSnapshot",
    "toBeTrue",
    "toBeFalse",
    "equal",
    "equals",
    "eq",
    "eql",
    "ok",
    "true",
    "false",
    "null",
    "undefined",
    "exist",
    "include",
    "includes",
    "contain",
    "contains",
    "match",
    "a",
    "an",
    "above",
    "below",
    "least",
    "most",
    "lengthOf",
    "length",
    "property",
    "members",
    "keys",
    "string",
    "empty",
    "NaN",
    "finite",
];

/// ava / tap / node:test context assertions: `t.is(a, b)`, `t.truthy(x)`, `t.throws(fn, {..})`,
/// `t.assert.equal(a, b)`.
fn context(norm: &str, assertion: &mut Assertion) {
    let callee = norm.split('(').next().unwrap_or_default();
    let method = callee.rsplit('.').next().unwrap_or_default();
    let args = between(norm, "(", ")").unwrap_or_default();
    let parts = top_level_args(args);
    let first = parts.first().copied().unwrap_or_default();
    let same = parts.len() >= 2 && same_pure(parts[0], parts[1]);
    assertion.strength = match method {
        // Always passes; `t.fail()` always fails where it is reached.
        "pass" => 0,
        "fail" => 2,
        // ava `t.true(x)`/`t.false(x)` pass only for the boolean itself (`x === true`), as
        // exact as `t.is(x, true)`; `t.truthy`/`t.assert`/tap `t.ok` accept any truthy value.
        "true" => match literal_truth(first) {
            Some(true) => 0,
            _ if weak_comparison(first) => 1,
            _ => 2,
        },
        "false" => match literal_truth(first) {
            Some(false) => 0,
            _ if first.contains("==") => 1,
            _ => 2,
        },
        "truthy" | "assert" | "ok" => condition_strength(first, first),
        "falsy" | "notOk" | "error" | "ifError" => {
            if literal_truth(first) == Some(false) {
                0
            } else {
                1
            }
        }
        "not" | "notDeepEqual" | "notRegex" | "notEqual" | "notStrictEqual" | "notSame"
        | "notDeepStrictEqual" | "notMatch" | "notThrows" | "notThrowsAsync" | "doesNotThrow"
        | "doesNotReject" | "resolves" => 1,
        "throws" | "throwsAsync" | "rejects" => {
            assertion.family = Family::Raises;
            let expectation = parts.get(1).copied().unwrap_or_default();
            if expectation.is_empty()
                || matches!(expectation, "{}" | "null" | "undefined" | "Error")
                || expectation.contains("any:true")
            {
                1
            } else if expectation.starts_with('/')
                || (expectation.starts_with('{') && expectation.contains("message:"))
                || expectation.starts_with("newError(")
                // A named expectation (`maxBufferMessage`) may pin anything: read as the
                // strongest, so moving an expectation into a constant is not a loosening.
                || expectation
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'))
            {
                3
            } else {
                2
            }
        }
        _ if same => 0,
        _ => 2,
    };
}

fn rust(norm: &str, kind: &str, assertion: &mut Assertion) {
    if kind == "raises" {
        assertion.family = Family::Raises;
        // `#[should_panic = "msg"]` is the short form of `expected = "msg"`.
        assertion.strength = if norm.contains("expected") || norm.starts_with("#[should_panic=") {
            3
        } else {
            1
        };
        return;
    }
    let name = norm.split('!').next().unwrap_or_default();
    let name = name.rsplit("::").next().unwrap_or(name);
    let args = between(norm, "(", ")").unwrap_or_default();
    let parts = top_level_args(args);
    // `debug_assert*!` counts: `cargo test` builds with the test profile, which inherits
    // `debug-assertions = true` from dev, so it runs like `assert*!`. It is compiled out under
    // `cargo test --release` (or a profile that turns debug assertions off), so an `assert*!`
    // turned into its `debug_` twin is reported as weaker where it is paired.
    assertion.debug_only = name.starts_with("debug_");
    let base_name = name
        .trim_start_matches("debug_")
        .trim_start_matches("prop_");
    // approx: `epsilon`/`max_relative`/`max_ulps`, defaulting to `f64::EPSILON`;
    // assert_approx_eq: the third argument, defaulting to 1e-6.
    assertion.tolerance = keyword(norm, "epsilon=")
        .or_else(|| keyword(norm, "max_relative="))
        .or_else(|| keyword(norm, "max_ulps="));
    match base_name {
        "assert_relative_eq" | "assert_abs_diff_eq" | "assert_ulps_eq" => {
            assertion.tolerance = assertion.tolerance.or(Some(f64::EPSILON));
        }
        "assert_approx_eq" => {
            assertion.tolerance = parts
                .get(2)
                .and_then(|eps| {
                    eps.trim_end_matches(|c: char| c.is_alphabetic() || c == '_')
                        .parse()
                        .ok()
                })
                .or(Some(1e-6));
        }
        _ => {}
    }
    assertion.strength = match base_name {
        "assert" => {
            // `x.get::<u32>()`: a turbofish's angle brackets are no comparison.
            let expr = without_turbofish(parts.first().copied().unwrap_or_default());
            let expr = expr.as_str();
            if literal_truth(expr) == Some(true) || same_sides(expr) {
                0
            } else if literal_truth(expr) == Some(false) {
                2
            } else if let Some(eps) = abs_bound(expr) {
                assertion.tolerance = Some(eps);
                2
            } else if weak_comparison(expr)
                || [
                    ".is_ok()",
                    ".is_some()",
                    ".is_err()",
                    ".is_none()",
                    "!",
                    ".is_empty()",
                ]
                .iter()
                .any(|weak| expr.ends_with(weak) || expr.starts_with(weak))
                || !COMPARISONS
                    .iter()
                    .any(|op| expr.contains(op.trim()) && !op.starts_with(' '))
            {
                1
            } else {
                2
            }
        }
        "assert_eq" | "assert_relative_eq" | "assert_abs_diff_eq" | "assert_ulps_eq"
        | "assert_approx_eq"
            if parts.len() >= 2 && same_pure(parts[0], parts[1]) =>
        {
            0
        }
        "assert_ne" => 1,
        // A failure path that panics is a check: `panic!` where the test must not get to
        // (like `assert!(false, ..)`), `unwrap_err()`/`expect_err(..)` (like
        // `assert!(x.is_err())`).
        "panic" => 2,
        _ if norm.ends_with(".unwrap_err()") || norm.contains(".expect_err(") => 1,
        _ => 2,
    };
}

/// `(a - b).abs() < 1e-6` → 1e-6.
/// `expr` without its turbofish type arguments (`::<u32>`, `::<Vec<u8>>`).
fn without_turbofish(expr: &str) -> String {
    let mut out = String::with_capacity(expr.len());
    let mut rest = expr;
    while let Some(start) = rest.find("::<") {
        out.push_str(&rest[..start]);
        let mut depth = 0usize;
        let mut end = rest.len();
        for (index, c) in rest[start + 2..].char_indices() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        end = start + 2 + index + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn abs_bound(expr: &str) -> Option<f64> {
    let (_, bound) = expr
        .split_once(".abs()<")
        .or_else(|| expr.split_once(".abs()<="))?;
    bound
        .trim_start_matches('=')
        .trim_end_matches(|c: char| c.is_alphabetic() || c == '_')
        .parse()
        .ok()
}

/// The numeric value after `name` (`rel=1e-3`), up to the next comma or bracket.
fn keyword(norm: &str, name: &str) -> Option<f64> {
    let rest = &norm[norm.find(name)? + name.len()..];
    let end = rest.find([',', ')', ']', '}']).unwrap_or(rest.len());
    rest[..end]
        .trim_end_matches(|c: char| c.is_alphabetic() || c == '_')
        .parse()
        .ok()
}

/// The tolerance of `pytest.approx(.., rel=.., abs=..)` / `math.isclose(..)`.
fn tolerance(norm: &str) -> Option<f64> {
    if norm.contains("approx(") {
        let rel = keyword(norm, "rel=");
        let abs = keyword(norm, "abs=");
        return Some(match (rel, abs) {
            (None, None) => 1e-6,
            (rel, abs) => rel.unwrap_or(0.0).max(abs.unwrap_or(0.0)),
        });
    }
    if norm.contains("isclose(") {
        let rel = keyword(norm, "rel_tol=").unwrap_or(1e-9);
        return Some(rel.max(keyword(norm, "abs_tol=").unwrap_or(0.0)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_named_for_membership_check_membership() {
        let strength = |text: &str| classify(text, "helper", Language::Python, 1).strength;
        assert_eq!(strength("log.check_present((\"a\", \"INFO\", \"m\"))"), 1);
        assert_eq!(strength("assert_contains(out, \"x\")"), 1);
        assert_eq!(strength("assert_rows_equal(out, expected)"), 2);
        assert_eq!(strength("self.check_invariants(model)"), 2);
        // In Rust `assert!(s.contains(x))` is no weaker check, so neither is the helper.
        let rust = classify("assert_contains(\"x\", err)", "helper", Language::Rust, 1);
        assert_eq!(rust.strength, 2);
    }

    fn strength(text: &str, kind: &str, language: Language) -> u8 {
        classify(text, kind, language, 1).strength
    }

    #[test]
    fn python_strengths() {
        let py = |text| strength(text, "assert", Language::Python);
        assert_eq!(py("assert x == 42"), 2);
        assert_eq!(py("assert x"), 1);
        assert_eq!(py("assert x is not None"), 1);
        assert_eq!(py("assert True"), 0);
        assert_eq!(py("assert x == x"), 0);
        assert_eq!(py("assert resp.status == 200, 'bad status'"), 2);
        assert_eq!(py("self.assertTrue(x)"), 1);
        assert_eq!(py("self.assertEqual(a, 3)"), 2);
        assert_eq!(
            strength(
                "pytest.raises(ValueError, match='bad')",
                "raises",
                Language::Python
            ),
            3
        );
        assert_eq!(
            strength("pytest.raises(ValueError)", "raises", Language::Python),
            2
        );
        assert_eq!(
            strength("pytest.raises(Exception)", "raises", Language::Python),
            1
        );
    }

    #[test]
    fn literal_conditions() {
        assert_eq!(literal_truth("True"), Some(true));
        assert_eq!(literal_truth("!false"), Some(true));
        assert_eq!(literal_truth("notNone"), Some(true));
        assert_eq!(literal_truth("(1)"), Some(true));
        assert_eq!(literal_truth("False"), Some(false));
        assert_eq!(literal_truth("\"\""), Some(false));
        assert_eq!(literal_truth("nothing"), None);
        assert_eq!(literal_truth("x"), None);
        let py = |text| strength(text, "assert", Language::Python);
        assert_eq!(py("assert False, 'unreachable'"), 2);
        assert_eq!(py("self.assertFalse(False)"), 0);
        assert_eq!(strength("assert!(false)", "assert", Language::Rust), 2);
    }

    #[test]
    fn context_assertions() {
        let t = |text| classify(text, "context", Language::JavaScript, 1);
        assert_eq!(t("t.is(x, 42)").strength, 2);
        assert_eq!(t("t.deepEqual(x, [1])").strength, 2);
        assert_eq!(t("t.truthy(x)").strength, 1);
        assert_eq!(t("t.true(x === 42)").strength, 2);
        assert_eq!(t("t.true(isCalled)").strength, 2);
        assert_eq!(t("t.true(list.length > 0)").strength, 1);
        assert_eq!(t("t.false(isTerminated)").strength, 2);
        assert_eq!(t("t.true(true)").strength, 0);
        assert_eq!(t("t.pass()").strength, 0);
        assert_eq!(t("t.fail()").strength, 2);
        assert_eq!(t("t.is(x, x)").strength, 0);
        assert_eq!(t("t.not(x, 1)").strength, 1);
        assert_eq!(t("t.assert.equal(x, 1)").strength, 2);
        let throws = t("t.throws(() => f(), {message: 'bad'})");
        assert_eq!((throws.family, throws.strength), (Family::Raises, 3));
        assert_eq!(
            t("t.throws(() => f(), {instanceOf: TypeError})").strength,
            2
        );
        assert_eq!(t("t.throws(() => f())").strength, 1);
        assert_eq!(t("t.throwsAsync(f, /bad/)").strength, 3);
        assert_eq!(t("t.throwsAsync(f, maxBufferMessage)").strength, 3);
        assert_eq!(t("t.throws(f, {instanceOf: TypeError})").strength, 2);
        assert_eq!(
            classify("t.plan(3)", "count", Language::JavaScript, 1).count,
            Some(3)
        );
    }

    #[test]
    fn rust_macro_tolerances_and_debug() {
        let rs = |text| classify(text, "assert", Language::Rust, 1);
        assert_eq!(
            rs("approx::assert_relative_eq!(a, b, epsilon = 1e-6)").tolerance,
            Some(1e-6)
        );
        assert_eq!(
            rs("assert_relative_eq!(a, b)").tolerance,
            Some(f64::EPSILON)
        );
        assert_eq!(rs("assert_approx_eq!(a, b, 0.5)").tolerance, Some(0.5));
        assert_eq!(rs("assert_approx_eq!(a, b)").tolerance, Some(1e-6));
        assert_eq!(rs("prop_assert_eq!(a, b)").strength, 2);
        assert_eq!(rs("prop_assert!(a.is_ok())").strength, 1);
        assert_eq!(rs("assert_matches!(a, Err(_))").strength, 2);
        assert_eq!(rs("assert_relative_eq!(a, a)").strength, 0);
        let debug = rs("debug_assert_eq!(a, b)");
        assert!(debug.debug_only);
        assert_eq!(debug.strength, 2);
    }

    #[test]
    fn javascript_strengths() {
        let js = |text| strength(text, "expect", Language::JavaScript);
        assert_eq!(js("expect(x).toBe(5)"), 2);
        assert_eq!(js("expect(x).toBeDefined()"), 1);
        assert_eq!(js("expect(x).not.toBeNull()"), 1);
        assert_eq!(js("expect(true).toBe(true)"), 0);
        assert_eq!(js("expect(fn).toHaveBeenCalled()"), 1);
        assert_eq!(js("expect(fn).toHaveBeenCalledWith(1)"), 2);
        assert_eq!(js("expect(f).toThrow()"), 1);
        assert_eq!(js("expect(f).toThrow('bad input')"), 3);
        assert_eq!(js("expect(f).toThrow(BadInput)"), 2);
        assert_eq!(js("expect(f).toThrow(expect.anything())"), 1);
        // The message pinned inside a matcher object or a node assertion is pinned as much.
        assert_eq!(
            js(
                "expect(f).toThrow(expect.objectContaining({message: expect.stringContaining('not a function'), name: 'TypeError'}))"
            ),
            3
        );
        assert_eq!(
            js("expect(f).toThrow(expect.objectContaining({code: 'CONTRACT.INVALID'}))"),
            3
        );
        assert_eq!(js("expect(f).toThrow(expect.objectContaining({}))"), 1);
        let node = |text| strength(text, "assert", Language::JavaScript);
        assert_eq!(node("assert.throws(() => run(), /scan exploded/)"), 3);
        assert_eq!(
            node("assert.throws(() => run(), { message: 'scan exploded' })"),
            3
        );
        assert_eq!(node("assert.throws(() => run(), TypeError)"), 2);
        assert_eq!(node("assert.throws(() => run())"), 1);
    }

    #[test]
    fn jest_aliases_read_as_their_canonical_matcher() {
        let js = |text| classify(text, "expect", Language::JavaScript, 1);
        assert_eq!(
            js("expect(next).toBeCalled()").norm,
            js("expect(next).toHaveBeenCalled()").norm
        );
        assert_eq!(js("expect(next).toBeCalled()").strength, 1);
        assert_eq!(
            js("expect(next).lastCalledWith(1)").norm,
            "expect(next).toHaveBeenLastCalledWith(1)"
        );
        assert_eq!(
            js("expect(f).toThrowError('bad')").norm,
            js("expect(f).toThrow('bad')").norm
        );
        // Only whole matcher names: `toReturnWith` is not `toReturn` + `With`.
        assert_eq!(
            js("expect(f).toReturnWith(2)").norm,
            "expect(f).toHaveReturnedWith(2)"
        );
    }

    #[test]
    fn custom_matchers_rejects_and_loose_matchers() {
        let js = |text| classify(text, "expect", Language::JavaScript, 1);
        assert_eq!(js("expect('text').toHaveBeenWarned()").strength, 2);
        assert_eq!(js("expect('text').toHaveBeenWarnedTimes(1)").strength, 2);
        assert_eq!(js("expect('text').toBe('text')").strength, 0);
        assert_eq!(js("expect(1).toBeTruthy()").strength, 0);
        let rejects = js("await expect(p).rejects.toBe(error)");
        assert_eq!((rejects.family, rejects.strength), (Family::Raises, 3));
        assert_eq!(js("expect(data).toHaveProperty('pages')").strength, 1);
        assert_eq!(js("expect(data).toHaveProperty('pages', [])").strength, 2);
        assert_eq!(
            js("expect(spy).toHaveBeenCalledWith(expect.any(Function))").strength,
            1
        );
        assert_eq!(
            js("expect(spy).toHaveBeenCalledWith(expect.any(Function), 1)").strength,
            2
        );
    }

    #[test]
    fn same_sides_only_for_pure_names() {
        let py = |text| strength(text, "assert", Language::Python);
        assert_eq!(py("assert a.b == a.b"), 0);
        assert_eq!(py("assert SecretStr('x') == SecretStr('x')"), 2);
        assert_eq!(py("self.assertEqual(Money(1), Money(1))"), 2);
        assert_eq!(py("self.assertEqual(x, x)"), 0);
        assert_eq!(
            strength(
                "assert_eq!(Foo::new(1), Foo::new(1))",
                "assert",
                Language::Rust
            ),
            2
        );
        assert_eq!(strength("assert_eq!(a, a)", "assert", Language::Rust), 0);
        assert_eq!(
            strength(
                "expect(new Foo()).toEqual(new Foo())",
                "expect",
                Language::JavaScript
            ),
            2
        );
    }

    #[test]
    fn assert_true_is_as_strong_as_its_condition() {
        let py = |text| strength(text, "assert", Language::Python);
        assert_eq!(py("self.assertTrue(any('x' in m for m in out))"), 2);
        assert_eq!(py("self.assertTrue(a == b)"), 2);
        assert_eq!(py("self.assertTrue(x)"), 1);
        assert_eq!(py("self.assertTrue(len(x) > 0)"), 1);
        assert_eq!(py("self.assertTrue(True)"), 0);
    }

    #[test]
    fn rust_panicking_checks() {
        let rs = |text| strength(text, "assert", Language::Rust);
        assert_eq!(rs("panic!(\"FD leak\")"), 2);
        assert_eq!(rs("std::thread::spawn(f).join().unwrap_err()"), 1);
        assert_eq!(rs("result.expect_err(\"must fail\")"), 1);
    }

    #[test]
    fn rust_strengths_and_tolerances() {
        let rs = |text| strength(text, "assert", Language::Rust);
        assert_eq!(rs("assert_eq!(a, b)"), 2);
        assert_eq!(rs("assert!(a.is_ok())"), 1);
        assert_eq!(rs("assert!(state.unmanage::<u32>())"), 1);
        assert_eq!(rs("assert!(state.unmanage::<Vec<u8>>().is_some())"), 1);
        assert_eq!(rs("assert!(state.len::<u8>() > 2)"), 2);
        assert_eq!(rs("assert!(true)"), 0);
        assert_eq!(rs("assert!(a == b)"), 2);
        let close = classify("assert!((a - b).abs() < 1e-6)", "assert", Language::Rust, 1);
        assert_eq!(close.tolerance, Some(1e-6));
        let approx = classify(
            "assert x == pytest.approx(1.0, rel=1e-3)",
            "assert",
            Language::Python,
            1,
        );
        assert_eq!(approx.tolerance, Some(1e-3));
        let digits = classify(
            "expect(x).toBeCloseTo(0.3, 5)",
            "expect",
            Language::JavaScript,
            1,
        );
        assert_eq!(digits.tolerance, Some(0.000005));
    }
}
