/*
 * ctriton/registry.h - the kernel registry: kernels by name, their configs,
 * their Python originals and C references, and kernel plugins.
 *
 * Every command of `ctriton` (emit, lint, run --emu, lower, aot, bench,
 * rawgate, list) and the fidelity harness find kernels here.  ctriton's own
 * library (kernels/) is registered by the command; a project's kernels are
 * registered by a plugin, a shared library the command loads with
 * `ctriton --kernels libmine.so ...` (or $CTRITON_KERNELS), without
 * touching ctriton's tree (docs/using.md):
 *
 *     TL_KERNEL(bias_gelu_kernel, (x_ptr, b_ptr, y_ptr, n_cols), (int, BLOCK)) { ... }
 *     TL_CONFIGS(bias_gelu_kernel,
 *                {"B1024", "x_ptr=*fp32:16 b_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32",
 *                 "BLOCK=1024", "M=64 N=1000"});
 *     const ct_kernel_ref bias_gelu_kernel__ref = {"bias_gelu_kernel", setup, reference};
 *
 *     CT_KERNEL_PLUGIN
 *     {
 *         CT_REGISTER_KERNEL(bias_gelu_kernel, "py/bias_gelu.py", &bias_gelu_kernel__ref);
 *     }
 *
 * A program can register kernels itself (CT_REGISTER_KERNEL in main) or
 * load plugins (ct_load_kernels).  The registry is process-wide and
 * thread-safe; entries are never removed, so the pointers it returns stay
 * valid until the process ends.  Ownership: the registry keeps pointers to
 * the kernel definitions, configs, references and strings it is given
 * (static data, as TL_KERNEL and TL_CONFIGS make them); it copies nothing
 * but the entry itself.  A plugin, once loaded, is never unloaded.
 */
#ifndef CTRITON_REGISTRY_H
#define CTRITON_REGISTRY_H

#include <stdbool.h>

#include "ctriton/cuda.h"
#include "ctriton/export.h"
#include "ctriton/tl.h"
#include "ctriton/ctriton_version.h"

CT_BEGIN_DECLS

struct ct_kernel_ref; /* ctriton/ref.h */

typedef struct ct_kernel_entry {
    const tl_kernel_def *def;
    const tl_config *configs;
    int nconfigs;
    /* The Python original (@triton.jit), for the fidelity harness.  ctriton's
     * own kernels give it relative to ctriton's source tree; a plugin's
     * relative path is relative to the directory of the C file that
     * registered it (`file`), which the registry makes absolute when it can. */
    const char *py_file;
    /* The C reference `run --emu` and `bench --check` compare with; NULL: none. */
    const struct ct_kernel_ref *ref;
    /* One construct of the kernel language, for ctriton's own tests
     * (tests/conformance): listed by `ctriton list --all` only. */
    bool conformance;
    /* Set by the registry: the plugin the kernel came from (NULL: registered
     * by the program itself), and the C file that registered it. */
    const char *plugin;
    const char *file;
} ct_kernel_entry;

/* TL_CONFIGS(kernel, {config}, ...) defines the config table of a kernel:
 * kernel__configs[] and kernel__nconfigs, which CT_REGISTER_KERNEL reads.
 * A config is {name, signature, constexprs, problem, num_warps, num_stages, options}
 * (tl_config, ctriton/tl.h); `problem` is free text its reference reads, `options`
 * the other tl_options ("implicit_store_casts=True", tl_options_parse). */
#define TL_CONFIGS(kernel, ...)                                                               \
    const tl_config kernel##__configs[] = {__VA_ARGS__};                                      \
    const int kernel##__nconfigs = (int)(sizeof kernel##__configs / sizeof kernel##__configs[0])

/* Declares what TL_KERNEL and TL_CONFIGS define in another file. */
#define TL_DECLARE_KERNEL(kernel)                                                             \
    extern const tl_kernel_def kernel;                                                        \
    extern const tl_config kernel##__configs[];                                               \
    extern const int kernel##__nconfigs

/* Adds a kernel.  CT_ERR_INVALID (and ct_errmsg()) when the entry has no
 * definition or no config, a config has no name or signature, two configs
 * share a name, the reference names another kernel, or a kernel of the same
 * name is already registered (registering the very same entry twice is
 * allowed and does nothing). */
ct_status ct_register_kernel(const ct_kernel_entry *e);
/* CT_REGISTER_KERNEL(kernel, "py/kernel.py", &kernel__ref or NULL): registers a
 * kernel made with TL_KERNEL and TL_CONFIGS, recording the calling file. */
#define CT_REGISTER_KERNEL(kernel_, py_, ref_)                                                \
    ct_register_kernel(&(ct_kernel_entry){.def = &(kernel_), .configs = kernel_##__configs,   \
                                          .nconfigs = kernel_##__nconfigs, .py_file = (py_),  \
                                          .ref = (ref_), .file = __FILE__})

/* The registered kernels, in the order they were registered. */
int ct_kernel_count(void);
const ct_kernel_entry *ct_kernel_at(int i);
/* A kernel by name, or NULL. */
const ct_kernel_entry *ct_kernel_find(const char *name);
/* A config by name; NULL picks the first.  NULL if there is no such config. */
const tl_config *ct_kernel_config(const ct_kernel_entry *k, const char *name);

/* ------------------------------------------------------------------ */
/* Kernel plugins                                                      */
/* ------------------------------------------------------------------ */

/* What a plugin and the library must agree on: the registry's layout and
 * the library's major version.  A plugin built against another is refused. */
#define CT_PLUGIN_ABI (100 * CTRITON_VERSION_MAJOR + 2)

/* CT_KERNEL_PLUGIN { CT_REGISTER_KERNEL(...); ... } defines a plugin's entry
 * points: ctriton_plugin_abi, and ctriton_plugin_init, which registers its
 * kernels when the plugin is loaded. */
#define CT_KERNEL_PLUGIN                                                                      \
    CT_API extern const int ctriton_plugin_abi;                                               \
    CT_API const int ctriton_plugin_abi = CT_PLUGIN_ABI;                                      \
    CT_API void ctriton_plugin_init(void);                                                    \
    CT_API void ctriton_plugin_init(void)

/* Loads a kernel plugin (dlopen) and runs its ctriton_plugin_init.  A path
 * without a slash is searched like dlopen does.  Loading the same file again
 * does nothing.  CT_ERR_INVALID with ct_errmsg() naming the file when it
 * cannot be opened, is not a ctriton plugin, was built for another
 * CT_PLUGIN_ABI, or one of its registrations failed. */
ct_status ct_load_kernels(const char *path);
/* Each of a ':'-separated list of plugins (e.g. $CTRITON_KERNELS); stops at
 * the first failure.  An empty or NULL list loads nothing. */
ct_status ct_load_kernels_list(const char *list);

CT_END_DECLS
#endif
