//! Glob patterns as the JavaScript test runners read them: jest matches `testMatch` with
//! picomatch, vitest matches `include`/`exclude` with tinyglobby (picomatch again). Both pass
//! `dot: true` (jest-util `globsToMatcher`: `picomatchOptions = {dot: true}`; vitest
//! `globFiles`: `{ dot: true, cwd: dir || root, ignore: exclude }`), so by default `*`, `?`
//! and `**` match names that start with a dot here too.
//!
//! Supported: `*`, `?`, `[...]` (ranges, `!`/`^` negation, POSIX classes such as
//! `[[:alpha:]]`), `**` as a whole segment (`a/**/b` matches `a/b`; `a/**` matches `a` too; a
//! `**` inside a segment is a `*`, as picomatch's `test/globstars.js` has it), braces `{a,b}`
//! (nested) and ranges `{1..3}`, regex-style groups `(a|b)`, the extglobs `?(…)`, `*(…)`,
//! `+(…)`, `@(…)` and `!(…)`, and `\` escapes. `!(…)` follows bash: it matches any text
//! within one path segment that none of its alternatives matches (picomatch's
//! `test/extglobs-bash.js` compares against bash). A construct that is not closed (`[a`,
//! `{a,b`, `@(a`) is matched literally, never an error.
//!
//! A pattern is parsed once into a small program (an NFA with loops for `*`, `**` and the
//! repeating extglobs); matching fills a table of (program state, text position) from the end
//! of the text backwards, so the work is bounded by states × characters and no pattern is
//! exponential (`*(a|aa)*(a|aa)…b` against `aaaa…`). Negations run their own table per
//! segment end.

/// Patterns and paths longer than this never match (a configuration this long is not a
/// test-file glob).
const MAX_LEN: usize = 4096;
/// Groups nested deeper than this are read literally.
const MAX_DEPTH: usize = 32;
/// Brace ranges with more items than this are read literally.
const MAX_RANGE: usize = 1000;

/// A compiled glob.
#[derive(Debug, Clone)]
pub struct Glob {
    source: String,
    program: Program,
    dot: bool,
    /// No special characters: the pattern matches only itself (compared directly, which
    /// matters when every file is judged against many project paths).
    literal: bool,
}

impl Glob {
    /// Compiles `pattern` with `dot: true`, as jest and vitest do.
    pub fn new(pattern: &str) -> Glob {
        Glob::with_dot(pattern, true)
    }

