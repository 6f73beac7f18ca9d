/*
 * test_aot.c - AOT output generated for real (lowered by Triton for sm_80,
 * sm_90 and sm_100 on this CPU machine), compiled with the system C compiler
 * (-std=c11 -Wall -Wextra -Werror -pedantic), its header compiled as C++, and
 * run: the launcher's checks (missing arguments, 16-alignment the signature
 * promised, grid limits, no driver) answer with error codes, never exit().
 * The examples/aot program is built against generated launchers too.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctriton/compile.h"
#include "ctriton/cuda.h"
#include "kernels_testutil.h"
#include "launch_testutil.h"

/* y = flag ? x[offs * stride] * alpha + h : x: an fp32 scalar, an fp16
 * scalar, a bool, a parameter specialized to 1 and a :16 int. */
TL_KERNEL(aot_scale_kernel, (x_ptr, y_ptr, alpha, h, flag, stride, n), (int, BLOCK))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor offs = tl_add(tl_mul(pid, BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor x = tl_load(tl_add(x_ptr, tl_mul(offs, stride)), .mask = mask);
    tl_tensor y = tl_add(tl_mul(x, alpha), h);
    y = tl_where(flag, y, x);
    tl_store(tl_add(y_ptr, offs), y, .mask = mask);
}

static const char *scale_sig =
    "x_ptr=*fp32:16 y_ptr=*fp32:16 alpha=fp32 h=fp16 flag=u1 stride=1 n=i32:16";

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    if (st == -1 || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

static const char *cc(void)
{
    const char *c = getenv("CC");
    return c && *c ? c : "cc";
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char *scale_main =
    "#include \"scale_aot.h\"\n"
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    scale_aot_args a = {.x_ptr = 0x1000, .y_ptr = 0x2000, .alpha = 1.5f, .h = 0.5f,\n"
    "                        .flag = true, .n = 32};\n"
    "    _Static_assert(_Generic(a.alpha, float: 1, default: 0), \"fp32 scalars are float\");\n"
    "    _Static_assert(_Generic(a.h, float: 1, default: 0), \"fp16 scalars are passed as float\");\n"
    "    _Static_assert(_Generic(a.n, int32_t: 1, default: 0), \"i32 is int32_t\");\n"
    "    _Static_assert(_Generic(a.x_ptr, uint64_t: 1, default: 0), \"pointers are CUdeviceptr\");\n"
    "    _Static_assert(sizeof a == 8 + 8 + 4 + 4 + 1 + 3 + 4, \"no field for stride\");\n"
    "    int rc = 0;\n"
    "    if (scale_aot_launch(NULL, 1, 1, 1, NULL) != CT_AOT_ERR_ARGS) rc |= 1;\n"
    "    a.n = 33;\n"
    "    if (scale_aot_launch(NULL, 1, 1, 1, &a) != CT_AOT_ERR_ALIGN ||\n"
    "        !strstr(scale_aot_error(), \"`n` = 33 is not a multiple of 16\")) rc |= 2;\n"
    "    a.n = 32;\n"
    "    a.y_ptr = 0x2008;\n"
    "    if (scale_aot_launch(NULL, 1, 1, 1, &a) != CT_AOT_ERR_ALIGN ||\n"
    "        !strstr(scale_aot_error(), \"`y_ptr` = 0x2008\")) rc |= 4;\n"
    "    a.y_ptr = 0x2000;\n"
    "    if (scale_aot_launch(NULL, 1, 1, 65536, &a) != CT_AOT_ERR_GRID) rc |= 8;\n"
    "    if (scale_aot_launch(NULL, 0x80000000u, 1, 1, &a) != CT_AOT_ERR_GRID) rc |= 16;\n"
    "    if (scale_aot_launch(NULL, 0, 1, 1, &a) != CT_AOT_OK) rc |= 32; /* nothing to run */\n"
    "    int want = argc > 1 ? atoi(argv[1]) : -1;\n"
    "    int got = -1;\n"
    "    if (want >= 0) { /* only where no driver can run it: the pointers are made up */\n"
    "        got = scale_aot_launch(NULL, 1, 1, 1, &a);\n"
    "        if (got != want) rc |= 64;\n"
    "    }\n"
    "    printf(\"%d %s | %s\\n\", got, scale_aot_error(), scale_aot_archs);\n"
    "    return rc;\n"
    "}\n";

static void t_generate_compile_run(void **state)
{
    (void)state;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/aot", tu_cache);
    static const int archs[] = {80, 90, 100};
    ct_aot_request r = {.def = &aot_scale_kernel, .name = "scale_aot", .signature = scale_sig,
                        .constexprs = "BLOCK=256", .archs = archs, .narchs = 3,
                        .origin = "test_aot.c"};
    tl_options_default(&r.opts);
    ct_diags d;
    ct_diags_init(&d);
    ct_status s = ct_aot_write(&r, dir, &d);
    if (s != CT_OK)
        ct_diags_print(&d, stderr, false);
    ct_diags_free(&d);
    assert_int_equal(s, CT_OK);

    char path[4300];
    snprintf(path, sizeof path, "%s/scale_aot.h", dir);
    char *h = slurp(path);
    assert_non_null(strstr(h, "    float alpha; /* fp32 */"));
    assert_non_null(strstr(h, "    float h; /* fp16 */"));
    assert_non_null(strstr(h, "    bool flag; /* u1 */"));
    assert_non_null(strstr(h, "/* stride: specialized to 1, not an argument */"));
    assert_non_null(strstr(h, "    int32_t n; /* i32, a multiple of 16 */"));
    assert_non_null(strstr(h, "sm_80 sm_90a sm_100a"));
    assert_null(strstr(h, "exit("));
    free(h);
    snprintf(path, sizeof path, "%s/scale_aot.c", dir);
    char *c = slurp(path);
    assert_non_null(strstr(c, "scale_aot_cubin_sm80[")); /* three cubins */
    assert_non_null(strstr(c, "scale_aot_cubin_sm90["));
    assert_non_null(strstr(c, "scale_aot_cubin_sm100["));
    assert_non_null(strstr(c, "dlopen(\"libcuda.so.1\""));
    assert_null(strstr(c, "exit("));
    assert_null(strstr(c, "abort("));
    assert_null(strstr(c, "double alpha"));
    free(c);

    /* compiled strictly, and its header as C++ */
    snprintf(path, sizeof path, "%s/main.c", dir);
    write_text(path, scale_main);
    assert_int_equal(sh("cd '%s' && %s -std=c11 -Wall -Wextra -Werror -pedantic -O1 -o scale main.c "
                        "scale_aot.c -ldl -lpthread 2>&1",
                        dir, cc()),
                     0);
    snprintf(path, sizeof path, "%s/cxx.cc", dir);
    write_text(path, "#include \"scale_aot.h\"\nint f(scale_aot_args *a) { return scale_aot_launch(0, 1, 1, 1, a); }\n");
    if (sh("command -v c++ >/dev/null") == 0)
        assert_int_equal(sh("cd '%s' && c++ -std=c++11 -Wall -Werror -fsyntax-only cxx.cc", dir), 0);

    /* run: every check answers with a code; with no driver, the launch says so
     * (with a driver, the made-up pointers are never launched) */
    int want = ct_cuda() ? -1 : 1; /* CT_AOT_ERR_NO_DRIVER */
    assert_int_equal(sh("cd '%s' && ./scale %d", dir, want), 0);
}

static void t_refusals(void **state)
{
    (void)state;
    const ct_kernel_entry *k = tu_kernel("add_kernel");
    ct_aot_request r = {.def = k->def, .name = "not an identifier",
                        .signature = k->configs[0].signature, .constexprs = k->configs[0].constexprs};
    tl_options_default(&r.opts);
    char *h, *c;
    ct_diags d;
    ct_diags_init(&d);
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "not a C identifier"));
    r.name = NULL;
    r.signature = "x_ptr=*fp32 y_ptr=*fp32";
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "no type for parameter `output_ptr`"));
    r.signature = "x_ptr=*fp99 y_ptr=*fp32 output_ptr=*fp32 n_elements=i32";
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "unknown type `*fp99`"));
    /* an fp8 scalar has no C type */
    r.signature = "x_ptr=*fp32 y_ptr=*fp32 output_ptr=*fp32 n_elements=fp8e4nv";
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "cannot be a scalar argument"));
    r.signature = k->configs[0].signature;
    static const int twice[] = {90, 90};
    r.archs = twice;
    r.narchs = 2;
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "twice"));
    /* a constexpr the kernel does not have: the language refuses it */
    r.narchs = 0;
    r.constexprs = "BLOCK=3";
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_ERR_COMPILE);
    assert_non_null(strstr(ct_errmsg(), "BLOCK"));
    ct_diags_free(&d);
}

