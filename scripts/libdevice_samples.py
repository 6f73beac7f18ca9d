"""tests/unit/emu_libdevice_samples.inc from the GPU's libdevice_samples.bin.

    python3 scripts/libdevice_samples.py OUT/libdevice_samples.bin "NVIDIA H200, triton 3.6.0"

The file (written by scripts/gpu/libdevice_check.py on the GPU machine) holds records of four
uint32: the function (0 asinf, 1 logf, 2 log2f, 3 sinf, 4 cosf, 5 erff, 6 tanhf, 7 powf,
8 powif), x, y (powf's exponent bits, powif's int32 exponent, else 0) and the GPU's output.
"""
import sys

import numpy as np


def main():
    recs = np.fromfile(sys.argv[1], dtype=np.uint32).reshape(-1, 4)
    out = ["/* (function, x, y, the GPU's output) of libdevice's f32 functions as Triton 3.6 calls them,",
           " * recorded by scripts/gpu/libdevice_check.py on %s; written by" % sys.argv[2],
           " * scripts/libdevice_samples.py.  0 asinf, 1 logf, 2 log2f, 3 sinf, 4 cosf, 5 erff, 6 tanhf,",
           " * 7 powf (y: the exponent's bits), 8 powif (y: the int32 exponent). */"]
    for f, x, y, g in recs:
        out.append("{%d, 0x%08x, 0x%08x, 0x%08x}," % (f, x, y, g))
    open("tests/unit/emu_libdevice_samples.inc", "w").write("\n".join(out) + "\n")
    print(len(recs), "records")


if __name__ == "__main__":
    main()
