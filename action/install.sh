#!/usr/bin/env bash
# Installs the integrity-gate binary for the composite action.
#
#   install.sh plan     decide how, and print the outputs the cache step needs:
#                         prebuilt  the release archive for this runner, checksum-pinned in
#                                   action/checksums.txt (the default for a released version)
#                         source    cargo build of the action's own source (asked for with
#                                   `from-source`, or no pinned asset, or a local `uses: ./`)
#                         crates    cargo install of another version from crates.io
#   install.sh install  do it, then write `bin=<path>` to $GITHUB_OUTPUT and add the
#                       directory to $GITHUB_PATH. A prebuilt asset that cannot be downloaded
#                       (missing, network) falls back to building; one whose checksum does not
#                       match is refused and nothing is installed.
#
# Inputs arrive only through the environment (IG_VERSION, IG_FROM_SOURCE,
# IG_ACTION_REPOSITORY), never through `${{ }}` in the workflow text. Checksums come from
# action/checksums.txt inside the action, pinned with it by commit SHA, never from the release:
# a checksum downloaded next to the asset proves nothing. IG_RELEASE_BASE_URL replaces
# https://github.com/<repository>/releases/download (plain http only on the loopback, for the
# tests' stand-in release server).
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

# What the build reads, so a cached build is reused only for the same source.
source_hash() {
  local files list hash
  files="$(cd "$action_path" && find Cargo.toml Cargo.lock src queries -type f 2>/dev/null | LC_ALL=C sort)"
  [[ -n "$files" ]] || { echo none; return; }
  list="$(mktemp)"
  (cd "$action_path" && while IFS= read -r f; do echo "$f $(sha256_of "$f")"; done <<<"$files") >"$list"
  hash="$(sha256_of "$list")"
  rm -f "$list"
  echo "$hash"
}

target_triple() {
  case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
    Linux/X64) echo x86_64-unknown-linux-musl ;;
    Linux/ARM64) echo aarch64-unknown-linux-musl ;;
    macOS/X64) echo x86_64-apple-darwin ;;
    macOS/ARM64) echo aarch64-apple-darwin ;;
    Windows/X64) echo x86_64-pc-windows-msvc ;;
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
case "${IG_FROM_SOURCE:-false}" in
  true | false) from_source="${IG_FROM_SOURCE:-false}" ;;
  *) die "input 'from-source' must be true or false, got '${IG_FROM_SOURCE:-}'" ;;
esac

target="$(target_triple)"
exe="" archive_ext=".tar.gz"
if [[ "${RUNNER_OS:-}" == "Windows" ]]; then exe=".exe" archive_ext=".zip"; fi
asset="integrity-gate-$target$archive_ext"

expected=""
if [[ -n "$target" && -f "$action_path/action/checksums.txt" ]]; then
  expected="$(awk -v v="$version" -v t="$target" '!/^#/ && $1==v && $2==t {print $3; exit}' \
    "$action_path/action/checksums.txt")"
  [[ -z "$expected" || "$expected" =~ ^[0-9a-f]{64}$ ]] \
    || die "action/checksums.txt: the sha256 for $version $target is malformed"
fi

release_base="${IG_RELEASE_BASE_URL:-}"
if [[ -z "$release_base" && -n "${IG_ACTION_REPOSITORY:-}" ]]; then
  release_base="https://github.com/$IG_ACTION_REPOSITORY/releases/download"
fi
case "$release_base" in
  "" | https://*) proto="=https" ;;
  http://127.0.0.1:* | http://127.0.0.1/* | http://localhost:* | http://localhost/*) proto="=http" ;;
  *) die "IG_RELEASE_BASE_URL must be https (or http on the loopback), got '$release_base'" ;;
esac

# Another version built from source comes from crates.io; the action's own is its checkout.
build_mode=source
[[ "$version" != "$own" ]] && build_mode=crates
if [[ "$from_source" == true ]]; then
  mode="$build_mode"
