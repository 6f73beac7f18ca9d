/* ctriton list [--json]: the library's kernels and their configs. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"

static void json_str(const char *s)
{
    putchar('"');
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        putchar(*s);
    }
    putchar('"');
}

int cmd_list(int argc, char **argv)
{
    bool json = false, all = false;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--all"))
            all = true;
        else
            return cli_fail(2, "list: unexpected argument `%s` (--json, --all)", argv[i]);
    }
    int n;
    const ct_kernel_entry *k = all ? ct_kernels_all(&n) : ct_kernels(&n);
    if (json)
        printf("[\n");
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!json) {
            printf("%s", k[i].def->name);
            for (int c = 0; c < k[i].nconfigs; c++)
                printf(" %s", k[i].configs[c].name);
            printf("\n");
            continue;
        }
        for (int c = 0; c < k[i].nconfigs; c++) {
            const tl_config *cf = &k[i].configs[c];
            printf("%s  {\"kernel\": ", first ? "" : ",\n");
            first = false;
            json_str(k[i].def->name);
            printf(", \"py\": ");
            json_str(k[i].py_file);
            printf(", \"config\": ");
            json_str(cf->name);
            printf(", \"signature\": ");
            json_str(cf->signature);
            printf(", \"constexprs\": ");
            json_str(cf->constexprs ? cf->constexprs : "");
            printf(", \"problem\": ");
            json_str(cf->problem ? cf->problem : "");
            printf(", \"num_warps\": %d, \"num_stages\": %d, \"conformance\": %s}",
                   cf->num_warps ? cf->num_warps : 4, cf->num_stages ? cf->num_stages : 3,
                   k[i].conformance ? "true" : "false");
        }
    }
    if (json)
        printf("\n]\n");
    return 0;
}
