/*
 * test_diff_soundness.c - the normalizer must never make two different
 * programs equal.  Goldens are altered on purpose, in their text or in
 * their IR, and `ctriton diff` (ct_diff_modules) must report each pair as
 * different; Triton's lowering may or may not carry such a change down to
 * the LLIR (a swapped arith.muli was seen to leave the PTX unchanged), but
 * the raw gate must not be the one to decide.  Harmless changes (names,
 * locations, dead code, calls against their inlined bodies) must compare
 * equal, or the gate would be useless.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "text_testutil.h"

static char *golden(const char *rel)
{
    size_t len;
    char *t = read_src(rel, &len);
    if (!t)
        fprintf(stderr, "missing %s\n", rel);
    assert_non_null(t);
    return t;
}

/* ct_diff_modules on two texts; returns whether they compare equal. */
static bool same(const char *a, const char *b, const char *what)
{
    ct_module *ma = parse_or_report(a, strlen(a), "original");
    ct_module *mb = parse_or_report(b, strlen(b), what);
    assert_non_null(ma);
    assert_non_null(mb);
    ct_diff_result r;
    ct_diff_modules(ma, mb, "original", what, &r, NULL);
    bool eq = r.equal;
    if (!eq)
        assert_non_null(r.first);
    ct_diff_result_free(&r);
    ct_module_destroy(ma);
    ct_module_destroy(mb);
    return eq;
}

static void expect_different(const char *orig, const char *altered, const char *what)
{
    assert_non_null(altered); /* the edit found what it edits */
    if (same(orig, altered, what)) {
        fprintf(stderr, "normalized equal but different: %s\n", what);
        fail();
    }
}

/* ---- text edits ----------------------------------------------------- */

#define ADD "tests/text/corpus/add_nolineinfo.source" /* Python raw TTIR without line info */
#define SOFTMAX "tests/text/corpus/softmax.source"
#define MATMUL "tests/text/corpus/matmul.source"
#define LAYERNORM "tests/text/corpus/layernorm.source"

static void t_commutative_swapped(void **state)
{
    (void)state;
    char *g = golden(ADD);
    char *x = replace_once(g, "%16 = arith.addi %9, %8 :", "%16 = arith.addi %8, %9 :");
    expect_different(g, x, "addi operands swapped");
    free(x);
    free(g);
    g = golden(SOFTMAX);
    x = replace_once(g, "%row_start_7 = arith.muli %row, %n_cols :",
                     "%row_start_7 = arith.muli %n_cols, %row :");
    expect_different(g, x, "muli operands swapped");
    free(x);
    free(g);
}

static void t_offset_made_i64(void **state)
{
    (void)state;
    char *g = golden(ADD);
    char *x = replace_once(
        g, "    %20 = tt.addptr %19, %16 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32> loc(#loc)\n",
        "    %wide = arith.extsi %16 : tensor<1024xi32> to tensor<1024xi64> loc(#loc)\n"
        "    %20 = tt.addptr %19, %wide : tensor<1024x!tt.ptr<f32>>, tensor<1024xi64> loc(#loc)\n");
    expect_different(g, x, "i32 offset made i64");
    free(x);
    free(g);
}

static void t_load_other_dropped(void **state)
{
    (void)state;
    char *g = golden(SOFTMAX);
    char *x = replace_once(g, "%x_13 = tt.load %x_10, %mask_8, %x_12 :", "%x_13 = tt.load %x_10, %mask_8 :");
    expect_different(g, x, "load other dropped");
    free(x);
    free(g);
}

/* A live cast moved above an independent op (same values, another order). */
static void t_cast_moved(void **state)
{
    (void)state;
    char *g = golden(LAYERNORM);
    char *call = strstr(g, "    %mean_21 = tt.call");
    char *cast = strstr(g, "    %mean_22 = arith.sitofp %N : i32 to f32");
    assert_non_null(call);
    assert_non_null(cast);
    assert_true(call < cast);
    size_t cast_len = (size_t)(strchr(cast, '\n') + 1 - cast);
    size_t n = strlen(g);
    char *x = malloc(n + 1);
    size_t pre = (size_t)(call - g), mid = (size_t)(cast - call);
    memcpy(x, g, pre);
    memcpy(x + pre, cast, cast_len);
    memcpy(x + pre + cast_len, call, mid);
    strcpy(x + pre + cast_len + mid, cast + cast_len);
    assert_int_equal(strlen(x), n);
    expect_different(g, x, "cast moved");
    free(x);
    free(g);
}

