/*
 * test_parse.c - the TTIR parser: round trips over every golden and corpus
 * file, errors with line and column, generic forms, literals, and hostile
 * input (every prefix of a file, every line dropped).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "text_testutil.h"

static bool is_triton_file(const char *rel)
{
    /* c.source is ctriton's own output, printed without aliases */
    const char *base = strrchr(rel, '/');
    return strcmp(base ? base + 1 : rel, "c.source") != 0;
}

/* print(parse(x)) == x for every file Triton or ctriton wrote, and the
 * printed text is a fixed point of print . parse. */
static void t_roundtrip_files(void **state)
{
    (void)state;
    int n;
    char **files = text_files(&n);
    assert_true(n >= 40); /* goldens + corpus: a vanished directory must fail */
    int failed = 0;
    for (int i = 0; i < n; i++) {
        size_t len;
        char *text = read_src(files[i], &len);
        assert_non_null(text);
        ct_module *m = parse_or_report(text, len, files[i]);
        if (!m) {
            fprintf(stderr, "%s: does not parse\n", files[i]);
            failed++;
            free(text);
            continue;
        }
        unsigned flags = CT_PRINT_LOCS | (is_triton_file(files[i]) ? CT_PRINT_LOC_ALIASES : 0);
        char *p1 = ct_print_module(m, flags);
        if (strcmp(p1, text) != 0) {
            fprintf(stderr, "%s: print(parse(x)) differs from x\n", files[i]);
            failed++;
        }
        /* fixed point, for each way of printing */
        static const unsigned all[] = {CT_PRINT_LOCS | CT_PRINT_LOC_ALIASES, CT_PRINT_LOCS, 0,
                                       CT_PRINT_NUMBERED};
        for (int f = 0; f < 4; f++) {
            char *a = ct_print_module(m, all[f]);
            ct_module *m2 = parse_or_report(a, strlen(a), "printed");
            assert_non_null(m2);
            char *b = ct_print_module(m2, all[f]);
            /* without locations the names go with the first print: one more round */
            ct_module *m3 = parse_or_report(b, strlen(b), "printed twice");
            assert_non_null(m3);
            char *c = ct_print_module(m3, all[f]);
            if (strcmp(all[f] & CT_PRINT_LOCS ? a : b, all[f] & CT_PRINT_LOCS ? b : c) != 0) {
                fprintf(stderr, "%s: not a fixed point with flags %u\n", files[i], all[f]);
                failed++;
            }
            free(a);
            free(b);
            free(c);
            ct_module_destroy(m2);
            ct_module_destroy(m3);
        }
        free(p1);
        ct_module_destroy(m);
        free(text);
    }
    free_files(files, n);
    assert_int_equal(failed, 0);
}

/* Location-free printing matches the golden with its locations removed,
 * value names included (they come from the name locations). */
static void t_strip_locs(void **state)
{
    (void)state;
    size_t len;
    char *text = read_src("tests/text/corpus/softmax.source", &len);
    assert_non_null(text);
    ct_module *m = parse_or_report(text, len, "softmax.source");
    assert_non_null(m);
    char *p = ct_print_module(m, 0);
    assert_non_null(strstr(p, "%row_start_7 = arith.muli %row, %n_cols : i32\n"));
    assert_null(strstr(p, "loc("));
    assert_null(strstr(p, "#loc"));
    free(p);
    p = ct_print_module(m, CT_PRINT_NUMBERED);
    assert_null(strstr(p, "%row"));
    assert_non_null(strstr(p, "%7 = arith.muli %0, %arg2 : i32\n"));
    free(p);
    ct_module_destroy(m);
    free(text);
}

/* ---- errors --------------------------------------------------------- */

typedef struct bad {
    const char *text;
    int line, col;
    const char *msg;
} bad;

