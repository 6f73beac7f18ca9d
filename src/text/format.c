/*
 * format.c - the textual forms of the ops, one description for the printer
 * and the parser.
 *
 * Each row of ops.def spells its op's form in the syntax of MLIR's ODS
 * assembly formats ("$ptr (`,` $mask^)? attr-dict `:` type($ptr)").  The
 * forms are read once into a list of elements per op; printing walks the
 * list writing what each element names, parsing walks the same list reading
 * it, so the two cannot disagree.  Spacing is MLIR's (OpFormatGen): a space
 * before each value and before a literal, except before `,` `)` `]` `>` and
 * the like and after `(` `[` `<` `{`.  Types the form does not spell come
 * from the segment's rule in the row (mask: i1 in the shape of the pointee),
 * resolved once everything the form spells has been read.
 */
#include "format_internal.h"
#include "ctriton/triton_version.h"

#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- the forms, read from the rows -------------------------------------- */

typedef enum fe_kind {
    FE_LIT,      /* `text` */
    FE_OPND,     /* $segment (operands) */
    FE_ATTR,     /* $attribute */
    FE_OPERANDS, /* operands */
    FE_TYPE,     /* type(...) */
    FE_PTRTYPE,  /* ptr-type(...) */
    FE_DESCTYPE, /* desc-type(...) */
    FE_FUNCTYPE, /* functional-type(operands, results) */
    FE_ATTRDICT, /* attr-dict */
    FE_GROUP,    /* ( ... )? */
    FE_OILIST,   /* oilist(a | b): its children are groups */
} fe_kind;

enum { TG_SEG, TG_OPERANDS, TG_RESULTS };

typedef struct fe {
    uint8_t kind;
    uint8_t target;  /* type directives: TG_* */
    bool result;     /* FE_OPND, type(...): a result segment */
    bool anchor;     /* `^` */
    int16_t seg;
    int16_t first, n; /* FE_GROUP, FE_OILIST: children */
    const char *text; /* FE_LIT */
    uint8_t len;
    const ct_attr_spec *attr;
} fe;

#define MAX_ELEMS 2048
#define MAX_SPELLED 8

typedef struct form {
    int first, n;
    const custom_form *custom;
    bool generic;
    const char *spelled[MAX_SPELLED + 1];
    char err[128];   /* why the row's form does not read ("" if it does) */
} form;

static fe elems[MAX_ELEMS];
static int nelems;
static form forms[CT_OP__COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

typedef struct reader {
    const char *p;
    ct_opcode op;
    const ct_op_sig *sig;
    form *f;
    bool bad;
} reader;

static void bad(reader *R, const char *what)
{
    if (!R->bad)
        snprintf(R->f->err, sizeof R->f->err, "%s at `%.20s`", what, R->p);
    R->bad = true;
}

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

static bool word(reader *R, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(R->p, w, n) || name_char(R->p[n]))
        return false;
    R->p += n;
    return true;
}

static void skip(reader *R)
{
    while (*R->p == ' ')
        R->p++;
}

static int seg_named(const ct_op_seg *s, int n, const char *name, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(s[i].name) == len && !memcmp(s[i].name, name, len))
            return i;
    return -1;
}

/* `$name` after the '$': an operand or result segment, or an attribute */
static void ref(reader *R, fe *e)
{
    const char *s = R->p;
    while (isalnum((unsigned char)*R->p) || *R->p == '_')
        R->p++;
    size_t len = (size_t)(R->p - s);
    int i = seg_named(R->sig->opnd, R->sig->nopnd_segs, s, len);
    if (i >= 0) {
        e->kind = FE_OPND;
        e->seg = (int16_t)i;
        return;
    }
    if ((i = seg_named(R->sig->res, R->sig->nres_segs, s, len)) >= 0) {
        e->kind = FE_OPND;
        e->result = true;
        e->seg = (int16_t)i;
        return;
    }
    char nm[64];
    snprintf(nm, sizeof nm, "%.*s", (int)len, s);
    const ct_attr_spec *a = ct_attr_spec_of(R->op, nm);
    if (!a) {
        bad(R, "a name that is no segment or attribute of the row");
        return;
    }
    e->kind = FE_ATTR;
    e->attr = a;
    int k = 0;
    while (R->f->spelled[k])
        k++;
    if (k < MAX_SPELLED)
        R->f->spelled[k] = a->name;
}

/* the argument of type(...), ptr-type(...), desc-type(...) */
static void type_arg(reader *R, fe *e)
{
    skip(R);
    if (*R->p == '$') {
        uint8_t kind = e->kind;
        R->p++;
        ref(R, e);
        if (e->kind != FE_OPND)
            bad(R, "a type of something that is not a segment");
        e->kind = kind;
        e->target = TG_SEG;
    } else if (word(R, "operands")) {
        e->target = TG_OPERANDS;
    } else if (word(R, "results")) {
        e->target = TG_RESULTS;
    } else {
        bad(R, "a type directive without its argument");
    }
    skip(R);
}

