/*
 * mufu_probe.cu - what the H200's special-function unit (MUFU) computes, measured.
 *
 * Every PTX approximate instruction Triton emits for f32 becomes one MUFU operation on sm_90,
 * with plain f32 multiplies around it for the non-ftz forms (ptxas -arch=sm_90, disassembled):
 *   ex2.approx.ftz.f32  -> MUFU.EX2            rcp.approx.ftz.f32  -> MUFU.RCP
 *   lg2.approx.ftz.f32  -> MUFU.LG2            rsqrt.approx.ftz.f32 -> MUFU.RSQ
 *   sqrt.approx.ftz.f32 -> MUFU.SQRT           tanh.approx.f32     -> MUFU.TANH
 *   sin/cos.approx.ftz.f32 -> FMUL.RZ x, 1/(2 pi); MUFU.SIN / MUFU.COS
 *   div.full.f32        -> scaling FMULs, MUFU.RCP, FMUL
 * So a bit-exact emulator needs one model per MUFU operation.  This program
 *   1. reads each operation over its reduced domain (the mantissas of [1,2) or [1,4), the
 *      fractions of [0,1)) into a table;
 *   2. tests, over all 2^32 inputs, the hypothesis that the operation is the table plus
 *      exponent arithmetic (for ex2, with several rules for turning x into fixed point), and,
 *      for sin/cos/tanh, that the output depends only on a key of the input (filling the
 *      table as it goes, counting the inputs that disagree with the first one of their key);
 *   3. writes each table as int8 differences from the correctly rounded value (computed here
 *      in double) plus a 64-bit sum of the raw bits per block of 65536, so that the tables
 *      can be rebuilt exactly elsewhere, and a JSON report of the counts and first mismatches.
 *
 *   nvcc -O3 -arch=sm_90 -o mufu_probe scripts/gpu/mufu_probe.cu && ./mufu_probe OUTDIR
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));         \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

__device__ __forceinline__ float f_ex2(float x) { float y; asm volatile("ex2.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float f_lg2(float x) { float y; asm volatile("lg2.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float f_rcp(float x) { float y; asm volatile("rcp.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float f_rsq(float x) { float y; asm volatile("rsqrt.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float f_sqrt(float x) { float y; asm volatile("sqrt.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float f_tanh(float x) { float y; asm volatile("tanh.approx.f32 %0,%1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float f_sin(float x) { float y; asm volatile("sin.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float f_cos(float x) { float y; asm volatile("cos.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(x)); return y; }

enum Fn { EX2, LG2, RCP, RSQ, SQRT, TANH, SIN, COS, NFN };
static const char *fn_name[NFN] = {"ex2", "lg2", "rcp", "rsq", "sqrt", "tanh", "sin", "cos"};

__device__ __forceinline__ float apply(int fn, float x)
{
    switch (fn) {
    case EX2: return f_ex2(x);
    case LG2: return f_lg2(x);
    case RCP: return f_rcp(x);
    case RSQ: return f_rsq(x);
    case SQRT: return f_sqrt(x);
    case TANH: return f_tanh(x);
    case SIN: return f_sin(x);
    default: return f_cos(x);
    }
}

__device__ __forceinline__ uint32_t fb(float x) { return __float_as_uint(x); }
__device__ __forceinline__ float bf(uint32_t u) { return __uint_as_float(u); }

/* the input of reduced-domain entry k of each table */
__device__ __forceinline__ float domain_x(int fn, uint32_t k)
{
    switch (fn) {
    case EX2: return (float)k * 0x1p-23f;                     /* [0, 1), 2^23 entries */
    case LG2:                                                 /* [1, 2) */
    case RCP: return bf(0x3f800000u | k);                     /* [1, 2) */
    default: return bf((0x3f800000u + ((k >> 23) << 23)) | (k & 0x7fffffu)); /* RSQ/SQRT: [1, 4) */
    }
}

