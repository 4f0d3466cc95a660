//! Offline look-alike check for new package names (typosquatting and "slopsquatting", the
//! registration of names that code assistants hallucinate). Each new name is compared with a
//! bundled list of the most-used names of its ecosystem (`data/popular-*.txt`, see the header
//! line of each file for how it was made).
//!
//! Rules, in order; the first that matches wins:
//! 1. A name that is itself on the popular list is never a look-alike, nor is an established
//!    near-neighbour (`data/established-*.txt`: registered names within look-alike distance of
//!    a popular one that the registry lists show to be real, long-standing projects, such as
//!    `toronado` next to `tornado`; `tools/established_neighbours.py` says how they are chosen).
//!    Being on either list makes a name at least as popular as the neighbour it would be
//!    mistaken for needs: it is still a new dependency, only not a typosquat.
//! 2. Same letters with other separators (`pythondateutil`, `bit-vec` for `bitvec`); not on
//!    npm, which refuses new names that differ from existing ones only by punctuation.
//! 3. A popular name with an ecosystem affix added (`python-requests`, `requests-py`,
//!    `serde-rs`, `lodash-js`); the bare part must be ≥ 4 characters. The other direction
//!    (`dateutil` for `python-dateutil`) is not checked: such pairs are mostly separate projects.
//! 4. Optimal-string-alignment (Damerau–Levenshtein with adjacent swaps) distance. The budget
//!    grows with the length of the part that differs: below 4 characters nothing, 4–5 one
//!    adjacent swap only, 6–9 one edit, 10 and more two edits.
//!
//! What keeps legitimate names from being flagged (measured by running every listed name
//! against the rest of its list; the tests hold the counts down):
//! - Only the top [`target_top`] names of a list are targets; the rest only vouch for
//!   themselves. Squatters aim at the head of the distribution, while the long tail is full of
//!   legitimate near-namesakes (`chardet`/`cchardet`, `pika`/`pypika`).
//! - The distance budget is taken from the *differing segment* when both names have the same
//!   separator-delimited segments except one (`lodash.get` vs `lodash.set` differ only in a
//!   3-letter segment, so no edit is allowed), and from the whole name otherwise.
//! - Naming conventions are not typos: names that differ only in digits (`pyqt5`/`pyqt6`,
//!   `through`/`through2`), a whole extra character at either end (`cchardet`, `sqlglotc`)
//!   unless it doubles its neighbour (`requestss`), a missing first character, a plural `s`,
//!   a different first character (`redent`/`dedent`), and on npm punctuation-only differences.
//! - npm scoped names are compared only with names outside their own scope: only the scope's
//!   owner can publish `@babel/anything`, so a near-miss inside the scope is not a squat.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::{Ecosystem, pep503};

/// Why a name looks like a popular one, and which one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TyposquatHint {
    /// The popular package name (as listed) the new name resembles.
    pub similar_to: &'static str,
    /// Short explanation for the message, e.g. "adjacent characters swapped".
    pub reason: &'static str,
}

const PYPI_TXT: &str = include_str!("data/popular-pypi.txt");
const NPM_TXT: &str = include_str!("data/popular-npm.txt");
const CRATES_TXT: &str = include_str!("data/popular-crates.txt");
const PYPI_ESTABLISHED_TXT: &str = include_str!("data/established-pypi.txt");
const NPM_ESTABLISHED_TXT: &str = include_str!("data/established-npm.txt");

/// Only the most-used names of a list are squatting *targets*; the rest of the list only
/// vouches for itself. Attackers aim at the head of the distribution, and the long tail is
/// full of legitimate near-namesakes (`chardet`/`cchardet`, `pika`/`pypika`). npm's download
/// ranking is dominated by transitive packages (`mongoose` ranks about 4000), so its whole list
/// is used; the crates list is already a short list of names that large projects share.
pub(crate) fn target_top(eco: Ecosystem) -> usize {
    match eco {
        Ecosystem::PyPI => 1000,
        Ecosystem::Npm | Ecosystem::Cargo | Ecosystem::Go => usize::MAX,
    }
}

/// Shortest differing part that may differ by two edits.
const TWO_EDITS_FROM: usize = 10;

