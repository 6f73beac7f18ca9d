/*
 * ctriton/diag.h - diagnostics: errors are values, collected, never fatal.
 *
 * Every layer reports problems into a ct_diags list: a message with the
 * place it is about (file, line, column).  Nothing in the library exits or
 * aborts on bad input; the caller decides what to do with the list.
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
    char *file;     /* may be NULL */
    int line, col;  /* 0 when unknown */
    char *message;
} ct_diag;

typedef struct ct_diags {
    ct_diag *items;
    int n, cap;
    int nerrors;
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
/* "file:line:col: error: message", one per line; with the source line and a
 * caret under the column when `show_source` and the file can be read. */
void ct_diags_print(const ct_diags *d, FILE *out, bool show_source);
/* The first error's message, or NULL. */
const char *ct_diags_first_error(const ct_diags *d);

CT_END_DECLS
#endif
