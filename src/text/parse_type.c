/*
 * parse_type.c - types: builtin scalars, tensors, !tt.ptr, !tt.tensordesc,
 * function types.  A Triton version's own type spellings belong here.
 */
#include "parse_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

typedef struct fname {
    const char *name;
    ct_float_kind fk;
} fname;

static const fname float_names[] = {
    {"f16", CT_F16},
    {"bf16", CT_BF16},
    {"f32", CT_F32},
    {"f64", CT_F64},
    {"f8E4M3FN", CT_F8E4M3FN},
    {"f8E5M2", CT_F8E5M2},
    {"f8E4M3FNUZ", CT_F8E4M3FNUZ},
    {"f8E5M2FNUZ", CT_F8E5M2FNUZ},
    {"f8E4M3B11FNUZ", CT_F8E4M3B11FNUZ},
};

/* Scalar builtin types by name, or NULL: iN, index, none, float names. */
static const ct_type *builtin_type(parser *P, span id)
{
    /* siN and uiN: integers with a signedness (a signed tensor descriptor's block) */
    int sg = id.n >= 3 && id.s[1] == 'i' && isdigit((unsigned char)id.s[2])
                 ? (id.s[0] == 's' ? 1 : id.s[0] == 'u' ? 2 : 0)
                 : 0;
    if (sg || (id.n >= 2 && id.s[0] == 'i' && isdigit((unsigned char)id.s[1]))) {
        int bits = 0;
        for (size_t i = sg ? 2 : 1; i < id.n; i++) {
            if (!isdigit((unsigned char)id.s[i]))
                return NULL;
            bits = bits * 10 + (id.s[i] - '0');
            if (bits > 64)
                fail_at(P, id.s, "integer types wider than 64 bits are not supported");
        }
        if (bits == 0)
            fail_at(P, id.s, "integer type of width 0");
        return ct_type_int_signed(P->m, bits, sg);
    }
    if (span_is(id, "index"))
        return P->index;
    if (span_is(id, "none"))
        return ct_type_none(P->m);
    for (size_t i = 0; i < sizeof float_names / sizeof float_names[0]; i++)
        if (span_is(id, float_names[i].name))
            return ct_type_float(P->m, float_names[i].fk);
    return NULL;
}

/* tensor-type ::= 'tensor' '<' (dim 'x')* element-type '>'
 * (after 'tensor').  The dimensions are read character by character since
 * `16x4xf32` is one identifier-like run. */
static const ct_type *parse_shaped(parser *P);

static const ct_type *parse_tensor_body(parser *P)
{
    expect(P, '<', "after 'tensor'");
    const ct_type *t = parse_shaped(P);
    expect(P, '>', "to close the tensor type");
    return t;
}

/* (dim 'x')* element-type: a tensor type's shape and element, between its <> */
static const ct_type *parse_shaped(parser *P)
{
    int64_t shape[MAX_RANK];
    int rank = 0;
    int64_t numel = 1;
    skip_ws(P);
    while (P->p < P->end && isdigit((unsigned char)*P->p)) {
        const char *at = P->p;
        int64_t d = 0;
        while (P->p < P->end && isdigit((unsigned char)*P->p)) {
            d = d * 10 + (*P->p - '0');
            if (d > MAX_NUMEL)
                fail_at(P, at, "tensor dimension too large");
            P->p++;
        }
        if (P->p >= P->end || *P->p != 'x')
            fail(P, "expected 'x' after a tensor dimension");
        P->p++;
        if (rank == MAX_RANK)
            fail_at(P, at, "tensor of rank above %d", MAX_RANK);
        numel *= d ? d : 1;
        if (numel > MAX_NUMEL)
            fail_at(P, at, "tensor with more than 2^31 elements");
        shape[rank++] = d;
    }
    if (P->p < P->end && *P->p == '?')
        fail(P, "dynamic tensor dimensions are not supported");
    const ct_type *elem = parse_type(P);
    if (elem->kind == CT_TY_TENSOR || elem->kind == CT_TY_FUNC || elem->kind == CT_TY_NONE ||
        elem->kind == CT_TY_TENSORDESC)
        fail(P, "invalid tensor element type");
    if (accept(P, ','))
        fail(P, "tensor encodings (TTGIR layouts) are not supported");
    return ct_type_tensor(P->m, elem, rank, shape);
}

/* ptr-body ::= '<' type (',' int)? '>'   (the part after !tt.ptr) */
static const ct_type *parse_ptr_body(parser *P)
{
    expect(P, '<', "in a pointer type");
    const ct_type *pointee = parse_type(P);
    if (pointee->kind == CT_TY_FUNC || pointee->kind == CT_TY_NONE)
        fail(P, "invalid pointee type");
    int as = 1;
    if (accept(P, ','))
        as = (int)parse_small_int(P, 0, 1 << 20, "address space");
    expect(P, '>', "to close the pointer type");
    return ct_type_ptr(P->m, pointee, as);
}

