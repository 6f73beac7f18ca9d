/*
 * libdevice.c - triton.language.extra.libdevice (CUDA): extern_elementwise
 * calls of the __nv_* functions, picked by the exact argument dtypes as
 * core.extern_elementwise does.  The table is generated from Triton's own
 * libdevice.py (scripts/gen_libdevice.py).
 */
#include "lang.h"

#include <string.h>

typedef struct ld_row {
    const char *name;
    int nargs;
    const char *args[4];
    const char *symbol;
    const char *ret;
} ld_row;

static const ld_row rows[] = {
#include "libdevice_table.inc"
};

static tl_tensor extern_call(const char *lib_name, const char *lib_path, int nargs,
                             tl_tensor *args, const char *symbol, const tl_type *ret, bool pure)
{
    bool all_scalar = true;
    for (int i = 0; i < nargs; i++)
        all_scalar &= !tl__is_block(args[i].type);
    if (nargs > 0) {
        tl_tensor barg = args[0];
        for (int i = 0; i < nargs; i++) {
            tl_tensor item = args[i];
            if (!sem_binary_checking(&item, &barg, false, false, false, false))
                return tl__poison();
        }
        for (int i = 0; i < nargs; i++) {
            tl_tensor b2 = barg;
            if (!sem_binary_checking(&args[i], &b2, false, false, false, false))
                return tl__poison();
        }
        if (!all_scalar)
            ret = tl__with_elem(barg.type, ret);
    }
    ct_value *ops[8];
    for (int i = 0; i < nargs; i++)
        ops[i] = args[i].handle;
    ct_op *op = b_op(CT_OP_TT_EXTERN_ELEMENTWISE, nargs, ops, 1,
                     (const ct_type *[]){tl__ir_type(ret)});
    b_attr(op, "libname", ct_attr_str(B->m, lib_name));
    b_attr(op, "libpath", ct_attr_str(B->m, lib_path));
    b_attr(op, "pure", ct_attr_bool(B->m, pure));
    b_attr(op, "symbol", ct_attr_str(B->m, symbol));
    return tl__tensor(&op->res[0], ret);
}

tl_tensor tl__libdevice(const char *name, int nargs, const tl_tensor *in, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (nargs > 4)
        return tl__err("libdevice.%s: too many arguments", name);
    tl_tensor args[4];
    for (int i = 0; i < nargs; i++) {
        if (tl__is_poison(in[i]))
            return tl__poison();
        args[i] = sem_to_tensor(in[i]);
        if (tl__is_poison(args[i]))
            return args[i];
    }
    bool known = false;
    ct_strbuf alts;
    ct_sb_init(&alts);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        if (strcmp(rows[r].name, name))
            continue;
        known = true;
        bool match = rows[r].nargs == nargs;
        for (int i = 0; match && i < nargs; i++)
            match = !strcmp(tl__scalar_name(tl__scalar(args[i].type)->sc), rows[r].args[i]);
        if (match) {
            ct_sb_free(&alts);
            return extern_call("", "", nargs, args, rows[r].symbol,
                               tl_dtype_from_name(rows[r].ret), true);
        }
        ct_sb_puts(&alts, alts.len ? ", (" : "(");
        for (int i = 0; i < rows[r].nargs; i++)
            ct_sb_printf(&alts, i ? ", %s" : "%s", rows[r].args[i]);
        ct_sb_putc(&alts, ')');
    }
    tl_tensor e;
    if (!known) {
        e = tl__err("libdevice has no function `%s`", name);
    } else {
        ct_strbuf got;
        ct_sb_init(&got);
        for (int i = 0; i < nargs; i++)
            ct_sb_printf(&got, i ? ", %s" : "%s", tl__scalar_name(tl__scalar(args[i].type)->sc));
        e = tl__err("libdevice.%s has no version for (%s); it takes %s", name, got.s ? got.s : "",
                    alts.s);
        ct_sb_free(&got);
    }
    ct_sb_free(&alts);
    return e;
}

tl_tensor tl__extern_elementwise(const char *lib_name, const char *lib_path, int nargs,
                                 const tl_tensor *in, int nsigs, const tl_extern_sig *sigs,
                                 bool is_pure, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (nargs > 4)
        return tl__err("extern_elementwise: too many arguments");
    tl_tensor args[4];
    for (int i = 0; i < nargs; i++) {
        args[i] = sem_to_tensor(in[i]);
        if (tl__is_poison(args[i]))
            return args[i];
    }
    for (int s = 0; s < nsigs; s++) {
        bool match = true;
        for (int i = 0; match && i < nargs; i++)
            match = sigs[s].args[i] && tl_type_eq(sigs[s].args[i], tl__scalar(args[i].type));
        if (match)
            return extern_call(lib_name, lib_path, nargs, args, sigs[s].symbol, sigs[s].ret,
                               is_pure);
    }
    return tl__err("input arg type does not match any signature of the extern function");
}
