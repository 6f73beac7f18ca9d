"""CTRITON_INTERPRET=1: every @triton.jit kernel runs on the emulator.

install() patches Triton in the running process (idempotent):
- JITFunction.run (what ``kernel[grid](...)``, ``kernel.run`` and
  ``kernel.warmup`` call) specializes, compiles and runs on the emulator
  (ctriton._jit.launch);
- ``JITFunction.rewrite()`` sets ``.rewriter.def_file_lineno`` (the def's line), as
  InterpretedFunction's does;
- a tensor into a ``noinline`` helper is allowed, as under TRITON_INTERPRET=1;
- the autotuner times no configuration: each key runs the first configuration
  that ``prune_configs_by`` (early_config_prune, perf_model) keeps;
- Triton's driver is a CPU one (target sm_90, device 0, stream 0, a wall-clock
  benchmarker), so code asking ``triton.runtime.driver.active`` works without a GPU;
- ``triton._internal_testing.is_interpreter()`` (Triton's own test helpers)
  answers True, as under TRITON_INTERPRET=1: the tests skip what no CPU
  backend has (PTX, TTGIR checks, CUDA streams).

The package's ctriton_interpret.pth calls install_lazily() at interpreter start
when CTRITON_INTERPRET=1, so no change to the user's code is needed: the patches
are applied when the Triton modules are first imported.
"""
import importlib.abc
import importlib.machinery
import os
import sys
import time

_installed = set()


def enabled():
    return os.environ.get("CTRITON_INTERPRET", "0") not in ("", "0")


def _patch_jit(mod):
    if "jit" in _installed:
        return
    from . import _jit

    def run(self, *args, grid, warmup, **kwargs):
        return _jit.launch(self, grid, args, kwargs, warmup=warmup)

    mod.JITFunction._ctriton_original_run = mod.JITFunction.run
    mod.JITFunction.run = run
    if not hasattr(mod.JITFunction, "rewrite"):
        mod.JITFunction.rewrite = _rewrite
    _installed.add("jit")


class _DefLine:
    """What TRITON_INTERPRET=1's InterpretedFunction.rewriter tells of a kernel: the file and
    line of its ``def`` (where Triton's line information starts, decorators skipped)."""

    def __init__(self, filename, def_file_lineno):
        self.filename, self.def_file_lineno = filename, def_file_lineno


def _rewrite(self):
    """InterpretedFunction.rewrite() of TRITON_INTERPRET=1, as far as code outside the
    interpreter uses it (Triton's test_line_info): sets self.rewriter to the kernel's
    file and def line, from Triton's own get_jit_fn_file_line (the frontend's line info)."""
    from triton.runtime.jit import get_jit_fn_file_line
    self.rewriter = _DefLine(*get_jit_fn_file_line(self))
    return self.fn


def _patch_autotuner(mod):
    if "autotuner" in _installed:
        return

    def _bench(self, *args, config, **meta):
        return [0.0, 0.0, 0.0]  # every configuration ties: min() keeps the first pruned one

    mod.Autotuner._ctriton_original_bench = mod.Autotuner._bench
    mod.Autotuner._bench = _bench
    _installed.add("autotuner")


def _patch_testing(mod):
    if "testing" in _installed:
        return
    mod.is_interpreter = lambda: True
    _installed.add("testing")


def _patch_driver(mod):
    if "driver" in _installed:
        return

    def default(self):  # made at first use, not while Triton is being imported
        if self._default is None:
            self._default = _cpu_driver()
        return self._default

    mod.DriverConfig.default = property(default)
    _installed.add("driver")


def _cpu_driver():
    from triton.backends.compiler import GPUTarget
    from triton.backends.driver import DriverBase

    class EmulatorDriver(DriverBase):
        """Triton's driver interface on the CPU: what the emulator stands in for."""

        @classmethod
        def is_active(cls):
            return True

        def map_python_to_cpp_type(self, ty):
            return ty

        def get_current_target(self):
            return GPUTarget("cuda", 90, 32)

        def get_active_torch_device(self):
            import torch
            return torch.device("cpu")

        def get_current_device(self):
            return 0

        def set_current_device(self, device):
            pass

        def get_current_stream(self, device=None):
            return 0

        def get_device_capability(self, device=None):
            return (9, 0)

        def get_benchmarker(self):
            return _bench_cpu

        def get_empty_cache_for_benchmark(self):
            import numpy as np
            return np.empty(1 << 20, dtype=np.int8)

        def clear_cache(self, cache):
            cache.fill(0)

    return EmulatorDriver()


