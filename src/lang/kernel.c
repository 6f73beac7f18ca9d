/*
 * kernel.c - building a kernel's module: the JIT's specialization
 * (signature strings, divisibility, ints equal to 1 folded into
 * constants, constexprs) and the public tt.func the body is traced into.
 *
 * Signature strings use Triton's spelling, per runtime parameter in order
 * or as name=type pairs: "*fp32:16" (a pointer known to be 16-byte
 * aligned: tt.divisibility = 16), "*kfp16" (const pointer), "i32",
 * "i64:16" (an int divisible by 16), "fp32", "1" (an int equal to 1,
 * which the JIT turns into a constant and drops from the signature) or
 * "None" (a None argument: a constexpr None, dropped from the signature
 * too; the body sees TL_NONE).
 */
#include "ctriton/check.h"
#include "lang.h"
#include "util/alloc.h"

#include <setjmp.h>

#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tl_options_default(tl_options *o)
{
    memset(o, 0, sizeof *o);
    o->num_warps = 4;
    o->num_stages = 3;
    o->num_ctas = 1;
    o->sanitize_overflow = true;
    /* Triton's default when the options leave it out: $TRITON_DEFAULT_FP_FUSION
     * (knobs.language.default_fp_fusion; GetEnv.hpp: "1", "true", "on" in any case
     * are true), true when unset */
    const char *e = getenv("TRITON_DEFAULT_FP_FUSION");
    o->enable_fp_fusion = true;
    if (e) {
        char w[8] = {0};
        for (int i = 0; e[i] && i < 7; i++)
            w[i] = (char)tolower((unsigned char)e[i]);
        o->enable_fp_fusion = strlen(e) < 7 && (!strcmp(w, "1") || !strcmp(w, "true") ||
                                                !strcmp(w, "on"));
    }
    o->arch = 90;
}

static char *skip_ws(char *p)
{
    while (*p && (isspace((unsigned char)*p) || *p == ','))
        p++;
    return p;
}

/* "tensordesc<fp16[64,64]>": a tensor descriptor argument (host-side TMA descriptor) */
static const tl_type *parse_desc_ty(const char *s)
{
    const char *lt = strchr(s, '<'), *lb = strchr(s, '['), *rb = strchr(s, ']');
    if (!lt || !lb || !rb || lb < lt || rb < lb || strcmp(rb, "]>") != 0)
        return NULL;
    char dt[32];
    size_t n = (size_t)(lb - lt - 1);
    if (n == 0 || n >= sizeof dt)
        return NULL;
    memcpy(dt, lt + 1, n);
    dt[n] = 0;
    const tl_type *e = tl_dtype_from_name(dt);
    if (!e)
        return NULL;
    int64_t shape[CT_MAX_RANK];
    int rank = 0;
    const char *p = lb + 1;
    while (p < rb) {
        while (p < rb && (*p == ' ' || *p == ','))
            p++;
        if (p >= rb)
            break;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || v <= 0 || rank >= 5)
            return NULL;
        shape[rank++] = v;
        p = end;
    }
    if (rank < 1)
        return NULL;
    return tl__desc_type(tl__block_type(e, rank, shape));
}

/* One Triton type string ("*fp32", "*kbf16", "i32", "tensordesc<fp16[64,64]>", ...); NULL if
 * malformed. */
static const tl_type *parse_ty(const char *s)
{
    if (!strncmp(s, "tensordesc<", 11))
        return parse_desc_ty(s);
    if (*s == '*') {
        s++;
        bool is_const = false;
        if (*s == 'k') {
            is_const = true;
            s++;
        }
        const tl_type *e = parse_ty(s);
        return e ? tl_pointer_type_ex(e, 1, is_const) : NULL;
    }
    return tl_dtype_from_name(s);
}

