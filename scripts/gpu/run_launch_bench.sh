#!/usr/bin/env bash
# Launch-from-C results on the GPU machine, in one run (issue 5, item 8).
#
#   OUT=/some/dir bash scripts/gpu/run_launch_bench.sh
#
# Builds ctriton with cmake (Release, no unit tests), then runs side by side
# (bench/launch_bench.c, the C side; bench/launch_py.py, Python Triton):
#   1. empty-kernel launch overhead: ct_launch vs raw cuLaunchKernel vs Triton's JIT
#   2. process start to first launch done, warm caches, 5 runs each (C and Python)
#   3. every library kernel/config launched from C: checked against the C
#      reference, replayed in Python Triton (outputs bit for bit, PTX and SASS
#      compared), timed at a large problem in both
#   4. launch features on the GPU (streams, contexts, threads, clusters, ...)
#   5. softmax 32768 x 4096 fp32 (num_warps autotuned) vs device copy bandwidth
#   6. fp16 8192^3 matmul through ct_autotune (tuned, then reused by a new
#      process) vs Python Triton with the same config and torch.matmul
#   7. the AOT example (examples/aot) run with no Python in its environment
#   8. `ctriton bench` on two kernels
# and writes into $OUT (at most 8 files):
#   launch_results.md   the section for bench/RESULTS.md, ready to commit
#   launch_bench.tgz    raw JSON lines, logs, the tuned matmul table, GPU info
#   run.log             everything the run printed
# Budget: about 5 minutes on an H200 (each step has its own timeout; the
# whole run stops at 7.5 minutes).  Needs python3 with torch and triton 3.6.0.
set -uo pipefail
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d /tmp/ctriton-launch.XXXXXX)
R=$W/results
mkdir -p "$R"
exec > >(tee "$OUT/run.log") 2>&1
START=$(date +%s)
PY=${PYTHON:-python3}
export CTRITON_PYTHON=${CTRITON_PYTHON:-$(command -v "$PY")}
export CTRITON_CACHE_DIR=$W/ctriton-cache
export TRITON_CACHE_DIR=$W/triton-cache
export CTRITON_SOURCE_DIR=$ROOT
cd "$ROOT"

left() { echo $(( 450 - ($(date +%s) - START) )); }
step() {  # step NAME TIMEOUT CMD... : runs with a timeout, never stops the run
    local name=$1 t=$2; shift 2
    local l; l=$(left)
    (( l < 5 )) && { echo "== $name: skipped (out of time)" >&2; echo "{\"test\": \"skipped\", \"what\": \"$name\"}" >> "$R/skipped.jsonl"; return 0; }
    (( t > l )) && t=$l
    echo "== $name (timeout ${t}s, $(( $(date +%s) - START ))s elapsed)" >&2
    timeout "$t" "$@"
    local rc=$?
    (( rc != 0 )) && echo "== $name: exit $rc" >&2
    return 0
}

echo "== machine"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv || true
  "$PY" -c "import torch, triton, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__, 'cuda', torch.version.cuda)" || true
  echo "ctriton $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '(no git)')"
  nproc; uname -r; } | tee "$R/machine.txt"

GEN=""; command -v ninja >/dev/null && GEN="-G Ninja"
TESTS=OFF; [ -f /usr/include/cmocka.h ] && TESTS=ON   # unit tests too, when cmocka is there
step build 240 bash -c "cmake -S '$ROOT' -B '$W/build' $GEN -DCMAKE_BUILD_TYPE=Release -DCTRITON_TESTS=$TESTS >/dev/null && cmake --build '$W/build' -j $(nproc) >/dev/null && echo built"
B=$W/build
if [ ! -x "$B/launch_bench" ]; then echo "build failed"; exit 1; fi

# 1. overhead (the first call also compiles the empty kernel for both sides)
step "overhead C" 60 "$B/launch_bench" overhead 20000 > "$R/overhead_c.jsonl"
step "overhead Python" 90 "$PY" bench/launch_py.py overhead 20000 > "$R/overhead_py.jsonl"
cat "$R/overhead_c.jsonl" "$R/overhead_py.jsonl"

# 2. startup from warm caches (both warmed by step 1)
for i in 1 2 3 4 5; do
  step "startup C $i" 20 env CT_T0_NS="$(date +%s%N)" "$B/launch_bench" startup >> "$R/startup_c.jsonl"
done
for i in 1 2 3 4 5; do
  step "startup Python $i" 40 env CT_T0_NS="$(date +%s%N)" "$PY" bench/launch_py.py startup >> "$R/startup_py.jsonl"
done
cat "$R/startup_c.jsonl" "$R/startup_py.jsonl"

