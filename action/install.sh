#!/usr/bin/env bash
# Installs the integrity-gate binary for the composite action.
#
#   install.sh plan     decide: prebuilt (a checksum-pinned release asset exists for this
#                       version and runner), source (cargo build of the action's own source),
#                       or crates (an explicitly requested other version); print outputs.
#   install.sh install  do it, then write `bin=<path>` to $GITHUB_OUTPUT and add the
#                       directory to $GITHUB_PATH.
#
# Inputs arrive only through the environment (IG_VERSION, IG_ACTION_REPOSITORY), never through
# `${{ }}` in the workflow text. Checksums come from action/checksums.txt inside the action, not
# from the release itself: a checksum downloaded next to the asset proves nothing.
set -euo pipefail

die() { echo "::error title=integrity-gate install::$*" >&2; exit 1; }
note() { echo "integrity-gate install: $*" >&2; }

action_path="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
out="${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"

own_version() {
  # First `version = "..."` of the [package] table.
  awk '/^\[package\]/{p=1;next} /^\[/{p=0} p && /^version *=/{gsub(/.*= *"|".*/,""); print; exit}' \
    "$action_path/Cargo.toml"
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | awk '{print $1}'
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | awk '{print $1}'
  else die "neither sha256sum nor shasum is available to verify the download"; fi
}

target_triple() {
  local os="${RUNNER_OS:-}" arch="${RUNNER_ARCH:-}"
  case "$os/$arch" in
    Linux/X64) echo x86_64-unknown-linux-musl ;;
    Linux/ARM64) echo aarch64-unknown-linux-musl ;;
    macOS/X64) echo x86_64-apple-darwin ;;
    macOS/ARM64) echo aarch64-apple-darwin ;;
    Windows/X64) echo x86_64-pc-windows-msvc ;;
    Windows/ARM64) echo aarch64-pc-windows-msvc ;;
    *) echo "" ;;
  esac
}

own="$(own_version)"
[[ -n "$own" ]] || die "cannot read the version from $action_path/Cargo.toml"
version="${IG_VERSION:-}"
version="${version#v}"
[[ -z "$version" ]] && version="$own"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] \
  || die "input 'version' must look like 1.2.3, got '${IG_VERSION:-}'"

target="$(target_triple)"
exe=""
[[ "${RUNNER_OS:-}" == "Windows" ]] && exe=".exe"

expected=""
if [[ -n "$target" && -f "$action_path/action/checksums.txt" ]]; then
  expected="$(awk -v v="$version" -v t="$target" '!/^#/ && $1==v && $2==t {print $3; exit}' \
    "$action_path/action/checksums.txt")"
fi

if [[ "$version" != "$own" ]]; then
  mode=crates
elif [[ -n "$expected" && -n "${IG_ACTION_REPOSITORY:-}" ]]; then
  mode=prebuilt
else
  mode=source
fi

root="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}}/integrity-gate/$version/${target:-${RUNNER_OS:-host}-${RUNNER_ARCH:-host}}"
bin_dir="$root/bin"
lock_hash="none"
[[ -f "$action_path/Cargo.lock" ]] && lock_hash="$(sha256_of "$action_path/Cargo.lock")"
cache_key="integrity-gate-$version-${RUNNER_OS:-os}-${RUNNER_ARCH:-arch}-$mode-$lock_hash"

case "${1:-}" in
  plan)
    {
      echo "mode=$mode"
      echo "version=$version"
      echo "bin-dir=$bin_dir"
      echo "cache-key=$cache_key"
    } >>"$out"
    note "version $version, target ${target:-unknown}, mode $mode"
    exit 0
    ;;
  install) ;;
  *) die "usage: install.sh plan|install" ;;
esac

mkdir -p "$bin_dir"
bin="$bin_dir/integrity-gate$exe"

build_from_source() {
  command -v cargo >/dev/null 2>&1 \
    || die "no prebuilt integrity-gate $version for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?} and cargo is not installed; add a Rust toolchain step before this action"
  local target_dir="${RUNNER_TEMP:-/tmp}/integrity-gate-target"
  note "building integrity-gate $version from $action_path (cargo build --release --locked)"
  CARGO_TARGET_DIR="$target_dir" cargo build --release --locked --manifest-path "$action_path/Cargo.toml" >&2
  cp "$target_dir/release/integrity-gate$exe" "$bin"
}

if [[ -x "$bin" ]]; then
  note "using cached $bin"
elif [[ "$mode" == prebuilt ]]; then
  url="https://github.com/$IG_ACTION_REPOSITORY/releases/download/v$version/integrity-gate-$target.tar.gz"
  tmp="$(mktemp -d)"
  if curl --proto '=https' --tlsv1.2 -fsSL --retry 3 -o "$tmp/asset.tar.gz" "$url"; then
    actual="$(sha256_of "$tmp/asset.tar.gz")"
    [[ "$actual" == "$expected" ]] \
      || die "checksum mismatch for $url: expected $expected, got $actual (refusing to run it)"
    tar -xzf "$tmp/asset.tar.gz" -C "$tmp"
    found="$(find "$tmp" -type f -name "integrity-gate$exe" | head -n 1)"
    [[ -n "$found" ]] || die "the release archive has no integrity-gate$exe"
    cp "$found" "$bin"
  else
    # A missing asset or network trouble is not a security event: build the same version.
    note "download of $url failed; building from source instead"
    build_from_source
  fi
  rm -rf "$tmp"
elif [[ "$mode" == crates ]]; then
  command -v cargo >/dev/null 2>&1 || die "version $version differs from this action's ($own) and needs cargo to install"
  note "installing integrity-gate $version from the crate registry (cargo install --locked)"
  cargo install --locked --version "=$version" --root "$root" integrity-gate >&2
else
  build_from_source
fi

chmod +x "$bin" 2>/dev/null || true
echo "bin=$bin" >>"$out"
[[ -n "${GITHUB_PATH:-}" ]] && echo "$bin_dir" >>"$GITHUB_PATH"
note "installed $bin"
