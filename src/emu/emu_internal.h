/*
 * emu_internal.h - the emulator's internal form, shared by its files.
 *
 * A kernel is compiled once (compile.c) into a flat array of instructions,
 * each with its handler already resolved (a function pointer specialized by
 * op and element type) and its operands given as byte offsets into a
 * frame: the per-thread scratch memory that holds every SSA value of one
 * program instance, tensors as dense row-major arrays.  Control flow
 * (scf.for/if/while, cf.br/cond_br, inlined tt.call) becomes jumps;
 * combine regions of tt.reduce/tt.scan become sub-ranges executed on whole
 * batches of element pairs at once ("batched" instructions whose element
 * count is the frame's current batch).  Nothing in the execution path
 * allocates or looks anything up by name.
 */
#ifndef CTRITON_EMU_INTERNAL_H
#define CTRITON_EMU_INTERNAL_H

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ctriton/emu.h"
#include "ctriton/float.h"
#include "ctriton/ir.h"
#include "mufu_internal.h"

/* ---- element kinds (storage of one element in a frame) -------------- */

typedef enum emu_ek {
    EK_I1,      /* uint8_t 0/1 */
    EK_I8,
    EK_I16,
    EK_I32,
    EK_I64,
    EK_F16,     /* uint16_t bits */
    EK_BF16,    /* uint16_t bits */
    EK_F32,
    EK_F64,
    EK_F8E4NV,  /* uint8_t bits, e4m3fn */
    EK_F8E5,    /* e5m2 */
    EK_F8E4B8,  /* e4m3fnuz */
    EK_F8E5B16, /* e5m2fnuz */
    EK_F8E4B15, /* e4m3b11fnuz */
    EK_PTR,     /* uint64_t emulated address */
    EK_BPTR,    /* emu_bptr: a block pointer (tt.make_tensor_ptr) */
    EK__COUNT
} emu_ek;

size_t emu_ek_size(emu_ek k);
const char *emu_ek_name(emu_ek k);
bool emu_ek_is_float(emu_ek k);
bool emu_ek_is_fp8(emu_ek k);
ct_float_kind emu_ek_fk(emu_ek k);
int emu_ek_int_bits(emu_ek k);

/* A block pointer: base address, shape, strides (elements), offsets. */
typedef struct emu_bptr {
    uint64_t base;
    int32_t rank;
    int32_t fill;       /* a tensor descriptor's padding: 1 zero (0 too), 2 nan */
    int64_t shape[CT_MAX_RANK];
    int64_t strides[CT_MAX_RANK];
    int32_t offsets[CT_MAX_RANK];
} emu_bptr;

/* ---- emulated addresses ----------------------------------------------
 * Buffer i lives at EMU_BASE(i) = (i + 1) << 40.  An address a belongs to
 * the buffer whose base is nearest: ((a + 2^39) >> 40) - 1, so that running
 * off either end of a buffer is still attributed to it.  Address 0 (null)
 * and addresses below 2^39 belong to no buffer. */
#define EMU_ADDR_SHIFT 40
#define EMU_BASE(i) (((uint64_t)(i) + 1) << EMU_ADDR_SHIFT)
#define EMU_MAX_BUFFER_BYTES (1ull << (EMU_ADDR_SHIFT - 1))

static inline int64_t emu_addr_buffer(uint64_t a)
{
    return (int64_t)((a + (1ull << (EMU_ADDR_SHIFT - 1))) >> EMU_ADDR_SHIFT) - 1;
}

/* Pointer arithmetic keeps a pointer in its buffer's window (the 2^40 addresses nearest the
 * buffer's base, emu_addr_buffer): p + delta when that stays in p's window, else a wild
 * address, EMU_WILD(w) in window EMU_WILD_WINDOW + w for p's window w, which no buffer owns
 * and which every access refuses, naming p's buffer (emu_wild_origin).  So no offset, however
 * large, reaches another buffer's memory.  A wild address is kept by arithmetic that leaves
 * its window; the registered buffers (at most 2^22) never reach the wild windows. */
