/*
 * ctriton/launch.h - launching kernels from C the way `kernel[grid](args)`
 * does in Python: JIT specialization, a cache in memory, then on disk,
 * then lowering through Triton; and autotuning over configs.
 *
 *     ct_kernel *k;
 *     ct_kernel_new(&softmax_kernel, &(ct_kernel_opts){.constexprs = "BLOCK_SIZE=1024"}, &k);
 *     CT_LAUNCH(k, ct_grid(n_rows), stream,
 *               ct_ptr(x, tl_float32), ct_ptr(y, tl_float32), ct_int(n_cols));
 *
 * Arguments are values tagged like Python's: ct_ptr (a tensor: a device
 * pointer and its element dtype), ct_int (a Python int), ct_float (a Python
 * float: fp32), ct_bool; ct_i32/ct_i64/ct_u32/ct_u64/ct_f32/ct_f64/ct_f16/
 * ct_bf16 give a scalar a fixed type, as an annotation (`n: tl.int64`) does.
 *
 * Specialization is Triton's (runtime/jit.py and specialize.cc): a pointer,
 * or a Python int, whose value is a multiple of 16 gets tt.divisibility=16;
 * a Python int equal to 1 becomes the constant 1; a Python int is i32 when it
 * fits, else i64, else u64; typed scalars keep their type and are never made
 * constant; floats and bools are not specialized.  Per-parameter opt-outs
 * as in @triton.jit: do_not_specialize (no 1, no 16) and
 * do_not_specialize_on_alignment (no 16).
 *
 * Each distinct specialization is built and compiled once per ct_kernel
 * (then found in memory: no allocation, no hashing of text, one driver call
 * to read the current context), loaded once per CUDA context.  A ct_kernel
 * may be used from several threads at once.
 *
 * Ownership: ct_kernel_new copies the option strings; ct_kernel_free
 * unloads its modules and frees everything.  Kernel definitions are static.
 */
#ifndef CTRITON_LAUNCH_H
#define CTRITON_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include "ctriton/compile.h"
#include "ctriton/cuda.h"
#include "ctriton/tl.h"
#include "ctriton/export.h"

CT_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Arguments                                                           */
/* ------------------------------------------------------------------ */

typedef enum ct_arg_kind {
    CT_ARG_INVALID = 0,
    CT_ARG_PTR,    /* a tensor: device pointer + element dtype */
    CT_ARG_INT,    /* a Python int */
    CT_ARG_FLOAT,  /* a Python float (fp32) */
    CT_ARG_BOOL,   /* a Python bool (i1) */
    CT_ARG_TYPED,  /* a scalar of a fixed type (.type) */
    CT_ARG_DESC,   /* a tensor descriptor (Python's TensorDescriptor): .v.desc */
    CT_ARG_NONE    /* Python's None (an optional pointer left out): a constexpr None */
} ct_arg_kind;

/* A tensor descriptor made on the host, as triton.tools.tensor_descriptor.TensorDescriptor:
 * a tensor (base, dtype, shape, strides in elements, the last 1) and the block each load or
 * store moves.  The kernel's parameter is specialized as tensordesc<dtype[block]>; at launch
 * ctriton encodes the TMA descriptor (cuTensorMapEncodeTiled) with the swizzle Triton chose,
 * or passes base, shape and strides when the kernel was lowered without TMA. */
typedef struct ct_tensordesc {
    ct_devptr base;          /* 16-byte aligned */
    tl_scalar dtype;
    int rank;                /* 1 to 5 */
    int64_t shape[5];
    int64_t strides[5];      /* elements; the leading ones multiples of 16 bytes */
    int block_shape[5];      /* powers of two, at most 256 */
    bool padding_nan;        /* padding="nan" (else "zero") */
} ct_tensordesc;

typedef struct ct_arg {
    ct_arg_kind kind;
    tl_scalar type;      /* PTR: the element type; TYPED: the scalar type */
    bool big;            /* INT: the value is an unsigned 64-bit number >= 2^63 */
    union {
        ct_devptr p;
        int64_t i;
        uint64_t u;
        double f;
        const ct_tensordesc *desc;
    } v;
} ct_arg;

