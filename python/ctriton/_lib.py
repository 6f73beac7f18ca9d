"""The C library through ctypes: libctriton.so and the structs of ctriton/emu.h,
ctriton/diag.h, ctriton/text.h and ctriton/compile.h this package uses.

The library is the one the wheel carries beside this file; $CTRITON_LIBRARY
names another (a build tree's build/libctriton.so).  Every struct below mirrors
its C declaration field by field, in order: ctypes lays them out as the C
compiler does.
"""
import ctypes
import os
import threading

_HERE = os.path.dirname(os.path.abspath(__file__))

c_int, c_int64, c_uint, c_double, c_bool, c_char_p, c_void_p, c_size_t = (
    ctypes.c_int, ctypes.c_int64, ctypes.c_uint, ctypes.c_double, ctypes.c_bool, ctypes.c_char_p,
    ctypes.c_void_p, ctypes.c_size_t)

CT_MAX_RANK = 16  # ctriton/ir.h

# ct_emu_dtype, in the enum's order
DTYPES = ["bytes", "i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "fp16", "bf16", "fp32",
          "fp64", "fp8e4nv", "fp8e5", "fp8e4b8", "fp8e5b16"]
DTYPE = {n: i for i, n in enumerate(DTYPES)}

# ct_emu_param_kind, ct_emu_arg_kind
PARAM_PTR, PARAM_INT, PARAM_FLOAT, PARAM_DESC = range(4)
ARG_PTR, ARG_INT, ARG_FLOAT = range(3)
# ct_emu_access
ACC_IN, ACC_OUT, ACC_INOUT = 1, 2, 3
# ct_emu_launch.flags
NO_POISON, STOP_AT_FIRST = 1, 2
# ct_emu_status
(OK, ERR_ARGS, ERR_OOB, ERR_NULL, ERR_MISALIGNED, ERR_READONLY, ERR_ASSERT, ERR_UNSUPPORTED,
 ERR_NOMEM, ERR_BUDGET, ERR_DEADLOCK) = range(11)
# ct_emu_check.flags
HAS_NAN, ALL_ZERO, UNWRITTEN, HAS_INF = 1, 2, 4, 8
VERDICTS = ["PASS", "CRASH", "SHAPE", "MISMATCH"]


class Diag(ctypes.Structure):
    _fields_ = [("severity", c_int), ("file", c_char_p), ("line", c_int), ("col", c_int),
                ("message", c_char_p), ("op", c_char_p), ("called_from", c_char_p)]


class Diags(ctypes.Structure):
    _fields_ = [("items", ctypes.POINTER(Diag)), ("n", c_int), ("cap", c_int), ("nerrors", c_int),
                ("oom", c_bool)]


class Layout(ctypes.Structure):
    _fields_ = [("is_scan", c_bool), ("blocked", c_bool), ("mma_version", c_int), ("axis", c_int),
                ("rank", c_int), ("shape", c_int64 * CT_MAX_RANK), ("size_per_thread", c_int * CT_MAX_RANK),
                ("threads_per_warp", c_int * CT_MAX_RANK), ("warps_per_cta", c_int * CT_MAX_RANK),
                ("instr_shape", c_int * 3), ("base_rank", c_int), ("base_dim", c_int * CT_MAX_RANK)]


class Options(ctypes.Structure):
    _fields_ = [("num_warps", c_int), ("layouts", ctypes.POINTER(Layout)), ("nlayouts", c_int),
                ("dot", c_int)]


class Param(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("kind", c_int), ("bits", c_int), ("elem", c_int),
                ("divisibility", c_int), ("rank", c_int)]


class Arg(ctypes.Structure):
    _fields_ = [("kind", c_int), ("buffer", c_int), ("offset", c_int64), ("i", c_int64), ("f", c_double)]


class Launch(ctypes.Structure):
    _fields_ = [("grid", c_int * 3), ("threads", c_int), ("flags", c_uint), ("print", c_void_p),
                ("max_steps", c_int64)]


class Fault(ctypes.Structure):
    _fields_ = [("status", c_int), ("pid", c_int * 3), ("lane", c_int64), ("buffer", c_int),
                ("buffer_name", ctypes.c_char * 64), ("offset", c_int64), ("access_bytes", c_int64),
                ("op", ctypes.c_char * 32), ("file", ctypes.c_char * 256), ("line", c_int), ("col", c_int),
                ("called_from", ctypes.c_char * 256), ("message", ctypes.c_char * 1024)]


