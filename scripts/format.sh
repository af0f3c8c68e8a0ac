#!/usr/bin/env bash
# Formats every C++ and CUDA source the repository tracks with clang-format (.clang-format at the
# root), or with --check reports the files that differ from it and fails, changing nothing (what
# CI runs). Installs Debian's clang-format (14) when it is missing: the layout depends on the
# version, so everyone formats with the same one.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format-14 >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "crowd: installing clang-format-14"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang-format-14
fi
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh')
if [ "${1:-}" = "--check" ]; then
  if ! clang-format-14 --dry-run --Werror "${files[@]}" 2>/tmp/crowd-format.$$; then
    grep -oE '^[^ :]+\.(cpp|hpp|cu|cuh):[0-9]+:[0-9]+: error' /tmp/crowd-format.$$ | cut -d: -f1 | sort -u |
      sed 's/^/  not formatted: /'
    rm -f /tmp/crowd-format.$$
    echo "crowd: run 'bash scripts/format.sh' to format them" >&2
    exit 1
  fi
  rm -f /tmp/crowd-format.$$
  echo "crowd: ${#files[@]} files formatted as .clang-format says"
else
  clang-format-14 -i "${files[@]}"
fi
