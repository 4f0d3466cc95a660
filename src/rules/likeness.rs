//! How alike two tests are across the whole change, for tests that move to another file under
//! another name and are ported on the way (`test_conlist` in one file becomes
//! `test_constrained_list` in another, with the same inputs, messages and expected values).
//!
//! Exact cross-file evidence (the same name, the same body) is handled by facts; this is the
//! fuzzy rest. Each test new or changed in head leaves a [`TestPrint`] (hashes of its literals,
//! code tokens and name words); a deleted test's print is compared with them all through an
//! inverted index, so the cost follows the shared tokens, not deleted × added.
//!
//! Only near-identical code under another name counts as a move ([`Likeness::Same`]): the
//! moved copy is not compared assertion by assertion, so anything looser could hide a gutted
//! test. Shared literals and alike names make a [`Likeness::Plausible`] successor, which lowers
//! the deletion to a `likely` finding that names it.

use super::inventory::Test;
use crate::finding::fnv1a64;
use crate::query::KEY_SEPARATOR;
use std::collections::HashMap;

/// Most tokens kept per test: enough to judge likeness, bounded for a crafted 20k-line test.
const MAX_TOKENS: usize = 400;
/// Candidates scored per deleted test, the ones sharing the most tokens.
const MAX_CANDIDATES: usize = 32;
/// Tokens in more tests than this are not used to find candidates (`assert`, `expect`).
const COMMON_POSTINGS: usize = 64;

/// What a test is made of, hashed, for comparing it with tests in other files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestPrint {
    /// Language family (tests only match within one).
    pub family: &'static str,
    /// Qualified name.
    pub key: String,
    /// Repository path and 1-based line, for naming the successor.
    pub path: String,
    /// 1-based line of the test.
    pub line: u32,
    /// String literals (three characters or more) and numbers other than 0 and 1, each once.
    literals: Vec<u64>,
    /// Its long literals that read as code or prose (a script, a query), each once: one of
    /// them coming back is evidence by itself, where a word or a number is not.
    long: Vec<u64>,
    /// The literals of its checks (expected values, messages), each once: a successor must keep
    /// them all, or the check was loosened on the way (`toBe(3)` → `toBeGreaterThan(0)`).
    checked: Vec<u64>,
    /// Code tokens (identifiers, keywords, numbers), repeats kept, sorted.
    tokens: Vec<u64>,
    /// Lower-cased words of the name (without `test`).
    words: Vec<u64>,
    /// Lines that check something (`assert`, `expect`, ...), not trivially.
    checks: usize,
    /// The shape of each check line (names and numbers as `x`, strings as `s`), sorted: a
    /// move keeps every check's shape (`x==x` does not become `x>=x`).
    shapes: Vec<String>,
}

/// How a new test relates to a deleted one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Likeness {
    /// Shares literals or name and code with it: perhaps the same test, rewritten.
    Plausible,
    /// The same code under another name, checking at least as much: a move.
    Same,
}

/// The literals on lines the change adds to test files (tables, new tests, grown tests), for a
/// deleted test whose checked values all come back elsewhere without one test holding them:
/// folded into a `describe.each(scenarios)` table, or into a longer journey as a new step.
#[derive(Debug, Default)]
pub struct AddedLiterals {
    literals: std::collections::HashSet<u64>,
}

/// Fewest checked values a deleted test needs before their return means anything.
const MIN_CHECKED: usize = 2;

