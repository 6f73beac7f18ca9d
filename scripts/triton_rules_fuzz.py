#!/usr/bin/env python3
"""One-op modules with random types, Triton's verdict against ctriton's verifier.

    ~/.cache/ctriton/venv/bin/python scripts/triton_rules_fuzz.py [-n 2000] [--seed 1] [--ops split,cat]

A developer's check beside scripts/triton_lit.py (whose Triton and ctriton
wrappers it uses): for N rounds, pick an op (tt.splat ... tt.scan, the arith
casts, loads, stores, atomics, descriptor accesses, inline asm), give it
operand and result types drawn near a valid typing (a dimension changed, a
rank added or dropped, another element type), wrap it in a function whose
arguments are the operands (so that only the op's own rules decide), and ask
Triton 3.6 (in a forked child: Triton aborts on a few inputs) and ctriton
whether the module is valid.  Prints the first modules of each disagreement:

  Triton rejects, ctriton accepts   a rule the verifier lacks (exit status 1)
  Triton accepts, ctriton refuses   ctriton stricter than Triton's verifier; the
                                    known cases are listed in
                                    tests/text/rules/refused.mlir (histogram bins,
                                    cat shapes, atomic results, descriptor index
                                    counts, reduce axes)

The rules it found missing have a module each in tests/text/rules/reject.mlir.
"""
import argparse
import collections
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_lit  # noqa: E402

R = random.Random(1)