static const bad bads[] = {
    {"module {\n  tt.func @f() {\n    tt.bogus\n  }\n}\n", 3, 5, "unknown operation 'tt.bogus'"},
    {"module {\n  tt.func @f() {\n    %0 = \"tt.nope\"() : () -> i32\n    tt.return\n  }\n}\n", 3,
     10, "unknown operation 'tt.nope'"},
    {"module {\n  tt.func @f() {\n    tt.return %x : i32\n  }\n}\n", 3, 15,
     "use of undefined value %x"},
    {"module {\n  tt.func @f(%a: i32) {\n    %0 = arith.addi %a, %a : i64\n    tt.return\n  }\n}\n",
     3, 21, "%a has type i32 but is used as i64"},
    {"module {\n  tt.func @f(%a: i32) {\n    %a = arith.addi %a, %a : i32\n    tt.return\n  }\n}\n",
     3, 5, "redefinition of %a"},
    {"module {\n  tt.func @f() {\n    %0 = arith.constant 1 : i33x\n  }\n}\n", 3, 29,
     "expected a type, found 'i33x'"},
    {"module {\n  tt.func @f() {\n    %0 = arith.constant 300 : i8\n    tt.return\n  }\n}\n", 3,
     25, "integer literal out of range for i8"},
    {"module {\n  tt.func @f() {\n    %0 = arith.constant 1 : f32\n    tt.return\n  }\n}\n", 3,
     25, "decimal integer for a float attribute"},
    {"module {\n  tt.func @f() {\n    tt.return\n  }\n", 5, 1, "expected '}' to close the module"},
    {"module {\n  tt.func @f() {\n    tt.print \"abc\n  }\n}\n", 3, 14, "string not closed"},
    {"module {\n  tt.func @f() {\n    tt.return loc(#loc9)\n  }\n}\n", 3, 19,
     "use of undefined location alias #loc9"},
    {"#loc = loc(\"a\"(#loc1))\n#loc1 = loc(\"b\"(#loc))\nmodule {\n}\n", 1, 16,
     "refers to itself"},
    {"module {\n  tt.func @f() {\n    cf.br ^bb7\n  }\n}\n", 3, 11,
     "reference to undefined block ^bb7"},
    {"module {\n  tt.func @f(%x: i32) {\n    cf.br ^bb1\n  ^bb1(%y: i32):\n    tt.return\n  }\n}\n",
     3, 5, "the operands of 'cf.br' do not match the arguments of its successor"},
    {"module {\n  tt.func @f() {\n    %0 = arith.constant dense<[[1], [2, 3]]> : tensor<2x2xi32>\n"
     "    tt.return\n  }\n}\n",
     3, 37, "dense literal with uneven lists (1 and 2 elements)"},
    {"module {\n  tt.func @f() {\n    %0 = arith.constant dense<[1, [2]]> : tensor<2xi32>\n"
     "    tt.return\n  }\n}\n",
     3, 36, "dense literal with uneven nesting"},
    {"module {\n  tt.func @f() {\n    %0 = arith.constant dense<[1, 2, 3]> : tensor<2xi32>\n"
     "    tt.return\n  }\n}\n",
     3, 31, "dense literal shape does not match"},
    {"module {\n  tt.func @f(%p: tensor<4xf32, #blocked>) {\n    tt.return\n  }\n}\n", 2, 31,
     "tensor encodings (TTGIR layouts) are not supported"},
    {"#blocked = #ttg.blocked<{}>\nmodule {\n}\n", 1, 12, "only location aliases are supported"},
    {"module {\n  tt.func @f() {\n    %0 = arith.constant 1 : i32\n  }\n}\n", 3, 10,
     "arith.constant: block in a tt.func region does not end with a terminator"},
    {"module {\n  tt.func @f() {\n    tt.return\n    tt.return\n  }\n}\n", 4, 5,
     "an operation after the terminator"},
    {"module {\n  tt.func @f(%c: i1) {\n    %0 = arith.cmpi foo, %c, %c : i1\n    tt.return\n  }\n}\n",
     3, 21, "'foo' is not a valid predicate of 'arith.cmpi'"},
    {"module {\n  tt.func @f() {\n    %0:2 = arith.constant 1 : i32\n    tt.return\n  }\n}\n", 3,
     5, "'arith.constant' has 1 result but 2 are named"},
    {"module {\n  tt.func @f() -> i32 {\n    %0 = arith.constant 1 : i64\n    tt.return %0 : i64\n"
     "  }\n}\n",
     4, 5, "tt.return: value 0 has type i64, the function returns i32"},
    {"module {\n  arith.constant 1 : i32\n}\n", 2, 3, "only tt.func can be at the top level"},
    {"module {\n  tt.func @f() {\n    %0 = \"arith.addi\"() : () -> i32\n    tt.return\n  }\n}\n", 3,
     10, "arith.addi: expects 2 operands, has 0"},
    {"module {\n  tt.func @f() {\n    %0 = \"arith.cmpi\"(%0, %0) <{predicate = 99 : i64}> : (i32, "
     "i32) -> i1\n    tt.return\n  }\n}\n",
     3, 23, "use of undefined value %0"},
    {"module {\n  tt.func @f() {\n    \"tt.get_program_id\"() <{axis = 7 : i32}> : () -> i32\n"
     "    tt.return\n  }\n}\n",
     3, 5, "7 is not a valid axis of 'tt.get_program_id'"},
    {"", 0, 0, NULL}, /* empty text: an empty module */
    {"module {\n  tt.func @f() {\n    %0 = arith.constant 1 : i32 loc(\"a\":1:2) loc(\"b\":1:2)\n"
     "    tt.return\n  }\n}\n",
     3, 46, "unknown operation 'loc'"},
    {"module {\n  tt.func @f(%x: i32) {\n    scf.for %i = %x to %x step %x : i32 {\n      "
     "scf.yield %i : i32\n    }\n    tt.return\n  }\n}\n",
     4, 7, "scf.yield: yields 1 values, the enclosing scf.for expects 0"},
};