    /// Compiles `pattern`; with `dot` false, wildcards do not match a leading `.` of a segment
    /// (picomatch's default).
    pub fn with_dot(pattern: &str, dot: bool) -> Glob {
        let chars: Vec<char> = pattern.chars().collect();
        let program = if chars.len() > MAX_LEN {
            Program::never()
        } else {
            Program::compile(&parse(&chars, true, true, 0))
        };
        let literal =
            !pattern.contains(['*', '?', '[', ']', '{', '}', '(', ')', '!', '+', '@', '\\']);
        Glob {
            source: pattern.to_string(),
            program,
            dot,
            literal,
        }
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the whole of `path` matches.
    pub fn is_match(&self, path: &str) -> bool {
        if self.literal {
            return path == self.source && path.chars().count() <= MAX_LEN;
        }
        let text: Vec<char> = path.chars().collect();
        if text.len() > MAX_LEN {
            return false;
        }
        let matcher = Matcher {
            text: &text,
            dot: self.dot,
        };
        matcher.starts(&self.program, 0, text.len()).first() == Some(&true)
    }
}

/// A parsed pattern element.
#[derive(Debug, Clone)]
enum Node {
    Char(char),
    /// `?`: one character, not `/`.
    Any,
    Class(Class),
    /// `*`: any characters within a segment.
    Star,
    /// `**/`: zero or more whole segments, each followed by `/`.
    Dirs,
    /// `**` at the end: anything, `/` included.
    Rest,
    /// One of the alternatives (`{a,b}`, `@(a|b)`, `(a|b)`).
    Alt(Vec<Vec<Node>>),
    /// `?(…)`: zero or one.
    Opt(Vec<Vec<Node>>),
    /// `*(…)`: zero or more.
    Many(Vec<Vec<Node>>),
    /// `+(…)`: one or more.
    Some(Vec<Vec<Node>>),
    /// `!(…)`: any text within the segment that no alternative matches.
    Not(Vec<Vec<Node>>),
}

#[derive(Debug, Clone)]
struct Class {
    negated: bool,
    items: Vec<ClassItem>,
}

#[derive(Debug, Clone)]
enum ClassItem {
    Range(char, char),
    Posix(String),
}

impl Class {
    fn contains(&self, c: char) -> bool {
        let found = self.items.iter().any(|item| match item {
            ClassItem::Range(low, high) => *low <= c && c <= *high,
            ClassItem::Posix(name) => match name.as_str() {
                "alpha" => c.is_ascii_alphabetic(),
                "digit" => c.is_ascii_digit(),
                "alnum" => c.is_ascii_alphanumeric(),
                "upper" => c.is_ascii_uppercase(),
                "lower" => c.is_ascii_lowercase(),
                "space" => c.is_ascii_whitespace(),
                "xdigit" => c.is_ascii_hexdigit(),
                "punct" => c.is_ascii_punctuation(),
                "word" => c.is_ascii_alphanumeric() || c == '_',
                "blank" => c == ' ' || c == '\t',
                _ => false,
            },
        });
        found != self.negated
    }
}

/// Parses `chars`. `open_before`/`open_after`: whether the text just before/after this
/// sequence is a segment boundary (the pattern's start or end, or `/`), for telling a `**`
/// segment from a `**` inside a name.
fn parse(chars: &[char], open_before: bool, open_after: bool, depth: usize) -> Vec<Node> {
    let mut out = Vec::new();
    let mut index = 0;
    let boundary_before = |index: usize| {
        if index == 0 {
            open_before
        } else {
            chars.get(index - 1) == Some(&'/')
        }
    };
    let boundary_after = |index: usize| match chars.get(index) {
        None => open_after,
        Some(c) => *c == '/',
    };
    while let Some(&c) = chars.get(index) {
        let next = chars.get(index + 1).copied();
        // Extglobs and groups.
        let group_kind = match (c, next) {
            ('?' | '*' | '+' | '@' | '!', Some('(')) => Some((c, index + 1)),
            ('(', _) => Some(('@', index)),
            _ => None,
        };
        if let Some((kind, open)) = group_kind
            && depth < MAX_DEPTH
            && let Some(close) = find_close(chars, open, '(', ')')
        {
            let before = boundary_before(index);
            let after = boundary_after(close + 1);
            let alternatives: Vec<Vec<Node>> = split_top(&chars[open + 1..close], '|')
                .into_iter()
                .map(|part| parse(part, before, after, depth + 1))
                .collect();
            out.push(match kind {
                '?' => Node::Opt(alternatives),
                '*' => Node::Many(alternatives),
                '+' => Node::Some(alternatives),
                '!' => Node::Not(alternatives),
                _ => Node::Alt(alternatives),
            });
            index = close + 1;
            continue;
        }
        match c {
            '\\' => {
                out.push(Node::Char(next.unwrap_or('\\')));
                index += if next.is_some() { 2 } else { 1 };
            }
            '*' => {
                let mut end = index;
                while chars.get(end) == Some(&'*') {
                    end += 1;
                }
                let whole = boundary_before(index) && boundary_after(end);
                if end - index >= 2 && whole {
                    if chars.get(end) == Some(&'/') {
                        // `**/`: any directories, or none.
                        out.push(Node::Dirs);
                        end += 1;
                    } else if index > 0 && matches!(out.last(), Some(Node::Char('/'))) {
                        // `a/**`: `a` itself, or anything below it.
                        out.pop();
                        out.push(Node::Opt(vec![vec![Node::Char('/'), Node::Rest]]));
                    } else {
                        out.push(Node::Rest);
                    }
                } else if whole {
                    // `*` as a whole segment names something: at least one character.
                    out.push(Node::Any);
                    out.push(Node::Star);
                } else {
                    out.push(Node::Star);
                }
                index = end;
            }
            '?' => {
                out.push(Node::Any);
                index += 1;
            }
            '[' => match parse_class(chars, index) {
                Some((class, end)) => {
                    out.push(Node::Class(class));
                    index = end;
                }
                None => {
                    out.push(Node::Char('['));
                    index += 1;
                }
            },
            '{' => match parse_braces(chars, index, boundary_before(index), depth) {
                Some((node, end)) => {
                    out.push(node);
                    index = end;
                }
                None => {
                    out.push(Node::Char('{'));
                    index += 1;
                }
            },
            _ => {
                out.push(Node::Char(c));
                index += 1;
            }
        }
    }
    out
}

/// The index of the bracket closing the one at `open`, skipping escapes and nested pairs.
fn find_close(chars: &[char], open: usize, left: char, right: char) -> Option<usize> {
    let mut depth = 0usize;
    let mut index = open;
    while let Some(&c) = chars.get(index) {
        if c == '\\' {
            index += 2;
            continue;
        }
        if c == left {
            depth += 1;
        } else if c == right {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Some(index);
            }
        }
        index += 1;
    }
    None
}