# 3. library kernels (lowered in one parallel batch first)
step "precompile" 120 "$B/launch_bench" precompile > "$R/precompile.jsonl"
cat "$R/precompile.jsonl"
step "kernels C" 150 "$B/launch_bench" kernels "$W/dumps" > "$R/kernels_c.jsonl"
step "kernels Python" 150 "$PY" bench/launch_py.py kernels "$W/dumps" > "$R/kernels_py.jsonl"

# 4. features
step "features" 60 "$B/launch_bench" features > "$R/features.jsonl"
cat "$R/features.jsonl"

# 5. softmax bandwidth
step "softmax-bw C" 60 "$B/launch_bench" softmax-bw > "$R/softmax_c.jsonl"
cat "$R/softmax_c.jsonl"
NW=$("$PY" -c "import json,sys; d=[json.loads(l) for l in open('$R/softmax_c.jsonl') if l.strip()]; print([x for x in d if x.get('test')=='softmax_bw'][0]['best_num_warps'])" 2>/dev/null || echo 8)
step "softmax-bw Python" 90 "$PY" bench/launch_py.py softmax-bw "$NW" > "$R/softmax_py.jsonl"
cat "$R/softmax_py.jsonl"

# 6. matmul: tune (new process), then reuse the stored choice (another process)
step "matmul C (tuning)" 120 "$B/launch_bench" matmul "$R/matmul_tuned.tsv" > "$R/matmul_c.jsonl"
step "matmul C (reuse)" 60 "$B/launch_bench" matmul > "$R/matmul_c_reuse.jsonl"
cat "$R/matmul_c.jsonl" "$R/matmul_c_reuse.jsonl"
CFG=$("$PY" -c "import json; d=[json.loads(l) for l in open('$R/matmul_c.jsonl') if l.strip()]; print([x for x in d if x.get('test')=='matmul'][0]['best_config'])" 2>/dev/null || echo "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=None num_warps=8 num_stages=3")
step "matmul Python" 120 "$PY" bench/launch_py.py matmul "$CFG" > "$R/matmul_py.jsonl"
cat "$R/matmul_py.jsonl"
cp "$CTRITON_CACHE_DIR/tune/"*.tsv "$R/" 2>/dev/null

# 7. AOT example: generated here, run with nothing Python in reach
step "aot generate" 90 make -s -C examples/aot CTRITON="$B/ctriton" GEN="$W/aot" ARCHS=80,90,100
if [ -x "$W/aot/aot_example" ]; then
  ldd "$W/aot/aot_example" > "$R/aot_ldd.txt" 2>&1
  step "aot run" 30 env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" "$W/aot/aot_example" > "$R/aot_example.txt" 2>&1
  echo "exit $?" >> "$R/aot_example.txt"
  cat "$R/aot_example.txt"
fi

# 8. the command line
step "ctriton bench softmax" 30 "$B/ctriton" bench softmax_kernel --config B1024 --large --check > "$R/cli_bench.txt" 2>&1
step "ctriton bench matmul" 30 "$B/ctriton" bench matmul_kernel --config fp16_128x128x64 --large --check >> "$R/cli_bench.txt" 2>&1
cat "$R/cli_bench.txt"

# 9. the unit tests with a real driver (if cmocka was there to build them)
if [ "$TESTS" = ON ]; then
  step "unit tests" 120 bash -c "cd '$B' && ctest --output-on-failure -j 8" > "$R/ctest.txt" 2>&1
  tail -5 "$R/ctest.txt"
fi
# 10. the emulator's verdicts on the same configs, when main has `ctriton run`
if "$B/ctriton" --help 2>&1 | grep -q "^  run "; then
  step "emulator" 60 bash -c '
    "$0" list | while read -r k cfgs; do
      for c in $cfgs; do
        timeout 20 "$0" run "$k" --config "$c" --emu > /dev/null 2>&1
        echo "{\"test\": \"emu\", \"kernel\": \"$k\", \"config\": \"$c\", \"exit\": $?}"
      done
    done' "$B/ctriton" > "$R/emu.jsonl"
fi

echo "== report"
"$PY" bench/launch_report.py "$R" > "$OUT/launch_results.md" || echo "report failed"
cat "$OUT/launch_results.md"
cp -r "$W/dumps" "$R/" 2>/dev/null; find "$R/dumps" -name '*.in' -o -name '*.out' -o -name '*.cubin' | xargs rm -f 2>/dev/null
tar czf "$OUT/launch_bench.tgz" -C "$W" results
echo "== done in $(( $(date +%s) - START ))s; files in $OUT: $(ls "$OUT" | tr '\n' ' ')"
sleep 1  # let tee finish run.log