static void read_seq(reader *R, int *first, int *n, char stop);

/* one element into *e */
static void read_elem(reader *R, fe *e)
{
    memset(e, 0, sizeof *e);
    if (*R->p == '`') {
        const char *s = ++R->p;
        while (*R->p && *R->p != '`')
            R->p++;
        if (!*R->p || R->p == s) {
            bad(R, "an unclosed literal");
            return;
        }
        e->kind = FE_LIT;
        e->text = s;
        e->len = (uint8_t)(R->p - s);
        R->p++;
    } else if (*R->p == '$') {
        R->p++;
        ref(R, e);
        if (*R->p == '^') {
            e->anchor = true;
            R->p++;
        }
    } else if (word(R, "attr-dict")) {
        e->kind = FE_ATTRDICT;
    } else if (word(R, "operands")) {
        e->kind = FE_OPERANDS;
    } else if ((word(R, "ptr-type") && (e->kind = FE_PTRTYPE)) ||
               (word(R, "desc-type") && (e->kind = FE_DESCTYPE)) ||
               (word(R, "type") && (e->kind = FE_TYPE))) { /* kinds are nonzero */
        if (*R->p != '(') {
            bad(R, "a type directive without '('");
            return;
        }
        R->p++;
        type_arg(R, e);
        if (*R->p != ')')
            bad(R, "a type directive without ')'");
        R->p++;
    } else if (word(R, "functional-type")) {
        e->kind = FE_FUNCTYPE;
        if (*R->p != '(') {
            bad(R, "functional-type without '('");
            return;
        }
        R->p++;
        skip(R);
        if (!word(R, "operands"))
            bad(R, "functional-type of something other than (operands, results)");
        skip(R);
        if (*R->p++ != ',')
            bad(R, "functional-type without its results");
        skip(R);
        if (!word(R, "results"))
            bad(R, "functional-type of something other than (operands, results)");
        skip(R);
        if (*R->p++ != ')')
            bad(R, "functional-type without ')'");
    } else if (word(R, "oilist")) {
        e->kind = FE_OILIST;
        if (*R->p++ != '(') {
            bad(R, "oilist without '('");
            return;
        }
        /* each clause becomes a group whose anchor is its attribute */
        fe tmp[8];
        int nt = 0;
        for (;;) {
            if (nt == 8) {
                bad(R, "too many clauses");
                return;
            }
            fe *g = &tmp[nt++];
            memset(g, 0, sizeof *g);
            g->kind = FE_GROUP;
            int f0, n0;
            read_seq(R, &f0, &n0, '|');
            g->first = (int16_t)f0;
            g->n = (int16_t)n0;
            for (int i = 0; i < n0; i++)
                if (elems[f0 + i].kind == FE_ATTR)
                    elems[f0 + i].anchor = true;
            if (*R->p == '|') {
                R->p++;
                continue;
            }
            break;
        }
        if (*R->p++ != ')')
            bad(R, "oilist without ')'");
        if (nelems + nt > MAX_ELEMS) {
            bad(R, "too many elements");
            return;
        }
        e->first = (int16_t)nelems;
        e->n = (int16_t)nt;
        memcpy(&elems[nelems], tmp, sizeof(fe) * (size_t)nt);
        nelems += nt;
    } else if (*R->p == '(') {
        R->p++;
        e->kind = FE_GROUP;
        int f0, n0;
        read_seq(R, &f0, &n0, ')');
        e->first = (int16_t)f0;
        e->n = (int16_t)n0;
        if (R->p[0] != ')' || R->p[1] != '?')
            bad(R, "an optional group without ')?'");
        R->p += 2;
        int anchors = 0;
        for (int i = 0; i < n0; i++)
            anchors += elems[f0 + i].anchor;
        if (anchors != 1 || !n0)
            bad(R, "an optional group without one anchor");
    } else {
        bad(R, "an unknown directive");
        R->p++;
    }
}

/* a sequence up to `stop` (or the end) into contiguous elements */
static void read_seq(reader *R, int *first, int *n, char stop)
{
    fe tmp[40];
    int nt = 0;
    for (;;) {
        skip(R);
        if (!*R->p || *R->p == stop || (stop == '|' && *R->p == ')') || R->bad)
            break;
        if (nt == 40) {
            bad(R, "too many elements");
            break;
        }
        read_elem(R, &tmp[nt++]);
    }
    if (nelems + nt > MAX_ELEMS) {
        bad(R, "too many elements");
        nt = 0;
    }
    *first = nelems;
    *n = nt;
    memcpy(&elems[nelems], tmp, sizeof(fe) * (size_t)nt);
    nelems += nt;
}