def forked_error(tri, text):
    """Triton's verdict (None: accepted) from a forked child, "CRASH" when the child dies."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        e = tri.error(text)
        os.write(w, ("OK" if e is None else "ER" + e).encode()[:4000])
        os._exit(0)
    os.close(w)
    data = b""
    while True:
        c = os.read(r, 4096)
        if not c:
            break
        data += c
    os.close(r)
    os.waitpid(pid, 0)
    d = data.decode("utf-8", "replace")
    return None if d == "OK" else d[2:] if d.startswith("ER") else "CRASH"


ELEMS = ["f32", "f16", "bf16", "f64", "i32", "i64", "i16", "i8", "i1"]
PTRS = ["!tt.ptr<f32>", "!tt.ptr<f16>", "!tt.ptr<i32>", "!tt.ptr<i8>"]
def rshape(rank=None):
    if rank is None: rank = R.choice([0, 1, 1, 2, 2, 3])
    return [R.choice([1, 2, 4, 8, 16]) for _ in range(rank)]
def ty(shape, e):
    if shape is None: return e
    return "tensor<" + "".join("%dx" % d for d in shape) + e + ">"
def pert_shape(s):
    s = list(s) if s is not None else None
    c = R.randrange(6)
    if c == 0 or s is None: return s
    if c == 1 and s: i = R.randrange(len(s)); s[i] = R.choice([1, 2, 4, 8, 16]); return s
    if c == 2: return s + [R.choice([1, 2])]
    if c == 3 and s: return s[:-1]
    if c == 4: return None
    return s
def pert_elem(e, pool=ELEMS):
    return e if R.random() < 0.6 else R.choice(pool)
def anyshape():
    return None if R.random() < 0.2 else rshape()

def gen(op):
    """(args [(name,type)], op line)"""
    E = R.choice(ELEMS); S = anyshape()
    if op == "splat":
        a = ty(R.choice([None, [], None]), E); r = ty(pert_shape(rshape()), pert_elem(E))
        return [("a", a)], "%%r = tt.splat %%a : %s -> %s" % (a, r)
    if op == "broadcast":
        s = rshape(); a = ty(s, E); rs = [d if R.random() < .5 else R.choice([d, 4, 8]) for d in s]
        r = ty(pert_shape(rs), pert_elem(E))
        return [("a", a)], "%%r = tt.broadcast %%a : %s -> %s" % (a, r)
    if op == "expand_dims":
        s = rshape(); ax = R.randrange(len(s) + 2); rs = list(s); rs.insert(min(ax, len(s)), 1)
        a = ty(s, E); r = ty(pert_shape(rs), pert_elem(E))
        return [("a", a)], "%%r = tt.expand_dims %%a {axis = %d : i32} : %s -> %s" % (ax, a, r)
    if op == "reshape":
        s = rshape(); a = ty(s, E); r = ty(pert_shape(list(reversed(s))), pert_elem(E))
        return [("a", a)], "%%r = tt.reshape %%a%s : %s -> %s" % (R.choice(["", " allow_reorder"]), a, r)
    if op == "trans":
        s = rshape(R.choice([1, 2, 3])); perm = list(range(len(s))); R.shuffle(perm)
        if R.random() < 0.2: perm[0] = R.randrange(len(s) + 1)
        if R.random() < 0.1: perm = perm[:-1]
        rs = [s[p] if p < len(s) else 1 for p in perm]
        a = ty(s, E); r = ty(pert_shape(rs), pert_elem(E))
        return [("a", a)], "%%r = tt.trans %%a {order = array<i32: %s>} : %s -> %s" % (", ".join(map(str, perm)), a, r)
    if op == "join":
        s = R.choice([[], rshape()]); a = ty(s, E); r = ty(pert_shape(s + [2]), pert_elem(E))
        return [("a", a), ("b", a)], "%%r = tt.join %%a, %%b : %s -> %s" % (a, r)
    if op == "split":
        s = rshape(R.choice([1, 2, 3])); s[-1] = R.choice([2, 2, 4]); a = ty(s, E); r = ty(pert_shape(s[:-1]), pert_elem(E))
        return [("a", a)], "%%r, %%s = tt.split %%a : %s -> %s" % (a, r)
    if op == "cat":
        s = rshape(R.choice([1, 2])); a = ty(s, E); rs = list(s); rs[0] *= 2; r = ty(pert_shape(rs), pert_elem(E))
        return [("a", a), ("b", a)], "%%r = tt.cat %%a, %%b : %s -> %s" % (a, r)
    if op == "unsplat":
        s = R.choice([[1], [1, 1], [2], [], [1, 2]]); a = ty(s, E)
        return [("a", a)], "%%r = tt.unsplat %%a : %s" % a
    if op == "histogram":
        a = ty(pert_shape(rshape(1)), pert_elem("i32")); r = ty(pert_shape(rshape(1)), pert_elem("i32"))
        return [("a", a)], "%%r = tt.histogram %%a : %s -> %s" % (a, r)
    if op == "gather":
        s = rshape(R.choice([1, 2, 3])); ax = R.randrange(len(s) + 1); i = list(s)
        if ax < len(s): i[ax] = R.choice([1, 2, 4, 8])
        idx = ty(pert_shape(i), pert_elem("i32")); src = ty(s, E); r = ty(pert_shape(i), pert_elem(E))
        return [("a", src), ("i", idx)], "%%r = tt.gather %%a[%%i] {axis = %d : i32} : (%s, %s) -> %s" % (ax, src, idx, r)
    if op == "addptr":
        s = anyshape(); P = R.choice(PTRS); p = ty(s, P); o = ty(pert_shape(s), pert_elem("i32", ["i32", "i64", "i16", "f32", "i1"]))
        return [("p", p), ("o", o)], "%%r = tt.addptr %%p, %%o : %s, %s" % (p, o)
    if op == "fp_to_fp":
        s = anyshape(); fl = ["f32", "f16", "bf16", "f8E4M3FN", "f8E5M2", "f64"]
        a = ty(s, R.choice(fl)); r = ty(pert_shape(s), R.choice(fl))
        rnd = R.choice(["", ", rounding = rtne", ", rounding = rtz"])
        return [("a", a)], "%%r = tt.fp_to_fp %%a%s : %s -> %s" % (rnd, a, r)
    if op == "bitcast":
        s = anyshape(); a = ty(s, R.choice(ELEMS + PTRS)); r = ty(pert_shape(s), R.choice(ELEMS + PTRS))
        return [("a", a)], "%%r = tt.bitcast %%a : %s -> %s" % (a, r)
    if op == "int_to_ptr":
        s = anyshape(); a = ty(s, pert_elem("i64")); r = ty(pert_shape(s), R.choice(PTRS + ["i64"]))
        return [("a", a)], "%%r = tt.int_to_ptr %%a : %s -> %s" % (a, r)
    if op == "ptr_to_int":
        s = anyshape(); a = ty(s, R.choice(PTRS + ["i64"])); r = ty(pert_shape(s), pert_elem("i64"))
        return [("a", a)], "%%r = tt.ptr_to_int %%a : %s -> %s" % (a, r)
    if op == "dot":
        M, N_, K = [R.choice([16, 32, 64]) for _ in range(3)]
        ae = R.choice(["f16", "f32", "bf16", "i8", "f8E4M3FN"]); ce = R.choice(["f32", "f16", "i32"])
        a = ty(pert_shape([M, K]), pert_elem(ae)); b = ty(pert_shape([K, N_]), pert_elem(ae)); c = ty(pert_shape([M, N_]), ce)
        prec = R.choice(["", ", inputPrecision = tf32", ", inputPrecision = ieee"])
        return [("a", a), ("b", b), ("c", c)], "%%r = tt.dot %%a, %%b, %%c%s : %s * %s -> %s" % (prec, a, b, c)
    if op == "mulhiu":
        a = ty(S, pert_elem("i32")); b = ty(pert_shape(S), pert_elem("i32"))
        return [("a", a), ("b", b)], "%%r = tt.mulhiu %%a, %%b : %s" % a
    if op == "precise_sqrt":
        a = ty(S, E)
        return [("a", a)], "%%r = tt.precise_sqrt %%a : %s" % a
    if op == "clampf":
        a = ty(S, E)
        return [("a", a), ("b", a), ("c", a)], "%%r = tt.clampf %%a, %%b, %%c, propagateNan = %s : %s" % (R.choice(["none", "all"]), a)
    if op in ("extf", "truncf", "extsi", "extui", "trunci", "sitofp", "uitofp", "fptosi", "fptoui", "bitcast_arith", "index_cast"):
        a = ty(S, R.choice(ELEMS + ["index"])); r = ty(pert_shape(S), R.choice(ELEMS + ["index"]))
        name = "bitcast" if op == "bitcast_arith" else op
        return [("a", a)], "%%r = arith.%s %%a : %s to %s" % (name, a, r)
    if op == "select":
        c = ty(R.choice([None, S, pert_shape(S)]), pert_elem("i1")); a = ty(S, E)
        return [("c", c), ("a", a), ("b", a)], "%%r = arith.select %%c, %%a, %%b : %s, %s" % (c, a)
    if op == "load":
        s = anyshape(); P = R.choice(PTRS); p = ty(s, P); pe = P[8:-1]
        m = ty(pert_shape(s), pert_elem("i1")); o = ty(pert_shape(s), pert_elem(pe))
        k = R.randrange(3)
        args = [("p", p)] + ([("m", m)] if k >= 1 else []) + ([("o", o)] if k >= 2 else [])
        return args, "%%r = tt.load %s : %s" % (", ".join("%" + n for n, _ in args), p)
    if op == "store":
        s = anyshape(); P = R.choice(PTRS); p = ty(s, P); pe = P[8:-1]
        v = ty(pert_shape(s), pert_elem(pe)); m = ty(pert_shape(s), pert_elem("i1"))
        args = [("p", p), ("v", v)] + ([("m", m)] if R.random() < .5 else [])
        return args, "tt.store %s : %s" % (", ".join("%" + n for n, _ in args), p)
    if op == "atomic_rmw":
        s = anyshape(); P = R.choice(PTRS); pe = P[8:-1]; p = ty(s, P); v = ty(pert_shape(s), pert_elem(pe)); m = ty(pert_shape(s), pert_elem("i1")); r = ty(pert_shape(s), pert_elem(pe))
        kind = R.choice(["fadd", "add", "max", "umax", "xchg", "and"])
        return [("p", p), ("v", v), ("m", m)], "%%r = tt.atomic_rmw %s, acq_rel, gpu, %%p, %%v, %%m : (%s, %s, %s) -> %s" % (kind, p, v, m, r)
    if op == "atomic_cas":
        s = anyshape(); P = R.choice(PTRS); pe = P[8:-1]; p = ty(s, P); c = ty(pert_shape(s), pert_elem(pe)); v = ty(pert_shape(s), pert_elem(pe)); r = ty(pert_shape(s), pert_elem(pe))
        return [("p", p), ("c", c), ("v", v)], "%%r = tt.atomic_cas acq_rel, gpu, %%p, %%c, %%v : (%s, %s, %s) -> %s" % (p, c, v, r)
    if op == "make_range":
        st = R.choice([0, 0, 1, 4, -1]); en = st + R.choice([1, 2, 4, 8, 16, 0, -2]); r = ty(pert_shape([en - st if en > st else 4]), pert_elem("i32"))
        return [], "%%r = tt.make_range {end = %d : i32, start = %d : i32} : %s" % (en, st, r)
    if op in ("descriptor_load", "descriptor_store"):
        bs = rshape(R.choice([1, 2, 3])); be = R.choice(["f32", "f16", "i32", "i8"]); d = "!tt.tensordesc<%s>" % ty(bs, be)
        tshape = pert_shape(bs) or [4]
        if R.random() < .3 and bs[0] == 1: tshape = bs[1:] or [1]
        t = ty(tshape, pert_elem(be)); idx = ", ".join("%%i%d" % j for j in range(len(bs) if R.random() < .9 else len(bs) + 1))
        args = [("d", d)] + [("i%d" % j, "i32") for j in range(len(bs) + 1)]
        if op == "descriptor_load":
            return args, "%%r = tt.descriptor_load %%d[%s] : %s -> %s" % (idx, d, t)
        return args + [("v", t)], "tt.descriptor_store %%d[%s], %%v : %s, %s" % (idx, d, t)
    if op == "descriptor_gather":
        bs = [R.choice([1, 1, 2]), R.choice([32, 64, 128])]; be = R.choice(["bf16", "f32", "i8", "f64"]); d = "!tt.tensordesc<%s>" % ty(bs, be)
        n = R.choice([4, 8, 16]); x = ty(pert_shape([n]), pert_elem("i32")); r = ty(pert_shape([n, bs[1]]), pert_elem(be))
        return [("d", d), ("x", x), ("y", "i32")], "%%r = tt.descriptor_gather %%d[%%x, %%y] : (%s, %s, i32) -> %s" % (d, x, r)
    if op == "inline_asm":
        a = ty(S, pert_elem("i32")); b = ty(pert_shape(S), pert_elem("i32")); r = ty(pert_shape(S), pert_elem("i32"))
        pk = R.choice([1, 2, 4, 3])
        return [("a", a), ("b", b)], '%%r = tt.elementwise_inline_asm "add.s32 $0, $1, $2;" {constraints = "=r,r,r", packed_element = %d : i32, pure = true} %%a, %%b : %s, %s -> %s' % (pk, a, b, r)
    if op == "extern":
        a = ty(S, pert_elem("f32")); b = ty(pert_shape(S), pert_elem("f32")); r = ty(pert_shape(S), pert_elem("f32"))
        return [("a", a), ("b", b)], '%%r = tt.extern_elementwise %%a, %%b {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (%s, %s) -> %s' % (a, b, r)
    if op == "reduce":
        s = rshape(R.choice([1, 2, 3])); ax = R.randrange(len(s)); e = R.choice(["f32", "i32"])
        rs = s[:ax] + s[ax + 1:]; r = ty(pert_shape(rs) if rs else None, pert_elem(e))
        if not rs and R.random() < .8: r = e
        a = ty(s, e)
        comb = "arith.addf" if e == "f32" else "arith.addi"
        return [("a", a)], '%%r = "tt.reduce"(%%a) <{axis = %d : i32}> ({\n    ^bb0(%%x: %s, %%y: %s):\n      %%z = %s %%x, %%y : %s\n      tt.reduce.return %%z : %s\n    }) : (%s) -> %s' % (ax, e, e, comb, e, e, a, r)
    if op == "scan":
        s = rshape(R.choice([1, 2, 3])); ax = R.randrange(len(s)); e = R.choice(["f32", "i32"])
        r = ty(pert_shape(s), pert_elem(e)); a = ty(s, e)
        comb = "arith.addf" if e == "f32" else "arith.addi"
        return [("a", a)], '%%r = "tt.scan"(%%a) <{axis = %d : i32, reverse = false}> ({\n    ^bb0(%%x: %s, %%y: %s):\n      %%z = %s %%x, %%y : %s\n      tt.scan.return %%z : %s\n    }) : (%s) -> %s' % (ax, e, e, comb, e, e, a, r)
    raise KeyError(op)

OPS = ["splat", "broadcast", "expand_dims", "reshape", "trans", "join", "split", "cat", "unsplat", "histogram",
       "gather", "addptr", "fp_to_fp", "bitcast", "int_to_ptr", "ptr_to_int", "dot", "mulhiu", "precise_sqrt",
       "clampf", "extf", "truncf", "extsi", "extui", "trunci", "sitofp", "uitofp", "fptosi", "fptoui",
       "bitcast_arith", "index_cast", "select", "load", "store", "atomic_rmw", "atomic_cas", "make_range",
       "descriptor_load", "descriptor_store", "descriptor_gather", "inline_asm", "extern", "reduce", "scan"]


def main():
    global R
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=2000, help="modules to generate (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ops", help="only these ops, comma-separated (names as in OPS)")
    ap.add_argument("--show", type=int, default=3, help="modules shown per disagreement (default 3)")
    ap.add_argument("--lib", default=os.environ.get("CTRITON_LIBRARY") or
                    os.path.join(triton_lit.ROOT, "build", "libctriton.so"), help="libctriton.so")
    args = ap.parse_args()
    R = random.Random(args.seed)
    ops = args.ops.split(",") if args.ops else OPS
    for o in ops:
        if o not in OPS:
            ap.error("no op %r (one of %s)" % (o, ", ".join(OPS)))
    tri = triton_lit.Triton()
    ct = triton_lit.Ctriton(args.lib)
    stats, shown = collections.Counter(), collections.Counter()
    for _ in range(args.n):
        op = R.choice(ops)
        fargs, line = gen(op)
        text = "module {\n  tt.func @f(%s) {\n    %s\n    tt.return\n  }\n}\n" % (
            ", ".join("%%%s: %s" % a for a in fargs), line)
        terr = forked_error(tri, text)
        if terr == "CRASH":
            stats["Triton crashes"] += 1
            continue
        _, cerr = ct.parse_print(text, "gen.ttir")
        if (terr is None) == (cerr is None):
            stats["agree, valid" if terr is None else "agree, invalid"] += 1
            continue
        key = "%s: %s" % (op, "Triton rejects, ctriton accepts" if terr else
                          "Triton accepts, ctriton refuses")
        stats[key] += 1
        if shown[key] < args.show:
            shown[key] += 1
            print("== %s\n  %s\n  Triton: %s\n  ctriton: %s" % (
                key, line.replace("\n", "\n  "), terr or "accepts", cerr or "accepts"))
    for k in sorted(stats):
        print("%6d  %s" % (stats[k], k))
    return 1 if any("ctriton accepts" in k for k in stats) else 0


if __name__ == "__main__":
    sys.exit(main())
