"""Compiling TTIR text for the emulator and running it on host arrays.

The arguments of a run are NumPy arrays, PyTorch CPU tensors (and Triton's
TensorWrapper around them, tl.reinterpret's), Triton TensorDescriptors over
them, Python numbers and None.  Every array is registered as one buffer of the
emulator spanning exactly the elements its view can reach, so that a lane
outside it faults; the emulator works in the caller's memory, so outputs are
written in place.
"""
import ctypes
import os
import warnings

from . import _lib
from . import _ttgir
from . import errors

_STATUS_CLASS = {
    _lib.ERR_OOB: errors.OutOfBoundsError,
    _lib.ERR_NULL: errors.InvalidAddressError,
    _lib.ERR_MISALIGNED: errors.MisalignedAccessError,
    _lib.ERR_READONLY: errors.ReadOnlyError,
    _lib.ERR_ASSERT: errors.DeviceAssertionError,
    _lib.ERR_UNSUPPORTED: errors.UnsupportedError,
    _lib.ERR_BUDGET: errors.StepBudgetError,
    _lib.ERR_DEADLOCK: errors.DeadlockError,
}

_threads = None


def set_threads(n):
    """Worker threads of every later run: n >= 1, or 0 for all cores (the default,
    also set by $CTRITON_THREADS)."""
    global _threads
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError("ctriton.set_threads: expected an int >= 0 (0: all cores), got %r" % (n,))
    _threads = n


def get_threads():
    if _threads is not None:
        return _threads
    env = os.environ.get("CTRITON_THREADS", "")
    try:
        return max(0, int(env)) if env else 0
    except ValueError:
        raise ValueError("CTRITON_THREADS=%r: expected a number of threads (0: all cores)" % env) from None


def fast_dot_default():
    return os.environ.get("CTRITON_FAST_DOT", "0") not in ("", "0")