/* the correctly rounded value of entry k, from double */
__device__ __forceinline__ float domain_cr(int fn, float x)
{
    double d = x;
    switch (fn) {
    case EX2: return __double2float_rn(exp2(d));
    case LG2: return __double2float_rn(log2(d));
    case RCP: return __double2float_rn(1.0 / d);
    case RSQ: return __double2float_rn(rsqrt(d));
    default: return __double2float_rn(sqrt(d));
    }
}

__global__ void k_table(int fn, uint32_t n, uint32_t *tab, int8_t *delta, unsigned long long *sums,
                        unsigned long long *overflow)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    float x = domain_x(fn, k);
    uint32_t hw = fb(apply(fn, x));
    uint32_t cr = fb(domain_cr(fn, x));
    tab[k] = hw;
    long long d = (long long)(int32_t)hw - (long long)(int32_t)cr;
    if (d < -127 || d > 127) {
        atomicAdd(overflow, 1ull);
        d = -128;
    }
    delta[k] = (int8_t)d;
    atomicAdd(&sums[k >> 16], (unsigned long long)hw);
}

/* ---- models of the whole operation from its table, for every input ------------------------ */

struct Stats {
    unsigned long long mism[8];      /* per hypothesis */
    unsigned long long nsample[8];
    uint32_t sample[8][16][2];       /* input, hw */
    unsigned long long nan_noncanon; /* NaN outputs other than 0x7fffffff */
    unsigned long long bins[8][64];  /* mismatches per input exponent / 4 */
};

/* called by the lanes that found a mismatch for hypothesis h (uniform across the warp):
 * one atomic per warp for the count and per group of lanes sharing an exponent bin */
__device__ void note(Stats *s, int h, uint32_t in, uint32_t hw)
{
    unsigned m = __activemask();
    int lane = threadIdx.x & 31;
    if (lane == __ffs(m) - 1) atomicAdd(&s->mism[h], (unsigned long long)__popc(m));
    int bin = ((in >> 23) & 0xff) >> 2;
    unsigned g = __match_any_sync(m, bin);
    if (lane == __ffs(g) - 1) atomicAdd(&s->bins[h][bin], (unsigned long long)__popc(g));
    if (*(volatile unsigned long long *)&s->nsample[h] < 16) {
        unsigned long long i = atomicAdd(&s->nsample[h], 1ull);
        if (i < 16) {
            s->sample[h][i][0] = in;
            s->sample[h][i][1] = hw;
        }
    }
}

__device__ __forceinline__ bool same(uint32_t a, uint32_t b)
{
    bool an = (a & 0x7fffffffu) > 0x7f800000u, bn = (b & 0x7fffffffu) > 0x7f800000u;
    if (an || bn) return an && bn;
    return a == b;
}

/* scales a normal table value by 2^e, flushing results below the normal range to signed zero
 * and above it to infinity */
__device__ __forceinline__ uint32_t scale_ftz(uint32_t t, int e)
{
    int te = (int)((t >> 23) & 0xff) + e;
    if (te <= 0) return t & 0x80000000u;
    if (te >= 255) return (t & 0x80000000u) | 0x7f800000u;
    return (t & 0x807fffffu) | ((uint32_t)te << 23);
}

/* ex2: x -> fixed point X (23 fraction bits) by rule h; out = T[X mod 2^23] * 2^(X >> 23) */
__device__ uint32_t model_ex2(const uint32_t *T, uint32_t in, int h)
{
    uint32_t a = in & 0x7fffffffu;
    if (a > 0x7f800000u) return 0x7fffffffu;
    if (a < 0x00800000u) return 0x3f800000u; /* +-0, denormals (ftz) */
    if (in == 0x7f800000u) return 0x7f800000u;
    if (in == 0xff800000u) return 0;
    double xd = (double)bf(in) * 8388608.0; /* exact */
    if (xd >= 128.0 * 8388608.0) return 0x7f800000u;
    if (xd < -200.0 * 8388608.0) return 0;
    long long X;
    switch (h) {
    case 0: X = (long long)floor(xd); break;
    case 1: X = (long long)trunc(xd); break;
    case 2: X = (long long)rint(xd); break;
    default: X = (long long)floor(xd + 0.5); break;
    }
    long long e = X >> 23; /* arithmetic: floor */
    uint32_t k = (uint32_t)(X & 0x7fffff);
    return scale_ftz(T[k], (int)e);
}

