/*
 * triton_version.c - the supported Triton releases, one row each, and how the
 * target release of a build is chosen (include/ctriton/triton_version.h).
 *
 * A row states each fact of triton_version.h for that release; the rows were
 * established by reading each release's frontend against the previous one
 * (scripts/triton_diff.py) and are checked by compiling every kernel of the
 * fidelity table with each release (tests/golden/VERDICTS-X.Y.Z.md).  3.7.0
 * and 3.7.1 have the same frontend (triton_diff.py: no line of a ported file
 * differs); they are two rows because lowering checks the exact release.
 *
 * The table lives in the IR layer because the module records the release it
 * is written for (ct_module.triton): the language builds for it, the printer
 * spells it, the parser reports which releases a text can belong to.
 */
#define _GNU_SOURCE
#include "ctriton/triton_version.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctriton/ir.h"
#include "util/util.h"

/* Each release's facts are the previous release's plus what it changed
 * (a later designated initializer overrides an earlier one); the comment
 * says where in Triton's sources. */
/* 3.6.0's facts that are words rather than switches */
#define FACTS_3_6                                                                                 \
    .none_arith_error = "AttributeError(\"'NoneType' object has no attribute 'type'\")",          \
    .none_load_attr = "is_ptr"
#define CHANGES_3_7                                                                               \
    FACTS_3_6,                                                                                    \
    .block_ptrs = CT_BLOCK_PTR_OPS,                                                               \
    .mangle_in_order = true,      /* code_generator.mangle_fn */                                  \
    .constexpr_returns = true,    /* code_generator.handle_returns */                             \
    .fp8_scalar_via_f32 = true,   /* semantic.scalar_constant */                                  \
    .cat_by_join = true,          /* core.cat */                                                  \
    .block_ptr_deprecated = true, /* core.make_block_ptr */                                       \
    .barrier_ttg = true           /* semantic.debug_barrier: builder.create_barrier */
#define CHANGES_3_8                                                                               \
    CHANGES_3_7,                                                                                  \
    .block_ptrs = CT_BLOCK_PTR_AGGREGATE, /* core._block_ptr */                                   \
    .neg_float_negf = true,               /* semantic.minus */                                    \
    .fdiv_ieee_precise = true,            /* semantic.fdiv */                                     \
    .dot_out_dtype_from_acc = true,       /* core.dot, semantic.dot */                            \
    .uniform_invert = true,               /* random.uint_to_uniform_float */                      \
    .topk_descending = true,              /* standard.topk */                                     \
    .atomic_min_typed = true,             /* semantic.atomic_min */                               \
    .load_cache_cs = true,                /* semantic._str_to_load_cache_modifier */              \
    .tensordesc_bare = true,              /* TritonTypes.td TT_TensorDescType */                  \
    .none_load_attr = "scalar"            /* semantic.load: ptr.type.scalar */
#define CHANGES_3_9                                                                               \
    CHANGES_3_8,                                                                                  \
    .block_ptrs = CT_BLOCK_PTR_REMOVED,   /* core.make_block_ptr raises */                        \
    .block_ptr_deprecated = false,                                                                \
    .while_cond_to_int1 = true,           /* code_generator.visit_While */                        \
    .scalar_operands = true,              /* core.tensor.__lt__ ..., math.* */                    \
    .promote_ignores_scalar = true,       /* semantic.computation_type_impl */                    \
    .fp16_bf16_direct = true,             /* semantic.cast */                                     \
    .ternary_typing = true,               /* semantic.ternary_op_type_checking_impl */            \
    .reduce_keeps_bf16 = true,            /* standard.max, min, cumsum, cumprod */                \
    .cumprod_dtype = true,                /* standard.cumprod */                                  \
    .sort_flip_to_int1 = true,            /* standard._compare_and_swap */                        \
    .softmax_keeps_dims = true,           /* standard.softmax */                                  \
    .can_reorder_deprecated = true,       /* core.cat, core.reshape */                            \
    .inline_asm_broadcast_tensors = true, /* core.inline_asm_elementwise */                       \
    .cache_policy_attr = true,            /* TritonAttrDefs.td TT_CachePolicyAttr */              \
    .none_arith_error = "'NoneType' object has no attribute 'dtype'" /* core.tensor.__add__ */

static const ct_triton rows[] = {
    {.name = "3.6.0", .major = 3, .minor = 6, .patch = 0, .block_ptrs = CT_BLOCK_PTR_OPS, FACTS_3_6},
    {.name = "3.7.0", .major = 3, .minor = 7, .patch = 0, CHANGES_3_7},
    {.name = "3.7.1", .major = 3, .minor = 7, .patch = 1, CHANGES_3_7},
    {.name = "3.8.0", .major = 3, .minor = 8, .patch = 0, CHANGES_3_8},
    {.name = "3.9.0", .major = 3, .minor = 9, .patch = 0, CHANGES_3_9},
};

enum { NROWS = sizeof rows / sizeof rows[0] };

int ct_triton_count(void)
{
    return NROWS;
}

