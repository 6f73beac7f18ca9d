"""The Python package's tests: ctriton.run/check/compile/aot, the faults as
exceptions, bad input, and CTRITON_INTERPRET=1 on a script written for Triton.

Run with the package installed (make python-test), or from the tree with
PYTHONPATH=python CTRITON_LIBRARY=build/libctriton.so (CTest's python_package).
PyTorch is optional: its tests run where it is installed (make python-test
installs it)."""
import inspect
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import ctriton  # noqa: E402
import kernels  # noqa: E402
import layout_kernels  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


def line_of(fn, text):
    src, first = inspect.getsourcelines(fn.fn)
    for i, s in enumerate(src):
        if text in s:
            return first + i
    raise AssertionError(text)


class Run(unittest.TestCase):

    def test_add_numpy(self):
        n = 1000
        x, y = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
        out = np.zeros(n, np.float32)
        k = ctriton.run(kernels.add_kernel, (8,), x, y, out, n, BLOCK=128)
        self.assertTrue(ctriton.check(out, x + y, rtol=0, atol=0), ctriton.check(out, x + y).message)
        self.assertIn("x_ptr=*fp32", k.signature)
        self.assertIn("tt.func public @add_kernel", k.asm["source"])

    def test_specializations_cached(self):
        n = 64
        x = np.ones(n, np.float32)
        out = np.zeros(n, np.float32)
        k1 = ctriton.run(kernels.add_kernel, (1,), x, x, out, n, BLOCK=64)
        k2 = ctriton.run(kernels.add_kernel, (1,), x, x, out, n, BLOCK=64)
        self.assertIs(k1, k2)
        k3 = ctriton.run(kernels.add_kernel, (1,), x, x, out, 1, BLOCK=64)  # n == 1: a constexpr
        self.assertIsNot(k1, k3)
        self.assertNotIn("n=i32", k3.signature)
        self.assertEqual(out[0], 2.0)
        self.assertEqual(out[1], 2.0)  # from the first run: n=1 wrote only element 0
        x16 = np.ones(n + 3, np.float32)[3:]  # not 16-byte aligned: no tt.divisibility on x_ptr
        k4 = ctriton.run(kernels.add_kernel, (1,), x16, x, out, n, BLOCK=64)
        self.assertIsNot(k1, k4)
        self.assertIn("tt.divisibility", k1.asm["source"].split("%x_ptr:")[1].split(",")[0])
        self.assertNotIn("tt.divisibility", k4.asm["source"].split("%x_ptr:")[1].split(",")[0])

    def test_softmax_strided_and_loop(self):
        a = np.random.RandomState(0).randn(37, 200).astype(np.float32)
        out = np.empty_like(a)
        ctriton.run(kernels.softmax_kernel, (37,), out, a, a.shape[1], out.shape[1], 200, BLOCK=256)
        e = np.exp(a - a.max(1, keepdims=True))
        r = ctriton.check(out, e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)
        self.assertTrue(r, r.message)
        x = np.arange(1000, dtype=np.float32)
        s = np.zeros(1, np.float32)
        ctriton.run(kernels.loop_sum, (1,), x, s, 1000, BLOCK=128)  # a runtime loop bound
        self.assertEqual(s[0], x.sum())

    def test_matmul_gpu_and_fast_dot(self):
        rs = np.random.RandomState(2)
        a = rs.randn(64, 48).astype(np.float16)
        b = rs.randn(48, 32).astype(np.float16)
        ref = a.astype(np.float32) @ b.astype(np.float32)
        for fast in (False, True):
            c = np.zeros((64, 32), np.float32)
            ctriton.run(kernels.matmul_kernel, (2, 2), a, b, c, 64, 32, 48, 48, 1, 32, 1, 32, 1, BM=32, BN=16, BK=16,
                        fast_dot=fast)
            r = ctriton.check(c, ref, rtol=1e-3, atol=1e-3)
            self.assertTrue(r, r.message)

    @unittest.skipIf(torch is None, "PyTorch is not installed")
    def test_dot_fp8e4b15(self):
        # on sm_90 Triton's frontend upcasts fp8e4b15 dot operands with inline PTX, which the
        # emulator knows: fp16 bits = sign << 15 | rest << 7 (exact)
        import triton
        import triton.language as tl
        rs = np.random.RandomState(3)
        bits = [rs.randint(0, 256, 256).astype(np.uint8) for _ in range(2)]

        def value(b):
            return (((b.astype(np.uint16) & 0x80) << 8) | ((b.astype(np.uint16) & 0x7f) << 7)).view(np.float16)
        a, b = (triton.reinterpret(torch.from_numpy(x.view(np.int8)), tl.float8e4b15) for x in bits)
        c = np.zeros(256, np.float32)
        k = ctriton.run(kernels.dot16, (1,), a, b, c)
        self.assertIn("tt.elementwise_inline_asm", k.asm["source"])
        want = value(bits[0]).astype(np.float64).reshape(16, 16) @ value(bits[1]).astype(np.float64).reshape(16, 16)
        r = ctriton.check(c.reshape(16, 16), want, rtol=1e-5, atol=1e-5)
        self.assertTrue(r, r.message)

    def test_inline_asm(self):
        # inline PTX on the emulator's interpreter: a funnel shift, and fp8 e4m3 bytes to fp16
        rs = np.random.RandomState(5)
        x = rs.randint(-2**31, 2**31, 256).astype(np.int32)
        q = np.arange(256, dtype=np.uint8)
        y = np.zeros(256, np.int32)
        h = np.zeros(256, np.float16)
        ctriton.run(kernels.inline_asm_kernel, (1,), x, q.view(np.int8), y, h, BLOCK=256)
        u = x.view(np.uint32)
        self.assertTrue(np.array_equal(y.view(np.uint32), (u >> 5) | (u << 27)))
        # e4m3: bias 7, subnormals below exponent 1, 0x7f and 0xff NaN
        s, e, m = q >> 7, (q >> 3) & 15, (q & 7).astype(np.float64)
        v = np.where(e == 0, m / 8 * 2.0 ** -6, (1 + m / 8) * 2.0 ** (e.astype(np.float64) - 7)) * (1 - 2.0 * s)
        nan = (q & 0x7f) == 0x7f
        self.assertTrue(np.array_equal(h[~nan].astype(np.float64), v[~nan]))
        self.assertTrue(np.isnan(h[nan]).all())
        with self.assertRaises(ctriton.CompilationError) as cm:
            ctriton.run(kernels.inline_asm_refused, (1,), np.zeros(64, np.float32), BLOCK=64)
        self.assertIn("`tanh` is not emulated", str(cm.exception))

    def test_autotune_and_heuristics(self):
        x = np.arange(300, dtype=np.float32)
        out = np.zeros(300, np.float32)
        ctriton.run(kernels.autotuned_scale, lambda m: (triton_cdiv(300, m["BLOCK"]),), x, out, 300)
        self.assertTrue(np.array_equal(out, 3 * x))
        self.assertEqual(kernels.autotuned_scale.best_config.kwargs["BLOCK"], 64)  # the first config
        out[:] = 0
        ctriton.run(kernels.heuristic_neg, (1,), x, out, 300)
        self.assertTrue(np.array_equal(out, -x))

    def test_threads(self):
        x = np.ones(4096, np.float32)
        out = np.zeros(4096, np.float32)
        for t in (1, 2):
            ctriton.set_threads(t)
            r = ctriton.run(kernels.add_kernel, (32,), x, x, out, 4096, BLOCK=128, report=True)
            self.assertEqual(r.threads, min(t, os.cpu_count()))
        ctriton.set_threads(0)
        self.assertRaises(ValueError, ctriton.set_threads, -1)

    @unittest.skipIf(torch is None, "PyTorch is not installed")
    def test_torch_tensors(self):
        x = torch.randn(1000)
        y = torch.randn(1000)
        out = torch.empty(1000)
        ctriton.run(kernels.add_kernel, (8,), x, y, out, 1000, BLOCK=128)
        self.assertTrue(torch.equal(out, x + y))
        b = torch.randn(16, 40, dtype=torch.bfloat16)
        o = torch.empty(16, 40, dtype=torch.bfloat16)
        ctriton.run(kernels.add_kernel, (1,), b, b, o, 640, BLOCK=1024)
        self.assertTrue(torch.equal(o, b + b))
        t = torch.randn(8, 64)[:, :50]  # a strided view: the row stride is 64
        o = torch.empty(8, 50)
        ctriton.run(kernels.softmax_kernel, (8,), o, t, t.stride(0), o.stride(0), 50, BLOCK=64)
        self.assertTrue(ctriton.check(o, torch.softmax(t, 1), rtol=1e-5, atol=1e-6))