static void t_errors(void **state)
{
    (void)state;
    int failed = 0;
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        const bad *b = &bads[i];
        ct_diags d;
        ct_diags_init(&d);
        ct_module *m = ct_parse_module(b->text, strlen(b->text), "t.ttir", &d);
        if (!b->msg) {
            if (!m) {
                fprintf(stderr, "case %zu: expected success\n", i);
                ct_diags_print(&d, stderr, false);
                failed++;
            }
            ct_module_destroy(m);
            ct_diags_free(&d);
            continue;
        }
        if (m) {
            fprintf(stderr, "case %zu: expected an error\n", i);
            failed++;
            ct_module_destroy(m);
            ct_diags_free(&d);
            continue;
        }
        const ct_diag *g = d.n ? &d.items[0] : NULL;
        if (!g || g->severity != CT_ERROR || !g->file || strcmp(g->file, "t.ttir") ||
            g->line != b->line || g->col != b->col || !strstr(g->message, b->msg)) {
            fprintf(stderr, "case %zu: want %d:%d \"%s\", got ", i, b->line, b->col, b->msg);
            if (g)
                fprintf(stderr, "%d:%d \"%s\"\n", g->line, g->col, g->message);
            else
                fprintf(stderr, "nothing\n");
            failed++;
        }
        ct_diags_free(&d);
    }
    assert_int_equal(failed, 0);
}

/* Every prefix of a file and every file with one line dropped: an error
 * with a position, or a module; never a crash (this test runs under ASan). */
