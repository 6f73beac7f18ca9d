/*
 * test_emu_mufu_cache.c - the decoded MUFU tables on disk (src/emu/mufu_cache.c).
 *
 * A table group is decoded once per process, so every case runs in a child process (fork) with
 * CTRITON_CACHE_DIR a fresh directory: the child decodes (or loads) every group, hashes every
 * entry of every table and 2^20 inputs of the packed EX2 path, and reports the hash and how many
 * groups it decoded.  The first child decodes all four groups and writes their files; the
 * second loads them (decodes none) and must hash the same; a truncated file, a flipped byte
 * and a foreign file (another key's bytes under this key's name) are decoded again (and
 * rewritten: the next child loads them); CTRITON_EMU_TABLE_CACHE=0 decodes and writes nothing;
 * an unwritable cache directory still gives the same tables.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "emu/mufu_internal.h"

static char dir[256];

typedef struct {
    uint64_t hash;
    int decoded;
} child_out;

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull;
}

/* in the child: every table's entries and a sample of the packed EX2 path */
static child_out tables_hash(void)
{
    static const emu_mufu_table *const ts[] = {&emu_mufu_rcp_table, &emu_mufu_rsq_table, &emu_mufu_sqrt_table,
                                               &emu_mufu_ex2_table, &emu_mufu_ex2neg_table};
    child_out o = {0xcbf29ce484222325ull, 0};
    emu_mufu_decode_all();
    for (size_t t = 0; t < sizeof ts / sizeof ts[0]; t++)
        for (uint32_t k = 0; k < ts[t]->n; k++)
            o.hash = mix(o.hash, emu_mufu_entry(ts[t], k));
    enum { N = 1 << 20 };
    float *a = malloc(sizeof(float) * N), *d = malloc(sizeof(float) * N);
    if (a && d) {
        uint32_t r = 12345;
        for (int i = 0; i < N; i++) {
            r = r * 1664525u + 1013904223u;
            uint32_t u = (r & 0x80000000u) | (0x30000000u + (r >> 4) % 0x13000000u); /* |x| up to ~2^7 */
            memcpy(&a[i], &u, 4);
        }
        if (emu_mufu_ex2_array_path(d, a, N, true, EMU_EX2_PACKED))
            for (int i = 0; i < N; i++) {
                uint32_t u;
                memcpy(&u, &d[i], 4);
                o.hash = mix(o.hash, u);
            }
    }
    free(a);
    free(d);
    o.decoded = emu_mufu_groups_decoded();
    return o;
}

/* runs tables_hash() in a child with the cache directory dir (NULL: unset) */
static child_out in_child(const char *cache_dir, const char *enable)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        setenv("CTRITON_CACHE_DIR", cache_dir, 1);
        if (enable)
            setenv("CTRITON_EMU_TABLE_CACHE", enable, 1);
        else
            unsetenv("CTRITON_EMU_TABLE_CACHE");
        child_out o = tables_hash();
        _exit(write(fd[1], &o, sizeof o) == (ssize_t)sizeof o ? 0 : 1);
    }
    close(fd[1]);
    child_out o = {0, -1};
    assert_int_equal(read(fd[0], &o, sizeof o), (ssize_t)sizeof o);
    close(fd[0]);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return o;
}

/* the cache's files (mufu-*.bin under dir/emu), their paths into names; returns how many */
static int files(char names[8][600])
{
    char emu[300];
    snprintf(emu, sizeof emu, "%s/emu", dir);
    DIR *d = opendir(emu);
    int n = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, "mufu-", 5) && n < 8)
            snprintf(names[n++], 600, "%s/%s", emu, e->d_name);
    closedir(d);
    return n;
}

static char *find(char names[8][600], int n, const char *group)
{
    char key[32];
    snprintf(key, sizeof key, "/mufu-%s-", group);
    for (int i = 0; i < n; i++)
        if (strstr(names[i], key))
            return names[i];
    return NULL;
}

static void copy_file(const char *from, const char *to)
{
    assert_non_null(from);
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    assert_non_null(a);
    assert_non_null(b);
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, a)) > 0)
        assert_int_equal(fwrite(buf, 1, k, b), k);
    fclose(a);
    assert_int_equal(fclose(b), 0);
}

static void t_cache(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ctriton-mufu-cache-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char names[8][600];

    /* no cache: CTRITON_EMU_TABLE_CACHE=0 decodes everything and writes nothing */
    child_out off = in_child(dir, "0");
    assert_int_equal(off.decoded, 4);
    assert_int_equal(files(names), 0);

    /* the first process decodes and writes, the second loads the same tables */
    child_out first = in_child(dir, NULL);
    assert_int_equal(first.decoded, 4);
    assert_true(first.hash == off.hash);
    int n = files(names);
    assert_int_equal(n, 4);
    child_out second = in_child(dir, NULL);
    assert_int_equal(second.decoded, 0);
    assert_true(second.hash == first.hash);

    /* a damaged file is decoded again (and rewritten) */
    char *ex2 = find(names, n, "ex2"), *rcp = find(names, n, "rcp"), *rsq = find(names, n, "rsq");
    assert_non_null(ex2);
    assert_non_null(rcp);
    assert_non_null(rsq);
    FILE *f = fopen(ex2, "r+b"); /* one byte flipped in the middle */
    assert_non_null(f);
    struct stat st;
    assert_int_equal(stat(ex2, &st), 0);
    fseek(f, st.st_size / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, st.st_size / 2, SEEK_SET);
    fputc(c ^ 0x10, f);
    fclose(f);
    assert_int_equal(truncate(rcp, 100), 0); /* truncated */
    /* a foreign file: sqrt's (another key, the same sizes) under rsq's name */
    copy_file(find(names, n, "sqrt"), rsq);
    child_out damaged = in_child(dir, NULL);
    assert_int_equal(damaged.decoded, 3);
    assert_true(damaged.hash == first.hash);
    child_out again = in_child(dir, NULL);
    assert_int_equal(again.decoded, 0);
    assert_true(again.hash == first.hash);

    /* a FIFO in a file's place is not opened (reading it would block): that group is decoded */
    n = files(names);
    char *sq = find(names, n, "sqrt");
    assert_non_null(sq);
    assert_int_equal(unlink(sq), 0);
    assert_int_equal(mkfifo(sq, 0600), 0);
    child_out fifo = in_child(dir, NULL);
    assert_int_equal(fifo.decoded, 1);
    assert_true(fifo.hash == first.hash);

    /* a cache directory that cannot be made (a file in its place) only costs the decode */
    char notdir[300];
    snprintf(notdir, sizeof notdir, "%s/file", dir);
    f = fopen(notdir, "w");
    assert_non_null(f);
    fclose(f);
    child_out nowhere = in_child(notdir, NULL);
    assert_int_equal(nowhere.decoded, 4);
    assert_true(nowhere.hash == first.hash);

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(t_cache)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
