#!/usr/bin/env bash
# End-to-end checks of how crowdsim meets signals and failing outputs: a stopped command leaves
# no temporary file and no half-replaced output, a command's outputs are put in place together,
# outputs that cannot be made are refused before any work, and a file's control bytes never
# reach the terminal. Usage: fault_checks.sh CROWDSIM DATA_DIR WORK_DIR CASE
# Exit 77: the check cannot run here (it says why); ctest shows it as skipped.
set -u
crowdsim=$1
data=$2
work=$3
check=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# Job control: background commands keep INT and QUIT (without it, bash starts them ignored).
set -m

fail() {
  echo "FAIL ($check): $*"
  echo "--- stdout:"; cat out.txt 2>/dev/null
  echo "--- stderr:"; cat -v err.txt 2>/dev/null
  exit 1
}

run() {
  "$crowdsim" "$@" >out.txt 2>err.txt
  rc=$?
}

# A temporary output file left in the folder fails the check.
no_partial_files() {
  local left
  left=$(ls -a | grep -E '\.(partial|old)-[0-9]+$')
  [ -z "$left" ] || fail "temporary files left behind: $left"
}

# Starts a long run writing t.csv over an old one, sends signal $1 after $2 seconds; the run must
# stop with 128 + the signal's number, say so, keep the old t.csv and leave no temporary file.
# The run is large, so that the signal lands while step 0 is still being written (or before).
stopped_by() {
  local signal=$1 delay=$2 number
  number=$(kill -l "$signal")
  echo "keep me" >t.csv
  "$crowdsim" run builtin random --agents 400000 --steps 100000 --all-steps -q --threads 1 --out t.csv \
      >out.txt 2>err.txt &
  local pid=$!
  sleep "$delay"
  kill -s "$signal" $pid 2>/dev/null
  wait $pid
  rc=$?
  [ "$rc" = $((128 + number)) ] || fail "exit code $rc, expected $((128 + number)) (128 + SIG$signal)"
  grep -q "interrupted (SIG$signal)" err.txt || fail "it does not say SIG$signal stopped it"
  [ "$(cat t.csv)" = "keep me" ] || fail "t.csv was replaced"
  no_partial_files
}

case "$check" in
  stop_hup) stopped_by HUP 1 ;;
  stop_quit) stopped_by QUIT 1 ;;
  stop_pipe) stopped_by PIPE 1 ;;
  stop_xfsz) stopped_by XFSZ 1 ;;
  stop_int_at_once) stopped_by INT 0.2 ;;
  stop_term) stopped_by TERM 1 ;;
  stop_file_size_limit)
    # The trajectory outgrows `ulimit -f`: the kernel sends SIGXFSZ at the write that crosses it.
    echo "keep me" >t.csv
    (ulimit -f 64 && exec "$crowdsim" run builtin circle --agents 500 --steps 400 --all-steps -q --threads 1 \
        --out t.csv >out.txt 2>err.txt)
    rc=$?
    [ "$rc" = $((128 + $(kill -l XFSZ))) ] || fail "exit code $rc, expected 128 + SIGXFSZ"
    grep -q "interrupted (SIGXFSZ)" err.txt || fail "it does not say the file size limit stopped it"
    [ "$(cat t.csv)" = "keep me" ] || fail "t.csv was replaced"
    no_partial_files
    ;;
  stop_while_placing)
    # A million agents piled on one point: placing them, checking their start positions and the
    # first step's neighbour search take long, and Ctrl-C must be honoured within about a second
    # all the same. The signal is sent once the trajectory file is begun (the first step is near).
    cat >pile.json <<'JSON'
{ "name": "pile", "timeStep": 0.1, "steps": 10,
  "groups": [ { "type": "rectangle", "count": 1000000, "min": [0, 0], "max": [0, 0], "placement": "grid",
                "goal": [50, 50] } ] }
