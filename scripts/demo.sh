#!/usr/bin/env bash
# make demo: one kernel (softmax) through every part of ctriton.
#   1. emit its TTIR from the C port (kernels/softmax.c)
#   2. lint it
#   3. compare it with the Python original at every stage through Triton 3.6
#   4. run it on the CPU emulator and check it against a plain C reference,
#      and run Python's own TTIR for it on the emulator too
#   5. on a machine with an NVIDIA GPU: lower it through Triton (cached),
#      launch it from C, check and time it
set -euo pipefail
BUILD=${1:-build}
PY=${2:-python3}
CT=$BUILD/ctriton
K=softmax_kernel
C=B1024
say() { printf '\n== %s\n' "$*"; }

say "ctriton list"
$CT list

say "ctriton emit $K --config $C   (the C port's TTIR)"
$CT emit $K --config $C

say "ctriton lint $K --config $C"
$CT lint $K --config $C || true

say "fidelity: $K against kernels/py/softmax.py, stage by stage (Triton 3.6.0, sm_90)"
$PY scripts/fidelity.py --ctriton "$CT" --kernel $K --golden "$BUILD/demo-golden"

say "ctriton run $K --config $C --emu   (CPU emulator against a C reference)"
$CT run $K --config $C --emu

say "Python's raw TTIR for $K on the emulator, 64 rows of 1000 (tests/golden/$K/$C/py.source)"
$CT run --ttir tests/golden/$K/$C/py.source --grid 64 \
    --arg 'fp32[64000]' --arg 'fp32[64000]:out' --arg 1000

say "the same with a planted bug, a grid of 65 programs over 64 rows: reported at the Python line"
$CT run --ttir tests/golden/$K/$C/py.source --grid 65 \
    --arg 'fp32[64000]' --arg 'fp32[64000]:out' --arg 1000 || true

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    say "GPU: lower through Triton, launch from C, check and time"
    CTRITON_PYTHON=${CTRITON_PYTHON:-$PY} $CT bench $K --config $C --check
else
    say "no NVIDIA GPU here: skipping the launch (ctriton bench $K --config $C --check on a GPU machine)"
fi
