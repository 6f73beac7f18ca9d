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
    bool json = argc > 0 && !strcmp(argv[0], "--json");
    int n;
    const ct_kernel_entry *k = ct_kernels(&n);
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
            printf(", \"num_warps\": %d, \"num_stages\": %d}", cf->num_warps ? cf->num_warps : 4,
                   cf->num_stages ? cf->num_stages : 3);
        }
    }
    if (json)
        printf("\n]\n");
    return 0;
}