bool tl_parse_signature(const tl_kernel_def *k, const char *sig, tl_sig_param *out,
                        ct_diags *d)
{
    for (int i = 0; i < k->nparams; i++)
        out[i] = (tl_sig_param){0};
    char *buf = ct_xstrdup(sig ? sig : "");
    if (!buf)
        return false;
    char *p = skip_ws(buf);
    int pos = 0;
    bool ok = true;
    while (*p) {
        char *start = p;
        int depth = 0; /* inside <...> a space or comma does not end the entry */
        while (*p && (depth > 0 || (!isspace((unsigned char)*p) && *p != ','))) {
            depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
            p++;
        }
        char saved = *p;
        *p = 0;
        char *tok = start;
        int idx = pos;
        char *eq = strchr(tok, '=');
        if (eq) {
            *eq = 0;
            idx = -1;
            for (int i = 0; i < k->nparams; i++)
                if (!strcmp(k->params[i], tok))
                    idx = i;
            if (idx < 0) {
                ct_diag_add(d, CT_ERROR, k->file, 0, 0,
                            "signature of %s names `%s`, which is not one of its parameters",
                            k->name, tok);
                ok = false;
            }
            tok = eq + 1;
        }
        if (idx >= 0 && idx < k->nparams) {
            char *colon = strchr(tok, ':');
            int div = 0;
            if (colon) {
                *colon = 0;
                div = atoi(colon + 1);
                if (div != 16 && div != 1) {
                    ct_diag_add(d, CT_ERROR, k->file, 0, 0,
                                "divisibility of `%s` must be 16 (got `%s`)", k->params[idx],
                                colon + 1);
                    ok = false;
                }
            }
            if (!strcmp(tok, "1") || !strcmp(tok, "None")) {
                /* the JIT's constexpr specializations: ('constexpr', 1), ('constexpr', None) */
                out[idx].is_const_one = tok[0] == '1';
                out[idx].is_none = tok[0] == 'N';
                if (colon) {
                    ct_diag_add(d, CT_ERROR, k->file, 0, 0,
                                "`%s` of %s is specialized to %s: it takes no divisibility",
                                k->params[idx], k->name, tok);
                    ok = false;
                }
            } else if (!strcmp(tok, "constexpr")) {
                ct_diag_add(d, CT_ERROR, k->file, 0, 0,
                            "parameter `%s` of %s: `constexpr` does not say the value; a "
                            "runtime parameter is specialized to `1` or `None`, a constexpr "
                            "parameter gets its value from the constexprs",
                            k->params[idx], k->name);
                ok = false;
            } else {
                const tl_type *t = parse_ty(tok);
                if (!t) {
                    ct_diag_add(d, CT_ERROR, k->file, 0, 0,
                                "unknown type `%s` for parameter `%s` of %s", tok,
                                k->params[idx], k->name);
                    ok = false;
                }
                out[idx].type = t;
                out[idx].divisibility = div == 16 ? 16 : 0;
            }
        } else if (idx >= k->nparams) {
            ct_diag_add(d, CT_ERROR, k->file, 0, 0,
                        "signature of %s has more entries than its %d parameters", k->name,
                        k->nparams);
            ok = false;
        }
        pos++;
        *p = saved;
        p = skip_ws(p);
    }
    for (int i = 0; i < k->nparams && ok; i++) {
        if (!out[i].type && !out[i].is_const_one && !out[i].is_none) {
            ct_diag_add(d, CT_ERROR, k->file, 0, 0,
                        "signature of %s gives no type for parameter `%s`", k->name,
                        k->params[i]);
            ok = false;
        }
    }
    ct_xfree(buf);
    return ok;
}