/* rcp, rsq, sqrt: the table over [1,2) or [1,4) and exponent arithmetic */
__device__ uint32_t model_pow(int fn, const uint32_t *T, uint32_t in, int h)
{
    uint32_t s = in & 0x80000000u, a = in & 0x7fffffffu;
    if (a > 0x7f800000u) return 0x7fffffffu;
    if (fn == RCP) {
        if (a < 0x00800000u) return s | 0x7f800000u;
        if (a == 0x7f800000u) return s;
        int ex = (int)(a >> 23) - 127;
        return s | scale_ftz(T[a & 0x7fffffu], -ex);
    }
    if (a < 0x00800000u) return fn == RSQ ? (s | 0x7f800000u) : s; /* ftz: +-0 */
    if (s) return 0x7fffffffu;
    if (a == 0x7f800000u) return fn == RSQ ? 0u : 0x7f800000u;
    int ex = (int)(a >> 23) - 127;
    int odd = ex & 1;
    int half = (ex - odd) / 2; /* floor(ex / 2) */
    uint32_t t = T[((uint32_t)odd << 23) | (a & 0x7fffffu)];
    return scale_ftz(t, fn == RSQ ? -half : half);
}

/* lg2: e + T0[m], rounded to f32 by rule h (0: nearest, 1: toward zero) */
__device__ uint32_t model_lg2(const uint32_t *T, uint32_t in, int h)
{
    uint32_t a = in & 0x7fffffffu;
    if (a > 0x7f800000u) return 0x7fffffffu;
    if (a < 0x00800000u) return 0xff800000u; /* ftz: log2(0) = -inf */
    if (in & 0x80000000u) return 0x7fffffffu;
    if (a == 0x7f800000u) return 0x7f800000u;
    int ex = (int)(a >> 23) - 127;
    double v = (double)ex + (double)bf(T[a & 0x7fffffu]);
    return fb(h == 0 ? __double2float_rn(v) : __double2float_rz(v));
}

__global__ void k_model(int fn, const uint32_t *T, int nh, Stats *st, uint32_t base)
{
    uint32_t in = base + blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t hw = fb(apply(fn, bf(in)));
    if ((hw & 0x7fffffffu) > 0x7f800000u && hw != 0x7fffffffu) atomicAdd(&st->nan_noncanon, 1ull);
    for (int h = 0; h < nh; h++) {
        uint32_t m;
        if (fn == EX2) m = model_ex2(T, in, h);
        else if (fn == LG2) m = model_lg2(T, in, h);
        else m = model_pow(fn, T, in, h);
        if (!same(m, hw)) note(st, h, in, hw);
    }
}

/* ---- sin, cos, tanh: is the output a function of a key of the input? ---------------------
 * sin/cos: r = RZ(x * 0x3e22f983) (the FMUL.RZ ptxas puts before MUFU.SIN/COS), key = the
 * fixed-point fraction of r with g fraction bits (trig_bits), floor (two's complement) for
 * h = 0, 1, 2, 4; sign-magnitude (the table holds sin of |r|, so the sign of sin is flipped
 * back) for h = 3 and 5..7, the last three only for |r| < 1; only |r| < 128 (7 integer bits).
 * tanh: key = sign-magnitude, exponent and the top k mantissa bits, k = 10..16 for h = 0..6.
 */
