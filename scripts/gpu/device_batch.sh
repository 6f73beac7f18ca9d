#!/usr/bin/env bash
# The GPU machine's share of the work, in two commands that each fit a
# 10-minute slot (the launch benchmarks are a third:
# scripts/gpu/run_launch_bench.sh).
#
#   OUT=/some/dir bash scripts/gpu/device_batch.sh check     # steps 1-3
#   OUT=/some/dir bash scripts/gpu/device_batch.sh capture   # steps 1 (if needed) and 4
#   OUT=/some/dir bash scripts/gpu/device_batch.sh emubench  # step 1 (if needed), 4's benchmark only
#   OUT=/some/dir bash scripts/gpu/device_batch.sh final     # the lot, most important first
#   OUT=/some/dir bash scripts/gpu/device_batch.sh aot       # steps 1 (if needed) and 5
#
# From the repository root on a machine with an NVIDIA GPU, python3 with
# torch and triton 3.6.0, cmake.  It
#   1. builds ctriton (Release, no unit tests) into build-gpu/;
#   2. runs every Python original kernel and config on the GPU against a
#      PyTorch reference (scripts/gpu/check_py_kernels.py);
#   3. times the emission of every stage-1 kernel's TTIR in C beside Python's
#      frontend on this machine's CPU (bench/emit_bench.py);
#   4. captures GPU outputs and single-op probes for the emulator's
#      differential tests, and times the emulator against TRITON_INTERPRET=1
#      (scripts/gpu_emu_capture.py);
#   5. kernels written in Python AOT-compiled from their TTIR (`ctriton aot --ttir`),
#      launched from plain C and compared bit for bit with the Python launch
#      (scripts/gpu/check_aot_ttir.py), and `ctriton bench` on a kernel plugin's
#      kernel (--check against its C reference) and on a Python kernel's TTIR.
# Each step has its own time limit and a failing step does not stop the
# others.  Results go to $OUT: batch.log, py_kernels.json, py_kernels.txt,
# emit_bench.md (check); emu_capture.tar.gz, emu_capture.log (capture).
set -uo pipefail
PART=${1:-check}
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
exec > >(tee "$OUT/batch.log") 2>&1
export PYTHONUNBUFFERED=1
PY=${PYTHON:-python3}
START=$(date +%s)

step() {  # step NAME TIMEOUT CMD...
    local name=$1 t=$2; shift 2
    echo "== $name (timeout ${t}s, $(( $(date +%s) - START ))s elapsed)"
    timeout "$t" "$@"
    local rc=$?
    echo "== $name: exit $rc"
}

echo "== machine"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
"$PY" -c "import sys, torch, triton; print('python', sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__)" || true
echo "cpus $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "ctriton $(git rev-parse --short HEAD 2>/dev/null || echo '(no git)')"

GEN=""; command -v ninja >/dev/null && GEN="-G Ninja"
[ -x build-gpu/ctriton ] && [ -x build-gpu/bench_emu ] && [ -f build-gpu/libctriton_conformance.so ] || \
step build 200 bash -c "cmake -S . -B build-gpu $GEN -DCMAKE_BUILD_TYPE=Release -DCTRITON_TESTS=OFF >/dev/null && cmake --build build-gpu -j $(nproc) >/dev/null && echo built"

# the conformance kernels are a kernel plugin beside the command (tests/conformance)
export CTRITON_KERNELS=$ROOT/build-gpu/libctriton_conformance.so

if [ "$PART" = check ]; then
step "python originals on the GPU" 250 "$PY" scripts/gpu/check_py_kernels.py --device cuda \
    --ctriton build-gpu/ctriton --json "$OUT/py_kernels.json" > "$OUT/py_kernels.txt" 2>&1
tail -n 50 "$OUT/py_kernels.txt"

step "emission benchmark" 120 bash -c "'$PY' bench/emit_bench.py --build build-gpu --markdown > '$OUT/emit_bench.md'"
cat "$OUT/emit_bench.md"
fi

# everything a session needs in one slot, most important first: the Python originals against
# PyTorch with every first launch recorded for the emulator's differential suite
# (gpu_runs.tar.xz: tests/golden/gpu_runs.tar.xz), Python kernels AOT-compiled from their TTIR, the
# tensor-core dot captures (dot_capture.tar.gz), the MUFU check, the emulator benchmark
if [ "$PART" = final ]; then
step "python originals, recorded" 180 "$PY" scripts/gpu/check_py_kernels.py --device cuda \
    --ctriton build-gpu/ctriton --json "$OUT/py_kernels.json" --record "$OUT/rec" > "$OUT/py_kernels.txt" 2>&1
