#!/usr/bin/env bash
# End-to-end checks of crowdsim that need more than an exit code: what it prints, that it
# refuses unusable output paths before anything runs (and before touching any file), and how it
# meets signals and failing outputs (a stopped command leaves no temporary file and no
# half-replaced output; a command's outputs are put in place together).
# Usage: run_checks.sh CROWDSIM DATA_DIR WORK_DIR CASE
# Exit 77: the check cannot run here (it says why); ctest shows it as skipped.
set -u
crowdsim=$1
data=$2
work=$3
check=$4
helpers="$(dirname "$0")/check_helpers.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=check_helpers.sh
source "$helpers"

# A refused run: exit code 2, the message naming `$1`, no summary (nothing ran).
expect_refused() {
  [ "$rc" = 2 ] || fail "exit code $rc, expected 2"
  grep -qF -- "$1" err.txt || fail "the message does not name $1"
  [ ! -s out.txt ] || fail "it ran before refusing"
}

# A temporary output file left in the folder fails the check.
no_partial_files() {
  local left
  left=$(ls -a | grep -E '\.(partial|old)-[0-9]+$')
  [ -z "$left" ] || fail "temporary files left behind: $left"
}

# Starts a command in the background (its output in out.txt and err.txt), sends it signal $1
# after $2 seconds and sets rc to its exit code.
signal_after() {
  local signal=$1 delay=$2 pid
  shift 2
  set -m  # Job control: background commands keep INT and QUIT (without it, bash ignores them there).
  "$@" >out.txt 2>err.txt &
  pid=$!
  sleep "$delay"
  kill -s "$signal" $pid 2>/dev/null
  wait $pid
  rc=$?
}

# Starts a long run writing t.csv over an old one, sends signal $1 after $2 seconds; the run must
# stop with 128 + the signal's number, say so, keep the old t.csv and leave no temporary file.
# The run is large, so that the signal lands while step 0 is still being written (or before).
stopped_by() {
  local signal=$1 delay=$2 number
  number=$(kill -l "$signal")
  echo "keep me" >t.csv
  signal_after "$signal" "$delay" "$crowdsim" run builtin random --agents 400000 --steps 100000 --all-steps -q \
      --threads 1 --out t.csv
  [ "$rc" = $((128 + number)) ] || fail "exit code $rc, expected $((128 + number)) (128 + SIG$signal)"
  grep -q "interrupted (SIG$signal)" err.txt || fail "it does not say SIG$signal stopped it"
  [ "$(cat t.csv)" = "keep me" ] || fail "t.csv was replaced"
  no_partial_files
}

