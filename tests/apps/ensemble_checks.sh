#!/usr/bin/env bash
# End-to-end checks of crowdsim ensemble: the table is the same whether one process runs every
# run or mpirun shares them out over 1 to 4 ranks; its rows are the figures `crowdsim run` reports
# for the same seed and parameters; a stopped ensemble resumes to the same table; bad seeds and
# keys are refused; a run that fails is kept in the table as failed.
# Usage: ensemble_checks.sh CROWDSIM WORK_DIR CASE HAVE_MPI SCENARIOS_DIR (HAVE_MPI ON or OFF: the
# build has MPI; SCENARIOS_DIR the repository's scenarios/)
# Exit 77: the check cannot run here (it says why); ctest shows it as skipped.
set -u
crowdsim=$1
work=$2
check=$3
have_mpi=$4
scenarios=$5
helpers="$(dirname "$0")/check_helpers.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# shellcheck source=check_helpers.sh
source "$helpers"

# 12 runs of 30 people leaving the evacuation floor: six seeds, each cut at 100 steps (most are
# still inside) and run to the end. A second or so in all.
small=(builtin evacuation --agents 30 --seeds 1-6 --vary steps=100,400 --threads 1)

# The cell of table $1's row for run $2 in the column named $3.
cell() {
  python3 - "$1" "$2" "$3" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(rows[int(sys.argv[2])][sys.argv[3]])
PY
}

case "$check" in
  same_table_on_ranks)
    command -v mpirun >/dev/null || { echo "mpirun is not installed (apt-get install openmpi-bin)"; exit 77; }
    [ "$have_mpi" = ON ] || { echo "this build has no MPI (libopenmpi-dev, -DCROWD_MPI=ON)"; exit 77; }
    run ensemble "${small[@]}" --out serial.csv -q
    [ "$rc" = 0 ] || fail "the serial ensemble exited $rc"
    [ "$(wc -l <serial.csv)" = 13 ] || fail "serial.csv holds $(wc -l <serial.csv) lines, expected a header and 12 runs"
    # OpenMPI refuses root unless told; oversubscribe: more ranks than this machine's cores.
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    for ranks in 1 2 3 4; do
      mpirun --oversubscribe -np "$ranks" "$crowdsim" ensemble "${small[@]}" --out "ranks$ranks.csv" -q \
        >out.txt 2>err.txt
      rc=$?
      [ "$rc" = 0 ] || fail "mpirun -np $ranks exited $rc"
      cmp -s serial.csv "ranks$ranks.csv" || fail "the table of $ranks ranks differs from the serial one"
      [ ! -e "ranks$ranks.csv.journal" ] || fail "the journal of $ranks ranks was left behind"
    done
    # Bad input is refused once, with the exit code of one process.
    mpirun --oversubscribe -np 3 "$crowdsim" ensemble "${small[@]}" --vary speed=1 --out bad.csv >out.txt 2>err.txt
    rc=$?
    [ "$rc" = 2 ] || fail "a bad --vary under mpirun exited $rc, expected 2"
    [ "$(grep -c "unknown key 'speed'" err.txt)" = 1 ] || fail "the refusal is not said exactly once"
    ;;
  rows_are_runs)
    run ensemble "${small[@]}" --out t.csv --summary s.json
    [ "$rc" = 0 ] || fail "the ensemble exited $rc"
    grep -q "steps=400: 6 runs (0 failed); evacuation_time_s mean" out.txt || fail "no summary line for steps=400"
    # Run 1 is seed 2 cut at 100 steps, run 10 seed 5 run to the end: each as crowdsim run reports it.
    for row in "1 2 100" "10 5 400"; do
      read -r index seed steps <<<"$row"
      "$crowdsim" run builtin evacuation --agents 30 --seed "$seed" --steps "$steps" --threads 1 -q \
        --metrics "run$index.json" || fail "crowdsim run --seed $seed failed"
      [ "$(cell t.csv "$index" seed)" = "$seed" ] || fail "run $index is not seed $seed"
      python3 - t.csv "$index" "run$index.json" <<'PY' || fail "run $index differs from crowdsim run's metrics"
