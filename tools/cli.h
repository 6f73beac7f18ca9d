/*
 * cli.h - the ctriton command: its subcommands (tools/cmd_*.c, one file
 * each), the one argument parser they all use, and their shared helpers.
 *
 * Conventions, the same for every subcommand: `--opt value` and
 * `--opt=value`; `--help` (exit 0) lists every flag; an unknown flag, a
 * missing value or a malformed number is refused with exit status 2 and a
 * message naming the flag; `--kernels LIB` loads a kernel plugin; `--json`
 * writes one JSON document on stdout instead of the text.
 */
#ifndef CTRITON_CLI_H
#define CTRITON_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctriton/registry.h"

/* ---- the argument parser (tools/cli.c) --------------------------------------- */

typedef enum cli_kind {
    CLI_FLAG,   /* bool: present or not */
    CLI_STR,    /* const char *: the value as given */
    CLI_INT,    /* int, decimal, within [min, max] */
    CLI_U64,    /* uint64_t, decimal or 0x hex */
    CLI_DOUBLE, /* double, within [min, max] */
    CLI_LIST,   /* cli_list: repeatable, values in order */
    CLI_FN      /* fn(value, dest, err, cap): validates and stores; false with err */
} cli_kind;

typedef struct cli_list {
    const char **v;
    int n, cap;
} cli_list;

typedef struct cli_opt {
    const char *name;      /* "config" for --config; NULL ends the table */
    char short_name;       /* 'o' for -o, or 0 */
    cli_kind kind;
    void *dest;
    const char *metavar;   /* "NAME" (values only) */
    const char *help;
    double min, max;       /* CLI_INT, CLI_DOUBLE: accepted range */
    bool (*fn)(const char *value, void *dest, char *err, size_t cap);
} cli_opt;

typedef struct cli_spec {
    const char *name;      /* "emit" */
    const char *synopsis;  /* "KERNEL [--config NAME] [--locs]" (after `ctriton emit`) */
    const char *summary;   /* what it does, one sentence */
    const char *details;   /* more, printed after the flags by --help (may be NULL) */
    const cli_opt *opts;
    const char **pos;      /* positional arguments: up to max_pos of them */
    int max_pos;
    int *npos;
    const char *pos_name;  /* "KERNEL", for "unexpected argument" messages */
} cli_spec;

/* What cli_parse returns when the command should go on. */
#define CLI_GO (-1)

/* Parses argv against the spec: CLI_GO, or an exit status: 0 after --help
 * (printed on stdout), 2 after an error (printed on stderr, naming the flag). */
int cli_parse(const cli_spec *s, int argc, char **argv);
/* The help of a subcommand: synopsis, summary, every flag, details. */
void cli_help(const cli_spec *s, FILE *f);

/* The end of a table of flags. */
#define CLI_OPT_END {NULL, 0, 0, NULL, NULL, NULL, 0, 0, NULL}

/* Flags several subcommands share. */
bool cli_load_plugin(const char *value, void *dest, char *err, size_t cap);
#define CLI_OPT_KERNELS                                                                       \
    {"kernels", 0, CLI_FN, NULL, "LIB",                                                       \
     "load a kernel plugin first (repeatable; also $CTRITON_KERNELS, ':'-separated)", 0, 0,   \
     cli_load_plugin}
/* --triton X.Y.Z: the Triton release to build, lower and compare for; a supported
 * one (else the list), set as $CTRITON_TRITON_VERSION, which every layer reads
 * (ctriton/triton_version.h), lowering's subprocess included */
bool cli_set_triton(const char *value, void *dest, char *err, size_t cap);
#define CLI_OPT_TRITON                                                                        \
    {"triton", 0, CLI_FN, NULL, "X.Y.Z",                                                      \
     "the Triton release to build and lower for (default: $CTRITON_TRITON_VERSION, else the " \
     "Triton installed for lowering)", 0, 0, cli_set_triton}
/* --num-warps: a power of two from 1 to 32 (Triton's rule) */
bool cli_num_warps(const char *value, void *dest, char *err, size_t cap);

/* ---- subcommands ------------------------------------------------------------- */

/* Each subcommand's file defines its spec (flags bound to the file's own
 * option variables: one command runs per process) and its entry point. */
typedef struct ct_cmd {
    const cli_spec *spec;
    int (*run)(int argc, char **argv);
} ct_cmd;

/* The table of commands (tools/ctriton.c). */
extern const ct_cmd ct_commands[];

#define CLI_COMMAND(name)                                                                         extern const cli_spec name##_spec;                                                            int cmd_##name(int argc, char **argv)
CLI_COMMAND(list);
CLI_COMMAND(emit);
CLI_COMMAND(diff);
CLI_COMMAND(rawgate);
CLI_COMMAND(run);
CLI_COMMAND(aot);
CLI_COMMAND(bench);
CLI_COMMAND(lower);
CLI_COMMAND(lint);
CLI_COMMAND(port);

/* ---- helpers (tools/cli.c) --------------------------------------------------- */

/* Prints "ctriton: " and the message to stderr; returns `code`. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Looks up a registered kernel and one of its configs (NULL: the first); on
 * failure prints why and returns the exit status (1), else 0. */
int cli_kernel_config(const char *kname, const char *cname, const ct_kernel_entry **k,
                      const tl_config **cfg);

/* The biggest text the command reads whole (TTIR, TTGIR, VERDICTS.md): 256 MiB, far
 * above any kernel's (the largest golden is under 1 MiB); buffers are read at their size. */
#define CLI_MAX_FILE ((size_t)256 << 20)
/* Reads a whole file ("-": standard input), NUL-terminated, refusing one
 * larger than `limit`; NULL with the reason in err. */
char *cli_read_file(const char *path, size_t limit, size_t *len, char *err, size_t cap);
/* Reads and parses a TTIR file ("-": standard input) with the limit above;
 * NULL with the reason in d. */
struct ct_module;
struct ct_module *cli_parse_ttir(const char *path, ct_diags *d);
/* Writes a whole file; false with the reason in err. */
bool cli_write_file(const char *path, const void *data, size_t len, char *err, size_t cap);

/* A JSON string literal of s (NULL: ""), escaped. */
void cli_json_str(FILE *f, const char *s);
/* A JSON list of diagnostics: [{"severity", "file", "line", "col", "message"}, ...],
 * without the notes when `notes` is false. */
void cli_json_diags(FILE *f, const ct_diags *d, bool notes);

/* Parses "X[,Y,Z]" (each 1 to 2^31-1; 'x' also separates): false if malformed. */
bool cli_parse_grid(const char *s, int grid[3]);
/* Parses "80,90,100" into archs (compute capabilities 50 to 200); the count,
 * or -1 if malformed. */
int cli_parse_archs(const char *s, int *archs, int cap);

#endif
