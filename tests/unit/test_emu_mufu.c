/*
 * test_emu_mufu.c - the emulator's MUFU models (src/emu/mufu.c) against what the H200 measured.
 *
 * 1. Every table entry: the sum of the entries' bits over each block of 65536 must equal the
 *    GPU's (tests/golden/mufu/NAME.sums, written by scripts/gpu/mufu_probe.cu on the H200);
 *    one entry off by one changes its block's sum.
 * 2. The special inputs the probe ran (zeros, subnormals, the extremes, infinities, NaNs, ...)
 *    give the GPU's bits (tests/golden/mufu/probe_round1.json, "specials").
 * 3. div.full's scalings: quotients whose divisor is huge or subnormal agree with the
 *    sequence's algebra (a / b = (a/4) * rcp(b/4) = (a 2^24) * rcp(b 2^24)).
 * 4. lg2.approx (MUFU.LG2): the H200's outputs of 4096 inputs of both forms (lg2_sample.txt),
 *    and the hash sums of every output per block of 2^16 inputs against the GPU's (lg2_ftz.sums,
 *    lg2_full_subnormal.sums, scripts/gpu/mufu_lg2_probe.cu): all of [0.5, 2) (the exponents where the
 *    table's finest bits show), and 64 other blocks, both forms.
 * The exhaustive check (all 2^32 inputs, and div.full over all divisors) needs the GPU:
 * scripts/gpu/mufu_check.cu; for lg2 the CPU suffices: scripts/mufu/lg2_sums.c compares every
 * block's hash sum.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu/mufu_internal.h"

static const char *srcdir(void)
{
    const char *s = getenv("CTRITON_SOURCE_DIR");
    return s ? s : CTRITON_SOURCE_DIR;
}

static uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void check_sums(const emu_mufu_table *t)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/mufu/%s.sums", srcdir(), t->name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint32_t nblocks = t->n >> 16;
    uint64_t *want = calloc(nblocks, sizeof *want);
    assert_int_equal(fread(want, sizeof *want, nblocks, f), nblocks);
    fclose(f);
    int bad = 0;
    for (uint32_t b = 0; b < nblocks; b++) {
        uint64_t s = 0;
        for (uint32_t k = b << 16; k < (b + 1) << 16; k++)
            s += emu_mufu_entry(t, k);
        if (s != want[b]) {
            if (bad < 5)
                printf("  %s block %u: sum %llu, the GPU's %llu\n", t->name, b, (unsigned long long)s,
                       (unsigned long long)want[b]);
            bad++;
        }
    }
    free(want);
    printf("  %s: %u blocks of 65536 entries, %d differ from the GPU\n", t->name, nblocks, bad);
    assert_int_equal(bad, 0);
}

static FILE *golden(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/mufu/%s", srcdir(), name);
    FILE *f = fopen(path, "rb");
    if (!f)
        printf("  cannot open %s\n", path);
    assert_non_null(f);
    return f;
}

static void t_tables_match_gpu_sums(void **state)
{
    (void)state;
    uint64_t nexc = emu_mufu_decode_all();
    assert_int_equal(nexc, emu_mufu_rcp_table.nexc + emu_mufu_rsq_table.nexc + emu_mufu_sqrt_table.nexc +
                               emu_mufu_ex2_table.nexc + emu_mufu_ex2neg_table.nexc);
    check_sums(&emu_mufu_rcp_table);
    check_sums(&emu_mufu_rsq_table);
    check_sums(&emu_mufu_sqrt_table);
    check_sums(&emu_mufu_ex2_table);
    check_sums(&emu_mufu_ex2neg_table);
}

/* the H200's outputs of lg2.approx.ftz.f32 and lg2.approx.f32 on 4096 inputs */
static void t_lg2_sample(void **state)
{
    (void)state;
    FILE *f = golden("lg2_sample.txt");
    char line[256];
    int n = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned in, o_ftz, o_full;
        if (line[0] == '#')
            continue;
        assert_int_equal(sscanf(line, "%x %x %x", &in, &o_ftz, &o_full), 3);
        uint32_t g0 = fb(emu_mufu_lg2(bf(in))), g1 = fb(emu_lg2_full(bf(in)));
        if ((g0 != o_ftz || g1 != o_full) && bad++ < 8)
            printf("  lg2(%08x): %08x %08x, the GPU %08x %08x\n", in, g0, g1, o_ftz, o_full);
        n++;
    }
    fclose(f);
    printf("  lg2: %d sampled inputs, %d differ from the GPU\n", n, bad);
    assert_int_equal(n, 4096);
    assert_int_equal(bad, 0);
}

static uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* every output of blocks of 2^16 inputs against the GPU's hash sums of those blocks: all of
 * [0.5, 2), and 64 others (subnormals, the extremes, negatives, NaNs, a spread of exponents) */
static void t_lg2_blocks(void **state)
{
    (void)state;
    /* lg2.approx.f32 differs from the ftz form only on the 256 blocks of subnormal inputs (the
     * GPU's sums of all other blocks are the same): only those are stored */
    static uint64_t want[2][1 << 16];
    const char *files[2] = {"lg2.approx.ftz.f32", "lg2.approx.f32"};
    FILE *f = golden("lg2_ftz.sums");
    assert_int_equal(fread(want[0], 8, 1 << 16, f), 1 << 16);
    fclose(f);
    memcpy(want[1], want[0], sizeof want[0]);
    uint64_t sub[256];
    f = golden("lg2_full_subnormal.sums");
    assert_int_equal(fread(sub, 8, 256, f), 256);
    fclose(f);
    for (int i = 0; i < 128; i++) {
        want[1][i] = sub[i];
        want[1][0x8000 + i] = sub[128 + i];
    }
    uint32_t blocks[64 + 256];
    int nb = 0;
    const uint32_t fixed[] = {0x0000, 0x0040, 0x007f, 0x0080, 0x0081, 0x3eff,
                              0x4000, 0x7f7f, 0x7f80, 0x7fc0, 0x8000, 0x8040, 0xbf80, 0xff80, 0xffff};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        blocks[nb++] = fixed[i];
    uint64_t r = 42;
    while (nb < 64) {
        r = splitmix(r);
        blocks[nb++] = (uint32_t)(r & 0x7fff); /* positive inputs */
    }
    for (uint32_t b = 0x3f00; b < 0x4000; b++) /* [0.5, 2): e = -1 and e = 0 */
        blocks[nb++] = b;
    int bad = 0;
    for (int i = 0; i < nb; i++) {
        uint64_t s[2] = {0, 0};
        for (uint32_t j = 0; j < (1u << 16); j++) {
            uint32_t in = (blocks[i] << 16) | j;
            s[0] += splitmix(((uint64_t)in << 32) | fb(emu_mufu_lg2(bf(in))));
            s[1] += splitmix(((uint64_t)in << 32) | fb(emu_lg2_full(bf(in))));
        }
        for (int form = 0; form < 2; form++)
            if (s[form] != want[form][blocks[i]]) {
                printf("  %s block %04x differs from the GPU\n", files[form], blocks[i]);
                bad++;
            }
    }
    printf("  lg2: %d blocks of 65536 inputs, both forms, %d differ from the GPU\n", nb, bad);
    assert_int_equal(bad, 0);
}

/* the "specials" object of the probe's report: "name": [["in", "out"], ...] */
static int specials(const char *json, const char *fn, uint32_t in[], uint32_t out[], int max)
{
    const char *p = strstr(json, "\"specials\"");
    assert_non_null(p);
    char key[32];
    snprintf(key, sizeof key, "\"%s\": [", fn);
    p = strstr(p, key);
    assert_non_null(p);
    p += strlen(key);
    int n = 0;
    while (n < max && (p = strchr(p, '[')) && p < strchr(p, ']') + 1) {
        unsigned a, b;
        if (sscanf(p, "[\"%x\", \"%x\"]", &a, &b) != 2)
            break;
        in[n] = a;
        out[n] = b;
        n++;
        p = strchr(p, ']') + 1;
        while (*p == ',' || *p == ' ')
            p++;
        if (*p == ']')
            break;
    }
    return n;
}