#define EMU_WILD_WINDOW (1ull << 23)
#define EMU_WILD(w) (((uint64_t)EMU_WILD_WINDOW + (w)) << EMU_ADDR_SHIFT)
static inline uint64_t emu_window(uint64_t a)
{
    return (a + (1ull << (EMU_ADDR_SHIFT - 1))) >> EMU_ADDR_SHIFT;
}
static inline uint64_t emu_ptr_add(uint64_t p, uint64_t delta)
{
    uint64_t r = p + delta, w = emu_window(p);
    uint64_t wild = w >= EMU_WILD_WINDOW ? p : EMU_WILD(w);
    return emu_window(r) == w ? r : wild;
}
/* The buffer a wild address came from (-1: a null pointer); -2 when a is not wild. */
static inline int64_t emu_wild_origin(uint64_t a)
{
    uint64_t w = emu_window(a);
    return w >= EMU_WILD_WINDOW && w <= EMU_WILD_WINDOW + (1ull << 22) ? (int64_t)(w - EMU_WILD_WINDOW) - 1
                                                                       : -2;
}

/* ---- instructions ---------------------------------------------------- */

typedef struct emu_frame emu_frame;
typedef struct emu_ins emu_ins;

/* A handler returns EMU_NEXT to go on, EMU_STOP when the program ends or
 * faults (F->status says which), EMU_RET at the end of a combine region. */
enum { EMU_NEXT = 0, EMU_STOP = 1, EMU_RET = 2 };
typedef int (*emu_fn)(emu_frame *F, const emu_ins *I);

struct emu_ins {
    emu_fn fn;
    uint32_t d, a, b, c;     /* frame byte offsets: result, operands */
    int64_t n;               /* element count; -1: the frame's batch */
    int32_t target;          /* jump target */
    int32_t loc;             /* index into the kernel's locations, -1 if none */
    uint16_t code;           /* ct_opcode (messages) */
    uint8_t ek, ek2;         /* element kinds: result, operand */
    uint32_t flags;
    union {
        int64_t i;
        double f;
        const void *p;
    } x, y;
};

#define NE(F, I) ((I)->n >= 0 ? (I)->n : (F)->batch)
#define SLOT(F, off, T) ((T *)((F)->mem + (off)))

/* A source location, with the call site it was inlined from. */
typedef struct emu_loc {
    const char *file;
    int line, col;
    int caller;              /* index of the call site's location, -1 if none */
} emu_loc;

/* A value written into the frame once per thread before any program runs
 * (constants, kernel arguments are written per run). */
typedef struct emu_init {
    uint32_t off;
    uint32_t bytes;
    const void *data;
} emu_init;

typedef struct emu_param_slot {
    uint32_t off;
    emu_ek ek;
} emu_param_slot;

struct ct_emu_kernel {
    ct_arena *arena;         /* everything below lives here */
    uint64_t uid;            /* unique per compiled kernel (frames kept between runs) */
    char *name;
    emu_ins *code;
    int ncode;
    emu_ins *pro;            /* the prologue: run once per thread and run, before any program */
    int npro;
    size_t frame_bytes;
    emu_loc *locs;
    int nlocs;
    emu_init *inits;
    int ninits;
    int nparams;
    ct_emu_param *params;
    emu_param_slot *pslots;
};

/* ---- running ----------------------------------------------------------- */

typedef struct emu_buffer {
    char name[64];
    uint8_t *host;
    uint64_t bytes;
    ct_emu_dtype dtype;
    ct_emu_access access;
} emu_buffer;

struct ct_emu {
    emu_buffer *bufs;
    int nbufs, cbufs;
    char err[256];
};

/* State shared by the workers of one run. */
typedef struct emu_run {
    const ct_emu *e;
    const ct_emu_kernel *k;
    int grid[3];
    int64_t nprog;
    unsigned flags;
    FILE *print;
    _Atomic int64_t next;        /* next program to run */
    _Atomic int64_t min_fault;   /* lowest faulting program, INT64_MAX if none */
    _Atomic int64_t nfaults;
    _Atomic int64_t done;
    pthread_mutex_t lock;        /* fault record, print, unaligned atomics */
    ct_emu_fault fault;
    int64_t fault_pid;
    const ct_emu_arg *args;
    int64_t max_steps;           /* each program's step budget (INT64_MAX: none) */
    /* programs waiting on other programs, parked (sched.c) */
    pthread_mutex_t sched;       /* the parked list */
    struct emu_parked *park_head, *park_tail;
    _Atomic int64_t nparked;
    int64_t park_limit;          /* the most programs parked at once */
    struct emu_runner *workers;
    int nworkers;
} emu_run;