class Result(ctypes.Structure):
    _fields_ = [("status", c_int), ("fault", Fault), ("nfaults", c_int64), ("programs", c_int64),
                ("threads", c_int), ("seconds", c_double), ("kernel", ctypes.c_char * 128),
                ("parks", ctypes.c_int64)]


class Report(ctypes.Structure):
    _fields_ = [("elems", c_int64), ("unwritten", c_int64), ("nan", c_int64), ("inf", c_int64),
                ("zero", c_int64), ("all_zero", c_bool)]


class Check(ctypes.Structure):
    _fields_ = [("verdict", c_int), ("flags", c_uint), ("n", c_int64), ("nbad", c_int64), ("worst", c_int64),
                ("got", c_double), ("want", c_double), ("max_abs", c_double), ("max_rel", c_double),
                ("max_ulp", c_int64), ("message", ctypes.c_char * 1280)]


class TlOptions(ctypes.Structure):  # ctriton/tl.h
    _fields_ = [("num_warps", c_int), ("num_stages", c_int), ("num_ctas", c_int), ("maxnreg", c_int),
                ("debug", c_bool), ("sanitize_overflow", c_bool), ("enable_fp_fusion", c_bool), ("arch", c_int),
                ("implicit_store_casts", c_bool), ("triton", c_char_p)]


class AotRequest(ctypes.Structure):  # ctriton/compile.h; `def` stays NULL: the kernel is TTIR
    _fields_ = [("def_", c_void_p), ("name", c_char_p), ("signature", c_char_p), ("constexprs", c_char_p),
                ("opts", TlOptions), ("archs", ctypes.POINTER(c_int)), ("narchs", c_int), ("origin", c_char_p),
                ("ttir", c_char_p), ("ttir_file", c_char_p), ("func", c_char_p)]


class LowerOpts(ctypes.Structure):  # ctriton/compile.h
    _fields_ = [("arch", c_int), ("num_warps", c_int), ("num_stages", c_int), ("num_ctas", c_int),
                ("maxnreg", c_int), ("enable_fp_fusion", c_bool), ("debug", c_bool), ("line_info", c_bool),
                ("triton", c_char_p)]


class DescMeta(ctypes.Structure):  # ctriton/cuda.h
    _fields_ = [("swizzle", c_int), ("elem_size", c_int), ("elem_type", c_int), ("rank", c_int),
                ("block", c_int * 5), ("fp4_padded", c_bool)]


class LaunchMeta(ctypes.Structure):  # ctriton/cuda.h
    _fields_ = [("name", ctypes.c_char * 128), ("num_warps", c_int), ("num_ctas", c_int), ("shared", c_int),
                ("global_scratch_size", c_int64), ("global_scratch_align", c_int64),
                ("profile_scratch_size", c_int64), ("profile_scratch_align", c_int64),
                ("launch_cooperative_grid", c_bool), ("launch_pdl", c_bool), ("arch", c_int),
                ("ndescs", c_int), ("descs", DescMeta * 8)]


class Artifact(ctypes.Structure):  # ctriton/compile.h
    _fields_ = [("key", ctypes.c_char * 65), ("dir", c_char_p), ("meta", LaunchMeta),
                ("cubin", ctypes.POINTER(ctypes.c_ubyte)), ("cubin_size", c_size_t), ("json", c_char_p),
                ("hit", c_bool), ("lower_ms", c_double)]


