/*
 * builder.c - the current builder, locations, diagnostics, and the IR
 * emission helpers that play the role of Triton's `ir.builder`.
 *
 * Every tl_* builtin first calls tl__at() with its call site: ops get that
 * location, and a type error is reported there.  An error yields a poison
 * tensor; builtins given poison return poison without a second report, so
 * a kernel shows each real mistake once.
 *
 * Speed: a build makes a few hundred ops, most through semantic.c's
 * general paths, so the small steps are cheap: the type and poison tests
 * are inline (lang.h), language types are interned per build and their IR
 * types cached (types.c), an op is one allocation with room for one
 * attribute (ir/ops.c), and attribute names and keywords given as literals
 * are not copied (b_attr, ct_attr_enum_lit).
 */
#include "lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Thread_local tl_builder *tl__cur;

bool tl__active(void)
{
    if (tl__cur)
        return true;
    fprintf(stderr, "ctriton: a tl_* builtin was called outside of a kernel build\n");
    return false;
}

void tl__at(tl_src at)
{
    tl_builder *b = tl__cur;
    if (!b)
        return;
    if (b->loc && b->loc_src.line == at.line && b->loc_src.col == at.col &&
        b->loc_src.file == at.file)
        return;
    b->loc_src = at;
    b->loc = ct_loc_file(b->m, at.file ? at.file : "<unknown>", at.line, at.col);
}

static void vreport(ct_severity sev, const char *fmt, va_list ap)
{
    tl_builder *b = tl__cur;
    if (!b)
        return;
    ct_diag_vadd(b->diags, sev, b->loc_src.file, b->loc_src.line, b->loc_src.col, fmt, ap);
    if (sev == CT_ERROR)
        b->nerrors++;
}

tl_tensor tl__err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(CT_ERROR, fmt, ap);
    va_end(ap);
    return tl__poison();
}

void tl__warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(CT_WARNING, fmt, ap);
    va_end(ap);
}

/* ---- values --------------------------------------------------------- */

tl_tensor tl__id(tl_tensor x)
{
    return x;
}

tl_tensor tl__from_i64(long long v)
{
    return (tl_tensor){.kind = TL_K_INT, .i = v};
}

tl_tensor tl__from_u64(unsigned long long v)
{
    return (tl_tensor){.kind = TL_K_INT, .i = (int64_t)v, .big = v > (unsigned long long)INT64_MAX};
}

tl_tensor tl__from_f64(double v)
{
    return (tl_tensor){.kind = TL_K_FLOAT, .f = v};
}

tl_tensor tl__from_bool(bool v)
{
    return (tl_tensor){.kind = TL_K_BOOL, .i = v};
}

/* A NULL dtype or string is Python's None. */
tl_tensor tl__from_dtype(tl_dtype t)
{
    return t ? (tl_tensor){.kind = TL_K_DTYPE, .type = t} : TL_NONE;
}

tl_tensor tl__from_str(const char *s)
{
    return s ? (tl_tensor){.kind = TL_K_STR, .s = s} : TL_NONE;
}

bool tl_is_none(tl_tensor x)
{
    return x.kind == TL_K_NONE;
}

bool tl_is_tensor(tl_tensor x)
{
    return x.kind == TL_K_TENSOR;
}

tl_dtype tl_type_of(tl_tensor x)
{
    return x.kind == TL_K_TENSOR ? x.type : NULL;
}

tl_dtype tl_dtype_of(tl_tensor x)
{
    return x.kind == TL_K_TENSOR ? tl__scalar(x.type) : NULL;
}

tl_dtype tl_element_ty(tl_tensor x)
{
    const tl_type *s = tl_dtype_of(x);
    return s && s->kind == TL_TY_PTR ? s->elem : NULL;
}

int tl_rank(tl_tensor x)
{
    return x.kind == TL_K_TENSOR && x.type->kind == TL_TY_BLOCK ? x.type->rank : 0;
}