#define ct_ptr(ptr_, dtype_) ((ct_arg){.kind = CT_ARG_PTR, .type = (dtype_)->sc, .v.p = (ct_devptr)(ptr_)})
#define ct_int(x_) ((ct_arg){.kind = CT_ARG_INT, .v.i = (int64_t)(x_)})
#define ct_uint(x_) ((ct_arg){.kind = CT_ARG_INT, .big = (uint64_t)(x_) >> 63, .v.u = (uint64_t)(x_)})
#define ct_float(x_) ((ct_arg){.kind = CT_ARG_FLOAT, .type = TL_FP32, .v.f = (double)(x_)})
#define ct_bool(x_) ((ct_arg){.kind = CT_ARG_BOOL, .type = TL_INT1, .v.i = (x_) ? 1 : 0})
#define ct_i32(x_) ((ct_arg){.kind = CT_ARG_TYPED, .type = TL_INT32, .v.i = (int32_t)(x_)})
#define ct_i64(x_) ((ct_arg){.kind = CT_ARG_TYPED, .type = TL_INT64, .v.i = (int64_t)(x_)})
#define ct_u32(x_) ((ct_arg){.kind = CT_ARG_TYPED, .type = TL_UINT32, .v.u = (uint32_t)(x_)})
#define ct_u64(x_) ((ct_arg){.kind = CT_ARG_TYPED, .type = TL_UINT64, .v.u = (uint64_t)(x_)})
#define ct_f32(x_) ((ct_arg){.kind = CT_ARG_TYPED, .type = TL_FP32, .v.f = (double)(x_)})
#define ct_f64(x_) ((ct_arg){.kind = CT_ARG_TYPED, .type = TL_FP64, .v.f = (double)(x_)})
#define ct_f16(x_) ((ct_arg){.kind = CT_ARG_TYPED, .type = TL_FP16, .v.f = (double)(x_)})
#define ct_bf16(x_) ((ct_arg){.kind = CT_ARG_TYPED, .type = TL_BF16, .v.f = (double)(x_)})
/* a descriptor argument: ct_desc(&d) with d a ct_tensordesc that outlives the call */
#define ct_desc(d_) ((ct_arg){.kind = CT_ARG_DESC, .v.desc = (d_)})
/* None (`a_scale=None` in Python): the JIT specializes it to a constexpr None, so the
 * parameter is not passed and the body's `if a_scale is not None:` is decided at build time */
#define ct_none() ((ct_arg){.kind = CT_ARG_NONE})

/* A launch grid; missing dimensions are 1: ct_grid(n), ct_grid(x, y). */
typedef struct ct_dim3 {
    unsigned x, y, z;
} ct_dim3;
ct_dim3 ct__grid(const unsigned *d, int n);
#define CT__NARGS(...) CT__NARGS_(__VA_ARGS__, 3, 2, 1, 0)
#define CT__NARGS_(_1, _2, _3, N, ...) N
#define ct_grid(...) ct__grid((const unsigned[]){__VA_ARGS__}, CT__NARGS(__VA_ARGS__))

/* ------------------------------------------------------------------ */
/* Specialization keys                                                 */
/* ------------------------------------------------------------------ */

/* Per-parameter specialization switches (bit i: parameter i). */
typedef struct ct_spec_flags {
    uint64_t do_not_specialize;
    uint64_t do_not_specialize_on_alignment;
} ct_spec_flags;

/* The specialization of one argument in one byte:
 * bits 0-5 the type (ct_spec_type), bit 6 "D" (multiple of 16), bit 7: the
 * key is None (not specialized) rather than "". */
enum {
    CT_SPEC_CONST1 = 1,          /* ('constexpr', 1) */
    CT_SPEC_CONSTNONE = 61,      /* ('constexpr', None) */
    CT_SPEC_SCALAR = 2,          /* + tl_scalar: a scalar of that type */
    CT_SPEC_PTR = 32,            /* + tl_scalar: a pointer to it */
    CT_SPEC_DESC = 60,           /* a tensor descriptor: its dtype and block follow the n
                                    codes (2 + rank bytes each, in argument order) */
    CT_SPEC_TYPE_MASK = 63,
    CT_SPEC_D = 64,
    CT_SPEC_NONE = 128
};