case "$check" in
  warning_once)
    # --seed regenerates the file's groups without reading it again: one warning, once.
    run run "$data/overlapping_pair.json" --seed 7 --steps 1
    [ "$rc" = 0 ] || fail "exit code $rc"
    count=$(grep -c "overlapping" err.txt)
    [ "$count" = 1 ] || fail "the overlap warning was printed $count times"
    grep -q "agents 0 and 1" err.txt || fail "the warning does not name the pair"
    ;;
  metrics_missing_folder)
    run run builtin circle --agents 20 --steps 50 -q --metrics "$work/no_such_folder/m.json"
    expect_refused "$work/no_such_folder/m.json"
    grep -q "does not exist" err.txt || fail "the message does not say why"
    ;;
  out_missing_folder)
    run run builtin circle --agents 20 --steps 50 -q --out no_such_folder/t.csv
    expect_refused "no_such_folder/t.csv"
    ;;
  out_is_folder)
    mkdir traj
    run run builtin circle --agents 20 --steps 5 -q --out traj
    expect_refused "traj"
    grep -q "is a folder" err.txt || fail "the message does not say why"
    ;;
  existing_output_untouched)
    # A good --out next to a bad --metrics: refused before the trajectory file is opened.
    echo "keep me" >t.csv
    run run builtin circle --agents 20 --steps 5 -q --out t.csv --metrics missing/m.json
    expect_refused "missing/m.json"
    [ "$(cat t.csv)" = "keep me" ] || fail "t.csv was overwritten"
    ;;
  out_same_as_metrics)
    run run builtin circle --agents 20 --steps 5 -q --out both.txt --metrics ./both.txt
    expect_refused "both.txt"
    ;;
  out_is_scenario)
    cp "$data/overlapping_pair.json" scenario.json
    run run scenario.json --steps 1 -q --out scenario.json
    expect_refused "scenario.json"
    cmp -s scenario.json "$data/overlapping_pair.json" || fail "the scenario file changed"
    ;;
  agents_over_limit)
    run run builtin random --agents 100000001 --steps 1 -q
    [ "$rc" = 2 ] || fail "run: exit code $rc, expected 2"
    run bench --scenario random --agents 100000001
    [ "$rc" = 2 ] || fail "bench: exit code $rc, expected 2"
    # Within the limit but beyond this machine's memory (where it has under 60 GiB free): refused
    # at once, 3D worlds as well as planar ones, before anything is generated.
    available_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null)
    if [ -n "$available_kib" ] && [ "$available_kib" -lt 62914560 ]; then
      for target in "builtin random" "builtin swarm" "builtin sphere"; do
        run run $target --agents 100000000 --steps 0 -q
        expect_refused "agents need about"
      done
      echo '{"dimensions": 3, "groups": [{"type": "box", "count": 99000000, "min": [0, 0, 0],
             "max": [1e4, 1e4, 1e4], "placement": "random", "goal": [0, 0, 0]}]}' >big3.json
      run validate big3.json
      expect_refused "agents need about"
    fi
    ;;
  writes_outputs)
    # The checks let ordinary runs through: files in the working folder and in a subfolder.
    mkdir sub
    run run builtin circle --agents 20 --steps 3 -q --out t.csv --metrics sub/m.json
    [ "$rc" = 0 ] || fail "exit code $rc"
    [ "$(wc -l <t.csv)" = 81 ] || fail "t.csv has $(wc -l <t.csv) lines, expected 81"
    grep -q '"steps": 3' sub/m.json || fail "sub/m.json lacks the step count"
    ;;
  strict_numbers)
    # --steps and --seed take plain decimal numbers in range: nothing is clamped or reread.
    for args in "--seed 010" "--seed -1" "--seed 18446744073709551616" "--seed 1e3" "--seed 7x" \
                "--steps 9223372036854775808" "--steps -5" "--steps 012"; do
      run run builtin circle --agents 10 -q $args
      option=${args%% *}
      expect_refused "$option"
    done
    run run builtin circle --agents 10 -q --seed 18446744073709551615 --steps 0
    [ "$rc" = 0 ] || fail "the largest seed was refused (exit code $rc)"
    # Every command's whole-number options alike: no octal, hex or wrapped negatives.
    for args in "run builtin circle --agents 012" "run builtin circle --agents 0x10" "bench --agents 1000,012" \
                "bench --seed -1" "bench --warmup -1" "run builtin circle --threads 100000" \
                "realism $data/head_on_pedestrians.txt --substeps 04"; do
      run $args
      option=$(echo "$args" | grep -oE -- "--[a-z]+ [^ ]+$" | cut -d" " -f1)
      expect_refused "$option"
    done
    ;;
  nul_and_devices)
    # A NUL byte ends JSON text as far as a parser goes; bytes after it must not be ignored.
    printf '{"agents": [{"position": [0, 0]}]}\0{"steps": "junk"}' >nul.json
    run validate nul.json
    [ "$rc" = 2 ] || fail "nul.json: exit code $rc, expected 2"
    grep -q "byte 35 is a NUL" err.txt || fail "nul.json: the message does not name the NUL's place"
    # A device that never ends is refused at its first bytes, not after filling memory.
    run validate /dev/zero
    [ "$rc" = 2 ] || fail "/dev/zero: exit code $rc, expected 2"
    grep -q "NUL" err.txt || fail "/dev/zero: the message does not say why"
    ;;
  outputs_through_links)
    # An output path that is a symbolic link writes its target and keeps the link.
    echo old >target.csv
    ln -s target.csv link.csv
    run run builtin circle --agents 5 --steps 2 -q --out link.csv
    [ "$rc" = 0 ] || fail "exit code $rc"
    [ -L link.csv ] || fail "the link was replaced"
    [ "$(head -1 target.csv)" = "step,agent,x,y,vx,vy,time" ] || fail "the link's target was not written"
    # Two links to one new file are one output; a loop of links is refused; nothing is written.
    ln -s same.csv one.csv
    ln -s same.csv two.csv
    run run builtin circle --agents 5 --steps 2 -q --out one.csv --metrics two.csv
    expect_refused "name the same file"
    ln -s loop-b.csv loop-a.csv
    ln -s loop-a.csv loop-b.csv
    run run builtin circle --agents 5 --steps 2 -q --out loop-a.csv
    expect_refused "too many levels of symbolic links"
    [ -L loop-a.csv ] || fail "the looping link was replaced"
    # /dev/stdout is the process's own: a redirection appending to a file keeps what it held.
    echo "kept line" >log.txt
    "$crowdsim" run builtin circle --agents 5 --steps 2 -q --metrics /dev/stdout >>log.txt 2>err.txt ||
        fail "--metrics /dev/stdout failed"
    grep -q "kept line" log.txt || fail "the redirected file lost its earlier content"
    grep -q '"steps": 2' log.txt || fail "the metrics did not reach stdout"
    # ...and is compared like any file: stdout redirected into another output, or into the
    # scenario, is refused; so is a descriptor that is not open, and a named pipe nobody reads.
    "$crowdsim" run builtin circle --agents 5 --steps 2 -q --out /dev/stdout --metrics m.json >m.json 2>err.txt
    [ "$?" = 2 ] && grep -q "name the same file" err.txt || fail "stdout into --metrics' file was not refused"
    cp "$data/../../scenarios/two_agents.json" sc.json
    "$crowdsim" run sc.json --steps 2 -q --out /dev/stdout >>sc.json 2>err.txt
    [ "$?" = 2 ] && grep -q "is the scenario file" err.txt || fail "stdout into the scenario was not refused"
    run run builtin circle --agents 5 --steps 2 -q --metrics /dev/fd/7
    expect_refused "descriptor 7 is not open"
    mkfifo unread.pipe
    run run builtin circle --agents 5 --steps 2 -q --metrics unread.pipe
    expect_refused "a named pipe that nothing reads"
    ;;
  threads_honoured)
    # --threads 1 runs on one core: the process uses about as much CPU time as wall time (two
    # busy threads would use twice as much). The metrics' contact count runs every step.
    /usr/bin/time -f "%U %S %e" -o time.txt "$crowdsim" run builtin random --agents 4000 --steps 150 \
        --threads 1 -q >out.txt 2>err.txt || fail "the run failed"
    read -r user system wall <time.txt
    awk -v u="$user" -v s="$system" -v w="$wall" 'BEGIN { exit !(w > 0.3 && u + s < 1.35 * w) }' ||
        fail "CPU time $user + $system s for $wall s of wall time"
    ;;
  failed_run_keeps_old_outputs)
    # Outputs are written under a temporary name and put in place at the end: an interrupted
    # run leaves the old file as it was, and no partial file behind.
    echo "keep me" >t.csv
    signal_after TERM 1.5 "$crowdsim" run builtin circle --agents 2000 --steps 100000 --all-steps -q --out t.csv
    [ "$rc" = 143 ] || fail "exit code $rc, expected 143 (128 + SIGTERM)"
    # Between two steps ("after N steps") or, as it may land, within one ("during a step").
    grep -Eq "interrupted \(SIGTERM\) (after|during)" err.txt || fail "it does not say it was interrupted"
    [ "$(cat t.csv)" = "keep me" ] || fail "t.csv was replaced by a partial file"
    ls t.csv.partial-* >/dev/null 2>&1 && fail "a partial file was left behind"
    ;;
  pursuit_captures)
    # Captures per pursuit rule, in the summary and in the metrics JSON. (One thread in these
    # runs: ctest runs checks side by side, and threads waiting on each other's cores at every
    # step's barriers would make a run of a second take a minute.)
    run run builtin pursuit --threads 1 --metrics m.json
    [ "$rc" = 0 ] || fail "exit code $rc"
    for kind in chase sight intercept; do
      grep -qE "^captures +$kind +10/10 caught, mean" out.txt || fail "no summary line for $kind captures"
      grep -qF "\"$kind\": {" m.json || fail "m.json lacks the $kind captures"
    done
    grep -qF '"caught": 10' m.json || fail "m.json does not count 10 caught"
    grep -qF '"pathFollowing"' m.json || fail "m.json lacks pathFollowing"
    ;;
  forest_orca)
    # --orca turns ORCA on for the forest's agents, which otherwise cross with the box alone.
    for option in "" --orca "--avoidance orca"; do
      run run builtin forest --threads 1 $option
      [ "$rc" = 0 ] || fail "$option: exit code $rc"
      grep -q "arrived  *50 of 50 agents" out.txt || fail "$option: not everyone arrived"
      grep -q "^penetrations  *0 " out.txt || fail "$option: agents entered a post"
      grep -q "circles" out.txt || fail "$option: the summary does not count the circles"
    done
    ;;
  pathloop_summary)
    run run builtin pathloop --threads 1
    [ "$rc" = 0 ] || fail "exit code $rc"
    grep -qE "^path +12 followers, mean distance [0-9.]+, [0-9.]+% within radius" out.txt ||
        fail "no path line in the summary"
    grep -q "captures" out.txt && fail "a captures line without pursuers"
    ;;
  bad_avoidance)
    run run builtin forest --steps 1 -q --avoidance sideways
    expect_refused "--avoidance"
    run run builtin forest --steps 1 -q --orca --avoidance none
    expect_refused "--orca"
    ;;
  validate_counts)
    run validate "$data/../../scenarios/rvo2_circle.json"
    [ "$rc" = 0 ] || fail "exit code $rc"
    grep -q "ok: 250 agents, 0 obstacles, 0 circles, 0 paths, 4000 steps" out.txt || fail "validate does not count circles and paths"
    ;;
  outputs_3d)
    # A 3D built-in writes x, y, z columns and says it is 3D in the summary and the metrics.
    run run builtin sphere --agents 200 --steps 5 --out t.csv --metrics m.json
    [ "$rc" = 0 ] || fail "exit code $rc"
    [ "$(head -1 t.csv)" = "step,agent,x,y,z,vx,vy,vz,time" ] || fail "the trajectory header is $(head -1 t.csv)"
    [ "$(wc -l < t.csv)" = 1201 ] || fail "$(wc -l < t.csv) lines, expected 1 + 6 x 200"
    awk -F, 'NR > 1 && NF != 9 { bad = 1 } END { exit bad }' t.csv || fail "a row without 9 columns"
    grep -q '"dimensions": 3' m.json || fail "the metrics do not say 3 dimensions"
    grep -qE "^scenario +builtin:sphere: 200 agents in 3D" out.txt || fail "the summary does not say 3D"
    ;;
  refuses_3d_options)
    # Planar-only options are refused for a 3D world, before anything runs.
    run run builtin swarm --orca --steps 1 -q
    expect_refused "--orca"
    run run builtin sphere --avoidance none --steps 1 -q
    expect_refused "--avoidance"
    ;;
  piped_scenario)
    # A file that can be read only once (a pipe), planar or 3D: read once, run as what it says.
    run run <(cat "$data/../../scenarios/two_agents.json")
    [ "$rc" = 0 ] || fail "exit code $rc for a piped planar file"
    grep -qE "^scenario +/dev/fd/[0-9]+: 2 agents" out.txt || fail "the piped planar file did not run"
    run run <(cat "$data/../../scenarios/drones.json") --steps 3
    [ "$rc" = 0 ] || fail "exit code $rc for a piped 3D file"
    grep -q "250 agents in 3D" out.txt || fail "the piped 3D file did not run"
    run validate <(cat "$data/../../scenarios/drones.json")
    [ "$rc" = 0 ] || fail "exit code $rc validating a piped file"
    ;;
  validate_3d)
    run validate "$data/../../scenarios/drones.json"
    [ "$rc" = 0 ] || fail "exit code $rc"
    grep -q "ok: 3D, 250 agents, 2000 steps of 0.1 s" out.txt || fail "validate does not count the 3D agents"
    ;;
  first_run_words)
    # A misspelt command: named, with the nearest one; a built-in's name given as a file: the way
    # to the built-in; the first line without a GPU: plain words, and where it runs instead.
    run runn builtin circle
    expect_refused "unknown command 'runn'; did you mean 'run'?"
    run run circle
    expect_refused "(for the built-in scenario, write 'builtin circle')"
    run run builtin circle --agents 10 --steps 1
    [ "$rc" = 0 ] || fail "exit code $rc"
    first=$(head -1 err.txt)
    case "$first" in
      "crowdsim: backend cuda"*) ;;
      *"; running on the CPU (up to "*" thread"*) ;;
      *) fail "first line: $first" ;;
    esac
    if grep -q "insufficient" err.txt && ! grep -q "driver [0-9]" err.txt; then
      fail "a machine without a driver is told of an insufficient one"
    fi
    ;;
  stop_hup) stopped_by HUP 1 ;;
  stop_quit) stopped_by QUIT 1 ;;
  stop_pipe) stopped_by PIPE 1 ;;
  stop_xfsz) stopped_by XFSZ 1 ;;
  stop_int_at_once) stopped_by INT 0.5 ;;
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
    set -m
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
  stop_verify)
    # Ctrl-C during the verification suite: it stops within the test it is running (not marking
    # it failed and going on), says where, and writes neither --json nor a temporary file.
    signal_after INT 2 "$crowdsim" verify --only "RiMEA 4" --threads 1 --json v.json
    [ "$rc" = 130 ] || fail "exit code $rc, expected 130"
    grep -q "interrupted (SIGINT) during a step of RiMEA 4" err.txt || fail "it does not say where it stopped"
    grep -q "^summary:" out.txt && fail "it went on to a summary"
    [ ! -e v.json ] || fail "v.json was written"
    no_partial_files
    ;;
  stop_bench)
    # Ctrl-C during a sweep beside a busy process: stopped between steps, no --json, and the busy
    # process ends with it.
    set -m
    "$crowdsim" bench --scenario random --agents 200000 --steps 100000 --threads 1 --busy 1 --json b.json \
        >out.txt 2>err.txt &
    pid=$!
    sleep 2
    busy=$(pgrep -P $pid)
    [ -n "$busy" ] || fail "no busy process was started"
    kill -INT $pid 2>/dev/null
    wait $pid
    rc=$?
    [ "$rc" = 130 ] || fail "exit code $rc, expected 130"
    grep -q "interrupted (SIGINT)" err.txt || fail "it does not say SIGINT stopped it"
    sleep 0.2
    for child in $busy; do
      ! kill -0 "$child" 2>/dev/null || fail "busy process $child outlived the sweep"
    done
    [ ! -e b.json ] || fail "b.json was written"
    no_partial_files
    ;;
  routing_time_warned)
    # The maze at 40,000 agents plans a route for each (minutes on one thread): within seconds of
    # starting it says how long that will take, and Ctrl-C stops the planning.
    set -m
    "$crowdsim" run builtin maze --agents 40000 --steps 1 --threads 1 >out.txt 2>err.txt &
    pid=$!
    for _ in $(seq 600); do
      grep -q "warning: planning routes" err.txt && break
      kill -0 $pid 2>/dev/null || break
      sleep 0.1
    done
    kill -INT $pid 2>/dev/null
    wait $pid
    rc=$?
    grep -qE "warning: planning routes: [0-9]+ of 40000 done in [0-9.]+ s, about [0-9]+ (h|min)[0-9a-z ]* more at this pace" \
        err.txt || fail "no warning of the time routing takes: $(cat err.txt)"
    [ "$rc" = 130 ] || fail "exit code $rc, expected 130"
    grep -q "interrupted (SIGINT) while planning routes" err.txt || fail "it does not say where it stopped"
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
echo "ok: $check"
