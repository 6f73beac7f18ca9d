#!/usr/bin/env python3
"""ctriton port: a Python @triton.jit kernel becomes its C port, line for line.

    port.py FILE.py[:KERNEL,...] [-o OUT.c] [--signature SIG --constexprs CX]
    port.py --check FILE.py:KERNEL --signature SIG [--constexprs CX] [--ctriton PATH]
    port.py --tree --ctriton build/ctriton --out build/port      (make port-check)

The C is written in the style of the hand ports (docs/porting.md): the same
names, the same statements in the same order, one C line per Python line
(a statement that spans several Python lines spans as many C lines, broken
at the same arguments), Python's comments carried over, the runtime loops'
carried variables in Python's first-assignment order.  Everything is read
with Python's own `ast` module; nothing is imported from the kernel file, so
porting needs no Triton (the check does).  A construct the kernel language
cannot express is an error naming the Python file, line and construct; no C
is written then.

--check translates, builds the C as a kernel plugin (the C compiler, ctriton's
headers and library), and runs the fidelity harness (scripts/fidelity.py) on
it: the C port's TTIR and Python's, both lowered by the Triton of the Python
running this script, compared at every stage.  The verdict row is printed.

--tree ports every Python original of ctriton's tree (the kernels that
`ctriton list --json --all` lists, with their configs) into --out, builds them
as one plugin, and checks that each port emits the very TTIR of its hand port
(kernels/*.c, tests/conformance/conformance.c) for every config and every
supported Triton release: the hand ports are checked against Python at every
stage by `make fidelity`, so an identical TTIR is identical at every stage.

Exit status: 0 done (all ✓), 1 a construct not translated or a check failed,
2 bad usage.
"""
import argparse
import ast
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import tokenize

HERE = os.path.dirname(os.path.abspath(__file__))


class PortError(Exception):
    """A construct that cannot be translated: FILE:LINE: message."""

    def __init__(self, node, msg):
        super().__init__(msg)
        self.line = getattr(node, "lineno", 0) if node is not None else 0
        self.msg = msg


C_KEYWORDS = set("""auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof static struct switch
typedef union unsigned void volatile while _Bool _Complex _Imaginary bool true false NULL
""".split())

DTYPES = {
    "int1": "tl_int1", "int8": "tl_int8", "int16": "tl_int16", "int32": "tl_int32",
    "int64": "tl_int64", "uint8": "tl_uint8", "uint16": "tl_uint16", "uint32": "tl_uint32",
    "uint64": "tl_uint64", "float16": "tl_float16", "bfloat16": "tl_bfloat16",
    "float32": "tl_float32", "float64": "tl_float64", "float8e4nv": "tl_float8e4nv",
    "float8e5": "tl_float8e5", "float8e4b8": "tl_float8e4b8", "float8e4b15": "tl_float8e4b15",
    "float8e5b16": "tl_float8e5b16", "void": "tl_void",
}
DTYPE_ALIASES = {"bool": "int1", "half": "float16", "float": "float32", "double": "float64"}
# config-text dtype names (ctriton's signature/constexpr spellings)
CONFIG_DTYPES = {"fp16", "bf16", "fp32", "fp64", "fp8e4nv", "fp8e5", "fp8e4b8", "fp8e4b15",
                 "fp8e5b16", "i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                 "int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "bfloat16", "float32", "float64", "bool"}

# ---- the builtins -------------------------------------------------------------
# Each builtin: its C name and its Python parameters in order, each
# (python_name, role) where role is
#   "t"        a positional value (tensor or number; C lifts numbers itself)
#   "i"/"b"/"s"/"d"  a positional C int / bool / string / dtype
#   "shape"    a positional shape: tl_shape(...);  "ints": tl_ints(...);
#   "tuple"    tl_tuple(...);  "axis": a C int or TL_AXIS_NONE;  "fn": a @jit helper
#   ".F:k"     an option, field F, of kind k (T tensor, i, b, s, d, ints, axis, nan)
# A parameter marked with a leading "?" may be left out in C (its default).
B = {}


def builtin(py, c, *params, **kw):
    B[py] = dict(c=c, params=list(params), **kw)


for n in ("program_id", "num_programs"):
    builtin(n, "tl_" + n, ("axis", "i"))
builtin("arange", "tl_arange", ("start", "i"), ("end", "i"))
builtin("full", "tl_full", ("shape", "shape"), ("value", "t"), ("dtype", "d"))
builtin("zeros", "tl_zeros", ("shape", "shape"), ("dtype", "d"))
builtin("zeros_like", "tl_zeros_like", ("input", "t"))
builtin("cat", "tl_cat", ("input", "t"), ("other", "t"), ("can_reorder", ".can_reorder:b"),
        ("dim", ".dim:i"))
for n in ("cast", "to"):
    builtin(n, "tl_to" if n == "to" else "tl_cast", ("input", "t"), ("dtype", "d"),
            ("fp_downcast_rounding", ".fp_downcast_rounding:s"), ("bitcast", ".bitcast:b"))
builtin("where", "tl_where", ("condition", "t"), ("x", "t"), ("y", "t"))
for n in ("minimum", "maximum"):
    builtin(n, "tl_" + n, ("x", "t"), ("y", "t"), ("propagate_nan", ".propagate_nan:nan"))
builtin("clamp", "tl_clamp", ("x", "t"), ("min", "t"), ("max", "t"),
        ("propagate_nan", ".propagate_nan:nan"))
for n in ("add", "sub", "mul"):
    builtin(n, "tl_" + n, ("x", "t"), ("y", "t"), ("sanitize_overflow", "sanitize"))
builtin("umulhi", "tl_umulhi", ("x", "t"), ("y", "t"))
builtin("fma", "tl_fma", ("x", "t"), ("y", "t"), ("z", "t"))
builtin("fdiv", "tl_fdiv", ("x", "t"), ("y", "t"), ("ieee_rounding", "ignore"))
builtin("div_rn", "tl_div_rn", ("x", "t"), ("y", "t"))
builtin("sigmoid", "tl_sigmoid", ("x", "t"))
builtin("cdiv", "tl_cdiv", ("x", "t"), ("div", "t"))
builtin("softmax", "tl_softmax", ("x", "t"), ("dim", ".dim:axis"), ("keep_dims", ".keep_dims:b"),
        ("ieee_rounding", ".ieee_rounding:b"))
builtin("swizzle2d", "tl_swizzle2d", ("i", "t"), ("j", "t"), ("size_i", "t"), ("size_j", "t"),
        ("size_g", "t"), tuple_result=True)
for n in ("exp", "exp2", "log", "log2", "sin", "cos", "erf", "sqrt", "sqrt_rn", "rsqrt", "floor",
          "ceil", "abs"):
    builtin(n, "tl_" + n, ("x", "t"))
for n in ("sum", "xor_sum"):
    builtin(n, "tl_" + n, ("input", "t"), ("axis", ".axis:axis"), ("keep_dims", ".keep_dims:b"),
            ("dtype", ".dtype:d"))
for n in ("max", "min"):
    builtin(n, "tl_" + n, ("input", "t"), ("axis", ".axis:axis"), ("return_indices", "indices"),
            ("return_indices_tie_break_left", ".tie_break_left:b"), ("keep_dims", ".keep_dims:b"))
for n in ("argmax", "argmin"):
    builtin(n, "tl_" + n, ("input", "t"), ("axis", "axis"), ("tie_break_left", ".tie_break_left:b"),
            ("keep_dims", ".keep_dims:b"))
builtin("reduce_or", "tl_reduce_or", ("input", "t"), ("axis", "axis"), ("keep_dims", ".keep_dims:b"))
for n in ("cumsum", "cumprod"):
    builtin(n, "tl_" + n, ("input", "t"), ("axis", ".axis:i"), ("reverse", ".reverse:b"),
            ("dtype", ".dtype:d"))
builtin("reduce", "tl_reduce", ("input", "tt"), ("axis", "axis"), ("combine_fn", "fn"),
        ("keep_dims", ".keep_dims:b"))
builtin("associative_scan", "tl_associative_scan", ("input", "tt"), ("axis", "axis"),
        ("combine_fn", "fn"), ("reverse", ".reverse:b"))
builtin("gather", "tl_gather", ("src", "t"), ("index", "t"), ("axis", "i"))
builtin("histogram", "tl_histogram", ("input", "t"), ("num_bins", "i"), ("?mask", "t"))
builtin("sort", "tl_sort", ("x", "t"), ("dim", ".dim:axis"), ("descending", ".descending:b"))
builtin("topk", "tl_topk", ("x", "t"), ("k", "i"), ("dim", ".dim:axis"), ("descending", ".descending:b"))
builtin("bitonic_merge", "tl_bitonic_merge", ("x", "t"), ("dim", ".dim:axis"),
        ("descending", ".descending:b"))
builtin("flip", "tl_flip", ("x", "t"), ("dim", "i"))
for n in ("rand", "randn", "randint"):
    builtin(n, "tl_" + n, ("seed", "t"), ("offset", "t"), ("n_rounds", ".n_rounds:i"))
for n, k in (("randint4x", 4), ("rand4x", 4), ("randn4x", 4)):
    builtin(n, "tl_" + n, ("seed", "t"), ("offset", "t"), ("n_rounds", ".n_rounds:i"), out_array=k)
builtin("philox", "tl_philox", ("seed", "t"), ("c0", "t"), ("c1", "t"), ("c2", "t"), ("c3", "t"),
        ("n_rounds", ".n_rounds:i"), out_array=4)
builtin("pair_uniform_to_normal", "tl_pair_uniform_to_normal", ("u1", "t"), ("u2", "t"), out_array=2)
builtin("uint_to_uniform_float", "tl_uint_to_uniform_float", ("x", "t"))
for n in ("multiple_of", "max_contiguous", "max_constancy"):
    builtin(n, "tl_" + n, ("input", "t"), ("values", "trailing_ints"))
builtin("assume", "tl_assume", ("cond", "t"))
builtin("debug_barrier", "tl_debug_barrier")
builtin("broadcast_to", "tl_broadcast_to", ("input", "t"), ("shape", "varshape"))
builtin("expand_dims", "tl_expand_dims", ("input", "t"), ("axis", "expand_axis"))
builtin("reshape", "tl_reshape", ("input", "t"), ("shape", "varshape"),
        ("can_reorder", ".can_reorder:b"))
builtin("view", "tl_view", ("input", "t"), ("shape", "varshape"))
builtin("ravel", "tl_ravel", ("x", "t"), ("can_reorder", ".can_reorder:b"))
builtin("permute", "tl_permute", ("input", "t"), ("dims", "varints"))
builtin("trans", "tl_trans", ("input", "t"), ("dims", "vartrailing"))
builtin("join", "tl_join", ("a", "t"), ("b", "t"))
builtin("interleave", "tl_interleave", ("a", "t"), ("b", "t"))
builtin("split", "tl_split", ("a", "t"), out_ptrs=2)
builtin("broadcast", "tl_broadcast", ("input", "t"), ("other", "t"), out_ptrs=2)
builtin("dot", "tl_dot", ("input", "t"), ("other", "t"), ("acc", ".acc:T"),
        ("input_precision", ".input_precision:s"), ("allow_tf32", ".allow_tf32:i"),
        ("max_num_imprecise_acc", ".max_num_imprecise_acc:i"), ("out_dtype", ".out_dtype:d"))
builtin("load", "tl_load", ("pointer", "t"), ("mask", ".mask:T"), ("other", ".other:T"),
        ("boundary_check", ".boundary_check:ints"), ("padding_option", ".padding_option:s"),
        ("cache_modifier", ".cache_modifier:s"), ("eviction_policy", ".eviction_policy:s"),
        ("volatile", ".is_volatile:b"))
builtin("store", "tl_store", ("pointer", "t"), ("value", "t"), ("mask", ".mask:T"),
        ("boundary_check", ".boundary_check:ints"), ("cache_modifier", ".cache_modifier:s"),
        ("eviction_policy", ".eviction_policy:s"))
for n in ("add", "max", "min", "and", "or", "xor", "xchg"):
    builtin("atomic_" + n, "tl_atomic_" + n, ("pointer", "t"), ("val", "t"), ("mask", ".mask:T"),
            ("sem", ".sem:s"), ("scope", ".scope:s"))
builtin("atomic_cas", "tl_atomic_cas", ("pointer", "t"), ("cmp", "t"), ("val", "t"), ("sem", ".sem:s"),
        ("scope", ".scope:s"))
builtin("make_block_ptr", "tl_make_block_ptr", ("base", "t"), ("shape", "tuple"), ("strides", "tuple"),
        ("offsets", "tuple"), ("block_shape", "shape"), ("order", "ints"))
builtin("advance", "tl_advance", ("base", "t"), ("offsets", "tuple"))
builtin("make_tensor_descriptor", "tl_make_tensor_descriptor", ("base", "t"), ("shape", "tuple"),
        ("strides", "tuple"), ("block_shape", "shape"), ("padding_option", ".padding_option:s"))
builtin("load_tensor_descriptor", "tl_desc_load", ("desc", "t"), ("offsets", "tuple"))
builtin("store_tensor_descriptor", "tl_desc_store", ("desc", "t"), ("offsets", "tuple"), ("value", "t"))
builtin("inline_asm_elementwise", "tl_inline_asm_elementwise", ("asm", "s"), ("constraints", "s"),
        ("args", "tuple"), ("dtype", "dtypes"), ("is_pure", "b"), ("pack", "i"))
builtin("static_assert", "tl_static_assert", ("cond", "cbool"), ("?msg", "s"))
builtin("device_assert", "tl_device_assert", ("cond", "t"), ("?msg", "s"), ("mask", ".mask:T"))
builtin("map_elementwise", "tl_map_elementwise")  # special-cased
builtin("device_print", "tl_device_print")  # special-cased

# tensor methods: x.NAME(...) is the builtin with x first
METHODS = {"to", "cast", "sum", "max", "min", "argmax", "argmin", "xor_sum", "reduce_or", "cumsum",
           "cumprod", "reshape", "broadcast_to", "expand_dims", "permute", "trans", "view", "ravel",
           "split", "exp", "exp2", "log", "log2", "sin", "cos", "sqrt", "rsqrt", "abs", "floor", "ceil",
           "erf", "sigmoid", "softmax", "sort", "flip", "reduce", "associative_scan", "histogram",
           "cdiv", "join", "advance", "store", "load", "atomic_add", "atomic_max", "atomic_min",
           "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg", "atomic_cas", "item", "logical_and",
           "logical_or"}
DESC_METHODS = {"load": "tl_desc_load", "store": "tl_desc_store", "atomic_add": "tl_desc_atomic_add",
                "atomic_min": "tl_desc_atomic_min", "atomic_max": "tl_desc_atomic_max",
                "atomic_and": "tl_desc_atomic_and", "atomic_or": "tl_desc_atomic_or",
                "atomic_xor": "tl_desc_atomic_xor"}

BINOPS = {ast.Add: "tl_add", ast.Sub: "tl_sub", ast.Mult: "tl_mul", ast.Div: "tl_div",
          ast.FloorDiv: "tl_floordiv", ast.Mod: "tl_mod", ast.BitAnd: "tl_and", ast.BitOr: "tl_or",
          ast.BitXor: "tl_xor", ast.LShift: "tl_shl", ast.RShift: "tl_shr"}
