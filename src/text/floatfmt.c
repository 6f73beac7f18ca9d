/*
 * floatfmt.c - floating-point literals exactly as MLIR prints them.
 *
 * MLIR prints a float attribute in exponential form with 6 digits
 * ("1.000000e-01") when that text reads back to the same value, otherwise
 * in LLVM APFloat's shortest-natural form ("0.797884583", "9.99999997E-7"),
 * and in hexadecimal bits ("0xFF800000") for infinities, NaNs and values
 * whose natural form has no decimal point.  This file ports that algorithm
 * (APFloat::toString with its two precision adjustments) so that ctriton's
 * TTIR matches Triton's text byte for byte.  Values are exact binary
 * rationals, so a small bignum does the decimal conversion; it multiplies
 * by 5^13 and divides by 10^9 at a time (one limb operation per word-sized
 * factor, not per digit).
 */
#include "text_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a tiny unsigned bignum (little-endian 32-bit limbs) ------------ */

#define BN_LIMBS 160 /* 5120 bits: enough for 5^1100 * 2^53 */

typedef struct bn {
    int n;
    uint32_t d[BN_LIMBS];
} bn;

static void bn_set(bn *a, uint64_t v)
{
    a->n = 0;
    while (v) {
        a->d[a->n++] = (uint32_t)v;
        v >>= 32;
    }
}

static bool bn_zero(const bn *a)
{
    return a->n == 0;
}

static void bn_mul_small(bn *a, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->d[i] * m + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && a->n < BN_LIMBS)
        a->d[a->n++] = (uint32_t)carry;
}

static uint32_t bn_divmod_small(bn *a, uint32_t m)
{
    uint64_t rem = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        uint64_t cur = (rem << 32) | a->d[i];
        a->d[i] = (uint32_t)(cur / m);
        rem = cur % m;
    }
    while (a->n && a->d[a->n - 1] == 0)
        a->n--;
    return (uint32_t)rem;
}

/* a *= 5^k */
static void bn_mul_pow5(bn *a, int k)
{
    static const uint32_t pow5[14] = {1,       5,        25,        125,       625,
                                      3125,    15625,    78125,     390625,    1953125,
                                      9765625, 48828125, 244140625, 1220703125};
    for (; k >= 13; k -= 13)
        bn_mul_small(a, pow5[13]);
    if (k)
        bn_mul_small(a, pow5[k]);
}

/* a /= 10^k, truncating (successive truncating divisions compose) */
static void bn_div_pow10(bn *a, int k)
{
    static const uint32_t pow10[10] = {1,      10,      100,      1000,      10000,
                                       100000, 1000000, 10000000, 100000000, 1000000000};
    for (; k >= 9; k -= 9)
        bn_divmod_small(a, pow10[9]);
    if (k)
        bn_divmod_small(a, pow10[k]);
}

static void bn_shl(bn *a, int s)
{
    while (s >= 32) {
        memmove(a->d + 1, a->d, sizeof(uint32_t) * (size_t)a->n);
        a->d[0] = 0;
        a->n++;
        s -= 32;
    }
    if (s) {
        uint32_t carry = 0;
        for (int i = 0; i < a->n; i++) {
            uint32_t nc = a->d[i] >> (32 - s);
            a->d[i] = (a->d[i] << s) | carry;
            carry = nc;
        }
        if (carry)
            a->d[a->n++] = carry;
    }
}

static int bn_bits(const bn *a)
{
    if (!a->n)
        return 0;
    uint32_t top = a->d[a->n - 1];
    int b = 0;
    while (top) {
        b++;
        top >>= 1;
    }
    return (a->n - 1) * 32 + b;
}

/* ---- float semantics ------------------------------------------------ */

typedef struct fsem {
    int precision; /* significand bits including the implicit one */
    int bits;
} fsem;

