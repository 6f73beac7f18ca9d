/*
 * ctriton/text.h - the textual form of Triton IR: printer, parser,
 * normalizer and differ.
 *
 * The printer writes the MLIR text Triton 3.6 prints (and its parser reads):
 * the same op syntax, value naming, float literals and block annotations.
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

#ifdef __cplusplus
}
#endif
#endif
