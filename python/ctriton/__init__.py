"""ctriton for Python: @triton.jit kernels on ctriton's CPU emulator.

    CTRITON_INTERPRET=1 python -m pytest tests/      # every kernel launch runs on the emulator

or, from Python::

    import ctriton
    ctriton.run(add_kernel, (4,), x, y, out, n, BLOCK=256)   # NumPy arrays or torch CPU tensors
    ctriton.check(out, x + y)                                 # PASS / SHAPE / MISMATCH, HAS_NAN, ALL_ZERO
    k = ctriton.compile(add_kernel, x, y, out, n, BLOCK=256)  # TTIR, TTGIR, LLVM IR, PTX, cubin
    ctriton.aot(add_kernel, x, y, out, n, BLOCK=256, out_dir="gen")   # a C launcher: gen/add_kernel.{h,c}

A fault raises an exception naming the kernel's Python line, the program id,
the lane, the argument and the offset (ctriton.OutOfBoundsError, ...).
docs/python.md is the reference.
"""
import ctypes
import os
import sys

from . import _lib
from ._emu import set_threads, get_threads
from .check import check, CheckResult
from .errors import (EmulatorError, OutOfBoundsError, InvalidAddressError, MisalignedAccessError, ReadOnlyError,
                     DeviceAssertionError, UnsupportedError, StepBudgetError, DeadlockError, CompilationError,
                     SpecializationChurnWarning, ReductionOrderWarning)


__all__ = ["SpecializationChurnWarning", "ReductionOrderWarning", "run", "compile", "aot", "check", "CheckResult", "RunReport", "install", "set_threads", "get_threads",
           "library_version", "triton_version", "EmulatorError", "OutOfBoundsError", "InvalidAddressError",
           "MisalignedAccessError", "ReadOnlyError", "DeviceAssertionError", "UnsupportedError",
           "StepBudgetError", "DeadlockError", "CompilationError"]


def __getattr__(name):
    if name == "__version__":  # the loaded library's: one version, include/ctriton/ctriton_version.h
        return library_version()
    raise AttributeError("module 'ctriton' has no attribute %r" % name)


def library_version():
    """The version of the C library loaded (ct_version())."""
    return _lib.dstr(_lib.lib().ct_version())


def triton_version():
    """The Triton release the package follows: the installed triton's."""
    import triton
    return triton.__version__.split("+")[0]


def install():
    """What CTRITON_INTERPRET=1 does at start-up, now: every @triton.jit launch in
    this process runs on the emulator (see ctriton._hook)."""
    from . import _hook
    _hook.install()


class RunReport:
    """What a run did: kernel (the compiled specialization), programs, seconds,
    threads; arrays: per pointer argument, its element count and NaN, Inf and
    zero counts, all_zero, and (for the arguments named in `outputs`) unwritten:
    elements the kernel never stored.  problems() lists what looks wrong."""

    def __init__(self, kernel, stats):
        self.kernel = kernel
        self.programs = stats.get("programs", 0)
        self.seconds = stats.get("seconds", 0.0)
        self.threads = stats.get("threads", 0)
        self.arrays = stats.get("arrays", {})

    def problems(self):
        out = []
        for name, r in self.arrays.items():
            if r.get("unwritten"):
                out.append("%s: %d of %d elements never written" % (name, r["unwritten"], r["elems"]))
            if r.get("nan"):
                out.append("%s: %d NaN" % (name, r["nan"]))
            if r.get("inf"):
                out.append("%s: %d Inf" % (name, r["inf"]))
            if r.get("all_zero") and r.get("elems"):
                out.append("%s: all %d elements are zero" % (name, r["elems"]))
        return out

    def __repr__(self):
        return "<RunReport %s: %d programs, %.3f ms%s>" % (
            self.kernel.name, self.programs, self.seconds * 1e3,
            "; " + "; ".join(self.problems()) if self.problems() else "")


