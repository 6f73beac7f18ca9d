/*
 * mufu_lg2_probe.cu - what the H200's MUFU.LG2 computes, measured (lg2.approx.ftz.f32 and
 * lg2.approx.f32; see scripts/gpu/mufu_probe.cu for the other MUFU operations).
 *
 * ptxas -arch=sm_90 (CUDA 13) turns
 *   lg2.approx.ftz.f32 a  into  MUFU.LG2 a
 *   lg2.approx.f32 a      into  P0 = |a| >= 2^-126 (true for NaN); if !P0 a *= 2^24;
 *                               y = MUFU.LG2 a; if !P0 y = y + -24     (FADD, no ftz)
 * The earlier probe showed (tests/golden/mufu/probe_round1.json) that for exponents e >= 1 the
 * output is RZ(e + T0[m]) with T0 the outputs over [1, 2), but not for e <= 0.  The hypothesis
 * tested here: MUFU.LG2 forms the fixed-point sum V = e 2^F + l(m) (l: F fraction bits of
 * log2 of the mantissa) and converts it to f32 by truncation of its magnitude, the magnitude
 * of a negative V being -V (two's complement) or ~V = -V - 1 (one's complement) or other
 * roundings; l is read back from the outputs at e = 0 (exact where T0 < 1/2) and e = -1 (exact
 * where 1 - l <= 1/2).  Written to OUTDIR:
 *   lg2_probe.json        counts: the fraction bits T0 and Tm1 need, the consistency of l for
 *                         each F, every hypothesis's mismatches over all 2^32 inputs (per input
 *                         exponent) and its first mismatches;
 *   t0.d2, tm1.d2         the outputs for all mantissas at e = 0 and e = -1 (int32 second
 *                         differences of the bit patterns: t[k] - 2 t[k-1] + t[k-2]);
 *   res_eN.i8             at a few exponents N, the output's bits minus those of RZ(N + T0[m])
 *                         (clamped to +-127), mostly zeros;
 *   ftz.sums, full.sums   a 64-bit hash sum per block of 2^16 inputs of (input, output), for
 *                         every input, of lg2.approx.ftz.f32 and lg2.approx.f32: a model can be
 *                         checked against all 2^32 outputs on a CPU;
 *   sample.txt            4096 inputs and both outputs, for unit tests.
 * What it found (2026-12-03, tests/golden/mufu/lg2_probe.json): no F up to 28 fits, since l has
 * 36 fraction bits (the outputs at e = 0 need up to 36; the one's complement rule is right); the
 * model that is exact on every input is in scripts/mufu/fit_lg2.py.
 *
 *   nvcc -O3 -arch=sm_90 -o mufu_lg2_probe scripts/gpu/mufu_lg2_probe.cu && ./mufu_lg2_probe OUTDIR
 */
#include <cmath>
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