static void t_hostile(void **state)
{
    (void)state;
    size_t len;
    char *text = read_src("tests/text/corpus/control.source", &len);
    assert_non_null(text);
    int ok = 0, errors = 0;
    for (size_t k = 0; k < len; k += 3) {
        ct_diags d;
        ct_diags_init(&d);
        ct_module *m = ct_parse_module(text, k, "prefix", &d);
        if (m) {
            ok++;
            ct_module_destroy(m);
        } else {
            errors++;
            assert_true(d.nerrors > 0);
            assert_true(d.items[0].line > 0 && d.items[0].col > 0);
        }
        ct_diags_free(&d);
    }
    assert_true(errors > 0);
    /* drop each line in turn */
    for (size_t s = 0; s < len;) {
        const char *e = memchr(text + s, '\n', len - s);
        size_t eol = e ? (size_t)(e - text) + 1 : len;
        char *cut = malloc(len);
        memcpy(cut, text, s);
        memcpy(cut + s, text + eol, len - eol);
        ct_diags d;
        ct_diags_init(&d);
        ct_module *m = ct_parse_module(cut, len - (eol - s), "cut", &d);
        if (m) {
            char *p = ct_print_module(m, CT_PRINT_LOCS | CT_PRINT_LOC_ALIASES);
            free(p);
            ct_normalize(m, 0, NULL);
            ct_module_destroy(m);
        } else {
            assert_true(d.nerrors > 0);
        }
        ct_diags_free(&d);
        free(cut);
        s = eol;
    }
    free(text);
}

/* ---- forms ------------------------------------------------------------ */

static char *reprint(const char *text, unsigned flags)
{
    ct_module *m = parse_str(text);
    assert_non_null(m);
    char *s = ct_print_module(m, flags);
    ct_module_destroy(m);
    return s;
}

/* The generic form of ops that have a custom one reads into the same IR:
 * enum integers become keywords, default properties disappear. */
static void t_generic_forms(void **state)
{
    (void)state;
    const char *generic =
        "module {\n"
        "  tt.func public @k(%p: !tt.ptr<f32>, %n: i32) {\n"
        "    %0 = \"tt.get_program_id\"() <{axis = 1 : i32}> : () -> i32\n"
        "    %1 = \"arith.cmpi\"(%0, %n) <{predicate = 2 : i64}> : (i32, i32) -> i1\n"
        "    %2 = \"tt.load\"(%p, %1) <{boundaryCheck = array<i32>, cache = 3 : i32, evict = 1 : i32,"
        " isVolatile = false, operandSegmentSizes = array<i32: 1, 1, 0>}> : (!tt.ptr<f32>, i1) -> f32\n"
        "    \"tt.store\"(%p, %2) <{cache = 1 : i32, evict = 3 : i32}> : (!tt.ptr<f32>, f32) -> ()\n"
        "    \"cf.cond_br\"(%1, %0, %n) [^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 1, 1>}> :"
        " (i1, i32, i32) -> ()\n"
        "  ^bb1(%3: i32):\n"
        "    \"tt.return\"() : () -> ()\n"
        "  }\n"
        "}\n";
    const char *custom =
        "module {\n"
        "  tt.func public @k(%arg0: !tt.ptr<f32>, %arg1: i32) {\n"
        "    %0 = tt.get_program_id y : i32\n"
        "    %1 = arith.cmpi slt, %0, %arg1 : i32\n"
        "    %2 = tt.load %arg0, %1 cacheModifier = cg : !tt.ptr<f32>\n"
        "    tt.store %arg0, %2 evictionPolicy = evict_last : !tt.ptr<f32>\n"
        "    cf.cond_br %1, ^bb1(%0 : i32), ^bb1(%arg1 : i32)\n"
        "  ^bb1(%3: i32):  // 2 preds: ^bb0, ^bb0\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    char *a = reprint(generic, 0);
    assert_string_equal(a, custom);
    char *b = reprint(custom, 0);
    assert_string_equal(b, custom);
    free(a);
    free(b);
}