impl AddedLiterals {
    /// Reads `lines`, each an added line of a test file. Only lines that check something or
    /// hold data count (an assertion, a table row, a property of a scenario object): a value
    /// merely passed to a call or printed again proves nothing.
    pub fn of_lines<'t>(lines: impl IntoIterator<Item = &'t str>) -> AddedLiterals {
        let mut literals = std::collections::HashSet::new();
        for line in lines.into_iter().filter(|line| checks_or_data(line)) {
            literals.extend(literals_of(line).into_iter().map(hash));
        }
        AddedLiterals { literals }
    }

    /// How many of `old`'s checked values come back, of how many, when at least two of them and
    /// two-thirds come back.
    pub fn returned(&self, old: &TestPrint) -> Option<(usize, usize, &'static str)> {
        // Values handed to the check through variables (`let expected = 'order-0'` and then
        // `check(input, candidate, expected)`) are the test's literals, not its check line's.
        let (values, what) = if old.checked.len() >= MIN_CHECKED {
            (&old.checked, "checked values")
        } else {
            (&old.literals, "literals")
        };
        let total = values.len();
        if total < MIN_CHECKED || self.literals.is_empty() {
            return None;
        }
        let found = values
            .iter()
            .filter(|literal| self.literals.contains(literal))
            .count();
        (found >= MIN_CHECKED && found * 3 >= total * 2).then_some((found, total, what))
    }
}

/// A line that checks a value or lists one as data: an assertion, a row (`(..)`, `[..]`,
/// `{..}`, `pytest.param(..)`, a quoted string in a list) or a `key: value` property.
fn checks_or_data(line: &str) -> bool {
    let line = line.trim();
    real_check(line)
        || line.starts_with(['(', '[', '{', '"', '\'', '`'])
        || line.starts_with("pytest.param(")
        || line.split_once(':').is_some_and(|(key, value)| {
            !value.trim().is_empty()
                && !key.is_empty()
                && key
                    .trim_matches(['"', '\''])
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        })
}

/// The best successor found for a deleted test.
#[derive(Debug)]
pub struct Successor<'a> {
    /// How sure the match is.
    pub likeness: Likeness,
    /// The new test.
    pub print: &'a TestPrint,
    /// What the two share, for the message (`3 of its 4 literals`).
    pub evidence: String,
}

impl TestPrint {
    /// The print of `test` at `path`, with the rows of its table when it is parametrized.
    pub fn of(test: &Test, rows: &[&str], family: &'static str, path: &str) -> TestPrint {
        let mut literals: Vec<u64> = Vec::new();
        for text in rows
            .iter()
            .copied()
            .chain(std::iter::once(test.body.as_str()))
        {
            for literal in literals_of(text) {
                if literals.len() < MAX_TOKENS {
                    literals.push(hash(literal));
                }
            }
        }
        literals.sort_unstable();
        literals.dedup();
        let mut long: Vec<u64> = literals_of(&test.body)
            .into_iter()
            .filter(|literal| distinctive(literal))
            .take(MAX_TOKENS)
            .map(hash)
            .collect();
        long.sort_unstable();
        long.dedup();
        let mut tokens: Vec<u64> = code_tokens(&test.body).take(MAX_TOKENS).map(hash).collect();
        tokens.sort_unstable();
        let name = test.key.rsplit(KEY_SEPARATOR).next().unwrap_or(&test.key);
        let mut words: Vec<u64> = name
            .split(|c: char| !c.is_alphanumeric())
            .map(str::to_lowercase)
            .filter(|word| !word.is_empty() && word != "test" && word != "should")
            .take(MAX_TOKENS)
            .map(|word| hash(&word))
            .collect();
        words.sort_unstable();
        words.dedup();
        let check_statements: Vec<String> = statements(&test.body)
            .into_iter()
            .filter(|line| real_check(line))
            .take(MAX_TOKENS)
            .collect();
        let mut shapes: Vec<String> = check_statements.iter().map(|line| shape(line)).collect();
        let mut checked: Vec<u64> = check_statements
            .iter()
            .flat_map(|line| literals_of(line))
            .take(MAX_TOKENS)
            .map(hash)
            .collect();
        checked.sort_unstable();
        checked.dedup();
        shapes.sort_unstable();
        let checks = shapes.len();
        TestPrint {
            family,
            key: test.key.clone(),
            path: path.to_string(),
            line: test.test_lines.0,
            literals,
            long,
            checked,
            tokens,
            words,
            checks,
            shapes,
        }
    }
}

/// The new tests of a change, indexed by their tokens.
pub struct Index<'a> {
    prints: Vec<&'a TestPrint>,
    postings: HashMap<(&'static str, u64), Vec<usize>>,
}