C_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "/", ast.Mod: "%",
            ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
CMPOPS = {ast.Lt: "tl_lt", ast.LtE: "tl_le", ast.Gt: "tl_gt", ast.GtE: "tl_ge", ast.Eq: "tl_eq",
          ast.NotEq: "tl_ne"}
C_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
# C precedence of the operators the constexpr arithmetic prints (higher binds tighter)
C_PREC = {"*": 13, "/": 13, "%": 13, "+": 12, "-": 12, "<<": 11, ">>": 11, "<": 10, "<=": 10,
          ">": 10, ">=": 10, "==": 9, "!=": 9, "&": 8, "^": 7, "|": 6, "&&": 5, "||": 4, "?:": 3}

# a marker in C text: the rest goes on Python line N (continuation lines)
NL = "\x00"


def nl(line):
    return "%s%d%s" % (NL, line, NL)


def strip_nl(s):
    return re.sub(NL + r"\d+" + NL, "", s)


# ---- values: what a Python expression is, statically -----------------------------
class V:
    """A translated expression: C text and its kind.

    kind: "tensor" (a tl_tensor: a tensor, or a number/None a tl_tensor holds),
    "int", "float", "bool", "str", "none", "dtype" (C values: constexprs),
    "tuple" (elems: a list of V), "dtypes", "shape" (a C tl_shape), "fn" (a helper's
    name), "module" (tl, libdevice), "builtin" (a tl function: name), "param" (a
    helper's parameter: a tl_tensor that may hold a constexpr, cx: its kind or None),
    "nan" (tl.PropagateNan), "attr" (a dtype's element_ty etc.).
    prec: C precedence of the text when it is an operator expression."""

    def __init__(self, c, kind, prec=99, elems=None, name=None, cx=None, node=None, ops=True):
        self.c, self.kind, self.prec, self.elems, self.name, self.cx = c, kind, prec, elems, name, cx
        self.node = node
        self.ops = ops  # whether evaluating it may build IR
        self.pos_index, self.kw_index = 0, -1  # where a call argument stands in Python

    @property
    def is_cx(self):
        return self.kind in ("int", "float", "bool", "str", "none", "dtype")


def paren(v, prec):
    return v.c if v.prec > prec else "(" + v.c + ")"


class Func:
    def __init__(self, node, is_kernel):
        self.node = node
        self.name = node.name
        self.is_kernel = is_kernel
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise PortError(node, "`%s`: *args, **kwargs and keyword-only parameters have no C "
                                  "counterpart (TL_KERNEL/TL_JIT take plain parameters)" % node.name)
        self.params = [p.arg for p in a.args]
        defaults = [None] * (len(a.args) - len(a.defaults)) + list(a.defaults)
        self.defaults = dict(zip(self.params, defaults))
        self.constexpr = [p.arg for p in a.args if is_constexpr_annotation(p.annotation)]
        self.param_lines = {p.arg: p.lineno for p in a.args}
        self.returns_tuple = False
        self.cx_kinds = {}  # constexpr parameter -> C kind
        self.call_kinds = {}  # helper parameter -> set of kinds passed at call sites


def is_constexpr_annotation(a):
    if a is None:
        return False
    if isinstance(a, ast.Attribute) and a.attr == "constexpr":
        return True
    if isinstance(a, ast.Name) and a.id == "constexpr":
        return True
    if isinstance(a, ast.Constant) and isinstance(a.value, str) and "constexpr" in a.value:
        return True
    return False


def is_jit_decorator(d):
    if isinstance(d, ast.Call):
        d = d.func
    if isinstance(d, ast.Attribute) and d.attr == "jit":
        return True
    if isinstance(d, ast.Name) and d.id == "jit":
        return True
    return False


# ---- the translator ----------------------------------------------------------------
class Porter:
    def __init__(self, path, source, configs=None, display=None):
        self.path = path
        self.display = display or path
        self.src = source
        self.lines = source.splitlines()
        self.configs = configs or {}  # kernel -> list of config dicts
        self.tree = ast.parse(source, filename=path)
        self.comments = {}  # line -> (col, text)
        self.includes = set()
        self.warnings = []
        try:
            for tok in tokenize.generate_tokens(io.StringIO(source).readline):
                if tok.type == tokenize.COMMENT:
                    self.comments[tok.start[0]] = (tok.start[1], tok.string[1:].strip())
        except tokenize.TokenError:
            pass
        self.tl_names = set()  # names bound to triton.language
        self.libdevice_names = set()
        self.triton_names = set()
        self.math_names = set()
        self.aliases = {}  # module name -> ("builtin", name) | ("libdevice", name) | ("dtype", c)
        self.globals = {}  # module constexpr -> V
        self.plain_globals = set()  # module names Triton refuses to read
        self.global_lines = {}
        self.funcs = {}
        self.order = []
        self.out = {}  # line -> C text

    # -- errors
    def err(self, node, msg):
        raise PortError(node, msg)

    # -- module level
    def scan_module(self):
        for st in self.tree.body:
            if isinstance(st, ast.Import):
                for a in st.names:
                    if a.name == "triton.language":
                        self.tl_names.add(a.asname or "triton")
                    elif a.name == "triton":
                        self.triton_names.add(a.asname or "triton")
                    elif a.name == "math":
                        self.math_names.add(a.asname or "math")
            elif isinstance(st, ast.ImportFrom):
                mod = st.module or ""
                for a in st.names:
                    full = mod + "." + a.name
                    nm = a.asname or a.name
                    if full in ("triton.language", "triton.language.core"):
                        self.tl_names.add(nm)
                    elif a.name == "libdevice" or full.endswith(".libdevice"):
                        self.libdevice_names.add(nm)
                    elif mod in ("triton.language", "triton.language.math", "triton.language.core",
                                 "triton.language.standard", "triton.language.random"):
                        if a.name in DTYPES or a.name in DTYPE_ALIASES:
                            self.aliases[nm] = ("dtype", DTYPES[DTYPE_ALIASES.get(a.name, a.name)])
                        elif a.name == "constexpr":
                            pass
                        else:
                            self.aliases[nm] = ("builtin", a.name)
                    elif mod == "triton" and a.name == "jit":
                        pass
                    elif mod.startswith("triton.language.extra") or mod.startswith("triton.language.math"):
                        self.libdevice_names.add(nm)
        self.py_defs = {st.name for st in self.tree.body if isinstance(st, (ast.FunctionDef, ast.ClassDef))
                        and not any(is_jit_decorator(d) for d in getattr(st, "decorator_list", []))}
        for st in self.tree.body:
            if isinstance(st, ast.FunctionDef) and any(is_jit_decorator(d) for d in st.decorator_list):
                self.funcs[st.name] = Func(st, True)
                self.order.append(st.name)
        for st in self.tree.body:
            tgt = val = None
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                tgt, val = st.targets[0].id, st.value
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
                tgt, val = st.target.id, st.value
            if tgt is None:
                continue
            # exp = tl.exp: an alias of a builtin; BLOCK = tl.constexpr(64): a global constexpr
            r = self.module_value(val)
            if r is not None and r[0] == "plain":
                self.plain_globals.add(tgt)
            elif r is not None:
                if r[0] == "alias":
                    self.aliases[tgt] = r[1]
                else:
                    self.globals[tgt] = r[1]
                self.global_lines[tgt] = st

    def module_value(self, val):
        if isinstance(val, ast.Attribute) and isinstance(val.value, ast.Name):
            base, attr = val.value.id, val.attr
            if base in self.tl_names:
                if attr in DTYPES or attr in DTYPE_ALIASES:
                    return ("alias", ("dtype", DTYPES[DTYPE_ALIASES.get(attr, attr)]))
                if attr in B:
                    return ("alias", ("builtin", attr))
            if base in self.libdevice_names:
                return ("alias", ("libdevice", attr))
        if not (isinstance(val, ast.Call) and self.is_tl_attr(val.func, "constexpr") and len(val.args) == 1):
            return ("plain", None)  # Triton reads no global but a tl.constexpr(...) one
        val = val.args[0]
        if isinstance(val, ast.Constant) and type(val.value) in (int, float, bool, str):
            return ("const", self.constant(val))
        if isinstance(val, ast.UnaryOp) and isinstance(val.op, ast.USub) and \
                isinstance(val.operand, ast.Constant) and type(val.operand.value) in (int, float):
            c = self.constant(val.operand)
            return ("const", V("-" + c.c, c.kind, 14, ops=False))
        return None

    def is_tl_attr(self, node, attr=None):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.value.id in self.tl_names:
            return attr is None or node.attr == attr
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and \
                isinstance(node.value.value, ast.Name) and node.value.value.id in self.triton_names and \
                node.value.attr == "language":
            return attr is None or node.attr == attr
        return False

    # -- literals
    def constant(self, node):
        v = node.value
        seg = ast.get_source_segment(self.src, node) or ""
        if isinstance(v, bool):
            return V("true" if v else "false", "bool", ops=False)
        if v is None:
            return V("TL_NONE", "none", ops=False)
        if isinstance(v, int):
            if v > 2**31 - 1:
                return int_value(v)
            r = V(seg if re.fullmatch(r"[1-9][0-9]*|0|0[xX][0-9a-fA-F]+", seg) else str(v), "int", ops=False)
            r.ival = v
            return r
        if isinstance(v, float):
            if v == float("inf"):
                self.includes.add("math.h")
                return V("INFINITY", "float", ops=False)
            if re.fullmatch(r"([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][-+]?[0-9]+)?", seg) and \
                    ("." in seg or "e" in seg.lower()):
                return V(seg, "float", ops=False)
            r = repr(v)
            if "." not in r and "e" not in r:
                r += ".0"
            return V(r, "float", ops=False)
        if isinstance(v, str):
            return V(c_string(v), "str", ops=False)
        self.err(node, "the constant %r has no C counterpart" % (v,))


def int_value(v):
    """A Python int as a C literal of the type Python's to_tensor gives it a width for."""
    if v == -2**63:
        c = "(-9223372036854775807LL - 1)"
    elif v > 2**63 - 1:
        c = "%dULL" % v
    elif abs(v) > 2**31 - 1:
        c = "%dLL" % v
    else:
        c = str(v)
    r = V(c, "int", 14 if v < 0 and not c.startswith("(") else 99, ops=False)
    r.ival = v
    return r


def c_string(s):
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 32 or ord(ch) > 126:
            out.append("\\x%02x" % ord(ch) if ord(ch) < 256 else ch)
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def cname(n):
    return n + "_" if n in C_KEYWORDS or n.startswith("tl_") or n.startswith("TL_") else n


CX_CTYPE = {"int": "int", "float": "double", "bool": "bool", "str": "const char *", "dtype": "tl_dtype"}
CX_GET = {"int": "tl_cx_int", "float": "tl_cx_float", "bool": "tl_cx_bool", "str": "tl_cx_str",
          "dtype": "tl_cx_dtype"}
CX_ZERO = {"int": "0", "float": "0.0", "bool": "false", "str": "NULL", "dtype": "NULL",
           "tensor": "TL_NONE", "tuplevar": "{0}"}
CTYPE_OF = {"int": "int", "float": "double", "bool": "bool", "str": "const char *", "dtype": "tl_dtype",
            "tensor": "tl_tensor", "tuplevar": "tl_tuple_t"}


def config_value_kind(val):
    if val[:1] in "'\"":
        return "str"
    if val in ("True", "False"):
        return "bool"
    if val == "None":
        return "none"
    try:
        int(val, 0)
        return "int"
    except ValueError:
        pass
    try:
        float(val)
        return "float"
    except ValueError:
        pass
    return "dtype"


def parse_constexprs(text):
    return re.findall(r"(\w+)=('[^']*'|\"[^\"]*\"|\S+)", text or "")


def assigned_names(stmts):
    """Names a list of statements assigns anywhere (nested blocks too), in order."""
    out = []

    def add(n):
        if n not in out:
            out.append(n)

    def targets(t):
        if isinstance(t, ast.Name):
            add(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                targets(e)

    for st in stmts:
        for node in ast.walk(st):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    targets(t)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets(node.target)
            elif isinstance(node, ast.For):
                targets(node.target)
    return out


def first_use(stmts, name):
    """'load' or 'store': how `name` first occurs in the statements, in Python's evaluation
    order; None when it does not occur."""
    def in_expr(e):
        if e is None:
            return False
        return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(e))

    def walk(sts):
        for st in sts:
            r = one(st)
            if r:
                return r
        return None

    def tgt_has(t):
        return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(t))

    def one(st):
        if isinstance(st, ast.Assign):
            if in_expr(st.value):
                return "load"
            if any(tgt_has(t) for t in st.targets):
                return "store"
            return None
        if isinstance(st, ast.AnnAssign):
            if in_expr(st.value):
                return "load"
            return "store" if tgt_has(st.target) else None
        if isinstance(st, ast.AugAssign):
            if tgt_has(st.target) or in_expr(st.value):
                return "load"
            return None
        if isinstance(st, (ast.If, ast.While)):
            if in_expr(st.test):
                return "load"
            r = walk(st.body)
            if r == "load":
                return r
            r2 = walk(st.orelse)
            if r2 == "load":
                return r2
            # stored in one branch only: the other may read it later
            return "store" if (r == "store" and r2 == "store") else None
        if isinstance(st, ast.For):
            if in_expr(st.iter):
                return "load"
            if tgt_has(st.target):
                return "store"
            r = walk(st.body)
            return "load" if r == "load" else None
        if in_expr(st):
            return "load"
        return None

    return walk(stmts)


class Scope:
    """C block scopes (name -> C kind) and Python's local scope order."""

    def __init__(self):
        self.blocks = [{}]

    def lookup(self, n):
        for b in reversed(self.blocks):
            if n in b:
                return b[n]
        return None

    def declare(self, n, kind):
        self.blocks[-1][n] = kind

    def set_kind(self, n, kind):
        for b in reversed(self.blocks):
            if n in b:
                b[n] = kind
                return

    def push(self):
        self.blocks.append({})

    def pop(self):
        self.blocks.pop()


