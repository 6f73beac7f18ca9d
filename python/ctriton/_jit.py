"""Python kernels on the emulator: Triton's own frontend makes the TTIR.

A launch of a ``@triton.jit`` function is specialized as Triton's JIT does it
(its binder: divisibility by 16, ``== 1`` and ``None`` made constexprs,
``do_not_specialize``), the specialization's TTIR is made by Triton's
``ASTSource.make_ir`` for an sm_90 target (no GPU involved), Triton's ttir passes
and the layout-choosing part of its ttgir passes (_ttgir.py) give the layouts of its
reductions (the order the GPU adds in), and the emulator compiles it, once per
specialization (cached on the function).  Then the grid runs on the caller's arrays.
"""
import os
import sys
import threading

import numpy as np

from . import _emu
from . import _ttgir
from . import errors

_ARCH = 90
_backend = None
_lock = threading.RLock()


def backend():
    """Triton's CUDA backend for sm_90, made without a GPU (for its frontend and passes)."""
    global _backend
    if _backend is None:
        from triton.backends.compiler import GPUTarget
        from triton.compiler import make_backend
        _backend = make_backend(GPUTarget("cuda", _ARCH, 32))
    return _backend


class NumpyArg:
    """A NumPy array as Triton's binder sees tensors: data_ptr() and dtype."""
    __slots__ = ("array",)

    def __init__(self, a):
        self.array = a

    def data_ptr(self):
        return self.array.ctypes.data

    @property
    def dtype(self):
        return self.array.dtype

    def __getattr__(self, name):  # shape, strides, ... for grid callables and hooks
        return getattr(self.array, name)

    def __repr__(self):
        return "NumpyArg(%r)" % (self.array,)


def _unwrap(v):
    return v.array if isinstance(v, NumpyArg) else v


def _convert(name, v):
    """A caller's value as the binder takes it; refuses GPU tensors and what no kernel takes."""
    if isinstance(v, np.ndarray):
        if v.dtype.kind in "cOUSV":
            raise TypeError("ctriton: argument %s: a NumPy array of %s, which no Triton kernel takes" %
                            (name, v.dtype))
        return NumpyArg(v)
    if isinstance(v, np.generic):
        return v.item()
    dev = getattr(v, "device", None)
    if dev is not None and getattr(dev, "type", "cpu") != "cpu" and hasattr(v, "data_ptr"):
        raise ValueError("ctriton: argument %s is a tensor on %s: the emulator runs kernels on the CPU; pass "
                         "CPU tensors (.cpu()) or NumPy arrays" % (name, dev))
    if isinstance(v, (list, tuple)) and not hasattr(v, "_fields"):
        return type(v)(_convert("%s[%d]" % (name, i), x) for i, x in enumerate(v))
    return v


class Compiled:
    """One specialization of a Python kernel, compiled for the emulator.

    asm: {"source": Triton's raw TTIR (what the emulator runs), "ttir": after
    Triton's ttir passes, "ttgir": after the layout-choosing part of its ttgir passes
    (_ttgir.py)}; name; num_warps; kernel: the emulator's; src: Triton's ASTSource."""

    def __init__(self, fn, kernel, asm, options, signature, constexprs, src):
        self.fn, self.kernel, self.asm, self.options, self.src = fn, kernel, asm, options, src
        self.signature, self.constexprs = signature, constexprs
        self.name = kernel.name
        self.metadata = options

    def __repr__(self):
        return "<ctriton kernel %s %s>" % (self.name, self.signature)


def _param_names(fn):
    return [p.name for p in fn.params]


def _bind(fn, args, kwargs):
    names = _param_names(fn)
    args = tuple(_convert(names[i] if i < len(names) else "#%d" % i, a) for i, a in enumerate(args))
    kwargs = {k: _convert(k, v) for k, v in kwargs.items()}
    binder = getattr(fn, "_ctriton_binder", None)
    if binder is None:
        from triton.runtime.jit import create_function_from_signature
        binder = create_function_from_signature(fn.signature, fn.params, backend())
        fn._ctriton_binder = binder
    if len(args) > len(names):
        raise TypeError("ctriton: kernel %s(%s) takes %d arguments, got %d" %
                        (fn.__name__, ", ".join(names), len(names), len(args)))
    try:
        return binder(*args, **kwargs)
    except OverflowError as e:
        # an integer argument beyond 64 bits: Triton's message does not say which
        bad = _find_bad_arg(fn, names, args, kwargs)
        raise OverflowError("ctriton: kernel %s: %s%s" % (fn.__name__, bad, e)) from None
    except KeyError as e:
        # Triton's specialization has no type for an array's dtype (complex64, a NumPy object
        # array, ...): its canonicalize_dtype raises a bare KeyError naming only the dtype
        bad = _find_bad_arg(fn, names, args, kwargs)
        raise TypeError("ctriton: kernel %s: %sTriton has no element type for dtype %s" %
                        (fn.__name__, bad, e)) from None
    except TypeError as e:
        msg = str(e)
        if "dynamic_func()" in msg:
            msg = msg.replace("dynamic_func()", "%s(%s)" % (fn.__name__, ", ".join(names)))
            raise TypeError("ctriton: " + msg) from None
        bad = _find_bad_arg(fn, names, args, kwargs)
        raise TypeError("ctriton: kernel %s: %s%s" % (fn.__name__, bad, msg)) from None


