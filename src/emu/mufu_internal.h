/*
 * mufu_internal.h - the emulator's models of the H200's special-function unit (MUFU).
 *
 * On sm_90 every approximate PTX instruction Triton emits for f32 is one MUFU operation, with
 * plain f32 multiplies around it for the non-ftz forms (see src/emu/mufu.c).  Each operation is
 * modelled bit for bit from its table over a reduced domain, measured on the H200
 * (scripts/gpu/mufu_probe.cu) and stored compactly (scripts/mufu/fit.py, src/emu/mufu_data.c);
 * the models are checked against the GPU on all 2^32 inputs by scripts/gpu/mufu_check.cu.
 */
#ifndef CTRITON_EMU_MUFU_INTERNAL_H
#define CTRITON_EMU_MUFU_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One operation's table over its reduced domain of n entries: in segment s of 2^16 entries,
 * q = coef[s][0] + x * (coef[s][1] + x * coef[s][2]) with x = (k mod 2^16) / 2^16, and the
 * output's significand on the grid of binade `lo` is floor(q), or one below / above it for the
 * entries that `stream` (range-coded bits for the entries whose q is within w of an integer)
 * marks as exceptions. */
typedef struct emu_mufu_table {
    const char *name;
    uint32_t n;
    int lo;
    double w;
    const double (*coef)[3];
    const unsigned char *stream;
    uint32_t nstream;
    uint32_t nexc;
} emu_mufu_table;

extern const emu_mufu_table emu_mufu_rcp_table, emu_mufu_rsq_table, emu_mufu_sqrt_table,
    emu_mufu_ex2_table, emu_mufu_ex2neg_table;

/* MUFU.LG2's table: per segment of 2^16 mantissas, a constant, one coefficient per bit of
 * m mod 2^16 and one per pair of bits (scripts/mufu/fit_lg2.py), and the exceptions, sorted. */
typedef struct emu_mufu_lg2_model {
    int nbits;
    const double (*coef)[137];
    const uint32_t *exc_start; /* segment s's exceptions: exc_start[s] .. exc_start[s + 1] - 1 */
    const uint16_t *exc_m;     /* m mod 2^16, increasing within a segment */
    const int8_t *exc_d;       /* l(m) minus the model's value */
    uint32_t nexc;
} emu_mufu_lg2_model;

extern const emu_mufu_lg2_model emu_mufu_lg2_data;

/* The operations, on f32 bit patterns as the GPU sees them (ftz: subnormal inputs are zeros,
 * subnormal results become signed zeros; NaN results are the canonical 0x7fffffff). */
float emu_mufu_rcp(float x);  /* MUFU.RCP:  rcp.approx.ftz.f32 */
float emu_mufu_rsq(float x);  /* MUFU.RSQ:  rsqrt.approx.ftz.f32 */
float emu_mufu_sqrt(float x); /* MUFU.SQRT: sqrt.approx.ftz.f32 */
float emu_mufu_ex2(float x);  /* MUFU.EX2:  ex2.approx.ftz.f32 */
float emu_mufu_lg2(float x);  /* MUFU.LG2:  lg2.approx.ftz.f32 */
/* lg2.approx.f32 (no ftz): ptxas's scaling of subnormal inputs by 2^24 around MUFU.LG2 */
float emu_lg2_full(float x);
/* ex2.approx.f32 (no ftz): ptxas's halving around MUFU.EX2 below -126 */
float emu_ex2_full(float x);
/* div.full.f32: ptxas's sequence around MUFU.RCP (no ftz) */
float emu_div_full(float a, float b);
/* div.full.f32 contracted with the add that is its only use: form 0 a/b + c, 1 a/b - c, 2 c - a/b */
float emu_div_full_fma(float a, float b, float c, int form);
/* the same when b is a constant in the PTX: ptxas's folding, (a scaled) * RN(1 / (b scaled)) */
float emu_div_full_const(float a, float b);
float emu_div_full_const_fma(float a, float b, float c, int form);

/* Arrays (d may alias a or b): ex2.approx.f32 when full, else ex2.approx.ftz.f32; div.full.
 * Eight lanes at a time on AVX-512 unless force_scalar (tests), with the same bits. */
void emu_mufu_ex2_array(float *d, const float *a, int64_t n, bool full, bool force_scalar);
/* the same through one path (tests): the scalar model, the vector one that reads the quadratics
 * and exception bitmaps (AVX-512), or the one that reads the packed entries (AVX-512 with
 * VPOPCNTDQ); false, with nothing written, where the path is not available */
typedef enum emu_ex2_path { EMU_EX2_AUTO, EMU_EX2_SCALAR, EMU_EX2_BITMAPS, EMU_EX2_PACKED } emu_ex2_path;
bool emu_mufu_ex2_array_path(float *d, const float *a, int64_t n, bool full, emu_ex2_path path);
/* math.exp on f32: ex2.approx.f32 of a[i] times log2(e) rounded to f32, in one pass through the
 * packed path; false, with nothing written, where that path is not available */
bool emu_mufu_exp_array_packed(float *d, const float *a, int64_t n);
void emu_div_full_array(float *d, const float *a, const float *b, int64_t n, bool force_scalar);

/* Decodes every table now (they are otherwise decoded on first use); returns the number of
 * exceptions decoded, for tests. */
uint64_t emu_mufu_decode_all(void);
/* How many groups of tables this process decoded rather than read from the disk cache (tests). */
int emu_mufu_groups_decoded(void);

/* The decoded tables on disk between processes (mufu_cache.c, $CTRITON_CACHE_DIR/emu): the key of
 * what a group is decoded from (its tables' data and the caller's layout version); a group's
 * buffers loaded whole (true) or not at all (false: missing, foreign or damaged file, or
 * CTRITON_EMU_TABLE_CACHE=0), and stored (false where the directory cannot be written). */
uint64_t emu_mufu_cache_key(const emu_mufu_table *const *t, int nt, uint32_t layout);
bool emu_mufu_cache_load(const char *what, uint64_t key, void *const *bufs, const size_t *sizes, int n);
bool emu_mufu_cache_store(const char *what, uint64_t key, const void *const *bufs, const size_t *sizes, int n);
/* The table's entry k as f32 bits (for tests: the GPU's block sums are checked against it). */
uint32_t emu_mufu_entry(const emu_mufu_table *t, uint32_t k);
/* MUFU.LG2's fixed-point log2 of the mantissa m (36 fraction bits; src/emu/mufu.c) */
int64_t emu_mufu_lg2_l(uint32_t m);

#ifdef __cplusplus
}
#endif
#endif