pub(crate) struct Popular {
    /// Names as listed, in rank order.
    pub names: Vec<&'static str>,
    /// Canonical comparison form of each name (same index).
    canon: Vec<String>,
    /// The canonical forms as characters, for the distance loop.
    chars: Vec<Vec<char>>,
    /// Canonical form → index of the most popular name with it.
    index: HashMap<String, usize>,
    /// Separator-free form → index of the most popular name with it.
    squashed: HashMap<String, usize>,
}

impl Popular {
    fn new(eco: Ecosystem, text: &'static str) -> Popular {
        let names: Vec<&'static str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let canon: Vec<String> = names.iter().map(|n| canonical(eco, n)).collect();
        let mut index = HashMap::new();
        let mut squashed = HashMap::new();
        for (i, c) in canon.iter().enumerate() {
            index.entry(c.clone()).or_insert(i);
            squashed.entry(squash(c)).or_insert(i);
        }
        let chars = canon.iter().map(|c| c.chars().collect()).collect();
        Popular {
            names,
            chars,
            canon,
            index,
            squashed,
        }
    }
}

pub(crate) fn popular(eco: Ecosystem) -> Option<&'static Popular> {
    static PYPI: OnceLock<Popular> = OnceLock::new();
    static NPM: OnceLock<Popular> = OnceLock::new();
    static CRATES: OnceLock<Popular> = OnceLock::new();
    match eco {
        Ecosystem::PyPI => Some(PYPI.get_or_init(|| Popular::new(eco, PYPI_TXT))),
        Ecosystem::Npm => Some(NPM.get_or_init(|| Popular::new(eco, NPM_TXT))),
        Ecosystem::Cargo => Some(CRATES.get_or_init(|| Popular::new(eco, CRATES_TXT))),
        // No download ranking for Go modules is available offline; module paths also embed
        // the hosting account, which makes name similarity a weak signal there.
        Ecosystem::Go => None,
    }
}

/// Sorted canonical names of an ecosystem's established near-neighbours (no list for crates:
/// no offline crates.io list exists to make one from).
pub(crate) fn established(eco: Ecosystem) -> &'static [&'static str] {
    static PYPI: OnceLock<Vec<&'static str>> = OnceLock::new();
    static NPM: OnceLock<Vec<&'static str>> = OnceLock::new();
    let (cell, text) = match eco {
        Ecosystem::PyPI => (&PYPI, PYPI_ESTABLISHED_TXT),
        Ecosystem::Npm => (&NPM, NPM_ESTABLISHED_TXT),
        Ecosystem::Cargo | Ecosystem::Go => return &[],
    };
    cell.get_or_init(|| {
        let mut names: Vec<&'static str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        // The generator writes them sorted; sorting again keeps the look-up right regardless.
        names.sort_unstable();
        names
    })
}

fn is_established(eco: Ecosystem, canon: &str) -> bool {
    established(eco).binary_search(&canon).is_ok()
}

/// Comparison form: PEP 503 for PyPI, lowercase for npm, lowercase with `_` as `-` for crates
/// (crates.io treats `-` and `_` as the same name, so they cannot be squatted).
fn canonical(eco: Ecosystem, name: &str) -> String {
    match eco {
        Ecosystem::PyPI => pep503(name),
        Ecosystem::Npm => name.trim().to_lowercase(),
        Ecosystem::Cargo => name.trim().to_lowercase().replace('_', "-"),
        Ecosystem::Go => name.trim().to_string(),
    }
}

fn squash(c: &str) -> String {
    c.chars()
        .filter(|ch| !matches!(ch, '-' | '_' | '.' | '@' | '/'))
        .collect()
}

/// Prefixes and suffixes that people (and models) attach to a package's name to say which
/// language it is for; a popular name wearing one is a classic squat.
fn affixes(eco: Ecosystem) -> (&'static [&'static str], &'static [&'static str]) {
    match eco {
        Ecosystem::PyPI => (&["python-", "python3-", "py-"], &["-python", "-py"]),
        Ecosystem::Npm => (&["node-", "js-"], &["-js", ".js", "-node"]),
        Ecosystem::Cargo => (&["rust-", "rs-"], &["-rs", "-rust"]),
        Ecosystem::Go => (&[], &[]),
    }
}

fn scope(c: &str) -> Option<&str> {
    if c.starts_with('@') {
        c.split_once('/').map(|(s, _)| s)
    } else {
        None
    }
}