class FuncPorter:
    def __init__(self, porter, func):
        self.p = porter
        self.f = func
        self.scope = Scope()
        self.pyorder = []  # Python's lscope order (dict insertion)
        self.runtime = []  # the enclosing runtime constructs: "for", "while", "if"
        self.rest = []  # the statements after the current one, per enclosing block
        self.pending = {}  # hoisted name -> kind once assigned (None: not yet)
        self.decls = 0

    err = Porter.err

    # ---- output
    def emit(self, line, text):
        self.p.put(line, text)

    # ---- names
    def name_value(self, node):
        n = node.id
        f = self.f
        k = self.scope.lookup(n)
        if k is not None:
            if k == "pending":
                k = self.pending.get(n) or "tensor"
            if k == "tuplevar":
                return V(cname(n), "tuplevar", ops=False)
            if k == "param":
                return V(cname(n), "param", cx=f.call_cx.get(n), ops=False)
            return V(cname(n), k, ops=False)
        if n in self.p.globals:
            g = self.p.globals[n]
            return V(cname(n), g.kind, ops=False)
        if n in self.p.aliases:
            a = self.p.aliases[n]
            if a[0] == "dtype":
                return V(a[1], "dtype", ops=False)
            return V(a[1], "builtin" if a[0] == "builtin" else "libfn", name=a[1], ops=False)
        if n in self.p.tl_names:
            return V("", "module", name="tl", ops=False)
        if n in self.p.libdevice_names:
            return V("", "module", name="libdevice", ops=False)
        if n in self.p.math_names:
            return V("", "module", name="math", ops=False)
        if n in self.p.funcs:
            return V(cname(n), "fn", name=n, ops=False)
        if n in ("min", "max", "range", "len", "int", "float", "bool", "print", "isinstance", "abs"):
            return V(n, "pybuiltin", name=n, ops=False)
        if n in self.p.plain_globals:
            self.err(node, "`%s` is a global that is not a tl.constexpr(...): Python's @jit cannot "
                           "read it either (write `%s = tl.constexpr(...)`)" % (n, n))
        if n in self.p.py_defs:
            self.err(node, "`%s` is a Python function (not @triton.jit): a call into Python at trace "
                           "time has no C counterpart; make it a @triton.jit helper, or compute its "
                           "result on the host and pass it as a constexpr" % n)
        self.err(node, "`%s` is not defined in the kernel or its module: a name the C port cannot "
                       "see (a global of another module, or a Python object)" % n)

    def cx_default(self, p):
        """`, DEFAULT` of a constexpr parameter with a Python default (TL_KERNEL's third element)."""
        d = self.f.defaults.get(p)
        if d is None:
            return ""
        v = self.expr(d)
        k = self.f.cx_kinds[p]
        if v.kind == "none":
            if k in ("str", "dtype"):
                return ", NULL"
            self.err(d, "the constexpr `%s` defaults to None: its configs must give it" % p)
        if not v.is_cx:
            self.err(d, "the default of the constexpr `%s` is not a constant" % p)
        return ", " + v.c

    # ---- conversions
    def cxval(self, v):
        """A helper's constexpr parameter as its C value."""
        if v.kind == "param" and v.cx:
            return V("%s(%s)" % (CX_GET[v.cx], v.c), v.cx, ops=False)
        return v

    def as_t(self, v, node=None):
        """A value where the C wants a tensor argument (numbers are lifted by the macros)."""
        if v.kind == "bool":
            if v.c == "true":
                return "TL_TRUE"
            if v.c == "false":
                return "TL_FALSE"
            if v.prec >= 99 and re.fullmatch(r"\w+", v.c):
                return v.c
            return "(bool)(%s)" % v.c
        if v.kind in ("tensor", "param", "int", "float", "none", "dtype", "str"):
            return v.c
        if v.kind == "tuple":
            return "tl_tuple(%s)" % ", ".join(self.as_t(e, node) for e in v.elems)
        self.err(node, "a %s where a tensor is expected" % self.what(v))

    def as_T(self, v, node=None):
        """A tensor field of an options struct: C numbers need tl_c()."""
        t = self.as_t(v, node)
        if v.kind in ("tensor", "param", "none") or t in ("TL_TRUE", "TL_FALSE"):
            return t
        return "tl_c(%s)" % strip_paren(t)

    def what(self, v):
        return {"module": "module", "builtin": "function", "fn": "@jit function", "libfn": "function",
                "pybuiltin": "Python builtin"}.get(v.kind, v.kind)

    def as_kind(self, v, kind, node):
        v = self.cxval(v)
        if kind == "i":
            if v.kind in ("int", "bool"):
                return v.c
            self.err(node, "needs a constexpr int here (a C int), got a %s" % self.what(v))
        if kind == "b":
            if v.kind in ("bool", "int"):
                return v.c
            if v.kind == "none":
                return "false"
            self.err(node, "needs a constexpr bool here, got a %s" % self.what(v))
        if kind == "s":
            if v.kind == "str":
                return v.c
            if v.kind == "none":
                return "NULL"
            self.err(node, "needs a constexpr string here, got a %s" % self.what(v))
        if kind == "d":
            if v.kind == "dtype":
                return v.c
            if v.kind == "none":
                return "NULL"
            self.err(node, "needs a dtype here, got a %s" % self.what(v))
        if kind == "axis":
            if v.kind == "none":
                return "TL_AXIS_NONE"
            return self.as_kind(v, "i", node)
        if kind == "nan":
            if v.kind == "nan":
                return v.c
            self.err(node, "needs tl.PropagateNan.ALL or tl.PropagateNan.NONE here")
        if kind == "T":
            return self.as_T(v, node)
        if kind == "t":
            return self.as_t(v, node)
        if kind in ("shape", "ints"):
            elems = v.elems if v.kind == "tuple" else [v]
            fn = "tl_shape" if kind == "shape" else "tl_ints"
            return "%s(%s)" % (fn, ", ".join(self.as_kind(e, "i", node) for e in elems))
        if kind == "tuple":
            elems = v.elems if v.kind == "tuple" else [v]
            return "tl_tuple(%s)" % ", ".join(self.as_t(e, node) for e in elems)
        if kind == "tt":
            return self.as_kind(v, "tuple", node) if v.kind == "tuple" else self.as_t(v, node)
        if kind == "fn":
            if v.kind == "fn":
                self.p.need_helper(v.name, self.f, node)
                return v.c
            self.err(node, "needs a @triton.jit function of this file here")
        if kind == "dtypes":
            if v.kind == "tuple":
                return "tl_dtypes(%s)" % ", ".join(self.as_kind(e, "d", node) for e in v.elems)
            return self.as_kind(v, "d", node)
        if kind == "cbool":
            if v.is_cx:
                return v.c
            self.err(node, "tl.static_assert needs a constexpr condition")
        raise AssertionError(kind)

    # ---- expressions
    def expr(self, node):
        m = getattr(self, "x_" + type(node).__name__, None)
        if m is None:
            self.err(node, "the expression `%s` (%s) has no C counterpart in the kernel language" %
                     (self.seg(node), type(node).__name__))
        v = m(node)
        v.node = node
        return v

    def seg(self, node):
        s = ast.get_source_segment(self.p.src, node) or type(node).__name__
        s = " ".join(s.split())
        return s if len(s) < 60 else s[:57] + "..."

    def x_Constant(self, node):
        return self.p.constant(node)

    def x_Name(self, node):
        return self.name_value(node)

    def x_Tuple(self, node):
        return V("", "tuple", elems=[self.expr(e) for e in node.elts],
                 ops=False)

    x_List = x_Tuple

    def x_Attribute(self, node):
        # dotted names first: tl.float32, tl.math.exp, tl.PropagateNan.ALL, ...libdevice.fn
        dotted = dotted_name(node)
        if dotted:
            parts = dotted.split(".")
            root = parts[0]
            if root in self.p.tl_names or (root in self.p.triton_names and len(parts) > 2 and
                                           parts[1] == "language"):
                rest = parts[1:] if root in self.p.tl_names else parts[2:]
                if rest[:1] in (["math"], ["core"], ["standard"], ["random"]) and len(rest) == 2:
                    rest = rest[1:]
                if len(rest) == 1:
                    a = rest[0]
                    if a in DTYPES or a in DTYPE_ALIASES:
                        return V(DTYPES[DTYPE_ALIASES.get(a, a)], "dtype", ops=False)
                    if a in B or a in ("static_range", "range", "constexpr", "tensor"):
                        return V(a, "builtin", name=a, ops=False)
                    self.err(node, "`%s`: no such builtin in ctriton's kernel language "
                                   "(docs/cheatsheet.md lists them)" % dotted)
                if rest[0] == "PropagateNan" and len(rest) == 2 and rest[1] in ("ALL", "NONE"):
                    return V("TL_PROPAGATE_NAN_" + rest[1], "nan", ops=False)
                if "libdevice" in rest[:-1]:
                    return V(rest[-1], "libfn", name=rest[-1], ops=False)
                self.err(node, "`%s` has no C counterpart" % dotted)
            if root in self.p.libdevice_names and len(parts) == 2:
                return V(parts[1], "libfn", name=parts[1], ops=False)
            if root in self.p.math_names and len(parts) == 2:
                if parts[1] in ("pi", "e", "inf"):
                    self.p.includes.add("math.h")
                    return V({"pi": "M_PI", "e": "M_E", "inf": "INFINITY"}[parts[1]], "float", ops=False)
                return V(parts[1], "mathfn", name=parts[1], ops=False)
        base = node.value
        attr = node.attr
        if isinstance(base, ast.Attribute) and base.attr in ("dtype", "type") and attr == "element_ty":
            b = self.expr(base.value)
            return V("tl_element_ty(%s)" % self.as_t(b, node), "dtype", ops=False)
        b = self.expr(base)
        if b.kind == "dtype" and attr == "primitive_bitwidth":
            return V("tl_primitive_bitwidth(%s)" % b.c, "int", ops=False)
        if b.kind == "dtype" and attr.startswith("is_"):
            return V(b.c, "dtypepred", name=attr[3:], ops=False)
        if attr == "dtype":
            if b.kind in ("tensor", "param"):
                return V("tl_dtype_of(%s)" % b.c, "dtype", ops=False)
        if attr == "type" and b.kind in ("tensor", "param"):
            return V("tl_type_of(%s)" % b.c, "dtype", ops=False)
        if attr == "T" and b.kind in ("tensor", "param"):
            return V("tl_T(%s)" % b.c, "tensor")
        if attr == "shape" and b.kind in ("tensor", "param"):
            return V("tl_shape_of(%s)" % b.c, "shapeof", name=b.c, ops=False)
        if attr == "numel" and b.kind in ("tensor", "param"):
            return V("tl_numel(%s)" % b.c, "int", ops=False)
        if b.kind in ("tensor", "param", "tuplevar"):
            return V(b.c, "method", name=attr, elems=[b], ops=b.ops)
        self.err(node, "the attribute `%s` of a %s has no C counterpart" % (self.seg(node), self.what(b)))

    def x_Subscript(self, node):
        b = self.expr(node.value)
        sl = node.slice
        if b.kind == "shapeof":
            i = self.expr(sl)
            return V("tl_dim(%s, %s)" % (b.name, self.as_kind(i, "i", node)), "int", ops=False)
        if b.kind == "tuple":
            i = self.expr(sl)
            if i.kind == "int" and re.fullmatch(r"-?\d+", i.c):
                return b.elems[int(i.c)]
            self.err(node, "a tuple indexed by a non-constant")
        if b.kind == "tuplevar":
            i = self.cxval(self.expr(sl))
            if i.kind == "int":
                return V("%s.v[%s]" % (b.c, i.c), "tensor", ops=False)
            self.err(node, "a tuple indexed by a non-constant")
        if b.kind in ("tensor", "param"):
            elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
            spec = []
            for e in elts:
                if isinstance(e, ast.Slice) and e.lower is None and e.upper is None and e.step is None:
                    spec.append(":")
                elif isinstance(e, ast.Constant) and e.value is None:
                    spec.append("None")
                else:
                    self.err(node, "`%s`: only `:` and `None` index a tensor (Triton rejects integer "
                                   "and sliced indices too)" % self.seg(node))
            return V('tl_idx(%s, "%s")' % (b.c, ", ".join(spec)), "tensor")
        self.err(node, "`%s`: indexing a %s" % (self.seg(node), self.what(b)))

    def x_UnaryOp(self, node):
        v = self.expr(node.operand)
        c = self.cxval(v)
        op = node.op
        if isinstance(op, ast.USub) and getattr(c, "ival", None) is not None:
            return int_value(-c.ival)
        if c.is_cx and c.kind in ("int", "float", "bool"):
            sym = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "!"}[type(op)]
            kind = "bool" if isinstance(op, ast.Not) else ("int" if c.kind == "bool" else c.kind)
            if isinstance(op, ast.UAdd):
                return c
            return V(sym + paren(c, 14), kind, 14, ops=False)
        if v.kind in ("tensor", "param"):
            if isinstance(op, ast.UAdd):
                return v
            fn = {ast.USub: "tl_neg", ast.Invert: "tl_invert", ast.Not: "tl_logical_not"}[type(op)]
            return V("%s(%s)" % (fn, v.c), "tensor")
        if isinstance(op, ast.Not) and c.kind in ("str", "dtype", "none"):
            return V("!" + paren(c, 14), "bool", 14, ops=False)
        self.err(node, "`%s` on a %s" % (self.seg(node), self.what(v)))

    def cx_arith(self, op, a, b, node):
        ka, kb = a.kind, b.kind
        num = ("int", "float", "bool")
        if ka not in num or kb not in num:
            self.err(node, "`%s`: arithmetic on a %s and a %s" % (self.seg(node), ka, kb))
        isf = "float" in (ka, kb)
        t = type(op)
        if t is ast.Pow:
            ia, ib = getattr(a, "ival", None), getattr(b, "ival", None)
            if not isf and ia is not None and ib is not None and ib >= 0:
                return int_value(ia ** ib)
            self.p.includes.add("math.h")
            if isf:
                return V("pow(%s, %s)" % (a.c, b.c), "float", ops=False)
            return V("(long long)pow(%s, %s)" % (a.c, b.c), "int", ops=False)
        sym = C_BINOPS.get(t)
        if sym is None:
            self.err(node, "`%s` has no C counterpart" % self.seg(node))
        pr = C_PREC[sym]
        if t is ast.Div and not isf:
            return V("(double)%s / %s" % (paren(a, 13), paren(b, 13)), "float", 13, ops=False)
        if t is ast.FloorDiv and isf:
            self.p.includes.add("math.h")
            return V("floor(%s / %s)" % (paren(a, 13), paren(b, 13)), "float", ops=False)
        if t is ast.Mod and isf:
            self.p.includes.add("math.h")
            return V("fmod(%s, %s)" % (a.c, b.c), "float", ops=False)
        if isf and t in (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift):
            self.err(node, "`%s`: a bitwise operator on a float" % self.seg(node))
        kind = "float" if isf else "int"
        return V("%s %s %s" % (paren(a, pr - 1), sym, paren(b, pr)), kind, pr, ops=False)

    def x_BinOp(self, node):
        a = self.expr(node.left)
        b = self.expr(node.right)
        ca, cb = self.cxval(a), self.cxval(b)
        if ca.is_cx and cb.is_cx:
            return self.cx_arith(node.op, ca, cb, node)
        if isinstance(node.op, ast.Pow):
            self.err(node, "`**` on a tensor: Triton has none either")
        if isinstance(node.op, ast.MatMult):
            self.err(node, "`@` on tensors: use tl.dot")
        fn = BINOPS[type(node.op)]
        for v in (a, b):
            if v.kind not in ("tensor", "param", "int", "float", "bool"):
                self.err(node, "`%s`: arithmetic on a %s" % (self.seg(node), self.what(v)))
        return V("%s(%s, %s)" % (fn, self.as_t(a, node), self.mk(node, b, self.as_t(b, node))), "tensor")

    def x_Compare(self, node):
        if len(node.ops) != 1:
            self.err(node, "chained comparison `%s`: Triton does not support it either" % self.seg(node))
        op = node.ops[0]
        a = self.expr(node.left)
        b = self.expr(node.comparators[0])
        ca, cb = self.cxval(a), self.cxval(b)
        if isinstance(op, (ast.Is, ast.IsNot)):
            neg = isinstance(op, ast.IsNot)
            if cb.kind == "none":
                x, y = a, ca
            elif ca.kind == "none":
                x, y = b, cb
            else:
                self.err(node, "`is` compares with None only")
            if y.kind == "none":
                return V("true" if not neg else "false", "bool", ops=False)
            if y.kind in ("str", "dtype"):
                return V("%s %s NULL" % (y.c, "!=" if neg else "=="), "bool", 9, ops=False)
            if x.kind in ("tensor", "param"):
                return V("%stl_is_none(%s)" % ("!" if neg else "", x.c), "bool", 14 if neg else 99,
                         ops=False)
            return V("false" if not neg else "true", "bool", ops=False)
        if isinstance(op, (ast.In, ast.NotIn)):
            self.err(node, "`in` has no C counterpart in the kernel language")
        if ca.is_cx and cb.is_cx:
            if "str" in (ca.kind, cb.kind):
                self.p.includes.add("string.h")
                if ca.kind == "none" or cb.kind == "none":
                    s = cb if ca.kind == "none" else ca
                    return V("%s %s NULL" % (s.c, "==" if isinstance(op, ast.Eq) else "!="), "bool", 9,
                             ops=False)
                if ca.kind != "str" or cb.kind != "str":
                    return V("false" if isinstance(op, ast.Eq) else "true", "bool", ops=False)
                if isinstance(op, ast.Eq):
                    if ca.c.startswith('"'):
                        ca, cb = cb, ca
                    if cb.c.startswith('"'):
                        return V("%s && strcmp(%s, %s) == 0" % (ca.c, ca.c, cb.c), "bool", 5, ops=False)
                    return V("%s && %s && strcmp(%s, %s) == 0" % (ca.c, cb.c, ca.c, cb.c), "bool", 5,
                             ops=False)
                if isinstance(op, ast.NotEq):
                    if ca.c.startswith('"'):
                        ca, cb = cb, ca
                    return V("(!%s || strcmp(%s, %s) != 0)" % (ca.c, ca.c, cb.c), "bool", ops=False)
                self.err(node, "strings compare with == and != only")
            if "dtype" in (ca.kind, cb.kind):
                if isinstance(op, ast.Eq):
                    return V("tl_type_eq(%s, %s)" % (ca.c, cb.c), "bool", ops=False)
                if isinstance(op, ast.NotEq):
                    return V("!tl_type_eq(%s, %s)" % (ca.c, cb.c), "bool", 14, ops=False)
                self.err(node, "dtypes compare with == and != only")
            if "none" in (ca.kind, cb.kind):
                both = ca.kind == cb.kind
                eq = isinstance(op, ast.Eq)
                return V("true" if both == eq else "false", "bool", ops=False)
            sym = C_CMPOPS[type(op)]
            pr = C_PREC[sym]
            return V("%s %s %s" % (paren(ca, pr), sym, paren(cb, pr)), "bool", pr, ops=False)
        fn = CMPOPS[type(op)]
        return V("%s(%s, %s)" % (fn, self.as_t(a, node), self.as_t(b, node)), "tensor")

    def x_BoolOp(self, node):
        vals = [self.expr(v) for v in node.values]
        cvals = [self.cxval(v) for v in vals]
        if all(c.is_cx for c in cvals):
            sym = "&&" if isinstance(node.op, ast.And) else "||"
            pr = C_PREC[sym]
            return V((" %s " % sym).join(paren(c, pr) for c in cvals), "bool", pr, ops=False)
        fn = "tl_logical_and" if isinstance(node.op, ast.And) else "tl_logical_or"
        acc = self.as_t(vals[0], node)
        for v in vals[1:]:
            acc = "%s(%s, %s)" % (fn, acc, self.as_t(v, node))
        return V(acc, "tensor")

    def x_IfExp(self, node):
        c = self.cxval(self.expr(node.test))
        a = self.expr(node.body)
        b = self.expr(node.orelse)
        if c.is_cx:
            ca, cb = self.cxval(a), self.cxval(b)
            if ca.is_cx and cb.is_cx and ca.kind == cb.kind:
                return V("%s ? %s : %s" % (paren(c, 3), paren(ca, 3), paren(cb, 2)), ca.kind, 3, ops=False)
            return V("%s ? %s : %s" % (paren(c, 3), self.as_T(a, node), self.as_T(b, node)), "tensor", 3,
                     ops=a.ops or b.ops)
        return V("TL_IFEXP(%s, %s, %s)" % (self.as_t(c, node), self.as_t(a, node), self.as_t(b, node)),
                 "tensor")

    def x_JoinedStr(self, node):
        self.err(node, "an f-string: build the text with constexprs in C")

    def mk(self, call, v, s):
        """An argument's C text, marked to go on its own Python line when the call spans several."""
        ln = getattr(v.node, "lineno", None)
        return nl(ln) + s if ln and ln > call.lineno else s

    # ---- calls
    def x_Call(self, node):
        fv = self.expr(node.func)
        k = fv.kind
        if k == "builtin":
            return self.call_builtin(fv.name, list(node.args), list(node.keywords), node)
        if k == "method":
            base = fv.elems[0]
            name = fv.name
            if base.kind == "tuplevar":
                self.err(node, "a method of a tuple")
            if name in DESC_METHODS:
                return self.call_desc(name, base, node)
            if name == "item" and not node.args:
                return V("tl_reshape(%s, tl_shape())" % base.c, "tensor")
            if name in METHODS and name in B:
                return self.call_builtin(name, [base] + list(node.args), list(node.keywords), node)
            self.err(node, "the tensor method `.%s()` has no C counterpart" % name)
        if k == "libfn":
            if node.keywords:
                self.err(node, "keyword arguments to libdevice.%s" % fv.name)
            if len(node.args) > 4:
                self.err(node, "libdevice.%s with more than 4 arguments" % fv.name)
            args = [self.expr(a) for a in node.args]
            for i, a in enumerate(args):
                a.pos_index = i
            self.order_check([(a, False) for a in args], [], node)
            return V('tl_libdevice("%s"%s)' % (fv.name, "".join(", " + self.mk(node, a, self.as_t(a, node)) for a in args)),
                     "tensor")
        if k == "fn":
            return self.call_helper(fv.name, node)
        if k == "pybuiltin":
            return self.call_py(fv.name, node)
        if k == "dtypepred":
            if node.args or node.keywords:
                self.err(node, "`%s` takes no arguments" % self.seg(node.func))
            return V("tl_dtype_is_%s(%s)" % (fv.name, fv.c), "bool", ops=False)
        if k == "mathfn":
            args = [self.cxval(self.expr(a)) for a in node.args]
            if not all(a.kind in ("int", "float") for a in args):
                self.err(node, "math.%s on a tensor: use the tl builtin" % fv.name)
            self.p.includes.add("math.h")
            c = "%s(%s)" % (fv.name, ", ".join(a.c for a in args))
            if fv.name in ("ceil", "floor", "trunc"):
                return V("(int)" + c, "int", 14, ops=False)
            return V(c, "float", ops=False)
        self.err(node, "`%s` is not a function the kernel language has (calling a %s)" %
                 (self.seg(node.func), self.what(fv)))

    def order_check(self, positional, options, node):
        """Python evaluates a call's keyword arguments first, then the positional ones; C builds
        the options first (unordered among themselves), then the positional arguments.
        positional: [(V, passed_by_keyword)] in C order; options: [(V, passed_by_keyword)]."""
        opt_ops = [v for v, _ in options if v.ops]
        if len(opt_ops) > 1:
            self.err(node, "`%s`: two keyword arguments build ops, and C does not order the fields "
                           "of one initializer: bind one to a variable first" % self.seg(node))
        py = [v for v, kw in options + positional if kw and v.ops]
        py.sort(key=lambda v: v.kw_index)
        py += [v for v, kw in sorted(options + positional, key=lambda p: p[0].pos_index)
               if not kw and v.ops]
        c = opt_ops + [v for v, _ in positional if v.ops]
        if [id(v) for v in py] != [id(v) for v in c]:
            self.err(node, "`%s`: its arguments build ops in an order C cannot keep (Python builds "
                           "keyword arguments first, C builds the options first): bind the "
                           "arguments to variables first" % self.seg(node))

    def bind(self, params, args, keywords, node, what):
        """Python's binding: {param: (V, by_keyword)}, and the var-positional rest."""
        bound = {}
        kw_i = 0
        for kw in keywords:
            if kw.arg is None:
                self.err(node, "`**kwargs` in a call to %s" % what)
            v = self.expr(kw.value)
            v.kw_index = kw_i
            v.pos_index = -1
            kw_i += 1
            bound[kw.arg] = (v, True, kw.value)
        names = [p[0].lstrip("?") for p in params]
        roles = [p[1] for p in params]
        pos = 0
        rest = []
        for i, a in enumerate(args):
            if isinstance(a, ast.Starred):
                self.err(node, "`*args` in a call to %s" % what)
            v = self.expr(a) if not isinstance(a, V) else a
            v.pos_index = i
            v.kw_index = -1
            while pos < len(names) and names[pos] in bound:
                pos += 1
            if pos >= len(names):
                self.err(node, "%s takes %d arguments, %d given" % (what, len(names), len(args)))
            if roles[pos].startswith("var") or roles[pos] == "trailing_ints":
                rest.append(v)
                continue
            bound[names[pos]] = (v, False, a)
            pos += 1
        for k in bound:
            if k not in names:
                self.err(node, "%s has no parameter `%s` in ctriton's kernel language" % (what, k))
        return bound, rest

    def call_builtin(self, name, args, keywords, node):
        if name == "constexpr":
            if len(args) != 1:
                self.err(node, "tl.constexpr takes one value")
            return self.expr(args[0]) if not isinstance(args[0], V) else args[0]
        if name in ("range", "static_range"):
            self.err(node, "tl.%s outside a `for` statement" % name)
        if name == "device_print":
            return self.call_print(args, keywords, node)
        if name == "map_elementwise":
            return self.call_map(args, keywords, node)
        spec = B[name]
        what = "tl." + name
        bound, rest = self.bind(spec["params"], args, keywords, node, what)
        c = spec["c"]
        pos, opts, positional, options = [], [], [], []
        out = None
        tuple_result = spec.get("tuple_result", False)
        for pname, role in spec["params"]:
            optional = pname.startswith("?")
            pname = pname.lstrip("?")
            if role.startswith("var") or role == "trailing_ints":
                vals = rest
                if pname in bound:
                    vals = [bound[pname][0]]
                if len(vals) == 1 and vals[0].kind == "tuple":
                    vals = vals[0].elems
                if role == "varshape":
                    pos.append("tl_shape(%s)" % ", ".join(self.mk(node, v, self.as_kind(v, "i", node)) for v in vals))
                elif role == "varints":
                    pos.append("tl_ints(%s)" % ", ".join(self.mk(node, v, self.as_kind(v, "i", node)) for v in vals))
                else:
                    pos.extend(self.mk(node, v, self.as_kind(v, "i", node)) for v in vals)
                continue
            if pname not in bound:
                if role.startswith(".") or optional or role in ("sanitize", "indices", "ignore"):
                    continue
                if role == "axis":
                    self.err(node, "%s needs its `%s` argument (in C too)" % (what, pname))
                self.err(node, "%s: missing argument `%s`" % (what, pname))
            v, kw, an = bound[pname]
            if role == "sanitize":
                cv = self.cxval(v)
                if cv.c == "false":
                    c += "_nsan"
                elif cv.c != "true":
                    self.err(node, "sanitize_overflow must be True or False")
                continue
            if role == "ignore":
                continue
            if role == "indices":
                cv = self.cxval(v)
                if cv.c == "true":
                    out = ("ptrs", 2)
                    c = c + "_with_indices"
                elif cv.c != "false":
                    self.err(node, "return_indices must be True or False")
                continue
            if role.startswith("."):
                field, kind = role[1:].split(":")
                options.append((v, kw))
                if kind == "b" and pname == "descending":
                    opts.append(".%s = %s" % (field, self.mk(node, v, self.as_kind(v, "b", an))))
                else:
                    opts.append(".%s = %s" % (field, self.mk(node, v, self.as_kind(v, kind, an))))
                continue
            if role == "expand_axis":
                if v.kind == "tuple":
                    c = "tl_expand_dims_n"
                    pos.append(self.mk(node, v, self.as_kind(v, "ints", an)))
                else:
                    pos.append(self.mk(node, v, self.as_kind(v, "i", an)))
                positional.append((v, kw))
                continue
            if role in ("tt",) and v.kind == "tuple":
                tuple_result = True
            if role == "dtypes" and v.kind == "tuple":
                tuple_result = True
            pos.append(self.mk(node, v, self.as_kind(v, role, an)))
            positional.append((v, kw))
        self.order_check(positional, options, node)
        if spec.get("out_ptrs"):
            out = ("ptrs", spec["out_ptrs"])
        if spec.get("out_array"):
            out = ("array", spec["out_array"])
        if out:
            # the outputs go after the positional arguments, before the options
            text = "%s(%s)" % (c, ", ".join(pos + ["{OUT}"] + opts))
            return V(text, "outcall", name=name, elems=out)
        text = "%s(%s)" % (c, ", ".join(pos + opts))
        return V(text, "tuplecall" if tuple_result else "tensor")

    def call_desc(self, name, base, node):
        spec = {"load": [("offsets", "tuple")], "store": [("offsets", "tuple"), ("value", "t")]}.get(
            name, [("offsets", "tuple"), ("value", "t")])
        bound, _ = self.bind(spec, list(node.args), list(node.keywords), node, "desc." + name)
        pos = [base.c]
        positional = [(base, False)]
        base.pos_index, base.kw_index = -1, -1
        for pname, role in spec:
            if pname not in bound:
                self.err(node, "desc.%s: missing argument `%s`" % (name, pname))
            v, kw, an = bound[pname]
            pos.append(self.mk(node, v, self.as_kind(v, role, an)))
            positional.append((v, kw))
        self.order_check(positional[1:], [], node)
        return V("%s(%s)" % (DESC_METHODS[name], ", ".join(pos)), "tensor")

    def call_print(self, args, keywords, node):
        hexa = False
        for kw in keywords:
            if kw.arg == "hex":
                hexa = self.cxval(self.expr(kw.value)).c == "true"
            else:
                self.err(node, "device_print has no option `%s` in C" % kw.arg)
        vals = [self.expr(a) for a in args]
        if not vals or vals[0].kind != "str":
            self.err(node, "device_print's first argument must be a string prefix")
        if len(vals) > 17:
            self.err(node, "device_print with more than 16 values")
        return V("%s(%s)" % ("tl_device_print_hex" if hexa else "tl_device_print",
                             ", ".join([vals[0].c] + [self.as_t(v, node) for v in vals[1:]])), "tensor")

    def call_map(self, args, keywords, node):
        if not args:
            self.err(node, "tl.map_elementwise needs a function")
        fn = self.expr(args[0])
        fc = self.as_kind(fn, "fn", node)
        vals = [self.expr(a) for a in args[1:]]
        opts = []
        for kw in keywords:
            if kw.arg == "pack":
                opts.append(".pack = " + self.as_kind(self.expr(kw.value), "i", node))
            else:
                self.err(node, "tl.map_elementwise has no option `%s`" % kw.arg)
        tup = self.p.funcs[fn.name].returns_tuple
        return V("tl_map_elementwise(%s, (%s)%s)" % (fc, ", ".join(self.as_t(v, node) for v in vals),
                                                      "".join(", " + o for o in opts)),
                 "tuplecall" if tup else "tensor")

    def call_helper(self, name, node):
        h = self.p.funcs[name]
        self.p.need_helper(name, self.f, node)
        params = [(p, "t") for p in h.params]
        bound, _ = self.bind(params, list(node.args), list(node.keywords), node, "`%s`" % name)
        vals, positional = [], []
        for p in h.params:
            if p in bound:
                v, kw, an = bound[p]
            elif h.defaults.get(p) is not None:
                v, kw, an = self.expr(h.defaults[p]), False, node
                v.pos_index, v.kw_index = 10**6, -1
            else:
                self.err(node, "`%s`: missing argument `%s`" % (name, p))
            vals.append(self.mk(node, v, self.as_t(v, an)))
            positional.append((v, kw))
        self.order_check(positional, [], node)
        if len(vals) > 16:
            self.err(node, "`%s` has %d parameters: TL_CALL takes at most 16" % (name, len(vals)))
        mac = "TL_CALL_TUPLE" if h.returns_tuple else "TL_CALL"
        return V("%s(%s)" % (mac, ", ".join([cname(name)] + vals)), "tuplecall" if h.returns_tuple else "tensor")

    def call_py(self, name, node):
        if node.keywords:
            self.err(node, "keyword arguments to Python's %s()" % name)
        vals = [self.expr(a) for a in node.args]
        if name in ("min", "max"):
            if len(vals) < 2:
                self.err(node, "%s() of one iterable: give the values" % name)
            cvals = [self.cxval(v) for v in vals]
            if all(c.kind in ("int", "float", "bool") for c in cvals):
                acc = cvals[0]
                for b in cvals[1:]:
                    sym = "<" if name == "min" else ">"
                    kind = "float" if "float" in (acc.kind, b.kind) else "int"
                    acc = V("(%s %s %s ? %s : %s)" % (paren(acc, 10), sym, paren(b, 10), paren(acc, 3),
                                                      paren(b, 3)), kind, ops=False)
                return acc
            acc = self.as_t(vals[0], node)
            for b in vals[1:]:
                acc = "tl_builtin_%s(%s, %s)" % (name, acc, self.as_t(b, node))
            return V(acc, "tensor")
        if name == "len" and len(vals) == 1:
            v = vals[0]
            if v.kind == "tuple":
                return V(str(len(v.elems)), "int", ops=False)
            if v.kind == "tuplevar":
                return V("%s.n" % v.c, "int", ops=False)
            if v.kind == "shapeof":
                return V("tl_rank(%s)" % v.name, "int", ops=False)
        if name in ("int", "float", "bool") and len(vals) == 1:
            v = self.cxval(vals[0])
            if name == "float" and v.kind == "str":
                s = v.c.strip('"').lower()
                if s in ("inf", "+inf", "infinity", "-inf", "nan"):
                    self.p.includes.add("math.h")
                    return V({"inf": "INFINITY", "+inf": "INFINITY", "infinity": "INFINITY",
                              "-inf": "-INFINITY", "nan": "NAN"}[s], "float", 14 if s == "-inf" else 99,
                             ops=False)
            if v.kind in ("int", "float", "bool"):
                t = {"int": "int", "float": "double", "bool": "bool"}[name]
                return V("(%s)%s" % (t, paren(v, 14)), name, 14, ops=False)
        if name == "abs" and len(vals) == 1:
            v = self.cxval(vals[0])
            if v.kind in ("int", "float"):
                return V("(%s < 0 ? -%s : %s)" % (paren(v, 10), paren(v, 14), paren(v, 3)), v.kind,
                         ops=False)
            return V("tl_abs(%s)" % self.as_t(vals[0], node), "tensor")
        if name == "print":
            return self.call_print(node.args, [], node)
        self.err(node, "Python's %s() here has no C counterpart" % name)

    # ---- statements
    def block(self, stmts):
        for i, st in enumerate(stmts):
            self.rest.append(stmts[i + 1:])
            try:
                self.stmt(st)
            finally:
                self.rest.pop()

    def after(self):
        out = []
        for r in reversed(self.rest):
            out.extend(r)
        return out

    def ind(self, st):
        return " " * st.col_offset

    def stmt(self, st):
        if isinstance(st, (ast.If, ast.For, ast.While)):
            self.p.last = max(self.p.last, st.lineno)  # its head goes there
        m = getattr(self, "s_" + type(st).__name__, None)
        if m is None:
            self.err(st, "the statement `%s` (%s) has no C counterpart in the kernel language" %
                     (self.seg(st), type(st).__name__))
        m(st)

    def say(self, st, text):
        self.emit(st.lineno, self.ind(st) + text)

    def s_Pass(self, st):
        pass

    def s_Break(self, st):
        self.err(st, "`break`: Triton does not support it, and neither do ctriton's runtime loops")

    s_Continue = s_Break

    def s_Expr(self, st):
        v = st.value
        if isinstance(v, ast.Constant) and isinstance(v.value, str):
            return  # a docstring, or a string statement: nothing to build
        if isinstance(v, ast.Constant) and v.value is Ellipsis:
            return
        x = self.expr(v)
        if x.kind == "outcall":
            self.err(st, "`%s`: its results are not used" % self.seg(st))
        if x.kind in ("tensor", "tuplecall") and x.ops:
            self.say(st, strip_paren(x.c) + ";")
            return
        self.say(st, "(void)%s;" % paren(x, 14) if x.c else ";")

    def s_Assert(self, st):
        c = self.expr(st.test)
        msg = self.expr(st.msg).c if st.msg is not None else '""'
        self.say(st, "tl_device_assert(%s, %s);" % (self.as_t(c, st), msg))

    def value_kind(self, v, node, annotated):
        if annotated:
            v = self.cxval(v)
            if not v.is_cx or v.kind == "none":
                self.err(node, "`%s`: a tl.constexpr name needs a constexpr value" % self.seg(node))
            return v.kind, v.c
        if v.kind in ("int", "float", "bool"):
            return "tensor", "tl_to_tensor(%s)" % strip_paren(self.as_t(v, node))
        if v.kind == "none":
            return "tensor", "TL_NONE"
        if v.kind == "dtype":
            return "dtype", v.c
        if v.kind in ("tensor", "param"):
            return "tensor", strip_paren(v.c)
        if v.kind == "tuplecall":
            return "tuplevar", v.c
        if v.kind == "tuple":
            # Python's assignment makes each number of the tuple a tensor (`w = (0.5, 2.0)`:
            # fp32 scalars, which promote an fp16 operand), as it does a lone number
            elems = [self.cxval(e) for e in v.elems]
            return "tuplevar", "tl_tuple(%s)" % ", ".join(
                "tl_to_tensor(%s)" % strip_paren(self.as_t(e, node)) if e.kind in ("int", "float", "bool")
                else self.as_t(e, node) for e in elems)
        if v.kind == "tuplevar":
            return "tuplevar", v.c
        if v.kind == "str":
            self.err(node, "`%s`: a string assigned to a name (Python makes names tensors; annotate "
                           "it `: tl.constexpr` to keep a constexpr)" % self.seg(node))
        self.err(node, "`%s`: a %s assigned to a name" % (self.seg(node), self.what(v)))

    def bind_name(self, name, kind, node):
        """Prepares `name = ...` of `kind`: returns the C left-hand side (with its declaration)."""
        cur = self.scope.lookup(name)
        c = cname(name)
        if name not in self.pyorder:
            self.pyorder.append(name)
        if cur is None:
            self.scope.declare(name, kind)
            self.decls += 1
            return "%s %s" % (CTYPE_OF[kind], c) if kind != "str" else "const char *" + c
        if cur == "pending":
            old = self.pending.get(name)
            if old is not None and old != kind:
                self.err(node, "`%s` is a %s in one branch and a %s in another" % (name, old, kind))
            self.pending[name] = kind
            return c
        if cur == "param":
            if kind != "tensor":
                self.err(node, "the parameter `%s` reassigned with a %s" % (name, kind))
            return c
        if cur != kind:
            self.err(node, "`%s` was a %s and is assigned a %s: C keeps one type per name" %
                     (name, "constexpr " + cur if cur in CX_CTYPE else cur, kind))
        if self.runtime and kind in CX_CTYPE and self.declared_outside(name):
            self.err(node, "the constexpr `%s` is reassigned inside a runtime %s: Python refuses "
                           "it too (loop-carried values must be tensors)" % (name, self.runtime[-1]))
        return c

    def declared_outside(self, name):
        return name not in self.scope.blocks[-1]

    def s_Assign(self, st):
        if len(st.targets) != 1:
            self.err(st, "chained assignment `a = b = ...`: write two statements")
        self.assign(st.targets[0], st.value, st, annotated=False)

    def s_AnnAssign(self, st):
        if st.value is None:
            return
        self.assign(st.target, st.value, st, annotated=is_constexpr_annotation(st.annotation))

    def s_AugAssign(self, st):
        if not isinstance(st.target, ast.Name):
            self.err(st, "augmented assignment to `%s`" % self.seg(st.target))
        binop = ast.BinOp(left=ast.Name(id=st.target.id, ctx=ast.Load()), op=st.op, right=st.value)
        ast.copy_location(binop, st)
        binop.end_lineno, binop.end_col_offset = st.end_lineno, st.end_col_offset
        ast.copy_location(binop.left, st.target)
        binop.left.end_lineno, binop.left.end_col_offset = st.target.end_lineno, st.target.end_col_offset
        self.assign(st.target, binop, st, annotated=False)

    def assign(self, target, value, st, annotated):
        if isinstance(target, (ast.Tuple, ast.List)):
            return self.unpack(target, value, st)
        if not isinstance(target, ast.Name):
            self.err(st, "assignment to `%s`: only names can be assigned in a kernel" % self.seg(target))
        v = self.expr(value)
        if v.kind == "outcall":
            self.err(st, "`%s` gives several values: unpack them (`a, b = ...`)" % self.seg(value))
        kind, text = self.value_kind(v, st, annotated)
        lhs = self.bind_name(target.id, kind, st)
        self.say(st, "%s = %s;" % (lhs, text))

    def unpack(self, target, value, st):
        names = []
        for e in target.elts:
            if not isinstance(e, ast.Name):
                self.err(st, "nested or starred unpacking `%s`" % self.seg(target))
            names.append(e.id)
        if isinstance(value, (ast.Tuple, ast.List)):
            if len(value.elts) != len(names):
                self.err(st, "unpacking %d values into %d names" % (len(value.elts), len(names)))
            reads = {n.id for e in value.elts for n in ast.walk(e) if isinstance(n, ast.Name)}
            if reads & set(names):
                self.err(st, "`%s`: a swap needs temporaries; write it as separate statements" %
                         self.seg(st))
            parts = []
            for n, e in zip(names, value.elts):
                v = self.expr(e)
                kind, text = self.value_kind(v, st, False)
                parts.append("%s = %s;" % (self.bind_name(n, kind, st), text))
            self.say(st, " ".join(parts))
            return
        v = self.expr(value)
        pre = [n for n in names if self.scope.lookup(n) is None]
        lhs = [self.bind_name(n, "tensor", st) for n in names]
        decl = "tl_tensor %s; " % ", ".join(cname(n) for n in pre) if pre else ""
        cn = [cname(n) for n in names]
        if v.kind in ("tuplecall", "tuplevar"):
            self.say(st, "%sTL_UNPACK(%s, %s);" % (decl, strip_paren(v.c), ", ".join(cn)))
            return
        if v.kind == "outcall":
            how, k = v.elems
            if k != len(names):
                self.err(st, "`%s` gives %d values, %d names unpack it" % (self.seg(value), k, len(names)))
            if how == "ptrs":
                self.say(st, "%s%s;" % (decl, v.c.replace("{OUT}", ", ".join("&" + n for n in cn))))
                return
            arr = "%s_%s" % (cn[0], cn[-1])
            self.say(st, "tl_tensor %s[%d]; %s; %s" % (
                arr, k, v.c.replace("{OUT}", arr),
                " ".join("%s = %s[%d];" % (l, arr, i) for i, l in enumerate(lhs))
                if not pre or len(pre) != len(names) else
                "tl_tensor %s;" % ", ".join("%s = %s[%d]" % (n, arr, i) for i, n in enumerate(cn))))
            return
        self.err(st, "`%s` is not a tuple: nothing to unpack" % self.seg(value))

    # -- hoisting: a name a block assigns and the code after it reads
    def hoist(self, st, blocks):
        names = []
        after = self.after()
        for n in assigned_names(blocks):
            if self.scope.lookup(n) is not None:
                continue
            if first_use(after, n) == "load":
                names.append(n)
        for n in names:
            self.scope.declare(n, "pending")
            self.pending[n] = None
        return names

    def hoisted_decls(self, names, st):
        out = []
        for n in names:
            k = self.pending.pop(n, None) or "tensor"
            self.scope.set_kind(n, k)
            out.append("%s %s = %s;" % (CTYPE_OF[k], cname(n), CX_ZERO[k]) if k != "str" else
                       "const char *%s = NULL;" % cname(n))
        return " ".join(out) + (" " if out else "")

    def else_line(self, st):
        last = st.body[-1].end_lineno
        for i in range(last + 1, (st.orelse[0].lineno if st.orelse else last) + 1):
            s = self.p.lines[i - 1].strip()
            if s.startswith("else") or s.startswith("elif"):
                return i, s.startswith("elif")
        return st.orelse[0].lineno, False

    def s_If(self, st, prefix=None):
        c = self.cxval(self.expr(st.test))
        runtime = not c.is_cx
        if runtime and c.kind not in ("tensor", "param"):
            self.err(st, "`if` on a %s" % self.what(c))
        line = st.lineno
        ind = self.ind(st) if prefix is None else ""
        hoisted = self.hoist(st, st.body + st.orelse) if prefix is None and not runtime else []
        if runtime:
            return self.runtime_if(st, c, prefix)
        self.scope.push()
        self.block(st.body)
        self.scope.pop()
        head = "if (%s) {" % strip_paren(c.c)
        if st.orelse:
            el, is_elif = self.else_line(st)
            if is_elif and len(st.orelse) == 1 and isinstance(st.orelse[0], ast.If):
                self.emit(el, self.ind(st) + "} else ")
                self.p.last = max(self.p.last, el)
                self.s_If(st.orelse[0], prefix=True)
            else:
                self.emit(el, self.ind(st) + "} else {")
                self.p.last = max(self.p.last, el)
                self.scope.push()
                self.block(st.orelse)
                self.scope.pop()
                self.p.close(self.ind(st))
        else:
            self.p.close(self.ind(st))
        self.p.put(line, ind + self.hoisted_decls(hoisted, st) + head, front=prefix is None)

    def runtime_if(self, st, c, prefix):
        before = list(self.pyorder)
        then_n = assigned_names_inline(st.body)
        else_n = assigned_names_inline(st.orelse)
        both_all = assigned_names(st.body + st.orelse)
        live = [n for n in before if n in both_all and self.is_tensor_var(n)]
        new = sorted((set(then_n) & set(else_n)) - set(before))
        new_decl = [n for n in new if self.scope.lookup(n) is None]
        for n in new_decl:
            self.scope.declare(n, "tensor")
        for n in new:
            if self.scope.lookup(n) == "pending":
                self.pending[n] = "tensor"
        after = self.after()
        for n in set(then_n) ^ set(else_n):
            if n not in before and self.scope.lookup(n) is None and first_use(after, n) == "load":
                self.err(st, "`%s` is assigned in one branch of a runtime `if` only and used after it: "
                             "Python refuses it too" % n)
        carried = live + new
        self.check_count(carried, st, "TL_IF")
        self.runtime.append("if")
        self.scope.push()
        self.block(st.body)
        self.scope.pop()
        self.pyorder = list(before)
        if st.orelse:
            el, is_elif = self.else_line(st)
            if is_elif and len(st.orelse) == 1 and isinstance(st.orelse[0], ast.If):
                self.emit(el, self.ind(st) + "} TL_ELSE ")
                self.p.last = max(self.p.last, el)
                self.s_If(st.orelse[0], prefix=True)
            else:
                self.emit(el, self.ind(st) + "} TL_ELSE {")
                self.p.last = max(self.p.last, el)
                self.scope.push()
                self.block(st.orelse)
                self.scope.pop()
                self.p.close(self.ind(st))
        else:
            self.p.close(self.ind(st))
        self.runtime.pop()
        self.pyorder = before + [n for n in new if n not in before]
        decl = "".join("tl_tensor %s = TL_NONE; " % cname(n) for n in new_decl)
        if decl and prefix:
            self.err(st, "this `elif` defines %s in both its branches: write it as `else:` and a "
                         "nested `if`" % ", ".join("`%s`" % n for n in new_decl))
        head = "TL_IF(%s) {" % ", ".join([strip_paren(self.as_t(c, st))] + [cname(n) for n in carried])
        self.p.put(st.lineno, ("" if prefix else self.ind(st)) + decl + head, front=not prefix)

    def is_tensor_var(self, n):
        k = self.scope.lookup(n)
        if k == "pending":
            return self.pending.get(n) == "tensor"
        return k in ("tensor", "param")

    def check_count(self, names, st, mac):
        lim = self.p.max_args
        if len(names) > lim:
            self.err(st, "%d carried variables: %s takes at most %d (%s)" %
                     (len(names), mac, lim, ", ".join(names)))

    def loop_carried(self, body, exclude):
        assigned = assigned_names(body)
        return [n for n in self.pyorder if n in assigned and n != exclude and self.is_tensor_var(n)]

    def check_loop_defs(self, st, before):
        after = self.after()
        for n in assigned_names(st.body):
            if n in before or self.scope.lookup(n) is not None:
                continue
            if first_use(after, n) == "load":
                self.err(st, "`%s` is first assigned inside the runtime loop and used after it: "
                             "Python refuses it too (it is not a loop-carried value)" % n)
        for n in assigned_names(st.body):
            k = self.scope.lookup(n)
            if n in before and k in CX_CTYPE:
                self.err(st, "the constexpr `%s` is reassigned in a runtime loop: Python refuses it "
                             "too (loop-carried variables must be tensors)" % n)

    def s_For(self, st):
        if st.orelse:
            self.err(st, "`for ... else` has no C counterpart")
        if not isinstance(st.target, ast.Name):
            self.err(st, "a `for` target must be one name")
        it = st.iter
        if not isinstance(it, ast.Call):
            self.err(st, "`for` over `%s`: only range(), tl.range() and tl.static_range() loops" %
                     self.seg(it))
        fv = self.expr(it.func)
        if fv.kind == "builtin" and fv.name == "static_range":
            return self.static_for(st, it)
        if not ((fv.kind == "builtin" and fv.name == "range") or (fv.kind == "pybuiltin" and fv.name == "range")):
            self.err(st, "`for` over `%s`: only range(), tl.range() and tl.static_range() loops" %
                     self.seg(it))
        tl_range = fv.kind == "builtin"
        if not tl_range and it.keywords:
            self.err(st, "keyword arguments to Python's range()")
        args = [self.expr(a) for a in it.args]
        if not 1 <= len(args) <= 3:
            self.err(st, "range() takes 1 to 3 arguments")
        # Python's builtin range is tl_pyrange (as many arguments: range(n) evaluates n
        # twice, as Triton's code generator does); tl.range is tl_range(start, end, step)
        if tl_range and len(args) == 1:
            args = [V("0", "int", ops=False), args[0]]
        if tl_range and len(args) == 2:
            args.append(V("1", "int", ops=False))
        opts = []
        optspec = {"num_stages": "i", "loop_unroll_factor": "i", "disallow_acc_multi_buffer": "b",
                   "flatten": "b", "warp_specialize": "b", "disable_licm": "b"}
        for kw in it.keywords:
            if kw.arg not in optspec:
                self.err(st, "tl.range has no option `%s` in ctriton's kernel language" % kw.arg)
            opts.append(".%s = %s" % (kw.arg, self.as_kind(self.expr(kw.value), optspec[kw.arg], kw.value)))
        rng = "%s(%s)" % ("tl_range" if tl_range else "tl_pyrange",
                          ", ".join([self.as_t(a, st) for a in args] + opts))
        tgt = st.target.id
        before = list(self.pyorder)
        if tgt not in self.pyorder:
            self.pyorder.append(tgt)
        carried = self.loop_carried(st.body, tgt)
        self.check_count(carried, st, "TL_FOR")
        self.check_loop_defs(st, before + [tgt])
        self.runtime.append("for")
        self.scope.push()
        self.scope.declare(tgt, "tensor")
        snap = list(self.pyorder)
        self.block(st.body)
        self.pyorder = snap
        self.scope.pop()
        self.runtime.pop()
        self.p.close(self.ind(st))
        self.p.put(st.lineno, self.ind(st) + "TL_FOR(%s) {" % ", ".join([cname(tgt), rng] +
                                                                         [cname(n) for n in carried]),
                   front=True)

    def static_for(self, st, it):
        if it.keywords:
            self.err(st, "tl.static_range's options have no C counterpart")
        args = [self.cxval(self.expr(a)) for a in it.args]
        if not all(a.kind == "int" for a in args) or not 1 <= len(args) <= 3:
            self.err(st, "tl.static_range takes 1 to 3 constexpr ints")
        if len(args) == 1:
            args = [V("0", "int", ops=False), args[0]]
        step = args[2].c if len(args) == 3 else "1"
        tgt = cname(st.target.id)
        hoisted = self.hoist(st, st.body)
        if step == "1":
            inc = "%s++" % tgt
            cond = "<"
        elif re.fullmatch(r"-\d+", step):
            inc, cond = "%s -= %s" % (tgt, step[1:]), ">"
        elif re.fullmatch(r"\d+", step):
            inc, cond = "%s += %s" % (tgt, step), "<"
        else:
            inc, cond = "%s += %s" % (tgt, step), "%s > 0 ? %s < %s : %s > %s" % (step, tgt, args[1].c, tgt,
                                                                                 args[1].c)
        if st.target.id not in self.pyorder:
            self.pyorder.append(st.target.id)
        self.scope.push()
        self.scope.declare(st.target.id, "int")
        self.block(st.body)
        self.scope.pop()
        self.p.close(self.ind(st))
        test = "%s %s %s" % (tgt, cond, args[1].c) if cond in ("<", ">") else cond
        self.p.put(st.lineno, self.ind(st) + self.hoisted_decls(hoisted, st) +
                   "for (int %s = %s; %s; %s) {" % (tgt, args[0].c, test, inc), front=True)

    def s_While(self, st):
        if st.orelse:
            self.err(st, "`while ... else` has no C counterpart")
        c = self.expr(st.test)
        before = list(self.pyorder)
        carried = self.loop_carried(st.body, None)
        self.check_count(carried, st, "TL_WHILE")
        self.check_loop_defs(st, before)
        self.runtime.append("while")
        self.scope.push()
        self.block(st.body)
        self.scope.pop()
        self.pyorder = before
        self.runtime.pop()
        self.p.close(self.ind(st))
        self.p.put(st.lineno, self.ind(st) + "TL_WHILE(%s) {" % ", ".join(
            [strip_paren(self.as_t(c, st))] + [cname(n) for n in carried]), front=True)

    def s_Return(self, st):
        if any(r in ("for", "while") for r in self.runtime):
            self.err(st, "`return` inside a runtime loop: Triton does not support it either")
        inside_if = "if" in self.runtime
        f = self.f
        if f.is_kernel:
            if st.value is not None and not (isinstance(st.value, ast.Constant) and st.value.value is None):
                self.err(st, "a kernel cannot return a value")
            self.say(st, "TL_RETURN();" if inside_if else "return;")
            return
        if st.value is None:
            vals = []
        else:
            v = self.expr(st.value)
            if v.kind == "tuple":
                vals = [self.as_t(e, st) for e in v.elems]
            else:
                vals = [self.as_T(v, st) if v.kind not in ("tuplecall", "tuplevar") else v.c]
        if inside_if:
            self.say(st, "TL_RETURN(%s);" % ", ".join(vals))
            return
        if f.returns_tuple:
            if st.value is not None and isinstance(st.value, ast.Tuple):
                self.say(st, "return tl_tuple(%s);" % ", ".join(vals))
            elif vals:
                self.say(st, "return %s;" % strip_paren(vals[0]))
            else:
                self.say(st, "return (tl_tuple_t){0};")
            return
        self.say(st, "return %s;" % (strip_paren(vals[0]) if vals else "TL_NONE"))