const ct_triton *ct_triton_at(int i)
{
    return i >= 0 && i < NROWS ? &rows[i] : NULL;
}

const ct_triton *ct_triton_find(const char *name)
{
    if (!name)
        return NULL;
    for (int i = 0; i < NROWS; i++)
        if (!strcmp(rows[i].name, name))
            return &rows[i];
    return NULL;
}

const ct_triton *ct_triton_baseline(void)
{
    return &rows[0];
}

const char *ct_triton_supported(char *buf, size_t cap)
{
    size_t n = 0;
    if (cap)
        buf[0] = 0;
    for (int i = 0; i < NROWS && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", rows[i].name);
    return buf;
}

int ct_triton_cmp(const ct_triton *a, const ct_triton *b)
{
    return (int)(a - rows) - (int)(b - rows);
}

/* ---- detection ------------------------------------------------------- */

/* "triton-3.9.0.dist-info" in DIR: the release pip installed there. */
static bool dist_info_in(const char *dir, char *out, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        const char *suf = ".dist-info";
        if (!strncmp(e->d_name, "triton-", 7) && n > 7 + strlen(suf) &&
            !strcmp(e->d_name + n - strlen(suf), suf)) {
            size_t vl = n - 7 - strlen(suf);
            if (vl < cap) {
                memcpy(out, e->d_name + 7, vl);
                out[vl] = 0;
                found = true;
            }
        }
    }
    closedir(d);
    return found;
}

/* The release beside a Python interpreter: its environment's site-packages
 * (a venv: PREFIX/bin/python -> PREFIX/lib/python3.X/site-packages), read from
 * the file system; for any other interpreter, importlib.metadata, which does
 * not import Triton. */
static void detect(char *out, size_t cap)
{
    char py[4096];
    ct_util_lower_python(py, sizeof py);
    out[0] = 0;
    char *slash = strrchr(py, '/');
    if (slash) {
        char prefix[4096];
        snprintf(prefix, sizeof prefix, "%.*s", (int)(slash - py), py);
        char *s2 = strrchr(prefix, '/');
        if (s2) {
            *s2 = 0;
            char lib[4200];
            snprintf(lib, sizeof lib, "%s/lib", prefix);
            DIR *d = opendir(lib);
            if (d) {
                for (struct dirent *e; !out[0] && (e = readdir(d));) {
                    if (strncmp(e->d_name, "python3", 7))
                        continue;
                    char sp[4500];
                    snprintf(sp, sizeof sp, "%s/%s/site-packages", lib, e->d_name);
                    dist_info_in(sp, out, cap);
                }
                closedir(d);
            }
            if (out[0])
                return;
        }
    }
    /* not a venv layout: ask the interpreter (single quotes around the path) */
    ct_strbuf cmd;
    ct_sb_init(&cmd);
    ct_sb_putc(&cmd, '\'');
    for (const char *p = py; *p; p++) {
        if (*p == '\'')
            ct_sb_puts(&cmd, "'\\''");
        else
            ct_sb_putc(&cmd, *p);
    }
    ct_sb_puts(&cmd, "' -c 'import importlib.metadata as m; print(m.version(\"triton\"))' "
                     "2>/dev/null");
    FILE *f = popen(cmd.s, "r");
    ct_sb_free(&cmd);
    if (!f)
        return;
    if (!fgets(out, (int)cap, f))
        out[0] = 0;
    pclose(f);
    out[strcspn(out, "\r\n")] = 0;
}

static char detected[64];
static pthread_once_t detect_once = PTHREAD_ONCE_INIT;

static void detect_now(void)
{
    detect(detected, sizeof detected);
}

const char *ct_triton_detected(void)
{
    pthread_once(&detect_once, detect_now);
    return detected;
}

const ct_triton *ct_triton_resolve(const char *requested, ct_diags *d)
{
    char list[256];
    const char *name = requested, *from = "asked for";
    if (!name || !*name) {
        name = getenv("CTRITON_TRITON_VERSION");
        from = "$CTRITON_TRITON_VERSION";
    }
    if (!name || !*name) {
        name = ct_triton_detected();
        from = "the Triton installed for lowering";
        if (!*name)
            return ct_triton_baseline();
    }
    const ct_triton *t = ct_triton_find(name);
    if (!t && d)
        ct_diag_add(d, CT_ERROR, NULL, 0, 0,
                    "Triton %s (%s) is not supported by ctriton; supported: %s (choose one with "
                    "--triton X.Y.Z, $CTRITON_TRITON_VERSION or tl_options.triton)",
                    name, from, ct_triton_supported(list, sizeof list));
    return t;
}

bool ct_triton_has_op(const ct_triton *t, int opcode)
{
    switch (opcode) {
    case CT_OP_TT_MAKE_TENSOR_PTR:
    case CT_OP_TT_ADVANCE:
        return t->block_ptrs == CT_BLOCK_PTR_OPS;
    case CT_OP_TTG_BARRIER:
        return t->barrier_ttg;
    default:
        return true;
    }
}

const ct_triton *ct_module_triton(const ct_module *m)
{
    return m && m->triton ? m->triton : ct_triton_baseline();
}
