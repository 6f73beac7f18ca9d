/*
 * test_triton_rules.c - the text layer against Triton's own verdicts (issue 14):
 *   - tests/text/rules/accept.mlir: constructs Triton accepts that the parser or the
 *     verifier once refused (scf.while : () -> (), unnamed scf.while results,
 *     `iter_args(...) -> f32`, 0-d splat and join, scalars beside tensors in elementwise
 *     ops, rank-reduced descriptor accesses, ...): each parses, and its print parses
 *     back to the same print;
 *   - tests/text/rules/reject.mlir: one module per rule of Triton's verifiers (the
 *     gathers, descriptor loads and stores, join, unsplat, inline asm, map_elementwise
 *     stores, trans, expand_dims, make_range, extf): each is refused with the error that
 *     its `// error:` comment names, on the line below the comment;
 *   - tests/text/rules/refused.mlir: what ctriton refuses on purpose (`// refused:`);
 *   - nesting, in every construct that nests, far beyond the parser's depth limit: an
 *     error, never a stack overflow (the ASan build runs this too);
 *   - the rank limit (CT_MAX_RANK) in the verifier, for IR that was built, not parsed.
 * scripts/triton_lit.py --src tests/text/rules checks the same files against Triton.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ctriton/check.h"
#include "ctriton/emu.h"
#include "text_testutil.h"

/* the modules of a file cut at its `// -----` lines, each padded with newlines so that
 * its line numbers are the file's */
typedef struct chunk {
    char *text;
    int first_line;
} chunk;

static int split_file(const char *rel, chunk *out, int max)
{
    size_t len;
    char *text = read_src(rel, &len);
    assert_non_null(text);
    int n = 0, line = 1, start_line = 1;
    const char *start = text;
    for (const char *p = text;; p++) {
        bool eol = *p == '\n' || *p == 0;
        const char *ls = p;
        while (ls > text && ls[-1] != '\n')
            ls--;
        bool sep = eol && (size_t)(p - ls) >= 8 && !strncmp(ls, "// -----", 8);
        if (sep || *p == 0) {
            const char *end = sep ? ls : p;
            assert_true(n < max);
            size_t body = (size_t)(end - start);
            char *c = malloc((size_t)(start_line - 1) + body + 1);
            memset(c, '\n', (size_t)(start_line - 1));
            memcpy(c + start_line - 1, start, body);
            c[start_line - 1 + body] = 0;
            out[n].text = c;
            out[n].first_line = start_line;
            n++;
            start = p + 1;
            start_line = line + 1;
        }
        if (*p == 0)
            break;
        if (*p == '\n')
            line++;
    }
    free(text);
    return n;
}

static bool has_code(const char *t)
{
    for (const char *p = t; *p; p++) {
        if (*p == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            if (!*p)
                break;
        } else if (*p != ' ' && *p != '\n' && *p != '\t') {
            return true;
        }
    }
    return false;
}

static void t_accept(void **state)
{
    (void)state;
    chunk c[64];
    int n = split_file("tests/text/rules/accept.mlir", c, 64), checked = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        if (has_code(c[i].text)) {
            ct_diags d;
            ct_diags_init(&d);
            ct_module *m = ct_parse_module(c[i].text, strlen(c[i].text), "accept.mlir", &d);
            if (!m) {
                fprintf(stderr, "accept.mlir:%d: refused:\n", c[i].first_line);
                ct_diags_print(&d, stderr, false);
                failed++;
            } else {
                char *p1 = ct_print_module(m, 0);
                ct_module *m2 = parse_or_report(p1, strlen(p1), "printed");
                char *p2 = m2 ? ct_print_module(m2, 0) : NULL;
                if (!p2 || strcmp(p1, p2)) {
                    fprintf(stderr, "accept.mlir:%d: the print does not parse back to itself:\n%s",
                            c[i].first_line, p1);
                    failed++;
                }
                free(p1);
                free(p2);
                ct_module_destroy(m2);
                ct_module_destroy(m);
            }
            ct_diags_free(&d);
            checked++;
        }
        free(c[i].text);
    }
    assert_int_equal(failed, 0);
    assert_true(checked >= 8);
}

