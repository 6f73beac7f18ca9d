/* cli.h - the ctriton command's subcommands, one file each (tools/cmd_*.c). */
#ifndef CTRITON_CLI_H
#define CTRITON_CLI_H

#include <stdbool.h>
#include <stdio.h>

typedef struct ct_cmd {
    const char *name;
    const char *usage;   /* one line: "emit KERNEL [--config NAME] [--locs]" */
    const char *help;    /* what it does */
    int (*run)(int argc, char **argv);
} ct_cmd;

/* The table of commands (tools/ctriton.c). */
extern const ct_cmd ct_commands[];

int cmd_list(int argc, char **argv);
int cmd_emit(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_rawgate(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_aot(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_lower(int argc, char **argv);
int cmd_lint(int argc, char **argv);

struct ct_kernel_entry;
struct tl_config;
/* Looks up a library kernel and one of its configs (NULL: the first); on
 * failure prints why and returns the exit code, else 0. */
int cli_kernel_config(const char *kname, const char *cname, const struct ct_kernel_entry **k,
                      const struct tl_config **cfg);

/* Prints "ctriton: " and the message to stderr; returns `code`. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
