#!/usr/bin/env python3
"""Issue 12's speed targets, checked against one run of the shared benchmark and the growth pair.

Usage: bench/targets.py [--results RESULTS_TSV] [--growth GROWTH_TSV]

RESULTS_TSV is the results.tsv that ../shared/bench/run.sh writes (one row per range and tool:
repo, size, tool, median_s, ..., check_rc, check_s, findings, scanned); GROWTH_TSV the file
`bench/growth.py --tsv` writes. Prints one Markdown table per source, each target marked met or
missed, and a tally. The targets:
  S      gate <= 3x git diff (the floor) and <= 50 ms
  S, M   gate faster than ast-grep
  L      gate <= 2x Kingfisher
  growth a one-line change in a 10,000-line test file <= 2x the same change in a 100-line one
"""
import argparse
import csv
import re
import sys

S_FLOOR_RATIO, S_MAX_S, L_KINGFISHER_RATIO, GROWTH_RATIO = 3.0, 0.050, 2.0, 2.0
REPO_NAMES = {"sympy/sympy": "sympy", "vitejs/vite": "vite", "rust-lang/cargo": "cargo"}


class Time:
    """A median in seconds, or a lower bound (a peer stopped at the cap), or nothing."""

    def __init__(self, row):
        self.value, self.lower_bound, self.note = None, False, ""
        self.single = row is not None and row.get("runs") == "1*"
        if row is None:
            self.note = "not run"
        elif row.get("median_s"):
            self.value = float(row["median_s"])
        elif row.get("check_rc") in ("capped", "skipped"):
            cap = re.search(r"over (\d+(?:\.\d+)?) s cap", row.get("findings", ""))
            if cap:
                self.value, self.lower_bound = float(cap.group(1)), True
            self.note = "capped"
        else:
            self.note = f"error (exit {row.get('check_rc', '?')})"

    def __str__(self):
        if self.value is None:
            return self.note
        text = f"{self.value * 1000:.1f} ms" if self.value < 1 else f"{self.value:.2f} s"
        return ("> " + text) if self.lower_bound else text + ("*" if self.single else "")


def ratio(gate, other):
    """gate / other as text; a capped peer makes it an upper bound."""
    if gate.value is None or gate.lower_bound or other.value is None:
        return ""
    r = gate.value / other.value
    return ("< " if other.lower_bound else "") + (f"{r:.1f}×" if r >= 10 else f"{r:.2f}×")


def at_most(gate, other, factor):
    """Whether gate <= factor x other (None: cannot tell)."""
    if gate.value is None or other.value is None:
        return None
    if other.lower_bound:
        return True if gate.value <= factor * other.value else None
    return gate.value <= factor * other.value


def mark(name, ok):
    return f"{name}: " + {True: "met", False: "missed", None: "n/a"}[ok]


def range_rows(results_path):
    rows = list(csv.DictReader(open(results_path), delimiter="\t"))
    ranges = []
    for r in rows:
        if (r["repo"], r["size"]) not in ranges:
            ranges.append((r["repo"], r["size"]))
    tally, out, single = [], [], False
    out.append("| range | git diff | gate | ast-grep | kingfisher | gate ÷ floor | gate ÷ ast-grep "
               "| gate ÷ kingfisher | targets |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for repo, size in ranges:
        by_tool = {r["tool"]: r for r in rows if (r["repo"], r["size"]) == (repo, size)}
        floor, gate = Time(by_tool.get("git-diff")), Time(by_tool.get("integrity-gate"))
        ast_grep, kingfisher = Time(by_tool.get("ast-grep")), Time(by_tool.get("kingfisher"))
        checks = []
        if size == "S":
            checks.append(mark("≤ 3× floor", at_most(gate, floor, S_FLOOR_RATIO)))
            checks.append(mark("≤ 50 ms", None if gate.value is None else gate.value <= S_MAX_S))
        if size in ("S", "M"):
            # "faster than": strictly below; equal medians are not faster
            ok = at_most(gate, ast_grep, 1.0)
            if ok and gate.value == ast_grep.value and not ast_grep.lower_bound:
                ok = False
            checks.append(mark("< ast-grep", ok))
        if size == "L":
            checks.append(mark("≤ 2× kingfisher", at_most(gate, kingfisher, L_KINGFISHER_RATIO)))
        tally += checks
        single = single or any(t.single for t in (floor, gate, ast_grep, kingfisher))
        name = f"{REPO_NAMES.get(repo, repo)} {size}"
        out.append(f"| {name} | {floor} | {gate} | {ast_grep} | {kingfisher} | {ratio(gate, floor)} "
                   f"| {ratio(gate, ast_grep)} | {ratio(gate, kingfisher)} | {'; '.join(checks)} |")
    if single:
        out.append("")
        out.append("`*` one measurement: the check run alone took longer than run.sh's time budget.")
    return out, tally


def growth_rows(growth_path):
    rows = list(csv.DictReader(open(growth_path), delimiter="\t"))
    out, tally = [], []
    if not rows:
        return out, tally
    small, large = int(rows[0]["small_lines"]), int(rows[0]["large_lines"])
    out.append(f"| growth pair | {small:,} lines | {large:,} lines | ratio | targets |")
    out.append("|---|---:|---:|---:|---|")
    for r in rows:
        ts, tl, q = float(r["small_s"]), float(r["large_s"]), float(r["ratio"])
        check = mark("≤ 2×", q <= GROWTH_RATIO)
        tally.append(check)
        out.append(f"| {r['language']} | {ts * 1000:.1f} ms | {tl * 1000:.1f} ms | {q:.1f}× | {check} |")
    return out, tally


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--results", help="results.tsv of ../shared/bench/run.sh")
    p.add_argument("--growth", help="the TSV of bench/growth.py --tsv")
    a = p.parse_args()
    if not a.results and not a.growth:
        p.error("give --results, --growth or both")
    lines, tally = [], []
    for path, rows in ((a.results, range_rows), (a.growth, growth_rows)):
        if path:
            more, more_tally = rows(path)
            lines += ([""] if lines else []) + more
            tally += more_tally
    print("\n".join(lines))
    met = sum(t.endswith(": met") for t in tally)
    unknown = sum(t.endswith(": n/a") for t in tally)
    print()
    print(f"issue-12 targets met: {met} of {len(tally)}" + (f" ({unknown} not measurable)" if unknown else ""))


if __name__ == "__main__":
    main()
