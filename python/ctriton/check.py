"""ctriton.check: what is wrong with a kernel's output, in one word and one line.

The verdicts of the generate-run-check-fix loop: PASS; SHAPE (the shapes
differ); MISMATCH (values beyond the tolerance, with the largest absolute and
relative errors and where); flags HAS_NAN / HAS_INF (where the expected output
has none) and ALL_ZERO (every element zero, the expected output not), the
usual signs of a kernel that read the wrong memory or never stored.  The
comparison is the emulator's (ct_emu_compare): an element passes when
|actual - expected| <= atol + rtol * |expected|, NaN equal to NaN.
"""
import ctypes

import numpy as np

from . import _lib
from ._emu import dtype_name


class CheckResult:
    """verdict ("PASS", "SHAPE", "MISMATCH"); flags (a set of "HAS_NAN", "HAS_INF",
    "ALL_ZERO"); n and nbad (elements compared, beyond the tolerance); max_abs,
    max_rel, max_ulp; where (the index of the worst element), actual and expected
    there; message (one line).  True when the verdict is PASS."""

    def __init__(self, verdict, flags=(), message="", **kw):
        self.verdict, self.flags, self.message = verdict, set(flags), message
        self.n = kw.get("n", 0)
        self.nbad = kw.get("nbad", 0)
        self.max_abs = kw.get("max_abs", 0.0)
        self.max_rel = kw.get("max_rel", 0.0)
        self.max_ulp = kw.get("max_ulp", 0)
        self.where = kw.get("where")
        self.actual = kw.get("actual")
        self.expected = kw.get("expected")

    def __bool__(self):
        return self.verdict == "PASS"

    def __repr__(self):
        return "<CheckResult %s: %s>" % (self.verdict, self.message)

    def raise_if_failed(self):
        if not self:
            raise AssertionError(self.message)
        return self


def to_numpy(x, name="array"):
    """A NumPy array of x's elements (a torch bf16/fp8 tensor as its raw bits), and its dtype name."""
    if isinstance(x, np.ndarray):
        return x, dtype_name(x)
    if hasattr(x, "detach") and hasattr(x, "element_size"):
        t = x.detach()
        if t.device.type != "cpu":
            t = t.cpu()
        dn = dtype_name(t)
        try:
            return t.numpy(), dn
        except (TypeError, RuntimeError):  # bfloat16, float8: the bits
            import torch
            bits = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
            return t.contiguous().view(bits).numpy(), dn
    a = np.asarray(x)
    return a, dtype_name(a)


def check(actual, expected, rtol=1e-5, atol=1e-8, name="output"):
    """Compares a kernel's output with the expected one; returns a CheckResult
    (true when PASS).  Both may be NumPy arrays, PyTorch tensors or sequences;
    when their element types differ, both are compared as float64."""
    a, ta = to_numpy(actual, name)
    e, te = to_numpy(expected, name)
    if a.shape != e.shape:
        return CheckResult("SHAPE", message="SHAPE: %s has shape %s, the expected output %s" %
                           (name, tuple(a.shape), tuple(e.shape)), n=0)
    if ta != te or ta == "bytes":
        if ta in ("bf16", "fp8e4nv", "fp8e5", "fp8e4b8", "fp8e5b16") or te in (
                "bf16", "fp8e4nv", "fp8e5", "fp8e4b8", "fp8e5b16"):
            a = _as_f64(actual)
            e = _as_f64(expected)
        else:
            a, e = a.astype(np.float64), e.astype(np.float64)
        ta = "fp64"
    a = np.ascontiguousarray(a)
    e = np.ascontiguousarray(e)
    c = _lib.Check()
    L = _lib.lib()
    L.ct_emu_compare(_lib.DTYPE[ta], a.ctypes.data, a.size, e.ctypes.data, e.size, float(rtol), float(atol),
                     False, ctypes.byref(c))
    flags = [f for bit, f in ((_lib.HAS_NAN, "HAS_NAN"), (_lib.ALL_ZERO, "ALL_ZERO"), (_lib.HAS_INF, "HAS_INF"))
             if c.flags & bit]
    where = tuple(int(i) for i in np.unravel_index(c.worst, a.shape)) if c.worst >= 0 and a.ndim else None
    msg = _lib.dstr(c.message)
    if name != "output":
        msg = "%s: %s" % (name, msg)
    if where is not None and c.verdict != 0:
        msg += " (worst at index %s)" % (where,)
    return CheckResult(_lib.VERDICTS[c.verdict], flags, msg, n=c.n, nbad=c.nbad, max_abs=c.max_abs,
                       max_rel=c.max_rel, max_ulp=c.max_ulp, where=where, actual=c.got, expected=c.want)


def _as_f64(x):
    if isinstance(x, np.ndarray):
        return x.astype(np.float64)
    return x.detach().cpu().double().numpy()