#define EMPTY 0xffffffffu /* no output is this NaN (the canonical one is 0x7fffffff) */
/* fraction bits of the sin/cos key of hypothesis h */
__host__ __device__ __forceinline__ int trig_bits(int h)
{
    static const int g[8] = {22, 23, 24, 23, 25, 26, 28, 30};
    return g[h];
}
/* hypotheses 3 and 5..7 are sign-magnitude; 5..7 only for |r| < 1 */
__host__ __device__ __forceinline__ bool trig_sm(int h) { return h == 3 || h >= 5; }
__device__ __forceinline__ bool key_of(int fn, int h, uint32_t in, uint32_t hw, uint64_t *key,
                                       uint32_t *val)
{
    if ((in & 0x7fffffffu) >= 0x7f800000u) return false;
    if (fn == TANH) {
        int k = 10 + h;
        uint32_t a = in & 0x7fffffffu;
        *key = (uint64_t)(a >> (23 - k));
        *val = (in & 0x80000000u) ? (hw ^ 0x80000000u) : hw;
        return true;
    }
    float r = __fmul_rz(bf(in), bf(0x3e22f983u));
    double rd = (double)r;
    if (fabs(rd) >= 128.0) return false;
    int g = trig_bits(h);
    if (!trig_sm(h)) {
        long long X = (long long)floor(rd * (double)(1ll << g));
        *key = (uint64_t)(X & ((1ll << g) - 1));
        *val = hw;
    } else {
        if (h >= 5 && fabs(rd) >= 1.0) return false;
        long long X = (long long)floor(fabs(rd) * (double)(1ll << g));
        *key = (uint64_t)(X & ((1ll << g) - 1));
        *val = (fn == SIN && (in & 0x80000000u)) ? (hw ^ 0x80000000u) : hw;
    }
    return true;
}

__global__ void k_consistency(int fn, int h, uint32_t *T, Stats *st, uint32_t base, uint64_t nkeys)
{
    uint32_t in = base + blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t hw = fb(apply(fn, bf(in)));
    uint64_t key;
    uint32_t val;
    if (!key_of(fn, h, in, hw, &key, &val) || key >= nkeys) return;
    if ((val & 0x7fffffffu) > 0x7f800000u) val = 0x7fffffffu;
    uint32_t old = T[key];
    if (old == EMPTY) old = atomicCAS(&T[key], EMPTY, val);
    if (old != EMPTY && old != val) note(st, h, in, hw);
}

/* sin/cos table entry k (r = k / 2^g) as the difference from the correctly rounded value;
 * -128 where no input reached the key or the difference does not fit */
__global__ void k_trig_delta(int fn, int g, const uint32_t *T, int8_t *delta, uint64_t n)
{
    uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    double r = (double)k / (double)(1ll << g);
    float cr = __double2float_rn(fn == SIN ? sinpi(2.0 * r) : cospi(2.0 * r));
    long long d = (long long)(int32_t)T[k] - (long long)(int32_t)fb(cr);
    delta[k] = (T[k] == EMPTY || d < -127 || d > 127) ? (int8_t)-128 : (int8_t)d;
}

__global__ void k_specials(int fn, const float *in, float *o, int n)
{
    int i = threadIdx.x;
    if (i < n) o[i] = apply(fn, in[i]);
}

/* histogram of the number of trailing zero bits of normal outputs' mantissas (output grain) */
__global__ void k_grain(int fn, unsigned long long *hist, uint32_t base)
{
    uint32_t in = base + blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t hw = fb(apply(fn, bf(in)));
    uint32_t e = (hw >> 23) & 0xff;
    if (e == 0 || e == 255) return;
    uint32_t m = hw & 0x7fffffu;
    int tz = m ? __ffs(m) - 1 : 23;
    atomicAdd(&hist[tz], 1ull);
}

/* ---- round 2: ex2 in sign-magnitude with g fraction bits; lg2 from its e = 0 and e = -1 ---
 * ex2: key = (sign, trunc(|x| * 2^g) mod 2^g), value = the output with the integer part of |x|
 * taken out of its exponent (only where input and output are normal and |x| < 100). */
