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
nvcc -O3 -arch=sm_90 -Isrc/emu -o "$work/mufu_check" scripts/gpu/mufu_check.cu "$work/mufu.o" "$work/mufu_data.o" \
    "$work/mufu_lg2_data.o" -lpthread
"$work/mufu_check" | tee "$OUT/mufu_check.txt"
