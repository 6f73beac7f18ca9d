/*
 * types.c - interned IR types.
 *
 * Each module keeps a hash table of the types made for it, so that type
 * equality inside a module is pointer equality.  ct_type_equal compares
 * structurally and works across modules.
 */
#include "ctriton/ir.h"
#include "ctriton/triton_version.h"

#include <stdio.h>
#include <string.h>

#define NBUCKETS 256

/* The hash table, and in front of it the scalar types by width and kind:
 * they are asked for most, and need no hashing. */
typedef struct type_table {
    const ct_type *buckets[NBUCKETS];
    const ct_type *ints[65];
    const ct_type *floats[CT_F8E4M3B11FNUZ + 1];
} type_table;

static type_table *table(ct_module *m)
{
    if (!m->types)
        m->types = ct_arena_alloc(m->arena, sizeof(type_table));
    return m->types;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

static uint64_t hash_of(const ct_type *t)
{
    uint64_t h = mix(0, (uint64_t)t->kind);
    h = mix(h, (uint64_t)t->bits);
    h = mix(h, (uint64_t)t->signedness);
    h = mix(h, (uint64_t)t->fk);
    h = mix(h, (uint64_t)(uintptr_t)t->elem);
    h = mix(h, (uint64_t)t->addrspace);
    h = mix(h, (uint64_t)t->rank);
    for (int i = 0; i < t->rank; i++)
        h = mix(h, (uint64_t)t->shape[i]);
    h = mix(h, (uint64_t)t->nin);
    for (int i = 0; i < t->nin; i++)
        h = mix(h, (uint64_t)(uintptr_t)t->ins[i]);
    h = mix(h, (uint64_t)t->nout);
    for (int i = 0; i < t->nout; i++)
        h = mix(h, (uint64_t)(uintptr_t)t->outs[i]);
    return h;
}

/* same key, elements compared by pointer (they are interned already) */
static bool same_key(const ct_type *a, const ct_type *b)
{
    if (a->kind != b->kind || a->bits != b->bits || a->signedness != b->signedness ||
        a->fk != b->fk || a->elem != b->elem ||
        a->addrspace != b->addrspace || a->rank != b->rank || a->nin != b->nin ||
        a->nout != b->nout)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    for (int i = 0; i < a->nin; i++)
        if (a->ins[i] != b->ins[i])
            return false;
    for (int i = 0; i < a->nout; i++)
        if (a->outs[i] != b->outs[i])
            return false;
    return true;
}

static const ct_type *intern(ct_module *m, const ct_type *key)
{
    type_table *tt = table(m);
    uint64_t h = hash_of(key);
    const ct_type **slot = &tt->buckets[h % NBUCKETS];
    for (const ct_type *t = *slot; t; t = t->next)
        if (t->hash == h && same_key(t, key))
            return t;
    ct_type *n = ct_arena_alloc(m->arena, sizeof *n);
    *n = *key;
    n->hash = h;
    if (key->rank) {
        int64_t *s = ct_arena_alloc(m->arena, sizeof(int64_t) * (size_t)key->rank);
        memcpy(s, key->shape, sizeof(int64_t) * (size_t)key->rank);
        n->shape = s;
    }
    if (key->nin) {
        const ct_type **v = ct_arena_alloc(m->arena, sizeof(*v) * (size_t)key->nin);
        memcpy(v, key->ins, sizeof(*v) * (size_t)key->nin);
        n->ins = v;
    }
    if (key->nout) {
        const ct_type **v = ct_arena_alloc(m->arena, sizeof(*v) * (size_t)key->nout);
        memcpy(v, key->outs, sizeof(*v) * (size_t)key->nout);
        n->outs = v;
    }
    n->next = *slot;
    *slot = n;
    return n;
}

const ct_type *ct_type_none(ct_module *m)
{
    ct_type k = {.kind = CT_TY_NONE};
    return intern(m, &k);
}

const ct_type *ct_type_index(ct_module *m)
{
    ct_type k = {.kind = CT_TY_INDEX, .bits = 64};
    return intern(m, &k);
}

const ct_type *ct_type_int(ct_module *m, int bits)
{
    type_table *tt = table(m);
    if (bits >= 0 && bits <= 64 && tt->ints[bits])
        return tt->ints[bits];
    ct_type k = {.kind = CT_TY_INT, .bits = bits};
    const ct_type *t = intern(m, &k);
    if (bits >= 0 && bits <= 64)
        tt->ints[bits] = t;
    return t;
}

const ct_type *ct_type_int_signed(ct_module *m, int bits, int signedness)
{
    if (!signedness)
        return ct_type_int(m, bits);
    ct_type k = {.kind = CT_TY_INT, .bits = bits, .signedness = signedness};
    return intern(m, &k);
}

int ct_float_bits(ct_float_kind fk)
{
    switch (fk) {
    case CT_F16:
    case CT_BF16:
        return 16;
    case CT_F32:
        return 32;
    case CT_F64:
        return 64;
    default:
        return 8;
    }
}

const ct_type *ct_type_float(ct_module *m, ct_float_kind fk)
{
    type_table *tt = table(m);
    bool known = (unsigned)fk <= CT_F8E4M3B11FNUZ;
    if (known && tt->floats[fk])
        return tt->floats[fk];
    ct_type k = {.kind = CT_TY_FLOAT, .bits = ct_float_bits(fk), .fk = fk};
    const ct_type *t = intern(m, &k);
    if (known)
        tt->floats[fk] = t;
    return t;
}

const ct_type *ct_type_ptr(ct_module *m, const ct_type *pointee, int addrspace)
{
    ct_type k = {.kind = CT_TY_PTR, .elem = pointee, .addrspace = addrspace};
    return intern(m, &k);
}

const ct_type *ct_type_tensor(ct_module *m, const ct_type *elem, int rank, const int64_t *shape)
{
    ct_type k = {.kind = CT_TY_TENSOR, .elem = elem, .rank = rank, .shape = shape};
    return intern(m, &k);
}

const ct_type *ct_type_tensordesc(ct_module *m, const ct_type *block)
{
    ct_type k = {.kind = CT_TY_TENSORDESC, .elem = block};
    return intern(m, &k);
}

const ct_type *ct_type_func(ct_module *m, int nin, const ct_type *const *ins, int nout,
                            const ct_type *const *outs)
{
    ct_type k = {.kind = CT_TY_FUNC, .nin = nin, .ins = ins, .nout = nout, .outs = outs};
    return intern(m, &k);
}

const ct_type *ct_type_import(ct_module *m, const ct_type *t)
{
    if (!t)
        return NULL;
    switch (t->kind) {
    case CT_TY_NONE:
        return ct_type_none(m);
    case CT_TY_INDEX:
        return ct_type_index(m);
    case CT_TY_INT:
        return ct_type_int_signed(m, t->bits, t->signedness);
    case CT_TY_FLOAT:
        return ct_type_float(m, t->fk);
    case CT_TY_PTR:
        return ct_type_ptr(m, ct_type_import(m, t->elem), t->addrspace);
    case CT_TY_TENSOR:
        return ct_type_tensor(m, ct_type_import(m, t->elem), t->rank, t->shape);
    case CT_TY_TENSORDESC:
        return ct_type_tensordesc(m, ct_type_import(m, t->elem));
    case CT_TY_FUNC: {
        const ct_type *ins[64], *outs[64];
        for (int i = 0; i < t->nin && i < 64; i++)
            ins[i] = ct_type_import(m, t->ins[i]);
        for (int i = 0; i < t->nout && i < 64; i++)
            outs[i] = ct_type_import(m, t->outs[i]);
        return ct_type_func(m, t->nin, ins, t->nout, outs);
    }
    }
    return NULL;
}

bool ct_type_equal(const ct_type *a, const ct_type *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    switch (a->kind) {
    case CT_TY_NONE:
    case CT_TY_INDEX:
        return true;
    case CT_TY_INT:
        return a->bits == b->bits && a->signedness == b->signedness;
    case CT_TY_FLOAT:
        return a->fk == b->fk;
    case CT_TY_PTR:
        return a->addrspace == b->addrspace && ct_type_equal(a->elem, b->elem);
    case CT_TY_TENSORDESC:
        return ct_type_equal(a->elem, b->elem);
    case CT_TY_TENSOR:
        if (a->rank != b->rank || !ct_type_equal(a->elem, b->elem))
            return false;
        for (int i = 0; i < a->rank; i++)
            if (a->shape[i] != b->shape[i])
                return false;
        return true;
    case CT_TY_FUNC:
        if (a->nin != b->nin || a->nout != b->nout)
            return false;
        for (int i = 0; i < a->nin; i++)
            if (!ct_type_equal(a->ins[i], b->ins[i]))
                return false;
        for (int i = 0; i < a->nout; i++)
            if (!ct_type_equal(a->outs[i], b->outs[i]))
                return false;
        return true;
    }
    return false;
}

const ct_type *ct_type_scalar(const ct_type *t)
{
    return t && t->kind == CT_TY_TENSOR ? t->elem : t;
}

const ct_type *ct_type_with_elem(ct_module *m, const ct_type *t, const ct_type *elem)
{
    if (t->kind == CT_TY_TENSOR)
        return ct_type_tensor(m, elem, t->rank, t->shape);
    return elem;
}

int64_t ct_type_numel(const ct_type *t)
{
    if (!t || t->kind != CT_TY_TENSOR)
        return 1;
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++)
        n *= t->shape[i];
    return n;
}