/* desc-body ::= '<' tensor-type '>'            (Triton 3.6, 3.7)
 *             | '<' (dim 'x')* element-type '>' (Triton 3.8 on: the block's shape, element)
 * (the part after !tt.tensordesc) */
static const ct_type *parse_desc_body(parser *P)
{
    expect(P, '<', "in a tensor descriptor type");
    skip_ws(P);
    const char *at = P->p;
    const ct_type *block;
    if (span_is(peek_id(P), "tensor")) {
        rel_note(P, at, REL_DESC_WRAPPED);
        block = parse_type(P);
    } else {
        rel_note(P, at, REL_DESC_BARE);
        block = parse_shaped(P);
    }
    if (block->kind != CT_TY_TENSOR)
        fail_at(P, at, "a tensor descriptor holds a tensor type");
    expect(P, '>', "to close the tensor descriptor type");
    return ct_type_tensordesc(P->m, block);
}

/* type-list ::= '(' (type (',' type)*)? ')' ; returns the count */
int parse_type_list_paren(parser *P, const ct_type ***out)
{
    expect(P, '(', "to open a type list");
    /* the list must not leak on error: keep it in the arena */
    int n = 0, cap = 8;
    const ct_type **arr = ct_arena_alloc(P->m->arena, sizeof(*arr) * (size_t)cap);
    if (!accept(P, ')')) {
        do {
            if (n == cap) {
                const ct_type **na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                memcpy(na, arr, sizeof(*na) * (size_t)n);
                arr = na;
                cap *= 2;
            }
            arr[n++] = parse_type(P);
        } while (accept(P, ','));
        expect(P, ')', "to close the type list");
    }
    *out = arr;
    return n;
}

/* function-type ::= type-list '->' (type | type-list) */
static const ct_type *parse_function_type_rest(parser *P, int nin, const ct_type **ins)
{
    expect_arrow(P, "in a function type");
    const ct_type **outs;
    int nout;
    if (peek(P) == '(') {
        nout = parse_type_list_paren(P, &outs);
    } else {
        outs = ct_arena_alloc(P->m->arena, sizeof(*outs));
        outs[0] = parse_type(P);
        nout = 1;
    }
    return ct_type_func(P->m, nin, ins, nout, outs);
}

/* type ::= 'i'N | 'index' | 'none' | float-type | 'tensor' '<' ... '>'
 *        | '!tt.ptr' ptr-body | '!tt.tensordesc' desc-body | function-type */
const ct_type *parse_type(parser *P)
{
    enter(P);
    const ct_type *t = NULL;
    int c = peek(P);
    const char *at = P->p;
    if (c == '!') {
        P->p++;
        span id = parse_id(P, "a dialect type name after '!'");
        if (span_is(id, "tt.ptr"))
            t = parse_ptr_body(P);
        else if (span_is(id, "tt.tensordesc"))
            t = parse_desc_body(P);
        else
            fail_at(P, at, "unknown type '!%.*s'", (int)id.n, id.s);
    } else if (c == '(') {
        const ct_type **ins;
        int nin = parse_type_list_paren(P, &ins);
        t = parse_function_type_rest(P, nin, ins);
    } else {
        span id = peek_id(P);
        if (span_is(id, "tensor")) {
            P->p += id.n;
            t = parse_tensor_body(P);
        } else if (id.n && (t = builtin_type(P, id)) != NULL) {
            P->p += id.n;
        } else {
            char b[64];
            fail(P, "expected a type, found %s", found(P, b, sizeof b));
        }
    }
    leave(P);
    return t;
}

/* A type the op's format prints "stripped" (without the !tt.ptr or
 * !tt.tensordesc mnemonic, as ODS does for operands of a known type
 * class): `<tensor<32x64xf16>>`.  The full spelling is accepted as well. */
const ct_type *parse_stripped(parser *P, ct_type_kind kind)
{
    if (peek(P) != '<')
        return parse_type(P);
    if (kind == CT_TY_PTR)
        return parse_ptr_body(P);
    return parse_desc_body(P);
}

bool is_type_start(parser *P)
{
    int c = peek(P);
    if (c == '!' || c == '(')
        return true;
    span id = peek_id(P);
    if (!id.n)
        return false;
    if (span_is(id, "tensor"))
        return true;
    if (id.n >= 2 && id.s[0] == 'i' && isdigit((unsigned char)id.s[1])) {
        for (size_t i = 1; i < id.n; i++)
            if (!isdigit((unsigned char)id.s[i]))
                return false;
        return true;
    }
    if (id.n >= 3 && (id.s[0] == 's' || id.s[0] == 'u') && id.s[1] == 'i' &&
        isdigit((unsigned char)id.s[2])) {
        for (size_t i = 2; i < id.n; i++)
            if (!isdigit((unsigned char)id.s[i]))
                return false;
        return true;
    }
    if (span_is(id, "index") || span_is(id, "none"))
        return true;
    for (size_t i = 0; i < sizeof float_names / sizeof float_names[0]; i++)
        if (span_is(id, float_names[i].name))
            return true;
    return false;
}
