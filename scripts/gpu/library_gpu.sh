#!/usr/bin/env bash
# The GPU work of issue 15's kernels in one slot (at most 8 minutes):
#   OUT=dir bash scripts/gpu/library_gpu.sh [library_gpu.py's options: --kernel K, --aa, --rounds N]
# From the repository root on a machine with an NVIDIA GPU, python3 with torch and
# triton 3.6.0, cmake and a C compiler.  Builds the command and the ctypes launcher
# (bench/library_launch.c) into build-gpu/ (Release, no tests), then runs
# scripts/gpu/library_gpu.py: each kernel's Python original against PyTorch, the C
# launch bit for bit against Python's, and C, Python and PyTorch timed interleaved in
# rounds on a size sweep with the SM clock and power read around each point (the
# 8192^3 fp16 matmul among them).  Results in $OUT: library_gpu.md, library_gpu.json,
# plot_<kernel>.svg, run.log.
set -uo pipefail
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
exec > >(tee "$OUT/run.log") 2>&1
PY=${PYTHON:-python3}
export CTRITON_PYTHON=${CTRITON_PYTHON:-$(command -v "$PY")}
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader || true
"$PY" -c "import sys, torch, triton; print('python', sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__)"
GEN=""; command -v ninja >/dev/null && GEN="-G Ninja"
start=$(date +%s)
timeout 200 bash -c "cmake -S . -B build-gpu $GEN -DCMAKE_BUILD_TYPE=Release -DCTRITON_TESTS=OFF >/dev/null && \
  cmake --build build-gpu -j $(nproc) --target ctriton_cli library_launch >/dev/null" || { echo "build failed"; exit 1; }
echo "== built in $(( $(date +%s) - start ))s"
left=$(( 470 - ($(date +%s) - start) ))
timeout "$left" "$PY" scripts/gpu/library_gpu.py --build build-gpu --out "$OUT" --budget-s $(( left - 120 )) "$@"
rc=$?
echo "== library_gpu.py: exit $rc after $(( $(date +%s) - start ))s"
exit $rc
