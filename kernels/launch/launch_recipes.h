/*
 * launch_recipes.h - how to run each library kernel from C: inputs made
 * from a config's problem sizes ("M=64 N=1000"), the arguments in the
 * kernel's order (as Python would pass them, so the JIT specializes alike),
 * the grid, the bytes moved and flops done, a plain C reference to check
 * the outputs against, and a dump of inputs and outputs that
 * bench/launch_py.py replays through Python Triton for a bitwise comparison.
 *
 * Used by `ctriton bench` and bench/launch_bench.c.  Ownership: an lr_run
 * owns its host and device buffers and its ct_kernel (lr_free).
 */
#ifndef CTRITON_LAUNCH_RECIPES_H
#define CTRITON_LAUNCH_RECIPES_H

#include "ctriton/launch.h"
#include "kernels.h"

#define LR_MAX_BUFS 8
#define LR_MAX_ARGS 16

enum { LR_IN, LR_OUT, LR_INOUT };

typedef struct lr_buf {
    char name[32];
    tl_scalar dt;
    size_t n;                  /* elements */
    int role;                  /* LR_IN, LR_OUT, LR_INOUT */
    unsigned char *host;       /* the initial contents (inputs; 0xff bytes for outputs) */
    unsigned char *result;     /* contents after the launch (lr_fetch) */
    ct_devptr dev;
} lr_buf;

typedef struct lr_run {
    const ct_kernel_entry *entry;
    const tl_config *cfg;
    char problem[256];
    lr_buf bufs[LR_MAX_BUFS];
    int nbufs;
    ct_arg args[LR_MAX_ARGS];
    int argbuf[LR_MAX_ARGS];   /* the buffer of a pointer argument, else -1 */
    int nargs;
    ct_dim3 grid;
    double bytes, flops;       /* per launch */
    ct_kernel *k;
    unsigned seed;
} lr_run;

/* Whether a kernel has a recipe. */
bool lr_has_recipe(const char *kernel);
/* A larger problem for timing a config, with the same residues mod 16 (so the
 * JIT specializes it the same way); NULL if none is known. */
const char *lr_bench_problem(const char *kernel, const char *config);

/* Makes inputs for the problem (NULL: the config's), uploads them, creates
 * the ct_kernel with the config's constexprs and options. */
ct_status lr_prepare(lr_run *r, const ct_kernel_entry *e, const tl_config *c, const char *problem,
                     unsigned seed);
/* Restores in/out buffers to their initial contents (in-place kernels). */
ct_status lr_reset(lr_run *r);
ct_status lr_launch(lr_run *r, ct_stream s);
/* Downloads every output after a launch. */
ct_status lr_fetch(lr_run *r);
/* Checks the fetched outputs against the C reference: CT_OK, or
 * CT_ERR_INVALID with what differs in msg.  Large problems are sampled. */
ct_status lr_check(lr_run *r, char *msg, size_t cap);
/* The signature the JIT chose for these arguments ("x_ptr=*fp32:16 ..."). */
void lr_signature(const lr_run *r, char *buf, size_t cap);
/* Writes DIR/meta.json and, with data, DIR/NAME.in and DIR/NAME.out (after lr_fetch). */
ct_status lr_dump(const lr_run *r, const char *dir, const char *extra_json, bool with_data);
void lr_free(lr_run *r);

/* Host values of a buffer, decoded to double. */
double lr_get(const lr_buf *b, const unsigned char *data, size_t i);
const char *lr_dtype_name(tl_scalar dt);
size_t lr_dtype_size(tl_scalar dt);

#endif
