/*
 * test_emu_dots.c - the emulator's tensor-core dots against the H200's, tile by tile.
 *
 * tests/golden/dots/<name>/ holds one single-tile d = tl.dot(a, b, c) captured on the H200 by
 * scripts/gpu/capture_dots.py for every operand type Triton feeds Hopper's tensor cores (f16,
 * bf16, tf32, fp8 e4m3 and e5m2; f32 and f16 accumulators) and the tile shapes and warp
 * counts for which Triton picks each instruction (wgmma with N = 8..256, one or two
 * warpgroups; mma.sync for small tiles): case.json (shape, types, seeds, the instruction in
 * the PTX), py.ttir (the kernel), py.ttgir (its layouts) and out.bin (the GPU's d).
 * The inputs are rebuilt here from the seeds with the capture's own hash (dot_inputs), the
 * TTIR is run on the emulator (the default, GPU dot model) and d is compared byte for byte.
 * Every tile must be bit-identical except those listed in `known` (measured deviation and
 * why); a listed tile that becomes exact fails too, so the list stays true.
 */
#include <dirent.h>
#include <math.h>

#include "ctriton/text.h"
#include "emu_test.h"
#include "util/util.h"

static const char *src_dir(void)
{
    const char *s = getenv("CTRITON_SOURCE_DIR");
    return s ? s : CTRITON_SOURCE_DIR;
}

/* capture_dots.py's dot_inputs(): splitmix64 of seed * 2^32 + i; sign = bit 63, mantissa
 * 1 + bits 0..22 / 2^23, exponent ((bits 32..35) mod 13) - 6; rounded to f32 */
static uint64_t splitmix64(uint64_t x)
{
    uint64_t z = x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void dot_inputs(uint64_t seed, int64_t n, ct_emu_dtype t, void *out)
{
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = splitmix64(seed * (1ull << 32) + (uint64_t)i);
        double mant = 1.0 + (double)(h & 0x7FFFFF) / (double)(1 << 23);
        int ex = (int)((h >> 32) & 15) % 13 - 6;
        double v = ldexp(h >> 63 ? -mant : mant, ex);
        ct_emu_set(t, out, i, (double)(float)v);
    }
}

/* ---- case.json (the few fields written by capture_dots.py) --------------------------- */

typedef struct dot_case {
    char name[128], operands[16], acc[16], instr[160];
    int bm, bn, bk, num_warps;
    uint64_t seeds[3];
} dot_case;

static bool json_str(const char *j, const char *key, char *out, size_t n)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *p = strstr(j, pat);
    if (!p)
        return false;
    p += strlen(pat);
    size_t i = 0;
    while (p[i] && p[i] != '"' && i + 1 < n) {
        out[i] = p[i];
        i++;
    }
    out[i] = 0;
    return p[i] == '"';
}

static bool json_int(const char *j, const char *key, long long *v)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(j, pat);
    return p && sscanf(p + strlen(pat), "%lld", v) == 1;
}

static bool read_case(const char *text, dot_case *c)
{
    memset(c, 0, sizeof *c);
    long long bm, bn, bk, nw;
    if (!json_str(text, "name", c->name, sizeof c->name) ||
        !json_str(text, "operands", c->operands, sizeof c->operands) ||
        !json_str(text, "acc", c->acc, sizeof c->acc) || !json_int(text, "BM", &bm) ||
        !json_int(text, "BN", &bn) || !json_int(text, "BK", &bk) || !json_int(text, "num_warps", &nw))
        return false;
    const char *s = strstr(text, "\"seeds\": [");
    unsigned long long s0, s1, s2;
    if (!s || sscanf(s + 10, " %llu , %llu , %llu", &s0, &s1, &s2) != 3)
        return false;
    const char *in = strstr(text, "\"instructions\": [");
    if (in) {
        const char *q = strchr(in + 17, '"');
        if (q)
            sscanf(q + 1, "%159[^\"]", c->instr);
    }
    c->bm = (int)bm, c->bn = (int)bn, c->bk = (int)bk, c->num_warps = (int)nw;
    c->seeds[0] = s0, c->seeds[1] = s1, c->seeds[2] = s2;
    return c->bm > 0 && c->bn > 0 && c->bk > 0 && c->bm * c->bk <= (1 << 20) && c->bk * c->bn <= (1 << 20) &&
           c->bm * c->bn <= (1 << 20);
}

/* ---- known deviations ---------------------------------------------------------------- */

static const struct {
    const char *name;
    int ulp;        /* the most ulps an element may differ by */
    int64_t elems;  /* the most elements that may differ */
    const char *why;
} known[] = {
#include "emu_dots_known.inc"
    {NULL, 0, 0, NULL} /* end; the list may otherwise be empty */
};

static int known_index(const char *name)
{
    for (size_t i = 0; known[i].name; i++)
        if (!strcmp(name, known[i].name))
            return (int)i;
    return -1;
}

static ct_emu_dtype operand_type(const char *o)
{
    return !strcmp(o, "f16") ? CT_EMU_F16 : !strcmp(o, "bf16") ? CT_EMU_BF16
         : !strcmp(o, "e4m3") ? CT_EMU_F8E4NV : !strcmp(o, "e5m2") ? CT_EMU_F8E5 : CT_EMU_F32;
}

