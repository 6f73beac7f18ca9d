#!/usr/bin/env bash
# Measures the H200's MUFU.LG2 (scripts/gpu/mufu_lg2_probe.cu) and brings back one tar of the
# report and the tables, at most 15 MiB (the device tool's limit per file is 16 MiB):
#   OUT=dir bash scripts/gpu/mufu_lg2_probe.sh        -> $OUT/lg2_probe.tar
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$work/mufu_lg2_probe" scripts/gpu/mufu_lg2_probe.cu
cuobjdump -sass "$work/mufu_lg2_probe" | grep -E "MUFU.LG2|FSETP|FMUL|FADD" | head -40 >"$work/sass.txt" || true
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
time "$work/mufu_lg2_probe" "$work"
cd "$work"
# most important first; later files are left out when the tar would pass 15 MiB
python3 - "$OUT/lg2_probe.tar" <<'PY'
import io, lzma, os, sys, tarfile
order = ["lg2_probe.json", "sass.txt", "sample.txt", "ftz.sums", "full.sums", "t0.d2", "tm1.d2",
         "res_e-2.i8", "res_e-3.i8", "res_e-126.i8", "res_e1.i8", "res_e-64.i8", "res_e127.i8",
         "res_e-4.i8", "res_e-8.i8", "res_e2.i8"]
limit = 15 << 20
packed = {}
for f in order:
    if os.path.exists(f):
        packed[f] = lzma.compress(open(f, "rb").read(), preset=6)
        print(f, os.path.getsize(f), "->", len(packed[f]), flush=True)
buf, used, kept = io.BytesIO(), 0, []
with tarfile.open(fileobj=buf, mode="w") as t:
    for f in order:
        if f not in packed or used + len(packed[f]) + 4096 > limit:
            continue
        data = packed[f]
        ti = tarfile.TarInfo(f + ".xz")
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
        used += len(data) + 1024
        kept.append(f)
open(sys.argv[1], "wb").write(buf.getvalue())
print("kept", kept, "left out", [f for f in order if f in packed and f not in kept])
PY
ls -la "$OUT"
