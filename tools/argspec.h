/*
 * argspec.h - the `--arg SPEC` arguments of `run --ttir` (the emulator) and
 * `bench --ttir` (the GPU): a kernel's arguments written on the command
 * line, in parameter order.
 *
 *   fp32[1024]              input buffer of 1024 seeded random values (floats in [-1, 1),
 *                           integers in [0, 16))
 *   fp32[1024]:zeros        input buffer of zeros (:ones: of ones)
 *   fp32[1024]:out          output buffer (poisoned before the run, then reported)
 *   fp32[1024]:inout        read and written, zeros to start with (an accumulator)
 *   fp16[8]@x.bin           input buffer read from a raw binary file of exactly 8 x 2 bytes
 *   fp32[1024]@y.bin:out    output buffer, written to y.bin after the run
 *   fp32[1024]@x.bin:inout  read from x.bin, written back to it after the run (in place)
 *   1000 / -3 / 0x10        integer scalar
 *   1.5 / 1e-5              float scalar
 *   null                    null pointer
 */
#ifndef CTRITON_ARGSPEC_H
#define CTRITON_ARGSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctriton/emu.h"

typedef enum cli_arg_kind { CLI_ARG_NULL, CLI_ARG_INT, CLI_ARG_FLOAT, CLI_ARG_BUF } cli_arg_kind;
typedef enum cli_fill { CLI_FILL_RANDOM, CLI_FILL_ZEROS, CLI_FILL_ONES, CLI_FILL_FILE } cli_fill;

typedef struct cli_arg {
    cli_arg_kind kind;
    long long i;           /* INT */
    double f;              /* FLOAT */
    ct_emu_dtype dtype;    /* BUF */
    long long n;           /* BUF: elements */
    size_t bytes;          /* BUF */
    ct_emu_access access;  /* BUF: CT_EMU_IN, CT_EMU_OUT or CT_EMU_INOUT */
    cli_fill fill;         /* BUF: how an input starts */
    char file[1024];       /* BUF: @FILE ("" if none): read (IN, INOUT) and/or written (OUT, INOUT) */
    void *data;            /* BUF: host contents (cli_arg_load), 64-byte aligned */
} cli_arg;

/* Parses one spec; false with the reason in err. */
bool cli_arg_parse(const char *spec, cli_arg *a, char *err, size_t cap);
/* Allocates a buffer's host contents and fills them (seeded random values,
 * zeros, ones, or the file: its size must be exactly `bytes`; outputs get the
 * poison); false with the reason in err.  Does nothing for scalars. */
bool cli_arg_load(cli_arg *a, uint64_t *rng, char *err, size_t cap);
/* After a run: writes an output buffer with an @FILE back to it (true if
 * there is none); false with the reason in err. */
bool cli_arg_store(const cli_arg *a, char *err, size_t cap);
void cli_arg_free(cli_arg *a);

#endif