/// Is `name` a look-alike of a popular package of `ecosystem`? `None` for names on the list,
/// established near-neighbours, names that resemble nothing, and ecosystems without a list (Go).
pub fn typosquat(ecosystem: Ecosystem, name: &str) -> Option<TyposquatHint> {
    let pop = popular(ecosystem)?;
    let c = canonical(ecosystem, name);
    if pop.index.contains_key(&c) || is_established(ecosystem, &c) {
        return None;
    }
    check(pop, ecosystem, &c, None).map(|(i, reason)| TyposquatHint {
        similar_to: pop.names[i],
        reason,
    })
}

/// The check proper; `exclude` removes one list entry from consideration so the tests can run
/// every popular name against the rest of its list.
pub(crate) fn check(
    pop: &Popular,
    eco: Ecosystem,
    c: &str,
    exclude: Option<usize>,
) -> Option<(usize, &'static str)> {
    if c.chars().count() < 3 {
        return None;
    }
    let own_scope = scope(c);
    let top = target_top(eco);
    let usable = |i: usize| i < top && Some(i) != exclude && !same_scope(own_scope, &pop.canon[i]);

    // npm has refused new names that differ from an existing one only by punctuation since
    // 2017, so on npm such pairs are old, established packages rather than squats.
    if eco != Ecosystem::Npm
        && let Some(&i) = pop.squashed.get(&squash(c))
        && usable(i)
    {
        return Some((i, "same name with different separators"));
    }

    let (prefixes, suffixes) = affixes(eco);
    let lookup = |candidate: &str| -> Option<usize> {
        pop.index.get(candidate).copied().filter(|&i| usable(i))
    };
    for p in prefixes {
        if let Some(rest) = c.strip_prefix(p)
            && rest.len() >= 4
            && let Some(i) = lookup(rest)
        {
            return Some((i, "popular name with an added prefix"));
        }
    }
    for s in suffixes {
        if let Some(rest) = c.strip_suffix(s)
            && rest.len() >= 4
            && let Some(i) = lookup(rest)
        {
            return Some((i, "popular name with an added suffix"));
        }
    }
    let cand: Vec<char> = c.chars().collect();
    let c_squashed = squash(c);
    let mut best: Option<(usize, usize, bool)> = None; // (index, distance, swap)
    let mut scratch = Vec::new();
    for (i, (p, pc)) in pop.canon.iter().zip(&pop.chars).enumerate().take(top) {
        // Cheap filters first: this loop runs over the whole list for every new name.
        if pc.len().abs_diff(cand.len()) > 2 || pc.len() < 4 || !usable(i) {
            continue;
        }
        let Some((d, swap)) = osa_distance_in(&cand, pc, 2, &mut scratch) else {
            continue;
        };
        let budget_len = differing_len(c, p);
        let max = match budget_len {
            0..=3 => continue,
            4..TWO_EDITS_FROM => 1,
            _ => 2,
        };
        if d == 0
            || d > max
            || (budget_len <= 5 && !swap)
            || digit_family(&cand, pc)
            || naming_variant(&cand, pc)
            || (eco == Ecosystem::Npm && npm_variant(&c_squashed, p))
        {
            continue;
        }
        if best.is_none_or(|(_, bd, _)| d < bd) {
            best = Some((i, d, swap));
            if d == 1 {
                break;
            }
        }
    }
    best.map(|(i, d, swap)| {
        let reason = if swap && d == 1 {
            "adjacent characters swapped"
        } else if d == 1 {
            "one character different"
        } else {
            "two characters different"
        };
        (i, reason)
    })
}

fn same_scope(own: Option<&str>, other: &str) -> bool {
    own.is_some() && own == scope(other)
}

fn segments(s: &str) -> Vec<&str> {
    s.split(['-', '_', '.', '/']).collect()
}

/// Length of the only differing segment when both names split into the same number of
/// segments and exactly one differs; otherwise the length of `popular`.
fn differing_len(cand: &str, popular: &str) -> usize {
    let a = segments(cand);
    let b = segments(popular);
    if a.len() == b.len() && a.len() > 1 {
        let diffs: Vec<usize> = (0..a.len()).filter(|&k| a[k] != b[k]).collect();
        if let [k] = diffs.as_slice() {
            return b[*k].chars().count();
        }
    }
    popular.chars().count()
}

