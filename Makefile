# ctriton: the two commands a newcomer needs.
#
#   make demo   build the command, emit a kernel's TTIR, lower it through Triton, run it
#               on the emulator and check it; on a machine with a GPU also launch it
#   make test   the docs checks, unit tests (normal and ASan+UBSan builds), a short
#               fuzz of the TTIR parser and the emulator, the fidelity harness, the
#               Python-to-C translator on every Python original (port-check), and an
#               install used from a project outside the tree (examples/out-of-tree)
#
# Both install what they need when it is missing (apt-get, as root or with sudo):
# a C compiler, make, cmake and pkg-config; python3 with venv and pip; for `make test`
# libcmocka-dev too; and triton==3.6.0 in a virtual environment reused across runs
# ($(VENV)), and one venv per other supported Triton release ($(VENVS)/venv-X.Y.Z).
# Also: make install PREFIX=/usr/local, make clean.

VENV      ?= $(HOME)/.cache/ctriton/venv
# The other supported Triton releases (src/ir/triton_version.c): each has a venv and
# a verdict table, tests/golden/VERDICTS-X.Y.Z.md, checked by `make fidelity`.
# NEWEST's Python TTIR is also kept under tests/golden for the emulator's tests.
TRITON_VERSIONS ?= 3.7.0 3.7.1 3.8.0 3.9.0
NEWEST    := $(lastword $(TRITON_VERSIONS))
VENVS     ?= $(HOME)/.cache/ctriton
# the Python package's test venv: Triton 3.6.0, NumPy, PyTorch (CPU use), pytest, the wheel
PKG_VENV  ?= $(VENVS)/venv-pkg
PKG_PY    := $(PKG_VENV)/bin/python
PYTHON    ?= python3
PY        := $(VENV)/bin/python
BUILD     ?= build
ASAN      ?= build-asan
PREFIX    ?= /usr/local
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# conformance kernels: a kernel plugin beside the command (tests/conformance)
CONFORMANCE = $(BUILD)/libctriton_conformance.so

.PHONY: all build build-cli asan install deps deps-build deps-c deps-py deps-py-versions test unit \
        unit-asan fidelity-versions port-check \
        fidelity docs-check api-doc demo example bench bench-emit bench-launch bench-parse \
        bench-emu fuzz-smoke clean wheel deps-pkg python-test bench-py peer-tests peer-deps peer-subset

all: build

# ---- dependencies --------------------------------------------------------------------
# apt_get PACKAGES: installs them, refreshing the package lists once if that fails
# (a fresh Debian has none), without questions.
apt_get = { $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $(1) >/dev/null 2>&1 || \
  { $(SUDO) apt-get update >/dev/null && \
    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $(1) >/dev/null; }; }
# need CMD PACKAGE: installs PACKAGE when CMD is missing
need = command -v $(1) >/dev/null 2>&1 || { echo "== installing $(2)"; $(call apt_get,$(2)); }

deps: deps-c deps-py

# what building the library and the command needs
deps-build:
	@$(call need,cc,build-essential)
	@$(call need,cmake,cmake)
	@$(call need,pkg-config,pkg-config)

# and the unit tests
deps-c: deps-build
	@[ -f /usr/include/cmocka.h ] || { echo "== installing libcmocka-dev"; $(call apt_get,libcmocka-dev); }

# python3 with venv, then triton==3.6.0 in $(VENV).  Debian's python3 makes virtual
# environments only with python3-venv (ensurepip's wheels): when making one fails, that
# package is installed and it is made again.
deps-py: deps-py-versions
	@$(call need,$(PYTHON),python3)
	@if ! $(PY) -c "import triton, sys; sys.exit(triton.__version__ != '3.6.0')" 2>/dev/null; then \
	  echo "== creating $(VENV) with triton==3.6.0"; \
	  $(PYTHON) -m venv $(VENV) >/dev/null 2>&1 || \
	  { echo "== installing python3-venv"; $(call apt_get,python3-venv) && $(PYTHON) -m venv --clear $(VENV); } && \
	  $(PY) -m pip install -q --upgrade pip && $(PY) -m pip install -q triton==3.6.0 numpy; \
	fi