static void read_form(ct_opcode op)
{
    form *f = &forms[op];
    const char *text = ct_op_info_of(op)->format;
    reader R = {text, op, ct_op_sig_of(op), f, false};
    if (!strncmp(text, "custom<", 7)) {
        const char *e = strchr(text, '>');
        f->custom = e ? custom_form_named(text + 7, (size_t)(e - text - 7)) : NULL;
        if (!f->custom)
            snprintf(f->err, sizeof f->err, "no custom form %s", text);
        return;
    }
    if (!strcmp(text, "generic")) {
        f->generic = true;
        return;
    }
    read_seq(&R, &f->first, &f->n, 0);
    if (*R.p && !R.bad)
        bad(&R, "text after the form");
}

static void init(void)
{
    for (int i = 0; i < CT_OP__COUNT; i++)
        read_form((ct_opcode)i);
}

static const form *form_of(ct_opcode op)
{
    pthread_once(&once, init);
    return &forms[op];
}

const custom_form *custom_form_of(ct_opcode code)
{
    return form_of(code)->custom;
}

const char *const *form_spelled(ct_opcode code)
{
    return form_of(code)->spelled;
}

/* ---- printing -------------------------------------------------------------- */

/* MLIR's spacing state (OpFormatGen): whether a space may come next, and
 * whether the last thing printed was punctuation. */
typedef struct spacing {
    bool space, punct;
} spacing;

static void print_lit(printer *p, spacing *s, const char *t, size_t n)
{
    bool before;
    if (n != 1 && !(n == 2 && !memcmp(t, "->", 2)))
        before = true;
    else if (s->punct)
        before = !memchr(">)}],", t[0], 5);
    else
        before = !memchr("<>(){}[],", t[0], 9);
    if (s->space && before)
        ct_sb_putc(&p->out, ' ');
    ct_sb_putn(&p->out, t, n);
    s->space = !(n == 1 && memchr("<({[", t[0], 4));
    s->punct = t[0] != '_' && !isalpha((unsigned char)t[0]);
}

static void value_space(printer *p, spacing *s)
{
    if (s->space || !s->punct)
        ct_sb_putc(&p->out, ' ');
    s->punct = false;
    s->space = true;
}

bool attr_in_dict(const ct_op *op, const ct_named_attr *na, const char *const *spelled)
{
    for (const char *const *s = spelled; s && *s; s++)
        if (ct_streq(*s, na->name))
            return false;
    const ct_attr_spec *sp = ct_attr_spec_of(op->code, na->name);
    return !(sp && (sp->flags & CT_AF_DROP) && ct_attr_is_default(sp, na->attr));
}

static void print_attr_dict(printer *p, const ct_op *op, const char *const *spelled)
{
    int shown = 0;
    rel_put_cache_policy(p, op, &shown); /* 3.9: the hints, first as MLIR sorts them */
    for (int i = 0; i < op->nattrs; i++) {
        const ct_named_attr *na = &op->attrs[i];
        if (!attr_in_dict(op, na, spelled))
            continue;
        P(p, shown++ ? ", " : " {");
        if (bare_ident(na->name))
            P(p, na->name);
        else
            put_string(p, na->name);
        if (na->attr->kind != CT_ATTR_UNIT) {
            P(p, " = ");
            put_attr(p, na->attr, ELIDE_MAY);
        }
    }
    if (shown)
        P(p, "}");
}

static void seg_range(const ct_op *op, bool result, int seg, int *st, int *n)
{
    if (!ct_op_segment(op, result, seg, st, n))
        *st = *n = 0;
}

static void print_seg_types(printer *p, const ct_op *op, bool result, int seg)
{
    int st, n;
    seg_range(op, result, seg, &st, &n);
    for (int i = 0; i < n; i++) {
        if (i)
            P(p, ", ");
        put_type(p, result ? op->res[st + i].type : op->opnds[st + i]->type);
    }
}

static void print_results_type(printer *p, const ct_op *op, bool parens)
{
    if (op->nres == 1 && !parens) {
        put_type(p, op->res[0].type);
        return;
    }
    P(p, "(");
    for (int i = 0; i < op->nres; i++) {
        if (i)
            P(p, ", ");
        put_type(p, op->res[i].type);
    }
    P(p, ")");
}

/* the value of attribute directive e */
static void print_attr_value(printer *p, const ct_op *op, const fe *e)
{
    const ct_attr *a = ct_op_attr(op, e->attr->name);
    if (!a) {
        P(p, "<<NULL ATTRIBUTE>>");
        return;
    }
    switch (e->attr->kind) {
    case CT_AK_UNIT:
        break; /* the keyword before it says it all */
    case CT_AK_VALUE:
        put_attr(p, a, ELIDE_NEVER);
        break;
    case CT_AK_SYMREF:
        if (a->kind == CT_ATTR_SYMREF) {
            put_symbol(p, a->s);
            break;
        }
        put_attr(p, a, ELIDE_MAY);
        break;
    default:
        put_attr(p, a, ELIDE_MAY);
        break;
    }
}