__device__ __forceinline__ bool ex2_key(int g, uint32_t in, uint32_t hw, uint64_t *key, uint32_t *val)
{
    uint32_t a = in & 0x7fffffffu;
    if (a < 0x00800000u || a >= 0x42c80000u) return false; /* |x| >= 100 */
    double ax = (double)bf(a);
    long long X = (long long)trunc(ax * (double)(1ll << g));
    long long ip = X >> g;
    uint32_t he = (hw >> 23) & 0xff;
    if (he == 0 || he == 255) return false;
    int ne = (int)he + (in & 0x80000000u ? (int)ip : -(int)ip);
    if (ne <= 0 || ne >= 255) return false;
    *val = (hw & 0x807fffffu) | ((uint32_t)ne << 23);
    *key = ((uint64_t)(in >> 31) << g) | (uint64_t)(X & ((1ll << g) - 1));
    return true;
}

__global__ void k_ex2_cons(int g, uint32_t *T, Stats *st, int h, uint32_t base)
{
    uint32_t in = base + blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t hw = fb(f_ex2(bf(in)));
    uint64_t key;
    uint32_t val;
    if (!ex2_key(g, in, hw, &key, &val)) return;
    uint32_t old = T[key];
    if (old == EMPTY) old = atomicCAS(&T[key], EMPTY, val);
    if (old != EMPTY && old != val) note(st, h, in, hw);
}

/* the negative side's table: hw(-k 2^-23) */
__global__ void k_ex2_neg(uint32_t *T, int8_t *delta, unsigned long long *sums)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    float x = -(float)k * 0x1p-23f;
    uint32_t hw = fb(f_ex2(x));
    T[k] = hw;
    atomicAdd(&sums[k >> 16], (unsigned long long)hw);
    long long d = (long long)(int32_t)hw - (long long)(int32_t)fb(__double2float_rn(exp2((double)x)));
    delta[k] = (d < -127 || d > 127) ? (int8_t)-128 : (int8_t)d;
}

/* lg2: L(m) = T0[m] where |T0| < 0.5, else 1 + Tm1[m] (Tm1 = hw(m / 2)); out = conv(e + L) */
__global__ void k_lg2_m1(uint32_t *Tm1, int32_t *d32, const uint32_t *T0)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    float x = bf(0x3f000000u | k); /* [0.5, 1) */
    uint32_t hw = fb(f_lg2(x));
    Tm1[k] = hw;
    d32[k] = (int32_t)hw - (int32_t)fb(__double2float_rz((double)bf(T0[k]) - 1.0));
}

__global__ void k_lg2_model(const uint32_t *T0, const uint32_t *Tm1, Stats *st, uint32_t base)
{
    uint32_t in = base + blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t a = in & 0x7fffffffu;
    if ((in & 0x80000000u) || a < 0x00800000u || a >= 0x7f800000u) return;
    uint32_t hw = fb(f_lg2(bf(in)));
    int ex = (int)(a >> 23) - 127;
    uint32_t m = a & 0x7fffffu;
    double t0 = (double)bf(T0[m]);
    double L = t0 < 0.5 ? t0 : 1.0 + (double)bf(Tm1[m]);
    double v = (double)ex + L;
    uint32_t m0 = fb(__double2float_rz(v)), m1 = fb(__double2float_rn(v));
    /* magnitude truncation of a two's complement fixed-point sum is RZ; floor is RD */
    uint32_t m2 = fb(__double2float_rd(v)), m3 = fb(__double2float_ru(v));
    if (m0 != hw) note(st, 0, in, hw);
    if (m1 != hw) note(st, 1, in, hw);
    if (m2 != hw) note(st, 2, in, hw);
    if (m3 != hw) note(st, 3, in, hw);
}

/* ---- host ----------------------------------------------------------------------------------*/

