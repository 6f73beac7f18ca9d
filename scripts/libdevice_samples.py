"""tests/unit/emu_libdevice_samples.inc from the GPU's libdevice_samples.bin files.

    python3 scripts/libdevice_samples.py FILE.bin "where it was recorded" [FILE.bin "where" ...]

Each file (written by scripts/gpu/libdevice_check.py on the GPU machine) holds records of four
uint32: the function (0 asinf, 1 logf, 2 log2f, 3 sinf, 4 cosf, 5 erff, 6 tanhf, 7 powf,
8 powif), x, y (powf's exponent bits, powif's int32 exponent, else 0) and the GPU's output.
"""
import sys

import numpy as np


def main():
    args = sys.argv[1:]
    out = ["/* (function, x, y, the GPU's output) of libdevice's f32 functions as Triton 3.6 calls them;",
           " * written by scripts/libdevice_samples.py.  0 asinf, 1 logf, 2 log2f, 3 sinf, 4 cosf, 5 erff,",
           " * 6 tanhf, 7 powf (y: the exponent's bits), 8 powif (y: the int32 exponent). */"]
    total = 0
    for path, where in zip(args[0::2], args[1::2]):
        recs = np.fromfile(path, dtype=np.uint32).reshape(-1, 4)
        out.append("/* %d records: %s */" % (len(recs), where))
        for f, x, y, g in recs:
            out.append("{%d, 0x%08x, 0x%08x, 0x%08x}," % (f, x, y, g))
        total += len(recs)
    open("tests/unit/emu_libdevice_samples.inc", "w").write("\n".join(out) + "\n")
    print(total, "records")


if __name__ == "__main__":
    main()