/* None arguments (Triton's constexpr None): gone from the launcher's argument struct, as from
 * the kernel's signature; the same kernel with its pointers has them */
static void t_none_args(void **state)
{
    (void)state;
    const ct_kernel_entry *k = tu_kernel("port_none_args");
    assert_non_null(k);
    for (int i = 0; i < 2; i++) {
        const tl_config *cfg = ct_kernel_config(k, i ? "with_ptrs" : "none_ptrs");
        assert_non_null(cfg);
        ct_aot_request r = {.def = k->def, .name = "none_aot", .signature = cfg->signature,
                            .constexprs = cfg->constexprs};
        tl_options_default(&r.opts);
        char *h = NULL, *c = NULL;
        ct_diags d;
        ct_diags_init(&d);
        ct_status st = ct_aot_generate(&r, &h, &c, &d);
        if (st != CT_OK)
            ct_diags_print(&d, stderr, false);
        assert_int_equal(st, CT_OK);
        assert_non_null(strstr(h, "uint64_t x_ptr;"));
        assert_non_null(strstr(h, "uint64_t y_ptr;"));
        if (i == 0) {
            assert_non_null(strstr(h, "/* scale_ptr: specialized to None, not an argument */"));
            assert_non_null(strstr(h, "/* idx_ptr: specialized to None, not an argument */"));
            assert_null(strstr(h, "uint64_t scale_ptr;"));
        } else {
            assert_non_null(strstr(h, "uint64_t scale_ptr;"));
            assert_non_null(strstr(h, "uint64_t idx_ptr;"));
        }
        free(h);
        free(c);
        ct_diags_free(&d);
    }
}