/* every module of the file refused with its marker's message on the line below the marker */
static int check_refusals(const char *rel, const char *marker)
{
    chunk c[64];
    int n = split_file(rel, c, 64), checked = 0, failed = 0;
    const char *base = strrchr(rel, '/') + 1;
    size_t ml = strlen(marker);
    for (int i = 0; i < n; i++) {
        /* the marker opens a comment line (the file's header may name it too) */
        const char *mk = c[i].text;
        while ((mk = strstr(mk, marker)) != NULL) {
            const char *q = mk;
            while (q > c[i].text && q[-1] == ' ')
                q--;
            if (q == c[i].text || q[-1] == '\n')
                break;
            mk += ml;
        }
        if (!has_code(c[i].text)) {
            free(c[i].text);
            continue;
        }
        checked++;
        if (!mk) {
            fprintf(stderr, "%s:%d: a module without `%s`\n", base, c[i].first_line, marker);
            failed++;
            free(c[i].text);
            continue;
        }
        int line = 1;
        for (const char *p = c[i].text; p < mk; p++)
            line += *p == '\n';
        line++; /* the error is on the line below the comment */
        const char *msg = mk + ml;
        while (*msg == ' ')
            msg++;
        const char *eol = strchr(msg, '\n');
        char want[256];
        snprintf(want, sizeof want, "%.*s", (int)(eol ? eol - msg : (long)strlen(msg)), msg);
        ct_diags d;
        ct_diags_init(&d);
        ct_module *m = ct_parse_module(c[i].text, strlen(c[i].text), base, &d);
        const ct_diag *g = d.n ? &d.items[0] : NULL;
        if (m || !g || g->line != line || !strstr(g->message, want)) {
            fprintf(stderr, "%s:%d: want an error at line %d with \"%s\", got %s", base,
                    c[i].first_line, line, want, m ? "a module\n" : g ? "" : "nothing\n");
            if (g)
                fprintf(stderr, "line %d: %s\n", g->line, g->message);
            failed++;
        }
        ct_module_destroy(m);
        ct_diags_free(&d);
        free(c[i].text);
    }
    assert_int_equal(failed, 0);
    return checked;
}

static void t_reject(void **state)
{
    (void)state;
    assert_true(check_refusals("tests/text/rules/reject.mlir", "// error:") >= 20);
}

static void t_refused(void **state)
{
    (void)state;
    assert_true(check_refusals("tests/text/rules/refused.mlir", "// refused:") >= 3);
}

/* ---- nesting -------------------------------------------------------------------- */

/* prefix, DEPTH x open, middle, DEPTH x close, suffix */
static char *nested(const char *prefix, const char *open, const char *middle, const char *close,
                    const char *suffix, int depth)
{
    size_t lo = strlen(open), lc = strlen(close);
    size_t n = strlen(prefix) + (lo + lc) * (size_t)depth + strlen(middle) + strlen(suffix) + 1;
    char *s = malloc(n), *p = s;
    p += sprintf(p, "%s", prefix);
    for (int i = 0; i < depth; i++, p += lo)
        memcpy(p, open, lo);
    p += sprintf(p, "%s", middle);
    for (int i = 0; i < depth; i++, p += lc)
        memcpy(p, close, lc);
    sprintf(p, "%s", suffix);
    return s;
}

static void expect_depth_error_msg(char *text, const char *what, const char *needle)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module(text, strlen(text), "deep.ttir", &d);
    const char *e = ct_diags_first_error(&d);
    if (m || !e || !strstr(e, needle)) {
        fprintf(stderr, "%s: %s\n", what, m ? "parsed" : e ? e : "no error");
        fail();
    }
    assert_true(d.items[0].line > 0 && d.items[0].col > 0);
    ct_diags_free(&d);
    free(text);
}

static void expect_depth_error(char *text, const char *what)
{
    expect_depth_error_msg(text, what, "nesting deeper than 1024 levels");
}