def _find_bad_arg(fn, names, args, kwargs):
    from triton._C.libtriton import native_specialize_impl
    vals = dict(zip(names, args))
    vals.update(kwargs)
    for p in fn.params:
        if p.is_constexpr or p.name not in vals:
            continue
        try:
            native_specialize_impl(backend(), vals[p.name], False, True, True)
        except Exception:
            v = _unwrap(vals[p.name])
            dt = getattr(v, "dtype", None)
            return "argument %s (%s%s): " % (p.name, type(v).__name__, " of %s" % dt if dt is not None else "")
    return ""


def _runtime_values(fn, bound_args, specialization):
    """(name, value, pointee) of each runtime argument, in the TTIR's order."""
    out = []

    def walk(name, ty, val):
        if isinstance(ty, tuple):
            for i, (t, v) in enumerate(zip(ty, val)):
                walk("%s[%d]" % (name, i), t, v)
            return
        if ty == "constexpr":
            return
        elem = None
        if isinstance(ty, str) and ty.startswith("*"):
            elem = ty[1:]
            if elem.startswith("k"):
                elem = elem[1:]
        out.append((name, _unwrap(val), elem))

    for (name, val), spec in zip(bound_args.items(), specialization):
        walk(name, spec[0], val)
    return out


def _as_interpreter_error(e):
    """Makes Triton's CompilationError e (and its subclasses) also a Triton
    InterpreterError, in place: code written for TRITON_INTERPRET=1 catches the
    latter where a GPU run raises the former (Triton's own tests do), and both
    catch it here.  The message, the source excerpt and __cause__ stay."""
    from triton.compiler.errors import CompilationError
    from triton.runtime.errors import InterpreterError
    cls = type(e)
    if not isinstance(e, CompilationError) or isinstance(e, InterpreterError):
        return
    both = _BOTH.get(cls)
    if both is None:
        # named as cls (tracebacks show Triton's name); pickled, it is cls again
        both = type(cls.__name__, (cls, InterpreterError), {"__module__": cls.__module__,
                                                            "__qualname__": cls.__qualname__,
                                                            "__doc__": cls.__doc__})
        _BOTH[cls] = both
    try:
        e.__class__ = both
    except TypeError:
        pass


_BOTH = {}


# ---- the frontend's output kept on disk ---------------------------------------------------
# Triton's frontend and passes cost 5 to 50 ms per specialization, most of a first launch
# on the emulator; as Triton's own JIT keeps compiled kernels in ~/.triton/cache, their
# output (the raw TTIR, and the TTGIR that gives the reductions' layouts) is kept in
# $CTRITON_CACHE_DIR/py (default ~/.cache/ctriton/py), one JSON file per specialization,
# keyed by what Triton's own cache key holds for it (the kernel's and its callees' source
# and the constexpr globals they use: JITFunction.cache_key; the signature, constexprs and
# attributes: ASTSource.hash; the options) plus the Triton build and the kernel's file (the
# TTIR's locations name it).  TRITON_ALWAYS_COMPILE=1 bypasses it, as it does Triton's.
# Format 2: the TTGIR is the short pipeline's (_ttgir.py), not make_ttgir's.
_CACHE_FORMAT = 2


