/*
 * ctriton/compile.h - TTIR to cubin through Triton's own compiler, the
 * content-addressed cache in front of it, and AOT generation.
 *
 * Lowering runs scripts/lower.py as a subprocess with $CTRITON_PYTHON
 * (default ~/.cache/ctriton/venv/bin/python, then python3): the target Triton
 * release's (ctriton/triton_version.h) stages ttir (the make_ttir passes, since
 * ctriton's TTIR is raw), ttgir,
 * llir, ptx and cubin, for a target such as sm_90, with no GPU needed.
 *
 * The cache lives in $CTRITON_CACHE_DIR, else $XDG_CACHE_HOME/ctriton, else
 * ~/.cache/ctriton.  An entry is a directory named by the SHA-256 of the
 * TTIR text, the options, the target, the Triton version and the Triton
 * environment variables that change code generation; it is built in a
 * private directory and published by one rename, so readers never see half
 * of it.  A MANIFEST of per-file checksums, itself checksummed, lets a
 * reader detect a truncated or corrupt entry, which is moved aside and
 * rebuilt.  Processes compiling the same entry serialize on a lock file
 * (flock), so the work is done once; the rename keeps it safe even where
 * locks do not work.
 *
 * Ownership: a ct_artifact owns its strings and cubin (ct_artifact_free).
 */
#ifndef CTRITON_COMPILE_H
#define CTRITON_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

#include "ctriton/cuda.h"
#include "ctriton/diag.h"
#include "ctriton/tl.h"
#include "ctriton/export.h"

CT_BEGIN_DECLS

/* Options of one lowering: what Triton's compile options carry. */
typedef struct ct_lower_opts {
    int arch;               /* compute capability, e.g. 80, 90, 100 (default 90) */
    int num_warps;          /* default 4 */
    int num_stages;         /* default 3 */
    int num_ctas;           /* default 1 */
    int maxnreg;            /* 0: none */
    bool enable_fp_fusion;  /* default true */
    bool debug;             /* default false */
    bool line_info;         /* default true: PTX .loc lines point at the C source */
    const char *triton;     /* the Triton release the TTIR is written for and lowering must
                               have ("3.9.0"); NULL: the default target (ctriton/triton_version.h).
                               Part of the key; lowering refuses a Python with another. */
} ct_lower_opts;

/* The defaults above (Triton's). */
void ct_lower_opts_default(ct_lower_opts *o);
/* num_warps, num_stages, num_ctas, maxnreg, fp fusion, debug and arch of a
 * kernel-language options struct. */
void ct_lower_opts_from_tl(ct_lower_opts *o, const tl_options *t);

/* A compiled kernel: an entry of the cache. */
typedef struct ct_artifact {
    char key[65];           /* hex SHA-256: the entry's name */
    char *dir;              /* the entry's directory */
    ct_launch_meta meta;    /* from Triton's kernel.json */
    unsigned char *cubin;
    size_t cubin_size;
    char *json;             /* kernel.json, all of it */
    bool hit;               /* found in the cache (false: lowered now) */
    double lower_ms;        /* wall time of the lowering subprocess (0 on a hit) */
} ct_artifact;

/* Frees what the artifact owns (not the entry on disk). */
void ct_artifact_free(ct_artifact *a);
/* One stage's text from the entry ("ttir", "ttgir", "llir", "ptx", "source"),
 * checked against the MANIFEST; malloc'd, NULL if missing or corrupt. */
char *ct_artifact_stage(const ct_artifact *a, const char *ext, size_t *len);

/* The cache directory in use (resolved from the environment each call). */
void ct_cache_dir(char *buf, size_t cap);
/* The key of a TTIR text with options. */
void ct_cache_key(const char *ttir, const ct_lower_opts *o, char key[65]);

/* Finds the entry in the cache or lowers the TTIR and stores it.  Lowering
 * errors (Triton's message, as it printed it) go to diags. */
ct_status ct_compile_ttir(const char *ttir, const ct_lower_opts *o, ct_artifact *out,
                          ct_diags *diags);
/* The same for n modules at once: the misses are lowered by one subprocess
 * that imports Triton once and works in parallel.  st[i] tells each result;
 * returns CT_OK if all succeeded, else the first failure. */
ct_status ct_compile_ttir_many(int n, const char *const *ttirs, const ct_lower_opts *opts,
                               ct_artifact *outs, ct_status *st, ct_diags *diags);
