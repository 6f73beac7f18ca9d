/*
 * format_internal.h - the ops' textual forms (ops.def's FORMAT), shared by
 * the printer and the parser: format.c reads each row's form once and
 * interprets it both ways; forms.c holds the forms of their own
 * (custom<Name>: scf.for, scf.if, tt.func, ...), each printer beside its
 * parser.  Include after print_internal.h and parse_internal.h.
 */
#ifndef CTRITON_FORMAT_INTERNAL_H
#define CTRITON_FORMAT_INTERNAL_H

#include "parse_internal.h"
#include "print_internal.h"

/* ---- format.c ------------------------------------------------------- */

/* Prints op after its results: its name and the rest of its form (not its
 * location). */
#define form_print ct_tf_form_print
void form_print(printer *p, const ct_op *op);
/* Parses the rest of an op whose name has been read (at: where it starts). */
#define form_parse ct_tf_form_parse
ct_op *form_parse(parser *P, ct_opcode code, const char *at);
/* Whether every row's form reads and agrees with the row's segments; the
 * first problem into why.  (test_optable) */
bool ct_text_forms_check(char *why, size_t cap);

/* The attributes a form spells (not repeated in its attr-dict); NULL-terminated. */
#define form_spelled ct_tf_form_spelled
const char *const *form_spelled(ct_opcode code);
/* Whether op's attribute na is printed in its attr-dict: not spelled by the
 * form, and not a default value the op does not keep (ops.def's OPT_DROP). */
#define attr_in_dict ct_tf_attr_in_dict
bool attr_in_dict(const ct_op *op, const ct_named_attr *na, const char *const *spelled);

/* ---- forms.c: custom<Name> ----------------------------------------------- */

typedef struct custom_form {
    const char *name;
    void (*print)(printer *p, const ct_op *op);         /* after the op name */
    ct_op *(*parse)(parser *P, ct_opcode code, const char *at);
    /* how the form prints its regions (the printer's location aliases follow it):
     * bit i of header_args: region i's entry block arguments are written in the
     * op's header (scf.for's induction variable), not as block arguments; with
     * header_locs, their loc(...) too (tt.func's arguments); elide_yields: the
     * terminators are left out when the op has no results (scf.for, scf.if) */
    unsigned header_args;
    bool header_locs, elide_yields;
} custom_form;

/* The custom form called `name` (len bytes), NULL if none. */
#define custom_form_named ct_tf_custom_form_named
const custom_form *custom_form_named(const char *name, size_t len);

/* The custom form op's row names (custom<Name>), NULL when it has none. */
#define custom_form_of ct_tf_custom_form_of
const custom_form *custom_form_of(ct_opcode code);

/* The generic form ("name"(operands) <{attrs}> ({regions}) : (types) -> types)
 * of any op, which is how tt.reduce, tt.scan and tt.map_elementwise print. */
#define print_generic ct_tf_print_generic
void print_generic(printer *p, const ct_op *op);

#endif