tail -n 8 "$OUT/py_kernels.txt"
# committed as is: tests/golden/gpu_runs.tar.xz (xz: about 13 MiB, under the 16 MiB a file may
# have to come back from the GPU machine)
[ -d "$OUT/rec/tests" ] && tar cJf "$OUT/gpu_runs.tar.xz" -C "$OUT/rec/tests/golden" gpu_runs && \
    cp "$OUT/rec/record.log" "$OUT/record.log" 2>/dev/null; rm -rf "$OUT/rec"
ls -la "$OUT/gpu_runs.tar.xz" 2>/dev/null
step "aot --ttir: Python kernels to C launchers" 90 "$PY" scripts/gpu/check_aot_ttir.py \
    --ctriton build-gpu/ctriton --out "$OUT"
cat "$OUT/aot_ttir.txt" 2>/dev/null
rm -rf "$OUT/aot_ttir_work"
step "tensor-core dots" 120 "$PY" scripts/gpu/capture_dots.py --out "$OUT"
tail -n 3 "$OUT/dot_capture.log" 2>/dev/null
step "emulator benchmark" 90 "$PY" scripts/gpu_emu_capture.py --out "$OUT" --ctriton build-gpu/ctriton \
    --bench-emu build-gpu/bench_emu --bench-timeout 25 --bench-only
cat "$OUT/emu_capture_bench.md" 2>/dev/null
# few files come back: the reports in one archive
(cd "$OUT" && tar czf reports.tgz --exclude=batch.log --exclude='*.tgz' --exclude='*.tar.gz' \
    $(ls | grep -v -e '^batch.log$' -e 'gz$') && ls | grep -v -e '^batch.log$' -e 'gz$' | xargs rm -rf)
ls -la "$OUT"
fi

if [ "$PART" = capture ]; then
step "emulator capture" 500 "$PY" scripts/gpu_emu_capture.py --out "$OUT" --ctriton build-gpu/ctriton \
    --bench-emu build-gpu/bench_emu --bench-timeout 90
tail -n 30 "$OUT/emu_capture.log" 2>/dev/null
fi

if [ "$PART" = emubench ]; then
step "emulator benchmark" 300 "$PY" scripts/gpu_emu_capture.py --out "$OUT" --ctriton build-gpu/ctriton \
    --bench-emu build-gpu/bench_emu --bench-timeout 120 --bench-only
cat "$OUT/emu_capture_bench.md" 2>/dev/null
fi

if [ "$PART" = aot ]; then
step "aot --ttir: Python kernels to C launchers" 300 "$PY" scripts/gpu/check_aot_ttir.py \
    --ctriton build-gpu/ctriton --out "$OUT"
cat "$OUT/aot_ttir.txt" 2>/dev/null
# a project's kernels (examples/out-of-tree) as a plugin, benchmarked and checked on the GPU
step "plugin build" 60 bash -c "cc -std=gnu11 -O2 -fPIC -shared -Iinclude examples/out-of-tree/kernels/*.c \
    -Lbuild-gpu -lctriton -Wl,-rpath,$ROOT/build-gpu -o build-gpu/libmykernels.so"
step "bench: plugin kernels" 120 bash -c "for k in bias_gelu_kernel row_sum_kernel; do \
    build-gpu/ctriton --kernels build-gpu/libmykernels.so bench \$k --check || echo FAILED \$k; done \
    > '$OUT/plugin_bench.txt' 2>&1"
step "bench --ttir: a Python kernel's TTIR" 120 bash -c "build-gpu/ctriton bench \
    --ttir '$OUT/aot_ttir_work/bias_gelu/frontend.ttir' --grid 64 --arg 'fp32[64000]' --arg 'fp32[1000]' \
    --arg 'fp32[64000]:out' --arg 1000 >> '$OUT/plugin_bench.txt' 2>&1 || echo FAILED bench --ttir >> '$OUT/plugin_bench.txt'"
cat "$OUT/plugin_bench.txt" 2>/dev/null
fi

echo "== done in $(( $(date +%s) - START ))s"