# one venv per release of TRITON_VERSIONS, made once and reused
deps-py-versions:
	@$(call need,$(PYTHON),python3)
	@for v in $(TRITON_VERSIONS); do \
	  py=$(VENVS)/venv-$$v/bin/python; \
	  if ! $$py -c "import triton, sys; sys.exit(triton.__version__ != '$$v')" 2>/dev/null; then \
	    echo "== creating $(VENVS)/venv-$$v with triton==$$v"; \
	    { $(PYTHON) -m venv $(VENVS)/venv-$$v >/dev/null 2>&1 || \
	      { echo "== installing python3-venv"; $(call apt_get,python3-venv) && \
	        $(PYTHON) -m venv --clear $(VENVS)/venv-$$v; }; } && \
	    $$py -m pip install -q --upgrade pip && $$py -m pip install -q triton==$$v numpy || exit 1; \
	  fi; \
	done

# ---- builds ----------------------------------------------------------------------------
# Configuring again is cheap, and turns the unit tests on once cmocka is there.
configure = cmake -S . -B $(1) $(GENERATOR) $(2) >/dev/null

build: deps-c
	$(call configure,$(BUILD),-DCMAKE_BUILD_TYPE=RelWithDebInfo)
	cmake --build $(BUILD) -j $(JOBS)

# the library and the command only: no cmocka, no tests, no benchmarks
build-cli: deps-build
	$(call configure,$(BUILD),-DCMAKE_BUILD_TYPE=RelWithDebInfo)
	cmake --build $(BUILD) -j $(JOBS) --target ctriton_cli

asan: deps-c
	$(call configure,$(ASAN),-DCMAKE_BUILD_TYPE=Debug -DCTRITON_SANITIZE=ON)
	cmake --build $(ASAN) -j $(JOBS)

# headers, libctriton.a/.so, the command, share/ctriton, the CMake package, ctriton.pc, docs
install: build-cli
	cmake --install $(BUILD) --prefix $(PREFIX)

# ---- tests -----------------------------------------------------------------------------
# the launch/cache/AOT tests lower through Triton: they need the venv
unit: build deps-py
	cd $(BUILD) && CTRITON_PYTHON=$${CTRITON_PYTHON:-$(PY)} ctest --output-on-failure -j $(JOBS)

unit-asan: asan deps-py
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  CTRITON_PYTHON=$${CTRITON_PYTHON:-$(PY)} ctest --output-on-failure -j $(JOBS)

# C kernels against their Python originals at every stage, through Triton 3.6.0.
# The raw column comes from the raw gate (ctriton rawgate --exact: the C TTIR as
# written against the committed raw goldens, no Triton); its failures fail `make unit`
# (test_rawgate), so here it only fills the column.  Afterwards every raw ✓
# row must be llir ✓ and ptx ✓ (the gate's soundness against Triton).
fidelity: build deps-py
	-$(BUILD)/ctriton --kernels $(CONFORMANCE) rawgate --exact --quiet --json $(BUILD)/raw.json
	$(PY) scripts/fidelity.py --all --ctriton $(BUILD)/ctriton --kernels $(CONFORMANCE) \
	  --verdicts tests/golden/VERDICTS.md --raw-column $(BUILD)/raw.json
	$(BUILD)/ctriton rawgate --check-verdicts tests/golden/VERDICTS.md
	@$(MAKE) --no-print-directory fidelity-versions