/* One worker thread of a run (one cache line each). */
typedef struct emu_runner {
    int64_t done;                /* programs it completed */
    int64_t parks;               /* programs it parked */
    _Atomic uint64_t wrote;      /* slices of programs (start or resume to end or park) that
                                    wrote memory and ended on this thread */
    _Atomic int busy;            /* a program is running on it */
    bool alloc_failed;
} __attribute__((aligned(64))) emu_runner;

/* F->status of a program that yields (a poll found nothing new: memory.c), with EMU_STOP */
#define EMU_YIELDED (-1)
/* polls in a row that return what they returned before, with no write, before a yield */
enum { EMU_SPIN_POLLS = 8 };

struct emu_frame {
    uint8_t *mem;
    int64_t batch;
    int32_t pc;
    int32_t status;          /* ct_emu_status of a stop */
    int pid[3], npid[3];
    int64_t lin;             /* linear program id */
    int64_t steps;           /* back edges the program may still take (emu_h_back) */
    emu_run *run;
    const ct_emu_kernel *k;
    /* spin-waits (memory.c: emu_poll) */
    uint64_t writes;         /* stores, and atomics that changed memory, in this slice */
    uint64_t spin_writes;    /* writes at the last poll */
    uint64_t spin_sig[4];    /* the last result of each poll (by instruction index mod 4) */
    int spin_n;              /* polls in a row that found what they found before */
    int no_yield;            /* inside a combine region, or parking failed: spin in place */
};

/* Frame memory a thread keeps from one run to the next (pool.c). */
typedef struct emu_scratch {
    uint8_t *mem;
    size_t cap;
    uint64_t owner;          /* uid of the kernel whose frame it last held, 0 if none */
} emu_scratch;
/* at least `bytes` of 64-aligned memory; *fresh unless it last held kernel `owner`'s frame
 * (whose values are then still there) */
uint8_t *emu_scratch_get(emu_scratch *s, size_t bytes, uint64_t owner, bool *fresh);
void emu_scratch_release(emu_scratch *s);
/* runs job(arg, i, scratch) for i in [0, n): i = 0 on the calling thread, the others on pool
 * workers; returns when all are done, and how many threads ran (fewer than n when no thread
 * could be started) */
int emu_pool_run(int n, void (*job)(void *arg, int index, emu_scratch *s), void *arg);

/* Runs instructions from pc until EMU_STOP or EMU_RET; returns that code. */
int emu_exec(emu_frame *F, int32_t pc);

/* Runs programs of the run on worker W, in frame F (its constants, arguments and hoisted
 * values written), until none is left to start or resume (sched.c). */
void emu_sched_programs(emu_run *R, emu_runner *W, emu_frame *F);
/* The parked-program state of a run: set up before its workers start, freed after. */
void emu_sched_init(emu_run *R, emu_runner *ws, int nworkers);
void emu_sched_fini(emu_run *R);

/* Records a fault of the current program and returns EMU_STOP.  lane < 0
 * and buf < 0 when not applicable. */