def assigned_names_inline(stmts):
    """Names a block defines for Python's runtime `if` (then_defs/else_defs): assignments
    of the block and of its nested ifs, not those inside nested runtime loops."""
    out = []
    for st in stmts:
        if isinstance(st, (ast.For, ast.While)):
            continue
        if isinstance(st, ast.If):
            for n in assigned_names_inline(st.body) + assigned_names_inline(st.orelse):
                if n not in out:
                    out.append(n)
            continue
        for n in assigned_names([st]):
            if n not in out:
                out.append(n)
    return out


def strip_paren(s):
    return s


def dotted_name(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


# ---- the module: pre-passes, functions, output ----------------------------------------
def _put(self, line, text, front=False):
    parts = re.split(NL + r"(\d+)" + NL, text)
    pieces = [(line, parts[0])]
    for i in range(1, len(parts), 2):
        n = int(parts[i])
        if n <= pieces[-1][0]:
            pieces[-1] = (pieces[-1][0], pieces[-1][1] + parts[i + 1])
        else:
            lead = re.match(r"\s*", self.lines[n - 1]).group(0) if n <= len(self.lines) else ""
            pieces[-1] = (pieces[-1][0], pieces[-1][1].rstrip())
            pieces.append((n, lead + parts[i + 1].lstrip()))
    for n, t in pieces:
        if n in self.out and self.out[n].strip():
            self.out[n] = (t.rstrip() + " " + self.out[n].lstrip()) if front else \
                (self.out[n].rstrip() + " " + t.strip())
        else:
            self.out[n] = t
        self.last = max(self.last, n)


def _close(self, indent, text="}"):
    n = self.last + 1
    if (n > len(self.lines) or not self.lines[n - 1].strip()) and n not in self.out:
        self.out[n] = indent + text
        self.last = n
    else:
        self.out[self.last] = self.out.get(self.last, "").rstrip() + " " + text


def _need_helper(self, name, caller, node):
    h = self.funcs[name]
    if h.node.lineno > caller.node.lineno:
        raise PortError(node, "`%s` calls `%s`, which is defined after it: C needs a helper defined "
                              "before its callers (move `%s` above `%s`)" % (caller.name, name, name,
                                                                              caller.name))
    if name not in self.selected:
        raise PortError(node, "internal: `%s` was not selected" % name)


Porter.put = _put
Porter.close = _close
Porter.need_helper = _need_helper


def calls_in(fnode, funcs):
    """The @jit functions a function calls or passes (combine functions), in order."""
    out = []
    for n in ast.walk(fnode):
        if isinstance(n, ast.Name) and n.id in funcs and n.id != fnode.name and n.id not in out:
            out.append(n.id)
    return out


def _prepare(self, kernels):
    self.scan_module()
    funcs = self.funcs
    if not funcs:
        raise PortError(None, "no @triton.jit function in the file")
    used_as_helper = set()
    for f in funcs.values():
        used_as_helper.update(calls_in(f.node, funcs))
    if kernels:
        for k in kernels:
            if k not in funcs:
                raise PortError(None, "no @triton.jit function `%s` in the file (it has: %s)" %
                                (k, ", ".join(self.order)))
        roots = list(kernels)
    else:
        roots = [n for n in self.order if n not in used_as_helper] or list(self.order)
    sel = []
    todo = list(roots)
    while todo:
        n = todo.pop()
        if n in sel:
            continue
        sel.append(n)
        todo.extend(calls_in(funcs[n].node, funcs))
    self.selected = set(sel)
    for n in self.order:
        funcs[n].is_kernel = n in roots
    # tuple-returning helpers (fixpoint through helpers returning helpers' tuples)
    changed = True
    while changed:
        changed = False
        for f in funcs.values():
            if f.returns_tuple:
                continue
            for r in ast.walk(f.node):
                if isinstance(r, ast.Return) and r.value is not None:
                    v = r.value
                    if isinstance(v, ast.Tuple) or (isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                                                    and v.func.id in funcs and funcs[v.func.id].returns_tuple):
                        f.returns_tuple = True
                        changed = True
                        break
    for n in self.order:
        if funcs[n].is_kernel:
            infer_cx_kinds(self, funcs[n])
    for f in funcs.values():
        f.call_cx = {}
    for _ in range(3):
        infer_call_cx(self)


def syntactic_kind(porter, f, node):
    if isinstance(node, ast.Constant):
        v = node.value
        return {bool: "bool", int: "int", float: "float", str: "str", type(None): "none"}.get(type(v), "tensor")
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return syntactic_kind(porter, f, node.operand)
    if isinstance(node, ast.Attribute):
        d = dotted_name(node)
        if d and d.split(".")[-1] in DTYPES:
            return "dtype"
        return "tensor"
    if isinstance(node, ast.Name):
        if node.id in porter.globals:
            return porter.globals[node.id].kind
        if node.id in porter.aliases and porter.aliases[node.id][0] == "dtype":
            return "dtype"
        if f.is_kernel and node.id in f.cx_kinds:
            return f.cx_kinds[node.id]
        if not f.is_kernel and node.id in f.params:
            return getattr(f, "call_cx", {}).get(node.id) or "tensor"
        return "tensor"
    if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
        kids = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
        ks = [syntactic_kind(porter, f, c) for c in kids]
        if all(k in ("int", "float", "bool") for k in ks):
            return "float" if "float" in ks else ("bool" if isinstance(node, (ast.Compare, ast.BoolOp)) else "int")
        return "tensor"
    return "tensor"


def infer_call_cx(porter):
    funcs = porter.funcs
    seen = {n: {} for n in funcs}
    for f in funcs.values():
        for c in ast.walk(f.node):
            if not isinstance(c, ast.Call):
                continue
            fn = c.func
            if isinstance(fn, ast.Name) and fn.id in funcs:
                h = funcs[fn.id]
                for i, a in enumerate(c.args):
                    if i < len(h.params):
                        seen[h.name].setdefault(h.params[i], set()).add(syntactic_kind(porter, f, a))
                for kw in c.keywords:
                    if kw.arg in h.params:
                        seen[h.name].setdefault(kw.arg, set()).add(syntactic_kind(porter, f, kw.value))
            # helpers passed as functions take tensors
            for a in c.args:
                if isinstance(a, ast.Name) and a.id in funcs:
                    for p in funcs[a.id].params:
                        seen[a.id].setdefault(p, set()).add("tensor")
    for n, params in seen.items():
        h = funcs[n]
        for p in h.params:
            ks = params.get(p, set())
            if h.defaults.get(p) is not None:
                ks = ks | {syntactic_kind(porter, h, h.defaults[p])}
            ks = set(ks)
            if not ks or "tensor" in ks:
                h.call_cx[p] = None
                continue
            if ks - {"none"}:
                ks.discard("none")
            if ks <= {"int", "float"} and len(ks) == 2:
                ks = {"float"}
            h.call_cx[p] = ks.pop() if len(ks) == 1 else None
            if h.call_cx[p] == "none":
                h.call_cx[p] = "str"


def infer_cx_kinds(porter, f):
    """The C type of each constexpr parameter: from the configs, the default, the uses."""
    evidence = {p: set() for p in f.constexpr}
    for cfg in porter.configs.get(f.name, []):
        for name, val in parse_constexprs(cfg.get("constexprs", "")):
            if name in evidence:
                evidence[name].add(config_value_kind(val))
    weak = {p: set() for p in f.constexpr}
    for p in f.constexpr:
        d = f.defaults.get(p)
        if d is not None:
            evidence[p].add(syntactic_kind(porter, f, d) if not (isinstance(d, ast.Attribute)) else "dtype")
    dtype_fields = {"dtype", "out_dtype"}
    bool_fields = {"flatten", "warp_specialize", "keep_dims", "reverse", "can_reorder", "descending",
                   "bitcast", "is_pure", "disallow_acc_multi_buffer", "disable_licm", "tie_break_left",
                   "return_indices", "sanitize_overflow"}
    for n in ast.walk(f.node):
        if isinstance(n, ast.Compare):
            sides = [n.left] + n.comparators
            names = [s.id for s in sides if isinstance(s, ast.Name) and s.id in evidence]
            strs = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
            dts = [s for s in sides if isinstance(s, ast.Attribute) and (dotted_name(s) or "").split(".")[-1] in DTYPES]
            for nm in names:
                if strs:
                    weak[nm].add("str")
                if dts:
                    weak[nm].add("dtype")
        if isinstance(n, ast.keyword) and isinstance(n.value, ast.Name) and n.value.id in evidence:
            if n.arg in dtype_fields:
                weak[n.value.id].add("dtype")
            if n.arg in bool_fields:
                weak[n.value.id].add("bool")
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("to", "cast"):
            for a in n.args[:1] if n.func.attr == "to" else n.args[1:2]:
                if isinstance(a, ast.Name) and a.id in evidence:
                    weak[a.id].add("dtype")
        if isinstance(n, ast.Call):
            d = dotted_name(n.func) or ""
            last = d.split(".")[-1]
            if last in ("zeros", "full") and n.args:
                a = n.args[-1]
                if isinstance(a, ast.Name) and a.id in evidence and len(n.args) >= (2 if last == "zeros" else 3):
                    weak[a.id].add("dtype")
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in evidence and \
                n.attr in ("primitive_bitwidth", "is_floating", "is_int", "itemsize"):
            weak[n.value.id].add("dtype")
        if isinstance(n, ast.If) and isinstance(n.test, ast.Name) and n.test.id in evidence:
            weak[n.test.id].add("bool")
        if isinstance(n, ast.BinOp):
            for s, o in ((n.left, n.right), (n.right, n.left)):
                if isinstance(s, ast.Name) and s.id in evidence and isinstance(o, ast.Constant) and \
                        isinstance(o.value, float):
                    weak[s.id].add("float")
    for p in f.constexpr:
        ks = evidence[p] - {"none"} or weak[p]
        if "none" in evidence[p] and not ks:
            ks = {"str"}
        if ks <= {"int", "float"} and len(ks) == 2:
            ks = {"float"}
        if ks <= {"int", "bool"} and len(ks) == 2:
            ks = {"int"}
        if len(ks) > 1:
            raise PortError(f.node, "the constexpr `%s` of `%s` is used as a %s: give its values in a "
                                    "config (--constexprs) to decide its C type" % (
                                        p, f.name, " and a ".join(sorted(ks))))
        k = ks.pop() if ks else "int"
        if k == "none":
            k = "str"
        f.cx_kinds[p] = k


Porter.prepare = _prepare


def _port_func(self, f):
    fp = FuncPorter(self, f)
    node = f.node
    ind = " " * node.col_offset
    line = node.lineno
    for p in f.params:
        fp.pyorder.append(p)
    if f.is_kernel:
        runtime = [p for p in f.params if p not in f.constexpr]
        for p in runtime:
            fp.scope.declare(p, "tensor")
        for p in f.constexpr:
            fp.scope.declare(p, f.cx_kinds[p])
        if len(runtime) > self.max_args or len(f.constexpr) > self.max_args:
            raise PortError(node, "`%s` has %d runtime and %d constexpr parameters: TL_KERNEL takes "
                                  "at most %d of each" % (f.name, len(runtime), len(f.constexpr),
                                                         self.max_args))
        items = [(p, cname(p)) for p in runtime]
        cx = [(p, "(%s, %s%s)" % (CX_CTYPE[f.cx_kinds[p]], cname(p), fp.cx_default(p))) for p in f.constexpr]
        head = "TL_KERNEL(%s, (%s)%s) {"
        prev = [line]

        def mark(p, s):
            ln = f.param_lines[p]
            if ln > prev[0]:
                prev[0] = ln
                return nl(ln) + s
            return s
        rt = ", ".join(mark(p, s) for p, s in items)
        cxs = "".join(", " + mark(p, s) for p, s in cx)
        text = head % (cname(f.name), rt, cxs)
    else:
        for p in f.params:
            fp.scope.declare(p, "param")
        if len(f.params) > self.max_args:
            raise PortError(node, "`%s` has %d parameters: TL_JIT takes at most %d" %
                            (f.name, len(f.params), self.max_args))
        prev = [line]

        def mark(p, s):
            ln = f.param_lines[p]
            if ln > prev[0]:
                prev[0] = ln
                return nl(ln) + s
            return s
        text = "%s(%s, (%s)) {" % ("TL_JIT_TUPLE" if f.returns_tuple else "TL_JIT", cname(f.name),
                                   ", ".join(mark(p, cname(p)) for p in f.params))
    self.last = line
    self.put(line, ind + text)
    body = list(node.body)
    fp.block(body)
    if not f.is_kernel and not isinstance(body[-1], ast.Return):
        self.out[self.last] = self.out.get(self.last, "").rstrip() + \
            (" return (tl_tuple_t){0};" if f.returns_tuple else " return TL_NONE;")
    self.close(ind)


def _render(self):
    imports = []
    skipped = []
    for st in self.tree.body:
        if isinstance(st, (ast.Import, ast.ImportFrom)):
            imports.append(st)
        elif isinstance(st, ast.FunctionDef) and st.name in self.funcs:
            if st.name in self.selected:
                self.port_func(self.funcs[st.name])
            else:
                self.put(st.lineno, "// not ported: @triton.jit %s (not asked for)" % st.name)
        elif any(st is g for g in self.global_lines.values()):
            name = [n for n, g in self.global_lines.items() if g is st][0]
            if name in self.globals:
                g = self.globals[name]
                if g.kind == "int":
                    self.put(st.lineno, "enum { %s = %s };" % (cname(name), g.c))
                else:
                    self.put(st.lineno, "static const %s %s = %s;" % (CX_CTYPE[g.kind], cname(name), g.c))
            else:
                a = self.aliases[name]
                c = a[1] if a[0] != "libdevice" else 'tl_libdevice("%s", ...)' % a[1]
                if a[0] == "builtin":
                    c = B[a[1]]["c"] if a[1] in B else a[1]
                self.put(st.lineno, "// %s = %s: written %s in C" % (
                    name, ast.get_source_segment(self.src, st.value), c))
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) and isinstance(st.value.value, str):
            pass  # the module's docstring
        else:
            skipped.append(st)
            first = self.lines[st.lineno - 1].strip()
            self.put(st.lineno, "// not ported (host code): %s" % (first if len(first) < 70 else first[:67] + "..."))
    # imports become the includes (what the ported functions need)
    inc = ["<math.h>"] if "math.h" in self.includes else []
    if "string.h" in self.includes:
        inc.append("<string.h>")
    inc.append('"ctriton/registry.h"')
    slots = [st.lineno for st in imports]
    if not slots:
        slots = [1]
        self.out[1] = "\n".join('#include %s' % i for i in inc) + ("\n" + self.out[1] if self.out.get(1) else "")
    else:
        for i, s in enumerate(slots):
            if i < len(inc):
                extra = inc[i:] if i == len(slots) - 1 else [inc[i]]
                self.out[s] = "\n".join("#include %s" % x for x in extra)
            else:
                self.out[s] = ""
    n = max([len(self.lines)] + list(self.out))
    res = []
    for i in range(1, n + 1):
        code = self.out.get(i, "")
        com = self.comments.get(i)
        if com is not None:
            text = com[1].rstrip("\\").rstrip()
            if code.strip():
                code = code.rstrip() + "  // " + text
            else:
                code = " " * com[0] + ("// " + text if text else "//")
        res.append(code.rstrip())
    while res and not res[-1]:
        res.pop()
    res.append("")
    res.append("/* Ported from %s by `ctriton port`. */" % self.display)
    for k in self.order:
        f = self.funcs[k]
        if not f.is_kernel or k not in self.selected:
            continue
        res.append(configs_text(self, f))
    return "\n".join(res) + "\n"


