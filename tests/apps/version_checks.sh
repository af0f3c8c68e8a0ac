#!/usr/bin/env bash
# End-to-end checks of what says which crowd made an output (crowd/version.hpp): `crowdsim
# --version`, the version and revision in run metrics and bench results, and the CMake script
# that reads the revision at build time (cmake/write_version_source.cmake).
# Usage: version_checks.sh CROWDSIM SOURCE_DIR WORK_DIR CASE
# Exit 77: the check cannot run here (no git, no python3); ctest shows it as skipped.
set -u
crowdsim=$1
source_dir=$2
work=$3
check=$4
helpers="$(dirname "$0")/check_helpers.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=check_helpers.sh
source "$helpers"

# The version the project declares: project(crowd VERSION X.Y.Z ...) in the top CMakeLists.txt.
declared=$(sed -n 's/^project(crowd VERSION \([0-9][0-9.]*\) .*/\1/p' "$source_dir/CMakeLists.txt")
[ -n "$declared" ] || { echo "FAIL ($check): no project version in $source_dir/CMakeLists.txt"; exit 1; }

# The revision `crowdsim --version` states, into $revision.
read_revision() {
  run --version
  [ "$rc" = 0 ] || fail "--version: exit code $rc"
  revision=$(sed -n "s/^crowdsim $declared (git \\(.*\\))\$/\\1/p" out.txt)
  [ -n "$revision" ] && [ "$(wc -l <out.txt)" = 1 ] || fail "--version does not print 'crowdsim $declared (git REV)'"
}

case "$check" in
  version_flag)
    read_revision
    [ ! -s err.txt ] || fail "--version wrote to stderr"
    [[ "$revision" =~ ^([0-9a-f]{7,40}(-dirty)?|unknown)$ ]] || fail "revision '$revision' is no short hash"
    # Built from this checkout: the hash is one of its commits (not necessarily the newest: a
    # commit since the last build is not in the program yet).
    if command -v git >/dev/null && git -C "$source_dir" rev-parse --git-dir >/dev/null 2>&1; then
      [ "$revision" != unknown ] || fail "built in a git checkout, yet the revision is unknown"
      git -C "$source_dir" cat-file -e "${revision%-dirty}^{commit}" 2>/dev/null ||
        fail "$revision is no commit of $source_dir"
    fi
    ;;
  metrics_version)
    command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }
    read_revision
    run run builtin circle --agents 10 --steps 3 --seed 42 -q --metrics m.json
    [ "$rc" = 0 ] || fail "run: exit code $rc"
    python3 - "$declared" "$revision" <<'PY' || fail "m.json does not say which crowd and seed made it"
import json, sys
doc = json.load(open("m.json"))
assert doc["version"] == sys.argv[1], doc["version"]
assert doc["gitRevision"] == sys.argv[2], doc["gitRevision"]
assert doc["seed"] == 42, doc["seed"]
PY
    run bench --scenario circle --agents 20 --steps 1 --warmup 0 --threads 1 --json b.json
    [ "$rc" = 0 ] || fail "bench: exit code $rc"
    python3 - "$declared" "$revision" <<'PY' || fail "b.json does not say which crowd made it"
import json, sys
doc = json.load(open("b.json"))
assert doc["version"] == sys.argv[1] and doc["gitRevision"] == sys.argv[2], doc
PY
    ;;
  revision_script)
    # The script a build runs: a commit's short hash, -dirty once a tracked file changes, the file
    # left untouched when nothing did, and "unknown" outside a checkout.
    command -v git >/dev/null || { echo "skipped: no git"; exit 77; }
    script="$source_dir/cmake/write_version_source.cmake"
    write() { cmake -DSOURCE_DIR="$1" -DOUTPUT="$PWD/version.cpp" -DVERSION=9.8.7 -P "$script" || fail "the script failed"; }
    mkdir tree && git -C tree init -q && echo one >tree/a.txt && git -C tree add a.txt &&
      git -C tree -c user.name=t -c user.email=t@example.org commit -q -m one || fail "no scratch repository"
    short=$(git -C tree rev-parse --short HEAD)
    write "$PWD/tree"
    grep -qF "return \"$short\";" version.cpp || fail "clean tree: $(grep return version.cpp)"
    grep -qF 'return "9.8.7";' version.cpp || fail "the version is not the one given"
    touch -d '2001-01-01' version.cpp
    write "$PWD/tree"
    [ "$(stat -c %Y version.cpp)" = "$(date -d 2001-01-01 +%s)" ] || fail "an unchanged revision rewrote the file"
    echo untracked >tree/b.txt
    write "$PWD/tree"
    grep -qF "return \"$short\";" version.cpp || fail "an untracked file made the tree dirty"
    echo two >tree/a.txt
    write "$PWD/tree"
    grep -qF "return \"$short-dirty\";" version.cpp || fail "changed tree: $(grep return version.cpp)"
    mkdir -p tree/sub/unpacked
    write "$PWD/tree/sub/unpacked"
    grep -qF 'return "unknown";' version.cpp || fail "a folder inside another checkout took its commit"
    ;;
  *)
    echo "unknown check $check"
    exit 1
    ;;
esac
echo "ok ($check)"
