/* text_internal.h - helpers shared by the printer, parser and normalizer. */
#ifndef CTRITON_TEXT_INTERNAL_H
#define CTRITON_TEXT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctriton/float.h"
#include "ctriton/ir.h"

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