def _cache_dir():
    base = os.environ.get("CTRITON_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = os.path.join(xdg, "ctriton") if xdg else os.path.join(os.path.expanduser("~"), ".cache", "ctriton")
    return os.path.join(base, "py")


_triton_build = None


def _triton_build_id():
    """The installed Triton: its version and its compiled library's size and time (cheap,
    where Triton's own triton_key() hashes every file of the package)."""
    global _triton_build
    if _triton_build is None:
        import triton
        lib = os.path.join(os.path.dirname(triton.__file__), "_C")
        parts = [triton.__version__, os.path.dirname(triton.__file__)]
        try:
            for f in sorted(os.listdir(lib)):
                if f.startswith("libtriton"):
                    st = os.stat(os.path.join(lib, f))
                    parts += [f, str(st.st_size), str(st.st_mtime_ns)]
        except OSError:
            pass
        _triton_build = "|".join(parts)
    return _triton_build


def _cache_key(src, options, filename):
    import hashlib
    opts = options.hash() if hasattr(options, "hash") else repr(sorted(options.__dict__.items()))
    text = "|".join([str(_CACHE_FORMAT), _triton_build_id(), str(_ARCH), src.hash(), opts, filename or ""])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _cache_load(key):
    """The kept {"source", "ttir"?, "ttgir"?} of a key, or None (missing, unreadable or
    damaged files are compiled again)."""
    import json
    try:
        with open(os.path.join(_cache_dir(), key[:2], key + ".json"), encoding="utf-8") as f:
            d = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(d, dict) or d.get("key") != key or not isinstance(d.get("source"), str):
        return None
    if any(k in d and not isinstance(d[k], str) for k in ("ttir", "ttgir")):
        return None
    return d


def _cache_store(key, asm):
    """Writes atomically (a reader sees the whole file or none); a cache that cannot be
    written is only a slower next launch."""
    import json
    import tempfile
    d = os.path.join(_cache_dir(), key[:2])
    try:
        os.makedirs(d, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(dict(asm, key=key), f)
            os.replace(tmp, os.path.join(d, key + ".json"))
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


# Triton's MLIR context, shared by the frontend's kernels (make_ir).  Triton's own compile()
# makes a context per kernel; here that would cost a first launch more than the context
# (0.8 ms to load the dialects): the frontend and the passes run slower in a fresh context
# (types, attributes and patterns made again; CPU time of the 52 first compiles of
# tests/python/layout_kernels.py: 980 ms with a context each, 820-1000 ms sharing one;
# compiling them again: 30% less).  What a context uniques is never freed, so it is
# replaced every _CONTEXT_KERNELS kernels; a forked child makes its own (the parent's may
# hold threads the child does not have).
_CONTEXT_KERNELS = 256
_context = [None, 0, 0]  # the context, the kernels made in it, the process that made it


def _mlir_context():
    from triton._C.libtriton import ir
    with _lock:
        ctx, kernels, pid = _context
        if ctx is None or kernels >= _CONTEXT_KERNELS or pid != os.getpid():
            ctx = ir.context()
            ir.load_dialects(ctx)
            backend().load_dialects(ctx)
            _context[:] = [ctx, 0, os.getpid()]
        _context[1] += 1
        return ctx


def make_ir(src, options):
    """Triton's frontend: the raw TTIR module of the ASTSource src (in the shared context).
    Triton's own CompilationError (a typing error in the kernel) goes to the caller as one
    that is also Triton's InterpreterError (what TRITON_INTERPRET=1 raises for it)."""
    be = backend()
    ctx = _mlir_context()
    try:
        return src.make_ir(be.target, options, be.get_codegen_implementation(options), be.get_module_map(), ctx)
    except Exception as e:
        _as_interpreter_error(e)
        raise


def _frontend(fn, src, options):
    """Triton's frontend and passes: {"source": raw TTIR, "ttir", "ttgir"} (the last two
    only for kernels with reductions or scans, and where the passes accept the kernel)."""
    mod = make_ir(src, options)
    raw = str(mod)
    asm = {"source": raw}
    # the passes only tell the reductions' and scans' layouts: skipped without any; Triton's
    # make_ttir and the part of its make_ttgir that chooses layouts (_ttgir.py)
    if "tt.reduce" in raw or "tt.scan" in raw:
        try:
            asm["ttir"], asm["ttgir"] = _ttgir.layout_ttgir(backend(), mod, options)
        except Exception:
            pass  # the passes refused: the default layouts (docs/python.md)
    return asm


def _compile(fn, bound_args, specialization, kwargs, options_kw, fast_dot):
    from triton import knobs
    from triton.compiler import ASTSource
    be = backend()
    options, signature, constexprs, attrs = fn._pack_args(be, kwargs, bound_args, specialization, options_kw)
    src = ASTSource(fn, signature, constexprs, attrs)
    filename = getattr(fn.fn, "__code__", None)
    filename = filename.co_filename if filename else None
    key = _cache_key(src, options, filename)
    asm = None if knobs.compilation.always_compile else _cache_load(key)
    if asm is None:
        asm = _frontend(fn, src, options)
        _cache_store(key, asm)
    else:
        asm = {k: asm[k] for k in ("source", "ttir", "ttgir") if k in asm}
    k = _emu.Kernel(asm["source"], filename=filename, ttgir=asm.get("ttgir"), num_warps=options.num_warps,
                    fast_dot=fast_dot)
    sig = " ".join("%s=%s" % kv for kv in signature.items())
    return Compiled(fn, k, asm, options, sig, constexprs, src)


def _value_flip(a, b):
    """Two specializations of one argument that only its value tells apart: a multiple of 16
    and not (the same type), or the integer 1 (a constexpr) and another integer."""
    if a == b:
        return False
    if a[0] == b[0] and a[0] != "constexpr":
        return True
    one = ("constexpr", 1)
    other = b if a == one else a if b == one else None
    return other is not None and other[0] in ("i32", "i64", "u64")


def _churn_step(fn, specialization):
    """Specialization churn, as ct_launch counts it: one argument's specialization flips (see
    _value_flip) for the second time while the others stay: warned once per argument."""
    spec = tuple((str(t), s if isinstance(s, (int, str, bool, type(None))) else repr(s))
                 for t, s in specialization)
    st = fn.__dict__.setdefault("_ctriton_churn", {"last": None, "flips": {}, "reported": set()})
    last = st["last"]
    st["last"] = spec
    if last is None or len(last) != len(spec):
        return
    changed = [i for i, (a, b) in enumerate(zip(last, spec)) if a != b]
    if len(changed) != 1 or not _value_flip(last[changed[0]], spec[changed[0]]):
        return
    i = changed[0]
    st["flips"][i] = st["flips"].get(i, 0) + 1
    if st["flips"][i] < 2 or i in st["reported"]:
        return
    st["reported"].add(i)
    names = _param_names(fn)
    name = names[i] if i < len(names) else "#%d" % i
    a, b = last[i], spec[i]
    which = "do_not_specialize_on_alignment" if a[0] == b[0] else "do_not_specialize"
    import warnings
    warnings.warn("ctriton: %s: the specialization of argument %d (`%s`) keeps changing between launches "
                  "(%d times so far: %s, then %s), and each new one is compiled: if its value does not "
                  "matter for speed, pass @triton.jit(%s=[\"%s\"])" %
                  (fn.__name__, i, name, st["flips"][i], a, b, which, name),
                  errors.SpecializationChurnWarning, stacklevel=4)


def normalize_grid(grid, bound_args, name):
    if callable(grid):
        grid = grid(bound_args)
    if isinstance(grid, (int, np.integer)) and not isinstance(grid, bool):
        grid = (grid,)
    if not isinstance(grid, (tuple, list)):
        raise TypeError("ctriton: the grid of kernel %s must be a tuple of 1 to 3 ints or a callable "
                        "returning one, got %s" % (name, type(grid).__name__))
    if not 1 <= len(grid) <= 3:
        raise TypeError("ctriton: the grid of kernel %s has %d dimensions (1 to 3 allowed): %r" %
                        (name, len(grid), tuple(grid)))
    g = []
    for x in grid:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
            raise TypeError("ctriton: the grid of kernel %s must hold ints, got %r" % (name, tuple(grid)))
        if x < 0 or x >= 2 ** 31:
            raise ValueError("ctriton: the grid of kernel %s: %d programs along one axis" % (name, x))
        g.append(int(x))
    return g


def launch(fn, grid, args, kwargs, warmup=False, fast_dot=None, threads=None, report=False, outputs=()):
    """Specializes, compiles (once per specialization) and runs the JITFunction fn.
    Returns the Compiled kernel (and the run's statistics when report)."""
    from triton import knobs
    from triton.runtime.jit import compute_cache_key
    if fast_dot is None:
        fast_dot = _emu.fast_dot_default()
    kwargs = dict(kwargs)
    kwargs["debug"] = kwargs.get("debug", fn.debug) or knobs.runtime.debug
    kwargs["instrumentation_mode"] = knobs.compilation.instrumentation_mode
    for hook in fn.pre_run_hooks:
        hook(*args, **kwargs)
    bound_args, specialization, options = _bind(fn, args, kwargs)
    with _lock:
        _churn_step(fn, specialization)
        cache = fn.__dict__.setdefault("_ctriton_cache", {})
        kkc = fn.__dict__.setdefault("_ctriton_key_cache", {})
        key = compute_cache_key(kkc, specialization, options) + ("/fast" if fast_dot else "")
        kernel = cache.get(key)
        if kernel is None:
            kernel = _compile(fn, bound_args, specialization, kwargs, options, fast_dot)
            cache[key] = kernel
    not_present = object()
    for (name, _), (val, globals_dict) in fn.used_global_vals.items():
        if (new := globals_dict.get(name, not_present)) != val:
            raise RuntimeError("Global variable %s has changed since we compiled this kernel, from %s to %s" %
                               (name, val, new))
    if warmup:
        return kernel
    g = normalize_grid(grid, bound_args, fn.__name__)
    verbose = os.environ.get("CTRITON_REPORT", "0") not in ("", "0")
    stats = kernel.kernel.run(g, _runtime_values(fn, bound_args, specialization), threads=threads,
                              report=report or verbose, outputs=outputs)
    if verbose:
        from . import RunReport
        problems = RunReport(kernel, stats).problems()
        if problems:
            sys.stderr.write("ctriton: %s grid %s: %s\n" % (kernel.name, tuple(g), "; ".join(problems)))
    return (kernel, stats) if report else kernel