static fsem sem_of(ct_float_kind fk)
{
    switch (fk) {
    case CT_F16:
        return (fsem){11, 16};
    case CT_BF16:
        return (fsem){8, 16};
    case CT_F32:
        return (fsem){24, 32};
    case CT_F64:
        return (fsem){53, 64};
    case CT_F8E5M2:
    case CT_F8E5M2FNUZ:
        return (fsem){3, 8};
    default: /* e4m3 variants */
        return (fsem){4, 8};
    }
}

/* ---- APFloat::toString ---------------------------------------------- */

static void adjust_digits(char *buf, int *n, int *exp, int prec)
{
    /* buf holds digits least significant first */
    int N = *n;
    if (N <= prec)
        return;
    int first = N - prec;
    if (buf[first - 1] < '5') {
        while (first < N && buf[first] == '0')
            first++;
        *exp += first;
        memmove(buf, buf + first, (size_t)(N - first));
        *n = N - first;
        return;
    }
    int i;
    for (i = first; i != N; i++) {
        if (buf[i] == '9') {
            first++;
        } else {
            buf[i]++;
            break;
        }
    }
    if (first == N) {
        *exp += first;
        buf[0] = '1';
        *n = 1;
        return;
    }
    *exp += first;
    memmove(buf, buf + first, (size_t)(N - first));
    *n = N - first;
}

/* Port of IEEEFloat::toString for a finite value v of format sem. */
static void apfloat_to_string(double v, fsem sem, int fmt_prec, int max_pad, bool trunc_zero,
                              char *out)
{
    char *o = out;
    if (signbit(v)) {
        *o++ = '-';
        v = -v;
    }
    if (v == 0) {
        if (!max_pad) {
            if (trunc_zero) {
                strcpy(o, "0.0E+0");
            } else {
                strcpy(o, "0.0");
                o += 3;
                for (int i = 1; i < fmt_prec; i++)
                    *o++ = '0';
                strcpy(o, "e+00");
            }
        } else {
            strcpy(o, "0");
        }
        return;
    }
    /* v = mant * 2^e2 with mant an odd-or-whatever integer < 2^53 */
    int e2;
    double fr = frexp(v, &e2); /* v = fr * 2^e2, fr in [0.5,1) */
    uint64_t mant = (uint64_t)ldexp(fr, 53);
    int exp = e2 - 53;
    if (!fmt_prec)
        fmt_prec = 2 + sem.precision * 59 / 196;
    if (mant) { /* drop the trailing zero bits */
        int tz = __builtin_ctzll(mant);
        mant >>= tz;
        exp += tz;
    }
    bn sig;
    bn_set(&sig, mant);
    if (exp > 0) {
        bn_shl(&sig, exp);
        exp = 0;
    } else if (exp < 0) {
        bn_mul_pow5(&sig, -exp);
    }
    /* AdjustToPrecision on the integer: truncating division by 10^k */
    {
        int bits = bn_bits(&sig);
        int required = (fmt_prec * 196 + 58) / 59;
        if (bits > required) {
            int tens = (bits - required) * 59 / 196;
            if (tens) {
                exp += tens;
                bn_div_pow10(&sig, tens);
            }
        }
    }
    char buf[2048];
    int nd = 0;
    bool in_trail = true;
    while (!bn_zero(&sig)) {
        /* nine digits at a time, least significant first; the last group
         * has no leading zeros */
        uint32_t r = bn_divmod_small(&sig, 1000000000u);
        bool last = bn_zero(&sig);
        for (int k = 0; k < 9 && (!last || r); k++, r /= 10) {
            uint32_t d = r % 10;
            if (in_trail && !d) {
                exp++;
            } else {
                buf[nd++] = (char)('0' + d);
                in_trail = false;
            }
        }
    }
    adjust_digits(buf, &nd, &exp, fmt_prec);
    bool sci;
    if (!max_pad) {
        sci = true;
    } else if (exp >= 0) {
        sci = (exp > max_pad || nd + exp > fmt_prec);
    } else {
        int msd = exp + (nd - 1);
        sci = msd >= 0 ? false : (-msd > max_pad);
    }
    if (sci) {
        exp += nd - 1;
        *o++ = buf[nd - 1];
        *o++ = '.';
        if (nd == 1 && trunc_zero) {
            *o++ = '0';
        } else {
            for (int i = 1; i != nd; i++)
                *o++ = buf[nd - 1 - i];
        }
        if (!trunc_zero && fmt_prec > nd - 1)
            for (int i = 0; i < fmt_prec - nd + 1; i++)
                *o++ = '0';
        *o++ = trunc_zero ? 'E' : 'e';
        *o++ = exp >= 0 ? '+' : '-';
        if (exp < 0)
            exp = -exp;
        char eb[16];
        int ne = 0;
        do {
            eb[ne++] = (char)('0' + exp % 10);
            exp /= 10;
        } while (exp);
        if (!trunc_zero && ne < 2)
            eb[ne++] = '0';
        for (int i = 0; i < ne; i++)
            *o++ = eb[ne - 1 - i];
        *o = 0;
        return;
    }
    if (exp >= 0) {
        for (int i = 0; i != nd; i++)
            *o++ = buf[nd - 1 - i];
        for (int i = 0; i != exp; i++)
            *o++ = '0';
        *o = 0;
        return;
    }
    int whole = exp + nd;
    int i = 0;
    if (whole > 0) {
        for (; i != whole; i++)
            *o++ = buf[nd - i - 1];
        *o++ = '.';
    } else {
        int nz = 1 - whole;
        *o++ = '0';
        *o++ = '.';
        for (int z = 1; z != nz; z++)
            *o++ = '0';
    }
    for (; i != nd; i++)
        *o++ = buf[nd - i - 1];
    *o = 0;
}