/// Splits on `separator` outside nested `()`, `{}` and escapes.
fn split_top(chars: &[char], separator: char) -> Vec<&[char]> {
    let mut parts = Vec::new();
    let (mut round, mut curly) = (0usize, 0usize);
    let mut start = 0;
    let mut index = 0;
    while let Some(&c) = chars.get(index) {
        match c {
            '\\' => index += 1,
            '(' => round += 1,
            ')' => round = round.saturating_sub(1),
            '{' => curly += 1,
            '}' => curly = curly.saturating_sub(1),
            _ if c == separator && round == 0 && curly == 0 => {
                parts.push(&chars[start..index]);
                start = index + 1;
            }
            _ => {}
        }
        index += 1;
    }
    parts.push(&chars[start.min(chars.len())..]);
    parts
}

/// `[...]` starting at `open`: the class and the index after it, or `None` when unclosed.
fn parse_class(chars: &[char], open: usize) -> Option<(Class, usize)> {
    let mut index = open + 1;
    let negated = matches!(chars.get(index), Some('!' | '^'));
    if negated {
        index += 1;
    }
    let mut items = Vec::new();
    let mut first = true;
    loop {
        let c = *chars.get(index)?;
        if c == ']' && !first {
            return Some((Class { negated, items }, index + 1));
        }
        first = false;
        if c == '['
            && chars.get(index + 1) == Some(&':')
            && let Some(length) = chars[index + 2..]
                .windows(2)
                .position(|pair| pair == [':', ']'])
        {
            let name: String = chars[index + 2..index + 2 + length].iter().collect();
            items.push(ClassItem::Posix(name));
            index += length + 4;
            continue;
        }
        let (low, width) = if c == '\\' {
            (*chars.get(index + 1)?, 2)
        } else {
            (c, 1)
        };
        index += width;
        if chars.get(index) == Some(&'-') && chars.get(index + 1).is_some_and(|c| *c != ']') {
            let (high, width) = match chars.get(index + 1) {
                Some('\\') => (*chars.get(index + 2)?, 3),
                Some(high) => (*high, 2),
                None => return None,
            };
            index += width;
            items.push(ClassItem::Range(low, high));
        } else {
            items.push(ClassItem::Range(low, low));
        }
    }
}

