/*
 * fuzz_emu.c - libFuzzer target for the emulator's compiler on parsed TTIR.
 *
 * A parsed module is not trusted by the emulator: any text the parser accepts must either
 * compile to a kernel or be refused with a diagnostic (never a crash, a leak, an
 * out-of-bounds access or undefined behaviour: the build uses ASan and UBSan).  Kernels
 * that compile are also run (run_kernel below): one program on one thread under a step
 * budget of 256 loop iterations (ct_emu_launch.max_steps: an endless loop is an error, not
 * a hang), each pointer parameter given a buffer of 4 KiB of its pointee, each integer 16
 * and each float 1.0, so that the handlers' own checks (bounds, masks, wild pointers,
 * budgets) are fuzzed too.  Kernels taking a tensor descriptor, or whose program needs
 * more than 16 MiB of scratch, are only compiled.
 *
 * Build and run: fuzz/run.sh emu-smoke [SECONDS] (see there).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctriton/emu.h"
#include "ctriton/text.h"
#include "emu/mufu_internal.h"

/* the MUFU tables are decoded once, on first use: seconds under the fuzzer's instrumentation,
 * which would count against the first input that runs an exp2 (a false timeout) */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    emu_mufu_decode_all();
    return 0;
}

enum { BUF_BYTES = 4096, MAX_PARAMS = 64 };

static void run_kernel(const ct_emu_kernel *k)
{
    int np = ct_emu_kernel_nparams(k);
    if (np > MAX_PARAMS || ct_emu_kernel_frame_bytes(k) > ((size_t)16 << 20))
        return;
    for (int i = 0; i < np; i++)
        if (ct_emu_kernel_param(k, i)->kind == CT_EMU_PARAM_DESC)
            return;
    static uint8_t bufs[MAX_PARAMS][BUF_BYTES] __attribute__((aligned(64)));
    ct_emu *e = ct_emu_new();
    ct_emu_arg args[MAX_PARAMS];
    for (int i = 0; i < np; i++) {
        const ct_emu_param *p = ct_emu_kernel_param(k, i);
        if (p->kind == CT_EMU_PARAM_PTR) {
            memset(bufs[i], 0, BUF_BYTES);
            size_t es = ct_emu_dtype_size(p->elem);
            size_t bytes = es ? BUF_BYTES / es * es : BUF_BYTES;
            int id = ct_emu_add_buffer(e, "buf", bufs[i], bytes, p->elem, CT_EMU_INOUT);
            if (id < 0)
                abort(); /* a 4 KiB buffer of a parameter's own dtype must register */
            args[i] = ct_emu_ptr(id);
        } else if (p->kind == CT_EMU_PARAM_INT) {
            args[i] = ct_emu_int(p->bits == 1 ? 1 : 16);
        } else {
            args[i] = ct_emu_float(1.0);
        }
    }
    FILE *sink = fopen("/dev/null", "w");
    ct_emu_launch l = {{1, 1, 1}, 1, 0, sink, 256};
    ct_emu_result r;
    ct_emu_status st = ct_emu_run(e, k, &l, np, args, &r);
    if (st != CT_EMU_OK && !r.fault.message[0])
        abort(); /* a fault must say why */
    if (sink)
        fclose(sink);
    ct_emu_free(e);
}

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
    if (k)
        run_kernel(k);
    ct_emu_kernel_free(k);
    ct_diags_free(&d);
    ct_module_destroy(m);
    return 0;
}
