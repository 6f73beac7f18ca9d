/*
 * test_optable.c - the op table (ops.def) read as every layer reads it: each
 * row's segments, regions and textual form read; the verifier's counts come
 * from the rows (an op given one operand too few or too many, for every
 * opcode, is refused with the count its row allows); enum defaults are words
 * of their enums.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ctriton/check.h"
#include "ctriton/emu.h"
#include "ctriton/ir.h"
#include "ctriton/text.h"
#include "emu/emu_internal.h" /* the emulator's constants for enum values */

bool ct_text_forms_check(char *why, size_t cap); /* src/text/format.c */

static void t_rows_read(void **state)
{
    (void)state;
    for (int i = 0; i < CT_OP__COUNT; i++) {
        const ct_op_sig *s = ct_op_sig_of((ct_opcode)i);
        if (s->max_opnds < -1)
            fail_msg("%s: its row does not read", ct_op_info_of((ct_opcode)i)->name);
        for (int k = 0; k < s->nregions; k++)
            assert_true(ct_op_info_of((ct_opcode)s->region[k].term)->flags & CT_OPF_TERM);
        /* no row mixes optional and variadic segments (their sizes would be ambiguous) */
        bool opt = false, var = false;
        for (int k = 0; k < s->nopnd_segs; k++) {
            opt |= s->opnd[k].kind == CT_SEG_OPT;
            var |= s->opnd[k].kind == CT_SEG_VAR;
        }
        assert_false(opt && var);
    }
    char why[256] = "";
    if (!ct_text_forms_check(why, sizeof why))
        fail_msg("%s", why);
}

static void t_enum_defaults(void **state)
{
    (void)state;
    for (int op = 0; op < CT_OP__COUNT; op++) {
        int n;
        const ct_attr_spec *const *sp = ct_attr_specs_of((ct_opcode)op, &n);
        for (int i = 0; i < n; i++) {
            if (sp[i]->enum_id < 0 || !*sp[i]->dflt)
                continue;
            if (!ct_enum_value((ct_enum_id)sp[i]->enum_id, sp[i]->dflt, strlen(sp[i]->dflt), NULL))
                fail_msg("%s.%s: default '%s' is no word of its enum",
                         ct_op_info_of((ct_opcode)op)->name, sp[i]->name, sp[i]->dflt);
        }
    }
    assert_string_equal(ct_enum_word(CT_EN_CMPI, 2), "slt");
    assert_int_equal(ct_enum_word(CT_EN_CMPI, 99) == NULL, 1);
}

/* An op of `code` with nopnds i32 operands and its row's smallest result count,
 * alone in a function: the verifier must say the count its row allows. */
static void expect_count_error(ct_opcode code, int nopnds)
{
    const ct_op_sig *s = ct_op_sig_of(code);
    ct_module *m = ct_module_new();
    const ct_type *i32 = ct_type_int(m, 32);
    const ct_type *ins[1] = {i32};
    ct_op *f = ct_op_new(m, CT_OP_TT_FUNC, 0, NULL, 0, NULL, 1, ct_loc_file(m, "t", 1, 1));
    ct_op_set_attr(m, f, "sym_name", ct_attr_str(m, "f"));
    ct_op_set_attr(m, f, "function_type", ct_attr_type(m, ct_type_func(m, 1, ins, 0, NULL)));
    ct_block *b = ct_block_new(m);
    ct_region_append(ct_op_region(f, 0), b);
    ct_value *x = ct_block_add_arg(m, b, i32, NULL);
    ct_value **ops = calloc((size_t)(nopnds + 1), sizeof *ops);
    for (int i = 0; i < nopnds; i++)
        ops[i] = x;
    const ct_type *rt[8];
    for (int i = 0; i < 8; i++)
        rt[i] = i32;
    ct_op *op = ct_op_new(m, code, nopnds, ops, s->min_res, rt, s->nregions,
                          ct_loc_file(m, "t", 2, 3));
    if (s->nsucc) {
        ct_block *succ[2] = {b, b};
        int cnt[2] = {0, 0};
        ct_op_set_successors(m, op, s->nsucc, succ, cnt);
    }
    ct_block_append(b, op);
    ct_module_append_func(m, f);
    ct_diags d;
    ct_diags_init(&d);
    assert_false(ct_verify_module(m, &d));
    bool found = false;
    for (int i = 0; i < d.n; i++)
        found |= d.items[i].line == 2 && strstr(d.items[i].message, "operand") &&
                 strstr(d.items[i].message, "expects");
    if (!found) {
        ct_diags_print(&d, stderr, false);
        fail_msg("%s with %d operands: no count error", ct_op_info_of(code)->name, nopnds);
    }
    ct_diags_free(&d);
    free(ops);
    ct_module_destroy(m);
}

