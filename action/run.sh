#!/usr/bin/env bash
# Runs `integrity-gate github` with the action's inputs. Every input arrives through the
# environment and is passed as a separate argument, so no input is ever evaluated by the shell.
# The token stays in the environment (INTEGRITY_GATE_TOKEN): never on a command line.
set -euo pipefail

bin="${IG_BIN:?IG_BIN is not set (the install step failed?)}"
args=(github)
[[ -n "${IG_BASE:-}" ]] && args+=(--base "$IG_BASE")
[[ -n "${IG_CONFIG:-}" ]] && args+=(--config "$IG_CONFIG")
[[ -n "${IG_FAIL_ON:-}" ]] && args+=(--fail-on "$IG_FAIL_ON")
args+=(--check-run "${IG_CHECK_RUN:-auto}")
args+=(--annotations "${IG_ANNOTATIONS:-true}")
args+=(--summary "${IG_SUMMARY:-true}")
tmp="${RUNNER_TEMP:-/tmp}"
args+=(--json "$tmp/integrity-gate.json")
case "${IG_SARIF:-}" in
  "") args+=(--sarif "$tmp/integrity-gate.sarif") ;;
  false) ;;
  *) args+=(--sarif "$IG_SARIF") ;;
esac
if [[ -n "${IG_ARGS:-}" ]]; then
  # Whitespace splitting only: `read -a` performs no globbing and no expansion.
  read -r -a extra <<<"$IG_ARGS"
  args+=("${extra[@]}")
fi
exec "$bin" "${args[@]}"