/* whether the anchor of group g is there (an attribute at its dropped default is not) */
static bool group_present(const ct_op *op, const fe *g)
{
    for (int i = 0; i < g->n; i++) {
        const fe *e = &elems[g->first + i];
        if (!e->anchor)
            continue;
        if (e->kind == FE_OPND) {
            int st, n;
            seg_range(op, e->result, e->seg, &st, &n);
            return n > 0;
        }
        if (e->kind == FE_ATTR) {
            const ct_attr *a = ct_op_attr(op, e->attr->name);
            if (!a)
                return false;
            return !((e->attr->flags & (CT_AF_DROP | CT_AF_KEEP)) &&
                     ct_attr_is_default(e->attr, a));
        }
    }
    return false;
}

/* an oilist group spelling a cache hint (`cacheModifier` `=` $cache): from Triton
 * 3.9 the hints are an attribute instead (release.c) */
static bool hint_group(const fe *g)
{
    for (int k = 0; k < g->n; k++) {
        const fe *e = &elems[g->first + k];
        if (e->kind == FE_ATTR && rel_hint_attr(e->attr->name))
            return true;
    }
    return false;
}

static void print_elems(printer *p, const ct_op *op, const form *f, int first, int n, spacing *s)
{
    for (int k = 0; k < n; k++) {
        const fe *e = &elems[first + k];
        switch ((fe_kind)e->kind) {
        case FE_LIT:
            print_lit(p, s, e->text, e->len);
            break;
        case FE_OPND: {
            value_space(p, s);
            int st, cnt;
            seg_range(op, e->result, e->seg, &st, &cnt);
            if (e->result) {
                for (int i = 0; i < cnt; i++) {
                    if (i)
                        P(p, ", ");
                    put_value(p, &op->res[st + i]);
                }
            } else {
                put_values(p, cnt ? op->opnds + st : NULL, cnt); /* no operands: opnds may be NULL */
            }
            break;
        }
        case FE_ATTR:
            if (e->attr->kind != CT_AK_UNIT) {
                value_space(p, s);
                print_attr_value(p, op, e);
            }
            break;
        case FE_OPERANDS:
            value_space(p, s);
            put_values(p, op->opnds, op->nopnds);
            break;
        case FE_TYPE:
        case FE_PTRTYPE:
        case FE_DESCTYPE:
            value_space(p, s);
            if (e->target == TG_OPERANDS)
                put_types_of(p, op->opnds, op->nopnds);
            else if (e->target == TG_RESULTS)
                print_results_type(p, op, false);
            else if (e->kind == FE_TYPE)
                print_seg_types(p, op, e->result, e->seg);
            else {
                int st, cnt;
                seg_range(op, e->result, e->seg, &st, &cnt);
                if (cnt)
                    put_stripped_type(p, e->result ? op->res[st].type : op->opnds[st]->type);
            }
            break;
        case FE_FUNCTYPE:
            value_space(p, s);
            P(p, "(");
            put_types_of(p, op->opnds, op->nopnds);
            P(p, ") -> ");
            print_results_type(p, op, false);
            break;
        case FE_ATTRDICT:
            print_attr_dict(p, op, f->spelled);
            s->punct = false;
            break;
        case FE_GROUP:
            if (group_present(op, e))
                print_elems(p, op, f, e->first, e->n, s);
            break;
        case FE_OILIST:
            for (int i = 0; i < e->n; i++) {
                const fe *g = &elems[e->first + i];
                if (group_present(op, g) && !(rel_hints_as_attr(p, op) && hint_group(g)))
                    print_elems(p, op, f, g->first, g->n, s);
            }
            break;
        }
    }
}

void form_print(printer *p, const ct_op *op)
{
    const form *f = form_of(op->code);
    if (f->generic || f->err[0]) {
        print_generic(p, op);
        return;
    }
    const ct_op_info *info = ct_op_info_of(op->code);
    ct_sb_putn(&p->out, info->name, info->name_len);
    if (f->custom) {
        f->custom->print(p, op);
        return;
    }
    spacing s = {true, false};
    print_elems(p, op, f, f->first, f->n, &s);
}

void print_generic(printer *p, const ct_op *op)
{
    /* "name"(operands) <{attrs}> ({regions}) : (types) -> (types) */
    put_string(p, ct_op_info_of(op->code)->name);
    P(p, "(");
    put_values(p, op->opnds, op->nopnds);
    P(p, ")");
    if (op->nattrs) {
        P(p, " <");
        put_attr_dict(p, op->attrs, op->nattrs, NULL, false);
        P(p, ">");
    }
    if (op->nregions) {
        P(p, " (");
        for (int i = 0; i < op->nregions; i++) {
            if (i)
                P(p, ", ");
            print_region(p, &op->regions[i], true, true);
        }
        P(p, ")");
    }
    P(p, " : (");
    put_types_of(p, op->opnds, op->nopnds);
    P(p, ") -> ");
    print_results_type(p, op, op->nres != 1);
}

/* ---- parsing ----------------------------------------------------------------- */

