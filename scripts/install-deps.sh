#!/usr/bin/env bash
# Installs the Debian packages crowd builds with, if any are missing (needs root or sudo).
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config libglm-dev nlohmann-json3-dev libcli11-dev
          libgtest-dev libgmock-dev libbenchmark-dev time librsvg2-bin libsqlite3-dev libhdf5-dev python3-h5py
          libopenmpi-dev openmpi-bin
          pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest python3-pip python3-venv
          libglfw3-dev libepoxy-dev libpng-dev libimgui-dev libegl-dev libgl1-mesa-dri libegl-mesa0 xvfb xauth)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "crowd: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