import csv, json, sys
row = list(csv.DictReader(open(sys.argv[1])))[int(sys.argv[2])]
metrics = json.load(open(sys.argv[3]))
pairs = {"steps_run": "steps", "arrived": "arrived", "evacuation_time_s": "lastArrivalTime",
         "first_arrival_s": "firstArrivalTime", "mean_arrival_s": "meanArrivalTime", "collisions": "collisions",
         "penetrations": "obstaclePenetrations", "mean_speed": "meanSpeed", "agents_at_start": "agents"}
for column, key in pairs.items():
    if float(row[column]) != float(metrics[key]):  # To the bit: both are the same double.
        sys.exit(f"{column} {row[column]} against {key} {metrics[key]}")
PY
    done
    # The summary's mean of seeds 1-6 cut at 100 steps is the mean of those six rows.
    python3 - t.csv s.json <<'PY' || fail "the summary's mean is not the rows' mean"
import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["steps"] == "100"]
group = json.load(open(sys.argv[2]))["groups"][0]
assert group["parameters"] == {"steps": "100"}, group["parameters"]
mean = sum(float(r["evacuation_time_s"]) for r in rows) / len(rows)
assert abs(group["columns"]["evacuation_time_s"]["mean"] - mean) < 1e-12, (group, mean)
PY
    ;;
  measured_figures)
    # A scenario file with a measurement line and area: their columns are the run's figures too.
    run ensemble "$scenarios/corridor_measure.json" --seeds 1-2 --steps 150 --out t.csv
    [ "$rc" = 0 ] || fail "the ensemble exited $rc"
    "$crowdsim" run "$scenarios/corridor_measure.json" --seed 2 --steps 150 --threads 1 -q --metrics run.json ||
      fail "crowdsim run failed"
    python3 - t.csv run.json <<'PY' || fail "the measured columns differ from crowdsim run's metrics"
import csv, json, sys
row = list(csv.DictReader(open(sys.argv[1])))[1]
m = json.load(open(sys.argv[2]))["measurements"]
line, area = m["lines"][0], m["areas"][0]
checks = {f"line_{line['name']}_crossed": line["nt"]["forward"][-1],
          f"line_{line['name']}_flow_per_s": line["flow_per_s"]["forward"],
          f"area_{area['name']}_peak_density_per_m2": max(area["density_per_m2"])}
for column, value in checks.items():
    if float(row[column]) != float(value):
        sys.exit(f"{column}: {row[column]} against {value}")