static void t_specials(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/mufu/probe_round1.json", srcdir());
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char json[1 << 16];
    size_t len = fread(json, 1, sizeof json - 1, f);
    fclose(f);
    json[len] = 0;
    static const struct {
        const char *name;
        float (*fn)(float);
    } ops[] = {{"rcp", emu_mufu_rcp}, {"rsq", emu_mufu_rsq}, {"sqrt", emu_mufu_sqrt}, {"ex2", emu_mufu_ex2}, {"lg2", emu_mufu_lg2}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        uint32_t in[64], out[64];
        int n = specials(json, ops[i].name, in, out, 64);
        assert_true(n >= 16);
        for (int j = 0; j < n; j++) {
            uint32_t got = fb(ops[i].fn(bf(in[j])));
            if (got != out[j])
                printf("  %s(%08x): %08x, the GPU %08x\n", ops[i].name, in[j], got, out[j]);
            assert_int_equal(got, out[j]);
        }
    }
}

static void t_div_full_scalings(void **state)
{
    (void)state;
    /* divisors above 2^126: both operands are quartered first */
    float b = 0x1.8p127f, a = 3.0f;
    assert_int_equal(fb(emu_div_full(a, b)), fb(emu_mufu_rcp(b * 0.25f) * (a * 0.25f)));
    /* subnormal divisors: both scaled by 2^24 (the rcp of a subnormal would be infinite) */
    b = 0x1p-140f;
    a = 0x1p-130f;
    assert_int_equal(fb(emu_div_full(a, b)), fb(emu_mufu_rcp(b * 0x1p24f) * (a * 0x1p24f)));
    assert_true(emu_div_full(1.0f, 0x1p-140f) > 1e38f);
    /* exact cases: powers of two */
    assert_int_equal(fb(emu_div_full(1.0f, 4.0f)), fb(0.25f));
    assert_int_equal(fb(emu_div_full(-6.0f, 2.0f)), fb(-3.0f));
    /* 0/0 and inf/inf: the canonical NaN */
    assert_int_equal(fb(emu_div_full(0.0f, 0.0f)), 0x7fffffffu);
    assert_int_equal(fb(emu_div_full(bf(0x7f800000u), bf(0x7f800000u))), 0x7fffffffu);
}

/* the AVX-512 path of div.full's arrays gives the scalar function's bits: random bit patterns,
 * a row divided by one broadcast value (the one-RCP path), signed zeros mixed in one vector, specials,
 * lengths with a tail */
static void t_div_full_array(void **state)
{
    (void)state;
    enum { N = 1 << 15 };
    static float a[N], b[N], v[N], sc[N];
    static const uint32_t special[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u,
                                       0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7e800001u,
                                       0x3f800000u, 0x00400000u};
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < N; i++) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        a[i] = bf((uint32_t)r);
        b[i] = bf((uint32_t)(r >> 32));
        if (i % 5 == 0)
            b[i] = bf(special[(r >> 40) % (sizeof special / sizeof special[0])]);
        if (i >= N / 2) /* rows of 64 sharing a divisor */
            b[i] = b[i & ~63];
        if (i >= N / 4 && i < N / 4 + 64) /* zeros of both signs: equal, but not one divisor */
            b[i] = bf(i % 3 ? 0x80000000u : 0x00000000u);
        if (i >= N / 4 + 64 && i < N / 4 + 128) /* a divisor that changes every eight lanes */
            b[i] = (i >> 3) & 1 ? 3.0f : bf(i % 16 < 8 ? 0x80000000u : 0x00000000u);
    }
    for (int off = 0; off < 3; off++) {
        int n = N - off * 5;
        emu_div_full_array(v, a, b, n, false);
        emu_div_full_array(sc, a, b, n, true);
        for (int i = 0; i < n; i++) {
            if (fb(v[i]) != fb(sc[i]))
                printf("  %08x / %08x: vector %08x, scalar %08x\n", fb(a[i]), fb(b[i]), fb(v[i]), fb(sc[i]));
            assert_int_equal(fb(v[i]), fb(sc[i]));
            assert_int_equal(fb(sc[i]), fb(emu_div_full(a[i], b[i])));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_tables_match_gpu_sums),
        cmocka_unit_test(t_specials),
        cmocka_unit_test(t_lg2_sample),
        cmocka_unit_test(t_lg2_blocks),
        cmocka_unit_test(t_div_full_scalings),
        cmocka_unit_test(t_div_full_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