static FILE *J;
static void json_stats(const char *what, const Stats &s, int nh)
{
    fprintf(J, "  \"%s\": {\"nan_noncanonical\": %llu, \"hyp\": [", what, s.nan_noncanon);
    for (int h = 0; h < nh; h++) {
        fprintf(J, "%s{\"mismatches\": %llu, \"samples\": [", h ? ", " : "", s.mism[h]);
        int n = s.nsample[h] < 16 ? (int)s.nsample[h] : 16;
        for (int i = 0; i < n; i++)
            fprintf(J, "%s[\"%08x\", \"%08x\"]", i ? ", " : "", s.sample[h][i][0], s.sample[h][i][1]);
        fprintf(J, "], \"by_exponent_div4\": [");
        for (int b = 0; b < 64; b++) fprintf(J, "%s%llu", b ? "," : "", s.bins[h][b]);
        fprintf(J, "]}");
    }
    fprintf(J, "]},\n");
    fflush(J);
}

static void run_all_inputs(void (*launch)(uint32_t base))
{
    const uint32_t chunk = 1u << 28;
    for (uint64_t base = 0; base < (1ull << 32); base += chunk) launch((uint32_t)base);
    CK(cudaDeviceSynchronize());
}

static int g_fn, g_h, g_nh;
static uint32_t *g_T;
static Stats *g_st;
static uint64_t g_nkeys;
static unsigned long long *g_hist;
static void launch_model(uint32_t base) { k_model<<<(1u << 28) / 256, 256>>>(g_fn, g_T, g_nh, g_st, base); }
static void launch_cons(uint32_t base) { k_consistency<<<(1u << 28) / 256, 256>>>(g_fn, g_h, g_T, g_st, base, g_nkeys); }
static void launch_grain(uint32_t base) { k_grain<<<(1u << 28) / 256, 256>>>(g_fn, g_hist, base); }

