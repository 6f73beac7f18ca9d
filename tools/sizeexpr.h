/*
 * sizeexpr.h - sizes given by expressions, for `ctriton run --ttir ... --size N=1000`
 * and its sweeps (`--size N:BLOCK`): the --arg and --grid specs may use the sizes'
 * names, as in `--grid 'cdiv(N, 256)' --arg 'fp32[N]' --arg 'N'`.
 *
 * An expression: integers, names, + - * / % (C's integer division and remainder, on
 * 64 bits), unary -, parentheses, cdiv(a, b), min(a, b), max(a, b).  Overflow and a
 * division by zero are errors.
 */
#ifndef CTRITON_SIZEEXPR_H
#define CTRITON_SIZEEXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SX_MAX_VARS 8

typedef struct sx_vars {
    int n;
    char name[SX_MAX_VARS][32];
    int64_t v[SX_MAX_VARS];
} sx_vars;

/* The value of the expression s; false with why in err. */
bool sx_eval(const char *s, const sx_vars *vars, int64_t *out, char *err, size_t cap);
/* An --arg spec with each [EXPR] replaced by its value, and a scalar that is not a number
 * (nor null) evaluated as an expression. */
bool sx_subst_arg(const char *spec, const sx_vars *vars, char *out, size_t cap, char *err,
                  size_t ecap);
/* A --grid of comma-separated expressions as "X,Y,Z" numbers. */
bool sx_subst_grid(const char *spec, const sx_vars *vars, char *out, size_t cap, char *err,
                   size_t ecap);

#endif