def triton_cdiv(a, b):
    return (a + b - 1) // b


class Churn(unittest.TestCase):
    """Specialization churn: a launch loop that alternates a scalar between 1 and 2 gives
    exactly one SpecializationChurnWarning naming it; with do_not_specialize, none."""

    def launches(self, kernel):
        import warnings
        x = np.ones(64, np.float32)
        out = np.zeros(64, np.float32)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            for i in range(10):
                ctriton.run(kernel, (1,), x, out, 1 + i % 2, BLOCK=64)
        return [x for x in w if issubclass(x.category, ctriton.SpecializationChurnWarning)]

    def test_alternating_scalar_reported_once(self):
        w = self.launches(kernels.churn_add)
        self.assertEqual(len(w), 1, [str(x.message) for x in w])
        msg = str(w[0].message)
        self.assertIn("`n`", msg)
        self.assertIn('do_not_specialize=["n"]', msg)

    def test_do_not_specialize_silences(self):
        self.assertEqual(self.launches(kernels.churn_add_dns), [])


class Faults(unittest.TestCase):

    def test_out_of_bounds_names_line_arg_lane(self):
        x = np.ones(1000, np.float32)
        out = np.zeros(1024, np.float32)
        with self.assertRaises(ctriton.OutOfBoundsError) as cm:
            ctriton.run(kernels.add_unmasked, (8,), x, out, BLOCK=128)
        e = cm.exception
        self.assertEqual(e.line, line_of(kernels.add_unmasked, "the line an OOB names"))
        self.assertTrue(e.file.endswith("kernels.py"), e.file)
        self.assertEqual(e.arg, "x_ptr")
        self.assertEqual(e.pid, (7, 0, 0))
        self.assertEqual(e.lane, 1000 - 7 * 128)
        self.assertEqual(e.offset, 4000)
        self.assertIn("kernels.py:%d" % e.line, str(e))
        self.assertIsInstance(e, IndexError)

    def test_wait_for_a_later_program(self):
        # program 0 spins until the last program sets the flag: on one thread it must yield
        flag = np.zeros(1, np.int32)
        out = np.full(64, -1, np.int32)
        ctriton.run(kernels.wait_for_last, (64,), flag, out, threads=1)
        self.assertEqual(flag[0], 1)
        np.testing.assert_array_equal(out, np.arange(64, dtype=np.int32))

    def test_deadlock(self):
        lock = np.ones(1, np.int32)
        with self.assertRaises(ctriton.DeadlockError) as cm:
            ctriton.run(kernels.wait_forever, (4,), lock, threads=2)
        e = cm.exception
        self.assertEqual(e.line, line_of(kernels.wait_forever, "the lock nobody releases"))
        self.assertEqual(e.pid, (0, 0, 0))
        self.assertIn("deadlock", str(e))

    def test_device_assert(self):
        x = -np.ones(16, np.float32)
        with self.assertRaises(AssertionError) as cm:
            ctriton.run(kernels.assert_kernel, (1,), x, BLOCK=16, debug=True)
        self.assertIn("x must be non-negative", str(cm.exception))
        ctriton.run(kernels.assert_kernel, (1,), -x, BLOCK=16, debug=True)

    def test_unwritten_nan_all_zero_reported(self):
        x = np.zeros(1000, np.float32)
        out = np.empty(1000, np.float32)
        r = ctriton.run(kernels.add_kernel, (4,), x, x, out, 1000, BLOCK=128, outputs=["out_ptr"])
        self.assertEqual(r.arrays["out_ptr"]["unwritten"], 1000 - 512)
        x[3] = np.nan
        r = ctriton.run(kernels.add_kernel, (8,), x, x, out, 1000, BLOCK=128, report=True)
        self.assertEqual(r.arrays["out_ptr"]["nan"], 1)
        self.assertTrue(any("NaN" in p for p in r.problems()))

    def test_check_verdicts(self):
        a = np.ones((4, 5), np.float32)
        self.assertEqual(ctriton.check(a, np.ones((5, 4), np.float32)).verdict, "SHAPE")
        b = a.copy()
        b[2, 3] = 1.5
        r = ctriton.check(b, a, rtol=1e-3, atol=0)
        self.assertEqual(r.verdict, "MISMATCH")
        self.assertEqual(r.where, (2, 3))
        self.assertAlmostEqual(r.max_abs, 0.5)
        b[2, 3] = np.nan
        self.assertIn("HAS_NAN", ctriton.check(b, a).flags)
        self.assertIn("ALL_ZERO", ctriton.check(np.zeros_like(a), a).flags)
        self.assertTrue(ctriton.check(a, a, rtol=0, atol=0))
        self.assertRaises(AssertionError, ctriton.check(b, a).raise_if_failed)