impl<'a> Index<'a> {
    /// Indexes `prints`.
    pub fn new(prints: impl IntoIterator<Item = &'a TestPrint>) -> Index<'a> {
        let prints: Vec<&TestPrint> = prints.into_iter().collect();
        let mut postings: HashMap<(&'static str, u64), Vec<usize>> = HashMap::new();
        for (index, print) in prints.iter().enumerate() {
            let mut keys: Vec<u64> = print
                .literals
                .iter()
                .chain(&print.words)
                .chain(&print.tokens)
                .copied()
                .collect();
            keys.sort_unstable();
            keys.dedup();
            for key in keys {
                postings.entry((print.family, key)).or_default().push(index);
            }
        }
        Index { prints, postings }
    }

    /// The new test most like `old` (another test than `old` itself), when any is plausible.
    pub fn successor(&self, old: &TestPrint) -> Option<Successor<'a>> {
        let mut hits: HashMap<usize, usize> = HashMap::new();
        let mut keys: Vec<u64> = old
            .literals
            .iter()
            .chain(&old.words)
            .chain(&old.tokens)
            .copied()
            .collect();
        keys.sort_unstable();
        keys.dedup();
        for key in keys {
            let Some(list) = self.postings.get(&(old.family, key)) else {
                continue;
            };
            if list.len() > COMMON_POSTINGS {
                continue;
            }
            for index in list {
                *hits.entry(*index).or_default() += 1;
            }
        }
        let mut ranked: Vec<(usize, usize)> = hits.into_iter().collect();
        ranked.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let candidates: Vec<&'a TestPrint> = ranked
            .into_iter()
            .take(MAX_CANDIDATES)
            .map(|(index, _)| self.prints[index])
            .filter(|new| !(new.key == old.key && new.path == old.path))
            .collect();
        let best = candidates
            .iter()
            .filter_map(|new| judge(old, new))
            // Ties go to the nearest file (the same package), then the earliest test.
            .max_by(|a, b| {
                a.0.cmp(&b.0)
                    .then(a.1.cmp(&b.1))
                    .then(nearness(&old.path, &a.2.path).cmp(&nearness(&old.path, &b.2.path)))
                    .then(b.2.line.cmp(&a.2.line))
            })
            .map(|(likeness, _, print, evidence)| Successor {
                likeness,
                print,
                evidence,
            });
        match best {
            Some(same) if same.likeness == Likeness::Same => Some(same),
            // Several new tests holding the rows tell more than the one holding most of them.
            best => split(old, &candidates).or(best),
        }
    }
}

/// A literal long enough, and made of more than a name's characters, that its return in
/// another test is no coincidence: `FOO=BAZ FOO=MOO $env.FOO` (squashed), not
/// `tests/fixtures/data.json` or `some_long_identifier_name`.
fn distinctive(literal: &str) -> bool {
    literal.chars().count() >= 16
        && literal
            .chars()
            .any(|c| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '/' | ':' | '\\')))
}

/// How many leading directories two paths share.
fn nearness(left: &str, right: &str) -> usize {
    left.split('/')
        .zip(right.split('/'))
        .take_while(|(a, b)| a == b)
        .count()
}

/// A test split into several (a big table into per-type tables with the same rows): no one
/// new test holds half of its literals, but together the new tests that each hold two or more
/// of them hold four-fifths.
fn split<'a>(old: &TestPrint, candidates: &[&'a TestPrint]) -> Option<Successor<'a>> {
    if old.literals.len() < 4 {
        return None;
    }
    let mut covered: Vec<u64> = Vec::new();
    let mut parts: Vec<&'a TestPrint> = Vec::new();
    for new in candidates {
        if old.checks > 0 && new.checks == 0 {
            continue;
        }
        let common = intersection(&old.literals, &new.literals);
        if common.len() >= 2 {
            covered.extend(common);
            parts.push(new);
        }
    }
    covered.sort_unstable();
    covered.dedup();
    if parts.len() < 2
        || covered.len() * 5 < old.literals.len() * 4
        || shared(&old.checked, &covered) < old.checked.len()
    {
        return None;
    }
    parts.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    let others = parts.len() - 1;
    Some(Successor {
        likeness: Likeness::Plausible,
        print: parts[0],
        evidence: format!(
            "{} of its {} literals with {others} other new test{}",
            covered.len(),
            old.literals.len(),
            if others == 1 { "" } else { "s" }
        ),
    })
}