/* What the form has read so far. */
typedef struct fstate {
    const ct_op_sig *sig;
    ct_opcode code;
    uref *u[CT_OP_MAX_SEGS];        /* operands as written, per segment */
    int nu[CT_OP_MAX_SEGS];
    const ct_type **ot[CT_OP_MAX_SEGS]; /* their types, when the form spells them */
    int not_[CT_OP_MAX_SEGS];
    bool have_ot[CT_OP_MAX_SEGS];
    const ct_type **rt[CT_OP_MAX_SEGS]; /* result types per segment */
    int nrt[CT_OP_MAX_SEGS];
    bool have_rt[CT_OP_MAX_SEGS];
    ct_named_attr *attrs;           /* attributes the form spells */
    int nattrs, cattrs;
    attrs dict;                     /* the attr-dict */
    const char *at;
} fstate;

static void add_attr(parser *P, fstate *S, const char *name, const ct_attr *a)
{
    for (int i = 0; i < S->nattrs; i++)
        if (!strcmp(S->attrs[i].name, name))
            fail(P, "'%s' given twice", name);
    if (S->nattrs == S->cattrs) {
        int nc = S->cattrs ? S->cattrs * 2 : 4;
        ct_named_attr *na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)nc);
        if (S->nattrs)
            memcpy(na, S->attrs, sizeof(*na) * (size_t)S->nattrs);
        S->attrs = na;
        S->cattrs = nc;
    }
    S->attrs[S->nattrs].name = name;
    S->attrs[S->nattrs].attr = a;
    S->nattrs++;
}

/* a comma-separated list of types; exactly `n` when n >= 0 */
static int type_list(parser *P, int n, const ct_type ***out)
{
    int cap = n > 0 ? n : 4, k = 0;
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)cap);
    if (n == 0) {
        *out = t;
        return 0;
    }
    do {
        if (k == cap) {
            const ct_type **nt = ct_arena_alloc(P->m->arena, sizeof(*nt) * (size_t)cap * 2);
            memcpy(nt, t, sizeof(*nt) * (size_t)k);
            t = nt;
            cap *= 2;
        }
        t[k++] = parse_type(P);
    } while ((n < 0 || k < n) && accept(P, ','));
    if (n >= 0 && k != n)
        fail(P, "%d types for %d values", k, n);
    *out = t;
    return k;
}

/* a list of all operand types (in segment order) into the segments */
static void all_operand_types(parser *P, fstate *S, const ct_type **t, int n, const char *at)
{
    int total = 0;
    for (int i = 0; i < S->sig->nopnd_segs; i++)
        total += S->nu[i];
    if (n != total)
        fail_at(P, at, "%d operand types for %d operands", n, total);
    int k = 0;
    for (int i = 0; i < S->sig->nopnd_segs; i++) {
        S->ot[i] = t + k;
        S->not_[i] = S->nu[i];
        S->have_ot[i] = true;
        k += S->nu[i];
    }
}

/* result types as written (in result segment order) into the segments */
static void all_result_types(parser *P, fstate *S, const ct_type **t, int n, const char *at)
{
    const ct_op_sig *g = S->sig;
    int fixed = 0, var = -1;
    for (int i = 0; i < g->nres_segs; i++) {
        if (g->res[i].kind == CT_SEG_VAR)
            var = i;
        else
            fixed++;
    }
    if (var < 0 ? n != fixed : n < fixed)
        fail_at(P, at, "'%s' has %d result%s, not %d", opname(S->code), fixed, fixed == 1 ? "" : "s",
                n);
    int k = 0;
    for (int i = 0; i < g->nres_segs; i++) {
        int c = i == var ? n - fixed : 1;
        S->rt[i] = t + k;
        S->nrt[i] = c;
        S->have_rt[i] = true;
        k += c;
    }
}

/* an attribute directive's value */
static void parse_attr_value(parser *P, fstate *S, const fe *e)
{
    const ct_attr_spec *sp = e->attr;
    skip_ws(P);
    const char *at = P->p;
    const ct_attr *a = NULL;
    if (sp->enum_id >= 0) {
        span w = parse_id(P, sp->name);
        if (!ct_enum_value((ct_enum_id)sp->enum_id, w.s, w.n, NULL))
            fail_at(P, at, "'%.*s' is not a valid %s of '%s'", (int)w.n, w.s, sp->name,
                    opname(S->code));
        a = ct_attr_enum(P->m, dup_span(P, w));
    } else {
        switch (sp->kind) {
        case CT_AK_UNIT:
            a = ct_attr_unit(P->m);
            break;
        case CT_AK_STR:
            a = ct_attr_str(P->m, parse_string(P));
            break;
        case CT_AK_SYMREF: {
            expect(P, '@', "before the symbol");
            const char *s = peek(P) == '"' ? parse_string(P) : dup_span(P, parse_id(P, "a symbol"));
            a = ct_attr_symref(P->m, s);
            break;
        }
        case CT_AK_VALUE:
            a = parse_attr(P);
            if (a->kind != CT_ATTR_INT && a->kind != CT_ATTR_FLOAT && a->kind != CT_ATTR_DENSE &&
                a->kind != CT_ATTR_BOOL)
                fail_at(P, at, "'%s' needs an integer, float or dense value", opname(S->code));
            break;
        default:
            a = parse_attr(P);
            break;
        }
    }
    add_attr(P, S, sp->name, a);
}

