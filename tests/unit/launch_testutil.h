/*
 * launch_testutil.h - helpers for the launch/compile tests (header only):
 * a private cache directory per test, removed afterwards.
 */
#ifndef CTRITON_LAUNCH_TESTUTIL_H
#define CTRITON_LAUNCH_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tu_cache[4096];

static int tu_rm_rf(const char *path)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    return system(cmd);
}

/* Points $CTRITON_CACHE_DIR at a fresh directory. */
static int tu_cache_setup(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(tu_cache, sizeof tu_cache, "%s/ctriton-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tu_cache))
        return -1;
    setenv("CTRITON_CACHE_DIR", tu_cache, 1);
    return 0;
}

static int tu_cache_teardown(void **state)
{
    (void)state;
    if (!getenv("CTRITON_KEEP_TEST_CACHE"))
        tu_rm_rf(tu_cache);
    unsetenv("CTRITON_CACHE_DIR");
    return 0;
}

#endif