/// The items two sorted sets share.
fn intersection(left: &[u64], right: &[u64]) -> Vec<u64> {
    let mut out = Vec::new();
    walk_common(left, right, |item| out.push(*item));
    out
}

/// How alike `new` is to `old`, with a score in thousandths for ranking and the evidence.
fn judge<'a>(
    old: &TestPrint,
    new: &'a TestPrint,
) -> Option<(Likeness, usize, &'a TestPrint, String)> {
    let code = dice(&old.tokens, &new.tokens);
    let names = dice(&old.words, &new.words);
    let shared_literals = shared(&old.literals, &new.literals);
    let enough_tokens = old.tokens.len().min(new.tokens.len()) >= 6;
    // A test that checked something carries on only in a test that checks something; a move
    // keeps every check (below).
    if old.checks > 0 && new.checks == 0 {
        return None;
    }
    if shared(&old.checked, &new.literals) < old.checked.len() {
        return None;
    }
    // A move: nearly the same code, every literal kept, every check kept in its shape. The
    // copy is not compared assertion by assertion, so nothing looser may pass as a move.
    let same = enough_tokens
        && code >= 800
        && new.checks >= old.checks
        && shared_literals == old.literals.len()
        && shared(&old.shapes, &new.shapes) == old.shapes.len();
    if same {
        return Some((
            Likeness::Same,
            code,
            new,
            format!("{}% of its code", code / 10),
        ));
    }
    let literals = old.literals.len();
    let by_literals = shared_literals * 2 >= literals
        && (shared_literals >= 2 || shared(&old.long, &new.literals) >= 1);
    let by_code = enough_tokens && (code >= 600 || (names >= 500 && code >= 400));
    if !(by_literals || by_code) {
        return None;
    }
    let evidence = if by_literals {
        format!("{shared_literals} of its {literals} literals")
    } else {
        format!("{}% of its code", code / 10)
    };
    let score = (shared_literals * 1000)
        .checked_div(literals)
        .map_or(code, |by_literals| by_literals.max(code));
    Some((Likeness::Plausible, score, new, evidence))
}

/// The body's lines joined into statements, so that a formatter wrapping a long assertion
/// over three lines does not change it: a line continues while brackets are open, when it
/// ends in an operator or opener, or when the next line starts with a closer or `.`.
fn statements(body: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut depth: i64 = 0;
    let lines: Vec<&str> = body.split('\n').collect();
    for (index, line) in lines.iter().enumerate() {
        current.push_str(line);
        for c in line.chars() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                _ => {}
            }
        }
        // A block (`{`) is not part of the statement that opens it: its lines are statements.
        let open_end = line.ends_with([
            '<', ',', '(', '[', '=', '&', '|', '+', '-', '*', '/', '?', ':', '.',
        ]);
        let next_continues = lines
            .get(index + 1)
            .is_some_and(|next| next.starts_with(['.', ')', ']', '>', '?', ':', '&', '|']));
        // Bounded: a crafted body never closes its brackets, so a statement stops at 4 KiB.
        if (depth > 0 || open_end || next_continues) && current.len() < 4096 {
            continue;
        }
        out.push(std::mem::take(&mut current));
        depth = 0;
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A check line with every run of name characters as `x` and every string as `s`.
fn shape(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '"' | '\'' | '`') {
            for other in chars.by_ref() {
                if other == c {
                    break;
                }
            }
            out.push('s');
        } else if c.is_alphanumeric() || c == '_' {
            while chars
                .peek()
                .is_some_and(|next| next.is_alphanumeric() || *next == '_' || *next == '.')
            {
                chars.next();
            }
            out.push('x');
        } else if c == ','
            && chars
                .peek()
                .is_some_and(|next| matches!(next, ')' | ']' | '}'))
        {
            // A formatter's trailing comma.
        } else {
            out.push(c);
        }
    }
    out
}