static void parse_operand_seg(parser *P, fstate *S, int seg)
{
    if (S->nu[seg] || S->u[seg])
        fail(P, "operands given twice");
    if (S->sig->opnd[seg].kind == CT_SEG_VAR) {
        S->nu[seg] = parse_opt_uref_list(P, &S->u[seg]);
        if (!S->u[seg])
            S->u[seg] = ct_arena_alloc(P->m->arena, sizeof(uref));
        return;
    }
    S->u[seg] = ct_arena_alloc(P->m->arena, sizeof(uref));
    S->u[seg][0] = parse_uref(P);
    S->nu[seg] = 1;
}

/* does the group start here? (its first element decides, as in ODS) */
static bool group_starts(parser *P, const fe *g)
{
    const fe *e = &elems[g->first];
    switch ((fe_kind)e->kind) {
    case FE_LIT:
        if (e->len == 2 && !memcmp(e->text, "->", 2))
            return peek(P) == '-' && peek2(P) == '>';
        if (isalpha((unsigned char)e->text[0])) {
            span s = peek_id(P);
            return s.n == e->len && !memcmp(s.s, e->text, e->len);
        }
        return peek(P) == (unsigned char)e->text[0];
    case FE_OPND:
    case FE_OPERANDS:
        return peek(P) == '%';
    case FE_TYPE:
    case FE_PTRTYPE:
    case FE_DESCTYPE:
        return is_type_start(P);
    default:
        return false;
    }
}

static void parse_elems(parser *P, fstate *S, int first, int n);

static void parse_elem(parser *P, fstate *S, const fe *e)
{
    switch ((fe_kind)e->kind) {
    case FE_LIT:
        if (e->len == 2 && !memcmp(e->text, "->", 2)) {
            expect_arrow(P, "in the operation");
        } else if (isalpha((unsigned char)e->text[0])) {
            char w[32];
            snprintf(w, sizeof w, "%.*s", (int)e->len, e->text);
            expect_kw(P, w, "in the operation");
        } else {
            char ctx[48];
            snprintf(ctx, sizeof ctx, "in '%s'", opname(S->code));
            expect(P, e->text[0], ctx);
        }
        break;
    case FE_OPND:
        if (e->result)
            fail(P, "a result in an op's form"); /* not in ops.def: test_optable */
        parse_operand_seg(P, S, e->seg);
        break;
    case FE_ATTR:
        parse_attr_value(P, S, e);
        break;
    case FE_OPERANDS: {
        /* all operands: the row has one variadic segment and no other */
        for (int i = 0; i < S->sig->nopnd_segs; i++)
            if (S->sig->opnd[i].kind == CT_SEG_VAR)
                parse_operand_seg(P, S, i);
        break;
    }
    case FE_TYPE:
    case FE_PTRTYPE:
    case FE_DESCTYPE: {
        skip_ws(P);
        const char *at = P->p;
        if (e->target == TG_OPERANDS) {
            int total = 0;
            for (int i = 0; i < S->sig->nopnd_segs; i++)
                total += S->nu[i];
            const ct_type **t;
            int n = type_list(P, total, &t);
            all_operand_types(P, S, t, n, at);
        } else if (e->target == TG_RESULTS) {
            const ct_type **t;
            int n = parse_results(P, &t);
            all_result_types(P, S, t, n, at);
        } else if (e->kind != FE_TYPE) {
            const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t));
            t[0] = parse_stripped(P, e->kind == FE_PTRTYPE ? CT_TY_PTR : CT_TY_TENSORDESC);
            bool ok = t[0]->kind == (e->kind == FE_PTRTYPE ? CT_TY_PTR : CT_TY_TENSORDESC);
            if (!ok)
                fail_at(P, at, "'%s' needs a %s type here", opname(S->code),
                        e->kind == FE_PTRTYPE ? "pointer" : "tensor descriptor");
            if (e->result) {
                S->rt[e->seg] = t;
                S->nrt[e->seg] = 1;
                S->have_rt[e->seg] = true;
            } else {
                S->ot[e->seg] = t;
                S->not_[e->seg] = 1;
                S->have_ot[e->seg] = true;
            }
        } else if (e->result) {
            bool var = S->sig->res[e->seg].kind == CT_SEG_VAR;
            S->nrt[e->seg] = type_list(P, var ? -1 : 1, &S->rt[e->seg]);
            S->have_rt[e->seg] = true;
        } else {
            S->not_[e->seg] = type_list(P, S->nu[e->seg], &S->ot[e->seg]);
            S->have_ot[e->seg] = true;
        }
        break;
    }
    case FE_FUNCTYPE: {
        skip_ws(P);
        const char *at = P->p;
        const ct_type **ins;
        int nin = parse_type_list_paren(P, &ins);
        all_operand_types(P, S, ins, nin, at);
        expect_arrow(P, "in the operation's type");
        skip_ws(P);
        at = P->p;
        const ct_type **outs;
        int nout = parse_results(P, &outs);
        all_result_types(P, S, outs, nout, at);
        break;
    }
    case FE_ATTRDICT:
        if (S->dict.n || S->dict.at)
            fail(P, "attributes given twice");
        S->dict = parse_opt_attrs(P);
        break;
    case FE_GROUP:
        if (group_starts(P, e))
            parse_elems(P, S, e->first, e->n);
        break;
    case FE_OILIST: {
        bool seen[8] = {false};
        for (;;) {
            int hit = -1;
            for (int i = 0; i < e->n && hit < 0; i++)
                if (!seen[i] && group_starts(P, &elems[e->first + i]))
                    hit = i;
            if (hit < 0)
                break;
            seen[hit] = true;
            const fe *g = &elems[e->first + hit];
            if (hint_group(g))
                rel_note(P, P->p, REL_HINT_KEYWORDS);
            parse_elems(P, S, g->first, g->n);
        }
        break;
    }
    }
}

