#!/usr/bin/env bash
# The emulator's speed against TRITON_INTERPRET=1 on this machine's CPU (issue 13, part 5):
#
#   OUT=dir bash scripts/gpu/emu_speed.sh
#
# From the repository root, with python3 + torch + Triton 3.6 (PYTHON to pick another), cmake
# and a C compiler; no GPU is used.  It builds bench_emu and bench_workloads (Release) into
# build-speed/, runs the emulator on the ten workloads (bench/bench_workloads.c's seven
# real-kernel-shaped ones and bench/bench_emu.c's three) with one thread and with every core,
# then the same workloads under the interpreter (bench/interp_workloads.py), and writes to $OUT:
#   emu_speed.md     the side-by-side table (bench/speed_report.py), with the goals 100x / 1000x
#                    and, for the dot workloads, the time their exact dots alone take on this
#                    CPU (bench/dot_floor.h: a floor under the default mode)
#   emu_speed.png    the plot (log scale), when matplotlib is there
#   emu_workloads.json, emu_three.json, interp.json   the raw numbers;  emu_speed.log
# About 8 minutes at most: the interpreter gets a budget of INTERP_BUDGET seconds (default 300).
set -uo pipefail
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
exec > >(tee "$OUT/emu_speed.log") 2>&1
PY=${PYTHON:-python3}
B=${BUILD_DIR:-build-speed}
START=$(date +%s)
echo "== $(nproc) cpus; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); ctriton $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
"$PY" -c "import sys, torch, triton, numpy; print('python', sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__, 'numpy', numpy.__version__)" || true
GEN=""; command -v ninja >/dev/null && GEN="-G Ninja"
if [ ! -x "$B/bench_workloads" ] || [ ! -x "$B/bench_emu" ]; then
    timeout 240 bash -c "cmake -S . -B '$B' $GEN -DCMAKE_BUILD_TYPE=Release -DCTRITON_TESTS=OFF >/dev/null && \
        cmake --build '$B' -j $(nproc) --target bench_emu bench_workloads >/dev/null" || { echo "build failed"; exit 1; }
fi
echo "== built ($(( $(date +%s) - START ))s)"
timeout 150 "$B/bench_workloads" --reps 3 --json "$OUT/emu_workloads.json" || echo "bench_workloads: exit $?"
timeout 60 "$B/bench_emu" --markdown --reps 5 --json "$OUT/emu_three.json" || echo "bench_emu: exit $?"
echo "== emulator done ($(( $(date +%s) - START ))s)"
timeout $(( ${INTERP_BUDGET:-300} + 60 )) "$PY" bench/interp_workloads.py --json "$OUT/interp.json" \
    --reps 2 --budget "${INTERP_BUDGET:-300}" || echo "interp_workloads: exit $?"
echo "== interpreter done ($(( $(date +%s) - START ))s)"
"$PY" bench/speed_report.py --emu "$OUT/emu_workloads.json" "$OUT/emu_three.json" \
    --interp "$OUT/interp.json" --md "$OUT/emu_speed.md" --png "$OUT/emu_speed.png"
cat "$OUT/emu_speed.md"
echo "== done in $(( $(date +%s) - START ))s"