int64_t tl_dim(tl_tensor x, int i)
{
    if (x.kind != TL_K_TENSOR || x.type->kind != TL_TY_BLOCK)
        return 1;
    if (i < 0)
        i += x.type->rank;
    return i >= 0 && i < x.type->rank ? x.type->shape[i] : 1;
}

int64_t tl_numel(tl_tensor x)
{
    int64_t n = 1;
    for (int i = 0; i < tl_rank(x); i++)
        n *= x.type->shape[i];
    return n;
}

tl_shape_t tl_shape_of(tl_tensor x)
{
    tl_shape_t s = {0};
    s.rank = tl_rank(x);
    for (int i = 0; i < s.rank; i++)
        s.d[i] = x.type->shape[i];
    return s;
}

/* Python's repr() of a float: the shortest text that reads back. */
static void py_float_repr(double v, ct_strbuf *out)
{
    if (v != v) {
        ct_sb_puts(out, "nan");
        return;
    }
    if (v == 1.0 / 0.0 || v == -1.0 / 0.0) {
        ct_sb_puts(out, v > 0 ? "inf" : "-inf");
        return;
    }
    char buf[64];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* digits and decimal exponent */
    char digits[32];
    int nd = 0;
    const char *p = buf;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        p++;
    }
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits[nd++] = *p;
    int e10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = 0;
    if (neg)
        ct_sb_putc(out, '-');
    if (e10 < -4 || e10 >= 16) {
        ct_sb_putc(out, digits[0]);
        if (nd > 1) {
            ct_sb_putc(out, '.');
            ct_sb_puts(out, digits + 1);
        }
        ct_sb_printf(out, "e%c%02d", e10 < 0 ? '-' : '+', e10 < 0 ? -e10 : e10);
    } else if (e10 < 0) {
        ct_sb_puts(out, "0.");
        for (int i = 0; i < -e10 - 1; i++)
            ct_sb_putc(out, '0');
        ct_sb_puts(out, digits);
    } else {
        for (int i = 0; i <= e10; i++)
            ct_sb_putc(out, i < nd ? digits[i] : '0');
        ct_sb_putc(out, '.');
        if (nd > e10 + 1)
            ct_sb_puts(out, digits + e10 + 1);
        else
            ct_sb_putc(out, '0');
    }
}

void tl__repr_number(tl_tensor x, ct_strbuf *out)
{
    switch (x.kind) {
    case TL_K_INT:
        if (x.big)
            ct_sb_printf(out, "%llu", (unsigned long long)x.i);
        else
            ct_sb_putint(out, (long long)x.i);
        break;
    case TL_K_BOOL:
        ct_sb_puts(out, x.i ? "True" : "False");
        break;
    case TL_K_FLOAT:
        py_float_repr(x.f, out);
        break;
    case TL_K_DTYPE: {
        char buf[64];
        ct_sb_puts(out, tl_type_name(x.type, buf, sizeof buf));
        break;
    }
    case TL_K_STR:
        ct_sb_puts(out, x.s ? x.s : "None");
        break;
    default:
        ct_sb_puts(out, "None");
        break;
    }
}

int tl__flatten(tl_tensor v, ct_value **out)
{
    if (v.kind == TL_K_TENSOR) {
        out[0] = v.handle;
        return 1;
    }
    if (v.kind == TL_K_AGG && v.agg) {
        for (int i = 0; i < v.agg->nvals; i++)
            out[i] = v.agg->vals[i];
        return v.agg->nvals;
    }
    return 0;
}

tl_tensor tl__unflatten(tl_tensor proto, ct_value *const *hs)
{
    if (proto.kind == TL_K_TENSOR)
        return tl__tensor(hs[0], proto.type);
    if (proto.kind != TL_K_AGG || !proto.agg)
        return proto;
    tl_agg *a = ct_arena_alloc(B->m->arena, sizeof *a);
    *a = *proto.agg;
    for (int i = 0; i < a->nvals; i++)
        a->vals[i] = hs[i];
    proto.agg = a;
    return proto;
}