static void parse_elems(parser *P, fstate *S, int first, int n)
{
    for (int k = 0; k < n; k++)
        parse_elem(P, S, &elems[first + k]);
}

/* the rule environment of a form being read */
static const ct_type *fs_seg(void *ud, bool result, int seg)
{
    fstate *S = ud;
    if (result)
        return S->have_rt[seg] && S->nrt[seg] ? S->rt[seg][0] : NULL;
    return S->have_ot[seg] && S->not_[seg] ? S->ot[seg][0] : NULL;
}

static const ct_attr *fs_attr(void *ud, const char *name)
{
    fstate *S = ud;
    for (int i = 0; i < S->nattrs; i++)
        if (!strcmp(S->attrs[i].name, name))
            return S->attrs[i].attr;
    return NULL;
}

/* types the form does not spell, from the rules; a loop since rules refer to
 * each other (a load's mask follows its pointer, its result too) */
static void resolve_rules(parser *P, fstate *S)
{
    const ct_op_sig *g = S->sig;
    ct_rule_env env = {fs_seg, fs_attr, S};
    for (bool progress = true; progress;) {
        progress = false;
        for (int i = 0; i < g->nopnd_segs; i++) {
            if (S->have_ot[i] || !g->opnd[i].rule || !S->nu[i])
                continue;
            ct_type sc[8];
            const ct_type *t = ct_rule_eval(g->opnd[i].rule, &env, sc, 8);
            if (!t)
                continue;
            t = ct_type_import(P->m, t);
            S->ot[i] = ct_arena_alloc(P->m->arena, sizeof(*S->ot[i]) * (size_t)S->nu[i]);
            for (int k = 0; k < S->nu[i]; k++)
                S->ot[i][k] = t;
            S->not_[i] = S->nu[i];
            S->have_ot[i] = progress = true;
        }
        for (int i = 0; i < g->nres_segs; i++) {
            if (S->have_rt[i] || !g->res[i].rule || g->res[i].kind != CT_SEG_ONE)
                continue;
            ct_type sc[8];
            const ct_type *t = ct_rule_eval(g->res[i].rule, &env, sc, 8);
            if (!t)
                continue;
            S->rt[i] = ct_arena_alloc(P->m->arena, sizeof(*S->rt[i]));
            S->rt[i][0] = ct_type_import(P->m, t);
            S->nrt[i] = 1;
            S->have_rt[i] = progress = true;
        }
    }
}

