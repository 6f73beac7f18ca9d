/*
 * ctriton/ref.h - C references for kernels: seeded inputs sized from a
 * config, the expected outputs computed in plain C, and their tolerances;
 * what `ctriton run KERNEL --emu` (on the emulator) and `ctriton bench
 * KERNEL --check` (on the GPU) compare a kernel's outputs with.
 *
 * A kernel's reference defines
 *     const ct_kernel_ref <kernel>__ref = {"<kernel>", setup, reference};
 * and is registered with the kernel (CT_REGISTER_KERNEL in
 * ctriton/registry.h).  ctriton's own library keeps one file per kernel,
 * kernels/ref/<kernel>.c.
 *  - setup() reads the config (c->cfg: its `problem` string such as
 *    "M=64 N=1000" and its constexprs), creates the kernel's runtime
 *    arguments by name with seeded random inputs (ct_ref_input*), the
 *    outputs with their tolerances (ct_ref_output), the scalars, and sets
 *    the grid.  It returns false with a message in c->err on error.
 *  - reference() computes every output's expected values into its `want`
 *    array with plain C (in double where that is the natural reading).  It
 *    runs before the kernel, so in-place buffers still hold their inputs.
 * Arguments are matched to the compiled kernel's parameters by name, so a
 * config that specializes an integer to the constant 1 simply leaves that
 * parameter out of the kernel (its value must then be 1).
 *
 * Ownership: everything a case allocates is freed by ct_ref_case_free.
 */
#ifndef CTRITON_REF_H
#define CTRITON_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "ctriton/emu.h"
#include "ctriton/export.h"
#include "ctriton/tl.h"

CT_BEGIN_DECLS

#define CT_REF_MAX_ARGS 32

typedef enum ct_ref_kind { CT_REF_BUF, CT_REF_INT, CT_REF_FLOAT } ct_ref_kind;

typedef struct ct_ref_arg {
    const char *name;       /* the kernel parameter */
    ct_ref_kind kind;
    ct_emu_dtype dtype;     /* BUF: element type */
    int64_t n;              /* BUF: elements */
    ct_emu_access access;   /* BUF */
    void *data;             /* BUF: the buffer (inputs filled by setup) */
    void *want;             /* outputs: the reference values, same dtype */
    double rtol, atol;      /* outputs: tolerance */
    int64_t i;              /* INT */
    double f;               /* FLOAT */
} ct_ref_arg;

/* What inputs ct_ref_input and ct_ref_input_normal draw (`ctriton run --inputs`). */
typedef enum ct_ref_inputs {
    CT_REF_INPUTS_RANDOM, /* seeded, uniform in the range given (or normal) */
    /* Difficult values: the range's ends, zeros, the dtype's subnormals, cancelling pairs
     * (x next to about -x), large magnitudes up to hard_max, and NaN and Inf where setup
     * sets hard_nonfinite (the reference defines them).  Integer inputs: the range's ends. */
    CT_REF_INPUTS_HARD,
} ct_ref_inputs;

/* How a case departs from its config (ct_ref_case_init_ex); zero: not at all. */
typedef struct ct_ref_opts {
    const char *size_name; /* a problem size to override ("N"), with size */
    int64_t size;
    ct_ref_inputs inputs;
} ct_ref_opts;

typedef struct ct_ref_case {
    const tl_config *cfg;
    uint64_t seed;
    uint64_t rng;
    /* The sweep's size: ct_ref_problem(size_name) answers size (NULL: the config's). */
    const char *size_name;
    int64_t size;
    ct_ref_inputs inputs;
    /* For CT_REF_INPUTS_HARD, set by setup before it makes its inputs: the largest
     * magnitude the kernel must handle (0: the inputs' own ranges), and whether the
     * reference defines NaN and Inf inputs (their outputs then must match). */
    double hard_max;
    bool hard_nonfinite;
    int nargs;
    ct_ref_arg args[CT_REF_MAX_ARGS];
    int grid[3];
    int num_warps;
    char err[256];
} ct_ref_case;

typedef struct ct_kernel_ref {
    const char *kernel;     /* the kernel's name (the registry checks it) */
    bool (*setup)(ct_ref_case *c);
    void (*reference)(ct_ref_case *c);
    /* What `ctriton run --sweep` varies: "N:BLOCK_SIZE" is the problem size N (what setup
     * reads with ct_ref_problem) swept around the constexpr BLOCK_SIZE; "T" alone sweeps
     * T without a block.  NULL: the kernel is not swept. */
    const char *sweep;
} ct_kernel_ref;

