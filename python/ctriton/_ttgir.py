"""The layouts of a kernel's reductions and scans, read from its TTGIR.

The order in which the GPU combines the elements of a tt.reduce or tt.scan depends on
its operand's layout, which Triton chooses in make_ttgir; the C library reads them from
the TTGIR text (ct_emu_layouts_from_ttgir, src/emu/layout.c) into a table of
ct_emu_layout (_lib.Layout) that the emulator's compiler takes.
"""
import ctypes

from . import _lib


def layout_table(ttgir):
    """The layouts the emulator takes from TTGIR text: a ctypes array of _lib.Layout (the
    reductions and scans in order), or None for malformed text."""
    L = _lib.lib()
    text = ttgir.encode("utf-8")
    n = L.ct_emu_layouts_from_ttgir(text, None, 0)  # counted first, then read
    if n < 0:
        return None
    table = (_lib.Layout * n)()
    return table if n == 0 or L.ct_emu_layouts_from_ttgir(text, table, n) == n else None


def table_bytes(table):
    """A layout table as bytes, to compare two (None stays None)."""
    return None if table is None else ctypes.string_at(ctypes.addressof(table), ctypes.sizeof(table))