/* 1 pass, 0 fail */
static int run_case(const char *dir, const dot_case *c, int *seen)
{
    char path[4600];
    snprintf(path, sizeof path, "%s/py.ttir", dir);
    size_t len = 0;
    char *text = ct_read_file(path, &len);
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = text ? ct_parse_module(text, len, path, &d) : NULL;
    free(text);
    snprintf(path, sizeof path, "%s/py.ttgir", dir);
    char *ttgir = ct_read_file(path, &len);
    ct_emu_layout layouts[8];
    int nl = ttgir ? ct_emu_layouts_from_ttgir(ttgir, layouts, 8) : 0;
    free(ttgir);
    ct_emu_options eo = {c->num_warps, nl > 0 && nl <= 8 ? layouts : NULL, nl > 0 && nl <= 8 ? nl : 0,
                         CT_EMU_DOT_GPU};
    ct_emu_kernel *k = m ? ct_emu_compile_ex(m, NULL, &eo, &d) : NULL;
    if (!k) {
        printf("  %s: FAIL: the TTIR does not %s\n", c->name, m ? "compile" : "parse");
        ct_diags_print(&d, stdout, false);
    }
    ct_module_destroy(m);
    ct_diags_free(&d);
    if (!k)
        return 0;
    ct_emu_dtype ot = operand_type(c->operands), at = !strcmp(c->acc, "f16") ? CT_EMU_F16 : CT_EMU_F32;
    size_t na = (size_t)c->bm * c->bk, nb = (size_t)c->bk * c->bn, nc = (size_t)c->bm * c->bn;
    size_t es = ct_emu_dtype_size(at);
    void *A = malloc(na * ct_emu_dtype_size(ot)), *B = malloc(nb * ct_emu_dtype_size(ot));
    void *C = malloc(nc * es), *D = malloc(nc * es);
    assert_true(A && B && C && D);
    dot_inputs(c->seeds[0], (int64_t)na, ot, A);
    dot_inputs(c->seeds[1], (int64_t)nb, ot, B);
    dot_inputs(c->seeds[2], (int64_t)nc, at, C);
    ct_emu *e = ct_emu_new();
    ct_emu_arg args[4] = {
        ct_emu_ptr(ct_emu_add_buffer(e, "A", A, na * ct_emu_dtype_size(ot), ot, CT_EMU_IN)),
        ct_emu_ptr(ct_emu_add_buffer(e, "B", B, nb * ct_emu_dtype_size(ot), ot, CT_EMU_IN)),
        ct_emu_ptr(ct_emu_add_buffer(e, "C", C, nc * es, at, CT_EMU_IN)),
        ct_emu_ptr(ct_emu_add_buffer(e, "D", D, nc * es, at, CT_EMU_OUT)),
    };
    ct_emu_result r;
    ct_emu_launch l = {{1, 1, 1}, 1, 0, NULL};
    int ok = 1;
    if (ct_emu_kernel_nparams(k) != 4 || ct_emu_run(e, k, &l, 4, args, &r) != CT_EMU_OK) {
        printf("  %s: FAIL: %s\n", c->name, ct_emu_kernel_nparams(k) != 4 ? "not 4 parameters" : r.fault.message);
        ok = 0;
        goto out;
    }
    snprintf(path, sizeof path, "%s/out.bin", dir);
    uint8_t *gpu = (uint8_t *)ct_read_file(path, &len);
    if (!gpu || len != nc * es) {
        printf("  %s: FAIL: out.bin missing or of the wrong size\n", c->name);
        free(gpu);
        ok = 0;
        goto out;
    }
    int64_t differ = 0;
    for (size_t i = 0; i < nc; i++)
        differ += memcmp((uint8_t *)D + i * es, gpu + i * es, es) != 0;
    ct_emu_check chk;
    ct_emu_compare(at, D, (int64_t)nc, gpu, (int64_t)nc, 0, 0, false, &chk);
    int64_t ulp = differ ? chk.max_ulp : 0;
    int ki = known_index(c->name);
    if (ki >= 0)
        seen[ki] = 1;
    bool pass = ki < 0 ? differ == 0 : differ > 0 && differ <= known[ki].elems && ulp <= known[ki].ulp;
    printf("  %-26s %-58s %6lld of %6zu differ, max %lld ulp%s: %s\n", c->name, c->instr, (long long)differ,
           nc, (long long)ulp, ki >= 0 ? " (listed)" : "", pass ? "PASS" : "FAIL");
    ok = pass;
    free(gpu);
out:
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    free(A), free(B), free(C), free(D);
    return ok;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void t_dots_vs_gpu(void **s)
{
    (void)s;
    char top[4200];
    snprintf(top, sizeof top, "%s/tests/golden/dots", src_dir());
    DIR *dir = opendir(top);
    char *names[256];
    int n = 0;
    struct dirent *de;
    while (dir && (de = readdir(dir)))
        if (de->d_name[0] != '.' && n < 256)
            names[n++] = strdup(de->d_name);
    if (dir)
        closedir(dir);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    int seen[sizeof known / sizeof known[0] + 1];
    memset(seen, 0, sizeof seen);
    int fails = 0;
    for (int i = 0; i < n; i++) {
        char cdir[4500], cpath[4600];
        snprintf(cdir, sizeof cdir, "%s/%s", top, names[i]);
        snprintf(cpath, sizeof cpath, "%s/case.json", cdir);
        size_t len = 0;
        char *j = ct_read_file(cpath, &len);
        dot_case c;
        if (!j || !read_case(j, &c)) {
            printf("  %s: FAIL: case.json missing or malformed\n", names[i]);
            fails++;
        } else {
            fails += !run_case(cdir, &c, seen);
        }
        free(j);
        free(names[i]);
    }
    for (size_t i = 0; known[i].name; i++)
        if (!seen[i]) {
            printf("  FAIL: listed tile %s was not captured\n", known[i].name);
            fails++;
        }
    printf("%d captured tiles: %d failed\n", n, fails);
    if (n < 60) {
        printf("  FAIL: %d captured tiles under %s, 60 expected\n", n, top);
        fails++;
    }
    assert_int_equal(fails, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_dots_vs_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
