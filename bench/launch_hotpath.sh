#!/usr/bin/env bash
# The host cost of ct_launch over a bare cuLaunchKernel, on a machine without a
# GPU: both go to the recording driver of tests/unit/fake_cuda.c (which costs
# the same for both), so the difference is what ctriton adds per launch
# (specialization key, table lookup, context check, packing, grid checks).
#   bash bench/launch_hotpath.sh [BUILD]     (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cc -std=gnu11 -O2 -shared -fPIC -o "$T/libcuda.so.1" tests/unit/fake_cuda.c -lpthread
CTRITON_LIBCUDA="$T/libcuda.so.1" CTRITON_CACHE_DIR="$T/cache" "$BUILD/launch_bench" overhead 200000 |
python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
print("ct_launch %.1f ns/launch, raw cuLaunchKernel %.1f ns/launch (to a recording driver): ctriton adds %.1f ns"
      % (d["ct_launch_host_us"] * 1e3, d["raw_host_us"] * 1e3, (d["ct_launch_host_us"] - d["raw_host_us"]) * 1e3))'
