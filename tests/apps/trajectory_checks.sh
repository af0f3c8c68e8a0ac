#!/usr/bin/env bash
# End-to-end checks of `crowdsim run --out` in the field's formats (crowd/trajectory.hpp): the
# extension picks the format, --out-every keeps every K-th step, and the file and the metrics
# JSON say which steps were kept. What is in a database is checked in
# tests/io/test_trajectory_formats.cpp, as PedPy queries it.
# Usage: trajectory_checks.sh CROWDSIM WORK_DIR CASE
# Exit 77: the check cannot run in this build (it says why); ctest shows it as skipped.
set -u
crowdsim=$1
work=$2
check=$3
helpers="$(dirname "$0")/check_helpers.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=check_helpers.sh
source "$helpers"

case "$check" in
  petrack_every_fifth)
    # 20 agents, steps 0 to 20, every 5th kept: frames 0 to 4, at 1 / (5 x 0.25 s) = 0.8 fps.
    run run builtin circle --agents 20 --steps 20 --all-steps -q --out t.txt --out-every 5 --metrics m.json
    [ "$rc" = 0 ] || fail "exit code $rc"
    grep -qx "# framerate: 0.8 fps" t.txt || fail "no frame rate of 0.8 fps in the header"
    grep -q "x/m" t.txt || fail "no unit in the header"
    [ "$(grep -vc '^#' t.txt)" = 100 ] || fail "expected 100 rows (20 agents x 5 frames)"
    [ "$(grep -v '^#' t.txt | awk '{print $2}' | sort -un | tr '\n' ' ')" = "0 1 2 3 4 " ] ||
      fail "frames are not 0 to 4"
    grep -q '"everySteps": 5' m.json && grep -q '"frames": 5' m.json && grep -q '"format": "PeTrack text"' m.json ||
      fail "the metrics do not say which steps were kept"
    ;;
  window_kept)
    # Every 2nd step from 1 s to 3.9 s of 0.25 s steps: steps 4 to 14, frames 2 to 7.
    run run builtin circle --agents 20 --steps 20 --all-steps -q --out w.txt --out-every 2 --out-from 1 \
        --out-to 3.9 --metrics m.json
    [ "$rc" = 0 ] || fail "exit code $rc"
    [ "$(grep -v '^#' w.txt | awk '{print $2}' | sort -un | tr '\n' ' ')" = "2 3 4 5 6 7 " ] ||
      fail "frames are not 2 to 7"
    grep -q '"firstStep": 4' m.json && grep -q '"lastStep": 15' m.json || fail "the metrics do not give the window"
    ;;
  empty_window_refused)
    run run builtin circle --agents 20 --steps 20 -q --out w.txt --out-from 3 --out-to 2
    [ "$rc" = 2 ] || fail "exit code $rc, expected 2"
    grep -q -- "--out-from 3 s to --out-to 2 s holds no step of 0.25 s" err.txt || fail "the message does not say why"
    [ ! -e w.txt ] || fail "a file was written"
    ;;
  bench_writes)
    # bench --write times writing beside the step, into a temporary file it removes.
    mkdir -p tmp
    TMPDIR="$PWD/tmp" run bench --scenario random --agents 2000 --steps 4 --warmup 1 --threads 1 --write txt \
        --write-every 2 --json b.json
    [ "$rc" = 0 ] || fail "exit code $rc"
    grep -q "output: PeTrack text every 2 steps, [0-9.]* ms a step with writing (the step [0-9.]*), [0-9]* of 2 kept" \
      out.txt || fail "no output line"
    grep -q '"framesWritten": 2' b.json || fail "the JSON does not count the frames written"
    [ -z "$(ls -A tmp)" ] || fail "bench left $(ls tmp)"
    ;;
  database_written)
    run run builtin evacuation --agents 40 --steps 10 -q --out t.sqlite
    if grep -q "this build has no SQLite" err.txt; then
      echo "skipped: this build has no SQLite (libsqlite3-dev)"
      exit 77
    fi
    [ "$rc" = 0 ] || fail "exit code $rc"
    [ "$(head -c 15 t.sqlite)" = "SQLite format 3" ] || fail "t.sqlite is not an SQLite database"
    ;;
  pedpy_loaders)
    # One run written three ways, each read back as PedPy's loaders read it (pedpy_loaders.py).
    for out in t.txt t.sqlite t.h5; do
      run run builtin evacuation --agents 40 --steps 10 --all-steps -q --out "$out" --out-every 2 --seed 7
      if grep -q "this build has no" err.txt; then
        echo "skipped: $(grep -o "this build has no [A-Za-z0-9]*" err.txt)"
        exit 77
      fi
      [ "$rc" = 0 ] || fail "exit code $rc writing $out: $(cat err.txt)"
    done
    # 40 agents, steps 0 to 10, every 2nd: 6 frames at 1 / (2 x 0.1 s) = 5 fps.
    version=$("$crowdsim" --version | awk '{print $2}')
    /usr/bin/python3 "$(dirname "$helpers")/pedpy_loaders.py" t.txt t.sqlite t.h5 40 6 5 7 "$version" > py.txt 2>&1
    prc=$?
    cat py.txt
    [ "$prc" = 77 ] && exit 77
    [ "$prc" = 0 ] || fail "the files do not read as PedPy reads them"
    ;;
  archive_bench_writes)
    mkdir -p tmp
    TMPDIR="$PWD/tmp" run bench --scenario random --agents 2000 --steps 4 --warmup 1 --threads 1 --write h5 --json b.json
    if grep -q "this build has no HDF5" err.txt; then
      echo "skipped: this build has no HDF5 (libhdf5-dev)"
      exit 77
    fi
    [ "$rc" = 0 ] || fail "exit code $rc"
    grep -q "output: HDF5 every 1 step, .* bytes an agent row" out.txt || fail "no output line"
    grep -q '"rowsWritten": 8000' b.json || fail "the JSON does not count 8,000 rows"
    [ -z "$(ls -A tmp)" ] || fail "bench left $(ls tmp)"
    ;;
  database_refuses_3d)
    run run builtin sphere --agents 20 --steps 5 --out t.sqlite
    [ "$rc" = 2 ] || fail "exit code $rc, expected 2"
    grep -q "planar worlds only" err.txt || fail "the message does not say why"
    [ ! -e t.sqlite ] || fail "a file was left behind"
    ;;
  out_every_needs_out)
    run run builtin circle --agents 20 --steps 5 --out-every 5
    [ "$rc" = 2 ] || fail "exit code $rc, expected 2"
    grep -q -- "--out-every requires --out" err.txt || fail "the message does not say --out is needed"
    ;;
  *)
    echo "unknown check $check"
    exit 1
    ;;
esac
echo "PASS ($check)"
