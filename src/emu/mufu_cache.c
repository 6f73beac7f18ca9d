/*
 * mufu_cache.c - the decoded MUFU tables kept on disk between processes.
 *
 * Decoding a group of MUFU tables (mufu.c: the range-coded exceptions into bitmaps, EX2's packed
 * words) takes about 6 ns an entry: 0.1 s for the two tables of exp, 0.4 s for all of them, in
 * every process that uses them.  What it produces depends only on the tables' data and on how
 * mufu.c lays out its buffers, so the first process keeps it in $CTRITON_CACHE_DIR/emu
 * (ct_util_cache_dir) and later ones read it back in a few milliseconds.
 *
 * A file is named by the group and by a key of what it was decoded from (every byte of the
 * tables' data, and mufu.c's layout version): a build whose tables or packing differ uses other
 * files.  It holds a header (magic, key, the buffers' count and sizes), the buffers, and a
 * checksum of them; a missing, foreign, truncated or damaged file is decoded again and
 * rewritten (atomically: temp file and rename), and a directory that cannot be written only costs
 * the decode.  CTRITON_EMU_TABLE_CACHE=0 turns the cache off (every process decodes).  The
 * files are the user's own, as the compile cache's are: they are checked against damage, not
 * against someone who can write the user's cache directory.
 */
#include "mufu_internal.h"

#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char magic[8] = {'C', 'T', 'M', 'U', 'F', 'U', 0, 1};

static uint64_t fnv_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* a checksum of the buffers, a word at a time (they are megabytes; sizes are multiples of 8) */
static uint64_t checksum(const unsigned char *p, size_t n)
{
    uint64_t h = 0x243f6a8885a308d3ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    return fnv_bytes(h, p + i, n - i);
}

uint64_t emu_mufu_cache_key(const emu_mufu_table *const *t, int nt, uint32_t layout)
{
    uint64_t h = fnv_bytes(0xcbf29ce484222325ull, &layout, sizeof layout);
    for (int i = 0; i < nt; i++) {
        uint64_t head[5] = {t[i]->n, (uint64_t)(int64_t)t[i]->lo, t[i]->nstream, t[i]->nexc, 0};
        memcpy(&head[4], &t[i]->w, sizeof(double));
        h = fnv_bytes(h, head, sizeof head);
        h = fnv_bytes(h, t[i]->coef, sizeof(double[3]) * (t[i]->n >> 16));
        h = fnv_bytes(h, t[i]->stream, t[i]->nstream);
    }
    return h;
}

static bool enabled(void)
{
    const char *e = getenv("CTRITON_EMU_TABLE_CACHE");
    return !(e && !strcmp(e, "0"));
}

/* the group's file (or, dir_only, its folder); false where the path would not fit (a cache
 * directory of thousands of characters: no cache then, rather than a cut path) */
static bool path_of(char *buf, size_t cap, const char *what, uint64_t key, bool dir_only)
{
    char dir[4000];
    ct_util_cache_dir(dir, sizeof dir);
    if (strlen(dir) >= sizeof dir - 1)
        return false;
    int n = dir_only ? snprintf(buf, cap, "%s/emu", dir)
                     : snprintf(buf, cap, "%s/emu/mufu-%s-%016llx.bin", dir, what, (unsigned long long)key);
    return n > 0 && (size_t)n < cap;
}

bool emu_mufu_cache_load(const char *what, uint64_t key, void *const *bufs, const size_t *sizes, int n)
{
    if (!enabled() || n < 1 || n > 16)
        return false;
    char path[4200];
    if (!path_of(path, sizeof path, what, key, false))
        return false;
    size_t head = 8 + 8 + 8 + 8 * (size_t)n, total = head + 8;
    for (int i = 0; i < n; i++)
        total += sizes[i];
    /* only a regular file of the expected size is read: not a FIFO (which would block), a
     * device, or a file of gigabytes put in its place */
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != total)
        return false;
    size_t len = 0;
    unsigned char *f = (unsigned char *)ct_read_file(path, &len);
    if (!f)
        return false;
    bool ok = len == total && !memcmp(f, magic, 8);
    uint64_t v;
    if (ok) {
        memcpy(&v, f + 8, 8);
        ok = v == key;
    }
    if (ok) {
        memcpy(&v, f + 16, 8);
        ok = v == (uint64_t)n;
    }
    for (int i = 0; ok && i < n; i++) {
        memcpy(&v, f + 24 + 8 * (size_t)i, 8);
        ok = v == sizes[i];
    }
    if (ok) {
        memcpy(&v, f + total - 8, 8);
        ok = v == checksum(f + head, total - 8 - head);
    }
    if (ok) { /* only a whole, checked file reaches the buffers */
        size_t at = head;
        for (int i = 0; i < n; i++) {
            memcpy(bufs[i], f + at, sizes[i]);
            at += sizes[i];
        }
    }
    free(f);
    return ok;
}

bool emu_mufu_cache_store(const char *what, uint64_t key, const void *const *bufs, const size_t *sizes, int n)
{
    if (!enabled() || n < 1 || n > 16)
        return false;
    char path[4200];
    if (!path_of(path, sizeof path, what, key, true) || !ct_mkdirs(path))
        return false;
    size_t head = 8 + 8 + 8 + 8 * (size_t)n, total = head + 8;
    for (int i = 0; i < n; i++)
        total += sizes[i];
    unsigned char *f = malloc(total);
    if (!f)
        return false;
    memcpy(f, magic, 8);
    uint64_t v = key;
    memcpy(f + 8, &v, 8);
    v = (uint64_t)n;
    memcpy(f + 16, &v, 8);
    size_t at = head;
    for (int i = 0; i < n; i++) {
        v = sizes[i];
        memcpy(f + 24 + 8 * (size_t)i, &v, 8);
        memcpy(f + at, bufs[i], sizes[i]);
        at += sizes[i];
    }
    v = checksum(f + head, at - head);
    memcpy(f + at, &v, 8);
    bool ok = path_of(path, sizeof path, what, key, false) && ct_write_file(path, f, total);
    free(f);
    return ok;
}
