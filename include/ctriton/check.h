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

/* Lints for the classic kernel mistakes, on verified IR (see src/check/lint.c
 * for the list): warnings for likely bugs (a masked load without `other`
 * feeding a reduction, an unused load, an integer division by zero) and
 * notes for hazards (32-bit offsets from program_id * stride, fp32 dots in
 * TF32).  Each message starts with the lint's id in brackets.  Returns true
 * when there is no warning. */
bool ct_lint_module(const ct_module *m, ct_diags *d);

CT_END_DECLS
#endif