static void write_file(const std::string &path, const void *p, size_t n)
{
    FILE *f = fopen(path.c_str(), "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        fprintf(stderr, "cannot write %s\n", path.c_str());
        exit(1);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    std::string out = argc > 1 ? argv[1] : ".";
    J = fopen((out + "/mufu_probe.json").c_str(), "w");
    if (!J) return 1;
    fprintf(J, "{\n");
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    fprintf(J, "  \"device\": \"%s\", \"cc\": \"%d.%d\",\n", prop.name, prop.major, prop.minor);

    Stats *st;
    CK(cudaMallocManaged(&st, sizeof(Stats)));
    uint32_t *T;
    CK(cudaMalloc(&T, sizeof(uint32_t) << 30));
    int8_t *delta;
    CK(cudaMalloc(&delta, 1u << 25));
    unsigned long long *sums, *ovf;
    CK(cudaMallocManaged(&sums, sizeof(unsigned long long) * 256));
    CK(cudaMallocManaged(&ovf, sizeof(unsigned long long)));
    std::vector<uint32_t> htab(1u << 24);
    std::vector<int8_t> hdelta(1u << 25);

    /* 1-2: table functions */
    const int tab_fns[] = {EX2, RCP, RSQ, SQRT, LG2};
    for (int fn : tab_fns) {
        uint32_t n = (fn == RSQ || fn == SQRT) ? (1u << 24) : (1u << 23);
        memset(sums, 0, sizeof(unsigned long long) * 256);
        *ovf = 0;
        k_table<<<n / 256, 256>>>(fn, n, T, delta, sums, ovf);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hdelta.data(), delta, n, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(htab.data(), T, n * 4, cudaMemcpyDeviceToHost));
        write_file(out + "/" + fn_name[fn] + ".delta", hdelta.data(), n);
        write_file(out + "/" + fn_name[fn] + ".sums", sums, sizeof(unsigned long long) * (n >> 16));
        long hist[9] = {0};
        for (uint32_t k = 0; k < n; k++) {
            int d = hdelta[k];
            hist[d < -3 ? 0 : d > 3 ? 8 : d + 4]++;
        }
        fprintf(J, "  \"%s_table\": {\"n\": %u, \"delta_overflow\": %llu, \"delta_hist_m4_to_p4\": [", fn_name[fn], n, *ovf);
        for (int i = 0; i < 9; i++) fprintf(J, "%s%ld", i ? "," : "", hist[i]);
        fprintf(J, "]},\n");
        /* the hypotheses over all inputs */
        memset(st, 0, sizeof(Stats));
        g_fn = fn;
        g_T = T;
        g_st = st;
        g_nh = fn == EX2 ? 4 : fn == LG2 ? 2 : 1;
        run_all_inputs(launch_model);
        json_stats(fn_name[fn], *st, g_nh);
        printf("%s: table done, model mismatches", fn_name[fn]);
        for (int h = 0; h < g_nh; h++) printf(" %llu", st->mism[h]);
        printf("\n");
        fflush(stdout);
    }

    /* 2b: sin, cos, tanh consistency */
    const int key_fns[] = {SIN, COS, TANH};
    for (int fn : key_fns) {
        int nh = fn == TANH ? 7 : 8;
        bool saved = false;
        memset(st, 0, sizeof(Stats));
        for (int h = 0; h < nh; h++) {
            uint64_t nkeys = fn == TANH ? (1ull << (8 + 10 + h)) : (1ull << trig_bits(h));
            CK(cudaMemset(T, 0xff, nkeys * 4));
            g_fn = fn;
            g_h = h;
            g_T = T;
            g_st = st;
            g_nkeys = nkeys;
            run_all_inputs(launch_cons);
            if (st->mism[h] == 0 && !saved) {
                /* the coarsest consistent key: keep its table (EMPTY where no input reached) */
                saved = true;
                fprintf(J, "  \"%s_saved_hypothesis\": %d,\n", fn_name[fn], h);
                if (fn == TANH && nkeys > (1u << 21)) {
                    fprintf(J, "  \"tanh_table_not_saved_keys\": %llu,\n", (unsigned long long)nkeys);
                } else if (fn == TANH) {
                    CK(cudaMemcpy(htab.data(), T, nkeys * 4, cudaMemcpyDeviceToHost));
                    write_file(out + "/" + fn_name[fn] + ".raw", htab.data(), nkeys * 4);
                } else if (nkeys > (1ull << 25)) {
                    fprintf(J, "  \"%s_table_not_saved_keys\": %llu,\n", fn_name[fn], (unsigned long long)nkeys);
                } else {
                    int g = trig_bits(h);
                    k_trig_delta<<<(unsigned)(nkeys / 256), 256>>>(fn, g, T, delta, nkeys);
                    CK(cudaDeviceSynchronize());
                    CK(cudaMemcpy(hdelta.data(), delta, nkeys, cudaMemcpyDeviceToHost));
                    write_file(out + "/" + fn_name[fn] + ".delta", hdelta.data(), nkeys);
                }
            }
        }
        json_stats(fn_name[fn], *st, nh);
        printf("%s: consistency", fn_name[fn]);
        for (int h = 0; h < nh; h++) printf(" %llu", st->mism[h]);
        printf("\n");
        fflush(stdout);
    }

    /* round 2a: ex2 sign-magnitude consistency for g = 23..28 */
    {
        memset(st, 0, sizeof(Stats));
        uint32_t *Tk;
        CK(cudaMalloc(&Tk, sizeof(uint32_t) << 29)); /* 2 * 2^28 keys */
        for (int h = 0; h < 6; h++) {
            int g = 23 + h;
            CK(cudaMemset(Tk, 0xff, sizeof(uint32_t) << (g + 1)));
            for (uint64_t base = 0; base < (1ull << 32); base += 1u << 28)
                k_ex2_cons<<<(1u << 28) / 256, 256>>>(g, Tk, st, h, (uint32_t)base);
            CK(cudaDeviceSynchronize());
            printf("ex2 sign-magnitude g=%d: %llu\n", g, st->mism[h]);
            fflush(stdout);
        }
        json_stats("ex2_sm_g23_to_28", *st, 6);
        CK(cudaFree(Tk));
        memset(sums, 0, sizeof(unsigned long long) * 256);
        k_ex2_neg<<<(1u << 23) / 256, 256>>>(T, delta, sums);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hdelta.data(), delta, 1u << 23, cudaMemcpyDeviceToHost));
        write_file(out + "/ex2neg.delta", hdelta.data(), 1u << 23);
        write_file(out + "/ex2neg.sums", sums, sizeof(unsigned long long) * 128);
    }
    /* round 2b: lg2 */
    {
        uint32_t *T0, *Tm1;
        int32_t *d32;
        CK(cudaMalloc(&T0, 4u << 23));
        CK(cudaMalloc(&Tm1, 4u << 23));
        CK(cudaMalloc(&d32, 4u << 23));
        k_table<<<(1u << 23) / 256, 256>>>(LG2, 1u << 23, T0, delta, sums, ovf);
        k_lg2_m1<<<(1u << 23) / 256, 256>>>(Tm1, d32, T0);
        CK(cudaDeviceSynchronize());
        std::vector<int32_t> hd(1u << 23);
        CK(cudaMemcpy(hd.data(), d32, 4u << 23, cudaMemcpyDeviceToHost));
        write_file(out + "/lg2m1.d32", hd.data(), 4u << 23);
        memset(st, 0, sizeof(Stats));
        for (uint64_t base = 0; base < (1ull << 32); base += 1u << 28)
            k_lg2_model<<<(1u << 28) / 256, 256>>>(T0, Tm1, st, (uint32_t)base);
        CK(cudaDeviceSynchronize());
        json_stats("lg2_from_e0_em1_rz_rn_rd_ru", *st, 4);
        printf("lg2 combined: %llu %llu %llu %llu\n", st->mism[0], st->mism[1], st->mism[2], st->mism[3]);
    }

    /* 3: output grain of every function */
    CK(cudaMallocManaged(&g_hist, sizeof(unsigned long long) * 24 * NFN));
    memset(g_hist, 0, sizeof(unsigned long long) * 24 * NFN);
    for (int fn = 0; fn < NFN; fn++) {
        g_fn = fn;
        unsigned long long *h0 = g_hist;
        g_hist = h0 + 24 * fn;
        run_all_inputs(launch_grain);
        g_hist = h0;
    }
    fprintf(J, "  \"trailing_zeros_hist\": {");
    for (int fn = 0; fn < NFN; fn++) {
        fprintf(J, "%s\"%s\": [", fn ? ", " : "", fn_name[fn]);
        for (int i = 0; i < 24; i++) fprintf(J, "%s%llu", i ? "," : "", g_hist[24 * fn + i]);
        fprintf(J, "]");
    }
    fprintf(J, "},\n");

    /* 4: special inputs */
    static const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u,
                                        0x80800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u,
                                        0x7fc00000u, 0xffc00001u, 0x3f800000u, 0xbf800000u, 0x43000000u,
                                        0xc3000000u, 0xc2fc0000u, 0xc2fe0000u, 0x42fe0000u, 0x4b000000u};
    const int ns = sizeof specials / sizeof specials[0];
    float *din, *dout;
    CK(cudaMallocManaged(&din, ns * 4));
    CK(cudaMallocManaged(&dout, ns * 4 * NFN));
    memcpy(din, specials, ns * 4);
    fprintf(J, "  \"specials\": {");
    for (int fn = 0; fn < NFN; fn++) {
        k_specials<<<1, 32>>>(fn, din, dout + fn * ns, ns);
        CK(cudaDeviceSynchronize());
        fprintf(J, "%s\"%s\": [", fn ? ", " : "", fn_name[fn]);
        for (int i = 0; i < ns; i++) {
            uint32_t o;
            memcpy(&o, &dout[fn * ns + i], 4);
            fprintf(J, "%s[\"%08x\", \"%08x\"]", i ? ", " : "", specials[i], o);
        }
        fprintf(J, "]");
    }
    fprintf(J, "}\n}\n");
    fclose(J);
    printf("done\n");
    return 0;
}
