/*
 * test_emu_ptx.c - the emulator's interpreter of inline PTX (src/emu/ptx.c, ptx_exec.c):
 * snippets against hand-computed bits (shifts past the width, clamp against wrap, prmt's
 * selectors and modes, lop3's tables, bit fields, integer and float conversions with every
 * rounding, saturation, NaN, -0.0, subnormals with and without .ftz, f16x2/bf16x2/fp8x2
 * packing order, setp/selp, guards, scopes, vectors, immediates), the approximate
 * instructions against the MUFU models, hostile asm (each a clear error, never a crash; plus
 * random mutations of valid asm), and TTIR kernels with tt.elementwise_inline_asm at pack 1,
 * 2 and 4 with several results (tests/text/ptx) run on the emulator; t_gpu_rules: where the
 * H100 differs from the ISA's reading (NaN payloads, bfe.s64, division by zero, ptxas's FMA
 * contraction); t_gpu_probes: the probes of tests/golden/ptx/cases.txt against the GPU's
 * outputs (tests/golden/ptx/gpu.txt).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ctriton/emu.h"
#include "ctriton/text.h"
#include "emu/emu_internal.h"
#include "emu/ptx.h"
#include "util/util.h"

static uint64_t F(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static uint64_t D(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static float FB(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t rnd32(uint64_t *st);
static uint64_t regs[64];

/* runs asm on operands of widths w[0..n-1] holding v[0..n-1]; returns $0 (regs: all operands) */
static uint64_t exw(const char *s, int n, const int *w, const uint64_t *v)
{
    char err[512];
    emu_ptx_prog *p = emu_ptx_parse(s, n, w, err, sizeof err);
    if (!p)
        fail_msg("`%s` refused: %s", s, err);
    uint64_t *r = calloc((size_t)p->nregs + 1, 8);
    assert_non_null(r);
    for (int i = 0; i < n; i++)
        r[i] = v[i] & (w[i] >= 64 ? ~0ull : (1ull << w[i]) - 1);
    emu_ptx_exec(p, r);
    memset(regs, 0, sizeof regs);
    memcpy(regs, r, sizeof(uint64_t) * (size_t)(n < 64 ? n : 64));
    uint64_t d = r[0];
    free(r);
    emu_ptx_free(p);
    return d;
}

/* every operand `bits` wide; the values of $0, $1, ... */
static uint64_t ex(const char *s, int bits, int n, const uint64_t *v)
{
    int w[16];
    for (int i = 0; i < n; i++)
        w[i] = bits;
    return exw(s, n, w, v);
}
#define VALS(...) (uint64_t[]){__VA_ARGS__}
#define NV(...) ((int)(sizeof(VALS(__VA_ARGS__)) / sizeof(uint64_t)))
/* E(asm, bits, $0, $1, ...): $0 after the run */
#define E(s, bits, ...) ex(s, bits, NV(__VA_ARGS__), VALS(__VA_ARGS__))
/* EW(asm, {widths}, $0, $1, ...) */
#define WID(...) (int[]){__VA_ARGS__}
#define EW(s, w, ...) exw(s, NV(__VA_ARGS__), w, VALS(__VA_ARGS__))
#define EQ(got, want) assert_int_equal((uint64_t)(got), (uint64_t)(want))

/* the parse fails with a message containing `sub` */
static void refused(const char *s, int nops, const char *sub)
{
    int w[16];
    for (int i = 0; i < nops; i++)
        w[i] = 32;
    char err[512] = "";
    emu_ptx_prog *p = emu_ptx_parse(s, nops, w, err, sizeof err);
    if (p) {
        emu_ptx_free(p);
        fail_msg("`%s` was accepted; expected an error with `%s`", s, sub);
    }
    if (!strstr(err, sub))
        fail_msg("`%s`: error `%s` does not say `%s`", s, err, sub);
}

static int setup(void **state)
{
    (void)state;
    emu_numeric_init();
    return 0;
}

/* ---- integer and bit instructions ----------------------------------------------------- */

static void t_shifts(void **state)
{
    (void)state;
    const char *shfl = "shf.l.wrap.b32 $0, $1, $2, $3;", *shflc = "shf.l.clamp.b32 $0, $1, $2, $3;";
    const char *shfr = "shf.r.wrap.b32 $0, $1, $2, $3;", *shfrc = "shf.r.clamp.b32 $0, $1, $2, $3;";
    EQ(E(shfl, 32, 0, 0x12345678, 0x9abcdef0, 4), 0xabcdef01);
    EQ(E(shfl, 32, 0, 0x12345678, 0x9abcdef0, 36), 0xabcdef01); /* wrap: 36 & 31 */
    EQ(E(shflc, 32, 0, 0x12345678, 0x9abcdef0, 36), 0x12345678); /* clamp: 32, the low word */
    EQ(E(shflc, 32, 0, 0x12345678, 0x9abcdef0, 32), 0x12345678);
    EQ(E(shfl, 32, 0, 0x12345678, 0x9abcdef0, 0), 0x9abcdef0);
    EQ(E(shfl, 32, 0, 0x12345678, 0x9abcdef0, 32), 0x9abcdef0); /* wrap: 0 */
    EQ(E(shfr, 32, 0, 0x12345678, 0x9abcdef1, 4), 0x11234567);
    EQ(E(shfr, 32, 0, 0x12345678, 0x9abcdef1, 40), 0xf1123456); /* wrap: 8 */
    EQ(E(shfrc, 32, 0, 0x12345678, 0x9abcdef1, 40), 0x9abcdef1); /* clamp: the high word */
    EQ(E(shfrc, 32, 0, 0x12345678, 0x9abcdef1, 0xffffffff), 0x9abcdef1);
    /* shl/shr: amounts of the width and above give 0 or the sign */
    EQ(E("shl.b32 $0, $1, $2;", 32, 0, 1, 31), 0x80000000);
    EQ(E("shl.b32 $0, $1, $2;", 32, 0, 1, 32), 0);
    EQ(E("shl.b32 $0, $1, $2;", 32, 0, 1, 0xffffffff), 0);
    EQ(E("shr.s32 $0, $1, $2;", 32, 0, 0x80000000, 4), 0xf8000000);
    EQ(E("shr.s32 $0, $1, $2;", 32, 0, 0x80000000, 40), 0xffffffff);
    EQ(E("shr.s32 $0, $1, $2;", 32, 0, 0x40000000, 40), 0);
    EQ(E("shr.u32 $0, $1, $2;", 32, 0, 0x80000000, 31), 1);
    EQ(E("shr.u32 $0, $1, $2;", 32, 0, 0x80000000, 32), 0);
    EQ(E("shr.b32 $0, $1, $2;", 32, 0, 0x80000000, 4), 0x08000000); /* logical */
    EQ(EW("shl.b64 $0, $1, $2;", WID(64, 64, 32), 0, 1, 63), 1ull << 63);
    EQ(EW("shl.b64 $0, $1, $2;", WID(64, 64, 32), 0, 1, 64), 0);
    EQ(EW("shr.s64 $0, $1, $2;", WID(64, 64, 32), 0, 1ull << 63, 100), ~0ull);
    EQ(E("shl.b16 $0, $1, $2;", 16, 0, 0x8001, 1), 0x0002);
    EQ(E("shr.s16 $0, $1, $2;", 16, 0, 0x8000, 15), 0xffff);
}

static void t_prmt_lop3(void **state)
{
    (void)state;
    const char *pr = "prmt.b32 $0, $1, $2, $3;";
    EQ(E(pr, 32, 0, 0x33221100, 0x77665544, 0x7531), 0x77553311);
    EQ(E(pr, 32, 0, 0x33221100, 0x77665544, 0xffff3210), 0x33221100); /* upper bits unused */
    EQ(E(pr, 32, 0, 0x000000f0, 0, 0x8880), 0xfffffff0);             /* sign replication */
    EQ(E(pr, 32, 0, 0x00000070, 0, 0x8880), 0x00000070);
    EQ(E(pr, 32, 0, 0xaabbccdd, 0, 0x5140), 0x00cc00dd); /* bytes to half-words */
    EQ(E("prmt.b32 $0, $1, 0, 0x5140;", 32, 0, 0xaabbccdd), 0x00cc00dd);
    EQ(E("prmt.b32.f4e $0, $1, $2, $3;", 32, 0, 0x33221100, 0x77665544, 1), 0x44332211);
    EQ(E("prmt.b32.f4e $0, $1, $2, $3;", 32, 0, 0x33221100, 0x77665544, 5), 0x44332211);
    EQ(E("prmt.b32.b4e $0, $1, $2, $3;", 32, 0, 0x33221100, 0x77665544, 1), 0x66770011);
    EQ(E("prmt.b32.b4e $0, $1, $2, $3;", 32, 0, 0x33221100, 0x77665544, 3), 0x00112233);
    EQ(E("prmt.b32.rc8 $0, $1, $2, $3;", 32, 0, 0x33221100, 0x77665544, 2), 0x22222222);
    EQ(E("prmt.b32.ecl $0, $1, $2, $3;", 32, 0, 0x33221100, 0x77665544, 2), 0x33222222);
    EQ(E("prmt.b32.ecr $0, $1, $2, $3;", 32, 0, 0x33221100, 0x77665544, 1), 0x11111100);
    EQ(E("prmt.b32.rc16 $0, $1, $2, $3;", 32, 0, 0x33221100, 0x77665544, 1), 0x33223322);
    /* lop3 on the operands' canonical patterns gives its table in every byte */
    const unsigned luts[] = {0x96, 0xe8, 0x80, 0xfe, 0x00, 0xf0, 0xcc, 0xaa, 0x3c};
    char s[64];
    for (size_t i = 0; i < sizeof luts / sizeof luts[0]; i++) {
        snprintf(s, sizeof s, "lop3.b32 $0, $1, $2, $3, 0x%x;", luts[i]);
        EQ(E(s, 32, 0, 0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa), luts[i] * 0x01010101u);
    }
    EQ(E("lop3.b32 $0, $1, $2, $3, 0xea;", 32, 0, 0x0000ffff, 0x00ff00ff, 0x0f000000), 0x0f0000ff);
}

static void t_bitfields(void **state)
{
    (void)state;
    const char *bu = "bfe.u32 $0, $1, $2, $3;", *bs = "bfe.s32 $0, $1, $2, $3;";
    EQ(E(bu, 32, 0, 0x12345678, 8, 8), 0x56);
    EQ(E(bu, 32, 0, 0x12345678, 0x108, 8), 0x56); /* pos is b & 0xff */
    EQ(E(bu, 32, 0, 0x12345678, 28, 8), 0x1);     /* cut at the msb */
    EQ(E(bu, 32, 0, 0x12345678, 40, 4), 0);
    EQ(E(bu, 32, 0, 0x12345678, 0, 32), 0x12345678);
    EQ(E(bs, 32, 0, 0x0000f000, 12, 4), 0xffffffff);
    EQ(E(bs, 32, 0, 0x00007000, 12, 4), 7);
    EQ(E(bs, 32, 0, 0x80000000, 40, 4), 0xffffffff); /* beyond the msb: its sign */
    EQ(E(bs, 32, 0, 0x0000f000, 12, 0), 0);          /* length 0 */
    EQ(E("bfe.s64 $0, $1, $2, $3;", 64, 0, 0xf0000000, 28, 4), ~0ull);
    EQ(E("bfe.u64 $0, $1, $2, $3;", 64, 0, 0xf0000000, 28, 4), 0xf);
    const char *bi = "bfi.b32 $0, $1, $2, $3, $4;";
    EQ(E(bi, 32, 0, 0xff, 0x12345678, 8, 4), 0x12345f78);
    EQ(E(bi, 32, 0, 0xff, 0x12345678, 30, 4), 0xd2345678);
    EQ(E(bi, 32, 0, 0xff, 0x12345678, 8, 0), 0x12345678);
    EQ(E(bi, 32, 0, 0xff, 0x12345678, 32, 4), 0x12345678);
    EQ(E("popc.b32 $0, $1;", 32, 0, 0xf0f0), 8);
    EQ(EW("popc.b64 $0, $1;", WID(32, 64), 0, ~0ull), 64);
    EQ(E("clz.b32 $0, $1;", 32, 0, 0), 32);
    EQ(E("clz.b32 $0, $1;", 32, 0, 1), 31);
    EQ(E("clz.b32 $0, $1;", 32, 0, 0x80000000), 0);
    EQ(EW("clz.b64 $0, $1;", WID(32, 64), 0, 1), 63);
    EQ(E("brev.b32 $0, $1;", 32, 0, 1), 0x80000000);
    EQ(E("brev.b32 $0, $1;", 32, 0, 0x12345678), 0x1e6a2c48);
    EQ(E("brev.b64 $0, $1;", 64, 0, 1), 1ull << 63);
}

