/*
 * mufu_check.cu - the emulator's MUFU models (src/emu/mufu.c, linked as compiled for the
 * emulator) against the H200, on every input.
 *
 *   rcp.approx.ftz.f32, rsqrt.approx.ftz.f32, sqrt.approx.ftz.f32, ex2.approx.ftz.f32,
 *   ex2.approx.f32, lg2.approx.ftz.f32, lg2.approx.f32: all 2^32 inputs (MUFU_FIRST=n starts
 *   at the n-th of these, counting from 0);
 *   div.full.f32: every divisor (2^32) for each of a set of dividends, and 2^30 pairs of
 *   random bit patterns.
 * Prints one line per operation (mismatches and the first few) and exits non-zero on any.
 *
 *   (scripts/gpu/mufu_check.sh builds it: mufu.c, its data files, and mufu_cache.c with the
 *   src/util file helpers it uses, compiled by gcc; this file by nvcc)
 */
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "mufu_internal.h"

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));         \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

enum { RCP, RSQ, SQRT, EX2, EX2F, LG2, LG2F, DIV };

__device__ __forceinline__ float dev_op(int op, float a, float b)
{
    float y;
    switch (op) {
    case RCP: asm volatile("rcp.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(a)); break;
    case RSQ: asm volatile("rsqrt.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(a)); break;
    case SQRT: asm volatile("sqrt.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(a)); break;
    case EX2: asm volatile("ex2.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(a)); break;
    case EX2F: asm volatile("ex2.approx.f32 %0,%1;" : "=f"(y) : "f"(a)); break;
    case LG2: asm volatile("lg2.approx.ftz.f32 %0,%1;" : "=f"(y) : "f"(a)); break;
    case LG2F: asm volatile("lg2.approx.f32 %0,%1;" : "=f"(y) : "f"(a)); break;
    default: asm volatile("div.full.f32 %0,%1,%2;" : "=f"(y) : "f"(a), "f"(b)); break;
    }
    return y;
}

__device__ __forceinline__ uint32_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (uint32_t)x;
}

/* mode 0: unary on base + i; mode 1: div with dividend `a` and divisor base + i;
 * mode 2: div of random pairs (seeded by base + i) */
__global__ void k_run(int op, int mode, uint32_t a, uint64_t base, uint32_t *out, uint32_t *ins)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t x = (uint32_t)(base + i), y = 0;
    if (mode == 1) {
        y = x;
        x = a;
    } else if (mode == 2) {
        x = mix(2 * (base + i));
        y = mix(2 * (base + i) + 1);
        ins[2 * i] = x;
        ins[2 * i + 1] = y;
    }
    out[i] = __float_as_uint(dev_op(op, __uint_as_float(x), __uint_as_float(y)));
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
/* NaNs must be the canonical one on both sides: compare bits */
static bool same(uint32_t a, uint32_t b) { return a == b; }

static uint32_t model(int op, uint32_t x, uint32_t y)
{
    switch (op) {
    case RCP: return fb(emu_mufu_rcp(bf(x)));
    case RSQ: return fb(emu_mufu_rsq(bf(x)));
    case SQRT: return fb(emu_mufu_sqrt(bf(x)));
    case EX2: return fb(emu_mufu_ex2(bf(x)));
    case EX2F: return fb(emu_ex2_full(bf(x)));
    case LG2: return fb(emu_mufu_lg2(bf(x)));
    case LG2F: return fb(emu_lg2_full(bf(x)));
    default: return fb(emu_div_full(bf(x), bf(y)));
    }
}

static std::atomic<unsigned long long> g_bad;
static std::atomic<int> g_shown;

static void compare(int op, int mode, uint32_t a, uint64_t base, const uint32_t *hw, const uint32_t *ins,
                    uint64_t lo, uint64_t hi)
{
    unsigned long long bad = 0;
    for (uint64_t i = lo; i < hi; i++) {
        uint32_t x = (uint32_t)(base + i), y = 0;
        if (mode == 1) {
            y = x;
            x = a;
        } else if (mode == 2) {
            x = ins[2 * i];
            y = ins[2 * i + 1];
        }
        uint32_t m = model(op, x, y);
        if (!same(m, hw[i])) {
            bad++;
            if (g_shown.fetch_add(1) < 8)
                printf("    x=%08x y=%08x: model %08x, GPU %08x\n", x, y, m, hw[i]);
        }
    }
    g_bad += bad;
}

static unsigned long long run(int op, int mode, uint32_t a, uint64_t total)
{
    const uint64_t chunk = 1ull << 28;
    uint32_t *d_out, *d_in = nullptr;
    CK(cudaMalloc(&d_out, chunk * 4));
    if (mode == 2) CK(cudaMalloc(&d_in, chunk * 8));
    std::vector<uint32_t> hw(chunk), ins(mode == 2 ? 2 * chunk : 0);
    g_bad = 0;
    g_shown = 0;
    unsigned nt = std::thread::hardware_concurrency();
    if (nt == 0) nt = 4;
    for (uint64_t base = 0; base < total; base += chunk) {
        uint64_t n = total - base < chunk ? total - base : chunk;
        k_run<<<(unsigned)((n + 255) / 256), 256>>>(op, mode, a, base, d_out, d_in);
        CK(cudaGetLastError());
        CK(cudaMemcpy(hw.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
        if (mode == 2) CK(cudaMemcpy(ins.data(), d_in, n * 8, cudaMemcpyDeviceToHost));
        std::vector<std::thread> th;
        for (unsigned t = 0; t < nt; t++)
            th.emplace_back(compare, op, mode, a, base, hw.data(), ins.data(), n * t / nt, n * (t + 1) / nt);
        for (auto &t : th) t.join();
    }
    CK(cudaFree(d_out));
    if (d_in) CK(cudaFree(d_in));
    return g_bad.load();
}

int main()
{
    emu_mufu_decode_all();
    int fails = 0;
    static const char *names[] = {"rcp.approx.ftz.f32", "rsqrt.approx.ftz.f32", "sqrt.approx.ftz.f32",
                                  "ex2.approx.ftz.f32", "ex2.approx.f32", "lg2.approx.ftz.f32",
                                  "lg2.approx.f32"};
    int first = getenv("MUFU_FIRST") ? atoi(getenv("MUFU_FIRST")) : RCP;
    for (int op = first; op <= LG2F; op++) {
        unsigned long long bad = run(op, 0, 0, 1ull << 32);
        printf("%-22s all 2^32 inputs: %llu mismatches\n", names[op], bad);
        fflush(stdout);
        fails += bad != 0;
    }
    static const uint32_t dividends[] = {0x3f800000u, 0xbf800000u, 0x40400000u, 0x3dcccccdu, 0x7149f2cau,
                                         0x0da24260u, 0x00000001u, 0x007fffffu, 0x7f7fffffu, 0x00000000u,
                                         0x7f800000u, 0x40490fdbu};
    for (uint32_t a : dividends) {
        if (getenv("MUFU_NO_DIV")) break;
        unsigned long long bad = run(DIV, 1, a, 1ull << 32);
        printf("div.full.f32 %08x / every divisor: %llu mismatches\n", a, bad);
        fflush(stdout);
        fails += bad != 0;
    }
    if (!getenv("MUFU_NO_DIV")) {
        unsigned long long bad = run(DIV, 2, 0, 1ull << 30);
        printf("div.full.f32 2^30 random pairs: %llu mismatches\n", bad);
        fails += bad != 0;
    }
    printf("%s\n", fails ? "FAIL" : "all bit-identical");
    return fails != 0;
}
