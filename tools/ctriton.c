/*
 * ctriton - the command line.  Each subcommand lives in tools/cmd_*.c and
 * has one row in the table below.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/version.h"
#include "kernels.h"

const ct_cmd ct_commands[] = {
    {"list", "list [--json] [--all]", "the library's kernels, one per line, with their configs (--all: and the conformance kernels)", cmd_list},
    {"emit", "emit KERNEL [--config NAME] [--locs]", "print a kernel's TTIR", cmd_emit},
    {"diff", "diff A.ttir B.ttir [--json] [--quiet]", "compare two TTIR files after normalization",
     cmd_diff},
    {"rawgate", "rawgate [--golden DIR] [--json FILE] [KERNEL...]",
     "C kernels against Python's raw TTIR goldens, normalized (--check-verdicts FILE: raw ✓ "
     "rows are llir and ptx ✓)",
     cmd_rawgate},
    {"run", "run KERNEL|--all [--config NAME] --emu",
     "run on the CPU emulator and check against the C reference (also: run --ttir FILE "
     "--grid X,Y,Z --arg SPEC...; --fast-dot: f32 FMA dots, not the GPU's bits)", cmd_run},
    {"lower", "lower KERNEL [--config NAME] [--arch N] [--stage ptx]",
     "lower through Triton (or the cache) and show the entry or one stage", cmd_lower},
    {"aot", "aot KERNEL [--config NAME] [--arch 80,90,100] [-o DIR]",
     "write a C launcher with the cubins embedded (NAME.h, NAME.c)", cmd_aot},
    {"bench", "bench KERNEL [--config NAME] [--problem SIZES | --large] [--check]",
     "time a kernel launched from C on the GPU: ms, GB/s or TFLOP/s", cmd_bench},
    {"lint", "lint KERNEL [--config NAME] [--no-notes] | --all | --ttir FILE",
     "lints for the classic kernel mistakes, on a kernel or any TTIR file (exit 3 on warnings)",
     cmd_lint},
    {NULL, NULL, NULL, NULL},
};

int cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ctriton: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

int cli_kernel_config(const char *kname, const char *cname, const ct_kernel_entry **k,
                      const tl_config **cfg)
{
    *k = ct_kernel_find(kname);
    if (!*k)
        return cli_fail(1, "no kernel named `%s` (see `ctriton list`)", kname);
    *cfg = ct_kernel_config(*k, cname);
    if (!*cfg)
        return cli_fail(1, "%s has no config `%s`", kname, cname ? cname : "");
    return 0;
}

static int usage(FILE *f, int code)
{
    char list[256];
    fprintf(f, "usage: ctriton <command> [args] [--triton X.Y.Z]\n\n"
               "  --triton X.Y.Z: the Triton release to build and lower for (%s; default:\n"
               "  $CTRITON_TRITON_VERSION, else the Triton installed for lowering)\n\n",
            ct_triton_supported(list, sizeof list));
    for (const ct_cmd *c = ct_commands; c->name; c++)
        fprintf(f, "  %-48s %s\n", c->usage, c->help);
    return code;
}

/* `--triton X.Y.Z`, accepted by every command (anywhere after the command
 * name): the Triton release to build, lower and compare for.  It sets
 * $CTRITON_TRITON_VERSION, which every layer reads when no release is given
 * in the options (ctriton/version.h), so lowering and the cache see it too. */
static int take_triton_flag(int *argc, char **argv)
{
    for (int i = 1; i < *argc; i++) {
        const char *v = NULL;
        int used = 0;
        if (!strcmp(argv[i], "--triton")) {
            if (i + 1 >= *argc)
                return cli_fail(2, "--triton needs a release, e.g. --triton 3.9.0");
            v = argv[i + 1];
            used = 2;
        } else if (!strncmp(argv[i], "--triton=", 9)) {
            v = argv[i] + 9;
            used = 1;
        } else {
            continue;
        }
        if (!ct_triton_find(v)) {
            char list[256];
            return cli_fail(2, "Triton %s is not supported; supported: %s", v,
                            ct_triton_supported(list, sizeof list));
        }
        setenv("CTRITON_TRITON_VERSION", v, 1);
        memmove(&argv[i], &argv[i + used], sizeof(char *) * (size_t)(*argc - i - used + 1));
        *argc -= used;
        i--;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rc = take_triton_flag(&argc, argv);
    if (rc)
        return rc;
    if (argc < 2)
        return usage(stderr, 2);
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))
        return usage(stdout, 0);
    for (const ct_cmd *c = ct_commands; c->name; c++)
        if (!strcmp(argv[1], c->name))
            return c->run(argc - 2, argv + 2);
    fprintf(stderr, "ctriton: unknown command `%s`\n\n", argv[1]);
    return usage(stderr, 2);
}