static void t_int_arith(void **state)
{
    (void)state;
    EQ(E("mul.lo.u32 $0, $1, $2;", 32, 0, 0x10000, 0x10000), 0);
    EQ(E("mul.hi.u32 $0, $1, $2;", 32, 0, 0x10000, 0x10000), 1);
    EQ(E("mul.hi.u32 $0, $1, $2;", 32, 0, 0xffffffff, 0xffffffff), 0xfffffffe);
    EQ(E("mul.hi.s32 $0, $1, $2;", 32, 0, 0xffffffff, 0xffffffff), 0);
    EQ(E("mul.hi.s32 $0, $1, $2;", 32, 0, 0x80000000, 2), 0xffffffff);
    EQ(EW("mul.wide.s32 $0, $1, $2;", WID(64, 32, 32), 0, (uint32_t)-2, 3), (uint64_t)-6);
    EQ(EW("mul.wide.u32 $0, $1, $2;", WID(64, 32, 32), 0, 0xffffffff, 0xffffffff), 0xfffffffe00000001ull);
    EQ(EW("mul.wide.u16 $0, $1, $2;", WID(32, 16, 16), 0, 0xffff, 0xffff), 0xfffe0001);
    EQ(EW("mul.wide.s16 $0, $1, $2;", WID(32, 16, 16), 0, 0xffff, 0x0002), 0xfffffffe);
    EQ(E("mul.hi.u64 $0, $1, $2;", 64, 0, ~0ull, ~0ull), 0xfffffffffffffffeull);
    EQ(E("mul.hi.s64 $0, $1, $2;", 64, 0, ~0ull, 1), ~0ull);
    EQ(E("mad.lo.s32 $0, $1, $2, $3;", 32, 0, 2, 3, 4), 10);
    EQ(E("mad.lo.s32 $0, $1, $2, $3;", 32, 0, 0x7fffffff, 2, 2), 0);
    EQ(E("mad.hi.u32 $0, $1, $2, $3;", 32, 0, 0x80000000, 4, 1), 3);
    EQ(EW("mad.wide.s32 $0, $1, $2, $3;", WID(64, 32, 32, 64), 0, (uint32_t)-2, 3, 10), 4);
    EQ(E("div.s32 $0, $1, $2;", 32, 0, (uint32_t)-7, 2), (uint32_t)-3);
    EQ(E("rem.s32 $0, $1, $2;", 32, 0, (uint32_t)-7, 2), (uint32_t)-1);
    EQ(E("div.u32 $0, $1, $2;", 32, 0, (uint32_t)-7, 2), 0x7ffffffc);
    EQ(E("div.s32 $0, $1, $2;", 32, 0, 0x80000000, 0xffffffff), 0x80000000); /* wraps */
    EQ(E("rem.s32 $0, $1, $2;", 32, 0, 0x80000000, 0xffffffff), 0);
    EQ(E("div.u32 $0, $1, $2;", 32, 0, 7, 0), 0xffffffff); /* unspecified on the GPU */
    EQ(E("div.s64 $0, $1, $2;", 64, 0, 1ull << 63, ~0ull), 1ull << 63);
    EQ(E("min.s32 $0, $1, $2;", 32, 0, 0xffffffff, 1), 0xffffffff);
    EQ(E("min.u32 $0, $1, $2;", 32, 0, 0xffffffff, 1), 1);
    EQ(E("max.s32 $0, $1, $2;", 32, 0, 0xffffffff, 1), 1);
    EQ(E("max.u32 $0, $1, $2;", 32, 0, 0xffffffff, 1), 0xffffffff);
    EQ(E("min.s16 $0, $1, $2;", 16, 0, 0x8000, 1), 0x8000);
    EQ(E("abs.s32 $0, $1;", 32, 0, (uint32_t)-5), 5);
    EQ(E("abs.s32 $0, $1;", 32, 0, 0x80000000), 0x80000000);
    EQ(E("neg.s32 $0, $1;", 32, 0, 5), (uint32_t)-5);
    EQ(E("add.sat.s32 $0, $1, $2;", 32, 0, 0x7fffffff, 1), 0x7fffffff);
    EQ(E("sub.sat.s32 $0, $1, $2;", 32, 0, 0x80000000, 1), 0x80000000);
    EQ(E("add.u32 $0, $1, $2;", 32, 0, 0xffffffff, 2), 1);
    EQ(E("sub.s32 $0, $1, 1;", 32, 0, 0), 0xffffffff);
    EQ(E("and.b32 $0, $1, $2;", 32, 0, 0xff00ff00, 0x0ff00ff0), 0x0f000f00);
    EQ(E("or.b32 $0, $1, $2;", 32, 0, 0xff00ff00, 0x0ff00ff0), 0xfff0fff0);
    EQ(E("xor.b32 $0, $1, $2;", 32, 0, 0xff00ff00, 0x0ff00ff0), 0xf0f0f0f0);
    EQ(E("not.b32 $0, $1;", 32, 0, 0xff00ff00), 0x00ff00ff);
    EQ(E("not.b16 $0, $1;", 16, 0, 0), 0xffff);
    EQ(E("cnot.b32 $0, $1;", 32, 0, 0), 1);
    EQ(E("cnot.b32 $0, $1;", 32, 0, 5), 0);
}

/* ---- conversions ------------------------------------------------------------------------ */

static void t_cvt_int(void **state)
{
    (void)state;
    EQ(E("{ .reg .b8 t<4>; mov.b32 {t0, t1, t2, t3}, $1; cvt.u32.u8 $0, t2; }", 32, 0, 0x44332211), 0x33);
    EQ(E("cvt.s32.s8 $0, $1;", 32, 0, 0x80), 0xffffff80);
    EQ(E("cvt.u32.s8 $0, $1;", 32, 0, 0x80), 0xffffff80); /* extended by the source's sign */
    EQ(E("cvt.u32.u8 $0, $1;", 32, 0, 0x1ff), 0xff);
    EQ(E("cvt.sat.u8.s32 $0, $1;", 32, 0, (uint32_t)-5), 0);
    EQ(E("cvt.sat.u8.s32 $0, $1;", 32, 0, 300), 255);
    EQ(E("cvt.sat.s8.s32 $0, $1;", 32, 0, 200), 127);
    EQ(E("cvt.sat.s8.s32 $0, $1;", 32, 0, (uint32_t)-200), 0xffffff80);
    EQ(E("cvt.u8.u32 $0, $1;", 32, 0, 0x1ff), 0xff);
    EQ(EW("cvt.s16.s32 $0, $1;", WID(16, 32), 0, 0x12348000), 0x8000);
    EQ(EW("cvt.s64.s32 $0, $1;", WID(64, 32), 0, 0xffffffff), ~0ull);
    EQ(EW("cvt.u64.u32 $0, $1;", WID(64, 32), 0, 0xffffffff), 0xffffffff);
    EQ(EW("cvt.sat.u32.s64 $0, $1;", WID(32, 64), 0, ~0ull), 0);
    EQ(EW("cvt.sat.u32.s64 $0, $1;", WID(32, 64), 0, 0x100000000ull), 0xffffffff);
    EQ(E("cvt.sat.s32.u32 $0, $1;", 32, 0, 0xffffffff), 0x7fffffff);
}

static void t_cvt_float_int(void **state)
{
    (void)state;
    EQ(E("cvt.rzi.s32.f32 $0, $1;", 32, 0, F(-2.7f)), (uint32_t)-2);
    EQ(E("cvt.rni.s32.f32 $0, $1;", 32, 0, F(2.5f)), 2);
    EQ(E("cvt.rni.s32.f32 $0, $1;", 32, 0, F(3.5f)), 4);
    EQ(E("cvt.rni.s32.f32 $0, $1;", 32, 0, F(-2.5f)), (uint32_t)-2);
    EQ(E("cvt.rmi.s32.f32 $0, $1;", 32, 0, F(-2.5f)), (uint32_t)-3);
    EQ(E("cvt.rpi.s32.f32 $0, $1;", 32, 0, F(2.1f)), 3);
    EQ(E("cvt.rzi.s32.f32 $0, $1;", 32, 0, 0x7fc00000), 0); /* NaN */
    EQ(E("cvt.rzi.s32.f32 $0, $1;", 32, 0, F(1e10f)), 0x7fffffff);
    EQ(E("cvt.rzi.s32.f32 $0, $1;", 32, 0, F(-1e10f)), 0x80000000);
    EQ(E("cvt.rzi.s32.f32 $0, $1;", 32, 0, F(INFINITY)), 0x7fffffff);
    EQ(E("cvt.rzi.u32.f32 $0, $1;", 32, 0, F(-1.0f)), 0);
    EQ(E("cvt.rzi.u32.f32 $0, $1;", 32, 0, F(4294967296.0f)), 0xffffffff);
    EQ(E("cvt.rni.u8.f32 $0, $1;", 32, 0, F(300.0f)), 255);
    EQ(E("cvt.rni.s8.f32 $0, $1;", 32, 0, F(-300.0f)), 0xffffff80);
    /* a negative subnormal: floor is -1, flushed to -0 first it is 0 */
    EQ(E("cvt.rmi.s32.f32 $0, $1;", 32, 0, 0x80000001), 0xffffffff);
    EQ(E("cvt.rmi.ftz.s32.f32 $0, $1;", 32, 0, 0x80000001), 0);
    EQ(E("cvt.rzi.s64.f64 $0, $1;", 64, 0, D(1e19)), 0x7fffffffffffffffull);
    EQ(E("cvt.rzi.s64.f64 $0, $1;", 64, 0, D(-9.3e18)), 1ull << 63);
    EQ(EW("cvt.rzi.u64.f32 $0, $1;", WID(64, 32), 0, F(1e19f)), (uint64_t)1e19f);
    EQ(EW("cvt.rzi.s32.f16 $0, $1;", WID(32, 16), 0, 0xc170), (uint32_t)-2); /* -2.71875 */
    EQ(EW("cvt.rni.s32.bf16 $0, $1;", WID(32, 16), 0, 0x4020), 2);          /* 2.5 */
    /* integers to floats, every rounding */
    EQ(E("cvt.rn.f32.s32 $0, $1;", 32, 0, 16777217), 0x4b800000);
    EQ(E("cvt.rp.f32.s32 $0, $1;", 32, 0, 16777217), 0x4b800001);
    EQ(E("cvt.rz.f32.s32 $0, $1;", 32, 0, 16777219), 0x4b800001);
    EQ(E("cvt.rn.f32.s32 $0, $1;", 32, 0, 16777219), 0x4b800002);
    EQ(E("cvt.rm.f32.s32 $0, $1;", 32, 0, (uint32_t)-16777217), 0xcb800001);
    EQ(E("cvt.rn.f32.u32 $0, $1;", 32, 0, 0xffffffff), 0x4f800000);
    EQ(E("cvt.rz.f32.u32 $0, $1;", 32, 0, 0xffffffff), 0x4f7fffff);
    EQ(EW("cvt.rn.f64.s32 $0, $1;", WID(64, 32), 0, 0xffffffff), 0xbff0000000000000ull);
    EQ(EW("cvt.rn.f32.s64 $0, $1;", WID(32, 64), 0, 0x7fffffffffffffffull), 0x5f000000);
    EQ(EW("cvt.rz.f32.u64 $0, $1;", WID(32, 64), 0, ~0ull), 0x5f7fffff);
    EQ(EW("cvt.rn.f16.s32 $0, $1;", WID(16, 32), 0, 2049), 0x6800); /* a tie to even */
    EQ(EW("cvt.rn.f16.s32 $0, $1;", WID(16, 32), 0, 2051), 0x6802);
    EQ(EW("cvt.rz.f16.s32 $0, $1;", WID(16, 32), 0, 2051), 0x6801);
    EQ(EW("cvt.rn.f16.s32 $0, $1;", WID(16, 32), 0, 100000), 0x7c00);
    EQ(EW("cvt.rz.f16.s32 $0, $1;", WID(16, 32), 0, 100000), 0x7bff);
    /* one rounding, not two: through f32 with ties to even this would be 0x4b80 */
    EQ(EW("cvt.rn.bf16.s32 $0, $1;", WID(16, 32), 0, 16842753), 0x4b81);
}