static void t_deep_nesting(void **state)
{
    (void)state;
    enum { DEEP = 100000 };
    /* 100000 nested scf.if */
    expect_depth_error(nested("module {\n  tt.func @f(%c: i1) {\n", "scf.if %c {\n", "", "}\n",
                              "tt.return\n  }\n}\n", DEEP),
                       "scf.if");
    /* scf.for (each level its own induction variable) and scf.while bodies */
    {
        const char *pre = "module {\n  tt.func @f(%n: i32) {\n";
        char *s = malloc((size_t)DEEP * 48 + 256), *p = s;
        p += sprintf(p, "%s", pre);
        for (int i = 0; i < DEEP; i++)
            p += sprintf(p, "scf.for %%i%d = %%n to %%n step %%n : i32 {\n", i);
        for (int i = 0; i < DEEP; i++)
            p += sprintf(p, "}\n");
        sprintf(p, "tt.return\n  }\n}\n");
        expect_depth_error(s, "scf.for");
    }
    expect_depth_error(nested("module {\n  tt.func @f(%c: i1) {\n",
                              "scf.while : () -> () {\nscf.condition(%c)\n} do {\n", "",
                              "scf.yield\n}\n", "tt.return\n  }\n}\n", DEEP),
                       "scf.while");
    /* types, attributes, locations, generic regions */
    expect_depth_error(nested("module {\n  tt.func @f(%p: ", "!tt.ptr<", "f32", ">", ") {\n"
                              "    tt.return\n  }\n}\n", DEEP),
                       "!tt.ptr");
    expect_depth_error(nested("module attributes {a = ", "[", "1", "]", "} {\n}\n", DEEP),
                       "array attribute");
    expect_depth_error_msg(nested("module {\n  tt.func @f() {\n    %0 = arith.constant dense<",
                                  "[", "1", "]", "> : tensor<1xi32>\n    tt.return\n  }\n}\n",
                                  DEEP),
                           "dense literal", "dense literal nested too deep");
    expect_depth_error(nested("module {\n  tt.func @f() {\n    tt.return loc(", "callsite(",
                              "\"a\":1:1", " at \"b\":2:2)", ")\n  }\n}\n", DEEP),
                       "callsite location");
    expect_depth_error(nested("module {\n  tt.func @f() {\n    tt.return loc(", "fused[",
                              "\"a\":1:1", "]", ")\n  }\n}\n", DEEP),
                       "fused location");
    expect_depth_error(nested("module {\n  tt.func @f(%c: i1) {\n", "\"scf.if\"(%c) ({\n",
                              "", "\"scf.yield\"() : () -> ()\n}, {\n}) : (i1) -> ()\n",
                              "tt.return\n  }\n}\n", DEEP),
                       "generic scf.if");
    /* below the limit: 500 nested scf.if parse, verify, print and parse again */
    char *ok = nested("module {\n  tt.func @f(%c: i1) {\n", "scf.if %c {\n", "", "}\n",
                      "tt.return\n  }\n}\n", 500);
    ct_module *m = parse_or_report(ok, strlen(ok), "500 levels");
    assert_non_null(m);
    char *p = ct_print_module(m, 0);
    ct_module *m2 = parse_or_report(p, strlen(p), "500 levels printed");
    assert_non_null(m2);
    ct_module_destroy(m2);
    ct_module_destroy(m);
    free(p);
    free(ok);
}

/* ---- the rank limit for built IR --------------------------------------------------- */

static void t_rank_limit(void **state)
{
    (void)state;
    for (int rank = CT_MAX_RANK; rank <= CT_MAX_RANK + 1; rank++) {
        ct_module *m = ct_module_new();
        int64_t shape[CT_MAX_RANK + 1];
        for (int i = 0; i <= CT_MAX_RANK; i++)
            shape[i] = 1;
        const ct_type *t = ct_type_tensor(m, ct_type_float(m, CT_F32), rank, shape);
        ct_op *fn = ct_op_new(m, CT_OP_TT_FUNC, 0, NULL, 0, NULL, 1, NULL);
        ct_op_set_attr(m, fn, "sym_name", ct_attr_str(m, "k"));
        ct_op_set_attr(m, fn, "function_type", ct_attr_type(m, ct_type_func(m, 1, &t, 0, NULL)));
        ct_module_append_func(m, fn);
        ct_block *b = ct_block_new(m);
        ct_region_append(&fn->regions[0], b);
        ct_value *a = ct_block_add_arg(m, b, t, NULL);
        ct_op *neg = ct_op_new(m, CT_OP_ARITH_NEGF, 1, &a, 1, &t, 0, ct_loc_file(m, "k.c", 3, 5));
        ct_block_append(b, neg);
        ct_block_append(b, ct_op_new(m, CT_OP_TT_RETURN, 0, NULL, 0, NULL, 0, NULL));
        ct_diags d;
        ct_diags_init(&d);
        bool ok = ct_verify_module(m, &d);
        if (rank <= CT_MAX_RANK) {
            if (!ok)
                ct_diags_print(&d, stderr, false);
            assert_true(ok);
        } else {
            assert_false(ok);
            char want[64];
            snprintf(want, sizeof want, "rank above %d", CT_MAX_RANK);
            assert_non_null(strstr(ct_diags_first_error(&d), want));
            ct_diags_free(&d);
            ct_diags_init(&d);
            assert_null(ct_emu_compile(m, NULL, &d)); /* the emulator's gate too */
            assert_non_null(strstr(ct_diags_first_error(&d), want));
        }
        ct_diags_free(&d);
        ct_module_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_accept),       cmocka_unit_test(t_reject),
        cmocka_unit_test(t_refused),      cmocka_unit_test(t_deep_nesting),
        cmocka_unit_test(t_rank_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
