/*
 * spec.c - JIT specialization and argument packing, as Triton does them.
 *
 * Specialization follows python/src/specialize.cc (native_specialize_impl)
 * and runtime/jit.py (create_function_from_signature):
 *   tensor        ('*<dtype>', 'D' if data_ptr % 16 == 0 else '')
 *   int           ('constexpr', 1) if == 1; else ('i32'|'i64'|'u64' by value,
 *                 'D' if value % 16 == 0 else '')
 *   float, bool   ('fp32', None), ('u1', None)
 *   annotated     (annotation, key of the value as above, or None for
 *                 floats and bools): never a constexpr (a 1 keeps the key 1)
 *   do_not_specialize               key None, no constexpr 1
 *   do_not_specialize_on_alignment  never 'D'
 * Each argument's result fits in a byte (see launch.h), so the key of a
 * launch is a few bytes compared with memcmp.
 *
 * Packing follows backends/nvidia/driver.py: one slot per non-constexpr
 * argument in the C type of its Triton type (ty_to_cpp, FLOAT_STORAGE_TYPE).
 */
#include "compile_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ctriton/float.h"
#include "ctriton/launch.h"

/* Triton's spelling of each scalar type (triton._utils.type_canonicalisation_dict). */
static const char *const triton_names[] = {
    [TL_VOID] = "void",         [TL_INT1] = "u1",          [TL_INT8] = "i8",
    [TL_INT16] = "i16",         [TL_INT32] = "i32",        [TL_INT64] = "i64",
    [TL_UINT8] = "u8",          [TL_UINT16] = "u16",       [TL_UINT32] = "u32",
    [TL_UINT64] = "u64",        [TL_FP8E4B15] = "fp8e4b15", [TL_FP8E4NV] = "fp8e4nv",
    [TL_FP8E4B8] = "fp8e4b8",   [TL_FP8E5] = "fp8e5",      [TL_FP8E5B16] = "fp8e5b16",
    [TL_FP16] = "fp16",         [TL_BF16] = "bf16",        [TL_FP32] = "fp32",
    [TL_FP64] = "fp64",
};

const char *ct__triton_name(tl_scalar s)
{
    return (unsigned)s <= TL_FP64 ? triton_names[s] : "?";
}

int ct__param_index(const tl_kernel_def *d, const char *name, size_t len)
{
    for (int i = 0; i < d->nparams; i++)
        if (strlen(d->params[i]) == len && !strncmp(d->params[i], name, len))
            return i;
    return -1;
}

ct_status ct__param_mask(const tl_kernel_def *d, const char *list, const char *what, uint64_t *mask)
{
    *mask = 0;
    for (const char *p = list ? list : ""; *p;) {
        while (*p == ',' || *p == ' ')
            p++;
        const char *s = p;
        while (*p && *p != ',' && *p != ' ')
            p++;
        if (p == s)
            continue;
        int i = ct__param_index(d, s, (size_t)(p - s));
        if (i < 0)
            return ct_fail(CT_ERR_INVALID, "%s: %s has no runtime parameter named `%.*s`", what,
                           d->name, (int)(p - s), s);
        *mask |= 1ull << i;
    }
    return CT_OK;
}

ct_dim3 ct__grid(const unsigned *d, int n)
{
    ct_dim3 g = {d[0], n > 1 ? d[1] : 1, n > 2 ? d[2] : 1};
    return g;
}

static bool is_int_scalar(tl_scalar s) { return s >= TL_INT1 && s <= TL_UINT64; }

static const char *arg_name(const char *const *names, int i, char *buf, size_t cap)
{
    if (names && names[i])
        snprintf(buf, cap, "%d (`%s`)", i, names[i]);
    else
        snprintf(buf, cap, "%d", i);
    return buf;
}

static int log2_exact(int64_t v)
{
    int l = 0;
    while (l < 31 && ((int64_t)1 << l) < v)
        l++;
    return ((int64_t)1 << l) == v ? l : -1;
}

int ct_spec_len(const uint8_t *codes, int n)
{
    int len = n;
    for (int i = 0; i < n; i++)
        if ((codes[i] & CT_SPEC_TYPE_MASK) == CT_SPEC_DESC)
            len += 2 + codes[len + 1];
    return len;
}

