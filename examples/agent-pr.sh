#!/usr/bin/env bash
# Runs integrity-gate on a realistic "agent PR" shipped in fixtures/_examples/agent-pr/:
# builds a throwaway git repository whose `main` holds base/ and whose branch `agent/fix-ci`
# holds head/, then runs `integrity-gate diff main` in it, exactly as a developer would.
#
# Usage: examples/agent-pr.sh [extra diff arguments, e.g. --format json]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
example="$root/fixtures/_examples/agent-pr"
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
gate="$root/target/release/integrity-gate"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git_() { git -C "$work" -c user.name=agent -c user.email=agent@example.com -c commit.gpgsign=false "$@"; }
git_ init -q -b main
cp -R "$example/base/." "$work/"
git_ add -A && git_ commit -q -m "base: the project before the agent's change"
git_ checkout -q -b agent/fix-ci
find "$work" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
cp -R "$example/head/." "$work/"
git_ add -A && git_ commit -q -m "fix: make CI green"

status=0
(cd "$work" && "$gate" diff main "$@") || status=$?
case $status in
  0) echo "(exit status 0: nothing blocking)" ;;
  1) echo "(exit status 1: the gate blocks this change, as it should)" ;;
  *) echo "(exit status $status: the gate could not run)"; exit "$status" ;;
esac
