#!/usr/bin/env python3
"""Growth pair: does the gate's time follow the change, or the size of the file it lands in?

For Python, TypeScript and Rust it builds two small git repositories that differ only in the
length of one test file (LARGE lines, default 10,000, against SMALL, default 100), commits a
one-line change to each (one assertion's expected value, in the middle of the file), and times
`integrity-gate diff BASE --head HEAD --format json` on all six in one hyperfine run. The
ratio large / small is the growth; issue 12's target is <= 2x. The three languages differ in
structure: Python has many top-level functions and classes, the vitest file is one top-level
`describe`, the Rust file one `#[cfg(test)] mod tests`.

Everything is deterministic: same content, same author, same dates, so the same commits.

Usage: bench/growth.py [--bin target/release/integrity-gate] [--large 10000] [--small 100]
                       [--runs 10] [--tsv FILE] [--keep]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TARGET = 2.0
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
}


# Each language: the project files around the test file, the test file's path, its fixed head
# and tail, a generator of self-contained units (unit k: a test, a class, a nested block, ...;
# unit 0 is the shortest) numbered by the first value they test, the comment that pads to the
# exact length, and the assertion whose expected value the change edits.
def python_units(k, n):
    kind = k % 4
    if kind == 0:
        return [f"def test_double_{n}():", f"    assert double({n}) == {n * 2}", "", ""], 1
    if kind == 1:
        lines = [f"# Block {k // 4 + 1}: the values from {n} on, grouped so a failure names its range.",
                 f"class TestDoubleFrom{n}:", f'    """Doubling from {n} to {n + 4}."""']
        for v in range(n, n + 5):
            lines += ["", f"    def test_double_{v}(self):", f"        assert double({v}) == {v * 2}"]
        return lines + ["", ""], 5
    if kind == 2:
        return [f'@pytest.mark.parametrize("value", [{n}, {n + 1}, {n + 2}])',
                f"def test_double_is_even_{n}(value):",
                "    # an even result whatever the input",
                "    assert double(value) % 2 == 0", "", ""], 3
    return [f"def test_double_{n}_is_monotonic():",
            f"    assert double({n}) < double({n + 1})",
            f"    assert double({n}) == {n * 2}", "", ""], 2


def typescript_units(k, n):
    kind = k % 3
    if kind == 0:
        return [f"  it('doubles {n}', () => {{", f"    expect(double({n})).toBe({n * 2})",
                "  })", ""], 1
    if kind == 1:
        lines = [f"  // Block {k // 3 + 1}: the values from {n} on.",
                 f"  describe('from {n}', () => {{"]
        for v in range(n, n + 4):
            lines += [f"    it('doubles {v}', () => {{", f"      expect(double({v})).toBe({v * 2})",
                      "    })", ""]
        return lines[:-1] + ["  })", ""], 4
    return [f"  it.each([{n}, {n + 1}, {n + 2}])('keeps %i even', (value) => {{",
            "    expect(double(value) % 2).toBe(0)", "  })", ""], 3


def rust_units(k, n):
    kind = k % 3
    if kind == 0:
        return ["    #[test]", f"    fn doubles_{n}() {{", f"        assert_eq!(double({n}), {n * 2});",
                "    }", ""], 1
    if kind == 1:
        lines = [f"    // Block {k // 3 + 1}: the values from {n} on.", f"    mod from_{n} {{",
                 "        use super::*;", ""]
        for v in range(n, n + 4):
            lines += ["        #[test]", f"        fn doubles_{v}() {{",
                      f"            assert_eq!(double({v}), {v * 2});", "        }", ""]
        return lines[:-1] + ["    }", ""], 4
    return ["    #[test]", f"    fn doubles_{n}_to_{n + 2}_even() {{",
            f"        for value in [{n}, {n + 1}, {n + 2}] {{",
            "            assert_eq!(double(value) % 2, 0);", "        }", "    }", ""], 3


LANGUAGES = {
    "python": {
        "files": {
            "pyproject.toml": '[project]\nname = "doubling"\nversion = "1.0.0"\n\n'
                              '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
            "src/doubling/__init__.py": '"""Doubling."""\n\n\ndef double(x):\n    return x * 2\n',
        },
        "path": "tests/test_double.py",
        "head": ['"""Tests of doubling: generated cases, one per value."""', "import pytest", "",
                 "from doubling import double", "", ""],
        "tail": [],
        "units": python_units,
        "pad": "# (more cases follow in the next release)",
        "assertion": re.compile(r"^(\s*assert double\(\d+\) == )(\d+)$"),
    },
    "typescript": {
        "files": {
            "package.json": '{\n  "name": "doubling",\n  "version": "1.0.0",\n  "type": "module",\n'
                            '  "scripts": { "test": "vitest run" },\n'
                            '  "devDependencies": { "vitest": "^3.2.0" }\n}\n',
            "src/double.ts": "export function double(x: number): number {\n  return x * 2\n}\n",
        },
        "path": "src/double.test.ts",
        "head": ["import { describe, expect, it } from 'vitest'", "import { double } from './double'",
                 "", "describe('double', () => {"],
        "tail": ["})"],
        "units": typescript_units,
        "pad": "  // (more cases follow in the next release)",
        "assertion": re.compile(r"^(\s*expect\(double\(\d+\)\)\.toBe\()(\d+)(\))$"),
    },
    "rust": {
        "files": {
            "Cargo.toml": '[package]\nname = "doubling"\nversion = "1.0.0"\nedition = "2021"\n',
        },
        "path": "src/lib.rs",
        "head": ["//! Doubling, with its unit tests.", "", "pub fn double(x: u64) -> u64 {", "    x * 2",
                 "}", "", "#[cfg(test)]", "mod tests {", "    use super::*;", ""],
        "tail": ["}"],
        "units": rust_units,
        "pad": "    // (more cases follow in the next release)",
        "assertion": re.compile(r"^(\s*assert_eq!\(double\(\d+\), )(\d+)(\);)$"),
    },
}


def test_file(spec, length):
    """The test file at exactly `length` lines (units while they fit, then padding comments)."""
    head, tail = spec["head"], spec["tail"]
    body, n, k = [], 0, 0
    while True:
        unit, used = spec["units"](k, n)
        if len(head) + len(body) + len(unit) + len(tail) > length:
            unit, used = spec["units"](0, n)  # the shortest kind, to fill the end tightly
            if len(head) + len(body) + len(unit) + len(tail) > length:
                break
        body += unit
        n += used
        k += 1
    # units end with blank lines, which would leave the file's end blank
    while body and body[-1] == "":
        body.pop()
    pad = length - len(head) - len(body) - len(tail)
    if pad < 0:
        raise SystemExit(f"growth.py: {length} lines is too short for a {spec['path']}")
    lines = head + body + [spec["pad"]] * pad + tail
    assert len(lines) == length
    return lines


def edit_middle_assertion(spec, lines):
    """The same lines with the expected value of the assertion nearest the middle changed."""
    candidates = [i for i, line in enumerate(lines) if spec["assertion"].match(line)]
    if not candidates:
        raise SystemExit(f"growth.py: no assertion to edit in {spec['path']}")
    at = min(candidates, key=lambda i: abs(i - len(lines) // 2))
    m = spec["assertion"].match(lines[at])
    edited = list(lines)
    edited[at] = m.group(1) + str(int(m.group(2)) + 1) + (m.group(3) if m.lastindex >= 3 else "")
    return edited, at + 1


def git(repo, *args, date):
    env = dict(os.environ, **GIT_ENV, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True,
                          env=env).stdout.strip()


def write(repo, rel, text):
    path = os.path.join(repo, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_repo(repo, spec, length):
    """Repository with the project and its test file, then a commit editing one assertion."""
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main", date="2026-01-01T00:00:00Z")
    for rel, text in spec["files"].items():
        write(repo, rel, text)
    lines = test_file(spec, length)
    write(repo, spec["path"], "\n".join(lines) + "\n")
    git(repo, "add", "-A", date="2026-01-01T00:00:00Z")
    git(repo, "commit", "-q", "-m", "tests of doubling", date="2026-01-01T00:00:00Z")
    base = git(repo, "rev-parse", "HEAD", date="2026-01-01T00:00:00Z")
    edited, line = edit_middle_assertion(spec, lines)
    write(repo, spec["path"], "\n".join(edited) + "\n")
    git(repo, "commit", "-q", "-am", "tests: update one expected value", date="2026-01-02T00:00:00Z")
    size = os.path.getsize(os.path.join(repo, spec["path"]))
    return base, line, size


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.path.join(root, "target/release/integrity-gate"))
    p.add_argument("--large", type=int, default=10000)
    p.add_argument("--small", type=int, default=100)
    p.add_argument("--runs", type=int, default=10, help="minimum timed runs per command")
    p.add_argument("--languages", default=",".join(LANGUAGES))
    p.add_argument("--tsv", help="also write the pairs here (read by bench/targets.py)")
    p.add_argument("--keep", action="store_true", help="keep the repositories (path printed)")
    a = p.parse_args()
    gate = os.path.abspath(a.bin)
    if not os.access(gate, os.X_OK):
        raise SystemExit(f"growth.py: no gate binary at {gate} (cargo build --release --locked)")
    if not shutil.which("hyperfine"):
        raise SystemExit("growth.py: hyperfine not found (apt-get install hyperfine)")
    languages = [lang for lang in a.languages.split(",") if lang]
    for lang in languages:
        if lang not in LANGUAGES:
            raise SystemExit(f"growth.py: unknown language {lang} (one of {', '.join(LANGUAGES)})")

    work = tempfile.mkdtemp(prefix="igbench-growth.")
    try:
        cases = []  # (language, lines, repo, base, edited line, bytes)
        for lang in languages:
            for length in (a.small, a.large):
                repo = os.path.join(work, f"{lang}-{length}")
                base, line, size = make_repo(repo, LANGUAGES[lang], length)
                cases.append((lang, length, repo, base, line, size))

        # check run: the gate must judge the change (exit 0 or 1), and says what it saw
        seen = {}
        for lang, length, repo, base, _, _ in cases:
            r = subprocess.run([gate, "diff", base, "--head", "HEAD", "--format", "json", "-C", repo],
                               capture_output=True, text=True)
            if r.returncode not in (0, 1):
                raise SystemExit(f"growth.py: gate exit {r.returncode} on {lang}-{length}: {r.stderr[:300]}")
            summary = json.loads(r.stdout)["summary"]
            seen[(lang, length)] = (summary["findings"], summary["files_scanned"])

        out = os.path.join(work, "hyperfine.json")
        cmd = ["hyperfine", "--style", "none", "-N", "-i", "--warmup", "2", "--min-runs", str(a.runs),
               "--export-json", out]
        for lang, length, repo, base, _, _ in cases:
            cmd += ["-n", f"{lang}-{length}",
                    f"{gate} diff {base} --head HEAD --format json -C {repo}"]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            raise SystemExit(f"growth.py: hyperfine failed: {r.stderr[-500:]}")
        medians = {r["command"]: r["median"] for r in json.load(open(out))["results"]}

        print(f"growth pair: {a.large:,}-line vs {a.small:,}-line test file, one assertion's expected "
              f"value edited in the middle; `integrity-gate diff BASE --head HEAD --format json`, "
              f"one hyperfine run (medians)")
        print()
        print(f"| language | test file | bytes ({a.small:,} / {a.large:,} lines) | edited line "
              f"| {a.small:,} lines | {a.large:,} lines | ratio | ≤ 2× |")
        print("|---|---|---:|---:|---:|---:|---:|---|")
        rows = []
        for lang in languages:
            small = next(c for c in cases if c[0] == lang and c[1] == a.small)
            large = next(c for c in cases if c[0] == lang and c[1] == a.large)
            ts, tl = medians[f"{lang}-{a.small}"], medians[f"{lang}-{a.large}"]
            ratio = tl / ts
            verdict = "met" if ratio <= TARGET else "missed"
            rows.append((lang, ts, tl, ratio, verdict, seen[(lang, a.small)][0], seen[(lang, a.large)][0]))
            print(f"| {lang} | `{LANGUAGES[lang]['path']}` | {small[5]:,} / {large[5]:,} "
                  f"| {small[4]} / {large[4]} | {ts * 1000:.1f} ms | {tl * 1000:.1f} ms "
                  f"| {ratio:.1f}× | {verdict} |")
        print()
        print("findings (small, large): " + ", ".join(f"{r[0]} {r[5]}, {r[6]}" for r in rows))
        if a.tsv:
            with open(a.tsv, "w") as f:
                f.write("language\tsmall_lines\tlarge_lines\tsmall_s\tlarge_s\tratio\tverdict\n")
                for lang, ts, tl, ratio, verdict, _, _ in rows:
                    f.write(f"{lang}\t{a.small}\t{a.large}\t{ts}\t{tl}\t{ratio}\t{verdict}\n")
        if a.keep:
            print(f"repositories kept in {work}")
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
