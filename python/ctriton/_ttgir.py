"""The TTGIR the emulator reads the layouts of a kernel's reductions and scans from.

The order in which the GPU combines the elements of a tt.reduce or tt.scan depends on
its operand's layout (src/emu/layout.c), which Triton chooses in make_ttgir.  Triton's
whole make_ttgir is 40-odd passes (software pipelining, warp specialization, TMA and
tensor-memory lowering, prefetching, fences, ...), and its cost grows with the kernel
(hundreds of ms for one with 60 reductions).  The layouts of the reductions' operands
are chosen by its first passes: the conversion to TTGPUIR (the default blocked
layouts), coalescing (the loads' and stores' layouts), the CTA planning,
remove-layout-conversions (which carries those layouts to the reductions' operands),
optimize-thread-locality (the reductions in loops it rewrites) and accelerate-matmul
(the dots' MMA layouts), then remove-layout-conversions again.  So a kernel's TTGIR for
the emulator is Triton's own make_ttir followed by that prefix of its make_ttgir, the
"short pipeline", about half the passes' time.  It gave the full pipeline's layout
table (ct_emu_layouts_from_ttgir) on every kernel compared.  Triton 3.6: the library's
kernels (kernels/py, every config under num_warps 1, 2, 4 and 8: 184 specializations),
the benchmarks' (bench/), the package's tests, tests/python/layout_kernels.py and
Triton's own reduction, scan and dot tests (test_core.py: 1157 specializations).
Triton 3.7, 3.8 and 3.9: the library's kernels whose arguments NumPy holds (120
specializations each) and layout_kernels.py.  The one difference: where make_ttgir fails
(warp specialization asked of 4 warps, which no GPU build has either), the short
pipeline still gives Triton's layouts where the full one left the emulator its
default ones.

Triton's pass list changes between releases, so the prefix is written out per release
in _SHORT below (one function per distinct list, copied from that release's
backends/nvidia/compiler.py make_ttgir).  A release missing from _SHORT runs Triton's
full make_ttgir.  tests/python/test_ctriton.py (class LayoutPipeline) compares the two
pipelines' layout tables on tests/python/layout_kernels.py, so a Triton release whose
later passes start changing a layout fails there; scripts/check_ttgir_layouts.py
compares them on every kernel a program launches (run it on a new release's test
suite before adding the release to _SHORT).
"""
import ctypes
import time

from . import _lib


def _prefix_3_6(pm, opt, capability, passes, nvidia):
    """Triton 3.6, 3.7 and 3.8's make_ttgir up to the remove-layout-conversions after
    accelerate-matmul."""
    passes.ttir.add_convert_to_ttgpuir(pm, "cuda:%d" % capability, opt.num_warps, 32, opt.num_ctas)
    passes.ttgpuir.add_coalesce(pm)
    passes.ttgpuir.add_f32_dot_tc(pm, capability // 10 >= 8)
    nvidia.passes.ttnvgpuir.add_plan_cta(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    passes.ttgpuir.add_optimize_thread_locality(pm)
    passes.ttgpuir.add_accelerate_matmul(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)


def _prefix_3_9(pm, opt, capability, passes, nvidia):
    """Triton 3.9's make_ttgir up to the remove-layout-conversions after accelerate-matmul
    (the CTA planning became assign-cga-layouts and optimize-cta-locality)."""
    passes.ttir.add_convert_to_ttgpuir(pm, "cuda:%d" % capability, opt.num_warps, 32, opt.num_ctas)
    if getattr(opt, "clc", False):
        nvidia.passes.ttnvgpuir.add_to_clc(pm)
    passes.ttgpuir.add_coalesce(pm)
    passes.ttgpuir.add_f32_dot_tc(pm, capability // 10 >= 8)
    nvidia.passes.ttnvgpuir.add_assign_cga_layouts(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    nvidia.passes.ttnvgpuir.add_optimize_cta_locality(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    passes.ttgpuir.add_optimize_thread_locality(pm)
    passes.ttgpuir.add_accelerate_matmul(pm)
    nvidia.passes.ttnvgpuir.add_check_matmul_two_cta(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)


# Triton release (major.minor) -> its short pipeline; the only per-release list
_SHORT = {"3.6": _prefix_3_6, "3.7": _prefix_3_6, "3.8": _prefix_3_6, "3.9": _prefix_3_9}


def short_pipeline():
    """The installed Triton's short pipeline, or None (a release not in _SHORT)."""
    import triton
    return _SHORT.get(".".join(triton.__version__.split(".")[:2]))


def layout_ttgir(be, mod, options, full=False):
    """(TTIR text, TTGIR text) of the raw TTIR module mod (changed in place): Triton's
    make_ttir then, unless full or the release has none, the short pipeline, else Triton's
    make_ttgir.  be: Triton's CUDA backend (its target's arch); raises what Triton's passes raise."""
    from triton._C.libtriton import ir, passes, nvidia
    arch = be.target.arch
    md = {}
    mod = be.make_ttir(mod, md, options, arch)
    ttir = str(mod)
    prefix = None if full else short_pipeline()
    if prefix is None:
        return ttir, str(be.make_ttgir(mod, md, options, arch))
    pm = ir.pass_manager(mod.context)
    pm.enable_debug()  # Triton's dumps and reproducers (MLIR_ENABLE_DUMP, ...), as make_ttgir's
    prefix(pm, options, arch, passes, nvidia)
    pm.run(mod, "make_ttgir")
    return ttir, str(mod)


def layout_table(ttgir):
    """The layouts the emulator takes from TTGIR text: a ctypes array of _lib.Layout (the
    reductions and scans in order), or None for malformed text."""
    L = _lib.lib()
    text = ttgir.encode("utf-8")
    n = L.ct_emu_layouts_from_ttgir(text, None, 0)  # counted first, then read
    if n < 0:
        return None
    table = (_lib.Layout * n)()
    return table if n == 0 or L.ct_emu_layouts_from_ttgir(text, table, n) == n else None


def table_bytes(table):
    """A layout table as bytes, to compare two (None stays None)."""
    return None if table is None else ctypes.string_at(ctypes.addressof(table), ctypes.sizeof(table))


def compare(src, options):
    """Both pipelines on Triton's ASTSource src (made again for each): {"short": (table,
    ms), "full": (table, ms)}, each table as bytes (table_bytes), None where the pipeline
    fails.  For the test of the short pipeline and scripts/check_ttgir_layouts.py."""
    from . import _jit
    out = {}
    for name in ("short", "full"):
        mod = _jit.make_ir(src, options)
        t = time.perf_counter()
        try:
            tab = table_bytes(layout_table(layout_ttgir(_jit.backend(), mod, options, full=name == "full")[1]))
        except Exception:
            tab = None
        out[name] = (tab, (time.perf_counter() - t) * 1e3)
    return out