tl_tensor tl__opt_tensor_(int n, ...)
{
    if (n == 0)
        return TL_NONE;
    va_list ap;
    va_start(ap, n);
    tl_tensor t = va_arg(ap, tl_tensor);
    va_end(ap);
    return t;
}

/* ---- IR emission ------------------------------------------------------ */

void b_set_ip(ct_block *b, ct_op *before)
{
    tl__cur->block = b;
    tl__cur->before = before;
}

ct_block *b_new_block_in(ct_region *r)
{
    ct_block *b = ct_block_new(tl__cur->m);
    if (r)
        ct_region_append(r, b);
    return b;
}

ct_op *b_op(ct_opcode code, int nopnds, ct_value *const *opnds, int nres,
            const ct_type *const *restypes)
{
    tl_builder *b = tl__cur;
    tl__check_uses(nopnds, opnds);
    ct_op *op = ct_op_new(b->m, code, nopnds, opnds, nres, restypes, 0, b->loc);
    ct_block_insert_before(b->block, b->before, op);
    return op;
}

ct_value *b_op1(ct_opcode code, int nopnds, ct_value *const *opnds, const ct_type *restype)
{
    return &b_op(code, nopnds, opnds, 1, &restype)->res[0];
}

void b_attr(ct_op *op, const char *name, const ct_attr *a)
{
    ct_op_set_attr_lit(tl__cur->m, op, name, a);
}

void b_enum(ct_op *op, const char *name, const char *word)
{
    const ct_attr_spec *s = ct_attr_spec_of(op->code, name);
    int n = 0;
    const ct_enum_case *c = s && s->enum_id >= 0 ? ct_enum_cases((ct_enum_id)s->enum_id, &n, NULL)
                                                 : NULL;
    for (int i = 0; i < n; i++)
        if (!strcmp(c[i].word, word)) {
            b_attr(op, name, ct_attr_enum_lit(tl__cur->m, c[i].word)); /* the table's word */
            return;
        }
    tl__err("internal error: `%s` is not a keyword of %s's %s (ops.def)", word,
            ct_op_info_of(op->code)->name, name);
}

ct_value *b_const_attr(const ct_attr *a, const ct_type *t)
{
    ct_op *op = b_op(CT_OP_ARITH_CONSTANT, 0, NULL, 1, &t);
    b_attr(op, "value", a);
    return &op->res[0];
}

ct_value *b_const_int(const ct_type *t, int64_t v)
{
    return b_const_attr(ct_attr_int(tl__cur->m, t, v), t);
}

ct_value *b_const_float(const ct_type *t, double v)
{
    return b_const_attr(ct_attr_float(tl__cur->m, t, ct_float_round(v, t->fk)), t);
}

ct_value *b_poison(const ct_type *t)
{
    return b_op1(CT_OP_UB_POISON, 0, NULL, t);
}

/* The attribute of an arith.constant defining v, or NULL. */
static const ct_attr *const_of(const ct_value *v)
{
    if (!v->def || v->def->code != CT_OP_ARITH_CONSTANT)
        return NULL;
    return ct_op_attr(v->def, "value");
}

ct_value *b_splat(const ct_type *t, ct_value *v)
{
    const ct_attr *c = const_of(v);
    if (c && (c->kind == CT_ATTR_INT || c->kind == CT_ATTR_FLOAT)) {
        /* SplatOp::fold: a dense splat constant */
        ct_module *m = tl__cur->m;
        const ct_attr *d = c->kind == CT_ATTR_INT ? ct_attr_dense_int(m, t, 1, &c->i)
                                                  : ct_attr_dense_float(m, t, 1, &c->f);
        return b_const_attr(d, t);
    }
    return b_op1(CT_OP_TT_SPLAT, 1, &v, t);
}