/* Parses "NAME=value NAME2='text'" into the kernel's constexpr slots. */
static bool parse_constexprs(const tl_kernel_def *k, const char *text, tl_cx *cx, ct_diags *d)
{
    bool set[64] = {0};
    for (int i = 0; i < k->ncx; i++)
        cx[i] = (tl_cx){.kind = TL_CX_NONE};
    const char *p = text ? text : "";
    bool ok = true;
    while (*p) {
        while (*p && (isspace((unsigned char)*p) || *p == ','))
            p++;
        if (!*p)
            break;
        const char *ns = p;
        while (*p && *p != '=' && !isspace((unsigned char)*p))
            p++;
        size_t nl = (size_t)(p - ns);
        if (*p != '=') {
            ct_diag_add(d, CT_ERROR, k->file, 0, 0, "constexpr `%.*s` has no value (NAME=value)",
                        (int)nl, ns);
            return false;
        }
        p++;
        char val[256];
        size_t vl = 0;
        if (*p == '\'' || *p == '"') {
            char q = *p++;
            while (*p && *p != q && vl < sizeof val - 1)
                val[vl++] = *p++;
            if (*p == q)
                p++;
        } else {
            while (*p && !isspace((unsigned char)*p) && *p != ',' && vl < sizeof val - 1)
                val[vl++] = *p++;
        }
        val[vl] = 0;
        int idx = -1;
        for (int i = 0; i < k->ncx; i++)
            if (strlen(k->cx_names[i]) == nl && !strncmp(k->cx_names[i], ns, nl))
                idx = i;
        if (idx < 0) {
            ct_diag_add(d, CT_ERROR, k->file, 0, 0, "%s has no constexpr named `%.*s`", k->name,
                        (int)nl, ns);
            ok = false;
            continue;
        }
        set[idx] = true;
        tl_cx *c = &cx[idx];
        c->kind = k->cx_kinds[idx];
        char *end = NULL;
        errno = 0;
        switch (c->kind) {
        case TL_CX_INT:
            c->i = strtoll(val, &end, 0);
            if (!*val || *end || errno) {
                ct_diag_add(d, CT_ERROR, k->file, 0, 0, "constexpr %s must be an int, got `%s`",
                            k->cx_names[idx], val);
                ok = false;
            }
            break;
        case TL_CX_FLOAT:
            c->f = strtod(val, &end);
            if (!*val || *end) {
                ct_diag_add(d, CT_ERROR, k->file, 0, 0, "constexpr %s must be a float, got `%s`",
                            k->cx_names[idx], val);
                ok = false;
            }
            break;
        case TL_CX_BOOL:
            if (!strcmp(val, "True") || !strcmp(val, "true") || !strcmp(val, "1"))
                c->i = 1;
            else if (!strcmp(val, "False") || !strcmp(val, "false") || !strcmp(val, "0"))
                c->i = 0;
            else {
                ct_diag_add(d, CT_ERROR, k->file, 0, 0, "constexpr %s must be True or False",
                            k->cx_names[idx]);
                ok = false;
            }
            break;
        case TL_CX_STR:
            c->s = strcmp(val, "None") ? ct_xstrdup(val) : NULL;
            break;
        case TL_CX_DTYPE:
            c->dtype = strcmp(val, "None") ? tl_dtype_from_name(val) : NULL;
            if (strcmp(val, "None") && !c->dtype) {
                ct_diag_add(d, CT_ERROR, k->file, 0, 0, "constexpr %s: unknown dtype `%s`",
                            k->cx_names[idx], val);
                ok = false;
            }
            break;
        default:
            break;
        }
    }
    for (int i = 0; i < k->ncx && ok; i++) {
        if (set[i])
            continue;
        /* Python's default (`BLOCK: tl.constexpr = 64`), which the JIT binds when the
         * caller leaves the argument out */
        if (k->cx_defaults && k->cx_defaults[i].kind != TL_CX_NONE) {
            cx[i] = k->cx_defaults[i];
            if (cx[i].kind == TL_CX_STR && cx[i].s)
                cx[i].s = ct_xstrdup(cx[i].s);
            continue;
        }
        ct_diag_add(d, CT_ERROR, k->file, 0, 0, "constexpr %s of %s has no value (and no default)",
                    k->cx_names[i], k->name);
        ok = false;
    }
    return ok;
}

static void free_cx(const tl_kernel_def *k, tl_cx *cx)
{
    for (int i = 0; i < k->ncx; i++)
        if (cx[i].kind == TL_CX_STR)
            ct_xfree((void *)cx[i].s);
}