def configs_text(porter, f):
    cfgs = porter.configs.get(f.name)
    runtime = [p for p in f.params if p not in f.constexpr]
    rows = []
    if cfgs:
        for c in cfgs:
            fields = ['.name = %s' % c_string(c["config"] if "config" in c else c["name"]),
                      '.signature = %s' % c_string(c["signature"])]
            if c.get("constexprs"):
                fields.append(".constexprs = %s" % c_string(c["constexprs"]))
            if c.get("problem"):
                fields.append(".problem = %s" % c_string(c["problem"]))
            if c.get("num_warps"):
                fields.append(".num_warps = %d" % int(c["num_warps"]))
            if c.get("num_stages"):
                fields.append(".num_stages = %d" % int(c["num_stages"]))
            if c.get("options"):
                fields.append(".options = %s" % c_string(c["options"]))
            rows.append("    {%s}" % ", ".join(fields))
        return "TL_CONFIGS(%s,\n%s);" % (cname(f.name), ",\n".join(rows))
    ptrs = pointer_params(f)
    sig = " ".join("%s=%s" % (p, "*fp32:16" if p in ptrs else "i32") for p in runtime)
    cx = []
    for p in f.constexpr:
        d = f.defaults.get(p)
        if d is not None and isinstance(d, ast.Constant):
            v = d.value
            cx.append("%s=%s" % (p, repr(v) if isinstance(v, str) else v))
        else:
            cx.append("%s=?" % p)
    fields = ['.name = "default"', ".signature = %s" % c_string(sig)]
    if cx:
        fields.append(".constexprs = %s" % c_string(" ".join(cx)))
    return ("/* a stub: the signature's types are guesses (pointers *fp32:16, the rest i32) and a `?`\n"
            " * is a constexpr without a default; give the kernel's own (docs/porting.md) */\n"
            "TL_CONFIGS(%s, {%s});" % (cname(f.name), ", ".join(fields)))


