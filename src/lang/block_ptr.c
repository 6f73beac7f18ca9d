/*
 * block_ptr.c - tl.make_block_ptr as Triton 3.8 has it: core._block_ptr, an
 * aggregate of scalars, and no block-pointer ops in the dialect
 * (triton_version.h: CT_BLOCK_PTR_AGGREGATE).
 *
 * The value is a TL_K_AGG holding base, shape, strides and offsets (the last
 * three as i64 scalars, _canonicalize_block_ptr_dynamic_tuple) with the static
 * block_shape and order; loops and ifs carry its fields one by one, as
 * Python flattens aggregates.  A load or store makes the tensor of pointers
 * and the mask there (_block_ptr._materialize) and goes through the ordinary
 * tl.load / tl.store.  Every step emits what core.py's method emits, in its
 * order, with its messages.  Releases before 3.8 use tt.make_tensor_ptr
 * (semantic.c), 3.9 refuses block pointers (core.c).
 */
#include "lang.h"

#include <string.h>

static const tl_type *agg_type(const tl_type *base, int rank, const int64_t *block_shape)
{
    return tl_pointer_type_ex(tl__block_type(base->elem, rank, block_shape), base->addrspace,
                              false);
}

/* _canonicalize_block_ptr_dynamic_tuple: each entry to_tensor'd, a scalar
 * integer, cast to int64 */
static bool dynamic_tuple(tl_tuple_t t, const char *name, ct_value **out)
{
    for (int i = 0; i < t.n; i++) {
        tl_tensor v = sem_to_tensor(t.v[i]);
        if (tl__is_poison(v))
            return false;
        if (tl__is_block(v.type)) {
            tl__err("Expected `%s` entries to be scalar tensors", name);
            return false;
        }
        if (!tl__is_int(v.type)) {
            tl__err("Expected `%s` entries to be integers", name);
            return false;
        }
        if (v.type->sc != TL_INT64)
            v = sem_cast(v, tl_int64, NULL);
        if (tl__is_poison(v))
            return false;
        out[i] = v.handle;
    }
    return true;
}

tl_tensor agg_make_block_ptr(tl_tensor base, tl_tuple_t shape, tl_tuple_t strides,
                             tl_tuple_t offsets, tl_shape_t block_shape, tl_ints_t order)
{
    const tl_tuple_t *lists[3] = {&shape, &strides, &offsets};
    for (int g = 0; g < 3; g++)
        for (int i = 0; i < lists[g]->n; i++)
            if (tl__is_poison(lists[g]->v[i]))
                return tl__poison();
    if (base.kind != TL_K_TENSOR || !tl__is_ptr(base.type))
        return tl__err("Expected `base` to be a scalar pointer type");
    if (tl__is_block(base.type->elem))
        return tl__err("Expected `base` to point to a scalar element type");
    int r = block_shape.rank;
    if (shape.n > CT_MAX_RANK || strides.n > CT_MAX_RANK || offsets.n > CT_MAX_RANK)
        return tl__err("make_block_ptr: at most %d dimensions", CT_MAX_RANK);
    tl_agg a = {0};
    ct_value *sh[CT_MAX_RANK], *st[CT_MAX_RANK], *of[CT_MAX_RANK];
    if (!dynamic_tuple(shape, "shape", sh) || !dynamic_tuple(strides, "strides", st) ||
        !dynamic_tuple(offsets, "offsets", of))
        return tl__poison();
    for (int i = 0; i < r; i++)
        if (block_shape.d[i] <= 0)
            return tl__err("Expected `block_shape` to contain only positive integers");
    if (r == 0)
        return tl__err("Expected `make_block_ptr` to describe at least one dimension");
    const struct {
        const char *name;
        int n;
    } fields[] = {{"shape", shape.n}, {"strides", strides.n}, {"offsets", offsets.n},
                  {"order", order.rank}};
    for (int f = 0; f < 4; f++)
        if (fields[f].n != r)
            return tl__err("Expected `shape`, `strides`, `offsets`, `block_shape`, and `order` to "
                           "have the same length; `%s` has length %d but expected %d",
                           fields[f].name, fields[f].n, r);
    bool seen[CT_MAX_RANK] = {0};
    for (int i = 0; i < r; i++) {
        if (order.d[i] < 0 || order.d[i] >= r || seen[order.d[i]])
            return tl__err("Expected `order` to be a permutation of 0..%d", r - 1);
        seen[order.d[i]] = true;
    }
    a.rank = r;
    a.nvals = 1 + 3 * r;
    a.vals[0] = base.handle;
    a.types[0] = base.type;
    for (int i = 0; i < r; i++) {
        a.vals[1 + i] = sh[i];
        a.vals[1 + r + i] = st[i];
        a.vals[1 + 2 * r + i] = of[i];
        a.types[1 + i] = a.types[1 + r + i] = a.types[1 + 2 * r + i] = tl_int64;
        a.block_shape[i] = block_shape.d[i];
        a.order[i] = (int)order.d[i];
    }
    tl_agg *p = ct_arena_alloc(B->m->arena, sizeof *p);
    *p = a;
    return (tl_tensor){.kind = TL_K_AGG, .type = agg_type(base.type, r, a.block_shape), .agg = p};
}

bool agg_is_block_ptr(tl_tensor p)
{
    return p.kind == TL_K_AGG && p.agg;
}