int emu_fault(emu_frame *F, const emu_ins *I, ct_emu_status st, int64_t lane, int buf,
              int64_t offset, int64_t bytes, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

/* ---- handler families (resolved at compile time) ------------------------ */

/* Elementwise arithmetic (elementwise.c).  NULL when unsupported. */
emu_fn emu_arith_fn(ct_opcode code, emu_ek ek, int pred);
/* fma contraction of addf/subf with a mulf: `form` 0: a*b+c, 1: a*b-c, 2: c-a*b */
emu_fn emu_fma_fn(emu_ek ek, int form);
emu_fn emu_divfma_fn(int form, bool const_divisor); /* f32 div.full contracted into an add (form as emu_fma_fn) */
emu_fn emu_divk_fn(emu_ek ek); /* arith.divf by a constant divisor: ptxas's folding (NULL: not f32/f16/bf16) */
/* tt.clampf with propagateNan = all */
emu_fn emu_clampnan_fn(emu_ek ek);
/* the mode of the generic cast loop for a cast op */
int emu_cast_mode(ct_opcode code);
/* Casts (convert.c): from `src` to `dst` for a cast op (rounding: 0 rtne, 1 rtz). */
emu_fn emu_cast_fn(ct_opcode code, emu_ek src, emu_ek dst, int rounding);
/* Math (elementwise.c). */
emu_fn emu_math_fn(ct_opcode code, emu_ek ek);
/* the known inline PTX of Triton's frontend (elementwise.c), or NULL */
emu_fn emu_inline_asm_fn(const char *asm_, const char *constraints, int packed, emu_ek in, emu_ek out);
/* libdevice functions by symbol (libdevice.c): the handler, and in *aux what
 * it needs in the instruction's x.p (allocated in A).  NULL if unknown. */
emu_fn emu_libdevice_fn(const char *symbol, int nargs, emu_ek ret, const emu_ek *args, ct_arena *A,
                        const void **aux);

/* Compare predicates */
enum {
    PI_EQ, PI_NE, PI_SLT, PI_SLE, PI_SGT, PI_SGE, PI_ULT, PI_ULE, PI_UGT, PI_UGE
};
enum {
    PF_FALSE, PF_OEQ, PF_OGT, PF_OGE, PF_OLT, PF_OLE, PF_ONE, PF_ORD, PF_UEQ, PF_UGT, PF_UGE,
    PF_ULT, PF_ULE, PF_UNE, PF_UNO, PF_TRUE
};

/* Aux records of the data-movement ops (shape.c). */
typedef struct emu_shape_aux {
    int rank;
    int64_t src[CT_MAX_RANK];
    int64_t dst[CT_MAX_RANK];
    int32_t perm[CT_MAX_RANK];
    int axis;
    size_t esize;
    uint32_t b2;             /* second operand or result */
} emu_shape_aux;

int emu_h_copy(emu_frame *F, const emu_ins *I);
int emu_h_splat(emu_frame *F, const emu_ins *I);
int emu_h_broadcast(emu_frame *F, const emu_ins *I);
int emu_h_trans(emu_frame *F, const emu_ins *I);
int emu_h_join(emu_frame *F, const emu_ins *I);
int emu_h_split(emu_frame *F, const emu_ins *I);
int emu_h_cat(emu_frame *F, const emu_ins *I);
int emu_h_gather(emu_frame *F, const emu_ins *I);
int emu_h_histogram(emu_frame *F, const emu_ins *I);
int emu_h_make_range(emu_frame *F, const emu_ins *I);
int emu_h_select(emu_frame *F, const emu_ins *I);
int emu_h_select_scalar(emu_frame *F, const emu_ins *I);
int emu_h_fill(emu_frame *F, const emu_ins *I);

/* Memory (memory.c). */
typedef struct emu_mem_aux {
    size_t esize;            /* bytes per element */
    emu_ek ek;
    bool has_mask, has_other;
    bool scalar;             /* a scalar pointer: faults name no lane */
    int64_t inner;           /* lanes along the last dimension (rows of a tile) */
    /* frame offset + 1 of a byte that remembers whether the pointers form a tile of rows at
     * a constant stride (0 not known yet, 1 yes, 2 no), or 0: check every time.  Set for
     * the pointer tensors an scf.for carries and only advances (emu_cc_for) */
    uint32_t tile_rec;
    int rmw;                 /* RMW_* */
    /* block pointers */
    int rank;
    int64_t shape[CT_MAX_RANK];
    uint32_t boundary;       /* bit d: check dimension d */
    int padding;             /* 1 zero, 2 nan */
} emu_mem_aux;

/* The values of ops.def's enums the emulator switches on (ct_op_enum gives them;
 * test_optable checks that each constant is its word's value there). */
enum { RMW_AND = 1, RMW_OR, RMW_XOR, RMW_ADD, RMW_FADD, RMW_MAX, RMW_MIN, RMW_UMAX, RMW_UMIN, RMW_XCHG };
enum { PREC_TF32, PREC_TF32X3, PREC_IEEE, PREC_BF16X3, PREC_BF16X6 };
enum { PAD_ZERO = 1, PAD_NAN = 2 };

int emu_h_load(emu_frame *F, const emu_ins *I);
int emu_h_load_volatile(emu_frame *F, const emu_ins *I); /* a load, then a poll (sched.c) */
int emu_h_zero(emu_frame *F, const emu_ins *I); /* x.i bytes at d <- 0 */
int emu_h_store(emu_frame *F, const emu_ins *I);
int emu_h_atomic_rmw(emu_frame *F, const emu_ins *I);
int emu_h_atomic_cas(emu_frame *F, const emu_ins *I);
int emu_h_addptr(emu_frame *F, const emu_ins *I);
int emu_h_addptr_sp(emu_frame *F, const emu_ins *I); /* scalar pointer, tensor offsets */
int emu_h_addptr_so(emu_frame *F, const emu_ins *I); /* tensor pointers, scalar offset */
/* operands of tt.make_tensor_ptr / tt.advance */
typedef struct bptr_ops {
    int rank;
    uint32_t base, shape[CT_MAX_RANK], strides[CT_MAX_RANK], offsets[CT_MAX_RANK];
    emu_ek shape_ek, stride_ek, off_ek;
    int fill;                /* tt.make_tensor_descriptor's padding */
} bptr_ops;

/* tt.descriptor_load / tt.descriptor_store: the block, and the index operands */
typedef struct desc_ops {
    emu_mem_aux m;           /* the block's element kind and shape; every dimension checked */
    uint32_t idx[CT_MAX_RANK];
    emu_ek idx_ek;
} desc_ops;
int emu_h_make_desc(emu_frame *F, const emu_ins *I);
int emu_h_desc_load(emu_frame *F, const emu_ins *I);
int emu_h_desc_store(emu_frame *F, const emu_ins *I);
int emu_h_desc_reduce(emu_frame *F, const emu_ins *I); /* flags: RMW_* */

int emu_h_make_bptr(emu_frame *F, const emu_ins *I);
int emu_h_advance(emu_frame *F, const emu_ins *I);
int emu_h_load_bptr(emu_frame *F, const emu_ins *I);
int emu_h_store_bptr(emu_frame *F, const emu_ins *I);

/* Reductions and scans (reduce.c). */
typedef struct emu_region {
    int32_t pc;              /* first instruction of the compiled region */
    int nargs;               /* 2k */
    uint32_t *arg_off;       /* batched slots of the block arguments */
    uint32_t *res_off;       /* batched slots of the returned values (k) */
    int64_t width;           /* capacity of the batched slots, in elements */
    bool fast;               /* the region is one elementwise op res = f(arg0, arg1) */
    emu_ins fast_ins;        /* that op, to run directly on other operands */
} emu_region;

typedef struct emu_reduce_aux {
    int k;                   /* operands */
    uint32_t *in_off, *out_off;
    size_t *esize;
    emu_ek *ek;
    int64_t outer, len, inner;  /* input viewed as [outer, len, inner] */
    emu_region region;
    /* order model: threads along the axis and the registers each holds
     * (register r of thread t holds axis index
     *  (r / spt) * spt * nthr + t * spt + r % spt) */
    int nthr;                /* threads along the axis (lanes * warps) */
    int lanes, warps;        /* along the axis */
    int nreg;                /* elements per thread */
    int spt;                 /* contiguous elements per thread and repetition */
    const int32_t *regmap;   /* NULL, or the axis index of register r of thread t at
                                [t * nreg + r] (MMA layouts, compile_flow.c) */
    uint32_t *acc_off;       /* scratch [outer][nthr][inner] per operand */
    bool reverse;            /* scans */
    bool is_scan;
    uint32_t idx_off;        /* scans: frame scratch for 3 * len int64 pair indices */
    /* an integer combine that is ASSOC in the op table (its ct_opcode, else 0): every
     * order gives one result, so the fold runs straight along the axis (reduce.c) */
    int assoc;
    /* fma fusion of the thread-level phase: input = mulf(fa, fb) */
    bool fuse;
    uint32_t fa, fb;
} emu_reduce_aux;

int emu_h_reduce(emu_frame *F, const emu_ins *I);
int emu_h_scan(emu_frame *F, const emu_ins *I);
int emu_run_region(emu_frame *F, const emu_region *r, int64_t batch);

/* Dot (dot.c). */
typedef struct emu_dot_aux {
    int64_t batch, M, N, K;
    emu_ek a_ek, b_ek, c_ek;
    int precision;           /* 0 tf32, 1 tf32x3, 2 ieee, 3 bf16x3, 4 bf16x6 */
    int64_t max_imprecise;   /* maxNumImpreciseAcc (0 when absent) */
    bool fast;               /* CT_EMU_DOT_FAST and 16- or 8-bit float operands into f32 */
    bool wgmma;              /* Triton picks wgmma (else mma.sync) for this dot on sm_90 */
    uint32_t acc;            /* offset of the accumulator operand */
    uint32_t scratch;        /* frame scratch for decoded operands */
} emu_dot_aux;

int emu_h_dot(emu_frame *F, const emu_ins *I);
size_t emu_dot_scratch_bytes(const emu_dot_aux *a);
/* the reference loops of the tensor-core dots (dot.c): acc (doubles holding values of out_ek)
 * += A x B, A M x K and B K x N decoded to doubles, rounding to out_ek once per group of G */
void emu_dot_mma_ref(const double *A, const double *B, double *acc, int64_t M, int64_t N,
                     int64_t K, int G, emu_ek out_ek);
/* the reference loops of f16 x f16 -> f32 dots, Hopper's wgmma accumulation (dot.c): acc (doubles
 * holding f32 values) += A x B, A and B decoded f16 values */
void emu_dot_f16_hopper_ref(const double *A, const double *B, double *acc, int64_t M, int64_t N,
                            int64_t K);
/* the reference loops of fp8 x fp8 -> f32 dots, Hopper's wgmma k32 model (dot.c): acc (doubles
 * holding f32 values) += A x B, A and B decoded values of a_ek and b_ek (F8E4NV or F8E5),
 * max_imprecise: maxNumImpreciseAcc (partial sums when <= K) */
void emu_dot_fp8_hopper_ref(const double *A, emu_ek a_ek, const double *B, emu_ek b_ek, double *acc,
                            int64_t M, int64_t N, int64_t K, int64_t max_imprecise);
/* 1: tt.dot runs its reference loops instead of the fast paths (tests) */
extern _Atomic int emu_dot_use_reference;

/* The fast paths (dot_gemm.c).  An operand is a row-major matrix of kind ek (F16, BF16, F32,
 * F64 = already decoded doubles, others through emu_load_f64); tf32: cut f32 mantissas. */
typedef struct emu_gemm_opnd {
    const void *p;
    emu_ek ek;
    bool tf32;
} emu_gemm_opnd;
size_t emu_gemm_scratch_bytes(int64_t M, int64_t N, int64_t K);
/* c (M x N f32) <- the MMA-group model of A (M x K) x B (K x N), groups of G k; the products
 * must be exact in double (operands of at most 24 significant bits) */
void emu_gemm_groups_f32(const emu_gemm_opnd *A, const emu_gemm_opnd *B, float *c, int64_t M,
                         int64_t N, int64_t K, int G, void *scratch);
/* c (M x N f32) <- fused multiply-adds in k order of A (M x K) x B (K x N), operands of kind
 * F16, BF16 or an fp8 kind (CT_EMU_DOT_FAST) */
void emu_gemm_fma_lowp(const emu_gemm_opnd *A, const emu_gemm_opnd *B, float *c, int64_t M,
                       int64_t N, int64_t K, void *scratch);
/* c (M x N f32) <- the Hopper f16 model (dot.c) of A (M x K f16 bits) x B (K x N f16 bits) */
void emu_gemm_hopper_f16(const uint16_t *A, const uint16_t *B, float *c, int64_t M, int64_t N,
                         int64_t K, void *scratch);
/* c (M x N f32 values) += A x B on Hopper's fp8 wgmma model, A and B fp8 bytes of a_ek and b_ek
 * (F8E4NV or F8E5): emu_dot_fp8_hopper_ref's bits */
void emu_gemm_hopper_fp8(const uint8_t *A, emu_ek a_ek, const uint8_t *B, emu_ek b_ek, float *c,
                         int64_t M, int64_t N, int64_t K, int64_t max_imprecise, void *scratch);
/* c (M x N f32) <- fmaf(A[m][k], B[k][n], c) for k in order */
void emu_gemm_fma_f32(const float *A, const float *B, float *c, int64_t M, int64_t N, int64_t K,
                      void *scratch);
/* instruction set levels: 0 portable C, 1 AVX2+FMA, 2 AVX-512; how many this machine has,
 * and forcing one (-1: the best; tests); returns the previous setting */
int emu_gemm_isa_levels(void);
int emu_gemm_force_isa(int level);

/* Control and misc (exec.c). */
typedef struct emu_copy_aux {
    int n;
    uint32_t *dst, *src, *bytes;
} emu_copy_aux;

int emu_h_jmp(emu_frame *F, const emu_ins *I);
/* a jump back (a loop's next iteration): emu_h_jmp within the program's step budget */
int emu_h_back(emu_frame *F, const emu_ins *I);
int emu_h_brz(emu_frame *F, const emu_ins *I);
int emu_h_end(emu_frame *F, const emu_ins *I);
int emu_h_ret(emu_frame *F, const emu_ins *I);
int emu_h_pcopy(emu_frame *F, const emu_ins *I);
int emu_h_for_test(emu_frame *F, const emu_ins *I);
int emu_h_for_step(emu_frame *F, const emu_ins *I);
/* tt.map_elementwise: d (a scalar) <- element (i + x.i) of the tensor at a, i the i64 at b,
 * elements of y.i bytes; and element (i + x.i) of the tensor at d <- the scalar at a */
int emu_h_elem_get(emu_frame *F, const emu_ins *I);
int emu_h_elem_set(emu_frame *F, const emu_ins *I);
int emu_h_program_id(emu_frame *F, const emu_ins *I);
int emu_h_num_programs(emu_frame *F, const emu_ins *I);
int emu_h_assert(emu_frame *F, const emu_ins *I);
int emu_h_assume(emu_frame *F, const emu_ins *I);
int emu_h_print(emu_frame *F, const emu_ins *I);
int emu_h_nop(emu_frame *F, const emu_ins *I);

typedef struct emu_print_aux {
    const char *prefix;
    bool hex;
    int n;
    uint32_t *off;
    int64_t *numel;
    emu_ek *ek;
    bool *is_signed;
    int rank;                /* shape of the tensors (same for all) */
    int64_t shape[CT_MAX_RANK];
} emu_print_aux;

/* ---- numeric helpers shared by the handlers (numeric.c) ------------------ */

/* Tables filled by emu_numeric_init (called by ct_emu_compile and ct_emu_new). */
extern float emu_h2f_tab[65536];
extern float emu_fp8_tab[5][256];
void emu_numeric_init(void);
/* An element of es bytes (1, 2, 4 or 8) as the low bits of a uint64_t, and back (atomics,
 * inline PTX registers). */
static inline uint64_t emu_ld_bits(const uint8_t *p, size_t es)
{
    switch (es) {
    case 1:
        return *p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

static inline void emu_st_bits(uint8_t *p, size_t es, uint64_t v)
{
    switch (es) {
    case 1:
        *p = (uint8_t)v;
        break;
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    default:
        memcpy(p, &v, 8);
    }
}

/* The binary exponent of a finite nonzero double's encoding (every f32 and fp8 value is normal
 * as a double). */
static inline int emu_dexp(double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    return (int)((u >> 52) & 0x7ff) - 1023;
}

/* 2^e for -1022 <= e <= 1023 */
static inline double emu_pow2(int e)
{
    uint64_t u = (uint64_t)(e + 1023) << 52;
    double v;
    memcpy(&v, &u, 8);
    return v;
}

/* trunc(x) for |x| < 2^51 (and NaN, inf): the nearest integer, then one step toward zero if
 * that went past x; unlike trunc() it vectorizes without -fno-trapping-math */
static inline double emu_trunc_small(double x)
{
    const double c = 0x1.8p52;
    double r = (x + c) - c;
    return fabs(r) > fabs(x) ? r - copysign(1.0, x) : r;
}

static inline float emu_h2f(uint16_t h)
{
    return emu_h2f_tab[h];
}
/* f32 -> f16 bits, RNE, overflow to inf, NaN to the canonical 0x7fff (cvt.rn.f16.f32);
 * without branches, so that loops over it vectorize */
static inline uint16_t emu_f2h(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    x &= 0x7fffffffu;
    /* normal: round the mantissa to 10 bits, ties to even; a carry moves the exponent */
    uint32_t nrm = (x + ((uint32_t)(15 - 127) << 23) + 0xfffu + ((x >> 13) & 1u)) >> 13;
    /* subnormal: the float adder rounds to the 2^-24 quantum */
    float g;
    memcpy(&g, &x, 4);
    g += 0.5f;
    uint32_t gu;
    memcpy(&gu, &g, 4);
    uint32_t o = x < 0x38800000u ? gu - 0x3f000000u : nrm;
    o = x >= 0x47800000u ? 0x7c00u : o;
    return (uint16_t)(x > 0x7f800000u ? 0x7fffu : (o | sign)); /* canonical NaN has no sign */
}
/* f16 bits -> f32, the table's values computed without branches (vectorizes) */
static inline float emu_h2f_calc(uint16_t h)
{
    uint32_t hu = h;
    uint32_t s = (hu & 0x8000u) << 16, e = (hu >> 10) & 0x1fu, m = hu & 0x3ffu;
    /* subnormal: 2^-14 (1 + m/1024) - 2^-14 = m 2^-24, exactly */
    uint32_t t = 0x38800000u | (m << 13);
    float tf;
    memcpy(&tf, &t, 4);
    float sub = tf - 0x1p-14f;
    uint32_t us;
    memcpy(&us, &sub, 4);
    uint32_t u = e == 31 ? 0x7f800000u | (m << 13) : ((e + 112) << 23) | (m << 13);
    u = e == 0 ? us : u;
    u |= s;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
/* Element loops that should use the widest vectors the CPU has: one clone per level, picked
 * when the program is loaded.  Only for loops whose results do not depend on the vector width
 * (IEEE operations, integer and bit operations: GCC keeps their semantics when vectorizing). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
/* (ThreadSanitizer instruments the resolvers, which run before it is set up) */
#define EMU_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define EMU_CLONES
#endif
uint16_t emu_f2h_rz(float f);     /* toward zero, overflow to max finite */
static inline float emu_bf2f(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
uint16_t emu_f2bf(float f);       /* RNE */
uint16_t emu_f2bf_rz(float f);
/* fp8 decode by table, encode with satfinite (the GPU's cvt.rn.satfinite). */
static inline float emu_fp8_to_f32(uint8_t v, emu_ek k)
{
    return emu_fp8_tab[k - EK_F8E4NV][v];
}
uint8_t emu_f32_to_fp8(float f, emu_ek k, int rounding);
/* a double to F8E4NV or F8E5 with saturation (cvt.satfinite): ct_float_encode_ex's bits, faster;
 * rtz: toward zero, else to nearest even */
uint8_t emu_fp8_encode_sat(double v, emu_ek k, bool rtz);

/* libdevice's f32 functions as Triton 3.6 calls them on sm_90, ported bit for bit (mathfn.c):
 * __nv_logf, __nv_log2f, __nv_sinf, __nv_cosf, __nv_erff, __nv_tanhf, __nv_asinf, __nv_powf,
 * __nv_powif */
float emu_logf_nv(float x);
float emu_log2f_nv(float x);
float emu_sinf_nv(float x);
float emu_cosf_nv(float x);
float emu_erff_nv(float x);
float emu_tanhf_nv(float x);
float emu_asinf_nv(float x);
float emu_powf_nv(float x, float y);
float emu_powif_nv(float x, int32_t n);

/* d[i] = the f32 math.exp (is_exp: ex2.approx.f32 of a[i] * log2(e), emu_exp_nv) or
 * math.exp2 (ex2.approx.ftz.f32, emu_ex2_ftz) of a[i], the GPU's bits (mufu.c); d may be a.
 * Sixteen lanes at a time on AVX-512 unless force_scalar (tests), same bits. */
void emu_exp2_f32_array(float *d, const float *a, int64_t n, bool is_exp, bool force_scalar);

/* Flush subnormals to (signed) zero, as .ftz instructions do. */
static inline float emu_ftz(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) == 0)
        u &= 0x80000000u;
    memcpy(&x, &u, 4);
    return x;
}

/* math.exp2 is ex2.approx.ftz.f32 (MUFU.EX2); math.exp is ex2.approx.f32 of the f32 product
 * with log2(e) (0f3FB8AA3B), as Triton lowers them (mufu.c models both bit for bit) */
#define EMU_LOG2E_F 0x1.715476p+0f
static inline float emu_ex2_ftz(float x)
{
    return emu_mufu_ex2(x);
}
static inline float emu_exp_nv(float x)
{
    return emu_ex2_full(x * EMU_LOG2E_F);
}
/* Element i of a frame array of kind k, as double / from double. */
double emu_load_f64(emu_ek k, const void *p, int64_t i);
void emu_store_f64(emu_ek k, void *p, int64_t i, double v);
/* Integer element sign-extended to int64. */
int64_t emu_load_i64(emu_ek k, const void *p, int64_t i);
void emu_store_i64(emu_ek k, void *p, int64_t i, int64_t v);

#endif