def pointer_params(f):
    """A guess for a stub's signature: the parameters a pointer argument is based on (the
    leftmost operand of its additions, through the names assigned from them)."""
    defs = {}
    for n in ast.walk(f.node):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            defs.setdefault(n.targets[0].id, []).append(n.value)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            defs.setdefault(n.target.id, []).append(n.target)

    def base(e, seen):
        while isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)):
            e = e.left
        if isinstance(e, ast.Name):
            if e.id in f.params:
                return {e.id}
            if e.id in seen:
                return set()
            seen.add(e.id)
            out = set()
            for d in defs.get(e.id, []):
                out |= base(d, seen)
            return out
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in ("advance",):
            return base(e.args[0], seen) if e.args else set()
        return set()
    ptrs = set()
    for n in ast.walk(f.node):
        if isinstance(n, ast.Call):
            last = (dotted_name(n.func) or "").split(".")[-1]
            if isinstance(n.func, ast.Attribute):
                last = n.func.attr
            if last in ("load", "store", "make_block_ptr", "make_tensor_descriptor") or last.startswith("atomic_"):
                first = n.args[0] if n.args else None
                for kw in n.keywords:
                    if kw.arg in ("pointer", "base"):
                        first = kw.value
                if first is not None:
                    ptrs |= base(first, set())
    return ptrs