bool ct_type_is_int(const ct_type *t)
{
    t = ct_type_scalar(t);
    return t && (t->kind == CT_TY_INT || t->kind == CT_TY_INDEX);
}

bool ct_type_is_float(const ct_type *t)
{
    t = ct_type_scalar(t);
    return t && t->kind == CT_TY_FLOAT;
}

bool ct_type_is_ptr(const ct_type *t)
{
    t = ct_type_scalar(t);
    return t && t->kind == CT_TY_PTR;
}

static const char *float_name(ct_float_kind fk)
{
    switch (fk) {
    case CT_F16:
        return "f16";
    case CT_BF16:
        return "bf16";
    case CT_F32:
        return "f32";
    case CT_F64:
        return "f64";
    case CT_F8E4M3FN:
        return "f8E4M3FN";
    case CT_F8E5M2:
        return "f8E5M2";
    case CT_F8E4M3FNUZ:
        return "f8E4M3FNUZ";
    case CT_F8E5M2FNUZ:
        return "f8E5M2FNUZ";
    case CT_F8E4M3B11FNUZ:
        return "f8E4M3B11FNUZ";
    }
    return "f?";
}

typedef struct sbuf {
    char *p;
    size_t cap, len;
    bool bare_desc; /* Triton 3.8's !tt.tensordesc<64x64xf16> (triton_version.h: tensordesc_bare) */
} sbuf;