class BadInput(unittest.TestCase):
    x = np.ones(64, np.float32)

    def test_wrong_number_of_arguments(self):
        with self.assertRaisesRegex(TypeError, "add_kernel"):
            ctriton.run(kernels.add_kernel, (1,), self.x, self.x, 64, BLOCK=64)
        with self.assertRaisesRegex(TypeError, "takes 5 arguments"):
            ctriton.run(kernels.add_kernel, (1,), self.x, self.x, self.x, 64, 64, 7)

    def test_bad_dtype(self):
        with self.assertRaisesRegex(TypeError, "x_ptr"):
            ctriton.run(kernels.add_kernel, (1,), self.x.astype(np.complex64), self.x, self.x, 64, BLOCK=64)
        with self.assertRaisesRegex(TypeError, "x_ptr"):
            ctriton.run(kernels.add_kernel, (1,), "not an array", self.x, self.x, 64, BLOCK=64)

    @unittest.skipIf(torch is None, "PyTorch is not installed")
    def test_bad_torch_dtype(self):
        # Triton's own specialization has no type for it (a bare KeyError there)
        t = torch.ones(64, dtype=torch.complex64)
        with self.assertRaisesRegex(TypeError, r"x_ptr \(Tensor of torch.complex64\).*no element type"):
            ctriton.run(kernels.add_kernel, (1,), t, self.x, self.x, 64, BLOCK=64)

    def test_integer_too_large(self):
        with self.assertRaisesRegex(OverflowError, r"argument n \(int\)"):
            ctriton.run(kernels.add_kernel, (1,), self.x, self.x, self.x, 2 ** 70, BLOCK=64)

    def test_read_only_output(self):
        # memory the caller may not write is registered read-only: the store faults, the bytes stay
        b = bytes(256)
        out = np.frombuffer(b, dtype=np.float32)
        with self.assertRaises(ctriton.ReadOnlyError) as cm:
            ctriton.run(kernels.add_kernel, (1,), self.x, self.x, out, 64, BLOCK=64)
        self.assertEqual(cm.exception.arg, "out_ptr")
        self.assertEqual(b, bytes(256))
        ro = self.x.copy()
        ro.flags.writeable = False  # read-only inputs run as before
        res = np.zeros(64, np.float32)
        ctriton.run(kernels.add_kernel, (1,), ro, ro, res, 64, BLOCK=64)
        np.testing.assert_array_equal(res, 2 * ro)

    def test_bad_grid(self):
        for g in ("8", None, 3.0, (1, 2, 3, 4), (1.5,)):
            with self.assertRaisesRegex(TypeError, "grid"):
                ctriton.run(kernels.add_kernel, g, self.x, self.x, self.x, 64, BLOCK=64)
        with self.assertRaisesRegex(TypeError, "grid"):
            ctriton.run(kernels.add_kernel, lambda m: "x", self.x, self.x, self.x, 64, BLOCK=64)

    def test_not_a_kernel(self):
        with self.assertRaisesRegex(TypeError, "triton.jit"):
            ctriton.run(print, (1,), self.x)

    @unittest.skipIf(torch is None, "PyTorch is not installed")
    def test_gpu_tensor(self):
        t = torch.ones(64, device="meta")
        with self.assertRaisesRegex(ValueError, "x_ptr is a tensor on meta"):
            ctriton.run(kernels.add_kernel, (1,), t, self.x, self.x, 64, BLOCK=64)