def _translate(self, kernels=None):
    self.selected = set()
    self.last = 0
    self.max_args = max_macro_args()
    self.prepare(kernels)
    return self.render()


Porter.port_func = _port_func
Porter.render = _render
Porter.translate = _translate


def find_include_dir():
    for d in (os.path.join(HERE, "..", "include"), os.path.join(HERE, "..", "..", "include")):
        if os.path.exists(os.path.join(d, "ctriton", "tl.h")):
            return os.path.normpath(d)
    return None


_max_args = []


def max_macro_args():
    """How many parameters (and carried variables) the kernel language's macros take:
    TL_MAX_ARGS of the ctriton headers beside this script (16 if not found)."""
    if not _max_args:
        n = 16
        d = find_include_dir()
        if d:
            for h in ("tl_macros.h", "tl.h"):
                path = os.path.join(d, "ctriton", h)
                text = open(path).read() if os.path.exists(path) else ""
                m = re.search(r"#define TL_MAX_ARGS (\d+)", text)
                if m:
                    n = int(m.group(1))
                    break
                m = re.search(r"#define TL__NARGS0_\(_0,([^)]*)\)", text)
                if m:
                    n = len([x for x in m.group(1).split(",") if x.strip().startswith("_")])
                    break
        _max_args.append(n)
    return _max_args[0]


# the largest Python file the port reads: the limit of ctriton's own input files (ct_read_file)
READ_LIMIT = 256 << 20


def read_source(path):
    """A Python file's text: (text, None), or (None, "FILE: why") for a file that cannot be read,
    is larger than READ_LIMIT (an endless one, /dev/zero, included) or is not UTF-8."""
    try:
        with open(path, "rb") as f:
            data = f.read(READ_LIMIT + 1)
    except OSError as e:
        return None, "%s: %s" % (path, e.strerror)
    if len(data) > READ_LIMIT:
        return None, "%s is larger than the limit of %d bytes" % (path, READ_LIMIT)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        return None, "%s:%d: not UTF-8 text (byte 0x%02x)" % (path, line, data[e.start])


def port_file(path, kernels=None, configs=None, display=None):
    """The C port of a Python file's kernels: (text, None), or (None, "FILE:LINE: message")."""
    source, err = read_source(path)
    if err:
        return None, err
    disp = display or path
    try:
        p = Porter(path, source, configs, display=disp)
        return p.translate(kernels), None
    except SyntaxError as e:
        return None, "%s:%s: Python syntax error: %s" % (disp, e.lineno, e.msg)
    except PortError as e:
        return None, "%s:%d: cannot port: %s" % (disp, e.line, e.msg)
    except (RecursionError, MemoryError):
        # Python's parser and the porter recurse over expressions: a file nested deeper than
        # Python's recursion limit is refused, never a traceback
        return None, "%s: nested too deeply to port (Python's recursion limit, %d)" % (
            disp, sys.getrecursionlimit())