static void t_cvt_float(void **state)
{
    (void)state;
    const int w16_32[] = {16, 32}, w32_16[] = {32, 16};
    EQ(exw("cvt.rn.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(1.0f))), 0x3c00);
    EQ(exw("cvt.rn.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(65520.0f))), 0x7c00);
    EQ(exw("cvt.rz.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(65520.0f))), 0x7bff);
    EQ(exw("cvt.rn.f16.f32 $0, $1;", 2, w16_32, VALS(0, 0x7fc00001)), 0x7fff);
    EQ(exw("cvt.rn.satfinite.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(1e6f))), 0x7bff);
    EQ(exw("cvt.rn.satfinite.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(-1e6f))), 0xfbff);
    EQ(exw("cvt.rn.relu.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(-1.0f))), 0);
    EQ(exw("cvt.rn.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(0x1p-24f))), 0x0001);
    EQ(exw("cvt.rn.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(0x1p-25f))), 0x0000); /* a tie */
    EQ(exw("cvt.rn.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(0x3p-26f))), 0x0001);
    EQ(exw("cvt.rn.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(-0.0f))), 0x8000);
    EQ(exw("cvt.rn.sat.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(1.5f))), 0x3c00);
    EQ(exw("cvt.rn.sat.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(-1.5f))), 0);
    EQ(exw("cvt.rn.sat.f16.f32 $0, $1;", 2, w16_32, VALS(0, 0x7fc00000)), 0);
    EQ(exw("cvt.rn.sat.f16.f32 $0, $1;", 2, w16_32, VALS(0, F(0.25f))), 0x3400);
    EQ(EW("cvt.rn.sat.f16.s32 $0, $1;", WID(16, 32), 0, 7), 0x3c00);
    EQ(EW("cvt.rn.sat.f64.s32 $0, $1;", WID(64, 32), 0, 7), D(1.0));
    EQ(E("cvt.rn.sat.f32.s32 $0, $1;", 32, 0, (uint32_t)-7), 0);
    /* x2 packing: the first source in the upper half */
    EQ(E("cvt.rn.f16x2.f32 $0, $1, $2;", 32, 0, F(1.0f), F(2.0f)), 0x3c004000);
    EQ(E("cvt.rn.bf16x2.f32 $0, $1, $2;", 32, 0, F(1.0f), F(-2.0f)), 0x3f80c000);
    EQ(E("cvt.rz.bf16x2.f32 $0, $1, $2;", 32, 0, 0x3f80ffff, 0x3f80ffff), 0x3f803f80);
    EQ(E("cvt.rn.bf16x2.f32 $0, $1, $2;", 32, 0, 0x3f80ffff, 0x3f80ffff), 0x3f813f81);
    EQ(E("cvt.rn.relu.bf16x2.f32 $0, $1, $2;", 32, 0, F(-1.0f), F(1.0f)), 0x00003f80);
    EQ(exw("cvt.rn.bf16.f32 $0, $1;", 2, w16_32, VALS(0, 0x3f808000)), 0x3f80);
    EQ(exw("cvt.rn.bf16.f32 $0, $1;", 2, w16_32, VALS(0, 0x3f818000)), 0x3f82);
    EQ(exw("cvt.rn.bf16.f32 $0, $1;", 2, w16_32, VALS(0, 0x3f808001)), 0x3f81);
    EQ(exw("cvt.f32.f16 $0, $1;", 2, w32_16, VALS(0, 0x3c00)), 0x3f800000);
    EQ(exw("cvt.f32.f16 $0, $1;", 2, w32_16, VALS(0, 0x0001)), 0x33800000);
    EQ(exw("cvt.f32.f16 $0, $1;", 2, w32_16, VALS(0, 0xfc00)), 0xff800000);
    EQ(exw("cvt.f32.bf16 $0, $1;", 2, w32_16, VALS(0, 0x3f80)), 0x3f800000);
    EQ(EW("cvt.rn.f32.f64 $0, $1;", WID(32, 64), 0, 0x3ff0000000000001ull), 0x3f800000);
    EQ(EW("cvt.rp.f32.f64 $0, $1;", WID(32, 64), 0, 0x3ff0000000000001ull), 0x3f800001);
    EQ(EW("cvt.rz.f32.f64 $0, $1;", WID(32, 64), 0, 0xbff0000000000001ull), 0xbf800000);
    EQ(EW("cvt.rm.f32.f64 $0, $1;", WID(32, 64), 0, 0xbff0000000000001ull), 0xbf800001);
    EQ(EW("cvt.f64.f32 $0, $1;", WID(64, 32), 0, F(1.5f)), 0x3ff8000000000000ull);
    /* f64 to f16 rounds once: 1 + 2^-11 + 2^-40 is above the tie */
    EQ(EW("cvt.rn.f16.f64 $0, $1;", WID(16, 64), 0, 0x3ff0020000001000ull), 0x3c01);
    EQ(EW("cvt.rn.f16.f64 $0, $1;", WID(16, 64), 0, 0x3ff0020000000000ull), 0x3c00);
    /* fp8 pairs: byte k <-> half k */
    EQ(exw("cvt.rn.f16x2.e4m3x2 $0, $1;", 2, w32_16, VALS(0, 0x3840)), 0x3c004000);
    EQ(exw("cvt.rn.f16x2.e5m2x2 $0, $1;", 2, w32_16, VALS(0, 0x3c40)), 0x3c004000);
    EQ(EW("cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", WID(16, 32, 32), 0, F(1.0f), F(1000.0f)), 0x387e);
    EQ(EW("cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;", WID(16, 32, 32), 0, F(1.0f), F(2.0f)), 0x3c40);
    EQ(EW("cvt.rn.satfinite.e4m3x2.f16x2 $0, $1;", WID(16, 32), 0, 0x3c004000), 0x3840);
    /* rounding to integers in the same type, saturation, ftz */
    EQ(E("cvt.rni.f32.f32 $0, $1;", 32, 0, F(2.5f)), F(2.0f));
    EQ(E("cvt.rmi.f32.f32 $0, $1;", 32, 0, F(-0.5f)), F(-1.0f));
    EQ(E("cvt.rpi.f32.f32 $0, $1;", 32, 0, F(-0.5f)), 0x80000000);
    EQ(E("cvt.rzi.f32.f32 $0, $1;", 32, 0, F(-1.5f)), F(-1.0f));
    EQ(E("cvt.rni.f64.f64 $0, $1;", 64, 0, D(3.5)), D(4.0));
    EQ(E("cvt.sat.f32.f32 $0, $1;", 32, 0, F(1.5f)), F(1.0f));
    EQ(E("cvt.sat.f32.f32 $0, $1;", 32, 0, F(-0.5f)), 0);
    EQ(E("cvt.sat.f32.f32 $0, $1;", 32, 0, 0x7fc00000), 0);
    EQ(E("cvt.ftz.f32.f32 $0, $1;", 32, 0, 0x00000001), 0);
    EQ(E("cvt.ftz.f32.f32 $0, $1;", 32, 0, 0x80000001), 0x80000000);
    EQ(E("cvt.f32.f32 $0, $1;", 32, 0, 0x80000001), 0x80000001);
}

/* ---- floats ------------------------------------------------------------------------------ */

static void t_float(void **state)
{
    (void)state;
    EQ(E("add.rn.f32 $0, $1, $2;", 32, 0, F(1.0f), F(0x1p-24f)), F(1.0f));
    EQ(E("add.f32 $0, $1, $2;", 32, 0, F(1.0f), F(0x1p-24f)), F(1.0f));
    EQ(E("add.rp.f32 $0, $1, $2;", 32, 0, F(1.0f), F(0x1p-24f)), 0x3f800001);
    EQ(E("add.rz.f32 $0, $1, $2;", 32, 0, F(1.0f), F(-0x1p-25f)), 0x3f7fffff);
    EQ(E("add.rm.f32 $0, $1, $2;", 32, 0, F(1.0f), F(-1.0f)), 0x80000000); /* x - x is -0 */
    EQ(E("add.rn.f32 $0, $1, $2;", 32, 0, F(1.0f), F(-1.0f)), 0);
    EQ(E("sub.rm.f32 $0, $1, $2;", 32, 0, 0, 0), 0x80000000);
    EQ(E("mul.rn.f32 $0, $1, $2;", 32, 0, F(3.0f), 0x3eaaaaab), F(1.0f));
    EQ(E("mul.rp.f32 $0, $1, $2;", 32, 0, F(3.0f), 0x3eaaaaab), 0x3f800001);
    /* subnormals: kept, or flushed to signed zeros by .ftz (inputs and results) */
    EQ(E("mul.f32 $0, $1, $2;", 32, 0, F(0x1p-100f), F(0x1p-30f)), 0x00080000);
    EQ(E("mul.ftz.f32 $0, $1, $2;", 32, 0, F(0x1p-100f), F(0x1p-30f)), 0);
    EQ(E("mul.ftz.f32 $0, $1, $2;", 32, 0, F(-0x1p-100f), F(0x1p-30f)), 0x80000000);
    EQ(E("add.f32 $0, $1, $2;", 32, 0, 1, 0), 1);
    EQ(E("add.ftz.f32 $0, $1, $2;", 32, 0, 1, 0), 0);
    EQ(E("add.ftz.f32 $0, $1, $2;", 32, 0, 0x80000001, 0x80000000), 0x80000000);
    EQ(E("add.sat.f32 $0, $1, $2;", 32, 0, F(0.75f), F(0.75f)), F(1.0f));
    EQ(E("add.sat.f32 $0, $1, $2;", 32, 0, F(-1.0f), 0), 0);
    EQ(E("add.sat.f32 $0, $1, $2;", 32, 0, F(INFINITY), F(-INFINITY)), 0);
    /* NaN results are the canonical NaN */
    EQ(E("add.f32 $0, $1, $2;", 32, 0, F(INFINITY), F(-INFINITY)), 0x7fffffff);
    EQ(E("add.f32 $0, $1, $2;", 32, 0, 0x7fc12345, F(1.0f)), 0x7fffffff);
    EQ(E("mul.f32 $0, $1, $2;", 32, 0, 0xffc00000, F(1.0f)), 0x7fffffff);
    /* fma rounds once; mul then add twice */
    EQ(E("fma.rn.f32 $0, $1, $2, $3;", 32, 0, 0x3f800800, 0x3f800800, F(-1.0f)), 0x3a000400);
    EQ(E("mad.rn.f32 $0, $1, $2, $3;", 32, 0, 0x3f800800, 0x3f800800, F(-1.0f)), 0x3a000400);
    EQ(E("{ .reg .f32 t; mul.rn.f32 t, $1, $2; add.rn.f32 $0, t, $3; }", 32, 0, 0x3f800800, 0x3f800800,
         F(-1.0f)),
       0x3a000000);
    EQ(E("fma.rz.f32 $0, $1, $2, $3;", 32, 0, F(3.0f), 0x3eaaaaab, F(-1.0f)), F(0x1p-25f)); /* exact */
    EQ(E("fma.rz.f32 $0, $1, $2, $3;", 32, 0, 0x3f800800, 0x3f800800, 0), 0x3f801000);
    EQ(E("fma.rn.f32 $0, $1, $2, $3;", 32, 0, 0x3f800800, 0x3f800800, 0), 0x3f801000); /* a tie */
    EQ(E("fma.rp.f32 $0, $1, $2, $3;", 32, 0, 0x3f800800, 0x3f800800, 0), 0x3f801001);
    EQ(E("fma.rm.f32 $0, $1, $2, $3;", 32, 0, 0xbf800800, 0x3f800800, 0), 0xbf801001);
    EQ(E("div.rn.f32 $0, $1, $2;", 32, 0, F(1.0f), F(3.0f)), 0x3eaaaaab);
    EQ(E("div.rz.f32 $0, $1, $2;", 32, 0, F(1.0f), F(3.0f)), 0x3eaaaaaa);
    EQ(E("div.rp.f32 $0, $1, $2;", 32, 0, F(1.0f), F(3.0f)), 0x3eaaaaab);
    EQ(E("div.rm.f32 $0, $1, $2;", 32, 0, F(1.0f), F(3.0f)), 0x3eaaaaaa);
    EQ(E("div.rn.f32 $0, $1, $2;", 32, 0, F(1.0f), 0), 0x7f800000);
    EQ(E("div.rn.f32 $0, $1, $2;", 32, 0, 0, 0), 0x7fffffff);
    EQ(E("sqrt.rn.f32 $0, $1;", 32, 0, F(2.0f)), 0x3fb504f3);
    EQ(E("sqrt.rn.f32 $0, $1;", 32, 0, F(-1.0f)), 0x7fffffff);
    EQ(E("rcp.rn.f32 $0, $1;", 32, 0, F(3.0f)), 0x3eaaaaab);
    EQ(E("rcp.rz.f32 $0, $1;", 32, 0, F(3.0f)), 0x3eaaaaaa);
    /* min/max: a NaN gives the other operand, -0 < +0 */
    EQ(E("min.f32 $0, $1, $2;", 32, 0, 0x7fc00000, F(1.0f)), F(1.0f));
    EQ(E("max.f32 $0, $1, $2;", 32, 0, F(1.0f), 0x7fc00000), F(1.0f));
    EQ(E("min.NaN.f32 $0, $1, $2;", 32, 0, 0x7fc00000, F(1.0f)), 0x7fffffff);
    EQ(E("min.f32 $0, $1, $2;", 32, 0, 0xffc00001, 0x7fc00000), 0x7fffffff);
    EQ(E("min.f32 $0, $1, $2;", 32, 0, 0, 0x80000000), 0x80000000);
    EQ(E("max.f32 $0, $1, $2;", 32, 0, 0x80000000, 0), 0);
    EQ(E("max.f32 $0, $1, $2;", 32, 0, 1, 0x80000000), 1);
    EQ(E("max.ftz.f32 $0, $1, $2;", 32, 0, 1, 0x80000000), 0);
    EQ(E("abs.f32 $0, $1;", 32, 0, 0x80000000), 0);
    EQ(E("abs.ftz.f32 $0, $1;", 32, 0, 0x80000001), 0);
    EQ(E("abs.f32 $0, $1;", 32, 0, 0x80000001), 1);
    EQ(E("neg.f32 $0, $1;", 32, 0, 0), 0x80000000);
    EQ(E("neg.ftz.f32 $0, $1;", 32, 0, 1), 0x80000000);
    EQ(E("copysign.f32 $0, $1, $2;", 32, 0, F(-1.0f), F(2.0f)), F(-2.0f));
    /* f64 */
    EQ(E("add.rn.f64 $0, $1, $2;", 64, 0, D(1.0), D(0x1p-53)), D(1.0));
    EQ(E("add.rp.f64 $0, $1, $2;", 64, 0, D(1.0), D(0x1p-53)), 0x3ff0000000000001ull);
    EQ(E("div.rn.f64 $0, $1, $2;", 64, 0, D(1.0), D(3.0)), 0x3fd5555555555555ull);
    EQ(E("fma.rn.f64 $0, $1, $2, $3;", 64, 0, D(2.0), D(3.0), D(1.0)), D(7.0));
    EQ(E("min.f64 $0, $1, $2;", 64, 0, D(NAN), D(-2.0)), D(-2.0));
    EQ(E("neg.f64 $0, $1;", 64, 0, D(2.0)), D(-2.0));
    /* inf - inf: the f64 NaN of no NaN operand is 0xfff8000000000000 (the H100, f64_arith) */
    EQ(E("add.f64 $0, $1, $2;", 64, 0, D(INFINITY), D(-INFINITY)), 0xfff8000000000000ull);
}

/* where the H100 (probes of tests/golden/ptx/cases.txt) differs from the ISA's reading: each
 * value worked by hand from the rule, most of them the GPU's own outputs */
static void t_gpu_rules(void **state)
{
    (void)state;
    /* bfe.s64 takes all 32 bits of position and length */
    EQ(EW("bfe.s64 $0, $1, $2, $3;", WID(64, 64, 32, 32), 0, 0xfd80f8559c819a15ull, 0x3f000000, 0x42), ~0ull);
    EQ(EW("bfe.s64 $0, $1, $2, $3;", WID(64, 64, 32, 32), 0, 0xe4bf853c8119b9f6ull, 4, 0x42120000),
       0xfe4bf853c8119b9full);
    EQ(EW("bfe.s64 $0, $1, $2, $3;", WID(64, 64, 32, 32), 0, 0x7144a7aab9225f55ull, 0xc1bc0000, 0x58146124), 0);
    EQ(EW("bfe.s64 $0, $1, $2, $3;", WID(64, 64, 32, 32), 0, 0x4049000000000000ull, 37, 0x40d00000),
       0x2024800);
    EQ(EW("bfe.s64 $0, $1, $2, $3;", WID(64, 64, 32, 32), 0, 0xf7423857c0304583ull, 0xc1fc0000, 0xb5d73389),
       ~0ull);
    EQ(EW("bfe.s64 $0, $1, $2, $3;", WID(64, 64, 32, 32), 0, 0xf7423857c0304583ull, 4, 8), 0x58);
    EQ(EW("bfe.s64 $0, $1, $2, $3;", WID(64, 64, 32, 32), 0, 0xf7423857c0304583ull, 4, 0), 0);
    /* .s32 keeps bits 0-7 (bfe_s32 matches the GPU): len 0x108 is 8 */
    EQ(E("bfe.s32 $0, $1, $2, $3;", 32, 0, 0x00000f80, 4, 0x108), 0xfffffff8);
    /* division by zero: all ones for div and rem */
    EQ(E("rem.s32 $0, $1, $2;", 32, 0, 0x1ebc74c4, 0), 0xffffffff);
    EQ(E("div.s32 $0, $1, $2;", 32, 0, 0xc1c00000, 0), 0xffffffff);
    EQ(E("rem.u32 $0, $1, $2;", 32, 0, 10, 0), 0xffffffff);
    EQ(E("rem.s64 $0, $1, $2;", 64, 0, 9, 0), ~0ull);
    EQ(E("rem.s32 $0, $1, $2;", 32, 0, (uint32_t)-7, 2), (uint32_t)-1);
    /* a NaN to a 64-bit integer or from f64: the most negative integer; f32 to s32: 0 */
    EQ(EW("cvt.rzi.s64.f32 $0, $1;", WID(64, 32), 0, 0xffc00000), 0x8000000000000000ull);
    EQ(EW("cvt.rzi.s32.f64 $0, $1;", WID(32, 64), 0, 0x7ff8000000000000ull), 0x80000000);
    EQ(E("cvt.rzi.s32.f32 $0, $1;", 32, 0, 0x7fc00000), 0);
    EQ(EW("cvt.rzi.s64.f32 $0, $1;", WID(64, 32), 0, F(-3.5f)), (uint64_t)-3);
    /* f16 to f32: the canonical NaN; bf16 to f32 keeps the payload */
    EQ(EW("cvt.f32.f16 $0, $1;", WID(32, 16), 0, 0x7c01), 0x7fffffff);
    EQ(EW("cvt.f32.f16 $0, $1;", WID(32, 16), 0, 0xffff), 0x7fffffff);
    EQ(EW("cvt.f32.bf16 $0, $1;", WID(32, 16), 0, 0xfff2), 0xfff20000);
    /* f64 to f32, f16: a NaN keeps its sign and the payload's top bits, quieted */
    EQ(EW("cvt.rn.f32.f64 $0, $1;", WID(32, 64), 0, 0xffffffffffffffe2ull), 0xffffffff);
    EQ(EW("cvt.rz.f32.f64 $0, $1;", WID(32, 64), 0, 0x7ff8000000000000ull), 0x7fc00000);
    EQ(EW("cvt.rm.f32.f64 $0, $1;", WID(32, 64), 0, 0x7ff0000020000000ull), 0x7fc00001);
    EQ(EW("cvt.rn.f16.f64 $0, $1;", WID(16, 64), 0, 0xfffffffffffffff1ull), 0xffff);
    EQ(EW("cvt.rn.f16.f64 $0, $1;", WID(16, 64), 0, 0x7ff8000000000123ull), 0x7e00);
    EQ(EW("cvt.rn.f16.f64 $0, $1;", WID(16, 64), 0, 0x7ff0040000000000ull), 0x7e01);
    /* fp8: NaN is 0x7f in e5m2 as in e4m3 */
    EQ(EW("cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;", WID(16, 32, 32), 0, 0xfffffffa, 0x14), 0x7f00);
    EQ(EW("cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", WID(16, 32, 32), 0, 0xfffffffa, 0x14), 0x7f00);
    EQ(EW("cvt.rn.satfinite.e5m2x2.f16x2 $0, $1;", WID(16, 32), 0, 0xffee3c00), 0x7f3c);
    /* .sat: -0 gives +0; cvt.ftz.f32.f32: the canonical NaN */
    EQ(E("mul.rn.ftz.sat.f32 $0, $1, $2;", 32, 0, 0xb6aedb09, 0), 0);
    EQ(E("add.sat.f32 $0, $1, $2;", 32, 0, 0x80000000, 0x80000000), 0);
    EQ(E("cvt.sat.f32.f32 $0, $1;", 32, 0, 0x80000000), 0);
    EQ(E("cvt.ftz.f32.f32 $0, $1;", 32, 0, 0xff8a5575), 0x7fffffff);
    EQ(E("cvt.ftz.f32.f32 $0, $1;", 32, 0, 0x80000001), 0x80000000);
    /* abs, neg of an f32 NaN: the canonical NaN */
    EQ(E("abs.f32 $0, $1;", 32, 0, 0xffffffe8), 0x7fffffff);
    EQ(E("neg.f32 $0, $1;", 32, 0, 0xffffffe8), 0x7fffffff);
    EQ(E("neg.ftz.f32 $0, $1;", 32, 0, 0x7fc00000), 0x7fffffff);
    /* f16/bf16 neg, abs of a NaN: 0x7fff */
    EQ(E("neg.f16x2 $0, $1;", 32, 0, 0xffffffe1), 0x7fff7fff);
    EQ(E("abs.bf16x2 $0, $1;", 32, 0, 0xff80ffe1), 0x7f807fff);
    EQ(EW("neg.ftz.f16 $0, $1;", WID(16, 16), 0, 0xff80), 0x7fff);
    EQ(EW("neg.ftz.f16 $0, $1;", WID(16, 16), 0, 0xfc00), 0x7c00);
    /* f64: NaN operands propagate, quieted; two NaNs: b (add, mul, fma), a (div) */
    EQ(E("add.rn.f64 $0, $1, $2;", 64, 0, 0x4014780c80000000ull, 0x7ff8000000000123ull), 0x7ff8000000000123ull);
    EQ(E("add.rn.f64 $0, $1, $2;", 64, 0, 0xffffffffffffffebull, 0xffffffffffffffe3ull), 0xffffffffffffffe3ull);
    EQ(E("mul.rz.f64 $0, $1, $2;", 64, 0, 0xfffffffffffffff9ull, D(-23.0)), 0xfffffffffffffff9ull);
    EQ(E("mul.rz.f64 $0, $1, $2;", 64, 0, D(-0.0), D(-INFINITY)), 0xfff8000000000000ull);
    EQ(E("div.rn.f64 $0, $1, $2;", 64, 0, 0xffffffffffffffebull, 0xffffffffffffffe3ull), 0xffffffffffffffebull);
    EQ(E("fma.rn.f64 $0, $1, $2, $1;", 64, 0, 0x7ff8000000000123ull, 0x7ff8000000000000ull), 0x7ff8000000000000ull);
    EQ(E("add.rn.f64 $0, $1, $2;", 64, 0, D(1.0), 0x7ff0000000000001ull), 0x7ff8000000000001ull);
    EQ(E("neg.f64 $0, $1;", 64, 0, 0x7ff79589ee6c5e02ull), 0x7fff9589ee6c5e02ull);
    EQ(E("neg.f64 $0, $1;", 64, 0, 0xffffffffffffffe9ull), 0xffffffffffffffe9ull);
    EQ(E("min.f64 $0, $1, $2;", 64, 0, 0xffffffffffffffe9ull, 0xfffffffffffffffcull), 0xfffffffffffffffcull);
    EQ(E("max.f64 $0, $1, $2;", 64, 0, 0x7ff8000000000123ull, 0xffffffffffffffdeull), 0xffffffffffffffdeull);
    /* ptxas contracts mul.f32 + add/sub.f32 without rounding modifiers into an fma */
    const char *ma = "{ .reg .f32 t; mul.f32 t, $1, $2; add.f32 $0, t, $3; }";
    EQ(E(ma, 32, 0, 0xd1851dee, 0xbc73959c, 0xcb54409d), 0x4e7a0166); /* the H100's */
    EQ(E("{ .reg .f32 t; mul.rn.f32 t, $1, $2; add.rn.f32 $0, t, $3; }", 32, 0, 0xd1851dee, 0xbc73959c,
         0xcb54409d), 0x4e7a0167);
    EQ(E("{ .reg .f32 t; mul.f32 t, $1, $2; add.rn.f32 $0, t, $3; }", 32, 0, 0xd1851dee, 0xbc73959c,
         0xcb54409d), 0x4e7a0167);
    /* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24, rounded 1 + 2^-11 (a tie, to even) */
    EQ(E("{ .reg .f32 t; mul.f32 t, $1, $2; sub.f32 $0, t, $3; }", 32, 0, 0x3f800800, 0x3f800800, F(1.0f)),
       0x3a000400); /* 2^-11 + 2^-24, not 2^-11 */
    EQ(E("{ .reg .f32 t; mul.f32 t, $1, $2; sub.f32 $0, $3, t; }", 32, 0, 0x3f800800, 0x3f800800, F(1.0f)),
       0xba000400);
    EQ(E("{ .reg .f32 t; mul.f32 t, $1, $2; add.f32 $0, $3, t; }", 32, 0, 0x3f800800, 0x3f800800, F(-1.0f)),
       0x3a000400);
    /* two uses: both contracted (the H100, contract_two_uses: 0x42b8ecdb, not 0x42b8ecda) */
    const char *two = "{ .reg .f32 t; mul.f32 t, $2, $3; add.f32 $0, t, $4; sub.f32 $1, $4, t; }";
    E(two, 32, 0, 0, 0x42340000, 0x3f4a2b15, 0x43000000);
    EQ(regs[1], 0x42b8ecdb);
    /* the product's other uses keep the rounded product */
    EQ(E("{ .reg .f32 t; mul.f32 t, $1, $2; add.f32 $0, t, $3; mov.b32 $1, t; }", 32, 0, 0x3f800800,
         0x3f800800, F(-1.0f)), 0x3a000400);
    EQ(regs[1], 0x3f801000); /* 1 + 2^-11 */
    /* a factor written between the mul and the add: not contracted (two roundings) */
    EQ(E("{ .reg .f32 t, u; mov.b32 u, $1; mul.f32 t, u, $2; mov.b32 u, 0; add.f32 $0, t, $3; }", 32, 0,
         0x3f800800, 0x3f800800, F(-1.0f)), 0x3a000000);
    /* mixed .ftz or a .sat: not contracted */
    EQ(E("{ .reg .f32 t; mul.ftz.f32 t, $1, $2; add.f32 $0, t, $3; }", 32, 0, 0x3f800800, 0x3f800800,
         F(-1.0f)), 0x3a000000);
    EQ(E("{ .reg .f32 t; mul.ftz.f32 t, $1, $2; add.ftz.f32 $0, t, $3; }", 32, 0, 0x3f800800, 0x3f800800,
         F(-1.0f)), 0x3a000400);
    /* setp's unsigned comparisons of a signed type: refused, as ptxas does */
    refused("{ .reg .pred p; setp.lo.s32 p, $1, $2; }", 3, "setp.lo.s32 p, $1, $2");
    refused("{ .reg .pred p; setp.hs.s64 p, $1, $2; }", 3, "mismatch between instruction type and comparison");
}

static void t_half(void **state)
{
    (void)state;
    EQ(E("add.f16 $0, $1, $2;", 16, 0, 0x3c00, 0x3c00), 0x4000);
    EQ(E("add.rn.f16x2 $0, $1, $2;", 32, 0, 0x3c004000, 0x3c003c00), 0x40004200);
    EQ(E("sub.f16x2 $0, $1, $2;", 32, 0, 0x64086408, 0x64006400), 0x48004800);
    /* one rounding: (1 + 2^-10)^2 - (1 + 2^-9) is 2^-20, a subnormal; mul then sub gives 0 */
    EQ(E("fma.rn.f16 $0, $1, $2, $3;", 16, 0, 0x3c01, 0x3c01, 0xbc02), 0x0010);
    EQ(E("{ .reg .b16 t; mul.rn.f16 t, $1, $2; add.rn.f16 $0, t, $3; }", 16, 0, 0x3c01, 0x3c01, 0xbc02), 0);
    EQ(E("fma.rn.ftz.f16 $0, $1, $2, $3;", 16, 0, 0x3c01, 0x3c01, 0xbc02), 0);
    EQ(E("fma.rn.bf16 $0, $1, $2, $3;", 16, 0, 0x3f81, 0x3f81, 0xbf82), 0x3880);
    EQ(E("fma.rn.bf16x2 $0, $1, $2, $3;", 32, 0, 0x3f813f81, 0x3f813f81, 0xbf82bf82), 0x38803880);
    EQ(E("fma.rn.relu.bf16 $0, $1, $2, $3;", 16, 0, 0x3f80, 0xbf80, 0), 0);
    EQ(E("mul.rn.bf16 $0, $1, $2;", 16, 0, 0x4040, 0x3eab), 0x3f80);
    EQ(E("add.f16 $0, $1, $2;", 16, 0, 0x7bff, 0x7bff), 0x7c00);
    EQ(E("add.f16 $0, $1, $2;", 16, 0, 0x7c00, 0xfc00), 0x7fff);
    EQ(E("add.f16 $0, $1, $2;", 16, 0, 0x0001, 0), 0x0001);
    EQ(E("add.ftz.f16 $0, $1, $2;", 16, 0, 0x0001, 0), 0);
    EQ(E("add.sat.f16 $0, $1, $2;", 16, 0, 0x3c00, 0x3c00), 0x3c00);
    EQ(E("min.f16 $0, $1, $2;", 16, 0, 0x7e00, 0x3c00), 0x3c00);
    EQ(E("max.NaN.f16 $0, $1, $2;", 16, 0, 0x7e00, 0x3c00), 0x7fff);
    EQ(E("min.f16x2 $0, $1, $2;", 32, 0, 0x3c00bc00, 0x40000000), 0x3c00bc00);
    EQ(E("max.bf16 $0, $1, $2;", 16, 0, 0x8000, 0x0000), 0x0000);
    EQ(E("neg.f16x2 $0, $1;", 32, 0, 0x3c00bc00), 0xbc003c00);
    EQ(E("abs.bf16 $0, $1;", 16, 0, 0xbf80), 0x3f80);
    /* the int4 -> f16 magic-number dequantization: (0x6400 | q) - 0x6408 = q - 8 */
    EQ(E("{ .reg .b32 t; lop3.b32 t, $1, 0x000f000f, 0x64006400, 0xea; sub.f16x2 $0, t, $2; }", 32, 0,
         0x00030009, 0x64086408),
       0xc5003c00); /* q = 3, 9: -5, 1 */
}

static void t_approx(void **state)
{
    (void)state;
    const float xs[] = {0.5f, -3.25f, 10.1f, 1.0f, 0x1p-130f, -0x1p-140f, 100.0f, -200.0f, 3e38f, 7.0f};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        float x = xs[i];
        EQ(E("ex2.approx.ftz.f32 $0, $1;", 32, 0, F(x)), F(emu_mufu_ex2(x)));
        EQ(E("ex2.approx.f32 $0, $1;", 32, 0, F(x)), F(emu_ex2_full(x)));
        EQ(E("lg2.approx.ftz.f32 $0, $1;", 32, 0, F(x)), F(emu_mufu_lg2(x)));
        EQ(E("lg2.approx.f32 $0, $1;", 32, 0, F(x)), F(emu_lg2_full(x)));
        EQ(E("rcp.approx.ftz.f32 $0, $1;", 32, 0, F(x)), F(emu_mufu_rcp(x)));
        EQ(E("rsqrt.approx.ftz.f32 $0, $1;", 32, 0, F(x)), F(emu_mufu_rsq(x)));
        EQ(E("sqrt.approx.ftz.f32 $0, $1;", 32, 0, F(x)), F(emu_mufu_sqrt(x)));
        EQ(E("div.full.f32 $0, $1, $2;", 32, 0, F(1.7f), F(x)), F(emu_div_full(1.7f, x)));
    }
    /* exact points of the models */
    EQ(E("ex2.approx.ftz.f32 $0, $1;", 32, 0, F(3.0f)), F(8.0f));
    EQ(E("lg2.approx.ftz.f32 $0, $1;", 32, 0, F(8.0f)), F(3.0f));
}

/* ---- predicates, moves, immediates, scopes ----------------------------------------------- */

static void t_setp_selp(void **state)
{
    (void)state;
    const char *lt = "{ .reg .pred p; setp.lt.s32 p, $1, $2; selp.b32 $0, 1, 2, p; }";
    EQ(E(lt, 32, 0, 0xffffffff, 1), 1);
    EQ(E("{ .reg .pred p; setp.lt.u32 p, $1, $2; selp.b32 $0, 1, 2, p; }", 32, 0, 0xffffffff, 1), 2);
    EQ(E("{ .reg .pred p; setp.lo.u32 p, $1, $2; selp.b32 $0, 1, 2, p; }", 32, 0, 1, 0xffffffff), 1);
    EQ(E("{ .reg .pred p; setp.hs.u32 p, $1, $2; selp.b32 $0, 1, 2, p; }", 32, 0, 1, 0xffffffff), 2);
    const char *cmp[][2] = {{"gt", "2"}, {"gtu", "1"}, {"ne", "2"}, {"neu", "1"}, {"nan", "1"},
                            {"num", "2"}, {"eq", "2"}, {"equ", "1"}};
    char s[160];
    for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++) {
        snprintf(s, sizeof s, "{ .reg .pred p; setp.%s.f32 p, $1, $2; selp.b32 $0, 1, 2, p; }", cmp[i][0]);
        EQ(E(s, 32, 0, 0x7fc00000, F(1.0f)), (uint64_t)atoi(cmp[i][1]));
    }
    EQ(E("{ .reg .pred p; setp.eq.f32 p, $1, $2; selp.b32 $0, 1, 2, p; }", 32, 0, 0x80000000, 0), 1);
    EQ(E("{ .reg .pred p; setp.ltu.f32 p, $1, $2; selp.b32 $0, 1, 2, p; }", 32, 0, 0x80000001, 0), 1);
    EQ(E("{ .reg .pred p; setp.ltu.ftz.f32 p, $1, $2; selp.b32 $0, 1, 2, p; }", 32, 0, 0x80000001, 0), 2);
    EQ(E("{ .reg .pred p; setp.lt.f64 p, $1, $2; selp.b64 $0, 1, 2, p; }", 64, 0, D(-1.0), D(1.0)), 1);
    /* p|q and a boolean operation with !c */
    const char *two = "{ .reg .pred p, q, c; setp.ne.s32 c, $3, 0; setp.lt.and.s32 p|q, $1, $2, c;"
                      " selp.b32 $0, 1, 0, p; @q add.s32 $0, $0, 10; }";
    EQ(E(two, 32, 0, 1, 2, 1), 1);
    EQ(E(two, 32, 0, 2, 1, 1), 10);
    EQ(E(two, 32, 0, 1, 2, 0), 0);
    EQ(E("{ .reg .pred p, c; setp.ne.s32 c, $3, 0; setp.lt.or.s32 p, $1, $2, !c; selp.b32 $0, 1, 0, p; }",
         32, 0, 2, 1, 0),
       1);
    EQ(E("{ .reg .pred p, c; setp.ne.s32 c, $3, 0; setp.lt.xor.s32 p, $1, $2, c; selp.b32 $0, 1, 0, p; }",
         32, 0, 1, 2, 1),
       0);
    /* guards */
    const char *g = "{ .reg .pred p; setp.eq.s32 p, $1, 0; @p mov.b32 $0, 100; @!p mov.b32 $0, 200; }";
    EQ(E(g, 32, 0, 0), 100);
    EQ(E(g, 32, 0, 7), 200);
    const char *px = "{ .reg .pred a, b, c; setp.ne.s32 a, $1, 0; setp.ne.s32 b, $2, 0; xor.pred c, a, b;"
                     " not.pred c, c; selp.b32 $0, 1, 0, c; }";
    EQ(E(px, 32, 0, 1, 1), 1);
    EQ(E(px, 32, 0, 1, 0), 0);
}

static void t_mov_imm_scope(void **state)
{
    (void)state;
    EQ(E("{ .reg .b8 t<4>; mov.b32 {t0, t1, t2, t3}, $1; mov.b32 $0, {t3, t2, t1, t0}; }", 32, 0, 0x11223344),
       0x44332211);
    EQ(E("{ .reg .b32 lo, hi; mov.b64 {lo, hi}, $1; mov.b64 $0, {hi, lo}; }", 64, 0, 0x1111111122222222ull),
       0x2222222211111111ull);
    EQ(E("{ .reg .b16 h; mov.b32 {_, h}, $1; cvt.u32.u16 $0, h; }", 32, 0, 0xabcd1234), 0xabcd);
    EQ(E("mov.b32 $0, 0x7fffffff;", 32, 0), 0x7fffffff);
    EQ(E("mov.b32 $0, -1;", 32, 0), 0xffffffff);
    EQ(E("mov.b32 $0, 010;", 32, 0), 8);
    EQ(E("mov.b32 $0, 0b101;", 32, 0), 5);
    EQ(E("mov.b32 $0, 42U;", 32, 0), 42);
    EQ(E("mov.f32 $0, 0f3F800000;", 32, 0), 0x3f800000);
    EQ(E("mov.f32 $0, 1.5;", 32, 0), 0x3fc00000);
    EQ(E("mov.f32 $0, 2;", 32, 0), 0x40000000);
    EQ(E("mov.f32 $0, -2.5e1;", 32, 0), F(-25.0f));
    EQ(E("mov.f64 $0, 0d3FF0000000000000;", 64, 0), 0x3ff0000000000000ull);
    EQ(E("mov.f64 $0, 0f3F800000;", 64, 0), 0x3ff0000000000000ull);
    EQ(E("mov.b32 $0, 0f3F800000;", 32, 0), 0x3f800000);
    EQ(E("mov.b16 $0, 0xffff;", 16, 0), 0xffff);
    EQ(E("mov.b16 $0, 0x12345;", 16, 0), 0x2345);
    EQ(E("add.f32 $0, $1, 0fBF800000;", 32, 0, F(3.0f)), F(2.0f));
    /* comments and empty statements */
    EQ(E("// a comment\n add.s32 $0, $1, 1; /* a block\n comment */ add.s32 $0, $0, 1;;", 32, 0, 5), 7);
    /* scopes: each its own names; inner shadows outer */
    EQ(E("{ .reg .b32 t; add.s32 t, $1, 1; mov.b32 $0, t; } { .reg .b32 t; add.s32 t, $0, 1; mov.b32 $0, t; }",
         32, 0, 5),
       7);
    EQ(E("{ .reg .b32 t; mov.b32 t, 5; { .reg .b32 t; mov.b32 t, 7; } mov.b32 $0, t; }", 32, 0), 5);
    EQ(E("{ .reg .u32 a, b<2>; mov.u32 a, 1; mov.u32 b0, 2; mov.u32 b1, 3; add.u32 $0, a, b1; }", 32, 0), 4);
    EQ(E("", 32, 0), 0);
    /* writes to a wider register extend by the type's sign */
    EQ(EW("cvt.s16.s8 $0, $1;", WID(32, 32), 0, 0x80), 0xffffff80);
    EQ(EW("mov.b16 $0, $1;", WID(32, 16), 0xffffffff, 0x8000), 0x8000);
}

/* ---- hostile asm --------------------------------------------------------------------------- */

static void t_refused(void **state)
{
    (void)state;
    refused("garbage", 2, "`garbage` is not emulated");
    refused("add.s32 $0, $1;", 2, "operands");
    refused("add.s32 $0, $1, $2, $1;", 3, "too many operands");
    refused("mov.b32 $0, $5;", 2, "operand $5 out of range");
    refused("mov.b32 $0, $99999999999;", 2, "out of range");
    refused("mov.b32 $0, $;", 2, "`$` without");
    refused("mov.b32 $0, $-1;", 2, "`$` without");
    refused("{ mov.b32 $0, $1;", 2, "unterminated `{`");
    refused("{ { mov.b32 $0, $1; }", 2, "unterminated `{`");
    refused("mov.b32 $0, $1; }", 2, "`}` without `{`");
    refused("mov.b32 $0, $1", 2, "expected `;`");
    refused("bra L1;", 1, "`bra` is not emulated");
    refused("L1: mov.b32 $0, $1;", 2, "labels");
    refused("ld.global.b32 $0, [$1];", 2, "`ld` is not emulated");
    refused("tanh.approx.f32 $0, $1;", 2, "`tanh` is not emulated");
    refused("sin.approx.f32 $0, $1;", 2, "`sin` is not emulated");
    refused("rcp.approx.f32 $0, $1;", 2, "only the .ftz form");
    refused("div.approx.f32 $0, $1, $2;", 3, "not emulated");
    refused("add.rz.f16 $0, $1, $2;", 3, "only .rn");
    refused("fma.f16 $0, $1, $2, $3;", 4, "needs .rn");
    refused("ex2.approx.f16 $0, $1;", 2, "unsupported type");
    refused("add.ftz.bf16 $0, $1, $2;", 3, "a modifier this instruction does not take");
    refused("cvt.rm.f16.f32 $0, $1;", 2, "only .rn and .rz");
    refused("cvt.s32.f32 $0, $1;", 2, "needs .rni");
    refused("cvt.f32.s32 $0, $1;", 2, "needs .rn");
    refused("fma.f32 $0, $1, $2, $3;", 4, "rounding modifier");
    refused("mul.s32 $0, $1, $2;", 3, ".lo, .hi, .wide");
    refused("shf.b32 $0, $1, $2, $3;", 4, ".l or .r");
    refused("add.s32.foo $0, $1, $2;", 3, "unknown or unsupported modifier `.foo`");
    refused("add $0, $1, $2;", 3, "missing type");
    refused("/* never closed", 1, "unterminated /* comment");
    refused(".reg .b32 r<99999>;", 1, "more than");
    refused(".reg .b32 r<>;", 1, "expected a count");
    refused(".reg .b99 r;", 1, "unknown register type");
    refused(".reg .b32 a; .reg .b32 a;", 1, "declared twice");
    refused(".section foo;", 1, "directive");
    refused("mov.b32 $0, 0f3F80;", 1, "8 hex digits");
    refused("mov.b32 $0, 0f3F8000001;", 1, "8 hex digits");
    refused("mov.b32 $0, 99999999999999999999999;", 1, "does not fit");
    refused("mov.b32 $0, 12abc;", 1, "bad number");
    refused("mov.b32 $0, 1.5;", 1, "a float literal where an integer");
    refused("@p mov.b32 $0, $1;", 2, "undeclared register `p`");
    refused("@$1 mov.b32 $0, $1;", 2, "not a .pred register");
    refused("mov.b32 {a, b}, $1;", 2, "undeclared register `a`");
    refused("{ .reg .b32 t; } mov.b32 $0, t;", 1, "undeclared register `t`");
    refused("{ .reg .b16 a, b, c; mov.b32 {a, b, c}, $1; }", 2, "2 or 4");
    refused("{ .reg .b8 a, b; mov.b32 {a, b}, $1; }", 2, "narrower");
    refused("add.s32 {$0, $1}, $1, $1;", 2, "outside mov");
    refused("setp.lt.s32 $0, $1, $2;", 3, "not a .pred register");
    refused("{ .reg .pred p; setp.lt.s32 p, $1, $2, p; }", 3, "setp takes 3");
    refused("{ .reg .pred p; add.s32 $0, p, 1; }", 2, "a predicate register where a value");
    refused("lop3.b32 $0, $1, $1, $1, $1;", 2, "lookup table must be an immediate");
    refused("mov.b32 1, $1;", 2, "immediate as a destination");
    refused("mov.b32 $0, !$1;", 2, "not a predicate");
    refused("selp.b32 $0, 1, 2, $1;", 2, "not a .pred register");
    refused("prmt.b32.f4e.b4e $0, $1, $2, $3;", 4, "two prmt modes");
    refused("selp.f32 $0, 0f3F800000, 0f40000000, 1;", 1, "an immediate where a predicate");
    refused("add.s32 $0, $1, $2 $1;", 3, "expected `,` or `;`");
    refused("@", 1, "expected an operand");
    {
        char deep[80];
        memset(deep, '{', 70);
        deep[70] = 0;
        refused(deep, 1, "64 deep");
    }
    refused("mov.b32 $0, %r1;", 1, "undeclared register `%r1`");
    refused(".reg .pred p; mov.b32 $0, 1; @p .reg .b32 x;", 1, "guarded directive");
    /* the error names the instruction */
    refused("add.s32 $0, $1, 1; popc.b16 $0, $1;", 2, "`popc.b16 $0, $1`");
    /* constraint letters */
    assert_int_equal(emu_ptx_constraint_bits("=r", 2), 32);
    assert_int_equal(emu_ptx_constraint_bits("h", 1), 16);
    assert_int_equal(emu_ptx_constraint_bits("=l", 2), 64);
    assert_int_equal(emu_ptx_constraint_bits("f", 1), 32);
    assert_int_equal(emu_ptx_constraint_bits("d", 1), 64);
    assert_int_equal(emu_ptx_constraint_bits("c", 1), 8);
    assert_int_equal(emu_ptx_constraint_bits("=rr", 3), 0);
    assert_int_equal(emu_ptx_constraint_bits("0", 1), 0);
    assert_int_equal(emu_ptx_constraint_bits("", 0), 0);
}

/* random mutations of valid asm: each parses or is refused, and what parses runs */
static void t_mutations(void **state)
{
    (void)state;
    static const char *seeds[] = {
        "shf.l.wrap.b32 $0, $1, $2, $3;",
        "{ .reg .b8 t<4>; mov.b32 {t0, t1, t2, t3}, $3; cvt.u32.u8 $0, t0; cvt.u32.u8 $1, t1; } "
        "cvt.rn.f32.s32 $2, $0; max.f32 $2, $2, $3;",
        "{ .reg .pred p, q; setp.lt.and.s32 p|q, $1, $2, p; @p mov.b32 $0, 0f3F800000; @!q bfe.s32 $0, $1, 3, 7; }",
        "prmt.b32 $0, $1, 0, 0x5140; lop3.b32 $0, $0, 0x80008000, $2, 0xf8; cvt.rn.f16x2.f32 $1, $2, $3;",
        "{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $1; cvt.rn.f16x2.e4m3x2 $0, lo; cvt.f32.f16 $2, hi; } "
        "ex2.approx.ftz.f32 $3, $3; div.full.f32 $3, $3, $2; // end\n",
        "mul.wide.s32 $0, $1, $2; /* c */ mad.hi.u32 $1, $1, $2, $3; bfi.b32 $2, $1, $2, 8, 4; "
        "cvt.rzi.sat.s8.f32 $3, $3;",
    };
    const char alphabet[] = "{}$;,.@!%_|<> \n/*-+0123456789abcdefxXlrhbspuf0fdUFE";
    uint64_t st = 0x9e3779b97f4a7c15ull;
    char buf[512], err[256];
    int ok = 0;
    for (int it = 0; it < 40000; it++) {
        const char *s = seeds[it % (sizeof seeds / sizeof seeds[0])];
        size_t n = strlen(s);
        memcpy(buf, s, n + 1);
        int edits = 1 + (int)(st % 4);
        for (int e = 0; e < edits; e++) {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            size_t pos = (size_t)(st >> 33) % (n + 1);
            int kind = (int)((st >> 20) % 4);
            char ch = alphabet[(st >> 40) % (sizeof alphabet - 1)];
            if (kind == 0 && pos < n) {
                buf[pos] = ch;
            } else if (kind == 1 && n + 1 < sizeof buf) {
                memmove(buf + pos + 1, buf + pos, n - pos + 1);
                buf[pos] = ch;
                n++;
            } else if (kind == 2 && pos < n) {
                memmove(buf + pos, buf + pos + 1, n - pos);
                n--;
            } else {
                buf[pos] = 0;
                n = pos;
            }
        }
        int w[4] = {32, 32, 32, 32};
        err[0] = 0;
        emu_ptx_prog *p = emu_ptx_parse(buf, 4, w, err, sizeof err);
        if (!p) {
            if (!err[0])
                fail_msg("`%s` refused without a message", buf);
            continue;
        }
        ok++;
        uint64_t *r = calloc((size_t)p->nregs + 1, 8);
        assert_non_null(r);
        for (int i = 0; i < 4; i++)
            r[i] = (st >> (8 * i)) & 0xffffffffu;
        emu_ptx_exec(p, r);
        free(r);
        emu_ptx_free(p);
    }
    assert_true(ok > 100); /* some mutations stay valid */
}

/* the fp8e4b15 -> fp16 upcast Triton's frontend emits (triton/language/extra/cuda/utils.py),
 * run on the interpreter: the bits of the emulator's dedicated handler (sign << 15 |
 * (exponent, mantissa) << 7), element k from byte k */
static void t_triton_upcast(void **state)
{
    (void)state;
    const char *up = "{                                      \n"
                     ".reg .b32 a<2>, b<2>;                  \n"
                     "prmt.b32 a0, 0, $2, 0x5746;            \n"
                     "and.b32 b0, a0, 0x7f007f00;            \n"
                     "and.b32 b1, a0, 0x00ff00ff;            \n"
                     "and.b32 a1, a0, 0x00800080;            \n"
                     "shr.b32  b0, b0, 1;                    \n"
                     "add.u32 b1, b1, a1;                    \n"
                     "lop3.b32 $0, b0, 0x80008000, a0, 0xf8; \n"
                     "shl.b32 $1, b1, 7;                     \n"
                     "}                                      \n";
    int w[3] = {32, 32, 32};
    char err[256];
    emu_ptx_prog *p = emu_ptx_parse(up, 3, w, err, sizeof err);
    if (!p)
        fail_msg("%s", err);
    uint64_t *r = calloc((size_t)p->nregs, 8);
    assert_non_null(r);
    uint64_t st = 7;
    for (int it = 0; it < 70000; it++) {
        uint32_t x = it < 256 ? (uint32_t)it * 0x01010101u : rnd32(&st);
        memset(r, 0, sizeof *r * (size_t)p->nregs);
        r[2] = x;
        emu_ptx_exec(p, r);
        for (int k = 0; k < 4; k++) {
            uint32_t b = (x >> (8 * k)) & 0xff;
            uint32_t want = (b & 0x80u) << 8 | (b & 0x7fu) << 7;
            uint32_t got = (uint32_t)(r[k / 2] >> (16 * (k % 2))) & 0xffff;
            if (got != want)
                fail_msg("0x%08x element %d: 0x%04x, want 0x%04x", x, k, got, want);
        }
    }
    free(r);
    emu_ptx_free(p);
    /* the downcast uses f16x2 instructions the interpreter refuses, naming one */
    refused("{ .reg .b32 a0; setp.lt.f16x2 p0|p1, a0, a0; }", 3, "unsupported type");
    refused("mov.u32 $0, %smid;", 1, "undeclared register `%smid`");
}

/* ---- the GPU's outputs (tests/golden/ptx) ------------------------------------------------- */

/* the input generator of scripts/gpu/ptx_probe.py, bit for bit */
static const uint32_t probe_t32[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x3f800000,
    0xbf800000, 0x3f000000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
    0x7f800001, 0x7fc12345, 0x4b800001, 0x4f000000, 0xcf000000, 0x4f800000, 0x477fe000, 0x47800000,
    0x33800000, 0x33000000, 0x3f808000, 0x40490fdb, 0xc2fc0000, 0x43000000, 0x42fe0000, 0xc3160000};
static const uint64_t probe_t64[] = {
    0, 0x8000000000000000ull, 1, 0x000fffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff8000000000123ull,
    0x3ff0000000000001ull, 0x3ff0020000001000ull, 0x43e0000000000000ull, 0xc3e0000000000000ull,
    0x41dfffffffc00000ull, 0x47efffffe0000000ull, 0x3810000000000000ull, 0x36a0000000000000ull};
static const uint16_t probe_t16[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00,
                                     0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x3840,
                                     0x7f7f, 0xffff, 0x3f80, 0xbf80, 0x7f80, 0x7fc0, 0x0080, 0x4b81};
#define NT(t) (sizeof(t) / sizeof((t)[0]))

static uint64_t fnv_bytes(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint32_t probe_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

static uint32_t probe_moderate32(uint64_t *s)
{
    uint32_t sign = probe_next(s) & 1;
    uint32_t e = 100 + probe_next(s) % 60;
    uint32_t m = probe_next(s) & 0x7fffff;
    return sign << 31 | e << 23 | m;
}

static uint64_t probe_value(uint64_t *s, int width)
{
    uint32_t k = probe_next(s) % 8;
    if (width == 64) {
        if (k <= 2) {
            uint64_t hi = probe_next(s);
            return hi << 32 | probe_next(s);
        }
        if (k == 3)
            return (uint64_t)((int64_t)(probe_next(s) % 81) - 40);
        if (k == 4)
            return probe_t64[probe_next(s) % NT(probe_t64)];
        if (k == 5)
            return D((double)FB(probe_moderate32(s)));
        if (k == 6)
            return D(((int)(probe_next(s) % 201) - 100) * 0.5);
        return probe_next(s) % 70;
    }
    if (width == 32) {
        if (k <= 2)
            return probe_next(s);
        if (k == 3)
            return (uint32_t)((int32_t)(probe_next(s) % 81) - 40);
        if (k == 4)
            return probe_t32[probe_next(s) % NT(probe_t32)];
        if (k == 5)
            return probe_moderate32(s);
        if (k == 6)
            return F((float)(((int)(probe_next(s) % 201) - 100) * 0.5));
        return probe_next(s) % 70;
    }
    if (k <= 2)
        return probe_next(s) & 0xffff;
    if (k == 3)
        return (uint16_t)((int32_t)(probe_next(s) % 81) - 40);
    if (k == 4)
        return probe_t16[probe_next(s) % NT(probe_t16)];
    if (k == 5) {
        uint32_t sign = probe_next(s) & 1;
        uint32_t e = 5 + probe_next(s) % 21;
        uint32_t m = probe_next(s) & 0x3ff;
        return sign << 15 | e << 10 | m;
    }
    if (k == 6)
        return probe_next(s) & 0xffff;
    return probe_next(s) % 40;
}

static bool has_nocase(const char *s, const char *sub)
{
    size_t n = strlen(sub);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == tolower((unsigned char)sub[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* The probes that the GPU has not run, each with the measured reason (never a silent skip):
 * the test reports them, and fails if gpu.txt has them (then remove them here).  None now: the
 * last one, cvt_f16_f32_relu_satfinite, ran on an H100 on 2026-12-07. */
static const struct {
    const char *name, *why;
} not_on_gpu[] = {
    {NULL, NULL}, /* the end */
};

static void t_gpu_probes(void **state)
{
    (void)state;
    char path[1024];
    const char *src = getenv("CTRITON_SOURCE_DIR");
    src = src ? src : CTRITON_SOURCE_DIR;
    snprintf(path, sizeof path, "%s/tests/golden/ptx/cases.txt", src);
    size_t len;
    char *cases = ct_read_file(path, &len);
    assert_non_null(cases);
    /* the GPU's hashes (gpu.txt: an H100's run of scripts/gpu/ptx_probe.py); without the file
     * every case still runs on all its inputs (parsed, no crash), unchecked */
    snprintf(path, sizeof path, "%s/tests/golden/ptx/gpu.txt", src);
    char *gpu = ct_read_file(path, &len);
    const char *dbg = getenv("CTRITON_PTX_PROBE_DIR"); /* the probe's NAME.out.bin: first mismatches */
    int ncases = 0, bad = 0, nrefused = 0, nexcept = 0;
    char *save = NULL;
    for (char *line = strtok_r(cases, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        assert_non_null(t2);
        *t1 = *t2 = 0;
        const char *name = line, *cons = t1 + 1, *asm_ = t2 + 1;
        /* a fourth field `refused: MESSAGE`: ptxas refuses the PTX (the GPU never ran it) */
        char *t3 = strchr(asm_, '\t');
        const char *refusal = NULL;
        if (t3) {
            *t3 = 0;
            assert_true(!strncmp(t3 + 1, "refused: ", 9));
            refusal = t3 + 10;
        }
        const char *exception = NULL;
        for (size_t i = 0; not_on_gpu[i].name; i++)
            if (!strcmp(name, not_on_gpu[i].name))
                exception = not_on_gpu[i].why;
        int w[16], nops = 0, nin = 0;
        bool out[16];
        for (const char *c = cons; *c && nops < 16;) {
            while (*c == ' ' || *c == ',')
                c++;
            out[nops] = *c == '=';
            if (*c == '=')
                c++;
            w[nops] = *c == 'h' ? 16 : (*c == 'l' || *c == 'd') ? 64 : 32;
            nin += !out[nops];
            nops++;
            while (*c && *c != ',')
                c++;
        }
        /* the recorded line: name N input-hash output-hash */
        char key[160];
        snprintf(key, sizeof key, "\n%s ", name);
        const char *rec = gpu ? strstr(gpu, key) : NULL;
        char err[512];
        if (refusal) { /* the emulator refuses it too, at parse time, naming the instruction */
            emu_ptx_prog *p = emu_ptx_parse(asm_, nops, w, err, sizeof err);
            if (p || !has_nocase(err, refusal) || !strstr(err, "setp.")) {
                printf("  %s: ptxas refuses it (%s), the emulator %s%s\n", name, refusal,
                       p ? "accepts it" : "refuses it otherwise: ", p ? "" : err);
                bad++;
            }
            if (rec) {
                printf("  %s: in gpu.txt, but cases.txt says ptxas refuses it\n", name);
                bad++;
            }
            emu_ptx_free(p);
            nrefused++;
            continue;
        }
        if (rec && exception) {
            printf("  %s: now in gpu.txt: remove it from not_on_gpu\n", name);
            bad++;
        }
        if (gpu && !rec && exception) {
            printf("  %s: not checked (listed exception: %s)\n", name, exception);
            nexcept++;
            continue;
        }
        if (gpu && !rec) {
            printf("  %s: not in gpu.txt (run scripts/gpu/ptx_probe.py on the GPU)\n", name);
            bad++;
            continue;
        }
        int n = 8192;
        unsigned long long ih = 0, oh = 0;
        if (rec)
            assert_int_equal(sscanf(rec + strlen(key), "%d %llx %llx", &n, &ih, &oh), 3);
        emu_ptx_prog *p = emu_ptx_parse(asm_, nops, w, err, sizeof err);
        if (!p) {
            printf("  %s: refused: %s\n", name, err);
            bad++;
            continue;
        }
        uint64_t s = fnv_bytes(0xcbf29ce484222325ull, name, strlen(name));
        uint64_t hin = 0xcbf29ce484222325ull, hout = 0xcbf29ce484222325ull;
        uint64_t *r = calloc((size_t)p->nregs, 8);
        assert_non_null(r);
        uint8_t *ref = NULL;
        if (dbg) {
            char bp[1024];
            snprintf(bp, sizeof bp, "%s/%s.out.bin", dbg, name);
            size_t bl = 0;
            ref = (uint8_t *)ct_read_file(bp, &bl);
        }
        int shown = 0;
        for (int e = 0; e < n; e++) {
            memset(r, 0, sizeof *r * (size_t)p->nregs);
            uint64_t in[16];
            for (int i = 0, j = 0; i < nops; i++)
                if (!out[i]) {
                    r[i] = in[j++] = probe_value(&s, w[i]);
                    hin = fnv_bytes(hin, &r[i], 8);
                }
            emu_ptx_exec(p, r);
            for (int i = 0, k = 0; i < nops; i++)
                if (out[i]) {
                    uint64_t v = r[i] & (w[i] >= 64 ? ~0ull : (1ull << w[i]) - 1);
                    hout = fnv_bytes(hout, &v, 8);
                    if (ref && shown < 6) {
                        uint64_t g;
                        memcpy(&g, ref + ((size_t)e * (size_t)(nops - nin) + (size_t)k) * 8, 8);
                        if (g != v) {
                            printf("  %s element %d $%d: emulator 0x%llx, GPU 0x%llx; inputs", name, e, i,
                                   (unsigned long long)v, (unsigned long long)g);
                            for (int q = 0; q < nin; q++)
                                printf(" 0x%llx", (unsigned long long)in[q]);
                            printf("\n");
                            shown++;
                        }
                    }
                    k++;
                }
        }
        free(ref);
        free(r);
        emu_ptx_free(p);
        ncases++;
        if (!gpu)
            continue;
        if (hin != ih) {
            printf("  %s: the inputs differ from the probe's (generator out of step)\n", name);
            bad++;
        } else if (hout != oh) {
            printf("  %s: the outputs differ from the GPU's\n", name);
            bad++;
        }
    }
    if (gpu)
        printf("%d inline PTX probes against the GPU's outputs, %d bad; %d refused as ptxas "
               "refuses them; %d listed exceptions\n", ncases, bad, nrefused, nexcept);
    else
        printf("%d inline PTX probes run (tests/golden/ptx/gpu.txt not recorded yet: "
               "scripts/gpu/ptx_probe.py on a GPU writes it)\n", ncases);
    free(cases);
    free(gpu);
    assert_int_equal(bad, 0);
    assert_true(ncases >= 100);
}

/* ---- TTIR kernels on the emulator ------------------------------------------------------------ */

static ct_emu_kernel *load(const char *file, ct_diags *d)
{
    char path[1024];
    const char *src = getenv("CTRITON_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tests/text/ptx/%s", src ? src : CTRITON_SOURCE_DIR, file);
    size_t len = 0;
    char *text = ct_read_file(path, &len);
    assert_non_null(text);
    ct_module *m = ct_parse_module(text, len, path, d);
    free(text);
    if (!m)
        ct_diags_print(d, stderr, true);
    assert_non_null(m);
    ct_emu_kernel *k = ct_emu_compile(m, NULL, d);
    ct_module_destroy(m);
    return k;
}

static uint32_t rnd32(uint64_t *st)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*st >> 32);
}

static void t_ttir_pack1(void **state)
{
    (void)state;
    ct_diags d;
    ct_diags_init(&d);
    ct_emu_kernel *k = load("pack1.ttir", &d);
    if (!k)
        ct_diags_print(&d, stderr, true);
    assert_non_null(k);
    enum { N = 64 };
    uint32_t x[N], y[N];
    float f[N], g[N];
    uint64_t st = 1;
    for (int i = 0; i < N; i++) {
        x[i] = rnd32(&st);
        f[i] = (float)(int32_t)rnd32(&st) * 0x1p-28f;
    }
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_I32, CT_EMU_IN);
    int bf = ct_emu_add_buffer(e, "f", f, sizeof f, CT_EMU_F32, CT_EMU_IN);
    int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_I32, CT_EMU_OUT);
    int bg = ct_emu_add_buffer(e, "g", g, sizeof g, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg args[] = {ct_emu_ptr(bx), ct_emu_ptr(bf), ct_emu_ptr(by), ct_emu_ptr(bg)};
    ct_emu_result res;
    ct_emu_launch l = {{1, 1, 1}, 1, 0, NULL};
    assert_int_equal(ct_emu_run(e, k, &l, 4, args, &res), CT_EMU_OK);
    for (int i = 0; i < N; i++) {
        EQ(y[i], (uint32_t)(x[i] >> 5 | x[i] << 27));
        EQ(F(g[i]), F(fmaf(f[i], f[i], 1.0f)));
    }
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    ct_diags_free(&d);
}

static void t_ttir_pack2(void **state)
{
    (void)state;
    ct_diags d;
    ct_diags_init(&d);
    ct_emu_kernel *k = load("pack2.ttir", &d);
    assert_non_null(k);
    enum { N = 64 };
    uint16_t x[N], y[N];
    float z[N];
    uint64_t st = 2;
    for (int i = 0; i < N; i++)
        x[i] = (uint16_t)rnd32(&st);
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F16, CT_EMU_IN);
    int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F16, CT_EMU_OUT);
    int bz = ct_emu_add_buffer(e, "z", z, sizeof z, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg args[] = {ct_emu_ptr(bx), ct_emu_ptr(by), ct_emu_ptr(bz)};
    ct_emu_result res;
    ct_emu_launch l = {{1, 1, 1}, 1, 0, NULL};
    assert_int_equal(ct_emu_run(e, k, &l, 3, args, &res), CT_EMU_OK);
    for (int i = 0; i < N; i++) {
        EQ(y[i], x[i ^ 1]); /* the pair's halves swapped: element 2k is the low half */
        /* cvt.f32.f16: a NaN gives the canonical NaN (the H100, probe cvt_f32_f16) */
        float h = emu_h2f(x[i]);
        EQ(F(z[i]), h != h ? 0x7fffffffu : F(h));
    }
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    ct_diags_free(&d);
}

static void t_ttir_pack4(void **state)
{
    (void)state;
    ct_diags d;
    ct_diags_init(&d);
    ct_emu_kernel *k = load("pack4.ttir", &d);
    assert_non_null(k);
    enum { N = 64 };
    uint8_t x[N];
    uint16_t h[N];
    int32_t s[N];
    for (int i = 0; i < N; i++)
        x[i] = (uint8_t)(i * 37 + 5);
    x[0] = 0x7f; /* NaN */
    x[1] = 0x80; /* -0 */
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_I8, CT_EMU_IN);
    int bh = ct_emu_add_buffer(e, "h", h, sizeof h, CT_EMU_F16, CT_EMU_OUT);
    int bs = ct_emu_add_buffer(e, "s", s, sizeof s, CT_EMU_I32, CT_EMU_OUT);
    ct_emu_arg args[] = {ct_emu_ptr(bx), ct_emu_ptr(bh), ct_emu_ptr(bs)};
    ct_emu_result res;
    ct_emu_launch l = {{1, 1, 1}, 1, 0, NULL};
    assert_int_equal(ct_emu_run(e, k, &l, 3, args, &res), CT_EMU_OK);
    for (int i = 0; i < N; i++) {
        EQ(h[i], emu_f2h(emu_fp8_to_f32(x[i], EK_F8E4NV)));
        EQ((uint32_t)s[i], (uint32_t)(int32_t)(int8_t)x[i]);
    }
    EQ(h[1], 0x8000);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    ct_diags_free(&d);
}

/* an asm of a make_range (the same values in every program) under a program-dependent use,
 * on 8 programs and 1 to 3 threads (each thread's frame holds its own register file) */
static void t_ttir_invariant(void **state)
{
    (void)state;
    ct_diags d;
    ct_diags_init(&d);
    ct_emu_kernel *k = load("invariant.ttir", &d);
    assert_non_null(k);
    enum { P = 8, N = 64 };
    for (int threads = 1; threads <= 3; threads++) {
        int32_t y[P * N];
        ct_emu *e = ct_emu_new();
        int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_I32, CT_EMU_OUT);
        ct_emu_arg args[] = {ct_emu_ptr(by)};
        ct_emu_result res;
        ct_emu_launch l = {{P, 1, 1}, threads, 0, NULL};
        assert_int_equal(ct_emu_run(e, k, &l, 1, args, &res), CT_EMU_OK);
        for (int p = 0; p < P; p++)
            for (int i = 0; i < N; i++)
                assert_int_equal(y[p * N + i], 3 * i + 7 + p * N);
        ct_emu_free(e);
    }
    ct_emu_kernel_free(k);
    ct_diags_free(&d);
}

static void t_ttir_refused(void **state)
{
    (void)state;
    ct_diags d;
    ct_diags_init(&d);
    ct_emu_kernel *k = load("refused.ttir", &d);
    assert_null(k);
    assert_int_equal(d.nerrors, 1); /* one error: the results are bound all the same */
    assert_non_null(d.items[0].message);
    assert_non_null(strstr(d.items[0].message, "`tanh` is not emulated"));
    assert_non_null(d.items[0].file);
    assert_non_null(strstr(d.items[0].file, "refused.ttir"));
    assert_int_equal(d.items[0].line, 7);
    ct_diags_free(&d);
}

/* the op's constraints, pack and element types against the asm (compile_asm.c) */
static const char *asm_kernel =
    "module {\n"
    "  tt.func public @k(%%x: !tt.ptr<%s>, %%y: !tt.ptr<%s>) {\n"
    "    %%r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>\n"
    "    %%px = tt.splat %%x : !tt.ptr<%s> -> tensor<64x!tt.ptr<%s>>\n"
    "    %%pxa = tt.addptr %%px, %%r : tensor<64x!tt.ptr<%s>>, tensor<64xi32>\n"
    "    %%xv = tt.load %%pxa : tensor<64x!tt.ptr<%s>>\n"
    "    %%o = tt.elementwise_inline_asm \"%s\" {constraints = \"%s\", packed_element = %d : i32, pure = true} "
    "%%xv : tensor<64x%s> -> tensor<64x%s>\n"
    "    %%py = tt.splat %%y : !tt.ptr<%s> -> tensor<64x!tt.ptr<%s>>\n"
    "    %%pya = tt.addptr %%py, %%r : tensor<64x!tt.ptr<%s>>, tensor<64xi32>\n"
    "    tt.store %%pya, %%o : tensor<64x!tt.ptr<%s>>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

/* compiles the kernel for (asm, constraints, pack, type); NULL on success, else the first error */
static char *asm_compile(const char *asm_, const char *cons, int pack, const char *ty, ct_emu_kernel **out)
{
    char text[4096];
    snprintf(text, sizeof text, asm_kernel, ty, ty, ty, ty, ty, ty, asm_, cons, pack, ty, ty, ty, ty, ty, ty);
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module(text, strlen(text), "asm.ttir", &d);
    if (!m) { /* the parser's own checks (a pack of 0) */
        const char *e = ct_diags_first_error(&d);
        char *msg = strdup(e ? e : "?");
        ct_diags_free(&d);
        if (out)
            *out = NULL;
        return msg;
    }
    ct_emu_kernel *k = ct_emu_compile(m, NULL, &d);
    ct_module_destroy(m);
    char *msg = NULL;
    if (!k) {
        const char *e = ct_diags_first_error(&d);
        msg = strdup(e ? e : "?");
        assert_int_equal(d.nerrors, 1); /* one error, no follow-on errors */
    }
    ct_diags_free(&d);
    if (out)
        *out = k;
    else
        ct_emu_kernel_free(k);
    return msg;
}

static void asm_refused(const char *asm_, const char *cons, int pack, const char *ty, const char *sub)
{
    char *msg = asm_compile(asm_, cons, pack, ty, NULL);
    if (!msg)
        fail_msg("`%s` (%s, pack %d, %s) compiled; expected `%s`", asm_, cons, pack, ty, sub);
    if (!strstr(msg, sub))
        fail_msg("`%s` (%s, pack %d, %s): `%s` does not say `%s`", asm_, cons, pack, ty, msg, sub);
    free(msg);
}

static void t_op_shapes(void **state)
{
    (void)state;
    /* accepted: the output is the input, at several packs and widths */
    struct {
        const char *asm_, *cons, *ty;
        int pack;
    } ok[] = {
        {"mov.b32 $0, $1;", "=r,r", "i32", 1},
        {"mov.b32 $0, $2; mov.b32 $1, $3;", "=r,=r,r,r", "i32", 2},
        {"mov.b16 $0, $1;", "=h,h", "i16", 1},
        {"mov.b32 $0, $1;", "=r,r", "i16", 2},
        {"mov.b32 $0, $1;", "=r,r", "i8", 4},
        {"mov.b16 $0, $1;", "=h,h", "i8", 2},
        {"mov.b32 $0, $2; mov.b32 $1, $3;", "=r,=r,r,r", "i8", 8},
        {"mov.b64 $0, $1;", "=l,l", "i64", 1},
        {"mov.b32 $0, $1;", "=f,f", "f32", 1},
        {"mov.b64 $0, $1;", "=d,d", "f64", 1},
        {"mov.b32 $0, $1;", "=r,r", "bf16", 2},
        {"mov.b32 $0, $1;", "= r , r", "i32", 1},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        ct_emu_kernel *k = NULL;
        char *msg = asm_compile(ok[i].asm_, ok[i].cons, ok[i].pack, ok[i].ty, &k);
        if (msg)
            fail_msg("`%s` (%s, pack %d, %s) refused: %s", ok[i].asm_, ok[i].cons, ok[i].pack, ok[i].ty, msg);
        uint8_t x[64 * 8], y[64 * 8];
        for (size_t j = 0; j < sizeof x; j++)
            x[j] = (uint8_t)(j * 7 + 1);
        ct_emu_dtype dt = !strcmp(ok[i].ty, "i32") ? CT_EMU_I32 : !strcmp(ok[i].ty, "i16") ? CT_EMU_I16
                          : !strcmp(ok[i].ty, "i8")  ? CT_EMU_I8
                          : !strcmp(ok[i].ty, "i64") ? CT_EMU_I64
                          : !strcmp(ok[i].ty, "f32") ? CT_EMU_F32
                          : !strcmp(ok[i].ty, "f64") ? CT_EMU_F64
                                                     : CT_EMU_BF16;
        size_t bytes = 64 * ct_emu_dtype_size(dt);
        ct_emu *e = ct_emu_new();
        int bx = ct_emu_add_buffer(e, "x", x, bytes, dt, CT_EMU_IN);
        int by = ct_emu_add_buffer(e, "y", y, bytes, dt, CT_EMU_OUT);
        ct_emu_arg args[] = {ct_emu_ptr(bx), ct_emu_ptr(by)};
        ct_emu_result res;
        ct_emu_launch l = {{1, 1, 1}, 1, 0, NULL};
        assert_int_equal(ct_emu_run(e, k, &l, 2, args, &res), CT_EMU_OK);
        assert_memory_equal(x, y, bytes);
        ct_emu_free(e);
        ct_emu_kernel_free(k);
    }
    asm_refused("mov.b32 $0, $1;", "=r,r,r", 1, "i32", "3 constraints");
    asm_refused("mov.b32 $0, $1;", "r,=r", 1, "i32", "output constraints must come first");
    asm_refused("mov.b32 $0, $1;", "=q,r", 1, "i32", "constraint `=q` is not emulated");
    asm_refused("mov.b32 $0, $1;", "=r,0", 1, "i32", "constraint `0` is not emulated");
    asm_refused("mov.b32 $0, $1;", "", 1, "i32", "not emulated");
    asm_refused("mov.b32 $0, $1;", "=r,r", 2, "i32", "take 4 registers");
    asm_refused("mov.b16 $0, $1;", "=h,h", 1, "i32", "holds 32 bits");
    asm_refused("mov.b32 $0, $1;", "=r,r", 0, "i32", "packed_element must be positive");
    asm_refused("mov.b32 $0, $1;", "=r,r", 65, "i32", "must be a multiple");
    asm_refused("mov.b32 $0, $1;", "=r,r", 3, "i8", "multiple");
    asm_refused("mov.b32 $0, $2;", "=r,r", 1, "i32", "operand $2 out of range");
    asm_refused("{ mov.b32 $0, $1;", "=r,r", 1, "i32", "unterminated");
    asm_refused("ld.global.b32 $0, [ $1 + 0 ];", "=r,l", 1, "i32", "`ld` is not emulated");
    asm_refused("mov.b32 $0, $1;", "=r,r", 1, "i1", "which the emulator does not pass to asm");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_shifts),        cmocka_unit_test(t_prmt_lop3),
        cmocka_unit_test(t_bitfields),     cmocka_unit_test(t_int_arith),
        cmocka_unit_test(t_cvt_int),       cmocka_unit_test(t_cvt_float_int),
        cmocka_unit_test(t_cvt_float),     cmocka_unit_test(t_float),
        cmocka_unit_test(t_half),
        cmocka_unit_test(t_approx),        cmocka_unit_test(t_setp_selp), cmocka_unit_test(t_gpu_rules),
        cmocka_unit_test(t_mov_imm_scope), cmocka_unit_test(t_refused),
        cmocka_unit_test(t_mutations),     cmocka_unit_test(t_ttir_pack1),
        cmocka_unit_test(t_ttir_pack2),    cmocka_unit_test(t_ttir_pack4),
        cmocka_unit_test(t_ttir_refused),  cmocka_unit_test(t_op_shapes),
        cmocka_unit_test(t_triton_upcast),
        cmocka_unit_test(t_ttir_invariant),  cmocka_unit_test(t_gpu_probes),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
