/*
 * ctriton/text.h - the textual form of Triton IR: printer, parser,
 * normalizer and differ.
 *
 * The printer writes the MLIR text Triton prints (and its parser reads): the
 * same op syntax, value naming, float literals and block annotations, in the
 * spellings of the module's Triton release (ct_module.triton; the few that
 * differ between releases are listed in ctriton/triton_version.h).
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
#include "ctriton/export.h"

CT_BEGIN_DECLS

enum {
    CT_PRINT_LOCS = 1,        /* trailing loc(...) on ops, args and functions */
    CT_PRINT_LOC_ALIASES = 2, /* with LOCS: #locN aliases like Triton writes */
    CT_PRINT_NUMBERED = 4,    /* number values (%0, %arg1), ignoring name locations */
};

/* Prints a module.  Returns a malloc'd string the caller frees.  The
 * printers write the scratch `id` of the values they name (see ir.h). */
char *ct_print_module(const ct_module *m, unsigned flags);
/* Prints one op (and what it contains) with the naming of its function. */
char *ct_print_op(const ct_op *op, unsigned flags);

/* ---- parser -------------------------------------------------------- */

/* Parses the text of a module (exactly `len` bytes; no NUL needed).
 * Returns a new module that the caller destroys with ct_module_destroy, or
 * NULL after adding at least one error to `diags`, located at
 * `filename`:line:col of the text (`filename` may be NULL: "<input>").
 * Never crashes, aborts or leaks on malformed text.  Reads what Triton 3.6
 * to 3.9 print for TTIR: custom and generic op forms, #loc aliases, name,
 * callsite and fused locations, each release's spellings; the module records
 * the releases the text can be (text_lo..text_hi, text_why the spelling that
 * says so) and its `triton` is the default target if among them, else the
 * oldest; a text mixing two releases' spellings is refused.  TTGIR
 * (encodings, ttg ops but ttg.barrier) is refused with an error. */
ct_module *ct_parse_module(const char *text, size_t len, const char *filename, ct_diags *diags);

/* Reads and parses a file; NULL with an error in diags if it cannot be read. */
ct_module *ct_parse_file(const char *path, ct_diags *diags);

/* ---- normalizer ---------------------------------------------------- */

enum {
    CT_NORM_KEEP_LOCS = 1,      /* keep locations (the differ uses them to point at sources) */
    CT_NORM_NO_INLINE = 2,      /* leave tt.call ops alone */
    CT_NORM_RENAME_SYMBOLS = 4, /* rename private functions f0, f1, ... (not sound: their
                                   names are LLVM symbols) */
};

/* Rewrites `m` in place into the canonical form the raw gate compares:
 * tt.calls inlined (except to `noinline` functions), blocks unreachable
 * from their region's entry removed, ops without effects whose results are
 * unused removed (the op table's PURE flag, plus reads), private functions
 * no longer called removed, locations replaced by `unknown` (unless
 * CT_NORM_KEEP_LOCS).  It never reorders, merges or retypes anything; the
 * top of normalize.c lists what Triton's passes do that it does not model.
 * A call that cannot be inlined (unknown callee, several blocks, recursion)
 * stays, with a warning in diags (which may be NULL).  Returns true. */
bool ct_normalize(ct_module *m, unsigned flags, ct_diags *diags);

/* ---- differ -------------------------------------------------------- */

typedef struct ct_diff_result {
    bool equal;
    int nadded, nremoved; /* lines only in b / only in a, of the normalized texts */
    char *first;          /* NULL if equal; else the first diverging line of each side,
                             with the op it belongs to and its source location */
    char *text;           /* unified diff of the normalized texts ("" if equal) */
} ct_diff_result;

/* Normalizes `a` and `b` in place (ct_normalize, keeping locations for the
 * report) and compares their printed forms, values numbered.  `name_a` and
 * `name_b` label the sides.  Fills *out (free it with ct_diff_result_free);
 * warnings of the normalizer go to diags (may be NULL). */
bool ct_diff_modules(ct_module *a, ct_module *b, const char *name_a, const char *name_b,
                     ct_diff_result *out, ct_diags *diags);

enum {
    CT_DIFF_EXACT = 1, /* no normalization: the raw modules as written, an unused op or a
                          call left to inline is a difference (value names, locations and
                          each release's spellings still do not count) */
};

/* ct_diff_modules with `flags` (CT_DIFF_EXACT); flags 0 is ct_diff_modules. */
bool ct_diff_modules_flags(ct_module *a, ct_module *b, const char *name_a, const char *name_b,
                           unsigned flags, ct_diff_result *out, ct_diags *diags);
void ct_diff_result_free(ct_diff_result *r);

CT_END_DECLS
#endif
