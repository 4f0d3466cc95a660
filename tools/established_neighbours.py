#!/usr/bin/env python3
"""Writes src/deps/data/established-{pypi,npm}.txt: registered package names that sit within
typosquat distance of a popular name (src/deps/data/popular-*.txt) and are established, so the
`new-dependency` rule does not call them look-alikes (`toronado`, a CSS inliner on PyPI since
2014, is one insertion away from `tornado`).

Usage: python3 tools/established_neighbours.py [PACKAGES_DIR]
PACKAGES_DIR defaults to /work/.library/env/packages, the workplace's offline registry lists
(outside the repository): pypi.tsv (name, version, month of the latest release,
rank_among_15000_most_downloaded, summary) and npm.tsv (name, version, downloads_a_month,
summary). The generated files are committed; run this again after refreshing the popular lists.
Python 3 standard library only; the output is deterministic for the same inputs.

"Within typosquat distance" is a superset of what src/deps/typosquat.rs can flag, so the list
stays valid when its finer rules change: same letters with other separators, a popular name
with one of the rule's ecosystem affixes, or an optimal-string-alignment distance of at most 1
(2 when the popular name has 10 or more characters) from a popular name of 4 or more
characters, the length differing by at most 2. Every name of the popular list is a target, not
only the head the rule currently aims at.

"Established" (the evidence that a name is a real project and not a squat):
- not a placeholder: the version is not all zeros or a `-security` holding version, and the
  summary is not empty, does not say "did you mean", "typo", "squat", "placeholder",
  "reserved", "security holding", "malicious" or "prevent", and is not a copy of the popular
  neighbour's summary (squats copy their target's metadata);
- PyPI: ranked among the 15000 most downloaded projects, or its latest release is at least 12
  months older than the newest release month in the list: the name has stood on the index for
  a year, and PyPI removes malicious uploads within days of a report;
- npm: at least 5000 downloads a month (the median of npm.tsv is about 4600; registry mirrors
  alone give any package a few hundred), and not a scoped name: a scope's packages are only
  compared across scopes, and a scope is anyone's for the asking.
Crates: no offline crates.io list exists here, so there is no crates file.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "src", "deps", "data")
MIN_NPM_DOWNLOADS = 5000
MIN_AGE_MONTHS = 12
PLACEHOLDER = re.compile(
    r"did you mean|typo|squat|placeholder|reserved|security holding|malicious|prevent",
    re.IGNORECASE,
)
# Mirrors `affixes` in src/deps/typosquat.rs.
AFFIXES = {
    "pypi": (("python-", "python3-", "py-"), ("-python", "-py")),
    "npm": (("node-", "js-"), ("-js", ".js", "-node")),
}


def pep503(name):
    return re.sub(r"[-_.]+", "-", name.strip()).lower().strip("-")


def canonical(eco, name):
    return pep503(name) if eco == "pypi" else name.strip().lower()


def squash(name):
    return re.sub(r"[-_.@/]", "", name)


def osa(a, b, limit):
    """Optimal string alignment distance, or limit + 1 when it is larger than limit."""
    n, m = len(a), len(b)
    if abs(n - m) > limit:
        return limit + 1
    prev2, prev = None, list(range(m + 1))
    for i in range(1, n + 1):
        cur = [i] + [0] * m
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[m]


def deletions(word, depth):
    """Every string made by deleting up to `depth` characters (the symmetric-delete index)."""
    out = {word}
    frontier = {word}
    for _ in range(depth):
        frontier = {w[:k] + w[k + 1:] for w in frontier for k in range(len(w))}
        out |= frontier
    return out


def popular(eco):
    path = os.path.join(DATA, f"popular-{eco}.txt")
    with open(path, encoding="utf-8") as f:
        return [canonical(eco, l) for l in f if l.strip() and not l.startswith("#")]


def registered(eco, packages_dir):
    """(canonical name, version, evidence columns, summary) for each listed package."""
    path = os.path.join(packages_dir, f"{eco}.tsv")
    with open(path, encoding="utf-8", errors="replace") as f:
        next(f)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 4:
                continue
            yield cols


def month_index(month):
    year, mon = month.split("-")
    return int(year) * 12 + int(mon) - 1


def placeholder(version, summary, neighbour_summaries):
    v = version.strip().lower()
    if re.fullmatch(r"0(\.0)*", v) or "security" in v:
        return True
    s = summary.strip()
    return not s or PLACEHOLDER.search(s) is not None or s in neighbour_summaries


def neighbours_of(eco, name, targets, by_squash, index):
    """Popular names `name` is within typosquat distance of."""
    found = set()
    if squash(name) in by_squash:
        found |= by_squash[squash(name)]
    prefixes, suffixes = AFFIXES[eco]
    for p in prefixes:
        if name.startswith(p) and name[len(p):] in targets:
            found.add(name[len(p):])
    for s in suffixes:
        if name.endswith(s) and name[: -len(s)] in targets:
            found.add(name[: -len(s)])
    for key in deletions(name, 2):
        for target in index.get(key, ()):
            limit = 2 if len(target) >= 10 else 1
            if abs(len(target) - len(name)) <= limit and osa(name, target, limit) <= limit:
                found.add(target)
    found.discard(name)
    return found


def generate(eco, packages_dir):
    targets = set(popular(eco))
    by_squash = {}
    index = {}
    for t in targets:
        by_squash.setdefault(squash(t), set()).add(t)
        if len(t) >= 4:
            for key in deletions(t, 2 if len(t) >= 10 else 1):
                index.setdefault(key, set()).add(t)
    rows = list(registered(eco, packages_dir))
    summaries = {}
    for cols in rows:
        c = canonical(eco, cols[0])
        if c in targets:
            summaries[c] = cols[-1].strip()
    newest = max((month_index(cols[2]) for cols in rows if eco == "pypi" and cols[2]), default=0)
    kept = set()
    for cols in rows:
        name = canonical(eco, cols[0])
        if len(name) < 3 or name in targets:
            continue
        if eco == "pypi":
            ranked = cols[3].strip().isdigit()
            old = bool(cols[2]) and newest - month_index(cols[2]) >= MIN_AGE_MONTHS
            if not (ranked or old):
                continue
        else:
            if name.startswith("@"):
                continue
            if not cols[2].isdigit() or int(cols[2]) < MIN_NPM_DOWNLOADS:
                continue
        near = neighbours_of(eco, name, targets, by_squash, index)
        if not near:
            continue
        if placeholder(cols[1], cols[-1], {summaries.get(n) for n in near}):
            continue
        kept.add(name)
    return sorted(kept)


def main():
    packages_dir = sys.argv[1] if len(sys.argv) > 1 else "/work/.library/env/packages"
    headers = {
        "pypi": "# PyPI names within typosquat distance of a popular name that are established "
        "(ranked in the top 15000 or last released 12+ months before the list's newest month; "
        "no placeholder), from the workplace list pypi.tsv by tools/established_neighbours.py; "
        "PEP 503 normalised, sorted.",
        "npm": "# npm names within typosquat distance of a popular name that are established "
        f"({MIN_NPM_DOWNLOADS}+ downloads a month, unscoped, no placeholder), from the workplace "
        "list npm.tsv by tools/established_neighbours.py; lowercased, sorted.",
    }
    for eco in ("pypi", "npm"):
        names = generate(eco, packages_dir)
        out = os.path.join(DATA, f"established-{eco}.txt")
        with open(out, "w", encoding="utf-8") as f:
            f.write(headers[eco] + "\n")
            for n in names:
                f.write(n + "\n")
        print(f"{out}: {len(names)} names, {os.path.getsize(out)} bytes")


if __name__ == "__main__":
    main()