# The same table for every other supported release: the C kernels built for it
# (ctriton --triton X.Y.Z) against the Python originals compiled by its own
# Triton; the stages go to $(BUILD)/golden-X.Y.Z, the raw column comes from
# `ctriton diff --exact` of the two raw modules.  Fails on any row not ✓ at llir and
# ptx (a kernel the release's Python refuses must be refused alike).
fidelity-versions: build deps-py-versions
	@for v in $(TRITON_VERSIONS); do \
	  echo "== fidelity for Triton $$v"; \
	  $(VENVS)/venv-$$v/bin/python scripts/fidelity.py --all --ctriton $(BUILD)/ctriton \
	    --kernels $(CONFORMANCE) --golden $(BUILD)/golden-$$v --verdicts tests/golden/VERDICTS-$$v.md \
	    $$( [ $$v = $(NEWEST) ] && echo --source-copy tests/golden ) || exit 1; \
	done

# ctriton port on every Python original of the tree (one Python process, no edit): each
# port must build and emit the very TTIR of its hand port for every config and every
# supported release (so the hand ports' fidelity rows, every stage, hold for it); the
# untranslatable constructs of tests/port/errors must be reported at their line; and the
# kernels of tests/port/unseen, which have no hand port, are ported and compared with
# Python at every stage by the fidelity harness, for the oldest and newest release.
port-check: build deps-py deps-py-versions
	$(PY) scripts/port.py --tree --quiet --ctriton $(BUILD)/ctriton --kernels $(CONFORMANCE) \
	  --out $(BUILD)/port --errors tests/port/errors --unseen tests/port/unseen \
	  --release-python 3.6.0=$(PY) --release-python $(NEWEST)=$(VENVS)/venv-$(NEWEST)/bin/python

# Install into a scratch prefix and build examples/out-of-tree from a copy outside the
# tree, with find_package and with pkg-config: its kernel emitted, linted, run on the
# emulator against its reference, checked against its Python original, AOT-compiled.
example: build-cli deps-py
	CTRITON_PYTHON=$${CTRITON_PYTHON:-$(PY)} bash examples/out-of-tree/ci.sh $(BUILD)

# 60 seconds of libFuzzer on the TTIR parser and 30 on the emulator's compiler (ASan+UBSan);
# skipped, with a message, where clang's fuzzer runtime is missing.  Longer runs: fuzz/run.sh
fuzz-smoke:
	fuzz/run.sh smoke 60

# every public tl_*/TL_* name of include/ctriton/tl.h is in docs/cheatsheet.md, every
# public function of include/ctriton in docs/api.md
docs-check:
	$(PYTHON) tests/docs/check_cheatsheet.py
	$(PYTHON) tests/docs/check_api.py

# rewrites docs/api.md from the header comments
api-doc:
	$(PYTHON) scripts/gen_api_doc.py > docs/api.md

# ---- the Python package ----------------------------------------------------------------
# The wheel, built once per source state (scikit-build-core reuses build-py/), into
# $(BUILD)/wheel; python-test installs it into $(PKG_VENV) (made once, reused) and runs
# tests/python on the installed package (the .pth drop-in included) and the peer subset.
# (built in $(PKG_VENV) without build isolation, so that build-py/ is reused: a rebuild
# compiles only what changed)
wheel: deps-build deps-pkg
	rm -f $(BUILD)/wheel/ctriton-*.whl
	$(PKG_PY) -m pip wheel -q --no-deps --no-build-isolation -w $(BUILD)/wheel .

deps-pkg: deps-py
	@if ! $(PKG_PY) -c "import triton, torch, pytest, scikit_build_core, sys; sys.exit(triton.__version__ != '3.6.0')" 2>/dev/null; then \
	  echo "== creating $(PKG_VENV) (triton==3.6.0, numpy, torch, pytest, scikit-build-core)"; \
	  $(PYTHON) -m venv $(PKG_VENV) && $(PKG_PY) -m pip install -q --upgrade pip && \
	  $(PKG_PY) -m pip install -q triton==3.6.0 "numpy<2.4" pytest torch "scikit-build-core>=0.10"; \
	fi