class DiskCache(unittest.TestCase):
    """The frontend's TTIR/TTGIR kept on disk (CTRITON_CACHE_DIR/py): a new process, or a
    function whose in-memory cache is gone, compiles without Triton's frontend; damaged
    files, an unwritable directory and TRITON_ALWAYS_COMPILE=1 only mean compiling again."""

    def setUp(self):
        self.old = {k: os.environ.get(k) for k in ("CTRITON_CACHE_DIR", "TRITON_ALWAYS_COMPILE")}
        self.dir = tempfile.mkdtemp(prefix="ctriton-cache-")
        os.environ["CTRITON_CACHE_DIR"] = self.dir
        os.environ.pop("TRITON_ALWAYS_COMPILE", None)
        from triton.compiler import ASTSource
        self.ASTSource, self.make_ir, self.calls = ASTSource, ASTSource.make_ir, [0]

        def counting(src, *a, **k):
            self.calls[0] += 1
            return self.make_ir(src, *a, **k)
        ASTSource.make_ir = counting

    def tearDown(self):
        self.ASTSource.make_ir = self.make_ir
        for k, v in self.old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        import shutil
        shutil.rmtree(self.dir, ignore_errors=True)

    def launch(self, fn, n=48):
        fn.__dict__.pop("_ctriton_cache", None)  # as in a new process
        x = np.arange(n, dtype=np.float32)
        out = np.zeros(n, np.float32)
        k = ctriton.run(fn, (1,), x, out, n, BLOCK=64, threads=1)
        np.testing.assert_array_equal(out, np.full(n, x.max(), np.float32) if fn is kernels.row_max else x + 1)
        return k

    def files(self):
        return sorted(os.path.join(r, f) for r, _, fs in os.walk(self.dir) for f in fs if f.endswith(".json"))

    def test_second_compile_from_disk(self):
        k1 = self.launch(kernels.row_max)  # a reduction: TTGIR kept too
        self.assertEqual(self.calls[0], 1)
        self.assertEqual(len(self.files()), 1)
        k2 = self.launch(kernels.row_max)
        self.assertEqual(self.calls[0], 1, "the second compile ran Triton's frontend")
        self.assertEqual(k1.asm, k2.asm)
        self.assertIn("ttgir", k2.asm)
        self.launch(kernels.row_max, n=33)  # another specialization: its own file
        self.assertEqual(self.calls[0], 2)
        self.assertEqual(len(self.files()), 2)

    def test_damaged_files_compiled_again(self):
        self.launch(kernels.add_one)
        f, = self.files()
        for bad in ("", "{", "[]", '{"key": "x", "source": "module {}"}', '{"source": 1}'):
            if bad.startswith('{"source"'):
                import json
                bad = json.dumps({"key": os.path.basename(f)[:-5], "source": 1})
            with open(f, "w") as fh:
                fh.write(bad)
            before = self.calls[0]
            self.launch(kernels.add_one)
            self.assertEqual(self.calls[0], before + 1, bad)
        with open(f) as fh:  # and written back whole
            self.assertIn("tt.func public @add_one", fh.read())

    def test_always_compile_and_unwritable(self):
        self.launch(kernels.add_one)
        os.environ["TRITON_ALWAYS_COMPILE"] = "1"
        self.launch(kernels.add_one)
        self.assertEqual(self.calls[0], 2)
        os.environ.pop("TRITON_ALWAYS_COMPILE")
        blocker = os.path.join(self.dir, "file")
        open(blocker, "w").close()
        os.environ["CTRITON_CACHE_DIR"] = blocker  # a file where the directory should be
        self.launch(kernels.add_one)
        self.launch(kernels.add_one)
        self.assertEqual(self.calls[0], 4)

    def test_changed_source_not_reused(self):
        import importlib.util
        path = os.path.join(self.dir, "k_edit.py")
        body = ("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                "def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                "    offs = tl.arange(0, BLOCK)\n"
                "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + %s, mask=offs < n)\n")
        outs = []
        for c in ("1.0", "2.0"):
            with open(path, "w") as fh:
                fh.write(body % c)
            spec = importlib.util.spec_from_file_location("k_edit_%s" % c[0], path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            x = np.zeros(8, np.float32)
            out = np.zeros(8, np.float32)
            ctriton.run(mod.k, (1,), x, out, 8, BLOCK=8)
            outs.append(out[0])
        self.assertEqual(outs, [1.0, 2.0])
        self.assertEqual(self.calls[0], 2)


class LayoutPipeline(unittest.TestCase):
    """The layouts of reductions and scans (the GPU's order of combining) come from the
    short TTGIR pipeline, Triton's make_ttir and the layout-choosing prefix of its
    make_ttgir (python/ctriton/_ttgir.py): its layout table must be the full
    make_ttgir's on every kernel of layout_kernels.CASES under num_warps 1 to 8, for the
    installed Triton release (a release whose later passes change a layout fails here:
    fix _ttgir._SHORT for it)."""

    def specializations(self):
        from ctriton import _jit
        for fn, args, meta in layout_kernels.CASES:
            for w in (1, 2, 4, 8):
                yield _jit.launch(fn, (1,), args(), dict(meta, num_warps=w), warmup=True)

    def test_short_pipeline_is_full_ones_layouts(self):
        from ctriton import _ttgir
        if _ttgir.short_pipeline() is None:
            self.skipTest("no short pipeline for this Triton release: the full make_ttgir runs")
        n = 0
        for k in self.specializations():
            both = _ttgir.compare(k.src, k.options)
            full, short = both["full"][0], both["short"][0]
            what = "%s num_warps=%d" % (k.name, k.options.num_warps)
            self.assertIsNotNone(full, what + ": Triton's make_ttgir failed")
            self.assertEqual(short, full, what + ": the short pipeline's layouts differ from make_ttgir's")
            self.assertEqual(_ttgir.table_bytes(_ttgir.layout_table(k.asm["ttgir"])), short, what)
            n += len(full)
        self.assertGreater(n, 100)

    def test_restructured_reduction_warns(self):
        """Where Triton's passes restructure a reduction (optimize-thread-locality splits a sum
        accumulated in a loop, at 1 and 2 warps here) the TTGIR's layouts do not match the
        kernel's reductions: the run still gives the sum, with a ReductionOrderWarning (a
        specialization of its own: the warning comes with its compilation)."""
        import warnings
        x = np.random.RandomState(0).randn(16, 1000).astype(np.float32)
        for nw, warns in ((1, True), (4, False)):
            o = np.zeros(16, np.float32)
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                ctriton.run(layout_kernels.loop_reduce, (1,), x, o, 1000, M=16, BLOCK=64, num_warps=nw)
            got = [m for m in w if issubclass(m.category, ctriton.ReductionOrderWarning)]
            self.assertEqual(bool(got), warns, "num_warps=%d: %s" % (nw, [str(m.message) for m in w]))
            if got:
                self.assertIn("loop_reduce", str(got[0].message))
            np.testing.assert_allclose(o, x.sum(axis=1), rtol=1e-5, atol=1e-5)

    def test_kernels_tell_layouts_apart(self):
        """The kernels are a test: Triton's default layouts alone (the conversion to TTGPUIR,
        no coalescing, no MMA layouts) give other tables on some of them."""
        from ctriton import _ttgir
        saved = dict(_ttgir._SHORT)
        specs = list(self.specializations())  # compiled (and cached) before the change

        def convert_only(pm, opt, capability, passes, nvidia):
            passes.ttir.add_convert_to_ttgpuir(pm, "cuda:%d" % capability, opt.num_warps, 32, opt.num_ctas)
        try:
            for v in _ttgir._SHORT:
                _ttgir._SHORT[v] = convert_only
            differ = set()
            for k in specs:
                both = _ttgir.compare(k.src, k.options)
                if both["short"][0] != both["full"][0]:
                    differ.add(k.name)
        finally:
            _ttgir._SHORT.update(saved)
        self.assertTrue({"reduce_2d_colmajor", "dot_then_reduce", "loop_dot_max"} <= differ, differ)

    def test_layout_table_mirrors_the_c_struct(self):
        """_lib.Layout is ct_emu_layout field for field: the second entry of a table read
        by C (a slice of a blocked layout) reads right in Python; and a table of more
        reductions than any fixed size is read whole."""
        from ctriton import _ttgir
        red = ('    %%%d = "tt.reduce"(%%8) <{axis = %d : i32}> ({\n    ^bb0(%%a: f32, %%b: f32):\n'
               '      tt.reduce.return %%a : f32\n    }) : (%s) -> f32 loc(#loc)\n')
        ttgir = ("#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
                 "order = [1, 0]}>\n"
                 "#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], "
                 "instrShape = [16, 64, 16]}>\nmodule {\n" +
                 red % (9, 1, "tensor<64x32xf32, #mma>") +
                 red % (10, 0, "tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>") +
                 "".join(red % (11 + i, 0, "tensor<32xf32, #blocked>") for i in range(98)) + "}\n")
        t = _ttgir.layout_table(ttgir)
        self.assertEqual(len(t), 100)
        self.assertEqual((t[0].mma_version, list(t[0].instr_shape), list(t[0].warps_per_cta[:2])),
                         (3, [16, 64, 16], [8, 1]))
        self.assertEqual((t[1].rank, t[1].shape[0], t[1].base_rank, t[1].base_dim[0]), (1, 64, 2, 0))
        self.assertEqual((list(t[1].threads_per_warp[:2]), list(t[1].warps_per_cta[:2])), ([4, 8], [4, 1]))
        self.assertEqual((t[99].axis, t[99].rank, t[99].shape[0], t[99].base_rank), (0, 1, 32, 0))

    def test_many_reductions(self):
        """60 reductions: their layouts all given to the emulator (the table was once a
        fixed 64 entries of a shorter struct than C's: a heap overflow past 51)."""
        x = np.random.default_rng(1).standard_normal(128).astype(np.float32)
        out = np.zeros(1, np.float32)
        ctriton.run(kernels.many_sums, (1,), x, out, BLOCK=128, threads=1)
        want = sum(float(np.sum(x * np.float32(i + 1), dtype=np.float32)) for i in range(60))
        np.testing.assert_allclose(out[0], want, rtol=1e-4)


class FrontendContext(unittest.TestCase):
    """Triton's frontend shares one MLIR context between kernels (_jit._mlir_context),
    replaced after _CONTEXT_KERNELS kernels and in a forked child."""

    def compile_new(self, n):
        kernels.add_one.__dict__.pop("_ctriton_cache", None)
        x = np.arange(n, dtype=np.float32)
        out = np.zeros(n, np.float32)
        os.environ["TRITON_ALWAYS_COMPILE"] = "1"  # Triton's frontend every time
        try:
            ctriton.run(kernels.add_one, (1,), x, out, n, BLOCK=64, threads=1)
        finally:
            os.environ.pop("TRITON_ALWAYS_COMPILE", None)
        np.testing.assert_array_equal(out, x + 1)

    def test_shared_then_replaced(self):
        from ctriton import _jit
        saved = _jit._CONTEXT_KERNELS
        _jit._CONTEXT_KERNELS = 2
        _jit._context[:] = [None, 0, 0]
        try:
            self.compile_new(5)
            first = _jit._context[0]
            self.compile_new(6)
            self.assertIs(_jit._context[0], first)
            self.compile_new(7)  # the third kernel: a new context
            self.assertIsNot(_jit._context[0], first)
            self.assertEqual(_jit._context[1], 1)
        finally:
            _jit._CONTEXT_KERNELS = saved

    @unittest.skipUnless(hasattr(os, "fork"), "no fork")
    def test_forked_child_makes_its_own(self):
        from ctriton import _jit
        self.compile_new(5)
        parent = _jit._context[0]
        pid = os.fork()
        if pid == 0:  # the child: a kernel compiled in a context of its own
            try:
                self.compile_new(9)
                os._exit(0 if _jit._context[0] is not parent and _jit._context[2] == os.getpid() else 2)
            except BaseException:
                os._exit(1)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        self.assertIs(_jit._context[0], parent)


class Lowering(unittest.TestCase):

    def test_versions(self):
        import triton
        self.assertRegex(ctriton.__version__, r"^\d+\.\d+\.\d+$")
        self.assertEqual(ctriton.__version__, ctriton.library_version())
        self.assertEqual(ctriton.triton_version(), triton.__version__.split("+")[0])

    def test_compile_and_aot(self):
        x = np.ones(64, np.float32)
        k = ctriton.compile(kernels.add_kernel, x, x, x, 64, BLOCK=64, num_warps=2)
        self.assertIn(".visible .entry add_kernel", k.asm["ptx"])
        self.assertEqual(k.num_warps, 2)
        self.assertGreater(len(k.asm["cubin"]), 1000)
        self.assertIn("ttg.num-warps\" = 2", k.asm["ttgir"])
        with tempfile.TemporaryDirectory() as d:
            h, c = ctriton.aot(kernels.add_kernel, x, x, x, 64, BLOCK=64, out_dir=d, name="add64")
            self.assertTrue(h.endswith("add64.h"))
            with open(h) as f, open(c) as g:
                text = f.read() + g.read()
            self.assertIn("add64", text)
            self.assertIn("CUresult", text)


class DropIn(unittest.TestCase):

    def test_ctriton_interpret_script(self):
        env = dict(os.environ, CTRITON_INTERPRET="1", PYTHONPATH=os.pathsep.join(
            [HERE] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        script = os.path.join(HERE, "dropin_script.py")
        import ctriton._hook as hook  # noqa: F401
        installed = os.path.exists(os.path.join(os.path.dirname(os.path.dirname(ctriton.__file__)),
                                                "ctriton_interpret.pth"))
        # installed: the .pth hook; from the tree: the same hook, applied by hand
        cmd = [sys.executable, script] if installed else [
            sys.executable, "-c", "import ctriton._hook as h, runpy, sys; h.install_lazily(); "
            "sys.argv=[%r]; runpy.run_path(%r, run_name='__main__')" % (script, script)]
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("numpy ok", p.stdout)
        self.assertIn("exec ok", p.stdout)
        self.assertIn("noinline ok", p.stdout)
        self.assertIn("compile error ok", p.stdout)
        if torch is not None:
            self.assertIn("torch ok", p.stdout)
        line = line_of(kernels.add_unmasked, "the line an OOB names")
        self.assertIn("raised OutOfBoundsError line=%d arg=x_ptr pid=(7, 0, 0) lane=104 offset=4000" % line,
                      p.stdout)

    def test_ctriton_report(self):
        # CTRITON_REPORT=1: after each launch, what looks wrong in the arrays, on stderr
        code = ("import numpy as np, ctriton, kernels; x = np.zeros(256, np.float32); o = np.ones(256, np.float32); "
                "x[5] = np.nan; ctriton.run(kernels.add_kernel, (2,), x, x, o, 256, BLOCK=128)")
        env = dict(os.environ, CTRITON_REPORT="1", PYTHONPATH=os.pathsep.join(
            [HERE] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("ctriton: add_kernel grid (2,): x_ptr: 1 NaN", p.stderr)
        self.assertIn("out_ptr: 1 NaN", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