elif [[ -n "$expected" && -n "$release_base" ]]; then
  # Without a repository (a local `uses: ./`) the checkout may differ from any release.
  mode=prebuilt
else
  mode="$build_mode"
fi

root="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}}/integrity-gate/$version/${target:-${RUNNER_OS:-host}-${RUNNER_ARCH:-host}}/$mode"
bin_dir="$root/bin"
bin="$bin_dir/integrity-gate$exe"

case "${1:-}" in
  plan)
    cache_key="integrity-gate-$version-${RUNNER_OS:-os}-${RUNNER_ARCH:-arch}-$mode"
    [[ "$mode" == source ]] && cache_key="$cache_key-$(source_hash)"
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

build_from_source() {
  if [[ "$build_mode" == crates ]]; then
    command -v cargo >/dev/null 2>&1 \
      || die "version $version differs from this action's ($own) and is not a pinned release for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}: installing it needs cargo"
    note "installing integrity-gate $version from crates.io (cargo install --locked)"
    cargo install --locked --version "=$version" --root "$root" integrity-gate >&2
    return
  fi
  command -v cargo >/dev/null 2>&1 \
    || die "no prebuilt integrity-gate $version for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?} and cargo is not installed; add a Rust toolchain step before this action"
  local target_dir="${RUNNER_TEMP:-/tmp}/integrity-gate-target"
  note "building integrity-gate $version from $action_path (cargo build --release --locked)"
  CARGO_TARGET_DIR="$target_dir" cargo build --release --locked --manifest-path "$action_path/Cargo.toml" >&2
  mkdir -p "$bin_dir"
  cp "$target_dir/release/integrity-gate$exe" "$bin"
}

extract() {
  local archive="$1" dest="$2"
  case "$archive_ext" in
    .tar.gz) tar -xzf "$archive" -C "$dest" ;;
    .zip)
      if command -v unzip >/dev/null 2>&1; then unzip -q "$archive" -d "$dest"
      elif [[ -n "${SYSTEMROOT:-}" && -x "$SYSTEMROOT/System32/tar.exe" ]]; then "$SYSTEMROOT/System32/tar.exe" -xf "$archive" -C "$dest"
      else die "cannot extract $asset: neither unzip nor Windows' tar.exe is available"; fi
      ;;
  esac
}

install_prebuilt() {
  local url="$release_base/v$version/$asset" tmp actual found
  tmp="$(mktemp -d)"
  if ! curl --proto "$proto" -fsSL --retry 3 -o "$tmp/$asset" "$url"; then
    # A missing asset or network trouble is not a security event: build the same version.
    rm -rf "$tmp"
    note "no release asset at $url; building from source instead"
    build_from_source
    return
  fi
  actual="$(sha256_of "$tmp/$asset")"
  if [[ "$actual" != "$expected" ]]; then
    rm -rf "$tmp"
    die "checksum mismatch for $url: expected $expected, got $actual (refusing to run it)"
  fi
  mkdir "$tmp/unpacked"
  extract "$tmp/$asset" "$tmp/unpacked"
  found="$(find "$tmp/unpacked" -type f -name "integrity-gate$exe" | head -n 1)"
  [[ -n "$found" ]] || { rm -rf "$tmp"; die "the release archive $asset has no integrity-gate$exe"; }
  mkdir -p "$bin_dir"
  # Copy, then rename: a cancelled job never leaves a half-written binary that looks installed.
  cp "$found" "$bin.partial"
  chmod +x "$bin.partial" 2>/dev/null || true
  mv -f "$bin.partial" "$bin"
  rm -rf "$tmp"
}

if [[ -x "$bin" ]]; then
  note "using cached $bin"
elif [[ "$mode" == prebuilt ]]; then
  install_prebuilt
else
  build_from_source
fi

chmod +x "$bin" 2>/dev/null || true
echo "bin=$bin" >>"$out"
[[ -n "${GITHUB_PATH:-}" ]] && echo "$bin_dir" >>"$GITHUB_PATH"
note "installed $bin"
