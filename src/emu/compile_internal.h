/*
 * compile_internal.h - the compiler's state and helpers, shared by
 * compile.c (values, instructions, liveness, dispatch, blocks, entry),
 * compile_ops.c (data ops) and compile_flow.c (reductions, calls, loops).
 */
#ifndef CTRITON_EMU_COMPILE_INTERNAL_H
#define CTRITON_EMU_COMPILE_INTERNAL_H

#include "emu_internal.h"
#include "util/alloc.h"
#include "util/util.h"

typedef struct val {
    uint32_t off;
    int64_t n;         /* elements; -1 when batched */
    emu_ek ek;
    const ct_type *type;
    bool inv;          /* the same in every program: computed once per thread (prologue) */
    int splat_src;     /* a splat: the scalar's value index, and the splat's instruction; -1 */
    int splat_ins;
    bool pinned;       /* read in place of a splat of it: never overwritten */
} val;

typedef struct patch {
    int ins;
    const ct_block *block;
} patch;

typedef struct fnret {
    int nres;
    int *res;          /* result vals, or NULL when results alias the return */
    int *jumps;        /* ins indices of jumps to the exit */
    int njumps, cjumps;
} fnret;

/* a tt.call the compiler is inlining: the call, the callee's entry block, the caller's map */
typedef struct emu_callsite {
    const ct_op *call;
    const ct_block *entry;
    ct_ptrmap *vmap;
    struct emu_callsite *up;
} emu_callsite;

typedef struct cctx {
    ct_emu_kernel *k;
    ct_arena *A;
    const ct_module *m;
    ct_diags *d;
    emu_ins *code;
    int ncode, ccode;
    size_t frame;
    val *vals;
    int nvals, cvals;
    ct_ptrmap *vmap;        /* value -> val index + 1, per function instance */
    struct emu_callsite *site; /* the tt.call being inlined (innermost), NULL in the kernel */
    emu_loc *locs;
    int nlocs, clocs;
    emu_init *inits;
    int ninits, cinits;
    ct_ptrmap live;
    ct_ptrmap uses;         /* value -> live uses */
    ct_ptrmap ranks;        /* value -> its Reassociate rank + 1 (emu_cc_try_fma), op -> load order + 1 */
    ct_ptrmap rank_scratch; /* the same for the values of an inlined call, for one query */
    int caller_loc;
    int64_t batch;          /* capacity of batched values, 0 outside combine regions */
    int depth;
    int num_warps;
    bool fast_dot;          /* ct_emu_options.dot == CT_EMU_DOT_FAST */
    bool kernel_level;      /* compiling the kernel's own body (tt.return ends) */
    fnret *ret;
    patch *patches;
    int npatches, cpatches;
    emu_reduce_aux **reds;  /* the reductions and scans, in the order compiled */
    int nreds, creds;
    ct_ptrmap blockpc;      /* block -> pc + 1 */
    ct_ptrmap blockargs;    /* block -> int* val indices of its args */
    int nerr;
    int *hoist;             /* instructions of invariant values, for the prologue */
    int nhoist, choist;
    ct_ptrmap early;        /* ops compiled before their loop (emu_cc_hoist_splats) */
} cctx;

#define GROW(arr, n, cap)                                                                      \
    do {                                                                                       \
        if ((n) == (cap)) {                                                                    \
            int nc_ = (cap) ? (cap) * 2 : 64;                                                  \
            void *np_ = ct_xrealloc((arr), sizeof(*(arr)) * (size_t)nc_);                          \
            if (!np_)                                                                          \
                emu_cc_abort_oom();                                                                \
            (arr) = np_;                                                                       \
            (cap) = nc_;                                                                       \
        }                                                                                      \
    } while (0)

#define OFF(i) (C->vals[(i)].off)

/* may op write its result over its operand idx (value index v)? (compile.c) */
bool emu_cc_overwritable(cctx *C, const ct_op *op, int idx, int v);
#define INS(i) (&C->code[(i)])