/// `{a,b}` or `{1..3}` starting at `open`, or `None` when it is literal text.
fn parse_braces(chars: &[char], open: usize, before: bool, depth: usize) -> Option<(Node, usize)> {
    if depth >= MAX_DEPTH {
        return None;
    }
    let close = find_close(chars, open, '{', '}')?;
    let inner = &chars[open + 1..close];
    let after = chars.get(close + 1).is_none_or(|c| *c == '/');
    let parts = split_top(inner, ',');
    if parts.len() >= 2 {
        let alternatives = parts
            .into_iter()
            .map(|part| parse(part, before, after, depth + 1))
            .collect();
        return Some((Node::Alt(alternatives), close + 1));
    }
    let text: String = inner.iter().collect();
    let (low, high) = text.split_once("..")?;
    let items: Vec<String> = match (low.parse::<i64>(), high.parse::<i64>()) {
        (Ok(low), Ok(high)) => {
            if low.abs_diff(high) >= MAX_RANGE as u64 {
                return None;
            }
            let (from, to) = (low.min(high), low.max(high));
            (from..=to).map(|n| n.to_string()).collect()
        }
        _ => {
            let (mut a, mut b) = (low.chars(), high.chars());
            let (Some(low), None, Some(high), None) = (a.next(), a.next(), b.next(), b.next())
            else {
                return None;
            };
            let (from, to) = (low.min(high), low.max(high));
            (from..=to).map(|c| c.to_string()).collect()
        }
    };
    let alternatives = items
        .iter()
        .map(|item| item.chars().map(Node::Char).collect())
        .collect();
    Some((Node::Alt(alternatives), close + 1))
}

/// One instruction; `usize` fields name the next instruction.
#[derive(Debug, Clone)]
enum Inst {
    Char(char, usize),
    Any(usize),
    Class(Class, usize),
    Star(usize),
    Dirs(usize),
    Rest(usize),
    Split(Vec<usize>),
    Not(Box<Program>, usize),
    Match,
}

#[derive(Debug, Clone)]
struct Program {
    insts: Vec<Inst>,
    start: usize,
}

impl Program {
    fn never() -> Program {
        Program {
            insts: vec![Inst::Split(Vec::new())],
            start: 0,
        }
    }

    fn compile(nodes: &[Node]) -> Program {
        let mut program = Program {
            insts: vec![Inst::Match],
            start: 0,
        };
        program.start = program.sequence(nodes, 0);
        program
    }

    fn push(&mut self, inst: Inst) -> usize {
        self.insts.push(inst);
        self.insts.len() - 1
    }

    /// Compiles `nodes` so that they continue with `next`; returns the entry.
    fn sequence(&mut self, nodes: &[Node], next: usize) -> usize {
        nodes
            .iter()
            .rev()
            .fold(next, |next, node| self.node(node, next))
    }

    fn node(&mut self, node: &Node, next: usize) -> usize {
        match node {
            Node::Char(c) => self.push(Inst::Char(*c, next)),
            Node::Any => self.push(Inst::Any(next)),
            Node::Class(class) => self.push(Inst::Class(class.clone(), next)),
            Node::Star => self.push(Inst::Star(next)),
            Node::Dirs => self.push(Inst::Dirs(next)),
            Node::Rest => self.push(Inst::Rest(next)),
            Node::Alt(alternatives) => {
                let starts = self.alternatives(alternatives, next);
                self.push(Inst::Split(starts))
            }
            Node::Opt(alternatives) => {
                let mut starts = self.alternatives(alternatives, next);
                starts.push(next);
                self.push(Inst::Split(starts))
            }
            Node::Many(alternatives) | Node::Some(alternatives) => {
                // A loop head: leave, or go round once more.
                let head = self.push(Inst::Split(Vec::new()));
                let starts = self.alternatives(alternatives, head);
                let mut targets = vec![next];
                targets.extend(starts.iter().copied());
                self.insts[head] = Inst::Split(targets);
                if matches!(node, Node::Some(_)) {
                    self.push(Inst::Split(starts))
                } else {
                    head
                }
            }
            Node::Not(alternatives) => {
                let inner = Program::compile(&[Node::Alt(alternatives.clone())]);
                self.push(Inst::Not(Box::new(inner), next))
            }
        }
    }

    fn alternatives(&mut self, alternatives: &[Vec<Node>], next: usize) -> Vec<usize> {
        alternatives
            .iter()
            .map(|alternative| self.sequence(alternative, next))
            .collect()
    }
}

struct Matcher<'t> {
    text: &'t [char],
    dot: bool,
}

