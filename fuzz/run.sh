#!/usr/bin/env bash
# fuzz/run.sh - build and run the libFuzzer targets: the TTIR parser (fuzz_parse.c) and the
# emulator's compiler on whatever parses (fuzz_emu.c).
#
#   fuzz/run.sh build            build build-fuzz/fuzz_parse and build-fuzz/fuzz_emu
#                                (clang, ASan+UBSan+libFuzzer)
#   fuzz/run.sh run SECONDS      fuzz for SECONDS (-jobs=1 -workers=1, log in
#                                build-fuzz/fuzz-0.log) into a scratch corpus seeded
#                                from fuzz/corpus; crashes go to fuzz/crashes/
#   fuzz/run.sh smoke [SECONDS]  build, then fuzz the parser (default 60 s) and the
#                                emulator's compiler (half as long); exits 0 when clang's
#                                fuzzer runtime is missing (it says so and skips)
#   fuzz/run.sh emu SECONDS      fuzz the emulator's compiler only
#   fuzz/run.sh minimize         merge the scratch corpus into fuzz/corpus, minimized
#                                and kept small (inputs cut at 2 KiB)
#
# Seeds: fuzz/corpus (committed findings) and, copied at run time, every golden
# (tests/golden/*/*/{py.source,py.ttir,c.source}), the parser corpus (tests/text/corpus)
# the emulator's map_elementwise inputs (tests/unit/data/map_elementwise) and its inline PTX
# kernels (tests/text/ptx).
# One process, one worker: the CI machines are small and shared.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${FUZZ_BUILD:-$ROOT/build-fuzz}
CC=${FUZZ_CC:-clang}
BIN=$OUT/fuzz_parse
EMU_BIN=$OUT/fuzz_emu
SCRATCH=$OUT/corpus

build() {
    mkdir -p "$OUT"
    if ! command -v "$CC" >/dev/null 2>&1; then
        echo "fuzz: $CC not found; skipping" >&2
        return 2
    fi
    # probe for the fuzzer runtime (libclang-rt-*-dev) before building everything
    if ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){return 0;}' |
        "$CC" -x c - -fsanitize=fuzzer,address,undefined -o "$OUT/probe" 2>/dev/null; then
        echo "fuzz: $CC cannot link -fsanitize=fuzzer (is libclang-rt-dev installed?); skipping" >&2
        return 2
    fi
    local srcs
    srcs=$(ls src/ir/*.c src/text/*.c src/util/*.c src/check/*.c)
    "$CC" -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -fno-omit-frame-pointer -DFUZZ_NORMALIZE -Iinclude -Isrc $srcs fuzz/fuzz_parse.c -lm -o "$BIN"
    srcs=$(ls src/ir/*.c src/text/*.c src/util/*.c src/emu/*.c src/check/*.c)
    "$CC" -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -fno-omit-frame-pointer -Iinclude -Isrc $srcs fuzz/fuzz_emu.c -lm -lpthread -ldl -o "$EMU_BIN"
}

SEEDS=$OUT/seeds

seed() {
    mkdir -p "$SCRATCH" "$SEEDS" "$ROOT/fuzz/corpus"
    local f
    for f in "$ROOT"/tests/golden/*/*/py.source "$ROOT"/tests/golden/*/*/py.ttir \
        "$ROOT"/tests/golden/*/*/c.source "$ROOT"/tests/text/corpus/* \
        "$ROOT"/tests/unit/data/map_elementwise/*.ttir "$ROOT"/tests/text/ptx/*.ttir; do
        [ -f "$f" ] || continue
        local rel=${f#"$ROOT"/tests/}
        cp "$f" "$SEEDS/${rel//\//_}"
    done
}

# run SECONDS [extra libFuzzer flags...]
run() {
    local secs=${1:-60}
    shift || true
    seed
    mkdir -p "$ROOT/fuzz/crashes"
    "$BIN" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$ROOT/fuzz/crashes/" -print_final_stats=1 \
        -dict="$ROOT/fuzz/ttir.dict" "$@" "$SCRATCH" "$ROOT/fuzz/corpus" "$SEEDS"
}

# run_emu SECONDS: the emulator's compiler, seeded like the parser (its own scratch corpus)
run_emu() {
    local secs=${1:-30}
    seed
    mkdir -p "$ROOT/fuzz/crashes" "$OUT/corpus_emu"
    "$EMU_BIN" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$ROOT/fuzz/crashes/emu-" -print_final_stats=1 \
        -dict="$ROOT/fuzz/ttir.dict" "$OUT/corpus_emu" "$ROOT/fuzz/corpus" "$SEEDS"
}

case "${1:-smoke}" in
build) build ;;
run)
    # long runs: one job in one worker process, its log in $OUT/fuzz-0.log
    cd "$OUT" && run "${2:-60}" -jobs=1 -workers=1
    ;;
smoke)
    rc=0
    build || rc=$?
    if [ $rc -eq 2 ]; then exit 0; fi
    [ $rc -eq 0 ] || exit $rc
    run "${2:-60}"
    run_emu $(( ${2:-60} / 2 ))
    ;;
emu)
    run_emu "${2:-30}"
    ;;
minimize)
    mkdir -p "$OUT/min"
    rm -f "$OUT"/min/*
    "$BIN" -merge=1 -max_len=2048 "$OUT/min" fuzz/corpus "$SCRATCH"
    rm -f fuzz/corpus/*
    cp "$OUT"/min/* fuzz/corpus/
    ;;
*)
    echo "usage: fuzz/run.sh build|run SECONDS|smoke [SECONDS]|emu SECONDS|minimize" >&2
    exit 2
    ;;
esac