_SIGNATURES = {
    "ct_version": ([], c_char_p),
    "ct_errmsg": ([], c_char_p),
    "ct_diags_init": ([ctypes.POINTER(Diags)], None),
    "ct_diags_free": ([ctypes.POINTER(Diags)], None),
    "ct_parse_module": ([c_char_p, c_size_t, c_char_p, ctypes.POINTER(Diags)], c_void_p),
    "ct_module_destroy": ([c_void_p], None),
    "ct_print_module": ([c_void_p, c_uint], c_void_p),
    "ct_emu_layouts_from_ttgir": ([c_char_p, ctypes.POINTER(Layout), c_int], c_int),
    "ct_emu_compile_ex": ([c_void_p, c_char_p, ctypes.POINTER(Options), ctypes.POINTER(Diags)], c_void_p),
    "ct_emu_kernel_free": ([c_void_p], None),
    "ct_emu_kernel_name": ([c_void_p], c_char_p),
    "ct_emu_kernel_nparams": ([c_void_p], c_int),
    "ct_emu_kernel_param": ([c_void_p, c_int], ctypes.POINTER(Param)),
    "ct_emu_new": ([], c_void_p),
    "ct_emu_free": ([c_void_p], None),
    "ct_emu_add_buffer": ([c_void_p, c_char_p, c_void_p, c_size_t, c_int, c_int], c_int),
    "ct_emu_error": ([c_void_p], c_char_p),
    "ct_emu_run": ([c_void_p, c_void_p, ctypes.POINTER(Launch), c_int, ctypes.POINTER(Arg),
                    ctypes.POINTER(Result)], c_int),
    "ct_emu_buffer_report": ([c_void_p, c_int, ctypes.POINTER(Report)], c_int),
    "ct_emu_poison_byte": ([c_int], ctypes.c_uint8),
    "ct_emu_compare": ([c_int, c_void_p, c_int64, c_void_p, c_int64, c_double, c_double, c_bool,
                        ctypes.POINTER(Check)], c_int),
    "ct_emu_status_name": ([c_int], c_char_p),
    "tl_options_default": ([ctypes.POINTER(TlOptions)], None),
    "ct_lower_opts_default": ([ctypes.POINTER(LowerOpts)], None),
    "ct_compile_ttir": ([c_char_p, ctypes.POINTER(LowerOpts), ctypes.POINTER(Artifact), ctypes.POINTER(Diags)],
                        c_int),
    "ct_artifact_stage": ([ctypes.POINTER(Artifact), c_char_p, ctypes.POINTER(c_size_t)], c_void_p),
    "ct_artifact_free": ([ctypes.POINTER(Artifact)], None),
    "ct_aot_write_ex": ([ctypes.POINTER(AotRequest), c_char_p, ctypes.c_char_p, c_size_t,
                         ctypes.POINTER(Diags)], c_int),
    "ct_status_name": ([c_int], c_char_p),
}

_lib = None
_lock = threading.Lock()


def library_path():
    """The libctriton.so this package loads."""
    env = os.environ.get("CTRITON_LIBRARY")
    return env if env else os.path.join(_HERE, "libctriton.so")


def lib():
    """The loaded library, its functions typed."""
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            path = library_path()
            try:
                l = ctypes.CDLL(path)
            except OSError as e:
                raise ImportError("ctriton: cannot load the C library %s (%s); reinstall the package "
                                  "(pip install .) or set CTRITON_LIBRARY" % (path, e)) from None
            for name, (args, res) in _SIGNATURES.items():
                f = getattr(l, name, None)
                if f is None:
                    continue  # a function of a newer library than this one
                f.argtypes = args
                f.restype = res
            libc = ctypes.CDLL(None)
            libc.free.argtypes = [c_void_p]
            l._free = libc.free
            _lib = l
    return _lib


def take_string(ptr):
    """A malloc'd C string as str, freed."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        lib()._free(ptr)


def dstr(b):
    return b.decode("utf-8", "replace") if b else ""


def diags_text(d):
    """Every diagnostic of a list, one per line, as the C library prints them."""
    out = []
    for i in range(d.n):
        x = d.items[i]
        where = dstr(x.file)
        if where and x.line:
            where += ":%d" % x.line + (":%d" % x.col if x.col else "")
        sev = ("note", "warning", "error")[x.severity] if 0 <= x.severity <= 2 else "error"
        msg = "%s%s: %s" % (where + ": " if where else "", sev, dstr(x.message))
        if x.called_from:
            msg += " (inlined from %s)" % dstr(x.called_from)
        out.append(msg)
    return "\n".join(out)


class DiagList:
    """A ct_diags for one call: `with DiagList() as d: f(..., d.ref)`."""

    def __enter__(self):
        self.d = Diags()
        lib().ct_diags_init(ctypes.byref(self.d))
        self.ref = ctypes.byref(self.d)
        return self

    def text(self):
        return diags_text(self.d)

    def __exit__(self, *exc):
        lib().ct_diags_free(self.ref)
        return False
