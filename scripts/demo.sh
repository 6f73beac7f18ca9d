#!/usr/bin/env bash
# make demo: build, emit a kernel's TTIR, lower it with Triton, and (when the
# pieces exist) run it on the emulator and on a GPU.
set -euo pipefail
BUILD=${1:-build}
PY=${2:-python3}
CT=$BUILD/ctriton
echo "== ctriton list"
$CT list
echo
echo "== ctriton emit softmax_kernel --config B1024"
$CT emit softmax_kernel --config B1024
echo
echo "== fidelity of softmax_kernel against kernels/py/softmax.py (Triton 3.6.0, sm_90)"
$PY scripts/fidelity.py --ctriton "$CT" --kernel softmax_kernel --golden "$BUILD/demo-golden"