__device__ __forceinline__ float lg2_ftz(float x) { float y; asm volatile("lg2.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float lg2_full(float x) { float y; asm volatile("lg2.approx.f32 %0,%1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ uint32_t fb(float x) { return __float_as_uint(x); }
__device__ __forceinline__ float bf(uint32_t u) { return __uint_as_float(u); }

__host__ __device__ __forceinline__ uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* the table of one exponent: out[m] = lg2(2^e (1 + m 2^-23)) */
__global__ void k_tab(int e, uint32_t *out)
{
    uint32_t m = blockIdx.x * blockDim.x + threadIdx.x;
    out[m] = fb(lg2_ftz(bf(((uint32_t)(e + 127) << 23) | m)));
}

/* the hash sums of every input's output; one atomic per warp */
__global__ void k_sums(int full, unsigned long long *sums, uint32_t base)
{
    uint32_t in = base + blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t hw = fb(full ? lg2_full(bf(in)) : lg2_ftz(bf(in)));
    unsigned long long h = splitmix(((uint64_t)in << 32) | hw);
    for (int o = 16; o; o >>= 1) h += __shfl_xor_sync(0xffffffffu, h, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(&sums[in >> 16], h);
}

/* residual of the output from RZ(e + T0[m]) in units of the bit pattern */
__global__ void k_res(int e, const uint32_t *T0, int8_t *res)
{
    uint32_t m = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t hw = fb(lg2_ftz(bf(((uint32_t)(e + 127) << 23) | m)));
    uint32_t ref = fb(__double2float_rz((double)e + (double)bf(T0[m])));
    long long d = (long long)(int32_t)hw - (long long)(int32_t)ref;
    if ((hw ^ ref) & 0x80000000u) d = 127; /* different signs: marked */
    res[m] = (int8_t)(d < -127 ? -127 : d > 127 ? 127 : d);
}

struct Stats {
    unsigned long long mism;
    unsigned long long nsample;
    uint32_t sample[32][3]; /* input, hw, model */
    unsigned long long by_exp[256];
};

/* hypothesis: V = e 2^F + l[m]; rule 0: RZ with |V| = -V; 1: RZ with |V| = ~V = -V - 1;
 * 2: RD (floor of V); 3: RN */
__device__ __forceinline__ uint32_t model(const uint32_t *l, int F, int rule, uint32_t in)
{
    uint32_t a = in & 0x7fffffffu;
    if (a > 0x7f800000u) return 0x7fffffffu;
    if (a < 0x00800000u) return 0xff800000u;
    if (in & 0x80000000u) return 0x7fffffffu;
    if (a == 0x7f800000u) return 0x7f800000u;
    int e = (int)(a >> 23) - 127;
    long long V = ((long long)e << F) + (long long)l[a & 0x7fffffu];
    float sc = ldexpf(1.0f, -F);
    if (V >= 0) {
        float r = rule == 3 ? __ll2float_rn(V) : __ll2float_rz(V);
        return fb(r * sc);
    }
    float r;
    switch (rule) {
    case 0: r = -__ll2float_rz(-V); break;
    case 1: r = -__ll2float_rz(-V - 1); break;
    case 2: r = __ll2float_rd(V); break;
    default: r = __ll2float_rn(V); break;
    }
    return fb(r * sc);
}

__global__ void k_hyp(const uint32_t *l, int F, int rule, Stats *st, uint32_t base)
{
    uint32_t in = base + blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t hw = fb(lg2_ftz(bf(in)));
    uint32_t md = model(l, F, rule, in);
    if (md == hw) return;
    /* one atomic per warp for the count and per group of lanes sharing an exponent */
    unsigned am = __activemask();
    int lane = threadIdx.x & 31;
    if (lane == __ffs(am) - 1) atomicAdd(&st->mism, (unsigned long long)__popc(am));
    unsigned g = __match_any_sync(am, (in >> 23) & 0xff);
    if (lane == __ffs(g) - 1) atomicAdd(&st->by_exp[(in >> 23) & 0xff], (unsigned long long)__popc(g));
    if (*(volatile unsigned long long *)&st->nsample < 32) {
        unsigned long long i = atomicAdd(&st->nsample, 1ull);
        if (i < 32) {
            st->sample[i][0] = in;
            st->sample[i][1] = hw;
            st->sample[i][2] = md;
        }
    }
}

__global__ void k_sample(const uint32_t *in, uint32_t *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        o[2 * i] = fb(lg2_ftz(bf(in[i])));
        o[2 * i + 1] = fb(lg2_full(bf(in[i])));
    }
}

static float hbf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static void write_file(const std::string &path, const void *p, size_t n)
{
    FILE *f = fopen(path.c_str(), "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        fprintf(stderr, "cannot write %s\n", path.c_str());
        exit(1);
    }
    fclose(f);
}

static void write_d2(const std::string &path, const std::vector<uint32_t> &t)
{
    std::vector<int32_t> d(t.size());
    for (size_t k = 0; k < t.size(); k++) {
        int64_t a = (int32_t)t[k], b = k >= 1 ? (int32_t)t[k - 1] : 0, c = k >= 2 ? (int32_t)t[k - 2] : 0;
        d[k] = (int32_t)(a - 2 * b + c);
    }
    write_file(path, d.data(), d.size() * 4);
}

/* fraction bits a value needs (its last set bit's position below the binary point) */
static int frac_bits(double v)
{
    v = fabs(v);
    for (int k = 0; k < 80; k++) {
        double s = ldexp(v, k);
        if (s == floor(s)) return k;
    }
    return 99;
}

int main(int argc, char **argv)
{
    std::string out = argc > 1 ? argv[1] : ".";
    FILE *J = fopen((out + "/lg2_probe.json").c_str(), "w");
    if (!J) return 1;
    const uint32_t N = 1u << 23;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    fprintf(J, "{\n  \"device\": \"%s\", \"cc\": \"%d.%d\",\n", prop.name, prop.major, prop.minor);

    uint32_t *dT;
    CK(cudaMalloc(&dT, 4u * N));
    std::vector<uint32_t> T0(N), Tm1(N), tmp(N);
    k_tab<<<N / 256, 256>>>(0, dT);
    CK(cudaMemcpy(T0.data(), dT, 4u * N, cudaMemcpyDeviceToHost));
    k_tab<<<N / 256, 256>>>(-1, dT);
    CK(cudaMemcpy(Tm1.data(), dT, 4u * N, cudaMemcpyDeviceToHost));
    write_d2(out + "/t0.d2", T0);
    write_d2(out + "/tm1.d2", Tm1);

    /* the fraction bits each table needs, by region */
    {
        int hist0[100] = {0}, hist1[100] = {0};
        long neg0 = 0, pos1 = 0;
        for (uint32_t m = 0; m < N; m++) {
            double t0 = hbf(T0[m]), t1 = hbf(Tm1[m]);
            if (t0 < 0) neg0++;
            if (t1 > 0) pos1++;
            if (t0 < 0.5) hist0[frac_bits(t0)]++;
            if (-t1 <= 0.5) hist1[frac_bits(t1)]++;
        }
        fprintf(J, "  \"t0_neg\": %ld, \"tm1_pos\": %ld,\n  \"t0_below_half_frac_bits\": [", neg0, pos1);
        for (int k = 0; k < 100; k++) fprintf(J, "%s%d", k ? "," : "", hist0[k]);
        fprintf(J, "],\n  \"tm1_above_minus_half_frac_bits\": [");
        for (int k = 0; k < 100; k++) fprintf(J, "%s%d", k ? "," : "", hist1[k]);
        fprintf(J, "],\n");
        fprintf(J, "  \"t0_first\": [");
        for (int k = 0; k < 64; k++) fprintf(J, "%s\"%08x\"", k ? "," : "", T0[k]);
        fprintf(J, "],\n  \"tm1_first\": [");
        for (int k = 0; k < 64; k++) fprintf(J, "%s\"%08x\"", k ? "," : "", Tm1[k]);
        fprintf(J, "],\n  \"t0_last\": [");
        for (int k = 0; k < 64; k++) fprintf(J, "%s\"%08x\"", k ? "," : "", T0[N - 64 + k]);
        fprintf(J, "],\n  \"tm1_last\": [");
        for (int k = 0; k < 64; k++) fprintf(J, "%s\"%08x\"", k ? "," : "", Tm1[N - 64 + k]);
        fprintf(J, "],\n");
        fflush(J);
    }

    /* residuals at a few exponents */
    uint32_t *dT0;
    int8_t *dres;
    CK(cudaMalloc(&dT0, 4u * N));
    CK(cudaMalloc(&dres, N));
    CK(cudaMemcpy(dT0, T0.data(), 4u * N, cudaMemcpyHostToDevice));
    const int res_e[] = {-126, -64, -8, -4, -3, -2, 1, 2, 127};
    std::vector<int8_t> hres(N);
    fprintf(J, "  \"residual_nonzero\": {");
    for (size_t i = 0; i < sizeof res_e / sizeof res_e[0]; i++) {
        k_res<<<N / 256, 256>>>(res_e[i], dT0, dres);
        CK(cudaMemcpy(hres.data(), dres, N, cudaMemcpyDeviceToHost));
        long nz = 0;
        for (uint32_t m = 0; m < N; m++) nz += hres[m] != 0;
        fprintf(J, "%s\"%d\": %ld", i ? ", " : "", res_e[i], nz);
        write_file(out + "/res_e" + std::to_string(res_e[i]) + ".i8", hres.data(), N);
    }
    fprintf(J, "},\n");
    fflush(J);

    /* l for each F and negation rule, from T0 (T0 < 1/2) and Tm1 (otherwise) */
    Stats *st;
    CK(cudaMalloc(&st, sizeof(Stats)));
    Stats hs;
    uint32_t *dl;
    CK(cudaMalloc(&dl, 4u * N));
    std::vector<uint32_t> l(N);
    fprintf(J, "  \"hypotheses\": [\n");
    bool first = true;
    for (int F = 23; F <= 28; F++) {
        for (int ones = 0; ones < 2; ones++) {
            long nonint0 = 0, nonint1 = 0, trunc_dis = 0, t0_over = 0;
            for (uint32_t m = 0; m < N; m++) {
                double t0 = hbf(T0[m]), t1 = hbf(Tm1[m]);
                double a = ldexp(t0, F);
                double b = ldexp(1.0 + t1, F) - (ones ? 1.0 : 0.0); /* 2^F - |V| (- 1) */
                double v;
                if (t0 < 0.5) {
                    if (a != floor(a)) nonint0++;
                    v = floor(a);
                } else {
                    if (ldexp(-t1, F) != floor(ldexp(-t1, F))) nonint1++;
                    v = floor(b);
                    /* T0 must be v truncated to T0's precision */
                    double ft = floor(ldexp(t0, 24));
                    if (floor(ldexp(v, 24 - F)) != ft) trunc_dis++;
                }
                if (v < 0) v = 0;
                if (v >= 4294967296.0) { t0_over++; v = 4294967295.0; }
                l[m] = (uint32_t)v;
            }
            CK(cudaMemcpy(dl, l.data(), 4u * N, cudaMemcpyHostToDevice));
            for (int rule = 0; rule < 4; rule++) {
                if (ones && rule != 1) continue;
                if (!ones && rule == 1) continue;
                CK(cudaMemset(st, 0, sizeof(Stats)));
                for (uint64_t base = 0; base < (1ull << 32); base += 1u << 28)
                    k_hyp<<<(1u << 28) / 256, 256>>>(dl, F, rule, st, (uint32_t)base);
                CK(cudaMemcpy(&hs, st, sizeof(Stats), cudaMemcpyDeviceToHost));
                fprintf(J, "%s    {\"F\": %d, \"rule\": %d, \"l_nonint_t0\": %ld, \"l_nonint_tm1\": %ld, "
                           "\"l_trunc_disagree\": %ld, \"l_over\": %ld, \"mismatches\": %llu, \"samples\": [",
                        first ? "" : ",\n", F, rule, nonint0, nonint1, trunc_dis, t0_over, hs.mism);
                first = false;
                int ns = hs.nsample < 32 ? (int)hs.nsample : 32;
                for (int i = 0; i < ns; i++)
                    fprintf(J, "%s[\"%08x\",\"%08x\",\"%08x\"]", i ? "," : "", hs.sample[i][0], hs.sample[i][1],
                            hs.sample[i][2]);
                fprintf(J, "], \"by_biased_exponent\": [");
                for (int b = 0; b < 256; b++) fprintf(J, "%s%llu", b ? "," : "", hs.by_exp[b]);
                fprintf(J, "]}");
                fflush(J);
                printf("F=%d rule=%d: %llu mismatches (l: nonint %ld/%ld, trunc disagree %ld)\n", F, rule, hs.mism,
                       nonint0, nonint1, trunc_dis);
                fflush(stdout);
            }
        }
    }
    fprintf(J, "\n  ],\n");

    /* hash sums of all outputs, both forms */
    unsigned long long *dsums;
    CK(cudaMalloc(&dsums, 8u << 16));
    std::vector<unsigned long long> hsums(1u << 16);
    for (int full = 0; full < 2; full++) {
        CK(cudaMemset(dsums, 0, 8u << 16));
        for (uint64_t base = 0; base < (1ull << 32); base += 1u << 28)
            k_sums<<<(1u << 28) / 256, 256>>>(full, dsums, (uint32_t)base);
        CK(cudaMemcpy(hsums.data(), dsums, 8u << 16, cudaMemcpyDeviceToHost));
        write_file(out + (full ? "/full.sums" : "/ftz.sums"), hsums.data(), 8u << 16);
        unsigned long long tot = 0;
        for (auto s : hsums) tot += s;
        fprintf(J, "  \"%s_hash_total\": \"%016llx\",\n", full ? "full" : "ftz", tot);
    }

    /* a sample: specials, powers of two, near 1, subnormals, random patterns */
    {
        std::vector<uint32_t> in;
        const uint32_t sp[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x007fffffu, 0x807fffffu, 0x00800000u,
                               0x80800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                               0xffc00001u, 0x7f800001u, 0x3f800000u, 0x3f800001u, 0x3f7fffffu, 0xbf800000u,
                               0x3f000000u, 0x3effffffu, 0x3f3504f3u, 0x3fb504f3u, 0x40000000u, 0x3e800000u};
        for (uint32_t u : sp) in.push_back(u);
        for (int e = -126; e <= 127; e++) in.push_back((uint32_t)(e + 127) << 23);
        uint64_t s = 12345;
        for (int i = 0; in.size() < 4096; i++) {
            s = splitmix(s);
            uint32_t u = (uint32_t)s;
            switch (i % 4) {
            case 0: break;                                           /* any pattern */
            case 1: u = 0x3f000000u + (u & 0x00ffffffu); break;      /* [0.5, 2) */
            case 2: u = u & 0x007fffffu; break;                      /* subnormal */
            default: u = (u & 0x7fffffffu) | 0x00800000u; break;     /* positive normal-ish */
            }
            in.push_back(u);
        }
        uint32_t *din, *dout;
        int n = (int)in.size();
        CK(cudaMalloc(&din, 4 * n));
        CK(cudaMalloc(&dout, 8 * n));
        CK(cudaMemcpy(din, in.data(), 4 * n, cudaMemcpyHostToDevice));
        k_sample<<<(n + 255) / 256, 256>>>(din, dout, n);
        std::vector<uint32_t> o(2 * n);
        CK(cudaMemcpy(o.data(), dout, 8 * n, cudaMemcpyDeviceToHost));
        FILE *f = fopen((out + "/sample.txt").c_str(), "w");
        if (!f) return 1;
        fprintf(f, "# input lg2.approx.ftz.f32 lg2.approx.f32 (H200, scripts/gpu/mufu_lg2_probe.cu)\n");
        for (int i = 0; i < n; i++) fprintf(f, "%08x %08x %08x\n", in[i], o[2 * i], o[2 * i + 1]);
        fclose(f);
    }
    CK(cudaDeviceSynchronize());
    fprintf(J, "  \"done\": true\n}\n");
    fclose(J);
    printf("done\n");
    return 0;
}