PY
    ;;
  resumes)
    run ensemble "${small[@]}" --out whole.csv -q
    [ "$rc" = 0 ] || fail "the ensemble exited $rc"
    # Slower runs (200 people each), stopped by Ctrl-C once three have been journaled.
    slow=(builtin evacuation --agents 200 --seeds 1-12 --threads 1)
    run ensemble "${slow[@]}" --out reference.csv -q
    set -m
    "$crowdsim" ensemble "${slow[@]}" --out t.csv -q >out.txt 2>err.txt &
    pid=$!
    for _ in $(seq 600); do
      [ "$(wc -l 2>/dev/null <t.csv.journal || echo 0)" -ge 4 ] && break
      sleep 0.02
    done
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    set +m
    [ "$rc" = 130 ] || fail "the stopped ensemble exited $rc, expected 130"
    grep -q "t.csv.journal keeps them" err.txt || fail "it does not name the journal"
    [ -e t.csv.journal ] || fail "the journal is gone"
    [ ! -e t.csv ] || fail "a table was written by a stopped ensemble"
    done_before=$(($(wc -l <t.csv.journal) - 1))
    [ "$done_before" -lt 12 ] || fail "every run had finished before the stop"
    # A stop in the middle of writing a line: its last line cut in half.
    last=$(tail -n 1 t.csv.journal)
    head -n -1 t.csv.journal >cut && printf '%s' "${last:0:20}" >>cut && mv cut t.csv.journal
    cp t.csv.journal ranks.csv.journal
    run ensemble "${slow[@]}" --out t.csv
    [ "$rc" = 0 ] || fail "the resumed ensemble exited $rc"
    grep -q "resuming the ensemble: $((done_before - 1)) of 12 runs were done already" err.txt ||
      fail "it did not resume from the $((done_before - 1)) whole lines of the journal"
    cmp -s reference.csv t.csv || fail "the resumed table differs from the one run straight through"
    [ ! -e t.csv.journal ] || fail "the journal outlived the table"
    # The same journal resumed by three ranks, where there is MPI.
    if command -v mpirun >/dev/null && [ "$have_mpi" = ON ]; then
      export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      mpirun --oversubscribe -np 3 "$crowdsim" ensemble "${slow[@]}" --out ranks.csv -q >out.txt 2>err.txt ||
        fail "the ensemble resumed by three ranks failed"
      cmp -s reference.csv ranks.csv || fail "the table resumed by three ranks differs"
    fi
    # A journal of other arguments is not taken.
    cp reference.csv other.csv
    printf '{"ensemble":{"seeds":"1-3"}}\n' >other.csv.journal
    run ensemble "${slow[@]}" --out other.csv -q
    [ "$rc" = 2 ] || fail "a journal of another ensemble was taken (exit $rc)"
    grep -q "journal of another ensemble" err.txt || fail "the refusal does not say why"
    ;;
  refuses_bad_input)
    run ensemble builtin evacuation --agents 30 --seeds 1-6 --vary speed=1,2 --out t.csv
    [ "$rc" = 2 ] || fail "an unknown --vary key exited $rc"
    grep -q "unknown key 'speed'; the keys it takes are agents, model, avoidance, steps" err.txt ||
      fail "the unknown key's message does not list the known ones"
    run ensemble builtin evacuation --agents 30 --seeds 6-1 --out t.csv
    [ "$rc" = 2 ] || fail "backward seeds exited $rc"
    grep -q "'6-1' runs backwards" err.txt || fail "the seeds' message does not name the range"
    run ensemble builtin evacuation --agents 30 --seeds 1-3,x --out t.csv
    [ "$rc" = 2 ] || fail "a seed that is no number exited $rc"
    run ensemble builtin evacuation --agents 30 --seeds 1-3 --vary agents=10,20 --out t.csv
    [ "$rc" = 2 ] || fail "--agents with --vary agents exited $rc"
    [ ! -e t.csv ] && [ ! -e t.csv.journal ] || fail "a refused ensemble wrote files"
    ;;
  keeps_failed_runs)
    # 10,000 people's routes do not fit a 12 MiB budget; 30 people's do: the runs of one value fail.
    CROWD_MEMORY_LIMIT=12M run ensemble builtin evacuation --seeds 1-2 --vary agents=30,10000 --retries 2 \
      --threads 1 --out t.csv
    [ "$rc" = 1 ] || fail "an ensemble with failed runs exited $rc, expected 1"
    [ "$(wc -l <t.csv)" = 5 ] || fail "t.csv does not hold all four runs"
    for index in 2 3; do
      [ "$(cell t.csv $index status)" = failed ] || fail "run $index is not marked failed"
      [ "$(cell t.csv $index attempts)" = 3 ] || fail "run $index was not tried three times"
      cell t.csv $index error | grep -q "memory budget" || fail "run $index does not say why it failed"
    done
    [ "$(cell t.csv 0 status)" = ok ] || fail "run 0 failed"
    grep -q "run 2 (seed 1) failed 3 times" err.txt || fail "the failed runs are not reported"
    ;;
  *)
    echo "unknown check $check"
    exit 1
    ;;
esac
echo "ok ($check)"