tl_tensor agg_advance(tl_tensor bp, tl_tuple_t offsets)
{
    for (int i = 0; i < offsets.n; i++)
        if (tl__is_poison(offsets.v[i]))
            return tl__poison();
    if (!agg_is_block_ptr(bp))
        return tl__err("`tl.advance` only supports block pointers created by `tl.make_block_ptr`");
    const tl_agg *a = bp.agg;
    int r = a->rank;
    if (offsets.n > CT_MAX_RANK)
        return tl__err("Expected `offsets` to have length %d but received %d", r, offsets.n);
    ct_value *d[CT_MAX_RANK];
    if (!dynamic_tuple(offsets, "offsets", d))
        return tl__poison();
    if (offsets.n != r)
        return tl__err("Expected `offsets` to have length %d but received %d", r, offsets.n);
    tl_agg *n = ct_arena_alloc(B->m->arena, sizeof *n);
    *n = *a;
    for (int i = 0; i < r; i++) {
        tl_tensor s = sem_add(tl__tensor(a->vals[1 + 2 * r + i], tl_int64), tl__tensor(d[i], tl_int64),
                              true);
        if (tl__is_poison(s))
            return s;
        n->vals[1 + 2 * r + i] = s.handle;
    }
    bp.agg = n;
    return bp;
}

/* _canonicalize_block_ptr_boundary_check: the dimensions, each once */
static bool checked_dims(tl_ints_t bc, int rank, bool *checked)
{
    memset(checked, 0, sizeof(bool) * CT_MAX_RANK);
    for (int i = 0; i < bc.rank; i++) {
        if (bc.d[i] < 0 || bc.d[i] >= rank) {
            tl__err("Expected `boundary_check` to contain dimensions in [0, %d)", rank);
            return false;
        }
        if (checked[bc.d[i]]) {
            tl__err("Duplicate dimension in `boundary_check`");
            return false;
        }
        checked[bc.d[i]] = true;
    }
    return true;
}

/* _block_ptr._materialize: the tensor of pointers, and the mask of the checked
 * dimensions (NONE when none is checked) */
static bool materialize(const tl_agg *a, tl_ints_t boundary, tl_tensor *ptrs, tl_tensor *mask)
{
    bool chk[CT_MAX_RANK];
    if (!checked_dims(boundary, a->rank, chk))
        return false;
    int r = a->rank;
    tl_tensor p = tl__tensor(a->vals[0], a->types[0]);
    tl_tensor m = TL_NONE;
    for (int dim = 0; dim < r; dim++) {
        tl_tensor range = sem_arange(0, a->block_shape[dim]);
        tl_tensor coord = sem_add(tl__tensor(a->vals[1 + 2 * r + dim], tl_int64), range, true);
        for (int k = 0; k < dim; k++)
            coord = sem_expand_dims(coord, 0);
        for (int k = dim + 1; k < r; k++)
            coord = sem_expand_dims(coord, tl_rank(coord)); /* expand_dims(coord, -1) */
        coord = sem_broadcast_shape(coord, r, a->block_shape);
        tl_tensor step = sem_mul(coord, tl__tensor(a->vals[1 + r + dim], tl_int64), true);
        p = sem_add(p, step, true);
        if (chk[dim]) {
            /* in Python's order (C would evaluate the arguments in any order) */
            tl_tensor ge = sem_compare(CMP_GE, coord, tl__from_i64(0));
            tl_tensor lt = sem_compare(CMP_LT, coord, tl__tensor(a->vals[1 + dim], tl_int64));
            tl_tensor valid = sem_and(ge, lt);
            m = m.kind == TL_K_NONE ? valid : sem_and(m, valid);
        }
        if (tl__is_poison(p) || tl__is_poison(m))
            return false;
    }
    *ptrs = p;
    *mask = m;
    return true;
}

tl_tensor agg_load(tl_tensor bp, tl_tensor mask, tl_tensor other, tl_ints_t boundary,
                   const char *padding, const char *cache, const char *evict, bool is_volatile)
{
    if (mask.kind != TL_K_NONE || other.kind != TL_K_NONE)
        return tl__err("`mask` and `other` arguments cannot be specified for loading block pointers");
    tl_tensor ptrs, m;
    if (!materialize(bp.agg, boundary, &ptrs, &m))
        return tl__poison();
    const tl_type *elt = bp.agg->types[0]->elem;
    tl_tensor gen = TL_NONE;
    if (!padding || !*padding)
        gen = TL_NONE;
    else if (!strcmp(padding, "zero"))
        /* a float literal for a float element: cast cannot take an int to fp8 */
        gen = tl__is_floating(elt) ? tl__from_f64(0.0) : tl__from_i64(0);
    else if (!strcmp(padding, "nan")) {
        if (tl__is_int(elt))
            return tl__err("Padding option `nan` is not supported for integer block pointers");
        gen = tl__from_f64(NAN);
    } else
        return tl__err("Padding option %s not supported", padding);
    /* core.load: mask and other to_tensor'd */
    if (gen.kind != TL_K_NONE)
        gen = sem_to_tensor(gen);
    return sem_load(ptrs, m, gen, cache, evict, is_volatile);
}

void agg_store(tl_tensor bp, tl_tensor value, tl_tensor mask, tl_ints_t boundary,
               const char *cache, const char *evict)
{
    if (mask.kind != TL_K_NONE) {
        tl__err("`mask` argument cannot be specified for storing block pointers");
        return;
    }
    tl_tensor ptrs, m;
    if (!materialize(bp.agg, boundary, &ptrs, &m))
        return;
    /* core.store: value to_tensor'd after the pointers */
    value = sem_to_tensor(value);
    if (tl__is_poison(value))
        return;
    sem_store(ptrs, value, m, cache, evict);
}
