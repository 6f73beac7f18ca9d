/*
 * ctriton/emu.h - the CPU emulator: runs a kernel of a module over a 1-3D
 * grid on host buffers with Triton's semantics on NVIDIA GPUs (sm_90),
 * checks every lane of every memory access, and compares outputs with a
 * reference.  docs/emulator.md states what is bit-exact and what is not.
 *
 * Use:
 *     ct_emu_kernel *k = ct_emu_compile(module, NULL, &diags);
 *     ct_emu *e = ct_emu_new();
 *     int x = ct_emu_add_buffer(e, "x", xs, n * 4, CT_EMU_F32, CT_EMU_IN);
 *     int y = ct_emu_add_buffer(e, "y", ys, n * 4, CT_EMU_F32, CT_EMU_OUT);
 *     ct_emu_arg args[] = {ct_emu_ptr(x), ct_emu_ptr(y), ct_emu_int(n)};
 *     ct_emu_result r;
 *     ct_emu_run(e, k, &(ct_emu_launch){.grid = {64, 1, 1}}, 3, args, &r);
 *
 * Ownership: a ct_emu_kernel is independent of the module it was compiled
 * from (the module may be destroyed after ct_emu_compile).  Buffers are the
 * caller's memory: the emulator reads and writes them only during
 * ct_emu_run, only inside [host, host + bytes), and never frees them; they
 * must stay valid while registered.  Outputs (CT_EMU_OUT) are poisoned at
 * the start of every run.  Results and checks are plain structs the caller
 * owns.  Nothing here exits or aborts on bad input: errors are returned.
 */
#ifndef CTRITON_EMU_H
#define CTRITON_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctriton/diag.h"
#include "ctriton/ir.h"
#include "ctriton/export.h"

CT_BEGIN_DECLS

/* ---- element types of buffers --------------------------------------- */

typedef enum ct_emu_dtype {
    CT_EMU_BYTES, /* untyped: no NaN/Inf/zero statistics */
    CT_EMU_I1,    /* one byte per element, 0 or 1 */
    CT_EMU_I8,
    CT_EMU_I16,
    CT_EMU_I32,
    CT_EMU_I64,
    CT_EMU_U8,
    CT_EMU_U16,
    CT_EMU_U32,
    CT_EMU_U64,
    CT_EMU_F16,
    CT_EMU_BF16,
    CT_EMU_F32,
    CT_EMU_F64,
    CT_EMU_F8E4NV, /* tl.float8e4nv (e4m3fn) */
    CT_EMU_F8E5,   /* tl.float8e5 (e5m2) */
    CT_EMU_F8E4B8, /* tl.float8e4b8 (e4m3fnuz) */
    CT_EMU_F8E5B16 /* tl.float8e5b16 (e5m2fnuz) */
} ct_emu_dtype;

/* Bytes per element (CT_EMU_BYTES: 1). */
size_t ct_emu_dtype_size(ct_emu_dtype t);
/* Triton's short names: "fp32", "bf16", "i32", "u8", "fp8e4nv", "bytes". */
const char *ct_emu_dtype_name(ct_emu_dtype t);
/* Accepts the short names and Triton's long ones ("float32", "int32"); -1 if unknown. */
int ct_emu_dtype_from_name(const char *name);
bool ct_emu_dtype_is_float(ct_emu_dtype t);
/* The value of element i of a buffer of type t, as a double (exact for every
 * type but 64-bit integers beyond 2^53). */
double ct_emu_get(ct_emu_dtype t, const void *data, int64_t i);
/* Stores v into element i (rounded to nearest even for floats, wrapped for ints). */
void ct_emu_set(ct_emu_dtype t, void *data, int64_t i, double v);

/* ---- compiled kernels ------------------------------------------------ */

typedef struct ct_emu_kernel ct_emu_kernel;

/* Compiles the function `func` of a module (NULL: its public tt.func) into
 * the emulator's internal form.  Returns NULL with errors in `d` when the
 * module holds something the emulator cannot run (an unknown op, a
 * malformed region).  The result does not refer to the module. */
ct_emu_kernel *ct_emu_compile(const ct_module *m, const char *func, ct_diags *d);

/* The layout Triton gave the operand of one tt.reduce or tt.scan (#ttg.blocked,
 * #ttg.nvidia_mma or a #ttg.slice of one in TTGIR), which fixes the order the GPU
 * combines in. */
