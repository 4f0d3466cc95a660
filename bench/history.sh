#!/usr/bin/env bash
# Judge precision on real history: run integrity-gate over the last N first-parent commits of a
# repository (a bare mirror is fine), one TSV row per finding and per commit, per-rule counts.
#
# Usage: bench/history.sh GITDIR [N=200] [GATE=target/release/integrity-gate] [--name NAME]
#        [--out DIR] [--json-dir DIR] [--rev REV] [--timeout SECONDS]
# Writes DIR/findings.tsv (repo, commit, rule, severity, path, line, message) and
# DIR/commits.tsv (commit, files, findings, blocking, exit, ms); DIR defaults to the current one.
# On a shared machine run it as `nice -n 10 bench/history.sh ...`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gitdir=${1:?usage: bench/history.sh GITDIR [N] [GATE] [options]}
shift
n=200
gate="$root/target/release/integrity-gate"
if [ $# -gt 0 ] && [[ $1 != -* ]]; then n=$1; shift; fi
if [ $# -gt 0 ] && [[ $1 != -* ]]; then gate=$1; shift; fi
[ -x "$gate" ] || { echo "no gate binary at $gate (cargo build --release)" >&2; exit 2; }
exec python3 "$root/bench/history.py" "$gitdir" "$n" "$gate" "$@"
