/*
 * enums.c - the enum attributes of the ops, as words and as integers.
 *
 * The custom form of an op spells an enum as a keyword (`arith.cmpi slt`,
 * `cacheModifier = cg`); the generic form spells the same attribute as its
 * integer (`predicate = 2 : i64`, `cache = 3 : i32`).  ctriton keeps the
 * keyword (a CT_ATTR_ENUM), so the parser converts generic integers with
 * these tables and checks keywords against them; the printer uses them to
 * write the generic form.  Values are those of MLIR's arith dialect and of
 * Triton 3.6's TritonAttrDefs.td.
 */
#include <string.h>

#include "text_internal.h"

#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

static const ct_enum_case cmpi[] = {
    {"eq", 0}, {"ne", 1}, {"slt", 2}, {"sle", 3}, {"sgt", 4},
    {"sge", 5}, {"ult", 6}, {"ule", 7}, {"ugt", 8}, {"uge", 9},
};
static const ct_enum_case cmpf[] = {
    {"false", 0}, {"oeq", 1}, {"ogt", 2}, {"oge", 3}, {"olt", 4}, {"ole", 5},
    {"one", 6},   {"ord", 7}, {"ueq", 8}, {"ugt", 9}, {"uge", 10}, {"ult", 11},
    {"ule", 12},  {"une", 13}, {"uno", 14}, {"true", 15},
};
static const ct_enum_case cache[] = {
    {"none", 1}, {"ca", 2}, {"cg", 3}, {"wb", 4}, {"cs", 5}, {"wt", 6}, {"cv", 7},
};
static const ct_enum_case evict[] = {
    {"evict_normal", 1}, {"evict_first", 2}, {"evict_last", 3},
};
static const ct_enum_case sem[] = {
    {"relaxed", 1}, {"acquire", 2}, {"release", 3}, {"acq_rel", 4},
};
static const ct_enum_case scope[] = {
    {"gpu", 1}, {"cta", 2}, {"sys", 3},
};
static const ct_enum_case rmw[] = {
    {"and", 1}, {"or", 2},  {"xor", 3},  {"add", 4},  {"fadd", 5},
    {"max", 6}, {"min", 7}, {"umax", 8}, {"umin", 9}, {"exch", 10},
};
static const ct_enum_case axis[] = {
    {"x", 0}, {"y", 1}, {"z", 2},
};
static const ct_enum_case rounding[] = {
    {"rtz", 0}, {"rtne", 1},
};
static const ct_enum_case nan_mode[] = {
    {"none", 0}, {"all", 0xFFFF},
};
static const ct_enum_case precision[] = {
    {"tf32", 0}, {"tf32x3", 1}, {"ieee", 2}, {"bf16x3", 3}, {"bf16x6", 4},
};
static const ct_enum_case reduce_kind[] = {
    {"add", 1}, {"min", 2}, {"max", 3}, {"inc", 4}, {"dec", 5}, {"and", 6}, {"or", 7}, {"xor", 8},
};

typedef struct enum_attr {
    ct_opcode op;
    const char *attr;
    const ct_enum_case *cases;
    int n;
    int bits; /* width of the integer in the generic form */
} enum_attr;

static const enum_attr table[] = {
    {CT_OP_ARITH_CMPI, "predicate", cmpi, N(cmpi), 64},
    {CT_OP_ARITH_CMPF, "predicate", cmpf, N(cmpf), 64},
    {CT_OP_TT_LOAD, "cache", cache, N(cache), 32},
    {CT_OP_TT_LOAD, "evict", evict, N(evict), 32},
    {CT_OP_TT_STORE, "cache", cache, N(cache), 32},
    {CT_OP_TT_STORE, "evict", evict, N(evict), 32},
    {CT_OP_TT_DESCRIPTOR_LOAD, "cache", cache, N(cache), 32},
    {CT_OP_TT_DESCRIPTOR_LOAD, "evict", evict, N(evict), 32},
    {CT_OP_TT_ATOMIC_RMW, "atomic_rmw_op", rmw, N(rmw), 32},
    {CT_OP_TT_ATOMIC_RMW, "sem", sem, N(sem), 32},
    {CT_OP_TT_ATOMIC_RMW, "scope", scope, N(scope), 32},
    {CT_OP_TT_ATOMIC_CAS, "sem", sem, N(sem), 32},
    {CT_OP_TT_ATOMIC_CAS, "scope", scope, N(scope), 32},
    {CT_OP_TT_GET_PROGRAM_ID, "axis", axis, N(axis), 32},
    {CT_OP_TT_GET_NUM_PROGRAMS, "axis", axis, N(axis), 32},
    {CT_OP_TT_FP_TO_FP, "rounding", rounding, N(rounding), 32},
    {CT_OP_TT_CLAMPF, "propagateNan", nan_mode, N(nan_mode), 32},
    {CT_OP_TT_DOT, "inputPrecision", precision, N(precision), 32},
    {CT_OP_TT_DESCRIPTOR_REDUCE, "kind", reduce_kind, N(reduce_kind), 32},
};

const ct_enum_case *ct_enum_cases(ct_opcode op, const char *attr, int *n, int *bits)
{
    for (int i = 0; i < N(table); i++) {
        if (table[i].op == op && !strcmp(table[i].attr, attr)) {
            if (n)
                *n = table[i].n;
            if (bits)
                *bits = table[i].bits;
            return table[i].cases;
        }
    }
    return NULL;
}

const char *ct_enum_word(ct_opcode op, const char *attr, int64_t value)
{
    int n;
    const ct_enum_case *c = ct_enum_cases(op, attr, &n, NULL);
    for (int i = 0; c && i < n; i++)
        if (c[i].value == value)
            return c[i].word;
    return NULL;
}

bool ct_enum_value(ct_opcode op, const char *attr, const char *word, size_t len, int64_t *value)
{
    int n;
    const ct_enum_case *c = ct_enum_cases(op, attr, &n, NULL);
    for (int i = 0; c && i < n; i++) {
        if (strlen(c[i].word) == len && !memcmp(c[i].word, word, len)) {
            if (value)
                *value = c[i].value;
            return true;
        }
    }
    return false;
}