static void t_other_changes(void **state)
{
    (void)state;
    static const struct {
        const char *file, *from, *to, *what;
    } edits[] = {
        {SOFTMAX, "%x_16 = arith.subf %x_13, %x_15 :", "%x_16 = arith.subf %x_15, %x_13 :",
         "subf operands swapped"},
        {SOFTMAX, "%mask_8 = arith.cmpi slt,", "%mask_8 = arith.cmpi sle,", "predicate changed"},
        {SOFTMAX, "%x_12 = arith.constant dense<0xFF800000>", "%x_12 = arith.constant dense<0x7F800000>",
         "constant changed"},
        {SOFTMAX, "tt.store %2, %y_18, %mask_8 :", "tt.store %2, %y_18 :", "store mask dropped"},
        {SOFTMAX, "%x_13 = tt.load %x_10, %mask_8, %x_12 :",
         "%x_13 = tt.load %x_10, %mask_8, %x_12 cacheModifier = cg :", "cache modifier added"},
        {SOFTMAX, "%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}", "%x_ptr: !tt.ptr<f32>",
         "divisibility dropped"},
        {ADD, "%21 = tt.load %20, %18 :", "%21 = tt.load %20, %18 {isVolatile = true} :",
         "load made volatile"},
        {MATMUL, "inputPrecision = tf32", "inputPrecision = tf32x3", "dot precision changed"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        char *g = golden(edits[i].file);
        char *x = replace_once(g, edits[i].from, edits[i].to);
        if (!x)
            fprintf(stderr, "edit not found: %s\n", edits[i].what);
        expect_different(g, x, edits[i].what);
        free(x);
        free(g);
    }
}

/* ---- IR edits ------------------------------------------------------- */

typedef struct find {
    ct_opcode code;
    ct_op *op;
} find;

static bool find_op(ct_op *op, void *ud)
{
    find *f = ud;
    if (op->code == f->code && !f->op) {
        f->op = op;
        return false;
    }
    return true;
}

/* Swaps iter_args i and j of an scf.for consistently (operands, body
 * arguments, yielded values, results and their uses): the same program
 * with another order of loop-carried values. */
static void swap_iter_args(ct_module *m, ct_op *f, int i, int j)
{
    ct_value *t = f->opnds[3 + i];
    f->opnds[3 + i] = f->opnds[3 + j];
    f->opnds[3 + j] = t;
    ct_block *b = f->regions[0].first;
    t = b->args[1 + i];
    b->args[1 + i] = b->args[1 + j];
    b->args[1 + j] = t;
    b->args[1 + i]->index = 1 + i;
    b->args[1 + j]->index = 1 + j;
    ct_op *y = b->last;
    t = y->opnds[i];
    y->opnds[i] = y->opnds[j];
    y->opnds[j] = t;
    ct_value *ri = &f->res[i], *rj = &f->res[j];
    const ct_type *ty = ri->type;
    ri->type = rj->type;
    rj->type = ty;
    ct_value tmp = {0};
    ct_replace_uses(m, NULL, ri, &tmp);
    ct_replace_uses(m, NULL, rj, ri);
    ct_replace_uses(m, NULL, &tmp, rj);
}

static void t_iter_args_reordered(void **state)
{
    (void)state;
    char *g = golden(MATMUL);
    ct_module *m = parse_str(g);
    assert_non_null(m);
    find f = {CT_OP_SCF_FOR, NULL};
    ct_walk_module(m, find_op, &f);
    assert_non_null(f.op);
    assert_true(f.op->nres >= 2);
    swap_iter_args(m, f.op, 0, 1);
    char *x = ct_print_module(m, CT_PRINT_LOCS | CT_PRINT_LOC_ALIASES);
    ct_module_destroy(m);
    assert_non_null(strstr(x, "iter_args(%b_ptrs_263 = %b_ptrs_174, %a_ptrs_262 = %a_ptrs_132"));
    expect_different(g, x, "iter_args reordered");
    /* swapping back gives the original again */
    m = parse_str(x);
    f.op = NULL;
    ct_walk_module(m, find_op, &f);
    swap_iter_args(m, f.op, 0, 1);
    char *back = ct_print_module(m, CT_PRINT_LOCS | CT_PRINT_LOC_ALIASES);
    assert_true(same(g, back, "swapped twice"));
    ct_module_destroy(m);
    free(back);
    free(x);
    free(g);
}

/* ---- what must compare equal ---------------------------------------- */

static void t_harmless_changes(void **state)
{
    (void)state;
    char *g = golden(SOFTMAX);
    ct_module *m = parse_str(g);
    /* no locations, values numbered */
    char *plain = ct_print_module(m, CT_PRINT_NUMBERED);
    assert_true(same(g, plain, "locations dropped"));
    /* its own normal form: calls inlined, dead code gone */
    ct_normalize(m, 0, NULL);
    char *norm = ct_print_module(m, 0);
    assert_true(same(g, norm, "normalized"));
    ct_module_destroy(m);
    /* dead code added */
    char *x = replace_once(g, "    %num = math.exp %x_16 : tensor<1024xf32> loc(#loc46)\n",
                           "    %num = math.exp %x_16 : tensor<1024xf32> loc(#loc46)\n"
                           "    %dead = arith.constant 7 : i32 loc(#loc46)\n"
                           "    %dead2 = arith.muli %dead, %dead : i32 loc(#loc46)\n"
                           "    %dead3 = tt.load %x_10, %mask_8 : tensor<1024x!tt.ptr<f32>> loc(#loc46)\n");
    assert_true(same(g, x, "dead code added"));
    free(x);
    free(plain);
    free(norm);
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_commutative_swapped), cmocka_unit_test(t_offset_made_i64),
        cmocka_unit_test(t_load_other_dropped),  cmocka_unit_test(t_cast_moved),
        cmocka_unit_test(t_other_changes),       cmocka_unit_test(t_iter_args_reordered),
        cmocka_unit_test(t_harmless_changes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
