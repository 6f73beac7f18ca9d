/*
 * lint_internal.h - what the lint passes share (src/check/lint*.c): the
 * use lists of a module, reporting at an op, and the walks over values
 * the passes have in common.
 */
#ifndef CTRITON_LINT_INTERNAL_H
#define CTRITON_LINT_INTERNAL_H

#include "ctriton/check.h"
#include "util/util.h"

typedef struct lint_uses {
    int n, cap;
    const ct_op **ops;
    int *slots;        /* which operand */
} lint_uses;

typedef struct linter {
    const ct_module *m;
    ct_diags *d;
    const ct_lint_opts *opts;
    int nwarnings, njustified;
    ct_ptrmap users;    /* ct_value* -> lint_uses* */
    lint_uses **all;    /* every uses record, for freeing */
    int nall, call;
    ct_ptrmap reported; /* ops (or products) already reported, per lint */
    char **srcfiles;    /* justification: source files read (names, texts) */
    char **srctexts;
    int nsrc;
} linter;

/* The uses of v (NULL when it has none and !create). */
lint_uses *lint_uses_of(linter *L, const ct_value *v, bool create);
/* Reports a finding of lint `id` at op; `cause` (may be NULL) is the op the
 * message points at as the origin.  A finding whose line (or its cause's)
 * carries a justification comment naming the lint ("lint-ok: id ...") is
 * counted as justified instead, or reported as a note when opts asks. */
void lint_report(linter *L, ct_severity sev, const char *id, const ct_op *op, const ct_op *cause,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The line of op's outermost file location (0 when unknown). */
int lint_line_of(const ct_op *op);
/* The name a value carries in the TTIR (a parameter's loc("x_ptr")), or NULL. */
const char *lint_value_name(const ct_value *v);
/* Whether two values are the same, or computed by the same pure ops from the
 * same values (Python recomputes `x_ptr + offs` for each use). */
bool lint_same_value(const ct_value *a, const ct_value *b, int depth);
/* The integer or float constant a value splats (through splat/broadcast), if any. */
bool lint_const_of(const ct_value *v, double *out);

/* The passes of lint_flow.c. */
void lint_store_load(linter *L);
void lint_masks(linter *L);
void lint_lost_update(linter *L);

#endif