ct_op *form_parse(parser *P, ct_opcode code, const char *at)
{
    const form *f = form_of(code);
    if (f->custom)
        return f->custom->parse(P, code, at);
    if (f->generic || f->err[0])
        fail_at(P, at, "'%s' has no custom form; write it in the generic form", opname(code));
    fstate S;
    memset(&S, 0, sizeof S);
    S.sig = ct_op_sig_of(code);
    S.code = code;
    S.at = at;
    parse_elems(P, &S, f->first, f->n);
    resolve_rules(P, &S);
    const ct_op_sig *g = S.sig;
    /* the operands, in segment order, with their types */
    int nop = 0, nres = 0;
    for (int i = 0; i < g->nopnd_segs; i++)
        nop += S.nu[i];
    ct_value **v = ct_arena_alloc(P->m->arena, sizeof(*v) * (size_t)(nop ? nop : 1));
    int k = 0;
    for (int i = 0; i < g->nopnd_segs; i++) {
        if (!S.nu[i])
            continue;
        if (!S.have_ot[i])
            fail_at(P, S.u[i][0].at, "the type of %%%.*s cannot be told from the text",
                    (int)S.u[i][0].name.n, S.u[i][0].name.s);
        for (int j = 0; j < S.nu[i]; j++)
            v[k++] = resolve(P, S.u[i][j], S.ot[i][j]);
    }
    for (int i = 0; i < g->nres_segs; i++) {
        if (!S.have_rt[i]) {
            if (g->res[i].kind == CT_SEG_ONE)
                fail_at(P, at, "the type of the result of '%s' cannot be told from the text",
                        opname(code));
            continue;
        }
        nres += S.nrt[i];
    }
    const ct_type **rt = ct_arena_alloc(P->m->arena, sizeof(*rt) * (size_t)(nres ? nres : 1));
    k = 0;
    for (int i = 0; i < g->nres_segs; i++)
        for (int j = 0; S.have_rt[i] && j < S.nrt[i]; j++)
            rt[k++] = S.rt[i][j];
    ct_op *op = new_op(P, code, nop, v, nres, rt, g->nregions);
    for (int i = 0; i < S.nattrs; i++)
        ct_op_set_attr(P->m, op, S.attrs[i].name, S.attrs[i].attr);
    apply_attrs(P, op, S.dict);
    /* defaults: the ones ctriton keeps are set, the ones it drops removed */
    int na;
    const ct_attr_spec *const *sp = ct_attr_specs_of(code, &na);
    for (int i = 0; i < na; i++) {
        const ct_attr *a = ct_op_attr(op, sp[i]->name);
        if (!a && (sp[i]->flags & CT_AF_KEEP) && sp[i]->enum_id >= 0)
            ct_op_set_attr_lit(P->m, op, sp[i]->name, ct_attr_enum_lit(P->m, sp[i]->dflt));
        else if (a && (sp[i]->flags & CT_AF_DROP) && ct_attr_is_default(sp[i], a))
            ct_op_remove_attr(op, sp[i]->name);
    }
    return op;
}

/* ---- checking the rows ----------------------------------------------------------- */

bool ct_text_forms_check(char *why, size_t cap)
{
    for (int i = 0; i < CT_OP__COUNT; i++) {
        const form *f = form_of((ct_opcode)i);
        if (f->err[0]) {
            snprintf(why, cap, "%s: %s", ct_op_info_of((ct_opcode)i)->name, f->err);
            return false;
        }
        if (f->custom || f->generic)
            continue;
        /* every operand segment appears in the form, and its type is spelled or has a rule */
        const ct_op_sig *g = ct_op_sig_of((ct_opcode)i);
        bool seen[CT_OP_MAX_SEGS] = {false}, typed[CT_OP_MAX_SEGS] = {false};
        bool rseen[CT_OP_MAX_SEGS] = {false};
        /* walk all elements of this form, groups included */
        int stack[64], ns = 0;
        for (int e = f->first + f->n - 1; e >= f->first; e--)
            stack[ns++] = e;
        while (ns) {
            const fe *e = &elems[stack[--ns]];
            if (e->kind == FE_GROUP || e->kind == FE_OILIST) {
                for (int c = e->first + e->n - 1; c >= e->first && ns < 64; c--)
                    stack[ns++] = c;
                continue;
            }
            if (e->kind == FE_OPND && !e->result)
                seen[e->seg] = true;
            if (e->kind == FE_OPERANDS)
                for (int s = 0; s < g->nopnd_segs; s++)
                    seen[s] = true;
            if ((e->kind == FE_TYPE || e->kind == FE_PTRTYPE || e->kind == FE_DESCTYPE ||
                 e->kind == FE_FUNCTYPE)) {
                if (e->kind == FE_FUNCTYPE || e->target == TG_OPERANDS)
                    for (int s = 0; s < g->nopnd_segs; s++)
                        typed[s] = true;
                if (e->kind == FE_FUNCTYPE || e->target == TG_RESULTS)
                    for (int s = 0; s < g->nres_segs; s++)
                        rseen[s] = true;
                if (e->target == TG_SEG && !e->result)
                    typed[e->seg] = true;
                if (e->target == TG_SEG && e->result)
                    rseen[e->seg] = true;
            }
        }
        for (int s = 0; s < g->nopnd_segs; s++) {
            if (!seen[s] || (!typed[s] && !g->opnd[s].rule)) {
                snprintf(why, cap, "%s: operand segment %s is %s", ct_op_info_of((ct_opcode)i)->name,
                         g->opnd[s].name, seen[s] ? "not typed" : "not in the form");
                return false;
            }
        }
        for (int s = 0; s < g->nres_segs; s++) {
            if (!rseen[s] && !g->res[s].rule) {
                snprintf(why, cap, "%s: result segment %s has no type in the form",
                         ct_op_info_of((ct_opcode)i)->name, g->res[s].name);
                return false;
            }
        }
    }
    return true;
}