/* compile.c: diagnostics, storage, instructions, attributes, liveness, blocks */
void emu_cc_err(cctx *C, const ct_op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void *emu_cc_aux(cctx *C, size_t bytes);
int emu_cc_new_val(cctx *C, const ct_op *op, const ct_type *t);
int emu_cc_alias_val(cctx *C, int from, const ct_type *t);
void emu_cc_bind(cctx *C, const ct_value *v, int idx);
int emu_cc_val(cctx *C, const ct_op *op, const ct_value *v);
int emu_cc_emit(cctx *C, emu_fn fn, const ct_op *op);
void emu_cc_add_init(cctx *C, uint32_t off, const void *data, size_t bytes);
void emu_cc_pcopy(cctx *C, const ct_op *op, int n, const int *dst, const int *src);
const ct_attr *emu_cc_attr(const ct_op *op, const char *name);
int64_t emu_cc_attr_int(const ct_op *op, const char *name, int64_t dflt);
int emu_cc_ek_of(const ct_type *t);
size_t emu_cc_alloc_frame(cctx *C, size_t bytes);
bool emu_cc_is_live(cctx *C, const ct_op *op);
int emu_cc_uses_of(cctx *C, const ct_value *v);
bool emu_cc_block_ops(cctx *C, const ct_block *b, bool stop_at_term);
/* compiles the loop-invariant splats of a loop's body now, before the loop (compile.c) */
void emu_cc_hoist_splats(cctx *C, const ct_op *loop, const ct_block *body);
bool emu_cc_blocks(cctx *C, const ct_op *owner, const ct_region *r);
int emu_cc_loc_index(cctx *C, const ct_loc *l);
/* op's location index: its file location, else where the parsed text had it */
int emu_cc_op_loc(cctx *C, const ct_op *op);
void emu_cc_abort_oom(void);
emu_ek emu_cc_opnd_ek(const ct_op *op, int i);
bool emu_cc_no_batch(cctx *C, const ct_op *op);
const ct_op *emu_cc_fusable_mul(cctx *C, const ct_op *user, const ct_value *v);

/* compile_ops.c: one op into instructions */
/* the most operands an elementwise instruction reads (emu_cc_elementwise) */
#define EMU_ELEM_MAX_IN 3
bool emu_cc_elementwise(cctx *C, const ct_op *op, emu_fn fn, int nin, emu_ek operand_ek);
bool emu_cc_alias(cctx *C, const ct_op *op);
bool emu_cc_try_fma(cctx *C, const ct_op *op);
bool emu_cc_constant(cctx *C, const ct_op *op);
bool emu_cc_cast(cctx *C, const ct_op *op);
bool emu_cc_shape_op(cctx *C, const ct_op *op);
bool emu_cc_memory(cctx *C, const ct_op *op);
bool emu_cc_bptr(cctx *C, const ct_op *op);
bool emu_cc_desc(cctx *C, const ct_op *op);
bool emu_cc_dot(cctx *C, const ct_op *op);
bool emu_cc_print(cctx *C, const ct_op *op);
/* compile_asm.c: tt.elementwise_inline_asm on the PTX interpreter */
bool emu_cc_inline_asm(cctx *C, const ct_op *op);
emu_shape_aux *emu_cc_shape_aux(cctx *C, const ct_type *src, const ct_type *dst);
size_t emu_cc_pointee_size(const ct_type *t);
bool emu_cc_splits_block(const ct_op *op);

/* compile_flow.c: regions, calls, loops, branches */
bool emu_cc_reduce(cctx *C, const ct_op *op);
bool emu_cc_call(cctx *C, const ct_op *op);
bool emu_cc_for(cctx *C, const ct_op *op);
bool emu_cc_map_elementwise(cctx *C, const ct_op *op);
bool emu_cc_if(cctx *C, const ct_op *op);
bool emu_cc_while(cctx *C, const ct_op *op);
bool emu_cc_execute_region(cctx *C, const ct_op *op);
void emu_cc_branch(cctx *C, const ct_op *op, const ct_block *target, int from, int n);
bool emu_cc_return(cctx *C, const ct_op *op);
void emu_cc_apply_layouts(cctx *C, const ct_emu_options *o);
int *emu_cc_opnd_vals(cctx *C, const ct_op *op, int from, int n);
int *emu_cc_fresh_args(cctx *C, const ct_op *op, const ct_block *b, int from);


#endif
