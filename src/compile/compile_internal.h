/*
 * compile_internal.h - helpers shared by the compile layer (lowering, the
 * cache, JIT launch, AOT, autotuning): SHA-256, a small JSON reader,
 * filesystem and subprocess helpers, fault injection.  Not public.
 */
#ifndef CTRITON_COMPILE_INTERNAL_H
#define CTRITON_COMPILE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctriton/compile.h"
#include "ctriton/cuda.h"
#include "util/util.h"

/* SHA-256 */
typedef struct ct_sha256_ctx {
    uint32_t h[8];
    uint64_t len;
    uint8_t buf[64];
    size_t nbuf;
} ct_sha256_ctx;
void ct_sha256_init(ct_sha256_ctx *c);
void ct_sha256_update(ct_sha256_ctx *c, const void *data, size_t n);
void ct_sha256_final(ct_sha256_ctx *c, uint8_t out[32]);
void ct_sha256_hex(const void *data, size_t n, char out[65]);
void ct_hex(const uint8_t *d, size_t n, char *out);

/* JSON: values of top-level keys of an object (nested objects are skipped
 * over; pass a nested object's text to look inside it).  Return false when
 * the key is missing, null, or of another kind. */
const char *ct_json_find(const char *obj, const char *key);
bool ct_json_int(const char *obj, const char *key, int64_t *out);
bool ct_json_bool(const char *obj, const char *key, bool *out);
bool ct_json_str(const char *obj, const char *key, char *buf, size_t cap);
bool ct_json_num(const char *obj, const char *key, double *out);
/* The elements of the array `val` (a value's text): their starts in elems (up to max);
 * the count, or -1 if it is not an array. */
int ct_json_array(const char *val, const char **elems, int max);
/* Appends s as a JSON string literal. */
void ct_json_put_str(ct_strbuf *b, const char *s);

/* Filesystem */
bool ct_rmtree(const char *path);              /* rm -rf; true if gone */
bool ct_path_exists(const char *path);
/* Reads a whole file (binary); malloc'd, NUL-terminated past len. */
unsigned char *ct_read_all(const char *path, size_t *len);
/* Writes a whole file and fsyncs it (no rename: the caller's directory is
 * private until it is published). */
bool ct_write_all(const char *path, const void *data, size_t len);
bool ct_fsync_dir(const char *path);
/* A unique suffix for temporary names: pid, time and a counter. */
void ct_unique_suffix(char *buf, size_t cap);

/* Runs argv[0] (searched in PATH when it has no slash) with stdin from
 * /dev/null and stdout+stderr captured together into *output (malloc'd).
 * *exit_code is the exit status, or 128+signal.  CT_OK when it ran. */
ct_status ct_run_process(char *const argv[], char **output, int *exit_code);

/* Fault injection for tests: true when $CTRITON_FAULT names `point`
 * (a comma-separated list).  Costs a getenv, never on the launch hot path. */
bool ct_fault(const char *point);

/* Triton's spelling of a scalar type: "fp32", "u1" (int1), "fp8e4nv". */
const char *ct__triton_name(tl_scalar s);
/* The index of runtime parameter `name` (len bytes) of a kernel, or -1. */
int ct__param_index(const tl_kernel_def *d, const char *name, size_t len);
typedef struct ct_arg ct_arg;
/* ct_pack_args for arguments that include tensor descriptors (tma.c): `maps` holds 128 bytes
 * per descriptor, 64-byte aligned; the kernel's metadata says how they are passed; the number
 * of kernel parameters in *nparams. */
ct_status ct__pack_args_desc(const ct_arg *args, const uint8_t *codes, int n,
                             const char *const *names, const ct_launch_meta *meta, uint64_t *slots,
                             unsigned char *maps, void **params, int *nparams);
/* A list of parameter names ("a,b c") as a bit mask; CT_ERR_INVALID naming
 * an unknown one, with `what` (the option) in the message. */
ct_status ct__param_mask(const tl_kernel_def *d, const char *list, const char *what, uint64_t *mask);

/* Specialization churn (spec.c): what consecutive launches of one kernel
 * did to each argument's specialization.  ct__churn_step compares a
 * launch's codes with the previous launch's; when exactly one argument's
 * specialization changed and only in what its value decides (a multiple of
 * 16 or not, the constant 1 or not), that argument's count of flips goes up;
 * the second flip of an argument not reported yet returns its index (the
 * caller reports it once), else -1.  Not thread-safe: the caller locks. */
typedef struct ct_churn {
    uint8_t last[64 + 8 * 7];  /* CT_SPEC_CODES_MAX (ctriton/launch.h) */
    int nlast;                /* 0: no launch yet */
    int flips[64];
    uint64_t reported;        /* bit i: argument i reported */
    int nreports;
} ct_churn;
int ct__churn_step(ct_churn *c, const uint8_t *codes, int n);
/* The report for argument i that flipped between codes a and b: its name,
 * both keys and what to do (do_not_specialize, or ..._on_alignment when only
 * the divisibility changed). */
void ct__churn_message(const char *kernel, const char *const *names, int i, uint8_t a, uint8_t b,
                       int flips, char *buf, size_t cap);

/* The Python, the lowering script and the Triton release a lowering
 * targets (o->triton resolved, NULL: the default target; an unsupported
 * release as it was asked for). */
void ct_lower_python(char *buf, size_t cap);
bool ct_lower_script(char *buf, size_t cap);
const char *ct_lower_target(const ct_lower_opts *o);

#endif
