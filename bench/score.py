#!/usr/bin/env python3
"""Score history runs against judged blocking findings: per repository, how many blocking
findings a run has, how many of them were judged true or false, and how many commits in 100
the run blocks with nothing but false findings.

Usage: bench/score.py RUNS JUDGED
  RUNS    a folder of `bench/history.sh --out RUNS/<owner>+<name>` runs (findings.tsv, commits.tsv)
  JUDGED  a folder of `<owner>+<name>.tsv` judgments (repo, commit, rule, path, line, verdict,
          class, reason), such as bench/judged/2026-12-03

A finding is matched to its judgment by (commit, rule, path, line), else by (commit, rule,
path) when every judgment there agrees. A blocking finding nobody judged is counted apart:
read it before trusting the percentages (see README "Contributing: judging precision").
"""
import collections
import csv
import os
import sys


def rows(path):
    with open(path, newline="") as handle:
        yield from csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)


def judgments(path):
    exact, loose = {}, collections.defaultdict(set)
    if os.path.exists(path):
        for row in rows(path):
            verdict = row["verdict"].strip()
            exact[(row["commit"], row["rule"], row["path"], row["line"])] = verdict
            loose[(row["commit"], row["rule"], row["path"])].add(verdict)
    return exact, loose


def verdict_of(row, exact, loose):
    key = (row["commit"], row["rule"], row["path"], row["line"])
    if key in exact:
        return exact[key]
    agreed = loose.get(key[:3], set())
    return next(iter(agreed)) if len(agreed) == 1 else "unjudged"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[3])
    runs, judged = sys.argv[1], sys.argv[2]
    header = f"{'repo':28} {'commits':>7} {'blocking':>8} {'true':>4} {'false':>5} {'unjudged':>8} {'% true':>6} {'false-only/100':>14} {'median ms':>9}"
    print(header)
    total = collections.Counter()
    for name in sorted(os.listdir(runs)):
        findings = os.path.join(runs, name, "findings.tsv")
        if not os.path.exists(findings):
            continue
        exact, loose = judgments(os.path.join(judged, f"{name}.tsv"))
        times = sorted(int(row["ms"]) for row in rows(os.path.join(runs, name, "commits.tsv")))
        counts, per_commit = collections.Counter(), collections.defaultdict(list)
        for row in rows(findings):
            if row["severity"] != "error":
                continue
            verdict = verdict_of(row, exact, loose)
            counts[verdict] += 1
            per_commit[row["commit"]].append(verdict)
        false_only = sum(all(v == "false" for v in verdicts) for verdicts in per_commit.values())
        judged_count = counts["true"] + counts["false"]
        share = f"{100 * counts['true'] / judged_count:6.1f}" if judged_count else f"{'-':>6}"
        median = times[len(times) // 2] if times else 0
        print(f"{name:28} {len(times):7} {sum(counts.values()):8} {counts['true']:4} {counts['false']:5} "
              f"{counts['unjudged']:8} {share} {100 * false_only / max(1, len(times)):14.2f} {median:9}")
        total.update({"commits": len(times), "blocking": sum(counts.values()), "false_only": false_only, **counts})
    judged_count = total["true"] + total["false"]
    share = 100 * total["true"] / judged_count if judged_count else 0.0
    print(f"{'all':28} {total['commits']:7} {total['blocking']:8} {total['true']:4} {total['false']:5} "
          f"{total['unjudged']:8} {share:6.1f} {100 * total['false_only'] / max(1, total['commits']):14.2f}")


if __name__ == "__main__":
    main()
