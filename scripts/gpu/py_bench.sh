#!/usr/bin/env bash
# The Python package on the GPU machine's CPU (where the issue's interpreter
# figures come from): the package's tests from the tree, a CUDA tensor refused
# with a clear message, and bench/py_bench.py (softmax, layer norm, matmul,
# fused attention: the emulator on one thread against TRITON_INTERPRET=1).
#
#   OUT=/some/dir bash scripts/gpu/py_bench.sh
#
# From the repository root, python3 with torch and triton 3.6.0, cmake; under
# 8 minutes.  Writes $OUT/py_bench.md, $OUT/py_tests.log and $OUT/py_batch.log.
set -uo pipefail
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
exec > >(tee "$OUT/py_batch.log") 2>&1
PY=${PYTHON:-python3}
"$PY" -c "import sys, torch, triton, numpy; print('python', sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__, 'numpy', numpy.__version__)"
echo "cpus $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); ctriton $(git rev-parse --short HEAD 2>/dev/null)"
GEN=""; command -v ninja >/dev/null && GEN="-G Ninja"
timeout 200 bash -c "cmake -S . -B build-gpu $GEN -DCMAKE_BUILD_TYPE=Release -DCTRITON_TESTS=OFF >/dev/null && cmake --build build-gpu -j $(nproc) --target ctriton_shared >/dev/null" || { echo "build failed"; exit 1; }
export CTRITON_LIBRARY=$ROOT/build-gpu/libctriton.so PYTHONPATH=$ROOT/python CTRITON_CACHE_DIR=$OUT/cache
echo "== tests/python (from the tree)"
timeout 120 "$PY" tests/python/test_ctriton.py > "$OUT/py_tests.log" 2>&1; echo "exit $?"; tail -3 "$OUT/py_tests.log"
echo "== a CUDA tensor is refused"
timeout 60 "$PY" - <<'PYEOF'
import sys, torch, ctriton
sys.path.insert(0, "tests/python")
import kernels
x = torch.ones(64, device="cuda")
try:
    ctriton.run(kernels.add_kernel, (1,), x, x, x, 64, BLOCK=64)
    print("NOT REFUSED")
except ValueError as e:
    print("refused:", e)
PYEOF
echo "== bench/py_bench.py"
timeout 360 "$PY" bench/py_bench.py --markdown > "$OUT/py_bench.md"; echo "exit $?"
cat "$OUT/py_bench.md"
