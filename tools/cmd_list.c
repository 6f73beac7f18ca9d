/* ctriton list [--json] [--all]: the registered kernels and their configs. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"

static bool json, all;

static const cli_opt opts[] = {
    {"json", 0, CLI_FLAG, &json, NULL, "one JSON object per kernel and config", 0, 0, NULL},
    {"all", 0, CLI_FLAG, &all, NULL, "the conformance kernels too (their plugin must be loaded)", 0, 0, NULL},
    CLI_OPT_KERNELS,
    CLI_OPT_TRITON,
    CLI_OPT_END,
};

const cli_spec list_spec = {
    "list", "[--json] [--all] [--kernels LIB]",
    "the registered kernels (the library's, then each plugin's), one per line with their configs",
    "With --json, a list of {kernel, py, config, signature, constexprs, problem, num_warps,\n"
    "num_stages, conformance}, one per config: what scripts/fidelity.py reads.\n",
    opts, NULL, 0, NULL, NULL,
};

int cmd_list(int argc, char **argv)
{
    int rc = cli_parse(&list_spec, argc, argv);
    if (rc != CLI_GO)
        return rc;
    const ct_kernel_entry *k[4096];
    int n = ct_kernels_list(k, 4096, all);
    if (n > 4096)
        n = 4096;
    if (json)
        printf("[\n");
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!json) {
            printf("%s", k[i]->def->name);
            for (int c = 0; c < k[i]->nconfigs; c++)
                printf(" %s", k[i]->configs[c].name);
            printf("\n");
            continue;
        }
        for (int c = 0; c < k[i]->nconfigs; c++) {
            const tl_config *cf = &k[i]->configs[c];
            printf("%s  {\"kernel\": ", first ? "" : ",\n");
            first = false;
            cli_json_str(stdout, k[i]->def->name);
            printf(", \"py\": ");
            cli_json_str(stdout, k[i]->py_file);
            printf(", \"config\": ");
            cli_json_str(stdout, cf->name);
            printf(", \"signature\": ");
            cli_json_str(stdout, cf->signature);
            printf(", \"constexprs\": ");
            cli_json_str(stdout, cf->constexprs ? cf->constexprs : "");
            printf(", \"problem\": ");
            cli_json_str(stdout, cf->problem ? cf->problem : "");
            printf(", \"num_warps\": %d, \"num_stages\": %d, \"conformance\": %s",
                   cf->num_warps ? cf->num_warps : 4, cf->num_stages ? cf->num_stages : 3,
                   k[i]->conformance ? "true" : "false");
            if (cf->options && *cf->options) {
                printf(", \"options\": ");
                cli_json_str(stdout, cf->options);
            }
            printf("}");
        }
    }
    if (json)
        printf("\n]\n");
    return 0;
}