JSON
    "$crowdsim" run pile.json -q --threads 1 --out t.csv >out.txt 2>err.txt &
    pid=$!
    for _ in $(seq 600); do
      ls t.csv.partial-* >/dev/null 2>&1 && break
      sleep 0.1
    done
    sleep 1.5
    kill -INT $pid 2>/dev/null
    start=$(date +%s.%N)
    for _ in $(seq 60); do
      kill -0 $pid 2>/dev/null || break
      sleep 0.1
    done
    stop=$(date +%s.%N)
    kill -KILL $pid 2>/dev/null
    wait $pid
    rc=$?
    awk -v a="$start" -v b="$stop" 'BEGIN { exit !(b - a < 2.5) }' ||
        fail "still running $(awk -v a="$start" -v b="$stop" 'BEGIN { print b - a }') s after Ctrl-C"
    [ "$rc" = 130 ] || fail "exit code $rc, expected 130"
    [ ! -e t.csv ] || fail "t.csv was written"
    no_partial_files
    ;;
  output_folder_takes_no_files)
    # /proc/PID/comm is a file the process may write, in a folder where no file can be made, so
    # the temporary file cannot be either (for root too): refused before the re-enactment.
    run realism "$data/head_on_pedestrians.txt" --out /proc/self/comm
    [ "$rc" = 2 ] || fail "exit code $rc, expected 2"
    grep -q -- "--out /proc/self/comm: cannot create the temporary file" err.txt ||
        fail "the message does not say the temporary file cannot be made"
    [ ! -s out.txt ] || fail "it ran before refusing"
    ;;
  recording_control_bytes)
    # An escape sequence in a recording is named by its bytes, never sent to the terminal.
    printf '1 1 \033[31mred 2\n' >escape.txt
    run realism escape.txt
    [ "$rc" = 2 ] || fail "exit code $rc, expected 2"
    grep -qF "'[byte 0x1b][31mred'" err.txt || fail "the control byte is not named"
    grep -q $'\033' err.txt && fail "the escape byte reached the message"
    true
    ;;
  outputs_committed_together)
    # The last output fails (/dev/full): the earlier ones must not be replaced either.
    for f in o.txt o.json t.csv; do echo old >$f; done
    run realism "$data/head_on_pedestrians.txt" --out o.txt --json o.json --svg /dev/full
    [ "$rc" = 1 ] || fail "realism: exit code $rc, expected 1"
    [ "$(cat o.txt)" = old ] && [ "$(cat o.json)" = old ] || fail "realism replaced an earlier output"
    run run builtin circle --agents 20 --steps 5 -q --out t.csv --metrics /dev/full
    [ "$rc" = 1 ] || fail "run: exit code $rc, expected 1"
    [ "$(cat t.csv)" = old ] || fail "run replaced t.csv"
    no_partial_files
    ;;
  out_is_scenario_map)
    # An output naming the map file the scenario reads is refused, and the map kept.
    printf 'type octile\nheight 4\nwidth 4\nmap\n....\n....\n....\n....\n' >room.map
    cp room.map room.map.orig
    cat >mapped.json <<'JSON'
{ "name": "mapped", "timeStep": 0.1, "steps": 5, "map": "room.map",
  "agents": [ { "position": [0.5, 0.5], "goal": [3.5, 3.5] } ] }
JSON
    run run mapped.json -q --out room.map
    [ "$rc" = 2 ] || fail "exit code $rc, expected 2"
    grep -q "is the scenario's map file" err.txt || fail "the message does not say it is the map"
    cmp -s room.map room.map.orig || fail "the map was overwritten"
    run run mapped.json -q --metrics ./room.map
    [ "$rc" = 2 ] || fail "--metrics: exit code $rc, expected 2"
    cmp -s room.map room.map.orig || fail "the map was overwritten"
    ;;
  render_replaces_frames)
    # Frames of an earlier, longer render are removed; this render's frames are whole PNGs.
    mkdir frames
    for i in 0 1 2 3 4; do echo old >frames/frame-0000$i.png; done
    echo mine >frames/notes.txt
    run render builtin bottleneck --agents 40 --frames 2 --every 5 --out frames --video none -q --size 160x100
    if [ "$rc" != 0 ] && grep -q "no OpenGL\|offscreen" err.txt; then
      echo "SKIP: no offscreen OpenGL context here"; cat err.txt; exit 77
    fi
    [ "$rc" = 0 ] || fail "exit code $rc"
    [ "$(ls frames | grep -c '^frame-')" = 2 ] || fail "frames left: $(ls frames)"
    for i in 0 1; do
      head -c 4 frames/frame-0000$i.png | grep -q PNG || fail "frame $i is not a new PNG"
    done
    [ -e frames/notes.txt ] || fail "a file that is no frame was removed"
    grep -q "the 5 frames of an earlier render were removed" out.txt || fail "it does not say so"
    (cd frames && no_partial_files)
    ;;
  *)
    fail "unknown check"
    ;;
esac
echo "ok ($check)"