class Kernel:
    """A kernel compiled for the emulator from TTIR text (owns the C kernel)."""

    def __init__(self, ttir, filename=None, ttgir=None, num_warps=4, fast_dot=False, func=None):
        L = _lib.lib()
        self.ttir, self.ttgir = ttir, ttgir
        self.num_warps, self.fast_dot = num_warps, fast_dot
        self._k = None
        data = ttir.encode("utf-8")
        with _lib.DiagList() as d:
            m = L.ct_parse_module(data, len(data), (filename or "<ttir>").encode(), d.ref)
            if not m:
                raise errors.CompilationError("ctriton: the emulator cannot read the kernel's TTIR:\n" + d.text())
            try:
                opts = _lib.Options()
                opts.num_warps = int(num_warps)
                opts.dot = 1 if fast_dot else 0
                layouts = _ttgir.layout_table(ttgir) if ttgir else None
                if layouts:
                    opts.layouts, opts.nlayouts = layouts, len(layouts)
                k = L.ct_emu_compile_ex(m, func.encode() if func else None, ctypes.byref(opts), d.ref)
            finally:
                L.ct_module_destroy(m)
            if not k:
                raise errors.CompilationError("ctriton: the emulator cannot compile the kernel:\n" + d.text())
            for i in range(d.d.n):  # warnings: the TTGIR's layouts could not be used
                x = d.d.items[i]
                if x.severity == 1:
                    warnings.warn(errors.ReductionOrderWarning("ctriton: kernel %s: %s" % (
                        _lib.dstr(L.ct_emu_kernel_name(k)), _lib.dstr(x.message))), stacklevel=5)
        self._k = k
        self.name = _lib.dstr(L.ct_emu_kernel_name(k))
        self.params = []
        for i in range(L.ct_emu_kernel_nparams(k)):
            p = L.ct_emu_kernel_param(k, i).contents
            self.params.append((_lib.dstr(p.name), p.kind, p.bits, p.elem, p.rank))

    def __del__(self):
        if self._k and _lib._lib is not None:
            _lib._lib.ct_emu_kernel_free(self._k)
            self._k = None

    def run(self, grid, values, threads=None, report=False, outputs=()):
        """Runs over grid (1 to 3 ints) with the runtime arguments `values`, a list
        of (name, value, elem) in the TTIR's order (elem: the pointee's dtype name for
        pointers, else None).  Raises an EmulatorError subclass on a fault.  Returns
        the run's statistics: a dict; with report, also each array's NaN/Inf/zero
        counts.  outputs: names of arrays that are outputs only: poisoned before the
        run, so the report counts what was never written."""
        L = _lib.lib()
        g = [int(x) for x in grid] + [1] * (3 - len(grid))
        if any(x <= 0 for x in g):
            return {"programs": 0, "seconds": 0.0, "threads": 0}
        e = L.ct_emu_new()
        if not e:
            raise MemoryError("ctriton: out of memory")
        keep = []
        try:
            args, bufs = self._marshal(L, e, values, keep, outputs)
            launch = _lib.Launch()
            launch.grid[0], launch.grid[1], launch.grid[2] = g
            launch.threads = get_threads() if threads is None else threads
            launch.flags = 0 if outputs else _lib.NO_POISON
            res = _lib.Result()
            arr = (_lib.Arg * max(1, len(args)))(*args)
            L.ct_emu_run(e, self._k, ctypes.byref(launch), len(args), arr, ctypes.byref(res))
            if res.status != _lib.OK:
                raise self._exception(res, bufs)
            out = {"programs": res.programs, "seconds": res.seconds, "threads": res.threads, "parks": res.parks}
            if report:
                out["arrays"] = {}
                for name, b in bufs.items():
                    r = _lib.Report()
                    if L.ct_emu_buffer_report(e, b, ctypes.byref(r)) == 0:
                        out["arrays"][name] = {"elems": r.elems, "nan": r.nan, "inf": r.inf, "zero": r.zero,
                                               "all_zero": bool(r.all_zero)}
                        if name in outputs:
                            out["arrays"][name]["unwritten"] = r.unwritten
            return out
        finally:
            L.ct_emu_free(e)

    # ---- arguments --------------------------------------------------------
    def _marshal(self, L, e, values, keep, outputs=()):
        args, bufs, seen = [], {}, {}
        expanded = []
        for name, v, elem in values:
            if _is_descriptor(v):
                expanded.append((name, v.base, _desc_elem(v), True))
                expanded += [(name + ".shape[%d]" % i, int(s), None, False) for i, s in enumerate(v.shape)]
                expanded += [(name + ".strides[%d]" % i, int(s), None, False) for i, s in enumerate(v.strides)]
            else:
                expanded.append((name, v, elem, False))
        if len(expanded) != len(self.params):
            raise TypeError("ctriton: kernel %s takes %d runtime arguments (%s), got %d" %
                            (self.name, len(self.params), ", ".join(p[0] for p in self.params), len(expanded)))
        for (name, v, elem, _), (pname, kind, bits, pelem, _rank) in zip(expanded, self.params):
            if kind in (_lib.PARAM_PTR, _lib.PARAM_DESC):
                if v is None:
                    args.append(_lib.Arg(_lib.ARG_PTR, -1, 0, 0, 0.0))
                    continue
                host, nbytes, off, dt = array_span(v, name)
                key = (host, nbytes)
                b = seen.get(key)
                if b is None:
                    edt = _lib.DTYPE.get(elem or dt, 0)
                    keep.append(v)
                    # memory the caller cannot write (a read-only NumPy array: np.frombuffer of bytes,
                    # a broadcast view) is registered read-only: a store into it is a ReadOnlyError
                    # naming the line, never a write into immutable memory
                    acc = (_lib.ACC_IN if not _writeable(v) else
                           _lib.ACC_OUT if name in outputs else _lib.ACC_INOUT)
                    b = L.ct_emu_add_buffer(e, name.encode(), host, nbytes, edt, acc)
                    if b < 0:
                        raise ValueError("ctriton: argument %s: %s" % (name, _lib.dstr(L.ct_emu_error(e))))
                    seen[key] = b
                    bufs[name] = b
                args.append(_lib.Arg(_lib.ARG_PTR, b, off, 0, 0.0))
            elif kind == _lib.PARAM_INT:
                if isinstance(v, float) or not _is_int(v):
                    raise TypeError("ctriton: argument %s of kernel %s is an integer parameter, got %s" %
                                    (name, self.name, type(v).__name__))
                iv = int(v)
                if iv >= 2 ** 63:
                    iv -= 2 ** 64
                args.append(_lib.Arg(_lib.ARG_INT, -1, 0, iv, 0.0))
            else:
                if not isinstance(v, (int, float)) and not hasattr(v, "__float__"):
                    raise TypeError("ctriton: argument %s of kernel %s is a float parameter, got %s" %
                                    (name, self.name, type(v).__name__))
                args.append(_lib.Arg(_lib.ARG_FLOAT, -1, 0, 0, float(v)))
        return args, bufs

    def _exception(self, res, bufs):
        f = res.fault
        cls = _STATUS_CLASS.get(res.status, errors.EmulatorError)
        msg = _lib.dstr(f.message) or _lib.dstr(_lib.lib().ct_emu_status_name(res.status))
        file = _lib.dstr(f.file) or None
        arg = _lib.dstr(f.buffer_name) or None
        lane = f.lane if f.lane >= 0 else None
        text = msg  # the C library's one line: file:line, op, kernel, program, lane, buffer, offset
        cf = _lib.dstr(f.called_from)
        if cf and cf not in text:
            text += " (inlined from %s)" % cf
        if res.nfaults > 1:
            text += " [%d programs faulted]" % res.nfaults
        return cls(text, kernel=self.name, file=file, line=f.line or None,
                   called_from=_lib.dstr(f.called_from) or None, pid=(f.pid[0], f.pid[1], f.pid[2]), lane=lane,
                   arg=arg if f.buffer >= 0 else None, offset=f.offset if f.buffer >= 0 else None,
                   op=_lib.dstr(f.op) or None, nfaults=res.nfaults, access_bytes=f.access_bytes)


