/*
 * types.c - Triton's language types (triton.language.dtype, pointer_type,
 * block_type): their properties, their MLIR types, their mangled names.
 */
#include "lang.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const tl_type tl__dtypes[] = {
#define S(x) [x] = {.kind = TL_TY_SCALAR, .sc = x}
    S(TL_VOID),    S(TL_INT1),     S(TL_INT8),    S(TL_INT16),    S(TL_INT32),
    S(TL_INT64),   S(TL_UINT8),    S(TL_UINT16),  S(TL_UINT32),   S(TL_UINT64),
    S(TL_FP8E4B15), S(TL_FP8E4NV), S(TL_FP8E4B8), S(TL_FP8E5),    S(TL_FP8E5B16),
    S(TL_FP16),    S(TL_BF16),     S(TL_FP32),    S(TL_FP64),
#undef S
};

static const char *const scalar_names[] = {
    [TL_VOID] = "void",        [TL_INT1] = "int1",       [TL_INT8] = "int8",
    [TL_INT16] = "int16",      [TL_INT32] = "int32",     [TL_INT64] = "int64",
    [TL_UINT8] = "uint8",      [TL_UINT16] = "uint16",   [TL_UINT32] = "uint32",
    [TL_UINT64] = "uint64",    [TL_FP8E4B15] = "fp8e4b15", [TL_FP8E4NV] = "fp8e4nv",
    [TL_FP8E4B8] = "fp8e4b8",  [TL_FP8E5] = "fp8e5",     [TL_FP8E5B16] = "fp8e5b16",
    [TL_FP16] = "fp16",        [TL_BF16] = "bf16",       [TL_FP32] = "fp32",
    [TL_FP64] = "fp64",
};

const char *tl__scalar_name(tl_scalar s)
{
    return scalar_names[s];
}

tl_dtype tl_dtype_from_name(const char *name)
{
    static const struct {
        const char *alias;
        tl_scalar sc;
    } aliases[] = {
        {"i1", TL_INT1},   {"i8", TL_INT8},     {"i16", TL_INT16},   {"i32", TL_INT32},
        {"i64", TL_INT64}, {"u1", TL_INT1},     {"u8", TL_UINT8},    {"u16", TL_UINT16},
        {"u32", TL_UINT32}, {"u64", TL_UINT64}, {"fp8e4nv", TL_FP8E4NV}, {"fp8e5", TL_FP8E5},
        {"float16", TL_FP16}, {"bfloat16", TL_BF16}, {"float32", TL_FP32}, {"float64", TL_FP64},
        {"float8e4nv", TL_FP8E4NV}, {"float8e5", TL_FP8E5}, {"float8e4b15", TL_FP8E4B15},
        {"float8e4b8", TL_FP8E4B8}, {"float8e5b16", TL_FP8E5B16}, {"bool", TL_INT1},
    };
    for (int i = 0; i <= TL_FP64; i++)
        if (!strcmp(scalar_names[i], name))
            return &tl__dtypes[i];
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcmp(aliases[i].alias, name))
            return &tl__dtypes[aliases[i].sc];
    return NULL;
}

/* Pointer types made outside a build live in a small process-wide table. */
static pthread_mutex_t ptr_lock = PTHREAD_MUTEX_INITIALIZER;
static tl_type *ptr_table[256];
static int ptr_count;

static const tl_type *alloc_type(const tl_type *key)
{
    if (tl__cur) {
        tl_type *t = ct_arena_alloc(tl__cur->m->arena, sizeof *t);
        *t = *key;
        return t;
    }
    pthread_mutex_lock(&ptr_lock);
    for (int i = 0; i < ptr_count; i++) {
        if (tl_type_eq(ptr_table[i], key)) {
            pthread_mutex_unlock(&ptr_lock);
            return ptr_table[i];
        }
    }
    tl_type *t = NULL;
    if (ptr_count < 256) {
        t = malloc(sizeof *t);
        if (t) {
            *t = *key;
            ptr_table[ptr_count++] = t;
        }
    }
    pthread_mutex_unlock(&ptr_lock);
    return t;
}

tl_dtype tl_pointer_type_ex(tl_dtype elem, int addrspace, bool is_const)
{
    tl_type k = {.kind = TL_TY_PTR, .elem = elem, .addrspace = addrspace, .is_const = is_const};
    return alloc_type(&k);
}

tl_dtype tl_pointer_type(tl_dtype elem)
{
    return tl_pointer_type_ex(elem, 1, false);
}

const tl_type *tl__block_type(const tl_type *elem, int rank, const int64_t *shape)
{
    tl_type k = {.kind = TL_TY_BLOCK, .elem = elem, .rank = rank};
    for (int i = 0; i < rank && i < CT_MAX_RANK; i++)
        k.shape[i] = shape[i];
    return alloc_type(&k);
}

bool tl_type_eq(tl_dtype a, tl_dtype b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TL_TY_SCALAR:
        return a->sc == b->sc;
    case TL_TY_PTR:
        return a->addrspace == b->addrspace && a->is_const == b->is_const &&
               tl_type_eq(a->elem, b->elem);
    case TL_TY_BLOCK:
        if (a->rank != b->rank || !tl_type_eq(a->elem, b->elem))
            return false;
        for (int i = 0; i < a->rank; i++)
            if (a->shape[i] != b->shape[i])
                return false;
        return true;
    }
    return false;
}