typedef struct ct_emu_layout {
    bool is_scan;
    bool blocked;   /* a #ttg.blocked layout: size_per_thread, threads_per_warp, warps_per_cta */
    int mma_version; /* a #ttg.nvidia_mma layout (a dot result): its versionMajor (2 mma.sync,
                        3 wgmma), warps_per_cta and instr_shape; 0: not one.  With neither
                        (another layout) the emulator keeps its default for this op */
    int axis;
    int rank;
    int64_t shape[CT_MAX_RANK];
    int size_per_thread[CT_MAX_RANK];
    int threads_per_warp[CT_MAX_RANK];
    int warps_per_cta[CT_MAX_RANK];
    int instr_shape[3];
    /* a #ttg.slice of such a layout (nested slices too): the values above are the base
     * layout's, of rank base_rank, and base_dim[i] is the base's dim of the operand's dim i;
     * base_rank 0: not a slice */
    int base_rank;
    int base_dim[CT_MAX_RANK];
} ct_emu_layout;

/* CT_EMU_DOT_GPU (the default): the tensor cores' accumulation, bit for bit the H200's where
 * measured (docs/emulator.md).  CT_EMU_DOT_FAST: one f32 fused multiply-add per product, k in
 * order, on the operands' exact values (what Triton's interpreter computes, up to the order of
 * its BLAS): two to three times faster on f16 matmuls, and not the GPU's bits (the error
 * against the exact sum is that of any f32 sum of K terms). */
typedef enum ct_emu_dot_mode { CT_EMU_DOT_GPU = 0, CT_EMU_DOT_FAST = 1 } ct_emu_dot_mode;

typedef struct ct_emu_options {
    int num_warps;  /* the kernel's num_warps (reduction and scan order); 0: the module's
                       "ttg.num-warps" attribute, else 4 */
    /* the layouts of the kernel's reductions and scans, in the order they run
     * (after inlining), e.g. from ct_emu_layouts_from_ttgir; used only when
     * there are exactly as many and their shapes and axes match; otherwise (and
     * when NULL) Triton's default blocked layout is assumed */
    const ct_emu_layout *layouts;
    int nlayouts;
    /* how dots of f16, bf16 or fp8 operands into an f32 accumulator are computed (other dots
     * are not affected) */
    ct_emu_dot_mode dot;
} ct_emu_options;

/* Reads the layouts of the "tt.reduce" and "tt.scan" ops of TTGIR text (the
 * `.ttgir` Triton writes for the same kernel), in order; an operand whose
 * encoding is neither #ttg.blocked nor #ttg.nvidia_mma (nor a slice of one)
 * has both `blocked` and `mma_version` unset (the default layout is kept for it).
 * Returns how many were found (at most max are stored), -1 on malformed text. */
int ct_emu_layouts_from_ttgir(const char *text, ct_emu_layout *out, int max);
ct_emu_kernel *ct_emu_compile_ex(const ct_module *m, const char *func, const ct_emu_options *o,
                                 ct_diags *d);
void ct_emu_kernel_free(ct_emu_kernel *k);

/* DESC: a tensor descriptor made on the host (Python's TensorDescriptor): pass the buffer with
 * ct_emu_ptr; the next `rank` parameters are its shape (i32) and the `rank` after them its
 * strides in elements (i64), passed as integers, as Triton flattens it. */
typedef enum ct_emu_param_kind {
    CT_EMU_PARAM_PTR,
    CT_EMU_PARAM_INT,
    CT_EMU_PARAM_FLOAT,
    CT_EMU_PARAM_DESC
} ct_emu_param_kind;

typedef struct ct_emu_param {
    const char *name;        /* from the argument's location, or "arg<i>" */
    ct_emu_param_kind kind;
    int bits;                /* INT: 1..64; FLOAT: 16/32/64; PTR: 64 */
    ct_emu_dtype elem;       /* PTR: the pointee; FLOAT: the type */
    int divisibility;        /* tt.divisibility, 0 when absent */
    int rank;                /* DESC: the block's rank */
} ct_emu_param;

/* A compiled kernel's name, and its runtime parameters in order (what a run takes). */
const char *ct_emu_kernel_name(const ct_emu_kernel *k);
int ct_emu_kernel_nparams(const ct_emu_kernel *k);
const ct_emu_param *ct_emu_kernel_param(const ct_emu_kernel *k, int i);
/* Bytes of scratch one program instance needs (one per thread). */
size_t ct_emu_kernel_frame_bytes(const ct_emu_kernel *k);

/* ---- sessions and buffers ------------------------------------------- */

typedef struct ct_emu ct_emu;

typedef enum ct_emu_access {
    CT_EMU_IN = 1,    /* read by the kernel */
    CT_EMU_OUT = 2,   /* written by the kernel: poisoned before each run */
    CT_EMU_INOUT = 3  /* read and written (atomics, in-place): not poisoned */
} ct_emu_access;

