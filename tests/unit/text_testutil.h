/*
 * text_testutil.h - helpers shared by the tests of the text layer (parser,
 * printer, normalizer, differ): reading files of the source tree, listing
 * the goldens, parsing with failure messages.  Header-only: each test is
 * one executable.
 */
#ifndef TEXT_TESTUTIL_H
#define TEXT_TESTUTIL_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ctriton/text.h"
#include "ctriton/triton_version.h"
#include "util/util.h"

static inline const char *src_dir(void)
{
    const char *d = getenv("CTRITON_SOURCE_DIR");
    return d && *d ? d : CTRITON_SOURCE_DIR;
}

/* A file of the source tree (relative path); NULL if missing. */
static inline char *read_src(const char *rel, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", src_dir(), rel);
    return ct_read_file(path, len);
}

static inline bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The text files the round trips run over: every golden (py.source,
 * py.ttir, c.source), the parser corpus and the reference samples.  Paths
 * relative to the source tree, malloc'd; *n of them. */
static inline char **text_files(int *n)
{
    int cap = 64, k = 0;
    char **v = malloc(sizeof(char *) * (size_t)cap);
    char base[4096];
    /* and py-X.Y.Z.source: the raw TTIR another Triton release writes (the newest
     * one's, kept by make fidelity), in that release's spellings */
    static const char *const golden_names[] = {"py.source", "py.ttir", "c.source"};
    enum { NG = sizeof golden_names / sizeof golden_names[0] };
    /* tests/golden/<kernel>/<config>/ */
    snprintf(base, sizeof base, "%s/tests/golden", src_dir());
    DIR *d = opendir(base);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char kdir[8192];
        snprintf(kdir, sizeof kdir, "%s/%s", base, e->d_name);
        DIR *dk = opendir(kdir);
        struct dirent *c;
        while (dk && (c = readdir(dk))) {
            if (c->d_name[0] == '.')
                continue;
            for (int g = 0; g < NG + ct_triton_count(); g++) {
                char rel[8192], full[16384], name[64];
                if (g < NG)
                    snprintf(name, sizeof name, "%s", golden_names[g]);
                else
                    snprintf(name, sizeof name, "py-%s.source", ct_triton_at(g - NG)->name);
                snprintf(rel, sizeof rel, "tests/golden/%s/%s/%s", e->d_name, c->d_name, name);
                snprintf(full, sizeof full, "%s/%s", src_dir(), rel);
                if (!file_exists(full))
                    continue;
                if (k == cap)
                    v = realloc(v, sizeof(char *) * (size_t)(cap *= 2));
                v[k++] = strdup(rel);
            }
        }
        if (dk)
            closedir(dk);
    }
    if (d)
        closedir(d);
    snprintf(base, sizeof base, "%s/tests/text/corpus", src_dir());
    d = opendir(base);
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (k == cap)
            v = realloc(v, sizeof(char *) * (size_t)(cap *= 2));
        char rel[8192];
        snprintf(rel, sizeof rel, "tests/text/corpus/%s", e->d_name);
        v[k++] = strdup(rel);
    }
    if (d)
        closedir(d);
    *n = k;
    return v;
}

static inline void free_files(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Parses text; on failure prints the diagnostics (the test then fails). */
static inline ct_module *parse_or_report(const char *text, size_t len, const char *name)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module(text, len, name, &d);
    if (!m)
        ct_diags_print(&d, stderr, false);
    ct_diags_free(&d);
    return m;
}

static inline ct_module *parse_str(const char *text)
{
    return parse_or_report(text, strlen(text), "test");
}

/* Replaces the first occurrence of `from` in s by `to`; NULL if absent. */
static inline char *replace_once(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    if (!at)
        return NULL;
    size_t n = strlen(s) - strlen(from) + strlen(to);
    char *r = malloc(n + 1);
    size_t pre = (size_t)(at - s);
    memcpy(r, s, pre);
    strcpy(r + pre, to);
    strcat(r, at + strlen(from));
    return r;
}

#endif
