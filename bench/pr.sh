#!/usr/bin/env bash
# Benchmark: how long `integrity-gate diff` takes to judge a pull-request-sized change.
#
# Builds a throwaway repository with FILES source and test files (Python, JavaScript,
# TypeScript, Rust; ~120 lines each) on main, then a branch that edits CHANGED of them (new tests,
# skips, a focused test, a commented-out check, a new dependency) and runs
# `integrity-gate diff main` RUNS times. Prints min / median / max wall time in milliseconds.
# Target: a PR-sized change (CHANGED=40) well under 100 ms on a 2-core machine.
#
# Usage: bench/pr.sh [FILES=400] [CHANGED=40] [RUNS=20]
set -euo pipefail
files=${1:-400}
changed=${2:-40}
runs=${3:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
gate="$root/target/release/integrity-gate"
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
python3 - "$work" "$files" "$changed" <<'PY'
import os, subprocess, sys
work, files, changed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def git(*args):
    subprocess.run(["git", "-C", work, "-c", "user.name=b", "-c", "user.email=b@b", "-c", "commit.gpgsign=false", *args], check=True, capture_output=True)
def py(i, skip=False):
    body = "".join(f"\n\ndef test_case_{i}_{j}():\n    value = compute({j})\n    assert value == {j * 2}\n    assert isinstance(value, int)\n" for j in range(20))
    if skip:
        body = body.replace(f"def test_case_{i}_3():", f"@pytest.mark.skip(reason='flaky')\ndef test_case_{i}_3():")
    return f"import pytest\nfrom app import compute\n{body}"
def js(i, skip=False, modifier="only"):
    body = "".join(f"  it('computes {j}', () => {{\n    expect(compute({j})).toBe({j * 2});\n  }});\n" for j in range(25))
    if skip:
        body = body.replace("  it('computes 3'", f"  it.{modifier}('computes 3'")
    return f"import {{ compute }} from '../src/app';\n\ndescribe('suite {i}', () => {{\n{body}}});\n"
def rs(i, skip=False):
    body = "".join(f"    #[test]\n    fn computes_{j}() {{\n        assert_eq!(compute({j}), {j * 2});\n    }}\n\n" for j in range(20))
    if skip:
        body = body.replace("    #[test]\n    fn computes_3()", "    #[test]\n    #[ignore]\n    fn computes_3()")
    return f"pub fn compute(x: u64) -> u64 {{\n    if x > 1000 {{\n        panic!(\"too big\");\n    }}\n    x * 2\n}}\n\n#[cfg(test)]\nmod tests {{\n    use super::*;\n\n{body}}}\n"
def write(rel, text):
    p = os.path.join(work, rel); os.makedirs(os.path.dirname(p), exist_ok=True); open(p, "w").write(text)
def ts(i, skip=False):
    return js(i, skip, modifier="skip")
kinds = [("tests/test_m{}.py", py), ("web/m{}.test.js", js), ("web/m{}.test.ts", ts), ("crates/m{}/src/lib.rs", rs)]
# What an honest edit looks like in each kind: one more test at the end of the file.
honest = ["\n\ndef test_added():\n    assert compute(1) == 2\n",
          "\ntest('added', () => {\n  expect(compute(1)).toBe(2);\n});\n",
          "\ntest('added', () => {\n  expect(compute(1)).toBe(2);\n});\n",
          "\n#[test]\nfn added() {\n    assert_eq!(compute(1), 2);\n}\n"]
git("init", "-q", "-b", "main")
for i in range(files):
    pattern, make = kinds[i % len(kinds)]
    write(pattern.format(i), make(i))
write("requirements.txt", "flask==3.0.0\nrequests==2.31.0\n")
git("add", "-A"); git("commit", "-q", "-m", "base")
git("checkout", "-q", "-b", "feature")
# Every changed file really changes, in all four languages: half of each kind cheat (a skip,
# a focused test, an ignored test), the other half add a test.
for i in range(changed):
    pattern, make = kinds[i % len(kinds)]
    cheat = (i // len(kinds)) % 2 == 0
    write(pattern.format(i), make(i, skip=cheat) + ("" if cheat else honest[i % len(kinds)]))
write("requirements.txt", "flask==3.0.0\nrequests==2.31.0\nreqeusts==2.31.0\n")
git("add", "-A"); git("commit", "-q", "-m", "head")
PY
cd "$work"
"$gate" diff main --format json > /dev/null || true
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  "$gate" diff main --format json > /dev/null || true
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
findings=$("$gate" diff main --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["summary"]["findings"], d["summary"]["files_scanned"])' || true)
echo "repository: $files files; change: $changed files edited + requirements.txt; findings, files scanned: $findings"
echo "integrity-gate diff main, $runs runs: min ${sorted[0]} ms, median ${sorted[$((runs / 2))]} ms, max ${sorted[$((runs - 1))]} ms"
