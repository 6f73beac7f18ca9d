/*
 * ctriton - the command line.  Each subcommand lives in tools/cmd_*.c with
 * its flags (a cli_spec) and has one row in the table below.
 *
 *   ctriton [--kernels LIB]... [--triton X.Y.Z] [--no-library] COMMAND [ARGS]    run a command
 *   ctriton help [COMMAND]  /  ctriton COMMAND --help
 *   ctriton --version
 *
 * Kernels: ctriton's own library is built in; a project's come from kernel
 * plugins (ctriton/registry.h), loaded from $CTRITON_KERNELS (':'-separated)
 * and from each --kernels, before or after the command's name.  --triton
 * X.Y.Z (before or after it too) is the Triton release to build and lower for
 * (ctriton/triton_version.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/compile.h"
#include "ctriton/triton_version.h"
#include "kernels.h"

const ct_cmd ct_commands[] = {
    {&list_spec, cmd_list},       {&emit_spec, cmd_emit},   {&lint_spec, cmd_lint},
    {&diff_spec, cmd_diff},       {&rawgate_spec, cmd_rawgate}, {&run_spec, cmd_run},
    {&lower_spec, cmd_lower},     {&aot_spec, cmd_aot},     {&bench_spec, cmd_bench},
    {&port_spec, cmd_port},
    {NULL, NULL},
};

static int usage(FILE *f, int code)
{
    fputs("usage: ctriton [--kernels LIB]... [--triton X.Y.Z] [--no-library] COMMAND [ARGS]\n"
          "       (ctriton COMMAND --help: its flags)\n"
          "       ctriton --version\n\n",
          f);
    for (const ct_cmd *c = ct_commands; c->spec; c++)
        fprintf(f, "  %-9s %s\n", c->spec->name, c->spec->summary);
    char list[256];
    fprintf(f, "\nKernels: the library's are built in (--no-library: left out); --kernels LIB (or\n"
               "$CTRITON_KERNELS) loads a kernel plugin's (docs/using.md).  --triton X.Y.Z: the\n"
               "Triton release to build and lower for (%s; default\n"
               "$CTRITON_TRITON_VERSION, else the Triton installed for lowering;\n"
               "docs/triton-versions.md).  Exit status: 0 success, 1 failure, 2 bad usage.\n",
            ct_triton_supported(list, sizeof list));
    return code;
}

/* ctriton's version and the Triton release it targets by default */
static void print_version(void)
{
    char list[256];
    const ct_triton *t = ct_triton_resolve(NULL, NULL);
    printf("ctriton %s (Triton %s; supports %s)\n", ct_version(), t ? t->name : "unsupported",
           ct_triton_supported(list, sizeof list));
}

static const ct_cmd *find(const char *name)
{
    for (const ct_cmd *c = ct_commands; c->spec; c++)
        if (!strcmp(name, c->spec->name))
            return c;
    return NULL;
}

/* --no-library among the options before the command: the library's kernels stay out of the
 * registry (a plugin's kernel may then have a library kernel's name: ctriton port --check) */
static bool no_library(int argc, char **argv)
{
    for (int i = 1; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--no-library"))
            return true;
        if (!strcmp(argv[i], "--kernels") || !strcmp(argv[i], "--triton"))
            i++;
    }
    return false;
}

int main(int argc, char **argv)
{
    if (!no_library(argc, argv) && ct_register_library_kernels() != CT_OK)
        return cli_fail(1, "the kernel library: %s", ct_errmsg());
    const char *env = getenv("CTRITON_KERNELS");
    if (env && *env && ct_load_kernels_list(env) != CT_OK)
        return cli_fail(2, "$CTRITON_KERNELS: %s", ct_errmsg());
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
            print_version();
            return 0;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return usage(stdout, 0);
        if (!strcmp(a, "--no-library"))
            continue;
        const char *rel = !strncmp(a, "--triton=", 9) ? a + 9 : NULL;
        if (!rel && !strcmp(a, "--triton")) {
            if (i + 1 >= argc)
                return cli_fail(2, "--triton needs a value (X.Y.Z)");
            rel = argv[++i];
        }
        if (rel) {
            char err[512];
            if (!cli_set_triton(rel, NULL, err, sizeof err))
                return cli_fail(2, "--triton: %s", err);
            continue;
        }
        const char *lib = !strncmp(a, "--kernels=", 10) ? a + 10 : NULL;
        if (!lib && !strcmp(a, "--kernels")) {
            if (i + 1 >= argc)
                return cli_fail(2, "--kernels needs a value (LIB)");
            lib = argv[++i];
        }
        if (!lib) {
            fprintf(stderr, "ctriton: unknown option `%s`\n\n", a);
            return usage(stderr, 2);
        }
        if (ct_load_kernels(lib) != CT_OK)
            return cli_fail(2, "--kernels %s: %s", lib, ct_errmsg());
    }
    if (i >= argc)
        return usage(stderr, 2);
    const char *name = argv[i];
    if (!strcmp(name, "version")) {
        print_version();
        return 0;
    }
    if (!strcmp(name, "help")) {
        if (i + 1 >= argc)
            return usage(stdout, 0);
        const ct_cmd *c = find(argv[i + 1]);
        if (!c)
            return cli_fail(2, "help: no command `%s`", argv[i + 1]);
        cli_help(c->spec, stdout);
        return 0;
    }
    const ct_cmd *c = find(name);
    if (!c) {
        fprintf(stderr, "ctriton: unknown command `%s`\n\n", name);
        return usage(stderr, 2);
    }
    return c->run(argc - i - 1, argv + i + 1);
}
