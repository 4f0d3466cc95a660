#!/usr/bin/env python3
"""Run integrity-gate over the last N first-parent commits of a repository.

Each commit C is judged as the pull request C^..C (for a merge commit: everything the merged
branch brought in). Writes one TSV row per finding and one per commit, then prints per-rule
counts, timing and the commits where the gate could not run (exit 2: always a bug to report
when the commit is a normal one). See README "Contributing: judging precision on real history".
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter


def tsv(value):
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def git(gitdir, *args):
    return subprocess.run(["git", "-C", gitdir, *args], check=True, capture_output=True, text=True).stdout


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gitdir", help="repository or bare mirror")
    ap.add_argument("n", type=int, help="how many first-parent commits, newest first")
    ap.add_argument("gate", help="integrity-gate binary")
    ap.add_argument("--name", help="repository name for the TSV (default: directory name)")
    ap.add_argument("--rev", default="HEAD", help="newest commit (default HEAD)")
    ap.add_argument("--out", default=".", help="directory for findings.tsv and commits.tsv")
    ap.add_argument("--json-dir", help="also keep each commit's JSON report here")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per commit (default 600)")
    args = ap.parse_args()

    gitdir = os.path.abspath(args.gitdir)
    name = args.name or os.path.basename(gitdir.rstrip("/")).removesuffix(".git")
    os.makedirs(args.out, exist_ok=True)
    if args.json_dir:
        os.makedirs(args.json_dir, exist_ok=True)
    commits = git(gitdir, "rev-list", "--first-parent", f"--max-count={args.n}", args.rev).split()

    rules, exit2, timings = Counter(), [], []
    with open(os.path.join(args.out, "findings.tsv"), "w") as ft, open(os.path.join(args.out, "commits.tsv"), "w") as ct:
        ft.write("repo\tcommit\trule\tseverity\tpath\tline\tmessage\n")
        ct.write("commit\tfiles\tfindings\tblocking\texit\tms\n")
        for i, commit in enumerate(commits, 1):
            if not git(gitdir, "rev-list", "--parents", "-n", "1", commit).split()[1:]:
                continue  # root commit: nothing to compare against
            cmd = [args.gate, "diff", f"{commit}^", "--head", commit, "--format", "json", "-C", gitdir]
            start = time.monotonic()
            try:
                run = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
                code, out, err = run.returncode, run.stdout, run.stderr
            except subprocess.TimeoutExpired:
                code, out, err = "timeout", "", f"no answer after {args.timeout} s"
            ms = round((time.monotonic() - start) * 1000)
            timings.append(ms)
            files = findings = blocking = ""
            if code in (0, 1):
                report = json.loads(out)
                if args.json_dir:
                    with open(os.path.join(args.json_dir, f"{commit}.json"), "w") as f:
                        f.write(out)
                summary = report["summary"]
                files, findings, blocking = summary["files_scanned"], summary["findings"], summary["blocking"]
                for fd in report["findings"]:
                    rules[(fd["rule"], fd["severity"])] += 1
                    row = [name, commit, fd["rule"], fd["severity"], fd["path"], fd.get("line", ""), fd["message"]]
                    ft.write("\t".join(tsv(v) for v in row) + "\n")
            else:
                exit2.append((commit, code, err.strip().splitlines()[-1:] or [""]))
            ct.write("\t".join(tsv(v) for v in [commit, files, findings, blocking, code, ms]) + "\n")
            ct.flush()
            ft.flush()
            if sys.stderr.isatty():
                print(f"\r{name}: {i}/{len(commits)}", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)

    print(f"{name}: {len(timings)} commits, median {statistics.median(timings) if timings else 0:.0f} ms, "
          f"p90 {percentile(timings, 0.9)} ms, max {max(timings, default=0)} ms")
    print(f"{'rule':<28}{'error':>8}{'warning':>9}{'note':>7}")
    for rule in sorted({r for r, _ in rules}):
        counts = [rules[(rule, s)] for s in ("error", "warning", "note")]
        print(f"{rule:<28}{counts[0]:>8}{counts[1]:>9}{counts[2]:>7}")
    print(f"commits where the gate could not run (exit 2 or timeout): {len(exit2)}")
    for commit, code, last in exit2:
        print(f"  {commit} exit {code}: {last[0]}")


if __name__ == "__main__":
    main()
