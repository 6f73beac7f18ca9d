/*
 * ctriton - the command line.
 *
 *   ctriton list                        kernels and their configs
 *   ctriton emit KERNEL [--config NAME] [--locs]   the kernel's TTIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctriton/text.h"
#include "kernels.h"

static int usage(void)
{
    fputs("usage: ctriton <command> [args]\n"
          "  list                                 kernels, one per line, with their configs\n"
          "  emit KERNEL [--config NAME] [--locs] print the kernel's TTIR\n",
          stderr);
    return 2;
}

static int cmd_list(int argc, char **argv)
{
    bool json = argc > 0 && !strcmp(argv[0], "--json");
    int n;
    const ct_kernel_entry *k = ct_kernels(&n);
    if (json)
        printf("[\n");
    for (int i = 0; i < n; i++) {
        if (json) {
            for (int c = 0; c < k[i].nconfigs; c++) {
                const tl_config *cf = &k[i].configs[c];
                printf("  {\"kernel\": \"%s\", \"py\": \"%s\", \"config\": \"%s\", "
                       "\"signature\": \"%s\", \"constexprs\": \"%s\", \"problem\": \"%s\", "
                       "\"num_warps\": %d, \"num_stages\": %d}%s\n",
                       k[i].def->name, k[i].py_file, cf->name, cf->signature,
                       cf->constexprs ? cf->constexprs : "", cf->problem ? cf->problem : "",
                       cf->num_warps ? cf->num_warps : 4, cf->num_stages ? cf->num_stages : 3,
                       (i == n - 1 && c == k[i].nconfigs - 1) ? "" : ",");
            }
            continue;
        }
        printf("%s", k[i].def->name);
        for (int c = 0; c < k[i].nconfigs; c++)
            printf(" %s", k[i].configs[c].name);
        printf("\n");
    }
    if (json)
        printf("]\n");
    return 0;
}

static int cmd_emit(int argc, char **argv)
{
    const char *kname = NULL, *cname = NULL;
    unsigned flags = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc)
            cname = argv[++i];
        else if (!strcmp(argv[i], "--locs"))
            flags |= CT_PRINT_LOCS;
        else if (argv[i][0] != '-' && !kname)
            kname = argv[i];
        else
            return usage();
    }
    if (!kname)
        return usage();
    const ct_kernel_entry *k = ct_kernel_find(kname);
    if (!k) {
        fprintf(stderr, "ctriton: no kernel named `%s` (see `ctriton list`)\n", kname);
        return 1;
    }
    const tl_config *cfg = ct_kernel_config(k, cname);
    if (!cfg) {
        fprintf(stderr, "ctriton: %s has no config `%s`\n", kname, cname ? cname : "");
        return 1;
    }
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build_config(k->def, cfg, &d);
    ct_diags_print(&d, stderr, true);
    if (!m) {
        ct_diags_free(&d);
        return 1;
    }
    char *s = ct_print_module(m, flags);
    fputs(s, stdout);
    free(s);
    ct_module_destroy(m);
    ct_diags_free(&d);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    if (!strcmp(argv[1], "list"))
        return cmd_list(argc - 2, argv + 2);
    if (!strcmp(argv[1], "emit"))
        return cmd_emit(argc - 2, argv + 2);
    return usage();
}
