/*
 * ttir_sig.c - the runtime parameters of a kernel's TTIR, as a launch
 * passes them (ctriton/compile.h): what `aot --ttir` and `bench --ttir`
 * make a launcher for.  Triton's JIT has already specialized the TTIR of a
 * Python kernel: constexprs and arguments equal to 1 are gone from its
 * signature, tt.divisibility = 16 marks the 16-aligned ones, and a host
 * TensorDescriptor is one !tt.tensordesc argument followed by its shape
 * (i32 each) and strides (i64 each) (Triton 3.6's make_tensordesc_arg).
 */
#include "compile_internal.h"

#include <stdio.h>
#include <string.h>

/* The scalar type of a TTIR type (TL_VOID if it has none). */
static tl_scalar scalar_of(const ct_type *t)
{
    if (t->kind == CT_TY_INT) {
        switch (t->bits) {
        case 1: return TL_INT1;
        case 8: return TL_INT8;
        case 16: return TL_INT16;
        case 32: return TL_INT32;
        case 64: return TL_INT64;
        default: return TL_VOID;
        }
    }
    if (t->kind != CT_TY_FLOAT)
        return TL_VOID;
    switch (t->fk) {
    case CT_F16: return TL_FP16;
    case CT_BF16: return TL_BF16;
    case CT_F32: return TL_FP32;
    case CT_F64: return TL_FP64;
    case CT_F8E4M3FN: return TL_FP8E4NV;
    case CT_F8E5M2: return TL_FP8E5;
    case CT_F8E4M3FNUZ: return TL_FP8E4B8;
    case CT_F8E5M2FNUZ: return TL_FP8E5B16;
    case CT_F8E4M3B11FNUZ: return TL_FP8E4B15;
    }
    return TL_VOID;
}

static bool is_ident(const char *s)
{
    if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return false;
    return true;
}

static const ct_op *find_func(const ct_module *m, const char *func)
{
    for (const ct_op *op = m->body->first; op; op = op->next) {
        if (op->code != CT_OP_TT_FUNC)
            continue;
        const char *name = ct_func_name(op);
        const ct_attr *v = ct_op_attr(op, "sym_visibility");
        if (func ? name && !strcmp(name, func) : !v || !v->s || strcmp(v->s, "private"))
            return op;
    }
    return NULL;
}

int ct_ttir_kernel_params(const ct_module *m, const char *func, const char **name,
                          ct_ttir_param *out)
{
    const ct_op *f = m ? find_func(m, func) : NULL;
    if (!f) {
        if (func)
            ct_fail(CT_ERR_INVALID, "no function @%s in the module", func);
        else
            ct_fail(CT_ERR_INVALID, "no public tt.func in the module");
        return -1;
    }
    const char *kname = ct_func_name(f);
    *name = kname;
    const ct_block *entry = ct_func_entry(f);
    const ct_attr *aattrs = ct_op_attr(f, "arg_attrs");
    int n = 0;
    for (int i = 0; i < entry->nargs; i++) {
        const ct_value *v = entry->args[i];
        const ct_type *t = v->type;
        if (n >= CT_TTIR_MAX_PARAMS) {
            ct_fail(CT_ERR_INVALID, "%s: more than %d parameters", kname, CT_TTIR_MAX_PARAMS);
            return -1;
        }
        ct_ttir_param *p = &out[n];
        memset(p, 0, sizeof *p);
        const char *nm = ct_loc_name_of(v->loc);
        if (nm && is_ident(nm)) {
            p->name = nm;
        } else {
            char buf[32];
            snprintf(buf, sizeof buf, "arg%d", i);
            p->name = ct_arena_strdup(m->arena, buf);
        }
        for (int j = 0; j < n; j++)
            if (!strcmp(out[j].name, p->name)) {
                ct_fail(CT_ERR_INVALID, "%s: two parameters are named `%s`", kname, p->name);
                return -1;
            }
        if (aattrs && aattrs->kind == CT_ATTR_ARRAY && i < aattrs->n) {
            const ct_attr *dv = ct_attr_dict_get(aattrs->elems[i], "tt.divisibility");
            p->div16 = dv && dv->kind == CT_ATTR_INT && dv->i > 0 && dv->i % 16 == 0;
        }
        if (t->kind == CT_TY_TENSORDESC && t->elem && t->elem->kind == CT_TY_TENSOR) {
            const ct_type *blk = t->elem;
            bool ok = blk->rank >= 1 && blk->rank <= 5 && i + 2 * blk->rank < entry->nargs &&
                      scalar_of(blk->elem) != TL_VOID;
            for (int j = 1; ok && j <= 2 * blk->rank; j++) {
                const ct_type *x = entry->args[i + j]->type;
                ok = x->kind == CT_TY_INT && x->bits == (j <= blk->rank ? 32 : 64);
            }
            if (!ok) {
                ct_fail(CT_ERR_INVALID,
                        "%s: tensor descriptor `%s` (rank 1 to 5) is not followed by its shape "
                        "(i32) and strides (i64)",
                        kname, p->name);
                return -1;
            }
            p->desc = true;
            p->type = scalar_of(blk->elem);
            p->rank = blk->rank;
            for (int j = 0; j < blk->rank; j++)
                p->block[j] = (int)blk->shape[j];
            i += 2 * blk->rank;
        } else if (t->kind == CT_TY_PTR) {
            p->ptr = true;
            p->type = scalar_of(t->elem);
            if (p->type == TL_VOID || t->addrspace != 1) {
                ct_fail(CT_ERR_INVALID, "%s: parameter `%s` is a pointer a launch cannot pass",
                        kname, p->name);
                return -1;
            }
        } else {
            p->type = scalar_of(t);
            if (p->type == TL_VOID) {
                char tn[128];
                ct_type_str(t, tn, sizeof tn);
                ct_fail(CT_ERR_INVALID, "%s: parameter `%s` has a type a launch cannot pass (%s)",
                        kname, p->name, tn);
                return -1;
            }
        }
        n++;
    }
    return n;
}

void ct_ttir_signature(const ct_ttir_param *p, int n, char *buf, size_t cap)
{
    size_t l = 0;
    if (cap)
        buf[0] = 0;
    for (int i = 0; i < n && l < cap; i++) {
        l += (size_t)snprintf(buf + l, cap - l, "%s%s=", i ? " " : "", p[i].name);
        if (p[i].desc) {
            if (l < cap)
                l += (size_t)snprintf(buf + l, cap - l, "tensordesc<%s[", ct__triton_name(p[i].type));
            for (int j = 0; j < p[i].rank && l < cap; j++)
                l += (size_t)snprintf(buf + l, cap - l, "%s%d", j ? "," : "", p[i].block[j]);
            if (l < cap)
                l += (size_t)snprintf(buf + l, cap - l, "]>");
        } else if (l < cap) {
            l += (size_t)snprintf(buf + l, cap - l, "%s%s%s", p[i].ptr ? "*" : "",
                                  ct__triton_name(p[i].type), p[i].div16 ? ":16" : "");
        }
    }
}
