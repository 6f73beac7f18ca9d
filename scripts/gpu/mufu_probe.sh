#!/usr/bin/env bash
# Measures the H200's MUFU operations (scripts/gpu/mufu_probe.cu) and brings back the report
# and the tables:  OUT=dir bash scripts/gpu/mufu_probe.sh
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$work/mufu_probe" scripts/gpu/mufu_probe.cu
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
time "$work/mufu_probe" "$work"
cp "$work/mufu_probe.json" "$OUT/"
cd "$work" && python3 -c "
import tarfile, glob
with tarfile.open('$OUT/mufu_tables.tar.xz', 'w:xz', preset=6) as t:
    for f in sorted(glob.glob('*.delta') + glob.glob('*.sums') + glob.glob('*.raw') + glob.glob('*.d32')):
        t.add(f)
"
ls -la "$OUT"
