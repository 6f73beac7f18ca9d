# ctriton: the two commands a newcomer needs.
#
#   make demo   build, emit a kernel's TTIR, lower it through Triton, run it on the
#               emulator and check it; on a machine with a GPU also launch it
#   make test   the cheat-sheet check, unit tests (normal and ASan+UBSan builds),
#               a short fuzz of the TTIR parser and the emulator, and the fidelity harness
#
# Both install what they need when it is missing: libcmocka-dev (apt-get) and
# triton==3.6.0 in a virtual environment reused across runs ($(VENV)), and one
# venv per other supported Triton release ($(VENVS)/venv-X.Y.Z).

VENV      ?= $(HOME)/.cache/ctriton/venv
# The other supported Triton releases (src/ir/version.c): each has a venv and
# a verdict table, tests/golden/VERDICTS-X.Y.Z.md, checked by `make fidelity`.
# NEWEST's Python TTIR is also kept under tests/golden for the emulator's tests.
TRITON_VERSIONS ?= 3.7.0 3.7.1 3.8.0 3.9.0
NEWEST    := $(lastword $(TRITON_VERSIONS))
VENVS     ?= $(HOME)/.cache/ctriton
PYTHON    ?= python3
PY        := $(VENV)/bin/python
BUILD     ?= build
ASAN      ?= build-asan
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build asan deps deps-c deps-py deps-py-versions test unit unit-asan fidelity fidelity-versions \
        docs-check demo bench bench-emit \
        bench-launch bench-parse bench-emu fuzz-smoke clean

all: build

deps: deps-c deps-py

deps-c:
	@if [ ! -f /usr/include/cmocka.h ]; then \
	  echo "== installing libcmocka-dev"; \
	  $(SUDO) apt-get install -y libcmocka-dev >/dev/null 2>&1 || \
	  { $(SUDO) apt-get update >/dev/null && $(SUDO) apt-get install -y libcmocka-dev >/dev/null; }; \
	fi
	@command -v cmake >/dev/null || { $(SUDO) apt-get install -y cmake >/dev/null 2>&1 || \
	  { $(SUDO) apt-get update >/dev/null && $(SUDO) apt-get install -y cmake >/dev/null; }; }

deps-py: deps-py-versions
	@if ! $(PY) -c "import triton, sys; sys.exit(triton.__version__ != '3.6.0')" 2>/dev/null; then \
	  echo "== creating $(VENV) with triton==3.6.0"; \
	  $(PYTHON) -m venv $(VENV) && $(PY) -m pip install -q --upgrade pip && \
	  $(PY) -m pip install -q triton==3.6.0 numpy; \
	fi

# one venv per release of TRITON_VERSIONS, made once and reused
deps-py-versions:
	@for v in $(TRITON_VERSIONS); do \
	  py=$(VENVS)/venv-$$v/bin/python; \
	  if ! $$py -c "import triton, sys; sys.exit(triton.__version__ != '$$v')" 2>/dev/null; then \
	    echo "== creating $(VENVS)/venv-$$v with triton==$$v"; \
	    $(PYTHON) -m venv $(VENVS)/venv-$$v && $$py -m pip install -q --upgrade pip && \
	    $$py -m pip install -q triton==$$v numpy || exit 1; \
	  fi; \
	done

$(BUILD)/build.ninja $(BUILD)/Makefile: CMakeLists.txt
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: deps-c $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

asan: deps-c
	cmake -S . -B $(ASAN) $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DCTRITON_SANITIZE=ON >/dev/null
	cmake --build $(ASAN) -j $(JOBS)

# the launch/cache/AOT tests lower through Triton: they need the venv
unit: build deps-py
	cd $(BUILD) && CTRITON_PYTHON=$${CTRITON_PYTHON:-$(PY)} ctest --output-on-failure -j $(JOBS)

unit-asan: asan deps-py
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  CTRITON_PYTHON=$${CTRITON_PYTHON:-$(PY)} ctest --output-on-failure -j $(JOBS)

# C kernels against their Python originals at every stage, through Triton 3.6.0.
# The raw column comes from the raw gate (ctriton rawgate: normalized C TTIR
# against the committed raw goldens, no Triton); its failures fail `make unit`
# (test_rawgate), so here it only fills the column.  Afterwards every raw ✓
# row must be llir ✓ and ptx ✓ (the gate's soundness against Triton).
fidelity: build deps-py
	-$(BUILD)/ctriton rawgate --quiet --json $(BUILD)/raw.json
	$(PY) scripts/fidelity.py --all --ctriton $(BUILD)/ctriton --verdicts tests/golden/VERDICTS.md \
	  --raw-column $(BUILD)/raw.json
	$(BUILD)/ctriton rawgate --check-verdicts tests/golden/VERDICTS.md
	@$(MAKE) --no-print-directory fidelity-versions

# The same table for every other supported release: the C kernels built for it
# (ctriton --triton X.Y.Z) against the Python originals compiled by its own
# Triton; the stages go to $(BUILD)/golden-X.Y.Z, the raw column comes from
# `ctriton diff` of the two raw modules.  Fails on any row not ✓ at llir and
# ptx (a kernel the release's Python refuses must be refused alike).
fidelity-versions: build deps-py-versions
	@for v in $(TRITON_VERSIONS); do \
	  echo "== fidelity for Triton $$v"; \
	  $(VENVS)/venv-$$v/bin/python scripts/fidelity.py --all --ctriton $(BUILD)/ctriton \
	    --golden $(BUILD)/golden-$$v --verdicts tests/golden/VERDICTS-$$v.md \
	    $$( [ $$v = $(NEWEST) ] && echo --source-copy tests/golden ) || exit 1; \
	done

# 60 seconds of libFuzzer on the TTIR parser and 30 on the emulator's compiler (ASan+UBSan);
# skipped, with a message, where clang's fuzzer runtime is missing.  Longer runs: fuzz/run.sh
fuzz-smoke:
	fuzz/run.sh smoke 60

# every public tl_*/TL_* name of include/ctriton/tl.h is in docs/cheatsheet.md
docs-check:
	$(PYTHON) tests/docs/check_cheatsheet.py

test: deps docs-check unit unit-asan fuzz-smoke fidelity
	@echo "== all tests passed"

# launching from C against Python Triton, on a GPU machine (bench/RESULTS.md);
# OUT=dir receives launch_results.md, launch_bench.tgz and run.log
bench-launch:
	OUT=$${OUT:-out/launch} bash scripts/gpu/run_launch_bench.sh

# emission speed, C against Python's frontend (bench/RESULTS.md)
bench-emit: build deps-py
	$(PY) bench/emit_bench.py --build $(BUILD) --markdown

# parsing and normalizing the largest golden (bench/parse_bench.c)
bench-parse: build
	$(BUILD)/parse_bench

demo: build deps-py
	@bash scripts/demo.sh $(BUILD) $(PY)

# emulator speed: softmax, layer norm, matmul on 1 thread and all cores vs a C loop
bench-emu: build
	$(BUILD)/bench_emu --markdown

clean:
	rm -rf $(BUILD) $(ASAN) build-fuzz
