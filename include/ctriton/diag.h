/*
 * ctriton/diag.h - diagnostics: errors are values, collected, never fatal.
 *
 * Every layer reports problems into a ct_diags list: a message with the
 * place it is about (file, line, column) and, for a problem with an op, the
 * op and the call sites it was inlined from.  Nothing in the library exits
 * or aborts on bad input (or when memory runs out: the list then says "out
 * of memory"); the caller decides what to do with the list.
 */
#ifndef CTRITON_DIAG_H
#define CTRITON_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "ctriton/export.h"

CT_BEGIN_DECLS

typedef enum ct_severity { CT_NOTE, CT_WARNING, CT_ERROR } ct_severity;

typedef struct ct_diag {
    ct_severity severity;
    char *file;        /* may be NULL */
    int line, col;     /* 0 when unknown */
    char *message;
    char *op;          /* the op it is about ("tt.load"), or NULL */
    char *called_from; /* "file:line" of the call sites an inlined op was called from,
                          innermost first, ", " between them; NULL if none */
} ct_diag;

typedef struct ct_diags {
    ct_diag *items;
    int n, cap;
    int nerrors;       /* errors added, also those that could not be stored */
    bool oom;          /* a diagnostic was lost for want of memory */
} ct_diags;

/* An empty list (init); its memory released (free); emptied for reuse (clear). */
void ct_diags_init(ct_diags *d);
void ct_diags_free(ct_diags *d);
void ct_diags_clear(ct_diags *d);
/* Appends a diagnostic: severity, place (file may be NULL, 0 for an unknown line or
 * column) and a printf-style message. */
void ct_diag_add(ct_diags *d, ct_severity sev, const char *file, int line, int col,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void ct_diag_vadd(ct_diags *d, ct_severity sev, const char *file, int line, int col,
                  const char *fmt, va_list ap);
/* Whether any diagnostic is an error. */
bool ct_diags_has_errors(const ct_diags *d);

/* ---- diagnostics about ops -------------------------------------------- */

struct ct_op;

/* Where the ops of a module were written, for ops that carry no file
 * location: the parser keeps their places in the text. */
typedef struct ct_op_where {
    const char *file;
    bool (*find)(const void *ud, const struct ct_op *op, int *line, int *col);
    const void *ud;
} ct_op_where;

struct ct_module;
/* The places a parsed module's text had its ops without a file location
 * (ct_module_op_position), as a ct_op_where for ct_diag_op; finds nothing for
 * a module that was built. */
ct_op_where ct_module_where(const struct ct_module *m);

/* A diagnostic about op: "<prefix><op name>: <message>" (just the message when
 * prefix is NULL) at the op's innermost file location (its own line inside an
 * inlined helper), with the call sites it was inlined from in called_from;
 * where the text had the op (w, may be NULL) when it has no file location.
 * The one way every layer reports a problem with an op. */
void ct_diag_op(ct_diags *d, ct_severity sev, const struct ct_op *op, const ct_op_where *w,
                const char *prefix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void ct_diag_vop(ct_diags *d, ct_severity sev, const struct ct_op *op, const ct_op_where *w,
                 const char *prefix, const char *fmt, va_list ap);
/* "file:line:col: error: message", one per line; with the source line and a
 * caret under the column when `show_source` and the file can be read. */
void ct_diags_print(const ct_diags *d, FILE *out, bool show_source);
/* The first error's message, or NULL ("out of memory" if it was lost). */
const char *ct_diags_first_error(const ct_diags *d);

CT_END_DECLS
#endif
