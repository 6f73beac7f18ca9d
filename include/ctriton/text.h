/*
 * ctriton/text.h - the textual form of Triton IR: printer, parser,
 * normalizer and differ.
 *
 * The printer writes the MLIR text Triton 3.6 prints (and its parser reads):
 * the same op syntax, value naming, float literals and block annotations.
 * The parser reads that text back, raw frontend output (`.source`) and the
 * output of the ttir passes alike.  The normalizer rewrites a module into a
 * canonical form (calls inlined, dead code and locations dropped) so that two
 * modules that lower to the same code print the same; the differ compares
 * two normalized modules and says where they first part.
 *
 * Ownership: strings returned here are malloc'd and freed by the caller;
 * modules are destroyed with ct_module_destroy; diagnostics are appended to
 * the caller's ct_diags.
 */
#ifndef CTRITON_TEXT_H
#define CTRITON_TEXT_H

#include "ctriton/diag.h"
#include "ctriton/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CT_PRINT_LOCS = 1,        /* trailing loc(...) on ops, args and functions */
    CT_PRINT_LOC_ALIASES = 2, /* with LOCS: #locN aliases like Triton writes */
};

/* Prints a module.  Returns a malloc'd string the caller frees. */
char *ct_print_module(const ct_module *m, unsigned flags);
/* Prints one op (and what it contains) with the naming of its function. */
char *ct_print_op(const ct_op *op, unsigned flags);

/* ---- parser -------------------------------------------------------- */

/* Parses the text of a module (exactly `len` bytes; no NUL needed).
 * Returns a new module that the caller destroys with ct_module_destroy, or
 * NULL after adding at least one error to `diags`, located at
 * `filename`:line:col of the text (`filename` may be NULL: "<input>").
 * Never crashes, aborts or leaks on malformed text.  Reads what Triton 3.6
 * prints for TTIR: custom and generic op forms, #loc aliases, name, callsite
 * and fused locations.  TTGIR (encodings, ttg ops) is refused with an error. */
ct_module *ct_parse_module(const char *text, size_t len, const char *filename, ct_diags *diags);

/* Reads and parses a file; NULL with an error in diags if it cannot be read. */
ct_module *ct_parse_file(const char *path, ct_diags *diags);

/* ---- normalizer ---------------------------------------------------- */

enum {
    CT_NORM_KEEP_LOCS = 1,  /* keep locations (the differ uses them to point at source lines) */
    CT_NORM_NO_INLINE = 2,  /* leave tt.call ops alone */
};

/* Rewrites `m` in place into the canonical form the raw gate compares:
 * every tt.call to a function of the module inlined (then the private
 * functions no longer called are dropped), blocks unreachable from their
 * region's entry removed, ops without side effects whose results are unused
 * removed (the op table's PURE flag), locations replaced by `unknown`
 * (unless CT_NORM_KEEP_LOCS), and the remaining private functions renamed
 * in order of first use.  It never reorders operands, results, iter_args,
 * ops with side effects or casts, and never changes a type: see
 * docs in normalize.c for what it deliberately does not model.  Returns
 * false and adds an error to diags (if non-NULL) when a call cannot be
 * inlined (unknown callee, recursion, mismatched signature); `m` is still
 * valid then, with that call left in place. */
bool ct_normalize(ct_module *m, unsigned flags, ct_diags *diags);

/* ---- differ -------------------------------------------------------- */

typedef struct ct_diff_result {
    bool equal;
    int nadded, nremoved;   /* lines only in b / only in a (of the normalized text) */
    char *text;             /* unified diff of the normalized texts, "" if equal (malloc'd) */
    char *first;            /* the first diverging op of each side with its source
                               location, or NULL if equal (malloc'd) */
} ct_diff_result;

/* Normalizes copies of... no: normalizes `a` and `b` in place (see
 * ct_normalize) and compares their printed forms.  Names (`name_a`,
 * `name_b`) label the two sides in the report.  Returns false only if a
 * module cannot be normalized (then diags says why). */
bool ct_diff_modules(ct_module *a, ct_module *b, const char *name_a, const char *name_b,
                     ct_diff_result *out, ct_diags *diags);
void ct_diff_result_free(ct_diff_result *r);

#ifdef __cplusplus
}
#endif
#endif