/// Dice coefficient of two sorted multisets, in thousandths.
fn dice(left: &[u64], right: &[u64]) -> usize {
    let total = left.len() + right.len();
    (shared(left, right) * 2000).checked_div(total).unwrap_or(0)
}

/// Size of the intersection of two sorted multisets.
fn shared<T: Ord>(left: &[T], right: &[T]) -> usize {
    let mut count = 0;
    walk_common(left, right, |_| count += 1);
    count
}

/// Calls `found` with each item two sorted multisets share, once per shared copy.
fn walk_common<'l, T: Ord>(left: &'l [T], right: &[T], mut found: impl FnMut(&'l T)) {
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        match left[i].cmp(&right[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                found(&left[i]);
                i += 1;
                j += 1;
            }
        }
    }
}

fn hash(text: &str) -> u64 {
    fnv1a64(text.bytes())
}

/// Quoted strings of three characters or more, and numbers other than 0 and 1, in a
/// whitespace-free text.
pub(crate) fn literals_of(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if matches!(c, '"' | '\'' | '`') {
            let Some((end, _)) = chars
                .by_ref()
                .find(|(_, other)| *other == c || *other == '\n')
            else {
                break;
            };
            let literal = &text[start + 1..end];
            if literal.chars().count() >= 3 {
                out.push(literal);
            }
        } else if c.is_ascii_digit()
            && !text[..start]
                .chars()
                .next_back()
                .is_some_and(|before| before.is_alphanumeric() || before == '_')
        {
            let mut end = start + 1;
            while let Some((index, next)) = chars.peek() {
                if next.is_ascii_alphanumeric() || *next == '.' || *next == '_' {
                    end = index + next.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let number = text[start..end].trim_end_matches('.');
            if number != "0" && number != "1" {
                out.push(number);
            }
        }
    }
    out
}

/// Identifier-like tokens of a body.
fn code_tokens(body: &str) -> impl Iterator<Item = &str> {
    body.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|token| !token.is_empty())
}

/// Whether a (whitespace-free) line checks something about a name of the test: `assert True`
/// and `expect(true).toBe(true)` check nothing.
pub fn real_check(line: &str) -> bool {
    const TRIVIAL: &[&str] = &[
        "assert",
        "assertTrue",
        "assertFalse",
        "assertIsNotNone",
        "self",
        "True",
        "False",
        "true",
        "false",
        "None",
        "null",
        "undefined",
        "not",
        "is",
        "expect",
        "toBe",
        "toBeTruthy",
        "toBeFalsy",
        "toEqual",
        "toBeDefined",
        "assert_eq",
        "assert_ne",
        "ok",
        "t",
        "0",
        "1",
    ];
    checks(line)
        && code_tokens(line).any(|token| {
            !TRIVIAL.contains(&token)
                && !TRIVIAL.iter().any(|word| {
                    token.len() > word.len()
                        && token.starts_with(word)
                        && TRIVIAL.contains(&&token[word.len()..])
                })
        })
}

