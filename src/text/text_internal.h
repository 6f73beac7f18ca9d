/* text_internal.h - helpers shared by the printer, parser and normalizer. */
#ifndef CTRITON_TEXT_INTERNAL_H
#define CTRITON_TEXT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctriton/float.h"
#include "ctriton/ir.h"

/* ---- enum attributes (enums.c) ------------------------------------- */

typedef struct ct_enum_case {
    const char *word;  /* the keyword of the custom form: "slt" */
    int64_t value;     /* the integer of the generic form: 2 */
} ct_enum_case;

/* The cases of an op's enum attribute, or NULL if `attr` is not an enum of
 * `op`; *bits is the integer width the generic form uses (i32 or i64). */
const ct_enum_case *ct_enum_cases(ct_opcode op, const char *attr, int *n, int *bits);
const char *ct_enum_word(ct_opcode op, const char *attr, int64_t value);
bool ct_enum_value(ct_opcode op, const char *attr, const char *word, size_t len, int64_t *value);

/* ---- printing with a line map (print.c) ----------------------------- */

/* ct_print_module, and for each line of the text the op printed on it
 * (NULL for lines where no op starts).  *lines is malloc'd (*nlines
 * entries) and freed by the caller. */
char *ct_print_module_lines(const ct_module *m, unsigned flags, const ct_op ***lines, int *nlines);

/* ---- name hints (parse.c, print.c) ---------------------------------- */

/* The block arguments an op header names (`scf.for %k = ...`,
 * `scf.while (%t = ...)`) have no location in the text, so the parser
 * keeps their names as NameLoc(name, &ct_loc_name_hint): a marker child
 * that tells the printer the name is the one MLIR printed (possibly with a
 * _N suffix MLIR added to make it unique), not a name to make unique. */
extern const ct_loc ct_loc_name_hint;

#endif