static ct_module *build_kernel(const tl_kernel_def *k, const char *signature,
                               const char *constexprs, const tl_options *opts, ct_diags *diags)
{
    if (k->nparams > 64 || k->ncx > 64) {
        ct_diag_add(diags, CT_ERROR, k->file, 0, 0, "%s has too many parameters", k->name);
        return NULL;
    }
    tl_sig_param sig[64];
    tl_cx cx[64];
    if (!tl_parse_signature(k, signature, sig, diags))
        return NULL;
    if (!parse_constexprs(k, constexprs, cx, diags)) {
        free_cx(k, cx);
        return NULL;
    }
    tl_builder b = {0};
    if (opts)
        b.opts = *opts;
    else
        tl_options_default(&b.opts);
    b.tv = ct_triton_resolve(b.opts.triton, diags);
    if (!b.tv) {
        free_cx(k, cx);
        return NULL;
    }
    b.m = ct_module_new();
    b.m->triton = b.tv;
    b.diags = diags;
    b.kernel_name = k->name;
    tl_builder *saved = tl__cur;
    tl__cur = &b;
    tl__at((tl_src){k->file, 0, 0});
    const ct_loc *floc = b.loc;

    /* the public function */
    const ct_type *ins[256];
    ct_attr const *aattrs[256];
    int nin = 0;
    for (int i = 0; i < k->nparams; i++) {
        if (sig[i].is_const_one || sig[i].is_none)
            continue;
        ins[nin] = tl__ir_type(sig[i].type);
        ct_named_attr na = {"tt.divisibility",
                            ct_attr_int(b.m, ct_type_int(b.m, 32), sig[i].divisibility)};
        aattrs[nin] = ct_attr_dict(b.m, sig[i].divisibility ? 1 : 0, &na);
        nin++;
        if (tl__is_desc(sig[i].type)) {
            /* a host descriptor comes with its shape (i32) and strides (i64), as Python
             * flattens tensor_descriptor arguments */
            int r = sig[i].type->elem->rank;
            for (int j = 0; j < 2 * r; j++) {
                ins[nin] = ct_type_int(b.m, j < r ? 32 : 64);
                aattrs[nin++] = ct_attr_dict(b.m, 0, &na);
            }
        }
    }
    ct_op *func = ct_op_new(b.m, CT_OP_TT_FUNC, 0, NULL, 0, NULL, 1, floc);
    ct_op_set_attr_lit(b.m, func, "sym_name", ct_attr_str(b.m, k->name));
    ct_op_set_attr_lit(b.m, func, "sym_visibility", ct_attr_str(b.m, "public"));
    ct_op_set_attr_lit(b.m, func, "noinline", ct_attr_bool(b.m, false));
    ct_op_set_attr_lit(b.m, func, "function_type",
                   ct_attr_type(b.m, ct_type_func(b.m, nin, ins, 0, NULL)));
    bool any_attr = false;
    for (int i = 0; i < nin; i++)
        any_attr |= aattrs[i]->n > 0;
    if (any_attr)
        ct_op_set_attr_lit(b.m, func, "arg_attrs", ct_attr_array(b.m, nin, aattrs));
    ct_module_append_func(b.m, func);
    ct_block *entry = b_new_block_in(&func->regions[0]);
    tl_tensor args[64];
    for (int i = 0, j = 0; i < k->nparams; i++) {
        if (sig[i].is_const_one || sig[i].is_none) {
            args[i] = sig[i].is_none ? TL_NONE : tl__from_i64(1);
            continue;
        }
        ct_value *a = ct_block_add_arg(b.m, entry, ins[j++], ct_loc_name(b.m, k->params[i], floc));
        args[i] = tl__tensor(a, sig[i].type);
        if (tl__is_desc(sig[i].type))
            for (int x = 0; x < 2 * sig[i].type->elem->rank; x++)
                ct_block_add_arg(b.m, entry, ins[j++], ct_loc_name(b.m, k->params[i], floc));
    }
    tl_fn fn = {.func = func, .nrets = -1};
    b.fn = &fn;
    b_set_ip(entry, NULL);
    k->body(args, cx);
    /* the implicit `return` at the end */
    if (b.ifs || b.loop_depth) {
        ct_diag_add(diags, CT_ERROR, k->file, 0, 0,
                    "%s: a TL_IF/TL_FOR/TL_WHILE block was left with break, continue or return",
                    k->name);
        b.nerrors++;
    }
    if (!ct_block_terminator(b.block))
        b_op(CT_OP_TT_RETURN, 0, NULL, 0, NULL);
    tl__cur = saved;
    free_cx(k, cx);
    /* What the language built must be well-formed IR; a failure here is a
     * bug in ctriton, reported (not aborted on) like any other error. */
    if (!b.nerrors && !ct_verify_module(b.m, diags))
        b.nerrors++;
    if (b.nerrors) {
        ct_module_destroy(b.m);
        return NULL;
    }
    return b.m;
}

/* The entry point: out of memory anywhere in the build (the kernel's body
 * included) releases what the build allocated, puts the thread's builder
 * state back and is reported as an error (util/alloc.h). */