/* Room for the codes of 64 arguments and the blocks of up to 8 descriptors. */
#define CT_SPEC_CODES_MAX (64 + 8 * 7)
/* The bytes the codes of n arguments take (n, plus each descriptor's block). */
int ct_spec_len(const uint8_t *codes, int n);

/* Computes the codes of n arguments (n <= 64; `codes` needs CT_SPEC_CODES_MAX bytes when an
 * argument is a descriptor, n otherwise).  CT_ERR_INVALID with a message naming the argument
 * when one is malformed (`names` may be NULL). */
ct_status ct_spec_codes(const ct_arg *args, int n, const ct_spec_flags *f,
                        const char *const *names, uint8_t *codes);
/* Triton's key for the arguments: str(specialization) of the JIT, e.g.
 * "[('*fp32', 'D'), ('i32', ''), ('constexpr', 1), ('fp32', None)]". */
void ct_spec_key_str(const uint8_t *codes, int n, char *buf, size_t cap);
/* The signature string for tl_build: "x_ptr=*fp32:16 n=i32 k=1". */
void ct_spec_signature(const uint8_t *codes, int n, const char *const *names, char *buf,
                       size_t cap);

/* Packs the arguments as the launch passes them: for each non-constant
 * argument a slot holding its value in the parameter's type (fp32 as float,
 * fp16/bf16 as their bits, i1 as one byte, pointers as CUdeviceptr) and
 * params[j] pointing at it; room for the two scratch pointers after them.
 * Returns the number of kernel parameters (-1 on a bad argument). */
int ct_pack_args(const ct_arg *args, const uint8_t *codes, int n, uint64_t *slots,
                 void **params);

/* ------------------------------------------------------------------ */
/* Kernels                                                             */
/* ------------------------------------------------------------------ */

typedef struct ct_kernel ct_kernel;

typedef struct ct_kernel_opts {
    const char *constexprs;      /* "BLOCK_SIZE=1024" */
    int num_warps;               /* 0: 4 */
    int num_stages;              /* 0: 3 */
    int num_ctas;                /* 0: 1 */
    int maxnreg;                 /* 0: none */
    int disable_fp_fusion;       /* nonzero: enable_fp_fusion=False */
    bool debug;
    int arch;                    /* 0: the compute capability of the first device used */
    const char *do_not_specialize;              /* parameter names: "n_cols,k" */
    const char *do_not_specialize_on_alignment;
    const char *types;           /* optional declared types checked at each new
                                    specialization: "*fp32 *fp32 i32" (in order) or
                                    "n_cols=i32"; `int` accepts i32/i64/u64, `*` any pointer */
    /* Specialization churn: when one argument's specialization keeps flipping between
     * launches (a multiple of 16 or not, 1 or not: each value compiles its own
     * specialization), ct_launch reports it once per argument, naming it and the
     * do_not_specialize to pass.  The report goes to churn_report (NULL: stderr);
     * no_churn_report: not at all (the counts in ct_kernel_stats stay). */
    void (*churn_report)(const char *message, void *ud);
    void *churn_ud;
    bool no_churn_report;
} ct_kernel_opts;

/* A kernel to launch: the definition (static) and options (copied); nothing is compiled
 * until a launch or a warmup.  ct_kernel_def: the definition back. */
ct_status ct_kernel_new(const tl_kernel_def *def, const ct_kernel_opts *opts, ct_kernel **out);
void ct_kernel_free(ct_kernel *k);
const tl_kernel_def *ct_kernel_def(const ct_kernel *k);

/* Launches on `stream` (NULL: the legacy default stream) in the current
 * context (none current: device 0's primary context is retained and made
 * current).  Checks the argument count and kinds, the declared types, and
 * the grid limits before anything reaches the driver. */