/* A session: registered buffers and the reports of the last run. */
ct_emu *ct_emu_new(void);
void ct_emu_free(ct_emu *e);

/* Registers [host, host + bytes) as buffer; returns its id (>= 0), or -1
 * when the arguments are invalid (see ct_emu_error). */
int ct_emu_add_buffer(ct_emu *e, const char *name, void *host, size_t bytes, ct_emu_dtype dtype,
                      ct_emu_access access);
int ct_emu_nbuffers(const ct_emu *e);
const char *ct_emu_buffer_name(const ct_emu *e, int buf);
/* The last error of the session's calls, or "" */
const char *ct_emu_error(const ct_emu *e);

/* ---- arguments and launches ----------------------------------------- */

typedef enum ct_emu_arg_kind { CT_EMU_ARG_PTR, CT_EMU_ARG_INT, CT_EMU_ARG_FLOAT } ct_emu_arg_kind;

typedef struct ct_emu_arg {
    ct_emu_arg_kind kind;
    int buffer;      /* PTR: buffer id, or -1 for a null pointer */
    int64_t offset;  /* PTR: bytes from the buffer's start */
    int64_t i;       /* INT */
    double f;        /* FLOAT */
} ct_emu_arg;

/* Arguments: a registered buffer (at a byte offset), an integer, a float. */
static inline ct_emu_arg ct_emu_ptr(int buffer)
{
    ct_emu_arg a = {CT_EMU_ARG_PTR, buffer, 0, 0, 0};
    return a;
}
static inline ct_emu_arg ct_emu_ptr_at(int buffer, int64_t byte_offset)
{
    ct_emu_arg a = {CT_EMU_ARG_PTR, buffer, byte_offset, 0, 0};
    return a;
}
static inline ct_emu_arg ct_emu_int(int64_t v)
{
    ct_emu_arg a = {CT_EMU_ARG_INT, -1, 0, v, 0};
    return a;
}
static inline ct_emu_arg ct_emu_float(double v)
{
    ct_emu_arg a = {CT_EMU_ARG_FLOAT, -1, 0, 0, v};
    return a;
}

enum {
    CT_EMU_NO_POISON = 1,       /* leave outputs as they are before the run */
    CT_EMU_STOP_AT_FIRST = 2,   /* stop at the first fault (default: finish the
                                   programs before the faulting one, so the fault
                                   reported is the lowest program id's) */
};

typedef struct ct_emu_launch {
    int grid[3];        /* programs along x, y, z; 0 counts as 1 */
    int threads;        /* worker threads; 0: all cores */
    unsigned flags;     /* CT_EMU_* above */
    FILE *print;        /* tt.print output; NULL: stdout */
    /* the step budget: loop iterations (back edges taken: scf.for and scf.while iterations,
     * backward cf branches) one program may run before it stops with CT_EMU_ERR_BUDGET, naming
     * the loop's line; 0: CT_EMU_DEFAULT_MAX_STEPS; negative: no limit.  A program without
     * back edges always ends, so this bounds every run. */
    int64_t max_steps;
} ct_emu_launch;

/* The default step budget: far more loop iterations than a real kernel's program runs. */
#define CT_EMU_DEFAULT_MAX_STEPS ((int64_t)1 << 30)

typedef enum ct_emu_status {
    CT_EMU_OK = 0,
    CT_EMU_ERR_ARGS,        /* wrong argument count, kind or value */
    CT_EMU_ERR_OOB,         /* a lane accessed memory outside its buffer */
    CT_EMU_ERR_NULL,        /* a lane accessed an address in no buffer */
    CT_EMU_ERR_MISALIGNED,  /* a lane accessed an address not aligned to its size */
    CT_EMU_ERR_READONLY,    /* a store or atomic into a CT_EMU_IN buffer */
    CT_EMU_ERR_ASSERT,      /* tt.assert failed */
    CT_EMU_ERR_UNSUPPORTED, /* an op or type the emulator cannot execute */
    CT_EMU_ERR_NOMEM,
    CT_EMU_ERR_BUDGET,      /* a program ran out of its step budget (ct_emu_launch.max_steps) */
    CT_EMU_ERR_DEADLOCK     /* every program left waits for a value no program will change */
} ct_emu_status;

/* What a status means, in a few words ("out of bounds"). */
const char *ct_emu_status_name(ct_emu_status s);

/* Where and why a run failed.  Access faults carry the lane (the flat index
 * of the element in the tensor), the buffer and the byte offset from its
 * start (negative below it). */