/* a descriptor's dtype and block: the extra bytes at codes[*len] */
static ct_status desc_codes(const ct_tensordesc *d, const char *what, uint8_t *codes, int *len)
{
    if (!d)
        return ct_fail(CT_ERR_INVALID, "argument %s: ct_desc needs a ct_tensordesc", what);
    if ((unsigned)d->dtype < TL_INT8 || (unsigned)d->dtype > TL_FP64)
        return ct_fail(CT_ERR_INVALID, "argument %s: a descriptor needs an element dtype", what);
    if (d->rank < 1 || d->rank > 5)
        return ct_fail(CT_ERR_INVALID, "argument %s: a descriptor has 1 to 5 dimensions, not %d",
                       what, d->rank);
    if (*len + 2 + d->rank > CT_SPEC_CODES_MAX)
        return ct_fail(CT_ERR_INVALID, "argument %s: too many descriptor arguments", what);
    codes[*len] = (uint8_t)d->dtype;
    codes[*len + 1] = (uint8_t)d->rank;
    for (int j = 0; j < d->rank; j++) {
        int l = log2_exact(d->block_shape[j]);
        if (l < 0 || l > 8)
            return ct_fail(CT_ERR_INVALID, "argument %s: descriptor block dimension %d is %d, "
                           "not a power of two up to 256", what, j, d->block_shape[j]);
        codes[*len + 2 + j] = (uint8_t)l;
    }
    *len += 2 + d->rank;
    return CT_OK;
}

ct_status ct_spec_codes(const ct_arg *args, int n, const ct_spec_flags *f,
                        const char *const *names, uint8_t *codes)
{
    uint64_t dns = f ? f->do_not_specialize : 0, dnsa = f ? f->do_not_specialize_on_alignment : 0;
    int len = n;
    for (int i = 0; i < n; i++) {
        const ct_arg *a = &args[i];
        bool spec = !(dns >> i & 1), align = !(dnsa >> i & 1);
        char nb[96];
        switch (a->kind) {
        case CT_ARG_PTR:
            if ((unsigned)a->type < TL_INT1 || (unsigned)a->type > TL_FP64)
                return ct_fail(CT_ERR_INVALID, "argument %s: a pointer needs an element dtype "
                               "(ct_ptr(p, tl_float32))", arg_name(names, i, nb, sizeof nb));
            codes[i] = (uint8_t)(CT_SPEC_PTR + a->type);
            if (!spec)
                codes[i] |= CT_SPEC_NONE;
            else if (align && (a->v.p & 15) == 0)
                codes[i] |= CT_SPEC_D;
            break;
        case CT_ARG_INT: {
            if (spec && !a->big && a->v.i == 1) {
                codes[i] = CT_SPEC_CONST1;
                break;
            }
            tl_scalar t = a->big ? TL_UINT64
                          : (a->v.i >= INT32_MIN && a->v.i <= INT32_MAX) ? TL_INT32 : TL_INT64;
            codes[i] = (uint8_t)(CT_SPEC_SCALAR + t);
            if (!spec)
                codes[i] |= CT_SPEC_NONE;
            else if (align && (a->v.u & 15) == 0)
                codes[i] |= CT_SPEC_D;
            break;
        }
        case CT_ARG_FLOAT:
            codes[i] = (uint8_t)((CT_SPEC_SCALAR + TL_FP32) | CT_SPEC_NONE);
            break;
        case CT_ARG_BOOL:
            codes[i] = (uint8_t)((CT_SPEC_SCALAR + TL_INT1) | CT_SPEC_NONE);
            break;
        case CT_ARG_TYPED:
            if ((unsigned)a->type < TL_INT1 || (unsigned)a->type > TL_FP64)
                return ct_fail(CT_ERR_INVALID, "argument %s: unknown scalar type",
                               arg_name(names, i, nb, sizeof nb));
            codes[i] = (uint8_t)(CT_SPEC_SCALAR + a->type);
            if (!is_int_scalar(a->type) || a->type == TL_INT1 || !spec) {
                codes[i] |= CT_SPEC_NONE;
            } else if (a->v.i == 1) {
                codes[i] |= CT_SPEC_NONE | CT_SPEC_D; /* the key is the value 1 */
            } else if (align && (a->v.u & 15) == 0) {
                codes[i] |= CT_SPEC_D;
            }
            break;
        case CT_ARG_NONE:
            codes[i] = CT_SPEC_CONSTNONE;
            break;
        case CT_ARG_DESC: {
            codes[i] = CT_SPEC_DESC | CT_SPEC_NONE;
            ct_status s = desc_codes(a->v.desc, arg_name(names, i, nb, sizeof nb), codes, &len);
            if (s != CT_OK)
                return s;
            break;
        }
        default:
            return ct_fail(CT_ERR_INVALID,
                           "argument %s is not a ct_arg (make it with ct_ptr, ct_int, ct_float, "
                           "ct_bool, ct_i32, ct_desc, ...)",
                           arg_name(names, i, nb, sizeof nb));
        }
    }
    return CT_OK;
}