/* Prepares a case for a config (seed, num_warps) and runs the kernel's setup. */
bool ct_ref_case_init(ct_ref_case *c, const ct_kernel_ref *r, const tl_config *cfg, uint64_t seed);
/* The same with a size override or hard inputs (o may be NULL). */
bool ct_ref_case_init_ex(ct_ref_case *c, const ct_kernel_ref *r, const tl_config *cfg,
                         uint64_t seed, const ct_ref_opts *o);
void ct_ref_case_free(ct_ref_case *c);
ct_ref_arg *ct_ref_find_arg(ct_ref_case *c, const char *name);

/* ---- for setup() ---------------------------------------------------------- */

/* A size from the config's problem string ("M=64 N=1000"), or dflt; a sweep's size
 * (c->size_name) overrides it. */
int64_t ct_ref_problem(const ct_ref_case *c, const char *name, int64_t dflt);
/* A real number from the problem string ("SMOOTHING=0.1"), or dflt. */
double ct_ref_problem_float(const ct_ref_case *c, const char *name, double dflt);
/* An integer constexpr of the config ("BLOCK_SIZE=1024"), or dflt. */
int64_t ct_ref_constexpr(const ct_ref_case *c, const char *name, int64_t dflt);
/* A string constexpr ("ACTIVATION='leaky_relu'"), copied into buf; false if absent. */
bool ct_ref_constexpr_str(const ct_ref_case *c, const char *name, char *buf, size_t cap);
/* An input buffer of n elements, uniform in [lo, hi) (rounded to the dtype). */
ct_ref_arg *ct_ref_input(ct_ref_case *c, const char *name, ct_emu_dtype t, int64_t n, double lo,
                         double hi);
/* An output buffer (poisoned by the emulator) and its reference array. */
ct_ref_arg *ct_ref_output(ct_ref_case *c, const char *name, ct_emu_dtype t, int64_t n,
                          double rtol, double atol);
/* An input buffer of n samples of scale * N(0, 1) + shift (rounded to the dtype),
 * approximated by Irwin-Hall so that every machine draws the same bits. */
ct_ref_arg *ct_ref_input_normal(ct_ref_case *c, const char *name, ct_emu_dtype t, int64_t n,
                                double scale, double shift);
/* The element type of pointer parameter `param` in the config's signature
 * ("X=*fp16:16" -> CT_EMU_F16); CT_EMU_BYTES if absent. */
ct_emu_dtype ct_ref_sig_dtype(const ct_ref_case *c, const char *param);
/* The usual tolerance of an output stored in t (the GPU checker's): rtol, atol. */
void ct_ref_tol(ct_emu_dtype t, double *rtol, double *atol);
/* FNV-1a 64 of bytes (the golden files record their inputs' hashes). */
uint64_t ct_ref_fnv1a(const void *data, size_t bytes);
/* Triton's Philox (tl.randint / tl.rand with 32-bit offsets, 10 rounds). */
uint32_t ct_ref_philox_randint(uint64_t seed, uint64_t offset);
float ct_ref_philox_rand(uint64_t seed, uint64_t offset);
/* A buffer both read and written (atomics, in place): `init` fills it. */
ct_ref_arg *ct_ref_inout(ct_ref_case *c, const char *name, ct_emu_dtype t, int64_t n, double init,
                         double rtol, double atol);
void ct_ref_int(ct_ref_case *c, const char *name, int64_t v);
void ct_ref_float(ct_ref_case *c, const char *name, double v);
bool ct_ref_fail(ct_ref_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For a kernel that handles a row in one block: false with a message naming both when the
 * size `dim` = n exceeds the config's constexpr `block` (a sweep's size then SKIPs). */
bool ct_ref_one_block(ct_ref_case *c, const char *dim, int64_t n, const char *block);
/* Uniform double in [0, 1) from the case's seeded generator. */
double ct_ref_rand(ct_ref_case *c);
/* About N(0, 1), from the same generator (Irwin-Hall: no libm). */
double ct_ref_normal(ct_ref_case *c);
static inline int64_t ct_ref_cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* ---- for reference() ------------------------------------------------------ */

/* C = A @ B for row-major A (m x k) and B (k x n), in double: calls row(i, c, mag, ud) for each
 * row i of C with c[j] the sum and mag[j] the sum of |a b| (false if out of memory). */
bool ct_ref_gemm(const ct_ref_arg *a, const ct_ref_arg *b, int64_t m, int64_t n, int64_t k,
                 void (*row)(int64_t i, const double *c, const double *mag, void *ud), void *ud);

static inline double ct_ref_in(const ct_ref_arg *a, int64_t i)
{
    return ct_emu_get(a->dtype, a->data, i);
}
static inline void ct_ref_want(ct_ref_arg *a, int64_t i, double v)
{
    ct_emu_set(a->dtype, a->want, i, v);
}

CT_END_DECLS
#endif