impl Matcher<'_> {
    /// Whether a wildcard may consume the character at `pos` (not a leading dot unless
    /// `dot`).
    fn wild(&self, pos: usize) -> bool {
        self.dot
            || self.text.get(pos) != Some(&'.')
            || !(pos == 0 || self.text.get(pos - 1) == Some(&'/'))
    }

    /// The end of the segment holding `pos` (the next `/`, or `hi`).
    fn segment_end(&self, pos: usize, hi: usize) -> usize {
        (pos..hi)
            .find(|index| self.text.get(*index) == Some(&'/'))
            .unwrap_or(hi)
    }

    /// For each position `lo..=hi`: whether `program` matches exactly `text[pos..hi]`.
    fn starts(&self, program: &Program, lo: usize, hi: usize) -> Vec<bool> {
        let states = program.insts.len();
        let width = hi - lo + 1;
        let mut table = vec![false; width * states];
        // Reverse ε-edges (to → from), for propagating at one position.
        let mut reverse: Vec<Vec<usize>> = vec![Vec::new(); states];
        for (from, inst) in program.insts.iter().enumerate() {
            match inst {
                Inst::Star(next) | Inst::Dirs(next) | Inst::Rest(next) => {
                    reverse[*next].push(from);
                }
                Inst::Split(targets) => {
                    for target in targets {
                        reverse[*target].push(from);
                    }
                }
                _ => {}
            }
        }
        // Negations: for each (instruction, segment end), which starts its program matches.
        let mut negations: std::collections::HashMap<(usize, usize), Vec<bool>> =
            Default::default();
        for pos in (lo..=hi).rev() {
            let row = (pos - lo) * states;
            let at = |table: &[bool], pos: usize, state: usize| {
                table
                    .get((pos - lo) * states + state)
                    .copied()
                    .unwrap_or(false)
            };
            let current = self.text.get(pos).copied().filter(|_| pos < hi);
            let mut value = vec![false; states];
            let mut not_edges: Vec<(usize, usize)> = Vec::new();
            for (state, inst) in program.insts.iter().enumerate() {
                value[state] = match inst {
                    Inst::Match => pos == hi,
                    Inst::Char(c, next) => current == Some(*c) && at(&table, pos + 1, *next),
                    Inst::Any(next) => {
                        current.is_some_and(|c| c != '/')
                            && self.wild(pos)
                            && at(&table, pos + 1, *next)
                    }
                    Inst::Class(class, next) => {
                        current.is_some_and(|c| c != '/' && class.contains(c))
                            && self.wild(pos)
                            && at(&table, pos + 1, *next)
                    }
                    Inst::Star(_) => {
                        current.is_some_and(|c| c != '/')
                            && self.wild(pos)
                            && at(&table, pos + 1, state)
                    }
                    Inst::Rest(_) => {
                        current.is_some() && self.wild(pos) && at(&table, pos + 1, state)
                    }
                    Inst::Dirs(_) => {
                        let end = self.segment_end(pos, hi);
                        current.is_some()
                            && end > pos
                            && end < hi
                            && self.wild(pos)
                            && at(&table, end + 1, state)
                    }
                    Inst::Not(inner, next) => {
                        let end = self.segment_end(pos, hi);
                        let start = (lo..pos)
                            .rev()
                            .find(|index| self.text.get(*index) == Some(&'/'))
                            .map_or(lo, |slash| slash + 1);
                        let mut any = false;
                        for stop in pos..=end {
                            let inner_starts = negations
                                .entry((state, stop))
                                .or_insert_with(|| self.starts(inner, start, stop));
                            let excluded = inner_starts.get(pos - start).copied().unwrap_or(false);
                            if excluded {
                                continue;
                            }
                            if stop == pos {
                                not_edges.push((*next, state));
                            } else if at(&table, stop, *next) {
                                any = true;
                                break;
                            }
                        }
                        any
                    }
                    Inst::Split(_) => false,
                };
            }
            // Propagate along ε-edges, backwards from the states that match.
            let mut work: Vec<usize> = (0..states).filter(|state| value[*state]).collect();
            while let Some(state) = work.pop() {
                let extra = not_edges
                    .iter()
                    .filter(|(to, _)| *to == state)
                    .map(|(_, from)| *from);
                for from in reverse[state].iter().copied().chain(extra) {
                    if !value[from] {
                        value[from] = true;
                        work.push(from);
                    }
                }
            }
            table[row..row + states].copy_from_slice(&value);
        }
        (lo..=hi)
            .map(|pos| {
                table
                    .get((pos - lo) * states + program.start)
                    .copied()
                    .unwrap_or(false)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yes(pattern: &str, path: &str) {
        assert!(
            Glob::new(pattern).is_match(path),
            "{pattern} should match {path}"
        );
    }

    fn no(pattern: &str, path: &str) {
        assert!(
            !Glob::new(pattern).is_match(path),
            "{pattern} should not match {path}"
        );
    }

    #[test]
    fn stars_and_question_marks() {
        yes("*.js", "a.js");
        no("*.js", "src/a.js");
        yes("src/*.js", "src/a.js");
        no("src/*.js", "src/x/a.js");
        yes("a?c", "abc");
        no("a?c", "a/c");
        no("a?c", "abbc");
        yes("z*", "z.js");
        no("z*.js", "zzjs");
        no("a/*", "a/");
        yes("a/*", "a/b");
    }

    #[test]
    fn globstars_at_start_middle_and_end() {
        yes("**/*.js", "a.js");
        yes("**/*.js", "a/b/c.js");
        yes("**", "a/b/c");
        yes("a/**/b", "a/b");
        yes("a/**/b", "a/x/y/b");
        no("a/**/b", "a/x/y/c");
        yes("a/**", "a");
        yes("a/**", "a/b/c");
        no("a/**", "ab");
        no("b/**", "a/b");
        yes("a/**/j/**/z/*.md", "a/b/c/j/e/z/foo.md");
        no("a/**/j/**/z/*.md", "a/b/c/d/e/z/foo.md");
        // A `**` inside a segment is a `*`.
        yes("a/**b", "a/b");
        no("a/**c", "a/b/c");
        yes("a/**b**/c", "a/aba/c");
        no("a/b/c**/*.js", "a/b/c/d/e.js");
    }

    #[test]
    fn dotfiles_follow_the_dot_option() {
        yes("**/*.js", ".config/a.js");
        yes("*", ".eslintrc");
        yes("src/**/*.ts", "src/.hidden/a.ts");
        let strict = |pattern: &str, path: &str| Glob::with_dot(pattern, false).is_match(path);
        assert!(!strict("*", ".eslintrc"));
        assert!(!strict("**/*.js", ".config/a.js"));
        assert!(!strict("a/**", "a/.b"));
        assert!(!strict("a?b/*", ".a/x"));
        assert!(strict("a/.*", "a/.b"));
        assert!(strict("**/.*.md", "a/b/.dotfile.md"));
        assert!(strict("**/*.js", "a/b.js"));
    }

    #[test]
    fn braces_nested_and_ranges() {
        yes("**/*.{test,spec}.js", "src/a.spec.js");
        no("**/*.{test,spec}.js", "src/a.check.js");
        yes("{src,lib/{a,b}}/*.ts", "lib/b/x.ts");
        no("{src,lib/{a,b}}/*.ts", "lib/c/x.ts");
        yes("a{,/**}", "a");
        yes("a{,/**}", "a/b/c");
        yes("file{1..3}.js", "file2.js");
        no("file{1..3}.js", "file4.js");
        yes("{a..c}.js", "b.js");
        yes("{a}.js", "{a}.js");
        yes("{src/**/*.ts,x}", "src/a/b.ts");
    }

    #[test]
    fn character_classes() {
        yes("[jt]s", "ts");
        no("[jt]s", "cs");
        yes("[a-c]x", "bx");
        no("[!a-c]x", "bx");
        yes("[^a-c]x", "dx");
        yes("[[:digit:]]x", "7x");
        no("[[:digit:]]x", "ax");
        yes("[]]", "]");
        no("a[/]b", "a/b");
    }

    #[test]
    fn extglobs_positive_and_negative() {
        // ?(…): zero or one.
        yes("a.?(m|c)js", "a.js");
        yes("a.?(m|c)js", "a.mjs");
        no("a.?(m|c)js", "a.mcjs");
        // *(…): zero or more.
        yes("a*(z)", "a");
        yes("a*(z)", "azzz");
        no("a*(z)", "azy");
        // +(…): one or more.
        yes("a+(z|y)", "azyz");
        no("a+(z|y)", "a");
        // @(…): exactly one.
        yes("@(src|lib)/*.js", "lib/a.js");
        no("@(src|lib)/*.js", "test/a.js");
        no("a@(z|y)", "azy");
        // !(…): anything in the segment but these.
        yes("!(*.d).ts", "a.ts");
        no("!(*.d).ts", "a.d.ts");
        yes("src/!(vendor)/*.js", "src/app/a.js");
        no("src/!(vendor)/*.js", "src/vendor/a.js");
        yes("a!(b)", "a");
        no("!(a)", "a");
        yes("!(a)", "ab");
        // Regex-style groups.
        yes("**/*.(test|spec).js", "x/a.test.js");
        no("**/*.(test|spec).js", "x/a.check.js");
        // Nested.
        yes("*.@(a|+(b|c)).x", "f.bcb.x");
        no("*.@(a|+(b|c)).x", "f.ad.x");
        yes("!(*([r-t]))acy", "macy");
    }

    #[test]
    fn runner_default_patterns() {
        let jest_dir = "**/__tests__/**/*.?([mc])[jt]s?(x)";
        let jest_name = "**/?(*.)+(spec|test).?([mc])[jt]s?(x)";
        let vitest = "**/*.{test,spec}.?(c|m)[jt]s?(x)";
        yes(jest_dir, "src/__tests__/a.js");
        yes(jest_dir, "__tests__/deep/a.mts");
        no(jest_dir, "src/__tests__");
        no(jest_dir, "src/tests/a.js");
        yes(jest_name, "src/a.test.js");
        yes(jest_name, "a.spec.tsx");
        yes(jest_name, "test.js");
        yes(jest_name, "x/a.b.spec.cjs");
        no(jest_name, "src/a.js");
        no(jest_name, "src/a.test.py");
        no(jest_name, "src/latest.js");
        yes(vitest, "src/a.test.ts");
        yes(vitest, "src/a.spec.mjs");
        yes(vitest, "a.test.cjsx");
        no(vitest, "src/test.ts");
        no(vitest, "src/a.test.mcjs");
    }

    #[test]
    fn malformed_patterns_are_literal() {
        yes("a(b", "a(b");
        no("a(b", "ab");
        yes("a[b", "a[b");
        yes("{a,b", "{a,b");
        no("{a,b", "a");
        yes("@(a", "@(a");
        yes("a\\*", "a*");
        no("a\\*", "ab");
        yes("a\\", "a\\");
        yes("[a-", "[a-");
        yes(")(", ")(");
        yes("}{", "}{");
        for pattern in [
            "[",
            "{",
            "(",
            "!(",
            "+(a|",
            "[[:alpha:",
            "\\",
            "{1..}",
            "**(",
            "[!",
        ] {
            let _ = Glob::new(pattern).is_match("anything/at/all");
        }
    }

    #[test]
    fn pathological_patterns_stay_polynomial() {
        let text = format!("{}c", "a".repeat(60));
        let pattern = format!("{}b", "*(a|aa)".repeat(30));
        no(&pattern, &text);
        let stars = format!("{}b", "*a".repeat(40));
        no(&stars, &"a".repeat(200));
        let globstars = format!("{}x", "**/".repeat(40));
        no(&globstars, &"a/".repeat(100));
        yes(&"!(a|b)".repeat(20), &"c".repeat(100));
        no(&format!("{}x", "!(a|b)".repeat(20)), &"c".repeat(100));
        let nested = format!("{}a{}", "@(".repeat(40), ")".repeat(40));
        yes(&nested, &format!("{}a{}", "@(".repeat(8), ")".repeat(8)));
    }
}