typedef struct ct_emu_fault {
    ct_emu_status status;
    int pid[3];             /* program id */
    int64_t lane;           /* -1 when not about a lane */
    int buffer;             /* -1 when no buffer */
    char buffer_name[64];
    int64_t offset;         /* bytes from the buffer's start */
    int64_t access_bytes;   /* size of the access */
    char op[32];            /* "tt.load" */
    char file[256];         /* source location of the op ("" if unknown) */
    int line, col;
    char called_from[256];  /* "file:line" of the call site for inlined helpers */
    char message[1024];     /* the full, one-line description */
} ct_emu_fault;

typedef struct ct_emu_result {
    ct_emu_status status;
    ct_emu_fault fault;     /* the fault of the lowest program id (valid if status != OK) */
    int64_t nfaults;        /* programs that faulted (can be > 1 with threads) */
    int64_t programs;       /* programs run to completion */
    int threads;            /* workers used */
    double seconds;         /* wall time of the run */
    char kernel[128];
    int64_t parks;          /* times a spin-waiting program was set aside for others to run */
} ct_emu_result;

/* Runs the kernel over the grid.  Returns res->status (also filled in when
 * the arguments are rejected before running). */
ct_emu_status ct_emu_run(ct_emu *e, const ct_emu_kernel *k, const ct_emu_launch *l, int nargs,
                         const ct_emu_arg *args, ct_emu_result *res);

/* ---- after a run ----------------------------------------------------- */

typedef struct ct_emu_report {
    int64_t elems;
    int64_t unwritten;  /* OUT buffers: elements still holding the poison */
    int64_t nan, inf;   /* float buffers */
    int64_t zero;
    bool all_zero;
} ct_emu_report;

/* Statistics of a buffer's current contents.  0, or -1 for a bad id. */
int ct_emu_buffer_report(const ct_emu *e, int buf, ct_emu_report *r);
/* Writes one line per written buffer ("y: 64000 fp32, 0 unwritten, 0 NaN ..."). */
void ct_emu_print_reports(const ct_emu *e, FILE *out);
/* The poison byte pattern of a dtype (for callers preparing outputs). */
uint8_t ct_emu_poison_byte(ct_emu_dtype t);

/* ---- checking against a reference ------------------------------------ */

typedef enum ct_emu_verdict {
    CT_EMU_PASS = 0,
    CT_EMU_CRASH,     /* the run faulted (out of bounds, assert, ...) */
    CT_EMU_SHAPE,     /* element counts differ */
    CT_EMU_MISMATCH   /* values differ beyond the tolerance */
} ct_emu_verdict;

enum {
    CT_EMU_HAS_NAN = 1,     /* NaN where the reference has none */
    CT_EMU_ALL_ZERO = 2,    /* every output element is zero (the reference is not) */
    CT_EMU_UNWRITTEN = 4,   /* elements still hold the poison */
    CT_EMU_HAS_INF = 8      /* Inf where the reference has none */
};

typedef struct ct_emu_check {
    ct_emu_verdict verdict;
    unsigned flags;         /* CT_EMU_HAS_NAN ... */
    int64_t n;              /* elements compared */
    int64_t nbad;           /* elements beyond the tolerance */
    int64_t worst;          /* index of the largest violation, -1 if none */
    double got, want;       /* the values at `worst` */
    double max_abs, max_rel;/* over all compared elements */
    int64_t max_ulp;        /* float types: largest distance in units in the last place */
    char message[1280];     /* one line: the verdict and what it rests on */
} ct_emu_check;

/* "PASS", "CRASH", "SHAPE", "MISMATCH". */
const char *ct_emu_verdict_name(ct_emu_verdict v);

/* Compares `got` (n_got elements) with `want` (n_want), both of type t.
 * An element passes when |got - want| <= atol + rtol * |want| (NaN equals
 * NaN); rtol = atol = 0 asks for bit equality (every NaN equal).  `poison`
 * (may be false) says whether unwritten elements hold ct_emu_poison_byte. */
ct_emu_verdict ct_emu_compare(ct_emu_dtype t, const void *got, int64_t n_got, const void *want,
                              int64_t n_want, double rtol, double atol, bool poison,
                              ct_emu_check *out);
/* A run's verdict on one output buffer: CRASH (with the fault) if the run
 * failed, else ct_emu_compare of the buffer with the reference. */
ct_emu_verdict ct_emu_check_output(const ct_emu *e, const ct_emu_result *run, int buf,
                                   const void *want, int64_t n_want, double rtol, double atol,
                                   ct_emu_check *out);

CT_END_DECLS
#endif
