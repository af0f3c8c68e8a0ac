#!/usr/bin/env bash
# Builds the fuzz targets with clang (libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer)
# and runs each on a fixed number of inputs grown from its corpus: the scenario reader
# (tests/fuzz/corpus: example scenarios and inputs that once broke the reader) and the reader and
# re-enactment of recorded pedestrian scenes (tests/fuzz/recording_corpus).
# CROWD_FUZZ_RUNS sets how many inputs (default 20000); the seed is fixed, so a run repeats.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
packages=(clang libclang-rt-14-dev libomp-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "crowd: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
build=${CROWD_FUZZ_BUILD_DIR:-build-fuzz}
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCROWD_FUZZ=ON \
  -DCROWD_SANITIZE=address,undefined -DCROWD_TESTS=OFF -DCROWD_BENCHMARKS=OFF -DCROWD_CUDA=OFF -DCROWD_VIEWER=OFF
cmake --build "$build" --target scenario_fuzzer recording_fuzzer --parallel "$(nproc)"
# Each target on its own corpus (copied: libFuzzer adds what it finds).
for target in scenario_fuzzer:corpus recording_fuzzer:recording_corpus; do
  corpus=$(mktemp -d)
  cp "tests/fuzz/${target#*:}"/* "$corpus"/
  echo "crowd: ${target%%:*} on ${CROWD_FUZZ_RUNS:-20000} inputs"
  "$build/tests/fuzz/${target%%:*}" -runs="${CROWD_FUZZ_RUNS:-20000}" -seed=1 -max_len=4096 \
    -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 "$corpus"
  rm -rf "$corpus"
done