/// Differences that real, unrelated packages show far more often than squats do: a whole
/// extra character at either end (`cchardet`, `pycryptodomex`, `sqlglotc`) unless it doubles
/// its neighbour (`requestss`), a missing first character (`xtend`, `notify`), a plural `s`
/// (`aiofiles`, `cookies`), and a different first character (`redent`/`dedent`). Typing slips
/// that squatters imitate sit inside the name: swaps, doubled, dropped or replaced letters.
fn naming_variant(cand: &[char], pop: &[char]) -> bool {
    let (n, m) = (cand.len(), pop.len());
    if n > m && cand.starts_with(pop) {
        let extra = &cand[m..];
        return !(extra.len() == 1 && pop.last() == extra.first());
    }
    if n > m && cand.ends_with(pop) {
        let extra = &cand[..n - m];
        return !(extra.len() == 1 && pop.first() == extra.last());
    }
    if n < m && pop.ends_with(cand) {
        return true;
    }
    if n < m && pop.starts_with(cand) {
        // Dropping the last letter is a slip; dropping a plural `s` or a whole suffix
        // (`webdriver`/`webdriverio`) is a different name.
        return pop[n..] == ['s'] || m - n >= 2;
    }
    n == m && n > 1 && cand[0] != pop[0] && cand[1..] == pop[1..]
}

/// npm ignores punctuation when it checks new names against existing ones, so compare the
/// punctuation-free forms too (`event-emitter`/`eventemitter3`, `xml-js`/`xml2js`).
fn npm_variant(cand_squashed: &str, popular: &str) -> bool {
    let p = squash(popular);
    if p == cand_squashed {
        return true;
    }
    let a: Vec<char> = cand_squashed.chars().collect();
    let b: Vec<char> = p.chars().collect();
    digit_family(&a, &b) || naming_variant(&a, &b)
}

/// Names that differ only in digits (`pyqt5`/`pyqt6`, `psycopg`/`psycopg2`,
/// `elasticsearch`/`elasticsearch8`): version families rather than typos.
fn digit_family(a: &[char], b: &[char]) -> bool {
    let strip =
        |s: &[char]| -> Vec<char> { s.iter().copied().filter(|c| !c.is_ascii_digit()).collect() };
    let (a_letters, b_letters) = (strip(a), strip(b));
    if a_letters != b_letters || a_letters.is_empty() {
        return false;
    }
    let has_digit = |s: &[char]| s.iter().any(char::is_ascii_digit);
    // `pyqt5`/`pyqt6`, or a version number appended (`elasticsearch8`); a digit inserted
    // into the middle of a plain name (`python3-dateutil`) is a known squatting pattern.
    let appended = |long: &[char], short: &[char]| {
        long.starts_with(short) && long[short.len()..].iter().all(char::is_ascii_digit)
    };
    (has_digit(a) && has_digit(b)) || appended(a, b) || appended(b, a)
}

/// Optimal string alignment distance if it is ≤ `max`, with a flag telling whether a single
/// adjacent transposition explains the whole difference.
#[cfg(test)]
pub(crate) fn osa_distance(a: &[char], b: &[char], max: usize) -> Option<(usize, bool)> {
    osa_distance_in(a, b, max, &mut Vec::new())
}

/// [`osa_distance`] with a caller-owned buffer, so the list scan does not allocate per name.
fn osa_distance_in(
    a: &[char],
    b: &[char],
    max: usize,
    d: &mut Vec<usize>,
) -> Option<(usize, bool)> {
    let (n, m) = (a.len(), b.len());
    if n.abs_diff(m) > max {
        return None;
    }
    let width = m + 1;
    let big = max + 1;
    d.clear();
    d.resize((n + 1) * width, big);
    for (j, cell) in d.iter_mut().enumerate().take(m.min(max) + 1) {
        *cell = j;
    }
    for i in 1..=n {
        if i <= max {
            d[i * width] = i;
        }
        let lo = i.saturating_sub(max).max(1);
        let hi = (i + max).min(m);
        let mut row_min = if i <= max { i } else { big };
        for j in lo..=hi {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * width + j - 2] + 1);
            }
            let v = v.min(big);
            d[i * width + j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
    }
    let dist = d[n * width + m];
    if dist > max {
        return None;
    }
    let swap = dist == 1 && n == m && is_single_swap(a, b);
    Some((dist, swap))
}

fn is_single_swap(a: &[char], b: &[char]) -> bool {
    let diffs: Vec<usize> = (0..a.len()).filter(|&k| a[k] != b[k]).collect();
    matches!(diffs.as_slice(), [x, y] if *y == x + 1 && a[*x] == b[*y] && a[*y] == b[*x])
}