/* The example program builds against launchers made by `ctriton aot`. */
static void t_example_builds(void **state)
{
    (void)state;
    const char *ct = getenv("CTRITON_BIN");
    char bin[4200];
    if (!ct || !*ct) {
        /* the ctriton command of this build: ../ctriton from build/tests/test_aot */
        ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 16);
        assert_true(n > 0);
        bin[n] = 0;
        *strrchr(bin, '/') = 0;
        *strrchr(bin, '/') = 0;
        strcat(bin, "/ctriton");
        ct = bin;
    }
    char gen[4200];
    snprintf(gen, sizeof gen, "%s/example", tu_cache);
    assert_int_equal(sh("make -s -C '%s/examples/aot' CTRITON='%s' GEN='%s' ARCHS=90 "
                        "CFLAGS='-std=c11 -O1 -Wall -Wextra -Werror' >/dev/null",
                        CTRITON_SOURCE_DIR, ct, gen),
                     0);
    int rc = sh("'%s/aot_example' >/dev/null", gen);
    if (ct_cuda())
        assert_int_equal(rc, 0);
    else
        assert_int_equal(rc, 77); /* skipped: no driver, and it said so */
}

/* A kernel written in Python, from its TTIR (ct_aot_request.ttir): the launcher's fields
 * come from the TTIR's signature, a host tensor descriptor with its shape and strides
 * becomes one ct_aot_tensordesc field, and what cannot be a launcher is refused. */
static void t_from_ttir(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/golden/ops_host_desc/64x32_fp32/py.source", CTRITON_SOURCE_DIR);
    char *ttir = slurp(path);
    ct_diags d;
    ct_diags_init(&d);
    ct_aot_request r = {.ttir = ttir, .ttir_file = path, .name = "py_host_desc"};
    tl_options_default(&r.opts);
    char *h, *c;
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_OK);
    assert_non_null(strstr(h, "ct_aot_tensordesc a_desc; /* tensor descriptor of fp32, rank 2, block 64 x 32 */"));
    assert_non_null(strstr(h, "ct_aot_tensordesc c_desc;"));
    assert_null(strstr(h, "a_desc_0")); /* its shape and strides are the descriptor's */
    assert_non_null(strstr(h, "Signature:  a_desc=tensordesc<fp32[64,32]> c_desc=tensordesc<fp32[64,32]>"));
    assert_non_null(strstr(c, "py_host_desc_launch("));
    free(h);
    free(c);
    /* another function than the public one, by name: none here */
    r.func = "nope";
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "no function @nope"));
    r.func = NULL;
    /* a module that does not parse names the place */
    r.ttir = "module {\n  tt.func public @k(%x: !tt.ptr<f32>) {\n    tt.bogus\n  }\n}\n";
    r.ttir_file = "bad.ttir";
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "bad.ttir"));
    /* a tensor parameter cannot come from a launcher */
    ct_diags_clear(&d);
    r.ttir = "module {\n  tt.func public @k(%x: tensor<4xf32>) {\n    tt.return\n  }\n}\n";
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "cannot pass"));
    /* a definition and TTIR at once */
    r.def = &aot_scale_kernel;
    assert_int_equal(ct_aot_generate(&r, &h, &c, &d), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "not both"));
    ct_diags_free(&d);
    free(ttir);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test_setup_teardown(t_generate_compile_run, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_refusals, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_none_args, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_example_builds, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_from_ttir, tu_cache_setup, tu_cache_teardown),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
