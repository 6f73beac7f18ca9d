/*
 * types.c - Triton's language types (triton.language.dtype, pointer_type,
 * block_type): their properties, their MLIR types, their mangled names.
 */
#include "lang.h"
#include "util/alloc.h"

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
        if (ct_streq(scalar_names[i], name))
            return &tl__dtypes[i];
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (ct_streq(aliases[i].alias, name))
            return &tl__dtypes[aliases[i].sc];
    return NULL;
}

/* ---- the build's type caches -------------------------------------------
 *
 * Pointer and block types made during a build are interned in the build (in
 * the module's arena): asking for a shape again gives the same pointer.  The
 * MLIR type of a language type is then found by that pointer in a
 * direct-mapped cache; a hit is checked against the type's structure, so a
 * type that was not interned (one on a caller's stack, whose address comes
 * back with other contents) never gets a wrong answer.  Scalars map to
 * their MLIR types by kind. */

#define TC_SLOTS 256

typedef struct tl_type_cache {
    const ct_type *scalar[TL_FP64 + 1];
    struct {
        const tl_type *t;
        const ct_type *ir;
    } slot[TC_SLOTS];
    const tl_type **tab; /* interned pointer and block types, open addressing */
    size_t cap, n;
} tl_type_cache;

static tl_type_cache *type_cache(void)
{
    tl_builder *b = tl__cur;
    if (!b->types)
        b->types = ct_arena_alloc(b->m->arena, sizeof(tl_type_cache));
    return b->types;
}

static uint64_t type_key_hash(const tl_type *k)
{
    uint64_t h = (uint64_t)k->kind * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)k->elem;
    h = h * 0x100000001b3ull ^ (uint64_t)(k->addrspace * 2 + k->is_const);
    for (int i = 0; i < k->rank; i++)
        h = h * 0x100000001b3ull ^ (uint64_t)k->shape[i];
    return h ^ (h >> 29);
}

