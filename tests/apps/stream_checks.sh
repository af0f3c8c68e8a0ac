#!/usr/bin/env bash
# End-to-end checks of where `crowdsim run` reports: -q leaves stdout and stderr empty on a good
# run (the warnings kept in --metrics), and an output written to stdout (/dev/stdout, "-") is all
# that stdout holds, the summary going to stderr.
# Usage: stream_checks.sh CROWDSIM WORK_DIR CASE
# Exit 77: the check cannot run here (no python3); ctest shows it as skipped.
set -u
crowdsim=$1
work=$2
check=$3
helpers="$(dirname "$0")/check_helpers.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=check_helpers.sh
source "$helpers"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }

# FILE AGENTS STEPS: FILE is CSV trajectories alone: the header once, then one row of seven numbers
# per agent and step (step 0 included).
check_csv() {
  python3 - "$@" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
agents, steps = int(sys.argv[2]), int(sys.argv[3])
if rows[0] != ["step", "agent", "x", "y", "vx", "vy", "time"]:
    sys.exit("no header first: %r" % rows[0])
body = rows[1:]
if len(body) != agents * (steps + 1):
    sys.exit("%d rows, expected %d" % (len(body), agents * (steps + 1)))
for row in body:
    if len(row) != 7:
        sys.exit("not a trajectory row: %r" % row)
    [float(v) for v in row]
PY
}

case "$check" in
  quiet_run_silent)
    run run builtin circle --agents 10 --steps 5 -q --out t.csv --metrics m.json
    [ "$rc" = 0 ] || fail "exit code $rc"
    [ ! -s out.txt ] && [ ! -s err.txt ] || fail "-q printed something"
    check_csv t.csv 10 5 || fail "t.csv is not the trajectories"
    # RVO2-3D's sphere starts with overlapping agents: warned about without -q; with it, said in
    # the metrics only.
    run run builtin sphere --agents 812 --steps 1
    grep -q "warning: .*start overlapping" err.txt || fail "no overlap warning without -q"
    run run builtin sphere --agents 812 --steps 1 -q --metrics m3.json
    [ "$rc" = 0 ] || fail "sphere: exit code $rc"
    [ ! -s out.txt ] && [ ! -s err.txt ] || fail "sphere: -q printed something"
    python3 -c 'import json, sys; w = json.load(open("m3.json"))["warnings"]; sys.exit(0 if any("start overlapping" in s for s in w) else "warnings: %r" % w)' ||
      fail "the metrics lack the warning -q left unprinted"
    ;;
  csv_on_stdout)
    for out in /dev/stdout -; do
      "$crowdsim" run builtin circle --agents 10 --steps 5 --all-steps --out "$out" >out.txt 2>err.txt
      rc=$?
      [ "$rc" = 0 ] || fail "--out $out: exit code $rc"
      check_csv out.txt 10 5 || fail "--out $out: stdout is not the trajectories alone"
      grep -q "^scenario .*builtin:circle: 10 agents" err.txt || fail "--out $out: the summary is not on stderr"
    done
    [ ! -e ./- ] || fail "--out - made a file named '-'"
    # Into a file, the summary stays on stdout.
    run run builtin circle --agents 10 --steps 5 --out t.csv
    grep -q "^scenario .*builtin:circle" out.txt || fail "the summary left stdout with --out t.csv"
    ;;
  metrics_on_stdout)
    run run builtin circle --agents 10 --steps 5 --metrics - --out t.csv
    [ "$rc" = 0 ] || fail "exit code $rc"
    python3 -c 'import json; assert json.load(open("out.txt"))["steps"] == 5' || fail "stdout is not the metrics alone"
    grep -q "^scenario .*builtin:circle" err.txt || fail "the summary is not on stderr"
    run run builtin circle --agents 10 --steps 5 --metrics /dev/stdout --out -
    [ "$rc" = 2 ] && grep -q "name the same file" err.txt || fail "two outputs onto stdout were not refused"
    ;;
  other_commands_report_on_stderr)
    # Every command, not run alone: bench's JSON and measure's CSV on stdout stand alone there.
    "$crowdsim" bench --scenario random --agents 500 --steps 2 --warmup 1 --threads 1 --json - >out.txt 2>err.txt
    rc=$?
    [ "$rc" = 0 ] || fail "bench: exit code $rc"
    python3 -c 'import json; assert json.load(open("out.txt"))["results"]' || fail "bench: stdout is not the JSON alone"
    grep -q "^random .* cpu" err.txt || fail "bench: the table is not on stderr"
    "$crowdsim" measure "$(dirname "$helpers")/../../scenarios/corridor_measure.json" --window 20 --csv /dev/stdout \
      >out.txt 2>err.txt
    rc=$?
    [ "$rc" = 0 ] || fail "measure: exit code $rc"
    python3 - <<'PY' || fail "measure: stdout is not the CSV alone"
import csv
rows = list(csv.reader(open("out.txt")))
assert rows[0][:2] == ["kind", "name"], rows[0]
assert len(rows) > 2 and all(len(r) == len(rows[0]) for r in rows), rows
PY
    grep -q "fundamental diagram" err.txt || fail "measure: the report is not on stderr"
    ;;
  *)
    echo "unknown check $check"
    exit 1
    ;;
esac
echo "ok ($check)"