ct_module *tl_build(const tl_kernel_def *k, const char *signature, const char *constexprs,
                    const tl_options *opts, ct_diags *diags)
{
    tl_builder *saved = tl__cur;
    tl__stacks st;
    tl__stacks_save(&st);
    void *ifx = tl__ifexp_top();
    ct_oom_scope s;
    ct_oom_push(&s);
    if (setjmp(s.jb)) {
        ct_oom_unwind(&s);
        tl__cur = saved;
        tl__stacks_restore(&st);
        tl__ifexp_reset(ifx);
        ct_diag_add(diags, CT_ERROR, k->file, 0, 0, "%s: out of memory", k->name);
        return NULL;
    }
    ct_module *m = build_kernel(k, signature, constexprs, opts, diags);
    ct_oom_pop(&s);
    return m;
}

bool tl_options_parse(tl_options *o, const char *text, ct_diags *d)
{
    static const struct {
        const char *name;
        size_t off;
        bool is_bool;
    } keys[] = {
        {"implicit_store_casts", offsetof(tl_options, implicit_store_casts), true},
        {"debug", offsetof(tl_options, debug), true},
        {"sanitize_overflow", offsetof(tl_options, sanitize_overflow), true},
        {"enable_fp_fusion", offsetof(tl_options, enable_fp_fusion), true},
        {"num_warps", offsetof(tl_options, num_warps), false},
        {"num_stages", offsetof(tl_options, num_stages), false},
        {"num_ctas", offsetof(tl_options, num_ctas), false},
        {"maxnreg", offsetof(tl_options, maxnreg), false},
        {"arch", offsetof(tl_options, arch), false},
    };
    const char *p = text ? text : "";
    while (*p) {
        while (*p && (isspace((unsigned char)*p) || *p == ','))
            p++;
        if (!*p)
            break;
        const char *ns = p;
        while (*p && *p != '=' && !isspace((unsigned char)*p))
            p++;
        size_t nl = (size_t)(p - ns);
        const char *vs = *p == '=' ? ++p : p;
        while (*p && !isspace((unsigned char)*p) && *p != ',')
            p++;
        size_t vl = (size_t)(p - vs);
        int idx = -1;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (strlen(keys[i].name) == nl && !strncmp(keys[i].name, ns, nl))
                idx = (int)i;
        char val[32] = {0};
        memcpy(val, vs, vl < sizeof val - 1 ? vl : sizeof val - 1);
        if (idx < 0 || !vl) {
            ct_diag_add(d, CT_ERROR, NULL, 0, 0,
                        "options: `%.*s` is not an option (implicit_store_casts, debug, "
                        "sanitize_overflow, enable_fp_fusion, num_warps, num_stages, num_ctas, "
                        "maxnreg, arch), or has no value", (int)nl, ns);
            return false;
        }
        char *field = (char *)o + keys[idx].off;
        if (keys[idx].is_bool) {
            bool v = !strcmp(val, "True") || !strcmp(val, "true") || !strcmp(val, "1");
            if (!v && strcmp(val, "False") && strcmp(val, "false") && strcmp(val, "0")) {
                ct_diag_add(d, CT_ERROR, NULL, 0, 0, "options: %s must be True or False, not `%s`",
                            keys[idx].name, val);
                return false;
            }
            *(bool *)field = v;
        } else {
            char *end;
            long v = strtol(val, &end, 10);
            if (*end || v < 0 || v > 1 << 16) {
                ct_diag_add(d, CT_ERROR, NULL, 0, 0, "options: %s must be an int, not `%s`",
                            keys[idx].name, val);
                return false;
            }
            *(int *)field = (int)v;
        }
    }
    return true;
}

void tl_options_for_config(tl_options *o, const tl_config *cfg)
{
    tl_options_default(o);
    if (cfg->num_warps)
        o->num_warps = cfg->num_warps;
    if (cfg->num_stages)
        o->num_stages = cfg->num_stages;
    tl_options_parse(o, cfg->options, NULL); /* errors: tl_build_config reports them */
}

ct_module *tl_build_config(const tl_kernel_def *k, const tl_config *cfg, ct_diags *diags)
{
    tl_options o;
    tl_options_default(&o);
    if (!tl_options_parse(&o, cfg->options, diags))
        return NULL;
    tl_options_for_config(&o, cfg);
    return tl_build(k, cfg->signature, cfg->constexprs, &o, diags);
}