ct_status ct_launch(ct_kernel *k, ct_dim3 grid, ct_stream stream, const ct_arg *args, int nargs);
#define CT_LAUNCH(k, grid, stream, ...)                                                       \
    ct_launch((k), (grid), (stream), (const ct_arg[]){__VA_ARGS__},                           \
              (int)(sizeof((const ct_arg[]){__VA_ARGS__}) / sizeof(ct_arg)))

/* Compiles (and loads, when a driver is present) the specialization for
 * these arguments without launching: Triton's `kernel.warmup(...)`.  With
 * load == false nothing touches the GPU (usable on a machine without one,
 * with opts.arch set). */
ct_status ct_kernel_warmup(ct_kernel *k, const ct_arg *args, int nargs, bool load);

/* What the last compile of this kernel did (for tools and tests). */
typedef struct ct_kernel_stats {
    int specializations;   /* distinct keys seen */
    int disk_hits, lowered;
    int loads;             /* modules loaded (specialization x context) */
    double last_compile_ms;
    int churn_reports;     /* arguments reported for specialization churn */
} ct_kernel_stats;
/* Copies the kernel's counters. */
void ct_kernel_get_stats(const ct_kernel *k, ct_kernel_stats *out);
/* The artifact of a specialization (NULL if not compiled yet). */
const ct_artifact *ct_kernel_artifact(ct_kernel *k, const ct_arg *args, int nargs);

/* ------------------------------------------------------------------ */
/* Autotuning                                                          */
/* ------------------------------------------------------------------ */

/* One candidate: constexprs and options, like triton.Config. */
typedef struct ct_tune_config {
    const char *constexprs;   /* "BLOCK_M=128 BLOCK_N=256 BLOCK_K=64 GROUP_M=8" */
    int num_warps, num_stages, num_ctas, maxnreg;
} ct_tune_config;

/* The value of an int constexpr in a "NAME=v NAME2=w" list (dflt if absent). */
int64_t ct_cx_int(const char *constexprs, const char *name, int64_t dflt);

/* The grid for a config and the arguments (like Triton's grid(META)). */
typedef ct_dim3 (*ct_grid_fn)(const ct_tune_config *cfg, const ct_arg *args, int nargs,
                              void *ud);

typedef struct ct_autotune_opts {
    const tl_kernel_def *def;
    const ct_tune_config *configs;
    int nconfigs;
    const char *key;          /* parameter names whose values form the key: "M,N,K" */
    ct_grid_fn grid;
    void *grid_ud;
    double tolerance;         /* configs within (1 + tolerance) x best are ties: default 0.02 */
    double warmup_ms, rep_ms; /* do_bench budgets per config (default 25, 100) */
    const char *do_not_specialize, *do_not_specialize_on_alignment;
    const char *table;        /* a shipped table to read first (default $CTRITON_TUNE_TABLE) */
    bool verbose;             /* print each config's time on stderr */
} ct_autotune_opts;

typedef struct ct_autotuner ct_autotuner;

/* A tuner over o->configs (copied); nothing is tuned until a launch. */
ct_status ct_autotuner_new(const ct_autotune_opts *o, ct_autotuner **out);
void ct_autotuner_free(ct_autotuner *t);
/* Launches with the best config for the arguments' key, tuning first when
 * the key is new: every config is compiled (once, in parallel) and timed
 * with do_bench; failures (refused, lowering error, launch error) are
 * remembered and skipped.  The choice is kept in memory and in
 * <cache>/tune/, and reused by later processes; the pick is the config of
 * lowest index among those within the tolerance band of the fastest. */
ct_status ct_autotune(ct_autotuner *t, ct_stream stream, const ct_arg *args, int nargs);
/* The chosen config index for these arguments (tuning if needed; -1 on error). */
int ct_autotune_best(ct_autotuner *t, ct_stream stream, const ct_arg *args, int nargs);
/* The kernel of config i (owned by the tuner). */
ct_kernel *ct_autotuner_kernel(ct_autotuner *t, int i);
/* Writes every tuned entry this process knows for this tuner to `path`
 * (text, one entry per line), to be shipped and read with opts.table. */
ct_status ct_autotuner_export(ct_autotuner *t, const char *path);

CT_END_DECLS
#endif