ct_value *b_broadcast(const ct_type *t, ct_value *v)
{
    if (v->type == t)
        return v; /* BroadcastOp::fold: no-op */
    const ct_attr *c = const_of(v);
    if (c && c->kind == CT_ATTR_DENSE && c->n == 1) {
        ct_module *m = tl__cur->m;
        const ct_attr *d = c->fvals ? ct_attr_dense_float(m, t, 1, c->fvals)
                                    : ct_attr_dense_int(m, t, 1, c->ivals);
        return b_const_attr(d, t);
    }
    return b_op1(CT_OP_TT_BROADCAST, 1, &v, t);
}

ct_value *b_int_cast(ct_value *v, const ct_type *t, bool is_signed)
{
    int sw = ct_type_scalar(v->type)->bits, dw = ct_type_scalar(t)->bits;
    ct_opcode code = sw == dw   ? CT_OP_ARITH_BITCAST
                     : sw > dw  ? CT_OP_ARITH_TRUNCI
                     : is_signed ? CT_OP_ARITH_EXTSI
                                 : CT_OP_ARITH_EXTUI;
    return b_op1(code, 1, &v, t);
}

/* ---- constexpr accessors ------------------------------------------------ */

static const char *kind_name(tl_tensor x)
{
    static char buf[96];
    switch (x.kind) {
    case TL_K_INT:
        return "a constexpr int";
    case TL_K_FLOAT:
        return "a constexpr float";
    case TL_K_BOOL:
        return "a constexpr bool";
    case TL_K_NONE:
        return "None";
    case TL_K_POISON:
        return "an erroneous value";
    case TL_K_DTYPE:
        return "a constexpr dtype";
    case TL_K_STR:
        return "a constexpr string";
    default:
        snprintf(buf, sizeof buf, "a tensor of type %s", tl_type_name(x.type, buf + 64, 32));
        return buf;
    }
}

tl_dtype tl__cx_dtype(tl_tensor x, tl_src at)
{
    if (x.kind == TL_K_DTYPE)
        return x.type;
    if (x.kind == TL_K_NONE)
        return NULL;
    if (tl__cur && !tl__is_poison(x)) {
        tl__at(at);
        tl__err("expected a constexpr dtype here, got %s", kind_name(x));
    }
    return NULL;
}

const char *tl__cx_str(tl_tensor x, tl_src at)
{
    if (x.kind == TL_K_STR)
        return x.s;
    if (x.kind == TL_K_NONE)
        return NULL;
    if (tl__cur && !tl__is_poison(x)) {
        tl__at(at);
        tl__err("expected a constexpr string here, got %s", kind_name(x));
    }
    return NULL;
}

int64_t tl__cx_int(tl_tensor x, tl_src at)
{
    if (x.kind == TL_K_INT || x.kind == TL_K_BOOL)
        return x.i;
    if (tl__cur && !tl__is_poison(x)) {
        tl__at(at);
        tl__err("expected a constexpr int here, got %s (a tensor cannot be used where the value "
                "must be known when the kernel is built)",
                kind_name(x));
    }
    return 1; /* a harmless value (a valid block size), so that nothing else is reported */
}

double tl__cx_float(tl_tensor x, tl_src at)
{
    if (x.kind == TL_K_FLOAT)
        return x.f;
    if (x.kind == TL_K_INT || x.kind == TL_K_BOOL)
        return x.big ? (double)(uint64_t)x.i : (double)x.i;
    if (tl__cur && !tl__is_poison(x)) {
        tl__at(at);
        tl__err("expected a constexpr float here, got %s", kind_name(x));
    }
    return 1;
}

bool tl__cx_bool(tl_tensor x, tl_src at)
{
    if (x.kind == TL_K_BOOL || x.kind == TL_K_INT)
        return x.i != 0 || x.big;
    if (x.kind == TL_K_FLOAT)
        return x.f != 0;
    if (x.kind == TL_K_NONE)
        return false;
    if (tl__cur && !tl__is_poison(x)) {
        tl__at(at);
        tl__err("expected a constexpr bool here, got %s", kind_name(x));
    }
    return false;
}