/* same kind and fields, the element compared by pointer */
static bool type_key_eq(const tl_type *a, const tl_type *b)
{
    if (a->kind != b->kind || a->elem != b->elem || a->addrspace != b->addrspace ||
        a->is_const != b->is_const || a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    return true;
}

static void type_tab_insert(tl_type_cache *tc, const tl_type *t)
{
    size_t i = type_key_hash(t) & (tc->cap - 1);
    while (tc->tab[i])
        i = (i + 1) & (tc->cap - 1);
    tc->tab[i] = t;
}

/* The build's interned copy of a pointer or block type. */
static const tl_type *intern_in_build(const tl_type *key)
{
    tl_type_cache *tc = type_cache();
    ct_arena *a = tl__cur->m->arena;
    if ((tc->n + 1) * 2 > tc->cap) {
        const tl_type **old = tc->tab;
        size_t oc = tc->cap;
        tc->cap = oc ? oc * 2 : 128;
        tc->tab = ct_arena_alloc(a, sizeof(*tc->tab) * tc->cap);
        for (size_t i = 0; i < oc; i++)
            if (old[i])
                type_tab_insert(tc, old[i]);
    }
    size_t i = type_key_hash(key) & (tc->cap - 1);
    for (; tc->tab[i]; i = (i + 1) & (tc->cap - 1))
        if (type_key_eq(tc->tab[i], key))
            return tc->tab[i];
    tl_type *t = ct_arena_alloc(a, sizeof *t);
    *t = *key;
    tc->tab[i] = t;
    tc->n++;
    return t;
}

/* Pointer types made outside a build live in a small process-wide table. */
static pthread_mutex_t ptr_lock = PTHREAD_MUTEX_INITIALIZER;
static tl_type *ptr_table[256];
static int ptr_count;

static const tl_type *alloc_type(const tl_type *key)
{
    if (tl__cur)
        return intern_in_build(key);
    pthread_mutex_lock(&ptr_lock);
    for (int i = 0; i < ptr_count; i++) {
        if (tl_type_eq(ptr_table[i], key)) {
            pthread_mutex_unlock(&ptr_lock);
            return ptr_table[i];
        }
    }
    tl_type *t = NULL;
    if (ptr_count < 256) {
        t = ct_raw_alloc(sizeof *t); /* process-wide: outlives any scope */
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

const tl_type *tl__desc_type(const tl_type *block)
{
    tl_type k = {.kind = TL_TY_DESC, .elem = block};
    return alloc_type(&k);
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
    case TL_TY_DESC:
        return tl_type_eq(a->elem, b->elem);
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

static const ct_type *scalar_ir_type(ct_module *m, tl_scalar sc)
{
    switch (sc) {
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

/* Is ir the MLIR type of t, whose element's MLIR type is elem? (Types are
 * interned per module: the structure decides.) */
static bool ir_type_of(const ct_type *ir, const tl_type *t, const ct_type *elem)
{
    if (ir->elem != elem)
        return false;
    if (t->kind == TL_TY_PTR)
        return ir->kind == CT_TY_PTR && ir->addrspace == t->addrspace;
    if (ir->kind != CT_TY_TENSOR || ir->rank != t->rank)
        return false;
    for (int i = 0; i < t->rank; i++)
        if (ir->shape[i] != t->shape[i])
            return false;
    return true;
}

const ct_type *tl__ir_type(const tl_type *t)
{
    ct_module *m = tl__cur->m;
    tl_type_cache *tc = type_cache();
    if (t->kind == TL_TY_SCALAR) {
        if ((unsigned)t->sc > TL_FP64)
            return ct_type_none(m);
        if (!tc->scalar[t->sc])
            tc->scalar[t->sc] = scalar_ir_type(m, t->sc);
        return tc->scalar[t->sc];
    }
    const ct_type *elem = tl__ir_type(t->elem);
    unsigned k = (unsigned)(((uintptr_t)t * 0x9e3779b97f4a7c15ull) >> 56) % TC_SLOTS;
    if (tc->slot[k].t == t && ir_type_of(tc->slot[k].ir, t, elem))
        return tc->slot[k].ir;
    if (t->kind == TL_TY_DESC) {
        /* the block of a signed integer descriptor has a signed element type (si32) */
        const tl_type *be = t->elem->elem;
        if (tl__is_int(be) && tl__is_signed(be) && !tl__is_bool(be))
            elem = ct_type_tensor(m, ct_type_int_signed(m, tl__int_bits(be), 1), t->elem->rank,
                                  t->elem->shape);
        return ct_type_tensordesc(m, elem);
    }
    const ct_type *ir = t->kind == TL_TY_PTR ? ct_type_ptr(m, elem, t->addrspace)
                                             : ct_type_tensor(m, elem, t->rank, t->shape);
    tc->slot[k].t = t;
    tc->slot[k].ir = ir;
    return ir;
}

void tl__mangle_type(const tl_type *t, ct_strbuf *out)
{
    switch (t->kind) {
    case TL_TY_PTR:
        ct_sb_putc(out, 'P');
        tl__mangle_type(t->elem, out);
        return;
    case TL_TY_DESC:
        ct_sb_puts(out, "TD");
        tl__mangle_type(t->elem, out);
        return;
    case TL_TY_BLOCK:
        tl__mangle_type(t->elem, out);
        ct_sb_putc(out, 'S');
        for (int i = 0; i < t->rank; i++) {
            if (i)
                ct_sb_putc(out, '_');
            ct_sb_putint(out, (long long)t->shape[i]);
        }
        ct_sb_putc(out, 'S');
        return;
    case TL_TY_SCALAR:
        break;
    }
    if (tl__is_int(t)) {
        /* dtype.mangle: int1 is among Triton's unsigned types ("u1") */
        ct_sb_putc(out, tl__is_signed(t) && t->sc != TL_INT1 ? 'i' : 'u');
        ct_sb_putint(out, tl__int_bits(t));
    }
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
    } else if (t->kind == TL_TY_DESC) {
        char eb[160];
        ct_sb_printf(&b, "tensor_descriptor<%s>", tl_type_name(t->elem, eb, sizeof eb));
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

/* ---- the dtype API (core.dtype's methods) --------------------------------------------- */

static const char *const pred_names[] = {[TL_DT_FP8] = "is_fp8", [TL_DT_FP8E4NV] = "is_fp8e4nv", [TL_DT_FP8E4B8] = "is_fp8e4b8", [TL_DT_FP8E4B15] = "is_fp8e4b15", [TL_DT_FP8E5] = "is_fp8e5", [TL_DT_FP8E5B16] = "is_fp8e5b16", [TL_DT_FP16] = "is_fp16", [TL_DT_BF16] = "is_bf16", [TL_DT_FP32] = "is_fp32", [TL_DT_FP64] = "is_fp64", [TL_DT_INT1] = "is_int1", [TL_DT_INT8] = "is_int8", [TL_DT_INT16] = "is_int16", [TL_DT_INT32] = "is_int32", [TL_DT_INT64] = "is_int64", [TL_DT_UINT8] = "is_uint8", [TL_DT_UINT16] = "is_uint16", [TL_DT_UINT32] = "is_uint32", [TL_DT_UINT64] = "is_uint64", [TL_DT_FLOATING] = "is_floating", [TL_DT_STANDARD_FLOATING] = "is_standard_floating", [TL_DT_INT_SIGNED] = "is_int_signed", [TL_DT_INT_UNSIGNED] = "is_int_unsigned", [TL_DT_INT] = "is_int", [TL_DT_BOOL] = "is_bool", [TL_DT_PTR] = "is_ptr", [TL_DT_BLOCK] = "is_block", [TL_DT_CONST] = "is_const"};

static bool in(tl_scalar s, tl_scalar lo, tl_scalar hi)
{
    return s >= lo && s <= hi;
}

bool tl__dtype_pred(tl_dtype_pred p, tl_dtype t, tl_src at)
{
    if (!t || (unsigned)p >= sizeof pred_names / sizeof pred_names[0]) {
        if (tl__active()) {
            tl__at(at);
            tl__err("%s(): not a dtype (a Python number or None has no dtype; a tensor's is "
                    "tl_dtype_of(x))", (unsigned)p < sizeof pred_names / sizeof pred_names[0]
                                           ? pred_names[p] : "dtype predicate");
        }
        return false;
    }
    if (p == TL_DT_PTR)
        return t->kind == TL_TY_PTR;
    if (p == TL_DT_BLOCK)
        return t->kind == TL_TY_BLOCK;
    if (p == TL_DT_CONST)
        return t->kind == TL_TY_PTR && t->is_const;
    if (t->kind != TL_TY_SCALAR)
        return false; /* a pointer_type's name is pointer<...>: none of the others */
    tl_scalar s = t->sc;
    switch (p) {
    case TL_DT_FP8: return in(s, TL_FP8E4B15, TL_FP8E5B16);
    case TL_DT_FP8E4NV: return s == TL_FP8E4NV;
    case TL_DT_FP8E4B8: return s == TL_FP8E4B8;
    case TL_DT_FP8E4B15: return s == TL_FP8E4B15;
    case TL_DT_FP8E5: return s == TL_FP8E5;
    case TL_DT_FP8E5B16: return s == TL_FP8E5B16;
    case TL_DT_FP16: return s == TL_FP16;
    case TL_DT_BF16: return s == TL_BF16;
    case TL_DT_FP32: return s == TL_FP32;
    case TL_DT_FP64: return s == TL_FP64;
    case TL_DT_INT1: case TL_DT_BOOL: return s == TL_INT1;
    case TL_DT_INT8: return s == TL_INT8;
    case TL_DT_INT16: return s == TL_INT16;
    case TL_DT_INT32: return s == TL_INT32;
    case TL_DT_INT64: return s == TL_INT64;
    case TL_DT_UINT8: return s == TL_UINT8;
    case TL_DT_UINT16: return s == TL_UINT16;
    case TL_DT_UINT32: return s == TL_UINT32;
    case TL_DT_UINT64: return s == TL_UINT64;
    case TL_DT_FLOATING: return in(s, TL_FP8E4B15, TL_FP64);
    case TL_DT_STANDARD_FLOATING: return in(s, TL_FP16, TL_FP64);
    /* SINT_TYPES int8..int64; UINT_TYPES int1, uint8..uint64 */
    case TL_DT_INT_SIGNED: return in(s, TL_INT8, TL_INT64);
    case TL_DT_INT_UNSIGNED: return s == TL_INT1 || in(s, TL_UINT8, TL_UINT64);
    case TL_DT_INT: return in(s, TL_INT1, TL_UINT64);
    default: return false;
    }
}

bool tl__dtype_pred_t(tl_dtype_pred p, tl_tensor x, tl_src at)
{
    (void)x;
    if (tl__active()) {
        tl__at(at);
        tl__err("'tensor' object has no attribute '%s' (a dtype predicate takes the dtype: "
                "tl_dtype_of(x), Python's x.dtype)",
                (unsigned)p < sizeof pred_names / sizeof pred_names[0] ? pred_names[p] : "is_");
    }
    return false;
}

int tl__primitive_bitwidth(tl_dtype t, tl_src at)
{
    if (t && t->kind == TL_TY_BLOCK)
        t = t->elem;
    if (!t || t->kind != TL_TY_SCALAR || t->sc == TL_VOID) {
        if (tl__active()) {
            tl__at(at);
            tl__err("'%s' object has no attribute 'primitive_bitwidth'",
                    !t ? "NoneType" : t->kind == TL_TY_PTR ? "pointer_type" : "dtype");
        }
        return 0;
    }
    return tl__prim_bits(t);
}

tl_dtype tl_dtype_scalar(tl_dtype t)
{
    return t && t->kind == TL_TY_BLOCK ? t->elem : t;
}

tl_dtype tl__dtype_element_ty(tl_dtype t, tl_src at)
{
    if (t && (t->kind == TL_TY_PTR || t->kind == TL_TY_BLOCK))
        return t->elem;
    if (tl__active()) {
        tl__at(at);
        tl__err("'%s' object has no attribute 'element_ty'", t ? "dtype" : "NoneType");
    }
    return NULL;
}

tl_dtype tl__get_int_dtype(int bitwidth, bool is_signed, tl_src at)
{
    static const struct {
        int bits;
        bool is_signed;
        tl_scalar sc;
    } table[] = {{8, true, TL_INT8},    {8, false, TL_UINT8},   {16, true, TL_INT16},
                 {16, false, TL_UINT16}, {32, true, TL_INT32},  {32, false, TL_UINT32},
                 {64, true, TL_INT64},   {64, false, TL_UINT64}};
    if (bitwidth == 1)
        return tl_int1;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].bits == bitwidth && table[i].is_signed == is_signed)
            return &tl__dtypes[table[i].sc];
    if (tl__active()) {
        tl__at(at);
        tl__err("Unsupported bitwidth %d and signedness %s", bitwidth, is_signed ? "True" : "False");
    }
    return NULL;
}
