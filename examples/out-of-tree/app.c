/*
 * app.c - ctriton used as a library: build a kernel of this project, check
 * it, and run it on the CPU emulator from C (no GPU, no Python).
 *
 *   build/app      prints the kernel's TTIR size, its lints, and the check
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ctriton/ctriton.h>

TL_DECLARE_KERNEL(bias_gelu_kernel);

int main(void)
{
    printf("ctriton %s\n", ct_version());
    ct_diags d;
    ct_diags_init(&d);
    const tl_config *cfg = &bias_gelu_kernel__configs[0];
    ct_module *m = tl_build_config(&bias_gelu_kernel, cfg, &d);
    if (!m || !ct_verify_module(m, &d)) {
        ct_diags_print(&d, stderr, true);
        return 1;
    }
    char *ttir = ct_print_module(m, 0);
    size_t lines = 0;
    for (char *p = ttir; *p; p++)
        lines += *p == '\n';
    printf("%s/%s: %zu lines of TTIR\n", bias_gelu_kernel.name, cfg->name, lines);
    free(ttir);
    ct_lint_module(m, &d);
    ct_diags_print(&d, stdout, false);

    /* 4 rows of 1000: y = gelu(x + b) */
    enum { M = 4, N = 1000 };
    static float x[M * N], b[N], y[M * N];
    for (int i = 0; i < M * N; i++)
        x[i] = (float)((i % 61) - 30) / 10.0f;
    for (int j = 0; j < N; j++)
        b[j] = (float)(j % 7) / 20.0f;
    ct_emu_kernel *k = ct_emu_compile(m, NULL, &d);
    ct_module_destroy(m);
    if (!k) {
        ct_diags_print(&d, stderr, true);
        return 1;
    }
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN);
    int bb = ct_emu_add_buffer(e, "b", b, sizeof b, CT_EMU_F32, CT_EMU_IN);
    int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg args[] = {ct_emu_ptr(bx), ct_emu_ptr(bb), ct_emu_ptr(by), ct_emu_int(N)};
    ct_emu_result r;
    ct_emu_run(e, k, &(ct_emu_launch){.grid = {M, 1, 1}}, 4, args, &r);
    if (r.status != CT_EMU_OK) {
        fprintf(stderr, "emulator: %s\n", r.fault.message);
        return 1;
    }
    double worst = 0;
    for (int i = 0; i < M * N; i++) {
        double h = (double)(x[i] + b[i % N]);
        double want = 0.5 * h * (1 + erf(h / sqrt(2.0)));
        worst = fmax(worst, fabs(y[i] - want));
    }
    printf("emulator: %lld programs, max error %.3g against erf in double: %s\n",
           (long long)r.programs, worst, worst < 1e-6 ? "PASS" : "FAIL");
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    ct_diags_free(&d);
    return worst < 1e-6 ? 0 : 1;
}