static void t_verifier_counts_from_table(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; i < CT_OP__COUNT; i++) {
        const ct_op_sig *s = ct_op_sig_of((ct_opcode)i);
        if (i == CT_OP_TT_FUNC)
            continue; /* a tt.func inside a function is refused for its place first */
        if (s->min_opnds > 0) {
            expect_count_error((ct_opcode)i, s->min_opnds - 1);
            checked++;
        }
        if (s->max_opnds >= 0) {
            expect_count_error((ct_opcode)i, s->max_opnds + 1);
            checked++;
        }
    }
    assert_true(checked >= 100);
}

static int64_t value_of(ct_enum_id e, const char *word)
{
    int64_t v = -1;
    if (!ct_enum_value(e, word, strlen(word), &v))
        fail_msg("'%s' is no word of its enum", word);
    return v;
}

/* The constants the emulator switches on are the values ct_op_enum gives
 * (ops.def's CT_CASE rows), not numbers of its own. */
static void t_emulator_enum_values(void **state)
{
    (void)state;
    static const struct {
        const char *word;
        int value;
    } rmw[] = {{"and", RMW_AND}, {"or", RMW_OR},     {"xor", RMW_XOR},   {"add", RMW_ADD},
               {"fadd", RMW_FADD}, {"max", RMW_MAX}, {"min", RMW_MIN},   {"umax", RMW_UMAX},
               {"umin", RMW_UMIN}, {"exch", RMW_XCHG}},
      prec[] = {{"tf32", PREC_TF32}, {"tf32x3", PREC_TF32X3}, {"ieee", PREC_IEEE},
                {"bf16x3", PREC_BF16X3}, {"bf16x6", PREC_BF16X6}},
      pad[] = {{"zero", PAD_ZERO}, {"nan", PAD_NAN}};
    for (size_t i = 0; i < sizeof rmw / sizeof rmw[0]; i++)
        assert_int_equal(value_of(CT_EN_RMW, rmw[i].word), rmw[i].value);
    for (size_t i = 0; i < sizeof prec / sizeof prec[0]; i++)
        assert_int_equal(value_of(CT_EN_PRECISION, prec[i].word), prec[i].value);
    for (size_t i = 0; i < sizeof pad / sizeof pad[0]; i++)
        assert_int_equal(value_of(CT_EN_PADDING, pad[i].word), pad[i].value);
    /* a descriptor reduction's kind is the atomic of its name (compile_ops.c) */
    static const char *const kinds[] = {"add", "min", "max", "and", "or", "xor"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        value_of(CT_EN_REDUCE_KIND, kinds[i]);
        value_of(CT_EN_RMW, kinds[i]);
    }
}

/* docs/adding-an-op.md's example: scf.execute_region is its row (operands,
 * results, region and terminator, custom<ExecuteRegion>) plus its semantics
 * (the form in forms.c, the emulator's handler).  It parses, prints back to
 * itself, is verified against the row and runs. */
static const char er_text[] =
    "module {\n"
    "  tt.func public @k(%arg0: !tt.ptr<i32>, %arg1: i32) {\n"
    "    %0 = scf.execute_region -> i32 no_inline {\n"
    "      %c7_i32 = arith.constant 7 : i32\n"
    "      %1 = arith.addi %arg1, %c7_i32 : i32\n"
    "      scf.yield %1 : i32\n"
    "    }\n"
    "    tt.store %arg0, %0 : !tt.ptr<i32>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

static void t_execute_region(void **state)
{
    (void)state;
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module(er_text, strlen(er_text), "er.ttir", &d);
    if (!m)
        ct_diags_print(&d, stderr, false);
    assert_non_null(m);
    char *p = ct_print_module(m, 0);
    assert_string_equal(p, er_text);
    free(p);
    ct_emu_kernel *k = ct_emu_compile(m, NULL, &d);
    if (!k)
        ct_diags_print(&d, stderr, false);
    assert_non_null(k);
    int32_t out = 0;
    ct_emu *e = ct_emu_new();
    int b = ct_emu_add_buffer(e, "out", &out, sizeof out, CT_EMU_I32, CT_EMU_OUT);
    ct_emu_arg args[] = {ct_emu_ptr(b), ct_emu_int(5)};
    ct_emu_result r;
    ct_emu_run(e, k, &(ct_emu_launch){.grid = {1, 1, 1}}, 2, args, &r);
    assert_int_equal(r.status, CT_EMU_OK);
    assert_int_equal(out, 12);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    ct_module_destroy(m);

    /* the row's region ends in scf.yield of the op's results: a yield of none is refused */
    char bad[sizeof er_text];
    strcpy(bad, er_text);
    char *y = strstr(bad, "scf.yield %1 : i32");
    memcpy(y, "scf.yield         ", 18);
    ct_diags_clear(&d);
    assert_null(ct_parse_module(bad, strlen(bad), "er.ttir", &d));
    assert_true(d.n > 0);
    assert_non_null(strstr(d.items[0].message, "expects 1"));
    assert_int_equal(d.items[0].line, 6);
    ct_diags_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_rows_read),
        cmocka_unit_test(t_enum_defaults),
        cmocka_unit_test(t_verifier_counts_from_table),
        cmocka_unit_test(t_emulator_enum_values),
        cmocka_unit_test(t_execute_region),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