# ---- building and checking ports ---------------------------------------------------------
def lib_dir(ctriton):
    """Where libctriton.so is: beside the command in a build tree, ../lib when installed."""
    d = os.path.dirname(os.path.abspath(ctriton))
    for cand in (d, os.path.join(d, "..", "lib"), os.path.join(d, "..", "lib64")):
        if os.path.exists(os.path.join(cand, "libctriton.so")):
            return os.path.normpath(cand)
    return None


def write_plugin(outdir, kernels):
    """kernels: [(name, python file)]: a registration file for a kernel plugin."""
    lines = ["/* The ported kernels as a kernel plugin (written by `ctriton port`). */",
             '#include "ctriton/registry.h"', ""]
    for k, _ in kernels:
        lines.append("TL_DECLARE_KERNEL(%s);" % cname(k))
    lines += ["", "CT_KERNEL_PLUGIN", "{"]
    for k, py in kernels:
        lines.append("    CT_REGISTER_KERNEL(%s, %s, NULL);" % (cname(k), c_string(os.path.abspath(py))))
    lines.append("}")
    path = os.path.join(outdir, "plugin__.c")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def build_plugin(sources, out, ctriton):
    inc = find_include_dir()
    lib = lib_dir(ctriton)
    if not inc or not lib:
        return "cannot find ctriton's headers (%s) or libctriton.so beside %s" % (inc, ctriton)
    cc = os.environ.get("CC", "cc")
    cmd = [cc, "-std=gnu11", "-shared", "-fPIC", "-O1", "-Wall", "-Wextra", "-Werror",
           "-Wno-unused-parameter", "-Wno-missing-field-initializers", "-Wno-override-init",
           "-Wno-unused-function", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-I", inc, "-o", out] + sources + \
        ["-L", lib, "-lctriton", "-lm", "-Wl,-rpath," + lib]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return "the C does not compile:\n" + r.stderr.strip()
    return None


def supported_releases(ctriton):
    out = subprocess.run([ctriton, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"supports ([0-9., ]+)", out)
    return [v.strip() for v in m.group(1).replace(",", " ").split() if v.strip()] if m else []


def emit(ctriton, args, kernel, config, release):
    r = subprocess.run([ctriton] + args + ["--triton", release, "emit", kernel, "--config", config],
                       capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def refusal_text(stderr):
    """A refusal without its C file and line (the hand port's and the port's differ)."""
    return re.sub(r"[\w./+-]+\.c:\d+(:\d+)?:?\s*", "", stderr).strip()


def misaligned(path, text, kernels):
    """The Python lines that start a statement of a ported function whose C line holds no code
    (the port is written line for line: each statement's C starts on its Python line)."""
    tree_ = ast.parse(open(path).read())
    c = text.splitlines()
    bad = []
    for fn in tree_.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for st in ast.walk(fn):
            if isinstance(st, ast.stmt) and not isinstance(st, (ast.Pass, ast.FunctionDef)) and \
                    not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant)):
                line = c[st.lineno - 1].strip() if st.lineno <= len(c) else ""
                if not line or line.startswith("//"):
                    if fn.name in kernels or any(fn.name in calls_in(f, {fn.name: 1}) for f in tree_.body
                                                 if isinstance(f, ast.FunctionDef) and f.name in kernels):
                        bad.append(st.lineno)
    return bad


def tree(args):
    ct = os.path.abspath(args.ctriton)
    listing = json.loads(subprocess.run(
        [ct] + sum((["--kernels", k] for k in args.kernels), []) + ["list", "--json", "--all"],
        check=True, capture_output=True, text=True).stdout)
    root = os.path.dirname(HERE)
    by_file = {}
    for k in listing:
        by_file.setdefault(k["py"], {}).setdefault(k["kernel"], []).append(k)
    os.makedirs(args.out, exist_ok=True)
    sources, kernels, failed = [], [], []
    for py, ks in by_file.items():
        path = py if os.path.isabs(py) else os.path.join(root, py)
        stem = os.path.splitext(os.path.basename(py))[0]
        text, err = port_file(path, list(ks), ks, display=py)
        if err:
            print(err, file=sys.stderr)
            failed.append(py)
            continue
        out = os.path.join(args.out, stem + ".c")
        with open(out, "w") as f:
            f.write(text)
        sources.append(out)
        kernels += [(k, path) for k in ks]
        mis = misaligned(path, text, ks)
        if mis:
            print("port-check: %s: statements not on their Python line in the C: lines %s" % (
                py, ", ".join(map(str, mis[:10]))), file=sys.stderr)
            failed.append(py)
    if failed:
        print("port-check: %d of %d files not ported" % (len(failed), len(by_file)), file=sys.stderr)
        return 1
    sources.append(write_plugin(args.out, kernels))
    so = os.path.join(args.out, "libported.so")
    e = build_plugin(sources, so, ct)
    if e:
        print("port-check: " + e, file=sys.stderr)
        return 1
    releases = args.triton or supported_releases(ct)
    hand = sum((["--kernels", os.path.abspath(k)] for k in args.kernels), [])
    port = ["--no-library", "--kernels", so]
    jobs = [(k, r) for k in listing for r in releases]

    def one(job):
        k, r = job
        a = emit(ct, hand, k["kernel"], k["config"], r)
        b = emit(ct, port, k["kernel"], k["config"], r)
        if a[0] == 0 and b[0] == 0:
            return "✓" if a[1] == b[1] else "differs"
        if a[0] and b[0]:
            return "refused alike" if refusal_text(a[2]) == refusal_text(b[2]) else \
                "refused otherwise: %s | %s" % (refusal_text(a[2])[-200:], refusal_text(b[2])[-200:])
        return "hand port %s, port %s: %s" % ("refused" if a[0] else "builds", "refused" if b[0] else "builds",
                                            (a[2] or b[2]).strip()[-300:])
    import concurrent.futures as cf
    with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        res = list(ex.map(one, jobs))
    bad = 0
    rows = {}
    for (k, r), v in zip(jobs, res):
        rows.setdefault((k["kernel"], k["config"]), {})[r] = v
        if v not in ("✓", "refused alike"):
            bad += 1
            print("port-check: %s/%s, Triton %s: %s" % (k["kernel"], k["config"], r, v), file=sys.stderr)
            if v == "differs":
                a = emit(ct, hand, k["kernel"], k["config"], r)[1].splitlines()
                b = emit(ct, port, k["kernel"], k["config"], r)[1].splitlines()
                import difflib
                sys.stderr.writelines(l + "\n" for l in list(difflib.unified_diff(
                    a, b, "hand port", "ctriton port", lineterm="", n=1))[:30])
    if not args.quiet:
        print("%-34s %-26s %s" % ("kernel", "config", "  ".join(releases)))
        for (kn, cf_), rr in rows.items():
            print("%-34s %-26s %s" % (kn, cf_, "  ".join(
                ("%-5s" % ("✓" if rr[r] == "✓" else "r" if rr[r] == "refused alike" else "✗")) for r in releases)))
    n = len(rows)
    ok = sum(1 for rr in rows.values() if all(v in ("✓", "refused alike") for v in rr.values()))
    print("port-check: %d/%d configs of %d files ported with no edit (each statement on its Python line), the same TTIR as the hand port for "
          "Triton %s (r: refused alike)" % (ok, n, len(by_file), ", ".join(releases)))
    rc = 1 if bad else 0
    if args.errors:
        rc = errors(args) or rc
    if args.unseen:
        rc = unseen(args, ct) or rc
    return rc


def read_configs(path):
    """`# config: KERNEL NAME | SIGNATURE | CONSTEXPRS [| NUM_WARPS NUM_STAGES]` lines of a file."""
    out = {}
    for line in open(path):
        m = re.match(r"#\s*config:\s*(\w+)\s+(\w+)\s*\|([^|]*)\|([^|]*)(?:\|\s*(\d+)\s+(\d+))?", line)
        if m:
            out.setdefault(m.group(1), []).append({
                "config": m.group(2), "signature": m.group(3).strip(), "constexprs": m.group(4).strip(),
                "num_warps": int(m.group(5) or 4), "num_stages": int(m.group(6) or 3)})
    return out


def unseen(args, ct):
    """Kernels the tree has no hand port of (their configs in `# config:` lines): ported,
    built as one plugin, compared with Python at every stage by the fidelity harness, with
    each release's Python given by --release-python (default: this one)."""
    files = sorted(os.path.join(args.unseen, f) for f in os.listdir(args.unseen) if f.endswith(".py"))
    d = os.path.join(args.out, "unseen")
    os.makedirs(d, exist_ok=True)
    sources, kernels = [], []
    for path in files:
        cfgs = read_configs(path)
        if not cfgs:
            print("port-check: %s has no `# config:` line" % path, file=sys.stderr)
            return 1
        text, err = port_file(path, list(cfgs), cfgs)
        if err:
            print("port-check: " + err, file=sys.stderr)
            return 1
        out = os.path.join(d, os.path.splitext(os.path.basename(path))[0] + ".c")
        with open(out, "w") as f:
            f.write(text)
        sources.append(out)
        kernels += [(k, path) for k in cfgs]
    sources.append(write_plugin(d, kernels))
    so = os.path.join(d, "libunseen.so")
    e = build_plugin(sources, so, ct)
    if e:
        print("port-check: " + e, file=sys.stderr)
        return 1
    pythons = [p.split("=", 1) for p in args.release_python] or [("this", sys.executable)]
    rc = 0
    for rel, py in pythons:
        cmd = [py, os.path.join(HERE, "fidelity.py"), "--ctriton", ct, "--no-library", "--kernels", so,
               "--golden", os.path.join(d, "golden-" + rel), "--jobs", str(args.jobs)]
        if rel != "this":
            cmd += ["--triton", rel]
        print("== ctriton port --check of %d unseen kernels (%d files), Triton %s" % (
            len(kernels), len(files), rel), flush=True)
        r = subprocess.run(cmd)
        rc = rc or r.returncode
    return rc


def errors(args):
    """Files whose first line says `# expect: LINE: TEXT`: porting them must fail there."""
    bad = n = 0
    for f in sorted(os.listdir(args.errors)):
        if not f.endswith(".py"):
            continue
        n += 1
        path = os.path.join(args.errors, f)
        m = re.match(r"#\s*expect:\s*(\d+):\s*(.*)", open(path).readline())
        if not m:
            print("port-check: %s has no `# expect: LINE: TEXT` first line" % path, file=sys.stderr)
            bad += 1
            continue
        text, err = port_file(path)
        want = "%s:%s: cannot port: " % (path, m.group(1))
        if text is not None or not err.startswith(want) or m.group(2).strip() not in err:
            print("port-check: %s: expected `%s...%s`, got %s" % (path, want, m.group(2).strip(),
                                                                  err or "C"), file=sys.stderr)
            bad += 1
    print("port-check: %d/%d untranslatable constructs reported at their line" % (n - bad, n))
    return 1 if bad else 0


def check(args, path, kernels, text):
    """--check: build the port as a plugin and run the fidelity harness on it."""
    ct = os.path.abspath(args.ctriton)
    with tempfile.TemporaryDirectory(prefix="ctriton-port-") as d:
        stem = os.path.splitext(os.path.basename(path))[0]
        src = os.path.join(d, stem + ".c")
        with open(src, "w") as f:
            f.write(text)
        plugin = write_plugin(d, [(k, path) for k in kernels])
        so = os.path.join(d, "libport.so")
        e = build_plugin([src, plugin], so, ct)
        if e:
            print("ctriton port --check: " + e, file=sys.stderr)
            return 1
        fid = os.path.join(HERE, "fidelity.py")
        cmd = [sys.executable, fid, "--ctriton", ct, "--no-library", "--kernels", so,
               "--golden", os.path.join(d, "golden"), "--jobs", str(args.jobs)]
        for k in kernels:
            cmd += ["--kernel", k]
        if args.verdicts:
            cmd += ["--verdicts", os.path.abspath(args.verdicts)]
        r = subprocess.run(cmd)
        if r.returncode == 0:
            print("ctriton port --check: identical to Python at llir and ptx")
        return r.returncode


def parse_target(t):
    path, _, ks = t.partition(":")
    if not path.endswith(".py") and ":" in t:
        # a path with a colon: the kernels follow the last one
        path, _, ks = t.rpartition(":")
    return path, [k for k in ks.split(",") if k] if ks else None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="ctriton port", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", nargs="?", help="FILE.py[:KERNEL,...]")
    ap.add_argument("-o", "--output", help="the C file (default: standard output)")
    ap.add_argument("--signature", help="the config's signature (x_ptr=*fp32:16 n=i32 ...)")
    ap.add_argument("--constexprs", default="", help="the config's constexprs (BLOCK=1024 ...)")
    ap.add_argument("--config-name", default="default")
    ap.add_argument("--num-warps", type=int, default=4)
    ap.add_argument("--num-stages", type=int, default=3)
    ap.add_argument("--check", action="store_true",
                    help="build the port and compare it with Python at every stage (needs Triton)")
    ap.add_argument("--ctriton", default=os.environ.get("CTRITON_COMMAND", "ctriton"),
                    help="the ctriton command (for --check and --tree)")
    ap.add_argument("--verdicts", help="--check: write the verdict table there")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--tree", action="store_true", help="port and check every Python original of the tree")
    ap.add_argument("--kernels", action="append", default=[], help="--tree: a plugin with hand ports")
    ap.add_argument("--out", default="build/port", help="--tree: where the ports go")
    ap.add_argument("--triton", action="append", help="--tree: only these releases (default: all)")
    ap.add_argument("--unseen", help="--tree: also --check the kernels of this folder (`# config:` lines)")
    ap.add_argument("--errors", help="--tree: also check the refusals of this folder (`# expect:` lines)")
    ap.add_argument("--release-python", action="append", default=[], metavar="X.Y.Z=PYTHON",
                    help="--unseen: compare with this release's Python (repeatable; default: this one)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.tree:
        return tree(args)
    if not args.target:
        ap.print_usage(sys.stderr)
        return 2
    path, kernels = parse_target(args.target)
    configs = None
    if args.signature is not None:
        if not kernels or len(kernels) != 1:
            print("ctriton port: --signature goes with one kernel (FILE.py:KERNEL)", file=sys.stderr)
            return 2
        configs = {kernels[0]: [{"config": args.config_name, "signature": args.signature,
                                 "constexprs": args.constexprs, "num_warps": args.num_warps,
                                 "num_stages": args.num_stages}]}
    if args.check and configs is None:
        print("ctriton port: --check needs FILE.py:KERNEL and --signature (and --constexprs)",
              file=sys.stderr)
        return 2
    text, err = port_file(path, kernels, configs)
    if err:
        print(err, file=sys.stderr)
        return 1
    if args.output:
        stem = os.path.splitext(os.path.basename(path))[0]
        if os.path.splitext(os.path.basename(args.output))[0] != stem:
            print("ctriton port: note: helpers are named after the C file's stem in the TTIR; `%s` "
                  "keeps them identical to Python's only as %s.c" % (args.output, stem), file=sys.stderr)
        with open(args.output, "w") as f:
            f.write(text)
    elif not args.check:
        sys.stdout.write(text)
    if args.check:
        return check(args, path, kernels, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
