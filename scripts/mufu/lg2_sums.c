/*
 * lg2_sums.c - the emulator's lg2.approx models (src/emu/mufu.c) against the H200's outputs on
 * every input, on the CPU: the hash sums per block of 2^16 inputs that
 * scripts/gpu/mufu_lg2_probe.cu writes (ftz.sums for lg2.approx.ftz.f32, full.sums for
 * lg2.approx.f32) are recomputed from the models and compared block by block.
 *
 *   cc -O2 -ffp-contract=off -Isrc -Iinclude -Isrc/emu scripts/mufu/lg2_sums.c src/emu/mufu.c src/emu/mufu_cache.c \
 *      src/emu/mufu_data.c src/emu/mufu_lg2_data.c src/util/util.c src/util/alloc.c -lm -lpthread
 *   ./a.out ftz.sums full.sums [threads]
 * Prints, per form, the blocks that differ (the first few, with their first input) and exits
 * non-zero if any does.
 */
#include "mufu_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t gpu[2][1 << 16], emu[2][1 << 16];
static int nthreads = 2;

typedef struct job {
    int id;
} job;

static void *work(void *p)
{
    int id = ((job *)p)->id;
    for (uint32_t b = (uint32_t)id; b < (1u << 16); b += (uint32_t)nthreads) {
        uint64_t s0 = 0, s1 = 0;
        for (uint32_t i = 0; i < (1u << 16); i++) {
            uint32_t in = (b << 16) | i, o0, o1;
            float x, y0, y1;
            memcpy(&x, &in, 4);
            y0 = emu_mufu_lg2(x);
            y1 = emu_lg2_full(x);
            memcpy(&o0, &y0, 4);
            memcpy(&o1, &y1, 4);
            s0 += splitmix(((uint64_t)in << 32) | o0);
            s1 += splitmix(((uint64_t)in << 32) | o1);
        }
        emu[0][b] = s0;
        emu[1][b] = s1;
    }
    return NULL;
}

static void load(const char *path, uint64_t *s)
{
    FILE *f = fopen(path, "rb");
    if (!f || fread(s, 8, 1 << 16, f) != (1 << 16)) {
        fprintf(stderr, "lg2_sums: cannot read 2^16 sums from %s\n", path);
        exit(2);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s ftz.sums full.sums [threads]\n", argv[0]);
        return 2;
    }
    load(argv[1], gpu[0]);
    load(argv[2], gpu[1]);
    if (argc > 3)
        nthreads = atoi(argv[3]);
    if (nthreads < 1 || nthreads > 256)
        nthreads = 2;
    emu_mufu_decode_all();
    pthread_t th[256];
    job jobs[256];
    for (int t = 0; t < nthreads; t++) {
        jobs[t].id = t;
        pthread_create(&th[t], NULL, work, &jobs[t]);
    }
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    int bad = 0;
    const char *name[2] = {"lg2.approx.ftz.f32", "lg2.approx.f32"};
    for (int f = 0; f < 2; f++) {
        int nb = 0;
        for (uint32_t b = 0; b < (1u << 16); b++)
            if (gpu[f][b] != emu[f][b]) {
                if (nb < 8)
                    printf("%s: block %04x (inputs %08x..%08x) differs\n", name[f], b, b << 16, (b << 16) | 0xffff);
                nb++;
            }
        printf("%s  all 2^32 inputs: %d of 65536 blocks differ\n", name[f], nb);
        bad |= nb != 0;
    }
    return bad;
}