static void put(char *buf, size_t cap, size_t *len, const char *fmt, const char *a, const char *b)
{
    if (*len >= cap)
        return;
    int w = snprintf(buf + *len, cap - *len, fmt, a, b);
    if (w > 0)
        *len += (size_t)w;
}

/* "tensordesc<fp16[64,64]>" from a descriptor's extra bytes */
static const uint8_t *desc_str(const uint8_t *x, const char *sep_dims, char *buf, size_t cap)
{
    size_t l = (size_t)snprintf(buf, cap, "tensordesc<%s[", ct__triton_name((tl_scalar)x[0]));
    for (int j = 0; j < x[1] && l < cap; j++)
        l += (size_t)snprintf(buf + l, cap - l, "%s%d", j ? sep_dims : "", 1 << x[2 + j]);
    if (l < cap)
        snprintf(buf + l, cap - l, "]>");
    return x + 2 + x[1];
}

void ct_spec_key_str(const uint8_t *codes, int n, char *buf, size_t cap)
{
    size_t len = 0;
    const uint8_t *extra = codes + n;
    if (cap)
        buf[0] = 0;
    put(buf, cap, &len, "%s%s", "[", "");
    for (int i = 0; i < n; i++) {
        uint8_t c = codes[i];
        int t = c & CT_SPEC_TYPE_MASK;
        const char *sep = i ? ", " : "";
        if (t == CT_SPEC_CONST1 || t == CT_SPEC_CONSTNONE) {
            put(buf, cap, &len, "%s('constexpr', %s)", sep, t == CT_SPEC_CONST1 ? "1" : "None");
            continue;
        }
        if (t == CT_SPEC_DESC) {
            char d[96];
            extra = desc_str(extra, ", ", d, sizeof d);
            put(buf, cap, &len, "%s('%s', None)", sep, d);
            continue;
        }
        char ty[24];
        if (t >= CT_SPEC_PTR)
            snprintf(ty, sizeof ty, "*%s", ct__triton_name((tl_scalar)(t - CT_SPEC_PTR)));
        else
            snprintf(ty, sizeof ty, "%s", ct__triton_name((tl_scalar)(t - CT_SPEC_SCALAR)));
        const char *key = (c & CT_SPEC_NONE) && (c & CT_SPEC_D) ? "1"
                          : (c & CT_SPEC_NONE)                   ? "None"
                          : (c & CT_SPEC_D)                      ? "'D'"
                                                                 : "''";
        put(buf, cap, &len, "%s('%s', ", sep, ty);
        put(buf, cap, &len, "%s)%s", key, "");
    }
    put(buf, cap, &len, "%s%s", "]", "");
}

void ct_spec_signature(const uint8_t *codes, int n, const char *const *names, char *buf,
                       size_t cap)
{
    size_t len = 0;
    const uint8_t *extra = codes + n;
    if (cap)
        buf[0] = 0;
    for (int i = 0; i < n; i++) {
        uint8_t c = codes[i];
        int t = c & CT_SPEC_TYPE_MASK;
        const char *sep = i ? " " : "";
        put(buf, cap, &len, "%s%s=", sep, names[i]);
        if (t == CT_SPEC_CONST1 || t == CT_SPEC_CONSTNONE) {
            put(buf, cap, &len, "%s%s", t == CT_SPEC_CONST1 ? "1" : "None", "");
            continue;
        }
        if (t == CT_SPEC_DESC) {
            char d[96];
            extra = desc_str(extra, ",", d, sizeof d);
            put(buf, cap, &len, "%s%s", d, "");
            continue;
        }
        bool d = (c & CT_SPEC_D) && !(c & CT_SPEC_NONE);
        if (t >= CT_SPEC_PTR)
            put(buf, cap, &len, "*%s%s", ct__triton_name((tl_scalar)(t - CT_SPEC_PTR)), d ? ":16" : "");
        else
            put(buf, cap, &len, "%s%s", ct__triton_name((tl_scalar)(t - CT_SPEC_SCALAR)), d ? ":16" : "");
    }
}