def _resolve(kernel, args, meta):
    """The JITFunction under @triton.autotune / @triton.heuristics, with the meta-parameters they choose."""
    from triton.runtime.autotuner import Autotuner, Heuristics
    from triton.runtime.jit import JITFunction
    while True:
        if isinstance(kernel, Heuristics):
            for v, heur in kernel.values.items():
                meta[v] = heur({**dict(zip(kernel.arg_names, args)), **meta})
            kernel = kernel.fn
        elif isinstance(kernel, Autotuner):
            kernel.nargs = dict(zip(kernel.arg_names, args))
            try:
                configs = kernel.prune_configs(meta) if len(kernel.configs) > 1 else kernel.configs
            finally:
                nargs, kernel.nargs = kernel.nargs, None
            config = configs[0]
            kernel.best_config = config
            if config.pre_hook is not None:
                config.pre_hook({**nargs, **meta, **config.all_kwargs()})
            meta.update(config.all_kwargs())
            kernel = kernel.fn
        elif isinstance(kernel, JITFunction):
            return kernel, meta
        else:
            raise TypeError("ctriton: expected a @triton.jit function (or an autotuned or heuristics one), got %s%s" %
                            (type(kernel).__name__, " (TRITON_INTERPRET=1 is set: unset it for ctriton)"
                             if type(kernel).__name__ == "InterpretedFunction" else ""))


def run(kernel, grid, *args, fast_dot=None, threads=None, outputs=(), report=False, **meta):
    """Runs kernel[grid](*args, **meta) on the emulator, without patching Triton.

    grid: a tuple of 1 to 3 ints, or a callable of the meta-parameters returning
    one.  fast_dot: the fast dot instead of the GPU's tensor-core accumulation
    (default $CTRITON_FAST_DOT).  threads: worker threads (default: all cores,
    set_threads).  outputs: parameter names whose arrays are outputs only: they
    are poisoned before the run, so the report counts the elements never written
    (their previous contents are lost).  report: return a RunReport instead of
    the compiled kernel.  Faults raise EmulatorError subclasses."""
    from . import _jit
    fn, meta = _resolve(kernel, args, dict(meta))
    outs = set(outputs or ())
    if outs:
        unknown = outs - set(p.name for p in fn.params)
        if unknown:
            raise ValueError("ctriton.run: outputs %s are not parameters of %s" % (sorted(unknown), fn.__name__))
    r = _jit.launch(fn, grid, args, meta, fast_dot=fast_dot, threads=threads, report=report or bool(outs),
                    outputs=outs)
    if report or outs:
        return RunReport(*r)
    return r


def _specialize(kernel, args, meta):
    from . import _jit
    fn, meta = _resolve(kernel, args, dict(meta))
    return fn, _jit.launch(fn, None, args, meta, warmup=True)


def _lowering_env():
    here = os.path.dirname(os.path.abspath(__file__))
    os.environ.setdefault("CTRITON_PYTHON", sys.executable)
    script = os.path.join(here, "lower.py")
    if os.path.exists(script):
        os.environ.setdefault("CTRITON_LOWER_SCRIPT", script)
    os.environ.setdefault("CTRITON_TRITON_VERSION", triton_version())


class Lowered:
    """A Python kernel lowered by the C library (ct_compile_ttir, through Triton's
    compiler and ctriton's cache): asm {"source", "ttir", "ttgir", "llir", "ptx",
    "cubin" (bytes)}, name, num_warps, shared (bytes), arch, key (the cache entry)."""

    def __init__(self, asm, meta, key, hit):
        self.asm, self.key, self.hit = asm, key, hit
        self.name = _lib.dstr(meta.name)
        self.num_warps, self.shared, self.arch = meta.num_warps, meta.shared, meta.arch

    def __repr__(self):
        return "<ctriton.Lowered %s sm_%d, %d warps, %d bytes of cubin>" % (
            self.name, self.arch, self.num_warps, len(self.asm.get("cubin", b"")))