const tl_type *tl__with_elem(const tl_type *t, const tl_type *elem)
{
    if (t && t->kind == TL_TY_BLOCK)
        return tl__block_type(elem, t->rank, t->shape);
    return elem;
}

int tl__prim_bits(const tl_type *t)
{
    if (tl__is_int(t))
        return tl__int_bits(t);
    switch (tl__sc_of(t)) {
    case TL_FP16:
    case TL_BF16:
        return 16;
    case TL_FP32:
        return 32;
    case TL_FP64:
        return 64;
    case TL_VOID:
        return t && t->kind == TL_TY_PTR ? 64 : 0;
    default:
        return 8;
    }
}

int tl__fp_mantissa(const tl_type *t)
{
    switch (tl__sc_of(t)) {
    case TL_FP8E4B15:
    case TL_FP8E4NV:
    case TL_FP8E4B8:
        return 3;
    case TL_FP8E5:
    case TL_FP8E5B16:
        return 2;
    case TL_FP16:
        return 10;
    case TL_BF16:
        return 7;
    case TL_FP32:
        return 23;
    case TL_FP64:
        return 52;
    default:
        return 0;
    }
}

int tl__kind_rank(const tl_type *t)
{
    if (tl__is_bool(t))
        return 0;
    if (tl__is_int(t))
        return 1;
    return 2;
}

const tl_type *tl__int_dtype(int bits, bool is_signed)
{
    switch (bits) {
    case 1:
        return tl_int1;
    case 8:
        return is_signed ? tl_int8 : tl_uint8;
    case 16:
        return is_signed ? tl_int16 : tl_uint16;
    case 32:
        return is_signed ? tl_int32 : tl_uint32;
    default:
        return is_signed ? tl_int64 : tl_uint64;
    }
}

const ct_type *tl__ir_type(const tl_type *t)
{
    ct_module *m = tl__cur->m;
    switch (t->kind) {
    case TL_TY_PTR:
        return ct_type_ptr(m, tl__ir_type(t->elem), t->addrspace);
    case TL_TY_BLOCK:
        return ct_type_tensor(m, tl__ir_type(t->elem), t->rank, t->shape);
    case TL_TY_SCALAR:
        break;
    }
    switch (t->sc) {
    case TL_VOID:
        return ct_type_none(m);
    case TL_INT1:
        return ct_type_int(m, 1);
    case TL_INT8:
    case TL_UINT8:
    case TL_FP8E4B15: /* Triton keeps fp8e4b15 as i8 in the IR */
        return ct_type_int(m, 8);
    case TL_INT16:
    case TL_UINT16:
        return ct_type_int(m, 16);
    case TL_INT32:
    case TL_UINT32:
        return ct_type_int(m, 32);
    case TL_INT64:
    case TL_UINT64:
        return ct_type_int(m, 64);
    case TL_FP8E4NV:
        return ct_type_float(m, CT_F8E4M3FN);
    case TL_FP8E4B8:
        return ct_type_float(m, CT_F8E4M3FNUZ);
    case TL_FP8E5:
        return ct_type_float(m, CT_F8E5M2);
    case TL_FP8E5B16:
        return ct_type_float(m, CT_F8E5M2FNUZ);
    case TL_FP16:
        return ct_type_float(m, CT_F16);
    case TL_BF16:
        return ct_type_float(m, CT_BF16);
    case TL_FP32:
        return ct_type_float(m, CT_F32);
    case TL_FP64:
        return ct_type_float(m, CT_F64);
    }
    return ct_type_none(m);
}

void tl__mangle_type(const tl_type *t, ct_strbuf *out)
{
    switch (t->kind) {
    case TL_TY_PTR:
        ct_sb_putc(out, 'P');
        tl__mangle_type(t->elem, out);
        return;
    case TL_TY_BLOCK:
        tl__mangle_type(t->elem, out);
        ct_sb_putc(out, 'S');
        for (int i = 0; i < t->rank; i++)
            ct_sb_printf(out, i ? "_%lld" : "%lld", (long long)t->shape[i]);
        ct_sb_putc(out, 'S');
        return;
    case TL_TY_SCALAR:
        break;
    }
    if (tl__is_int(t))
        ct_sb_printf(out, "%c%d", tl__is_signed(t) ? 'i' : 'u', tl__int_bits(t));
    else if (t->sc == TL_VOID)
        ct_sb_putc(out, 'V');
    else
        ct_sb_puts(out, scalar_names[t->sc]);
}

const char *tl_type_name(tl_dtype t, char *buf, size_t cap)
{
    ct_strbuf b;
    ct_sb_init(&b);
    if (!t) {
        ct_sb_puts(&b, "constexpr");
    } else if (t->kind == TL_TY_PTR) {
        const char *inner = tl_type_name(t->elem, buf, cap);
        ct_sb_printf(&b, "pointer<%s>", inner);
    } else if (t->kind == TL_TY_BLOCK) {
        char eb[128];
        ct_sb_puts(&b, tl_type_name(t->elem, eb, sizeof eb));
        ct_sb_putc(&b, '[');
        for (int i = 0; i < t->rank; i++)
            ct_sb_printf(&b, i ? ", %lld" : "%lld", (long long)t->shape[i]);
        ct_sb_putc(&b, ']');
    } else {
        ct_sb_puts(&b, scalar_names[t->sc]);
    }
    snprintf(buf, cap, "%s", b.s);
    ct_sb_free(&b);
    return buf;
}
