/*
 * build.c - a library kernel to a cached cubin: tl_build for a signature
 * and constexprs, the TTIR printed with its C source locations (so PTX line
 * info points at the C lines), then the cache or Triton.
 */
#include "compile_internal.h"

#include <stdlib.h>
#include <string.h>

#include "ctriton/text.h"

char *ct_kernel_ttir(const tl_kernel_def *def, const char *signature, const char *constexprs,
                     const tl_options *topts, ct_diags *diags)
{
    ct_module *m = tl_build(def, signature, constexprs, topts, diags);
    if (!m)
        return NULL;
    char *text = ct_print_module(m, CT_PRINT_LOCS);
    ct_module_destroy(m);
    return text;
}

ct_status ct_compile_kernel(const tl_kernel_def *def, const char *signature,
                            const char *constexprs, const tl_options *topts,
                            const ct_lower_opts *lopts, ct_artifact *out, ct_diags *diags)
{
    char *ttir = ct_kernel_ttir(def, signature, constexprs, topts, diags);
    if (!ttir) {
        const char *first = ct_diags_first_error(diags);
        return ct_fail(CT_ERR_COMPILE, "%s was refused: %s", def->name,
                       first ? first : "see the diagnostics");
    }
    ct_lower_opts lo;
    if (lopts)
        lo = *lopts;
    else
        ct_lower_opts_from_tl(&lo, topts);
    /* the TTIR is written for the language's target: lowering must agree */
    const char *built = ct_lower_target(&(ct_lower_opts){.triton = topts ? topts->triton : NULL});
    if (!lo.triton)
        lo.triton = built;
    if (strcmp(ct_lower_target(&lo), built)) {
        free(ttir);
        return ct_fail(CT_ERR_INVALID, "%s was built for Triton %s but the lowering options "
                       "target Triton %s", def->name, built, ct_lower_target(&lo));
    }
    ct_status st = ct_compile_ttir(ttir, &lo, out, diags);
    free(ttir);
    return st;
}