/// Whether a (whitespace-free) line checks something.
fn checks(line: &str) -> bool {
    const MARKERS: &[&str] = &[
        "assert",
        "expect",
        "should",
        "pytest.raises",
        "raises(",
        "t.is(",
        "t.true(",
        "t.false(",
        "t.deepEqual(",
        "t.throws",
        "t.snapshot(",
        "panic!",
        "unwrap_err(",
        "expect_err(",
        "fail(",
    ];
    MARKERS.iter().any(|marker| line.contains(marker))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(key: &str, body: &str) -> Test {
        Test {
            id: key.to_string(),
            key: key.to_string(),
            case: None,
            line: 1,
            end_line: 1,
            test_lines: (1, 1),
            byte_range: 0..0,
            body: body.to_string(),
            not_collected: None,
            is_test: true,
            todo: false,
        }
    }

    fn print(key: &str, body: &str, path: &str) -> TestPrint {
        TestPrint::of(&test(key, body), &[], "python", path)
    }

    #[test]
    fn literals_are_strings_and_numbers_but_not_names_with_digits() {
        assert_eq!(
            literals_of("assertf(\"abc\",x2)==42.5\nassertg('de')==1"),
            vec!["abc", "42.5"]
        );
    }

    #[test]
    fn a_port_with_the_same_literals_is_plausible_and_names_the_new_test() {
        let old = print(
            "test_conlist",
            "\"\"\"Listsofintsstaywithinbounds\"\"\"\nm=conlist(int,min_items=2,max_items=7)\nassertm.validate([3,4])==[3,4]\nwithpytest.raises(ValueError,match=\"tooshort\"):\nm.validate([3])",
            "tests/test_types.py",
        );
        let new = print(
            "test_constrained_list",
            "\"\"\"Listsofintsstaywithinbounds\"\"\"\nadapter=TypeAdapter(Annotated[list[int],Len(2,7)])\nassertadapter.validate_python([3,4])==[3,4]\nwithpytest.raises(ValidationError,match=\"tooshort\"):\nadapter.validate_python([3])",
            "tests/test_constrained.py",
        );
        let unrelated = print(
            "test_dates",
            "assertparse_date(\"2020-01-01\").year==2020",
            "tests/test_dates.py",
        );
        let index = Index::new([&new, &unrelated]);
        let found = index.successor(&old).expect("a successor");
        assert_eq!(found.likeness, Likeness::Plausible);
        assert_eq!(found.print.key, "test_constrained_list");
    }

    #[test]
    fn the_same_code_under_another_name_is_a_move() {
        let body = "r=client.get(\"/items/7\")\nassertr.status_code==200\nassertr.json()[\"name\"]==\"widget\"";
        let old = print("test_get_item", body, "tests/test_a.py");
        let new = print("test_item_can_be_fetched", body, "tests/test_b.py");
        let found = Index::new([&new]).successor(&old).expect("a successor");
        assert_eq!(found.likeness, Likeness::Same);
    }

    #[test]
    fn a_copy_without_its_checks_carries_nothing_on() {
        let old = print(
            "test_refund_rounding",
            "assertrefund(\"0.10\",\"0.20\")==Decimal(\"0.30\")",
            "tests/test_billing.py",
        );
        let gutted = print(
            "test_refund_runs",
            "refund(\"0.10\",\"0.20\")\nprint(Decimal(\"0.30\"))",
            "tests/test_smoke.py",
        );
        assert!(Index::new([&gutted]).successor(&old).is_none());
    }

    #[test]
    fn fewer_checks_are_never_a_move() {
        let old = print(
            "test_a",
            "x=make(\"alpha\",\"beta\")\nassertx.first==\"alpha\"\nassertx.second==\"beta\"",
            "a.py",
        );
        let new = print(
            "test_b",
            "x=make(\"alpha\",\"beta\")\nassertx.first==\"alpha\"\nx.second==\"beta\"",
            "b.py",
        );
        let found = Index::new([&new]).successor(&old).expect("plausible");
        assert_eq!(found.likeness, Likeness::Plausible);
    }

    #[test]
    fn a_check_loosened_on_the_way_is_no_move() {
        let old = print(
            "test_get",
            "r=client.get(\"/items/7\")\nassertr.status_code==200\nassertr.json()[\"name\"]==\"widget\"",
            "a.py",
        );
        let new = print(
            "test_fetch",
            "r=client.get(\"/items/7\")\nassertr.status_code>=200\nassertr.json()[\"name\"]==\"widget\"",
            "b.py",
        );
        let found = Index::new([&new]).successor(&old).expect("plausible");
        assert_eq!(found.likeness, Likeness::Plausible);
    }

    #[test]
    fn a_wrapped_assertion_keeps_its_shape() {
        let one = statements("expectTypeOf(r[0]).toEqualTypeOf<Result<number,unknown>>()\nx=1");
        let wrapped =
            statements("expectTypeOf(r[0]).toEqualTypeOf<\nResult<number,unknown>\n>()\nx=1");
        assert_eq!(one, wrapped);
        assert_eq!(one.len(), 2);
    }

    #[test]
    fn a_check_that_lost_its_expected_value_carries_nothing_on() {
        let old = print("adds", "expect(add(1,2)).toBe(3);", "src/a.test.ts");
        let new = print(
            "sums",
            "expect(add(1,2)).toBeGreaterThan(0);",
            "src/b.test.ts",
        );
        assert!(Index::new([&new]).successor(&old).is_none());
    }

    #[test]
    fn trivially_true_lines_are_not_checks() {
        assert!(!real_check("assertTrue"));
        assert!(!real_check("expect(true).toBe(true);"));
        assert!(!real_check("self.assertTrue(True)"));
        assert!(real_check("assertsessionisNone"));
        assert!(real_check("expect(result).toBe(3);"));
    }

    #[test]
    fn a_table_split_into_several_keeps_its_rows_among_them() {
        let old = TestPrint::of(
            &test("test_parse", "assertparse(raw)==expected"),
            &[
                "(\"12\",12)",
                "(\"-3\",-3)",
                "(\"1.5\",1.5)",
                "(\"2e3\",2000.0)",
            ],
            "python",
            "tests/test_parse.py",
        );
        let ints = TestPrint::of(
            &test("test_parse_int", "assertparse_int(raw)==expected"),
            &["(\"12\",12)", "(\"-3\",-3)"],
            "python",
            "tests/test_parse_int.py",
        );
        let floats = TestPrint::of(
            &test("test_parse_float", "assertparse_float(raw)==expected"),
            &["(\"1.5\",1.5)", "(\"2e3\",2000.0)"],
            "python",
            "tests/test_parse_float.py",
        );
        let found = Index::new([&ints, &floats]).successor(&old).expect("split");
        assert_eq!(found.likeness, Likeness::Plausible);
        assert!(
            found.evidence.contains("1 other new test"),
            "{}",
            found.evidence
        );
    }

    #[test]
    fn one_shared_script_is_plausible_one_shared_path_or_word_is_not() {
        let old = print(
            "shorthand_env_2",
            "fail_test(\"FOO=BAZFOO=MOO$env.FOO\",\"defined_twice\")",
            "tests/test_env.rs",
        );
        let new = print(
            "defined_twice_error",
            "test()\n.run(\"FOO=BAZFOO=MOO$env.FOO\")\n.expect_error_code_eq(\"nu::shell::twice\")",
            "tests/test_env.rs",
        );
        let found = Index::new([&new]).successor(&old).expect("plausible");
        assert_eq!(found.likeness, Likeness::Plausible);
        let by_path = print(
            "reads_config",
            "load(\"tests/fixtures/config.json\",\"strict\")",
            "tests/a.rs",
        );
        let other = print(
            "parses_config",
            "parse(\"tests/fixtures/config.json\")",
            "tests/b.rs",
        );
        assert!(Index::new([&other]).successor(&by_path).is_none());
        assert!(distinctive("FOO=BAZFOO=MOO$env.FOO"));
        assert!(!distinctive("tests/fixtures/config.json"));
        assert!(!distinctive("some_long_identifier_name"));
    }

    #[test]
    fn a_test_is_not_its_own_successor() {
        let old = print("test_a", "assertf(\"abc\",\"def\")==\"ghi\"", "a.py");
        assert!(Index::new([&old]).successor(&old).is_none());
    }

    #[test]
    fn unrelated_tests_share_nothing_worth_naming() {
        let old = print(
            "test_refund_rounding",
            "assertrefund(\"0.10\",\"0.20\")==Decimal(\"0.30\")",
            "tests/test_billing.py",
        );
        let other = print(
            "test_invoice_total",
            "assertinvoice([\"0.10\"]).total==Decimal(\"9.99\")",
            "tests/test_invoice.py",
        );
        assert!(Index::new([&other]).successor(&old).is_none());
    }
}