python-test: wheel deps-pkg
	$(PKG_PY) -m pip install -q --no-deps --force-reinstall $(BUILD)/wheel/ctriton-*.whl
	cd /tmp && CTRITON_CACHE_DIR=$(CURDIR)/$(BUILD)/py-cache $(PKG_PY) $(CURDIR)/tests/python/test_ctriton.py
	@$(MAKE) --no-print-directory peer-subset

# Triton's own interpreter tests (not committed: scripts/peer_tests_fetch.sh finds or gets a
# copy of 3.6.0's, or TRITON_TESTS=a checkout's python/test/unit); peer-subset, part of
# python-test, runs tests/python/peer_subset.txt under CTRITON_INTERPRET=1 (a few minutes);
# without a copy reachable it says so and is skipped
peer-deps: deps-pkg
	@$(PKG_PY) -c "import scipy, xdist" 2>/dev/null || $(PKG_PY) -m pip install -q scipy pytest-xdist  # test_random.py; -n

peer-subset: peer-deps
	@if unit=$$(scripts/peer_tests_fetch.sh); then \
	  echo "== Triton's interpreter tests under CTRITON_INTERPRET=1: tests/python/peer_subset.txt ($$unit)"; \
	  CTRITON_CACHE_DIR=$(CURDIR)/$(BUILD)/py-cache $(PKG_PY) bench/peer_tests.py --tests $$unit \
	    --nodes tests/python/peer_subset.txt --sides ctriton --timeout 900; \
	else echo "== SKIPPED: Triton's interpreter tests (no copy of Triton 3.6.0's python/test reachable)"; fi

test: deps docs-check unit unit-asan fuzz-smoke fidelity port-check example python-test
	@echo "== all tests passed"

# ---- the demo ----------------------------------------------------------------------------
demo: build-cli deps-py
	@bash scripts/demo.sh $(BUILD) $(PY)

# ---- benchmarks ----------------------------------------------------------------------------
# launching from C against Python Triton, on a GPU machine (bench/RESULTS.md);
# OUT=dir receives launch_results.md, launch_bench.tgz and run.log
# tests/golden/EMU_VS_GPU.md from the recorded GPU launches (tests/golden/gpu_runs)
emu-vs-gpu: build
	CTRITON_SOURCE_DIR=$(CURDIR) CTRITON_GPU_RUNS=$(CURDIR)/$(BUILD)/golden/gpu_runs CTRITON_EMU_VS_GPU=write CTRITON_TRITON_VERSION=3.6.0 $(BUILD)/tests/test_emu_gpu_runs

bench-launch:
	OUT=$${OUT:-out/launch} bash scripts/gpu/run_launch_bench.sh

# emission speed, C against Python's frontend (bench/RESULTS.md)
bench-emit: build deps-py
	$(PY) bench/emit_bench.py --build $(BUILD) --markdown

# parsing and normalizing the largest golden (bench/parse_bench.c)
bench-parse: build
	$(BUILD)/parse_bench

# emulator speed: softmax, layer norm, matmul on 1 thread and all cores vs a C loop
bench-emu: build
	$(BUILD)/bench_emu --markdown
	$(BUILD)/bench_workloads

# the emulator benchmark's workloads from Python against TRITON_INTERPRET=1 (bench/RESULTS.md)
bench-py: python-test
	$(PKG_PY) bench/py_bench.py --markdown

# Triton's own interpreter tests under TRITON_INTERPRET=1 and CTRITON_INTERPRET=1 (bench/RESULTS.md);
# TRITON_TESTS=dir of a Triton 3.6.0 checkout's python/test/unit
peer-tests: python-test peer-deps
	$(PKG_PY) bench/peer_tests.py --tests $${TRITON_TESTS:-$$(scripts/peer_tests_fetch.sh)} -n $(JOBS) --markdown

clean:
	rm -rf $(BUILD) $(ASAN) build-fuzz build-py