/* Appends s; what does not fit before the NUL is counted but not written. */
static void put(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n < b->cap) {
        memcpy(b->p + b->len, s, n);
    } else if (b->len + 1 < b->cap) {
        memcpy(b->p + b->len, s, b->cap - 1 - b->len);
    }
    b->len += n;
}

/* a decimal integer (no printf: the printer spells every type it meets) */
static void put_int(sbuf *b, long long v)
{
    char tmp[24];
    int i = 24;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    tmp[--i] = 0;
    do {
        tmp[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[--i] = '-';
    put(b, tmp + i);
}

static void put_type(sbuf *b, const ct_type *t)
{
    switch (t->kind) {
    case CT_TY_NONE:
        put(b, "none");
        break;
    case CT_TY_INDEX:
        put(b, "index");
        break;
    case CT_TY_INT:
        put(b, t->signedness == 1 ? "si" : t->signedness == 2 ? "ui" : "i");
        put_int(b, t->bits);
        break;
    case CT_TY_FLOAT:
        put(b, float_name(t->fk));
        break;
    case CT_TY_PTR:
        put(b, "!tt.ptr<");
        put_type(b, t->elem);
        if (t->addrspace != 1) {
            put(b, ", ");
            put_int(b, t->addrspace);
        }
        put(b, ">");
        break;
    case CT_TY_TENSOR:
        put(b, "tensor<");
        for (int i = 0; i < t->rank; i++) {
            put_int(b, (long long)t->shape[i]);
            put(b, "x");
        }
        put_type(b, t->elem);
        put(b, ">");
        break;
    case CT_TY_TENSORDESC:
        put(b, "!tt.tensordesc<");
        if (b->bare_desc && t->elem->kind == CT_TY_TENSOR) {
            /* the block's shape and element type, without `tensor<...>` */
            for (int i = 0; i < t->elem->rank; i++) {
                put_int(b, (long long)t->elem->shape[i]);
                put(b, "x");
            }
            put_type(b, t->elem->elem);
        } else {
            put_type(b, t->elem);
        }
        put(b, ">");
        break;
    case CT_TY_FUNC:
        put(b, "(");
        for (int i = 0; i < t->nin; i++) {
            if (i)
                put(b, ", ");
            put_type(b, t->ins[i]);
        }
        put(b, ") -> ");
        if (t->nout == 1 && t->outs[0]->kind != CT_TY_FUNC) {
            put_type(b, t->outs[0]);
        } else {
            put(b, "(");
            for (int i = 0; i < t->nout; i++) {
                if (i)
                    put(b, ", ");
                put_type(b, t->outs[i]);
            }
            put(b, ")");
        }
        break;
    }
}

size_t ct_type_str(const ct_type *t, char *buf, size_t cap)
{
    return ct_type_str_for(t, NULL, buf, cap);
}

size_t ct_type_str_for(const ct_type *t, const struct ct_triton *tv, char *buf, size_t cap)
{
    sbuf b = {buf, cap, 0, tv && tv->tensordesc_bare};
    put_type(&b, t);
    if (cap)
        buf[b.len < cap ? b.len : cap - 1] = 0;
    return b.len;
}
