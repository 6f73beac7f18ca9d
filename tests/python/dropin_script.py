"""A script written for Triton, run unchanged with CTRITON_INTERPRET=1 (test_ctriton.py).
Prints one line per check; exits 1 on a wrong result."""
import sys

import numpy as np
import triton

import kernels

n = 1000
x = np.random.RandomState(0).rand(n).astype(np.float32)
y = np.random.RandomState(1).rand(n).astype(np.float32)
out = np.zeros(n, np.float32)
kernels.add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=128)
if not np.array_equal(out, x + y):
    sys.exit("numpy: wrong result")
print("numpy ok")
try:
    import torch
except ImportError:
    torch = None
if torch is not None:
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    tout = torch.empty_like(tx)
    kernels.add_kernel[(8,)](tx, ty, tout, n, BLOCK=128)
    if not torch.equal(tout, tx + ty):
        sys.exit("torch: wrong result")
    print("torch ok")
try:
    kernels.add_unmasked[(8,)](x, out, BLOCK=128)
except Exception as e:
    print("raised %s line=%s arg=%s pid=%s lane=%s offset=%s" % (type(e).__name__, e.line, e.arg, e.pid, e.lane,
                                                                   e.offset))
# a kernel made by exec() of its source (as Triton's tests make variants of a kernel)
ns = {}
exec("@triton.jit\ndef made_by_exec(X):\n    tl.store(X, 7)\n", {"triton": triton, "tl": triton.language}, ns)
one = np.zeros(1, np.int32)
ns["made_by_exec"][(1,)](one)
print("exec ok" if one[0] == 7 else "exec wrong")
# a tensor passed to a @triton.jit(noinline=True) helper: runs, as under TRITON_INTERPRET=1
v = np.arange(16, dtype=np.float32)
kernels.scale_through_noinline[(1,)](v, BLOCK=16)
print("noinline ok" if np.array_equal(v, 3 * np.arange(16, dtype=np.float32)) else "noinline wrong %r" % v)
# a typing error from Triton's frontend: its CompilationError, also its InterpreterError
from triton.runtime.errors import InterpreterError
try:
    kernels.reshape_error[(1,)]()
    print("compile error not raised")
except triton.CompilationError as e:
    print("compile error ok" if isinstance(e, InterpreterError) and "reshape" in str(e) else
          "compile error %s: %s" % (type(e).__mro__, e))
