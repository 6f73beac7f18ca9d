/*
 * float.c - encoding and decoding of the narrow float formats.
 *
 * f16, bf16 and the fp8 families are described by their exponent and
 * mantissa widths, bias and special-value style.  Encoding rounds to
 * nearest-even (or toward zero) from a double, which holds every value of
 * every narrower format exactly.  Overflow follows APFloat (infinity, or
 * NaN for formats without one) unless `saturate` asks for the largest
 * finite value, which is what the GPU's satfinite conversions give.
 */
#include "ctriton/ir.h"
#include "ctriton/float.h"

#include <math.h>
#include <string.h>

typedef enum { STYLE_IEEE, STYLE_FN, STYLE_FNUZ } nan_style;

typedef struct ffmt {
    int ebits, mbits, bias;
    nan_style style;
} ffmt;

static ffmt fmt_of(ct_float_kind fk)
{
    switch (fk) {
    case CT_F16:
        return (ffmt){5, 10, 15, STYLE_IEEE};
    case CT_BF16:
        return (ffmt){8, 7, 127, STYLE_IEEE};
    case CT_F8E5M2:
        return (ffmt){5, 2, 15, STYLE_IEEE};
    case CT_F8E4M3FN:
        return (ffmt){4, 3, 7, STYLE_FN};
    case CT_F8E4M3FNUZ:
        return (ffmt){4, 3, 8, STYLE_FNUZ};
    case CT_F8E5M2FNUZ:
        return (ffmt){5, 2, 16, STYLE_FNUZ};
    case CT_F8E4M3B11FNUZ:
        return (ffmt){4, 3, 11, STYLE_FNUZ};
    case CT_F32:
        return (ffmt){8, 23, 127, STYLE_IEEE};
    case CT_F64:
        return (ffmt){11, 52, 1023, STYLE_IEEE};
    }
    return (ffmt){8, 23, 127, STYLE_IEEE};
}

static uint64_t nan_bits(ffmt f)
{
    int total = 1 + f.ebits + f.mbits;
    switch (f.style) {
    case STYLE_FNUZ:
        return 1ull << (total - 1);
    case STYLE_FN:
        return ((1ull << (f.ebits + f.mbits)) - 1); /* S.1111.111 with S=0 */
    default:
        return (((1ull << f.ebits) - 1) << f.mbits) | (1ull << (f.mbits - 1));
    }
}

/* largest finite magnitude, as (biased exponent field, mantissa field) */
static void max_finite(ffmt f, uint64_t *e, uint64_t *m)
{
    uint64_t emax = (1ull << f.ebits) - 1, mmax = (1ull << f.mbits) - 1;
    *e = emax - 1;
    *m = mmax;
    switch (f.style) {
    case STYLE_IEEE:
        *e = emax - 1;
        *m = mmax;
        break;
    case STYLE_FN:
        *e = emax;
        *m = mmax - 1;
        break;
    case STYLE_FNUZ:
        *e = emax;
        *m = mmax;
        break;
    }
}

uint64_t ct_float_encode_ex(double v, ct_float_kind fk, ct_rounding rnd, bool saturate)
{
    ffmt f = fmt_of(fk);
    int total = 1 + f.ebits + f.mbits;
    uint64_t sign = signbit(v) ? 1ull << (total - 1) : 0;
    if (isnan(v))
        return nan_bits(f);
    double a = fabs(v);
    uint64_t me, mm;
    max_finite(f, &me, &mm);
    uint64_t maxbits = (me << f.mbits) | mm;
    if (isinf(a)) {
        if (saturate)
            return sign | maxbits;
        if (f.style == STYLE_IEEE)
            return sign | (((1ull << f.ebits) - 1) << f.mbits);
        return nan_bits(f);
    }
    if (a == 0) {
        if (f.style == STYLE_FNUZ)
            return 0; /* no negative zero */
        return sign;
    }
    int emin = 1 - f.bias; /* exponent of the smallest normal */
    if (f.style == STYLE_FNUZ)
        emin = 1 - f.bias;
    int e;
    frexp(a, &e);
    e -= 1; /* a = 1.x * 2^e */
    if (e < emin)
        e = emin;
    /* quantum is 2^(e - mbits) */
    double q = ldexp(a, f.mbits - e);
    double r;
    if (rnd == CT_RTZ) {
        r = floor(q);
    } else {
        r = floor(q);
        double frac = q - r;
        if (frac > 0.5 || (frac == 0.5 && fmod(r, 2.0) != 0))
            r += 1;
    }
    uint64_t mant = (uint64_t)r;
    if (mant >= (2ull << f.mbits)) { /* rounding carried into the next binade */
        mant >>= 1;
        e += 1;
    }
    uint64_t bits;
    if (mant < (1ull << f.mbits)) {
        bits = mant; /* subnormal (or zero) */
    } else {
        uint64_t be = (uint64_t)(e + f.bias);
        bits = (be << f.mbits) | (mant & ((1ull << f.mbits) - 1));
    }
    if (bits > maxbits) {
        if (saturate || rnd == CT_RTZ)
            return sign | maxbits;
        if (f.style == STYLE_IEEE)
            return sign | (((1ull << f.ebits) - 1) << f.mbits);
        return nan_bits(f);
    }
    if (f.style == STYLE_FNUZ && bits == 0)
        return 0;
    return sign | bits;
}

uint64_t ct_float_encode(double v, ct_float_kind fk)
{
    return ct_float_encode_ex(v, fk, CT_RTNE, false);
}

double ct_float_decode(uint64_t bits, ct_float_kind fk)
{
    ffmt f = fmt_of(fk);
    int total = 1 + f.ebits + f.mbits;
    if (total < 64)
        bits &= (1ull << total) - 1;
    uint64_t sign = bits >> (total - 1);
    uint64_t e = (bits >> f.mbits) & ((1ull << f.ebits) - 1);
    uint64_t m = bits & ((1ull << f.mbits) - 1);
    switch (f.style) {
    case STYLE_IEEE:
        if (e == (1ull << f.ebits) - 1)
            return m ? NAN : (sign ? -INFINITY : INFINITY);
        break;
    case STYLE_FN:
        if (e == (1ull << f.ebits) - 1 && m == (1ull << f.mbits) - 1)
            return NAN;
        break;
    case STYLE_FNUZ:
        if (sign && e == 0 && m == 0)
            return NAN;
        break;
    }
    double val;
    if (e == 0)
        val = ldexp((double)m, 1 - f.bias - f.mbits);
    else
        val = ldexp((double)(m | (1ull << f.mbits)), (int)e - f.bias - f.mbits);
    return sign ? -val : val;
}