int ct_pack_args(const ct_arg *args, const uint8_t *codes, int n, uint64_t *slots, void **params)
{
    int j = 0;
    for (int i = 0; i < n; i++) {
        int t = codes[i] & CT_SPEC_TYPE_MASK;
        if (t == CT_SPEC_CONST1 || t == CT_SPEC_CONSTNONE)
            continue;
        const ct_arg *a = &args[i];
        uint64_t *s = &slots[j];
        *s = 0;
        if (t == CT_SPEC_DESC)
            return -1; /* needs the kernel's metadata: ct__pack_args_desc */
        if (t >= CT_SPEC_PTR) {
            memcpy(s, &a->v.p, sizeof a->v.p);
        } else {
            switch ((tl_scalar)(t - CT_SPEC_SCALAR)) {
            case TL_INT1:
            case TL_INT8:
            case TL_UINT8: {
                uint8_t v = (uint8_t)a->v.u;
                memcpy(s, &v, 1);
                break;
            }
            case TL_INT16:
            case TL_UINT16: {
                uint16_t v = (uint16_t)a->v.u;
                memcpy(s, &v, 2);
                break;
            }
            case TL_INT32:
            case TL_UINT32: {
                uint32_t v = (uint32_t)a->v.u;
                memcpy(s, &v, 4);
                break;
            }
            case TL_INT64:
            case TL_UINT64:
                memcpy(s, &a->v.u, 8);
                break;
            case TL_FP16:
            case TL_BF16: {
                uint16_t v = (uint16_t)ct_float_encode(
                    a->v.f, t - CT_SPEC_SCALAR == TL_FP16 ? CT_F16 : CT_BF16);
                memcpy(s, &v, 2);
                break;
            }
            case TL_FP32: {
                float v = (float)a->v.f;
                memcpy(s, &v, 4);
                break;
            }
            case TL_FP64:
                memcpy(s, &a->v.f, 8);
                break;
            default:
                return -1; /* fp8 scalars are not kernel arguments in Triton */
            }
        }
        params[j] = s;
        j++;
    }
    return j;
}

/* ---- specialization churn -------------------------------------------- */

/* Whether two codes of one argument differ only in what its value decides. */
static bool value_flip(uint8_t a, uint8_t b)
{
    if (a == b)
        return false;
    if ((a & ~CT_SPEC_D) == (b & ~CT_SPEC_D))
        return true; /* a multiple of 16, then not (or the reverse) */
    int ta = a & CT_SPEC_TYPE_MASK, tb = b & CT_SPEC_TYPE_MASK;
    if (ta != CT_SPEC_CONST1 && tb != CT_SPEC_CONST1)
        return false;
    int other = ta == CT_SPEC_CONST1 ? tb : ta;
    int sc = other - CT_SPEC_SCALAR;
    return other >= CT_SPEC_SCALAR && other < CT_SPEC_PTR &&
           (sc == TL_INT32 || sc == TL_INT64 || sc == TL_UINT64); /* 1, then another int */
}

_Static_assert(sizeof(((ct_churn *)0)->last) == CT_SPEC_CODES_MAX, "ct_churn.last");

int ct__churn_step(ct_churn *c, const uint8_t *codes, int n)
{
    int len = ct_spec_len(codes, n);
    int changed = -1, nchanged = 0;
    if (c->nlast == len) {
        for (int i = 0; i < n && i < 64; i++)
            if (c->last[i] != codes[i]) {
                changed = i;
                nchanged++;
            }
    }
    int report = -1;
    if (nchanged == 1 && value_flip(c->last[changed], codes[changed])) {
        c->flips[changed]++;
        if (c->flips[changed] >= 2 && !(c->reported >> changed & 1)) {
            c->reported |= 1ull << changed;
            c->nreports++;
            report = changed;
        }
    }
    if (len <= (int)sizeof c->last) {
        memcpy(c->last, codes, (size_t)len);
        c->nlast = len;
    }
    return report;
}

void ct__churn_message(const char *kernel, const char *const *names, int i, uint8_t a, uint8_t b,
                       int flips, char *buf, size_t cap)
{
    char ka[64], kb[64];
    ct_spec_key_str(&a, 1, ka, sizeof ka);
    ct_spec_key_str(&b, 1, kb, sizeof kb);
    /* "[('i32', '')]" -> "('i32', '')" */
    size_t la = strlen(ka), lb = strlen(kb);
    if (la >= 2) { memmove(ka, ka + 1, la - 2); ka[la - 2] = 0; }
    if (lb >= 2) { memmove(kb, kb + 1, lb - 2); kb[lb - 2] = 0; }
    bool align = (a & ~CT_SPEC_D) == (b & ~CT_SPEC_D);
    const char *name = names ? names[i] : "?";
    snprintf(buf, cap,
             "ctriton: warning: %s: the specialization of argument %d (`%s`) keeps changing "
             "between launches (%d times so far: %s, then %s), and each new one is compiled: "
             "if its value does not matter for speed, pass %s = \"%s\" to ct_kernel_new "
             "(Python: @triton.jit(%s=[\"%s\"]))",
             kernel, i, name, flips, ka, kb,
             align ? "do_not_specialize_on_alignment" : "do_not_specialize", name,
             align ? "do_not_specialize_on_alignment" : "do_not_specialize", name);
}
