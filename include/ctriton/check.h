/*
 * ctriton/check.h - checks on IR: the structural verifier and the lints.
 *
 * ct_verify_module checks what every later layer relies on, whatever built
 * the module (the kernel language, the TTIR parser, a pass): every op has
 * the operands, results, regions, successors and attributes its row in the
 * op table (ops.def) implies, enum attributes hold words of their enum and
 * tensors have at most CT_MAX_RANK dimensions; operand and result types obey the op's typing rule (the same
 * rules as Triton's op verifiers, e.g. tt.load's result is the pointee type
 * in the pointer's shape); every block of a structured region ends in the
 * right terminator; block arguments, loop-carried values and successor
 * operands agree in number and type; and every use is dominated by its
 * definition.  Problems are reported into `d` as errors at the op's
 * location ("file:line:col: error: tt.load: ..."); nothing aborts.
 */
#ifndef CTRITON_CHECK_H
#define CTRITON_CHECK_H

#include "ctriton/diag.h"
#include "ctriton/ir.h"
#include "ctriton/export.h"

CT_BEGIN_DECLS

/* Verifies the whole module; true when no error was found.  At most
 * `CT_VERIFY_MAX_ERRORS` errors are reported.  Writes the scratch `id` of
 * ops and blocks (positions), nothing else. */
bool ct_verify_module(const ct_module *m, ct_diags *d);

#define CT_VERIFY_MAX_ERRORS 50

/* The same, placing errors about ops without a file location where the text
 * `where` describes had them (the parser passes its positions). */
bool ct_verify_module_at(const ct_module *m, ct_diags *d, const ct_op_where *where);

/* Lints for the classic kernel mistakes, on verified IR (docs/checks.md and
 * src/check/lint.c list them): warnings for likely bugs (a masked load
 * without `other`, or with an `other` that is not the reduction's identity,
 * feeding a reduction; an unused load; an integer division by zero; a store
 * then a load of the same tensor with no barrier between them; a load or
 * store whose mask misses a dimension its offsets are bounded on; a value
 * reassigned in a loop or branch and lost; an atomic every lane aims at one
 * address) and notes for hazards (32-bit offsets from program_id, loaded
 * indices or arguments times a stride; fp32 dots in TF32).  Each message
 * starts with the lint's id in brackets.  Returns true when there is no
 * warning.  Reads nothing but the module. */
bool ct_lint_module(const ct_module *m, ct_diags *d);

/* How ct_lint_module_ex treats justified findings. */
typedef struct ct_lint_opts {
    /* Read the source files the locations name (relative paths under
     * source_root, NULL: the current directory) and drop a finding whose
     * line, or the line of the op it names as its cause, or a comment-only
     * line right above either, carries "lint-ok: ID" (ID the lint's id;
     * several ids separated by commas), followed by the reason. */
    bool read_sources;
    const char *source_root;
    /* Report the justified findings as notes ("justified: ...") instead. */
    bool show_justified;
    /* Out: the number of findings dropped as justified. */
    int justified;
} ct_lint_opts;

/* ct_lint_module, with justification comments honoured (o may be NULL). */
bool ct_lint_module_ex(const ct_module *m, ct_lint_opts *o, ct_diags *d);

CT_END_DECLS
#endif
