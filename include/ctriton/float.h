/*
 * ctriton/float.h - the float formats of Triton: encode, decode, round.
 *
 * Shared by the printer (constants), the parser, the kernel language
 * (constant folding) and the emulator (fp16/bf16/fp8 conversions).
 */
#ifndef CTRITON_FLOAT_H
#define CTRITON_FLOAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctriton/ir.h"
#include "ctriton/export.h"

CT_BEGIN_DECLS

typedef enum ct_rounding { CT_RTNE, CT_RTZ } ct_rounding;

/* Bits of v in format fk, rounded; overflow gives inf (or NaN where the
 * format has no inf) unless `saturate`, then the largest finite value. */
uint64_t ct_float_encode_ex(double v, ct_float_kind fk, ct_rounding rnd, bool saturate);
/* Round to nearest even, APFloat's overflow rules. */
uint64_t ct_float_encode(double v, ct_float_kind fk);
/* The value of the bits of a narrow format (f16, bf16, fp8); exact. */
double ct_float_decode(uint64_t bits, ct_float_kind fk);
/* Any format, f32 and f64 included. */
uint64_t ct_float_to_bits(double v, ct_float_kind fk);
double ct_float_from_bits(uint64_t bits, ct_float_kind fk);
/* v rounded to the nearest value of format fk. */
double ct_float_round(double v, ct_float_kind fk);
/* MLIR's text for a float of format fk ("1.000000e+00", "0xFF800000"). */
void ct_format_float(double v, ct_float_kind fk, char *out, size_t cap);

CT_END_DECLS
#endif
