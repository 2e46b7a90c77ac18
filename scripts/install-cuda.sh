#!/usr/bin/env bash
# Installs the CUDA toolkit (nvcc, cuda.h, libcuda stubs) from Debian's non-free
# component. Bookworm ships CUDA 11.8, which targets Hopper and which gorgonia.org/cu
# compiles against (it does not compile against CUDA 13 headers).
set -euo pipefail
if command -v nvcc >/dev/null 2>&1 && [ -f /usr/include/cuda.h ]; then
  echo "install-cuda: nvcc already present: $(nvcc --version | tail -n 1)"
  exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
src=/etc/apt/sources.list.d/debian.sources
if [ -f "$src" ] && ! grep -q 'non-free' "$src"; then
  $sudo sed -i 's/^Components: main$/Components: main contrib non-free non-free-firmware/' "$src"
elif [ ! -f "$src" ] && ! grep -rq 'non-free' /etc/apt/sources.list /etc/apt/sources.list.d 2>/dev/null; then
  . /etc/os-release
  echo "deb http://deb.debian.org/debian ${VERSION_CODENAME} main contrib non-free non-free-firmware" |
    $sudo tee /etc/apt/sources.list.d/gpusql-non-free.list >/dev/null
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
  nvidia-cuda-toolkit nvidia-cuda-dev >/dev/null
nvcc --version | tail -n 1