def compile(kernel, *args, arch=90, **meta):
    """Specializes kernel for these arguments (arrays give dtypes and alignment,
    as at a launch; nothing runs), then lowers its TTIR through the C library to
    TTGIR, LLVM IR, PTX and a cubin for sm_<arch> (Triton's compiler; no GPU
    needed).  num_warps, num_stages and the constexprs go in meta."""
    fn, k = _specialize(kernel, args, meta)
    _lowering_env()
    L = _lib.lib()
    o = _lib.LowerOpts()
    L.ct_lower_opts_default(ctypes.byref(o))
    o.arch = int(arch)
    o.num_warps = k.options.num_warps
    o.num_stages = k.options.num_stages
    o.num_ctas = k.options.num_ctas
    o.debug = bool(k.options.debug)
    o.enable_fp_fusion = bool(k.options.enable_fp_fusion)
    a = _lib.Artifact()
    with _lib.DiagList() as d:
        st = L.ct_compile_ttir(k.asm["source"].encode(), ctypes.byref(o), ctypes.byref(a), d.ref)
        if st != 0:
            raise CompilationError("ctriton.compile: lowering %s failed (%s):\n%s" % (
                k.name, _lib.dstr(L.ct_status_name(st)), d.text() or _lib.dstr(L.ct_errmsg())))
    try:
        asm = {"source": k.asm["source"]}
        for stage in ("ttir", "ttgir", "llir", "ptx"):
            n = ctypes.c_size_t()
            p = L.ct_artifact_stage(ctypes.byref(a), stage.encode(), ctypes.byref(n))
            if p:
                asm[stage] = _lib.take_string(p)
        asm["cubin"] = ctypes.string_at(a.cubin, a.cubin_size) if a.cubin else b""
        return Lowered(asm, a.meta, _lib.dstr(a.key), bool(a.hit))
    finally:
        L.ct_artifact_free(ctypes.byref(a))


def aot(kernel, *args, name=None, out_dir=".", archs=(90,), **meta):
    """Writes a C launcher for this specialization of a Python kernel:
    OUT_DIR/NAME.h and OUT_DIR/NAME.c, the cubins for `archs` embedded (the
    launcher ctriton's `aot --ttir` writes; docs/launch.md).  Returns the two paths."""
    fn, k = _specialize(kernel, args, meta)
    _lowering_env()
    L = _lib.lib()
    os.makedirs(out_dir, exist_ok=True)
    r = _lib.AotRequest()
    L.tl_options_default(ctypes.byref(r.opts))
    r.opts.num_warps = k.options.num_warps
    r.opts.num_stages = k.options.num_stages
    r.opts.num_ctas = k.options.num_ctas
    r.opts.debug = bool(k.options.debug)
    keep = [k.asm["source"].encode()]
    r.ttir = keep[0]
    filename = getattr(getattr(fn.fn, "__code__", None), "co_filename", None)
    if filename:
        keep.append(filename.encode())
        r.ttir_file = keep[-1]
    if name:
        keep.append(name.encode())
        r.name = keep[-1]
    keep.append(("ctriton.aot of %s (Python), %s" % (fn.__name__, k.signature)).encode())
    r.origin = keep[-1]
    arr = (ctypes.c_int * len(archs))(*[int(a) for a in archs])
    r.archs, r.narchs = arr, len(archs)
    prefix = ctypes.create_string_buffer(256)
    with _lib.DiagList() as d:
        st = L.ct_aot_write_ex(ctypes.byref(r), out_dir.encode(), prefix, 256, d.ref)
        if st != 0:
            raise CompilationError("ctriton.aot: %s failed (%s):\n%s" % (
                k.name, _lib.dstr(L.ct_status_name(st)), d.text() or _lib.dstr(L.ct_errmsg())))
    p = prefix.value.decode()
    return os.path.join(out_dir, p + ".h"), os.path.join(out_dir, p + ".c")