static void t_literals(void **state)
{
    (void)state;
    const char *in =
        "module {\n"
        "  tt.func @k() {\n"
        "    %0 = arith.constant dense<[1, 1, 1, 1]> : tensor<4xi32>\n"
        "    %1 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>\n"
        "    %2 = arith.constant dense<\"0x0000803F\"> : tensor<8xf32>\n"
        "    %3 = arith.constant dense<0x7FC00000> : tensor<2xf32>\n"
        "    %4 = arith.constant 0xFF800000 : f32\n"
        "    %5 = arith.constant -1 : i64\n"
        "    %6 = arith.constant 0xFFFFFFFF : i32\n"
        "    %7 = arith.constant 1.000000e-01 : f32\n"
        "    %8 = arith.constant dense<[true, false]> : tensor<2xi1>\n"
        "    %9 = arith.constant 1.5 : bf16\n"
        "    %10 = arith.constant 0x7C00 : f16\n"
        "    %11 = arith.constant dense<-0.5> : tensor<2xf64>\n"
        "    tt.print \"a\\\"b\\\\c\\0A\" {hex = false, isSigned = array<i32>}\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    char *s = reprint(in, 0);
    assert_non_null(strstr(s, "%cst = arith.constant dense<1> : tensor<4xi32>\n"));
    assert_non_null(strstr(s, "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>\n"));
    assert_non_null(strstr(s, "dense<1.000000e+00> : tensor<8xf32>\n"));
    assert_non_null(strstr(s, "dense<0x7FC00000> : tensor<2xf32>\n"));
    assert_non_null(strstr(s, "%cst_3 = arith.constant 0xFF800000 : f32\n"));
    assert_non_null(strstr(s, "%c-1_i64 = arith.constant -1 : i64\n"));
    assert_non_null(strstr(s, "%c-1_i32 = arith.constant -1 : i32\n"));
    assert_non_null(strstr(s, "arith.constant 1.000000e-01 : f32\n"));
    assert_non_null(strstr(s, "dense<[true, false]> : tensor<2xi1>\n"));
    assert_non_null(strstr(s, "arith.constant 1.500000e+00 : bf16\n"));
    assert_non_null(strstr(s, "arith.constant 0x7C00 : f16\n"));
    assert_non_null(strstr(s, "dense<-5.000000e-01> : tensor<2xf64>\n"));
    assert_non_null(strstr(s, "tt.print \"a\\\"b\\\\c\\0A\" {"));
    free(s);
}

/* scf.for and scf.while headers cannot carry the locations of their block
 * arguments; the names survive as hints, with MLIR's _N numbering. */
static void t_header_names(void **state)
{
    (void)state;
    const char *in =
        "module {\n"
        "  tt.func @k(%n: i32) {\n"
        "    %c0_i32 = arith.constant 0 : i32\n"
        "    %acc = arith.constant 1.000000e+00 : f32\n"
        "    %acc_0 = scf.for %k = %c0_i32 to %n step %n iter_args(%acc_1 = %acc) -> (f32)  : i32 {\n"
        "      %acc_2 = arith.addf %acc_1, %acc_1 : f32 loc(\"acc\")\n"
        "      scf.yield %acc_2 : f32\n"
        "    } loc(\"acc\")\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    char *s = reprint(in, 0);
    /* %acc_1 keeps its name; the body's "acc" then takes the first conflict number */
    assert_non_null(strstr(s, "%acc = scf.for %k = %c0_i32 to %arg0 step %arg0 iter_args(%acc_1 = %cst)"));
    assert_non_null(strstr(s, "%acc_0 = arith.addf %acc_1, %acc_1 : f32\n"));
    free(s);
}

static void t_no_module_wrapper(void **state)
{
    (void)state;
    char *s = reprint("tt.func @f() {\n  tt.return\n}\n", 0);
    assert_string_equal(s, "module {\n  tt.func @f() {\n    tt.return\n  }\n}\n");
    free(s);
}

static void t_parse_file_missing(void **state)
{
    (void)state;
    ct_diags d;
    ct_diags_init(&d);
    assert_null(ct_parse_file("/nonexistent/x.ttir", &d));
    assert_true(ct_diags_has_errors(&d));
    assert_non_null(strstr(ct_diags_first_error(&d), "cannot read"));
    ct_diags_free(&d);
}

