#!/usr/bin/env bash
# crowdsim view --replay under Xvfb: records a short run, then plays it back in a window for two
# seconds. Arguments: CROWDSIM XVFB_RUN WORKDIR.
set -euo pipefail
crowdsim=$1 xvfb=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
"$crowdsim" run builtin circle --agents 40 --steps 30 --out "$work/traj.csv" -q > /dev/null
out=$("$xvfb" -a "$crowdsim" view --replay "$work/traj.csv" builtin circle --agents 40 --quit-after 2 2>&1)
echo "$out"
grep -q "agents drawn by" <<< "$out"
# A file that is not a trajectory is refused with its line.
echo "hello" > "$work/bad.csv"
if "$xvfb" -a "$crowdsim" view --replay "$work/bad.csv" --quit-after 1 > "$work/bad.out" 2>&1; then
  echo "a bad replay file was accepted"; exit 1
fi
grep -q "bad.csv:1: not a trajectory file" "$work/bad.out"
