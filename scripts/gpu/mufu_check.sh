#!/usr/bin/env bash
# The emulator's MUFU models against the H200 on every input (scripts/gpu/mufu_check.cu):
#   OUT=dir bash scripts/gpu/mufu_check.sh      -> $OUT/mufu_check.txt, exit 0 when all agree
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
gcc -O2 -ffp-contract=off -c src/emu/mufu.c -o "$work/mufu.o"
gcc -O2 -ffp-contract=off -c src/emu/mufu_data.c -Isrc/emu -o "$work/mufu_data.o"
gcc -O2 -ffp-contract=off -c src/emu/mufu_lg2_data.c -Isrc/emu -o "$work/mufu_lg2_data.o"
# the decoded tables' disk cache (mufu_cache.c) and the file helpers it uses
for f in src/emu/mufu_cache.c src/util/util.c src/util/alloc.c; do
    gcc -O2 -c "$f" -Isrc -Iinclude -Isrc/emu -o "$work/$(basename "$f" .c).o"
done
nvcc -O3 -arch=sm_90 -Isrc/emu -o "$work/mufu_check" scripts/gpu/mufu_check.cu "$work/mufu.o" "$work/mufu_data.o" \
    "$work/mufu_lg2_data.o" "$work/mufu_cache.o" "$work/util.o" "$work/alloc.o" -lpthread
"$work/mufu_check" | tee "$OUT/mufu_check.txt"