/* ---- conversions between double and the narrow formats -------------- */

uint64_t ct_float_to_bits(double v, ct_float_kind fk)
{
    uint64_t b64;
    memcpy(&b64, &v, 8);
    if (fk == CT_F64)
        return b64;
    if (fk == CT_F32) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    return ct_float_encode(v, fk);
}

double ct_float_from_bits(uint64_t bits, ct_float_kind fk)
{
    if (fk == CT_F64) {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    if (fk == CT_F32) {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, 4);
        return f;
    }
    return ct_float_decode(bits, fk);
}

double ct_float_round(double v, ct_float_kind fk)
{
    if (fk == CT_F64)
        return v;
    if (fk == CT_F32)
        return (float)v;
    return ct_float_decode(ct_float_encode(v, fk), fk);
}

static double parse_back(const char *s, ct_float_kind fk)
{
    if (fk == CT_F32)
        return strtof(s, NULL);
    return ct_float_round(strtod(s, NULL), fk);
}

static bool same_bits(double a, double b, ct_float_kind fk)
{
    return ct_float_to_bits(a, fk) == ct_float_to_bits(b, fk);
}

static void copy_out(char *out, size_t cap, const char *s)
{
    if (!cap)
        return;
    size_t n = strlen(s);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, s, n);
    out[n] = 0;
}

void ct_format_float(double v, ct_float_kind fk, char *out, size_t cap)
{
    char tmp[2200];
    fsem sem = sem_of(fk);
    if (v == 0) { /* what the general path prints for zeros, which read back */
        copy_out(out, cap, signbit(v) ? "-0.000000e+00" : "0.000000e+00");
        return;
    }
    if (!isinf(v) && !isnan(v)) {
        apfloat_to_string(v, sem, 6, 0, false, tmp);
        if (same_bits(parse_back(tmp, fk), v, fk)) {
            copy_out(out, cap, tmp);
            return;
        }
        apfloat_to_string(v, sem, 0, 3, true, tmp);
        if (strchr(tmp, '.')) {
            copy_out(out, cap, tmp);
            return;
        }
    }
    uint64_t bits = ct_float_to_bits(v, fk);
    snprintf(out, cap, "0x%llX", (unsigned long long)bits);
}