/* Looks in the cache only (no lowering): CT_OK on a valid hit; CT_ERR_IO on a
 * miss or a corrupt entry (which is removed). */
ct_status ct_cache_lookup(const char *key, ct_artifact *out);

/* Builds a kernel's TTIR for a signature (see tl_build) and compiles it. */
ct_status ct_compile_kernel(const tl_kernel_def *def, const char *signature,
                            const char *constexprs, const tl_options *topts,
                            const ct_lower_opts *lopts, ct_artifact *out, ct_diags *diags);
/* The TTIR text ct_compile_kernel lowers (with source locations). */
char *ct_kernel_ttir(const tl_kernel_def *def, const char *signature, const char *constexprs,
                     const tl_options *topts, ct_diags *diags);

/* ------------------------------------------------------------------ */
/* The signature of a TTIR kernel                                      */
/* ------------------------------------------------------------------ */

/* One runtime parameter of a kernel's TTIR (e.g. one Python Triton wrote), as
 * a launch passes it: Triton's specialization is in the signature (constexprs
 * and parameters equal to 1 are not parameters; tt.divisibility = 16 marks
 * what the code may assume 16-aligned). */
typedef struct ct_ttir_param {
    const char *name;       /* from its loc("name"), else "argN"; owned by the module */
    tl_scalar type;         /* the scalar, the pointee, or a descriptor's element */
    bool ptr;               /* a global pointer */
    bool desc;              /* a host tensor descriptor: the TTIR argument and its
                               shape (i32) and strides (i64) that follow it */
    bool div16;             /* tt.divisibility = 16 */
    int rank, block[5];     /* desc: the block */
} ct_ttir_param;

#define CT_TTIR_MAX_PARAMS 64

/* The parameters of the kernel `func` of a verified module (NULL: its public
 * tt.func), into out[CT_TTIR_MAX_PARAMS]; its name in *name.  Returns the
 * count, or -1 (ct_errmsg()) when there is no such kernel or a parameter
 * cannot be passed from C (a tensor, a non-global pointer, an unknown type). */
int ct_ttir_kernel_params(const ct_module *m, const char *func, const char **name,
                          ct_ttir_param *out);
/* The parameters as a signature string ("x_ptr=*fp32:16 n=i32", a descriptor as
 * "tensordesc<fp16[64,64]>"), truncated to cap. */
void ct_ttir_signature(const ct_ttir_param *p, int n, char *buf, size_t cap);

/* ------------------------------------------------------------------ */
/* AOT: a .c/.h pair with the cubins embedded and a typed launcher     */
/* ------------------------------------------------------------------ */

typedef struct ct_aot_request {
    const tl_kernel_def *def; /* a C kernel; or NULL and `ttir` */
    const char *name;        /* C prefix of the generated symbols (default: the kernel's name) */
    const char *signature;   /* as tl_build: "x_ptr=*fp32:16 n=i32" */
    const char *constexprs;  /* "BLOCK_SIZE=1024" */
    tl_options opts;         /* num_warps, num_stages, ...; arch is ignored */
    const int *archs;        /* compute capabilities to embed; NULL: {90} */
    int narchs;
    const char *origin;      /* a line for the header comment: how it was made */
    /* Instead of `def`: the text of a TTIR module, e.g. a kernel written in
     * Python (Triton's .source or .ttir), whose public tt.func's signature holds
     * its specialization (tt.divisibility; constexprs and parameters equal to 1
     * are not arguments).  It is parsed and verified, and lowered as it is for
     * every architecture; `signature` and `constexprs` are unused. */
    const char *ttir;
    const char *ttir_file;   /* its file name, for messages and the header */
    const char *func;        /* the kernel in it (NULL: the public tt.func) */
} ct_aot_request;

/* Generates the header and the source (malloc'd texts).  Lowers every
 * architecture through the cache. */
ct_status ct_aot_generate(const ct_aot_request *r, char **header, char **source,
                          ct_diags *diags);
/* ct_aot_generate, written to DIR/NAME.h and DIR/NAME.c. */
ct_status ct_aot_write(const ct_aot_request *r, const char *dir, ct_diags *diags);
/* The same, saying NAME (r->name, else the kernel's name) in prefix[cap]. */
ct_status ct_aot_write_ex(const ct_aot_request *r, const char *dir, char *prefix, size_t cap,
                          ct_diags *diags);

CT_END_DECLS
#endif