def _bench_cpu(fn, warmup=1, rep=5, grad_to_none=None, quantiles=None, return_mode="mean", **kw):
    """Wall-clock times of fn on the CPU, in ms, as triton.testing.do_bench reports them."""
    import statistics
    fn()
    times = []
    for _ in range(max(1, int(rep) if rep < 100 else 5)):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    if quantiles is not None:
        s = sorted(times)
        return [s[min(len(s) - 1, int(q * len(s)))] for q in quantiles]
    return getattr(statistics, {"mean": "mean", "median": "median", "min": "fmean"}.get(return_mode, "mean"))(times) \
        if return_mode != "min" else min(times)


def _patch_codegen(mod):
    """A @triton.jit(noinline=True) helper may take tensors, as under TRITON_INTERPRET=1:
    Triton's frontend refuses that only because its GPU backend cannot lower it
    (_check_fn_args); the emulator runs the call."""
    if "codegen" in _installed:
        return
    mod._ctriton_original_check_fn_args = mod._check_fn_args
    mod._check_fn_args = lambda node, fn, args: None
    _installed.add("codegen")


_PATCHES = {
    "triton.compiler.code_generator": _patch_codegen,
    "triton.runtime.jit": _patch_jit,
    "triton.runtime.autotuner": _patch_autotuner,
    "triton._internal_testing": _patch_testing,
    "triton.runtime.driver": _patch_driver,
}


def install():
    """Applies every patch now (importing Triton)."""
    import importlib
    for name, patch in _PATCHES.items():
        if name == "triton._internal_testing" and name not in sys.modules:
            continue  # imports torch and pytest: patched when something imports it
        patch(importlib.import_module(name))
    install_lazily()


class _Finder(importlib.abc.MetaPathFinder):
    """Patches each Triton module of _PATCHES right after it is executed."""

    def find_spec(self, name, path, target=None):
        if name not in _PATCHES or name in _installed_names:
            return None
        _installed_names.add(name)
        try:
            spec = importlib.machinery.PathFinder.find_spec(name, path)
        finally:
            _installed_names.discard(name)
        if spec is None or spec.loader is None:
            return None
        loader = spec.loader
        exec_module = loader.exec_module

        def exec_and_patch(module):
            if name == "triton._internal_testing":
                # its body already asks is_interpreter() (supports_tma): answered as under
                # TRITON_INTERPRET=1 while it runs, by the function's own reading of the environment
                saved = os.environ.get("TRITON_INTERPRET")
                os.environ["TRITON_INTERPRET"] = "1"
                try:
                    exec_module(module)
                finally:
                    if saved is None:
                        os.environ.pop("TRITON_INTERPRET", None)
                    else:
                        os.environ["TRITON_INTERPRET"] = saved
            else:
                exec_module(module)
            _PATCHES[name](module)

        loader.exec_module = exec_and_patch
        return spec


_installed_names = set()
_finder = None


def _remember_exec_source(event, args):
    """An audit hook: the text of each string compiled as "<string>" (exec of a kernel's
    source, as Triton's tests build variants of a kernel) is kept in linecache, so the
    @triton.jit that runs inside that exec finds its source, which Triton's frontend
    needs (its interpreter does not).  Only the latest such text is kept."""
    if event != "compile" or len(args) < 2 or args[1] != "<string>":
        return
    src = args[0]
    if isinstance(src, bytes):
        src = src.decode("utf-8", "replace")
    if isinstance(src, str) and "@" in src and "def " in src:
        import linecache
        lines = src.splitlines(True)
        linecache.cache["<string>"] = (len(src), None, lines, "<string>")


_audit = False


def install_lazily():
    """Patches the Triton modules already imported now, the others when they are."""
    global _finder, _audit
    if not _audit:
        sys.addaudithook(_remember_exec_source)
        _audit = True
    for name, patch in _PATCHES.items():
        if name in sys.modules:
            patch(sys.modules[name])
    if _finder is None:
        _finder = _Finder()
        sys.meta_path.insert(0, _finder)
