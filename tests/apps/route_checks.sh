#!/usr/bin/env bash
# End-to-end checks of routing in crowdsim: `route`'s readers, progress and interrupts, and the
# memory budget of route planning when a scenario with a map loads.
# Usage: route_checks.sh CROWDSIM WORK_DIR CASE
set -u
crowdsim=$1 work=$2 check=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=check_helpers.sh
source "$here/check_helpers.sh"

# A refused command: exit code 2 and the message holding `$1`.
expect_refused() {
  [ "$rc" = 2 ] || fail "exit code $rc, expected 2"
  grep -qF -- "$1" err.txt || fail "the message does not say '$1'"
}

# An open SIDE x SIDE Moving AI map.
open_map() {
  awk -v side="$1" 'BEGIN { print "type octile"; print "height " side; print "width " side; print "map";
    row = ""; for (x = 0; x < side; ++x) row = row "."; for (y = 0; y < side; ++y) print row }' > "$2"
}

# COUNT problems across a SIDE x SIDE map named MAP, diagonals and long straights.
problems() {
  awk -v side="$1" -v count="$2" -v map="$3" 'BEGIN { print "version 1";
    for (i = 0; i < count; ++i) { a = i % side; b = side - 1 - a;
      printf "0\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t1\n", map, side, side, a, 0, b, side - 1 } }'
}

# A scenario of AGENTS agents with goals of their own on the SIDE x SIDE map open.map.
map_scenario() {
  open_map "$1" open.map
  awk -v agents="$2" -v side="$1" 'BEGIN { printf "{ \"timeStep\": 0.1, \"steps\": 1, \"map\": { \"file\": \"open.map\" },\n  \"agents\": [";
    for (i = 0; i < agents; ++i) printf "%s\n    {\"position\": [%d.5, 1.5], \"goal\": [%d.5, %d.5]}", (i ? "," : ""), i, side - 1 - i, side - 2;
    print " ] }" }' > scenario.json
}

case "$check" in
  scen_other_map)
    # A line for another map is refused, naming it; a name other than --map's is only warned about.
    open_map 8 a.map
    { problems 8 2 a.map; problems 8 1 b.map | tail -n 1; } > mixed.scen
    run route --map a.map --scen mixed.scen
    expect_refused "mixed.scen:4: the problem is for map 'b.map'"
    problems 8 2 elsewhere/renamed.map > renamed.scen
    run route --map a.map --scen renamed.scen -q
    [ "$rc" = 0 ] || fail "exit code $rc for a renamed map"
    grep -qF "lists its problems for map 'elsewhere/renamed.map', not a.map" err.txt || fail "no warning"
    ;;
  scen_folder)
    open_map 8 a.map
    mkdir folder.scen
    run route --map a.map --scen folder.scen
    expect_refused "folder.scen: is a folder; expected a scenario file"
    run route --map folder.scen --scen folder.scen
    expect_refused "folder.scen: is a folder; expected a map file"
    ;;
  endless_inputs)
    # Text that never ends is refused at a bound, with the numbers, without taking the memory.
    open_map 8 a.map
    run route --map a.map --scen /dev/zero
    expect_refused "/dev/zero:1: the line is longer than 4096 bytes"
    problems 8 1 a.map > a.scen
    run route --map /dev/zero --scen a.scen
    expect_refused "/dev/zero:1: the line is longer than 16448 bytes"
    ;;
  route_interrupted)
    # INT and TERM while solving: exit 128 + the signal (130, 143), no temporary --out left,
    # nothing put in place.
    open_map 512 big.map
    problems 512 400000 big.map > big.scen
    set -m  # Job control: background commands keep INT (without it, bash ignores it there).
    for signal in INT TERM; do
      "$crowdsim" route --map big.map --scen big.scen --out routes.csv -q >out.txt 2>err.txt &
      pid=$!
      for _ in $(seq 1 300); do
        compgen -G "routes.csv.partial-*" >/dev/null && break
        sleep 0.1
      done
      compgen -G "routes.csv.partial-*" >/dev/null || fail "no temporary output appeared"
      kill -s "$signal" "$pid"
      wait "$pid"
      rc=$?
      expected=$((128 + $(kill -l "$signal")))
      [ "$rc" = "$expected" ] || fail "exit code $rc after $signal, expected $expected"
      grep -q "interrupted after" err.txt || fail "no word of the interrupt"
      ! compgen -G "routes.csv*" >/dev/null || fail "$(ls routes.csv*) left behind after $signal"
    done
    ;;
  route_progress)
    # On a terminal, a progress line; with -q, or into a file, none.
    open_map 512 big.map
    problems 512 60000 big.map > big.scen
    script -qefc "'$crowdsim' route --map big.map --scen big.scen" /dev/null >terminal.txt 2>&1 ||
      fail "exit code $? on a terminal"
    grep -qa "problem [0-9]*/60000" terminal.txt || fail "no progress line on a terminal: $(head -c 300 terminal.txt)"
    script -qefc "'$crowdsim' route --map big.map --scen big.scen -q" /dev/null >quiet.txt 2>&1 ||
      fail "exit code $? with -q"
    ! grep -qa "problem [0-9]*/" quiet.txt || fail "a progress line with -q"
    run route --map big.map --scen big.scen
    [ "$rc" = 0 ] || fail "exit code $rc"
    ! grep -q "problem [0-9]*/" err.txt || fail "a progress line into a file"
    ;;
  route_memory_refused)
    # Planning one radius on a 2048 x 2048 map needs about 96 MiB, 24 bytes a cell
    # (docs/navigation.md): refused past the budget with the estimate, before anything is allocated.
    map_scenario 2048 2
    CROWD_MEMORY_LIMIT=20M run validate scenario.json
    expect_refused "planning routes needs about 96.0 MiB for a 2048 x 2048 map: 1 clearance map (one per agent radius), 1 search graph"
    grep -qF "more than the memory budget of 20.0 MiB (CROWD_MEMORY_LIMIT)" err.txt || fail "no budget named"
    ;;
  route_threads_honoured)
    # 40 agents are 3 blocks of A* work: with a budget for one thread's searches but not two,
    # --threads 2 searches on one (warned), --threads 1 on one as asked (no warning).
    map_scenario 2048 40
    CROWD_MEMORY_LIMIT=130M run run scenario.json --threads 2
    [ "$rc" = 0 ] || fail "exit code $rc with --threads 2"
    grep -qF "routes searched on 1 of 2 threads" err.txt || fail "no word of fewer threads"
    CROWD_MEMORY_LIMIT=130M run run scenario.json --threads 1
    [ "$rc" = 0 ] || fail "exit code $rc with --threads 1"
    ! grep -q "routes searched on" err.txt || fail "routing did not keep to --threads 1"
    ;;
  *)
    echo "unknown check $check"
    exit 1
    ;;
esac
echo "ok ($check)"
