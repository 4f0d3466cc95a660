#!/usr/bin/env bash
# The speed yardstick: integrity-gate on real ranges beside the floor (git diff) and its peers,
# plus the growth pair, with issue 12's targets marked met or missed. See bench/README.md.
#
# Usage: bench/real.sh --repo OWNER/NAME=GITDIR [--repo ...] [options] [run.sh options]
#
#   --repo OWNER/NAME=GITDIR  a git dir with the full history of sympy/sympy, vitejs/vite or
#                             rust-lang/cargo (the repos ../shared/bench/ranges.json names)
#   --bin PATH                time this binary instead of building target/release/integrity-gate
#   --no-growth               skip the growth pair
#   --growth-only             only the growth pair (no --repo needed)
#   --out DIR                 results dir (default $TMPDIR/igbench-real-<timestamp>)
#   anything else             passed to run.sh (--work, --sizes, --runs, --budget, ...; see
#                             `bash $IGBENCH_SHARED/run.sh --help`)
#
# Environment: IGBENCH_SHARED, the shared benchmark (default ../shared/bench from the repo root).
# Times the tools git-diff, integrity-gate, kingfisher and ast-grep; writes DIR/results.tsv
# (run.sh's), DIR/growth.tsv and DIR/real.md (the table printed at the end).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${IGBENCH_SHARED:-$root/../shared/bench}
bin=""
growth=1
real=1
out=""
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --no-growth) growth=0; shift ;;
    --growth-only) real=0; shift ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) pass+=("$1"); shift ;;
  esac
done
if [ "$real" = 1 ]; then
  [ -f "$shared/run.sh" ] || { echo "real.sh: no run.sh in $shared (set IGBENCH_SHARED)" >&2; exit 2; }
  [[ " ${pass[*]-} " == *" --repo "* ]] || { echo "real.sh: give --repo OWNER/NAME=GITDIR (or --growth-only)" >&2; exit 2; }
fi

if [ -z "$bin" ]; then
  (cd "$root" && cargo build --release --locked --quiet)
  bin="$root/target/release/integrity-gate"
fi
[ -x "$bin" ] || { echo "real.sh: $bin is not an executable" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
[ -n "$out" ] || out="${TMPDIR:-/tmp}/igbench-real-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
out=$(cd "$out" && pwd)

commit=$(git -C "$root" rev-parse --short HEAD)
[ -z "$(git -C "$root" status --porcelain --untracked-files=no)" ] || commit="$commit (uncommitted changes)"
header="date $(date -u +%Y-%m-%dT%H:%MZ), commit $commit, nproc $(nproc), load average at start $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"

if [ "$real" = 1 ]; then
  bash "$shared/run.sh" --bin "$bin" --out "$out" --tools git-diff,integrity-gate,kingfisher,ast-grep "${pass[@]}"
fi
if [ "$growth" = 1 ]; then
  echo
  python3 "$root/bench/growth.py" --bin "$bin" --tsv "$out/growth.tsv"
fi

args=()
[ "$real" = 1 ] && args+=(--results "$out/results.tsv")
[ "$growth" = 1 ] && args+=(--growth "$out/growth.tsv")
[ ${#args[@]} -gt 0 ] || exit 0
{
  echo '```text'
  echo "$header"
  [ -f "$out/env.txt" ] && grep -E '^(hyperfine|git|kingfisher|ast-grep):' "$out/env.txt" | paste -sd ';' | sed 's/;/, /g' || true
  echo '```'
  echo
  python3 "$root/bench/targets.py" "${args[@]}"
  echo
  echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
} > "$out/real.md"
echo
echo "================ issue 12 targets ================"
cat "$out/real.md"
echo
echo "results: $out"
