/*
 * check_exp2.c - the emulator's exp2 (emu_exp2f, src/emu/emu_internal.h) on every f32 input,
 * against 2^x computed in long double (x87 exp2l: 64 significant bits) and rounded once to
 * f32, and against the C library's exp2f.  A one-off check (about a minute on two cores), not
 * a test:
 *
 *   cc -O2 -Iinclude -Isrc scripts/check_exp2.c build/libctriton.a -lm -lpthread -o /tmp/check_exp2
 *   /tmp/check_exp2
 *
 * It also runs the handlers' array function (src/emu/exp2.c) on every input, vector path
 * against scalar path, for math.exp2 and math.exp.
 *
 * It prints, over all 2^32 inputs, how many results differ from the long-double reference
 * (normal and subnormal results separately: a subnormal result is rounded twice, once to
 * double and once to f32, and the reference's too, so those may differ by an ulp in either's
 * favour) and how many differ from libm's exp2f, with the first few of each.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu_internal.h"

enum { NT = 2 };

typedef struct part {
    uint64_t lo, hi;
    uint64_t bad_normal, bad_sub, vs_libm, vec_scalar;
    uint32_t first_bad[4], first_libm[4];
    int nfb, nfl;
} part;

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void *run(void *arg)
{
    part *p = arg;
    enum { C = 4096 };
    float in[C], v[C], sc[C];
    for (uint64_t c = p->lo; c < p->hi; c += C) {
        for (int j = 0; j < C; j++) {
            uint32_t u = (uint32_t)(c + (uint64_t)j);
            memcpy(&in[j], &u, 4);
        }
        for (int is_exp = 0; is_exp < 2; is_exp++) {
            emu_exp2_f32_array(v, in, C, is_exp, false);
            emu_exp2_f32_array(sc, in, C, is_exp, true);
            for (int j = 0; j < C; j++)
                p->vec_scalar += bits(v[j]) != bits(sc[j]);
        }
    }
    for (uint64_t i = p->lo; i < p->hi; i++) {
        uint32_t u = (uint32_t)i;
        float x;
        memcpy(&x, &u, 4);
        float got = emu_exp2f(x);
        float want = (float)exp2l((long double)x);
        float lm = exp2f(x);
        bool nan = x != x;
        if (nan ? !(got != got) : bits(got) != bits(want)) {
            if (fabsf(want) < 0x1p-126f)
                p->bad_sub++;
            else {
                p->bad_normal++;
                if (p->nfb < 4)
                    p->first_bad[p->nfb++] = u;
            }
        }
        if (nan ? bits(got) != bits(lm) : bits(got) != bits(lm)) {
            p->vs_libm++;
            if (p->nfl < 4)
                p->first_libm[p->nfl++] = u;
        }
    }
    return NULL;
}

int main(void)
{
    part parts[NT];
    pthread_t th[NT];
    uint64_t n = 1ull << 32;
    for (int t = 0; t < NT; t++) {
        memset(&parts[t], 0, sizeof parts[t]);
        parts[t].lo = n / NT * (uint64_t)t;
        parts[t].hi = t == NT - 1 ? n : n / NT * (uint64_t)(t + 1);
        pthread_create(&th[t], NULL, run, &parts[t]);
    }
    uint64_t bn = 0, bs = 0, vl = 0, vs = 0;
    for (int t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        bn += parts[t].bad_normal;
        bs += parts[t].bad_sub;
        vl += parts[t].vs_libm;
        vs += parts[t].vec_scalar;
    }
    printf("inputs: %llu\n", (unsigned long long)n);
    printf("differ from the long-double reference: %llu with a normal result, %llu subnormal\n",
           (unsigned long long)bn, (unsigned long long)bs);
    printf("differ from libm's exp2f: %llu\n", (unsigned long long)vl);
    printf("array function, vector against scalar path (exp2 and exp): %llu differ\n",
           (unsigned long long)vs);
    for (int t = 0; t < NT; t++) {
        for (int i = 0; i < parts[t].nfb; i++) {
            float x;
            memcpy(&x, &parts[t].first_bad[i], 4);
            printf("  reference differs: x = %a: %a, reference %a\n", (double)x,
                   (double)emu_exp2f(x), (double)(float)exp2l((long double)x));
        }
        for (int i = 0; i < parts[t].nfl; i++) {
            float x;
            memcpy(&x, &parts[t].first_libm[i], 4);
            printf("  libm differs: x = %a: %a, libm %a, reference %a\n", (double)x,
                   (double)emu_exp2f(x), (double)exp2f(x), (double)(float)exp2l((long double)x));
        }
    }
    return bn != 0 || vs != 0;
}