/* Regressions found by fuzzing (fuzz/run.sh); each ran into undefined
 * behaviour or a crash before its fix, visible in the ASan+UBSan build. */
static void t_fuzz_regressions(void **state)
{
    (void)state;
    static const char *const inputs[] = {
        /* a branch without operands: its operand array is NULL, and the
         * successor check once computed NULL + 0 (UBSan: "applying zero
         * offset to null pointer") */
        "module {\n  tt.func @f(%c: i1) {\n    cf.cond_br %c, ^bb1, ^bb1\n  ^bb1:\n"
        "    cf.br ^bb2\n  ^bb2:\n    tt.return\n  }\n}\n",
        /* a yield without operands in a loop without iter_args */
        "module {\n  tt.func @f(%n: i32) {\n    scf.for %i = %n to %n step %n : i32 {\n"
        "      scf.yield\n    }\n    tt.return\n  }\n}\n",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        ct_module *m = parse_str(inputs[i]);
        assert_non_null(m);
        char *a = ct_print_module(m, CT_PRINT_LOCS | CT_PRINT_LOC_ALIASES);
        ct_normalize(m, 0, NULL);
        char *b = ct_print_module(m, 0);
        free(a);
        free(b);
        ct_module_destroy(m);
    }
}

/* A module parsed from text keeps where the text had its ops without loc() (issue 14: errors,
 * lints and faults on such IR named no place); an op with a file location is not recorded. */
static void t_op_positions(void **state)
{
    (void)state;
    const char *text = "module {\n"
                       "  tt.func public @k(%p: !tt.ptr<f32>) {\n"
                       "    %c = arith.constant 1.0 : f32\n"
                       "      tt.store %p, %c : !tt.ptr<f32> loc(\"k.py\":3:4)\n"
                       "    tt.return\n"
                       "  }\n"
                       "}\n";
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module(text, strlen(text), "pos.ttir", &d);
    assert_non_null(m);
    const ct_op *f = m->body->first, *c = f->regions[0].first->first, *st = c->next, *ret = st->next;
    const char *file;
    int line, col;
    assert_true(ct_module_op_position(m, f, &file, &line, &col));
    assert_string_equal(file, "pos.ttir");
    assert_int_equal(line, 2);
    assert_int_equal(col, 3);
    assert_true(ct_module_op_position(m, c, &file, &line, &col));
    assert_int_equal(line, 3);
    assert_int_equal(col, 10); /* the op's name, after its results */
    assert_false(ct_module_op_position(m, st, &file, &line, &col)); /* it has loc() */
    assert_true(ct_module_op_position(m, ret, &file, &line, &col));
    assert_int_equal(line, 5);
    assert_int_equal(col, 5);
    /* a later layer's diagnostic about the op lands there */
    ct_op_where w = ct_module_where(m);
    ct_diag_op(&d, CT_ERROR, ret, &w, NULL, "here");
    assert_int_equal(d.n, 1);
    assert_string_equal(d.items[0].file, "pos.ttir");
    assert_int_equal(d.items[0].line, 5);
    /* a module that was built has no positions */
    ct_module *b = ct_module_new();
    assert_false(ct_module_op_position(b, ret, &file, &line, &col));
    ct_module_destroy(b);
    ct_module_destroy(m);
    ct_diags_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_roundtrip_files),   cmocka_unit_test(t_strip_locs),
        cmocka_unit_test(t_errors),            cmocka_unit_test(t_hostile),
        cmocka_unit_test(t_generic_forms),     cmocka_unit_test(t_literals),
        cmocka_unit_test(t_header_names),      cmocka_unit_test(t_no_module_wrapper),
        cmocka_unit_test(t_parse_file_missing), cmocka_unit_test(t_fuzz_regressions),
        cmocka_unit_test(t_op_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