def _writeable(x):
    """False for a NumPy array (or tl.reinterpret of one) whose memory may not be written."""
    base = x.base if type(x).__name__ == "TensorWrapper" else x
    flags = getattr(base, "flags", None)
    return bool(getattr(flags, "writeable", True)) if flags is not None and hasattr(base, "__array_interface__") else True


def _is_int(v):
    return isinstance(v, int) or (hasattr(v, "__index__") and not hasattr(v, "shape"))


def _is_descriptor(v):
    return type(v).__name__ == "TensorDescriptor" and hasattr(v, "block_shape") and hasattr(v, "base")


def _desc_elem(d):
    return dtype_name(d.base)


# ---- arrays ----------------------------------------------------------------
_TORCH_NAMES = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64", "int8": "i8",
                "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16",
                "uint32": "u32", "uint64": "u64", "bool": "i1", "float8_e4m3fn": "fp8e4nv",
                "float8_e5m2": "fp8e5", "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2fnuz": "fp8e5b16",
                "half": "fp16", "float": "fp32", "double": "fp64"}


def dtype_name(x):
    """The emulator's dtype name of an array's elements ("fp32"), or "bytes"."""
    dt = x.dtype
    if type(x).__name__ == "TensorWrapper":  # tl.reinterpret: the Triton dtype
        s = str(dt)
        return s if s in _lib.DTYPE else "bytes"
    s = str(dt).replace("torch.", "")
    return _TORCH_NAMES.get(s, "bytes")


def is_torch_tensor(x):
    return type(x).__module__.startswith("torch") and hasattr(x, "data_ptr") and hasattr(x, "untyped_storage")


def array_span(x, name):
    """(host address of the span's start, bytes, byte offset of x's first element in
    it, dtype name): the memory the view x can reach."""
    base = x.base if type(x).__name__ == "TensorWrapper" else x
    if hasattr(base, "__array_interface__") and hasattr(base, "ctypes"):  # NumPy
        esize = base.itemsize
        ptr = base.ctypes.data
        shape, strides = base.shape, base.strides  # strides in bytes
    elif is_torch_tensor(base):
        dev = getattr(base, "device", None)
        if dev is not None and dev.type != "cpu":
            raise ValueError("ctriton: argument %s is a tensor on %s: the emulator runs on the CPU; pass CPU "
                             "tensors (%s.cpu()) or NumPy arrays" % (name, dev, name))
        esize = base.element_size()
        ptr = base.data_ptr()
        shape = tuple(base.shape)
        strides = tuple(s * esize for s in base.stride())
    else:
        raise TypeError("ctriton: argument %s: expected a NumPy array or a PyTorch CPU tensor, got %s" %
                        (name, type(x).__name__))
    if any(s == 0 for s in shape):
        return ptr, 0, 0, dtype_name(x)
    lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
    hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides))
    return ptr + lo, hi - lo + esize, -lo, dtype_name(x)
