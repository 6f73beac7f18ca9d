/*
 * sys.c - the operating-system side of the compile layer: directories,
 * whole-file reads and durable writes, subprocesses with captured output,
 * the Python and script that lowering runs, and fault injection for tests.
 */
#define _GNU_SOURCE
#include "compile_internal.h"

#include "ctriton/triton_version.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

bool ct_path_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

bool ct_rmtree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT;
    if (!S_ISDIR(st.st_mode))
        return unlink(path) == 0 || errno == ENOENT;
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            size_t n = strlen(path) + strlen(e->d_name) + 2;
            char *sub = malloc(n);
            if (!sub)
                break;
            snprintf(sub, n, "%s/%s", path, e->d_name);
            ct_rmtree(sub);
            free(sub);
        }
        closedir(d);
    }
    return rmdir(path) == 0 || errno == ENOENT;
}

unsigned char *ct_read_all(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return NULL;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            unsigned char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            free(buf);
            buf = NULL;
            break;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (!buf)
        return NULL;
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

bool ct_write_all(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    const char *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return false;
        }
        p += w;
        left -= (size_t)w;
    }
    bool ok = fsync(fd) == 0 || errno == EINVAL;
    return (close(fd) == 0) && ok;
}

bool ct_fsync_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok = fsync(fd) == 0 || errno == EINVAL;
    close(fd);
    return ok;
}

void ct_unique_suffix(char *buf, size_t cap)
{
    static _Atomic unsigned counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(buf, cap, "%ld.%lx.%u", (long)getpid(), (unsigned long)ts.tv_nsec,
             atomic_fetch_add(&counter, 1));
}

ct_status ct_run_process(char *const argv[], char **output, int *exit_code)
{
    *output = NULL;
    *exit_code = -1;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return ct_fail(CT_ERR_IO, "cannot create a pipe: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return ct_fail(CT_ERR_COMPILE, "cannot run `%s`: %s", argv[0], strerror(rc));
    }
    ct_strbuf out;
    ct_sb_init(&out);
    char tmp[8192];
    for (;;) {
        ssize_t r = read(fds[0], tmp, sizeof tmp);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        ct_sb_putn(&out, tmp, (size_t)r);
    }
    close(fds[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            ct_sb_free(&out);
            return ct_fail(CT_ERR_IO, "waitpid: %s", strerror(errno));
        }
    }
    *exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
    *output = ct_sb_take(&out);
    return CT_OK;
}

bool ct_fault(const char *point)
{
    const char *f = getenv("CTRITON_FAULT");
    if (!f || !*f)
        return false;
    size_t n = strlen(point);
    for (const char *p = f; (p = strstr(p, point)); p += n)
        if ((p == f || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
            return true;
    return false;
}

void ct_lower_python(char *buf, size_t cap)
{
    ct_util_lower_python(buf, cap);
}

/* DIR/../REL/lower.py for the directory DIR of the object this code is in:
 * libctriton.so, or the program that linked libctriton.a, wherever it was
 * installed or moved to (share/ctriton beside lib/ or bin/). */
static bool script_beside_binary(char *buf, size_t cap)
{
#ifdef CTRITON_DATADIR_REL
    Dl_info info;
    if (!dladdr((void *)script_beside_binary, &info) || !info.dli_fname || !*info.dli_fname)
        return false;
    const char *slash = strrchr(info.dli_fname, '/');
    if (!slash)
        return false;
    snprintf(buf, cap, "%.*s/../%s/lower.py", (int)(slash - info.dli_fname), info.dli_fname,
             CTRITON_DATADIR_REL);
    return access(buf, R_OK) == 0;
#else
    (void)buf;
    (void)cap;
    return false;
#endif
}

bool ct_lower_script(char *buf, size_t cap)
{
    const char *e = getenv("CTRITON_LOWER_SCRIPT");
    if (e && *e) {
        snprintf(buf, cap, "%s", e);
        return access(buf, R_OK) == 0;
    }
    const char *src = getenv("CTRITON_SOURCE_DIR");
    if (src && *src) {
        snprintf(buf, cap, "%s/scripts/lower.py", src);
        if (access(buf, R_OK) == 0)
            return true;
    }
    if (script_beside_binary(buf, cap))
        return true;
#ifdef CTRITON_BUILD_SOURCE_DIR
    snprintf(buf, cap, "%s/scripts/lower.py", CTRITON_BUILD_SOURCE_DIR);
    if (access(buf, R_OK) == 0)
        return true;
#endif
#ifdef CTRITON_INSTALL_DATADIR
    snprintf(buf, cap, "%s/lower.py", CTRITON_INSTALL_DATADIR);
    if (access(buf, R_OK) == 0)
        return true;
#endif
    snprintf(buf, cap, "scripts/lower.py");
    return access(buf, R_OK) == 0;
}

const char *ct_lower_target(const ct_lower_opts *o)
{
    const char *req = o ? o->triton : NULL;
    const ct_triton *t = ct_triton_resolve(req, NULL);
    if (t)
        return t->name;
    /* unsupported: the name as asked, so that keys and messages show it */
    if (req && *req)
        return req;
    const char *e = getenv("CTRITON_TRITON_VERSION");
    return e && *e ? e : ct_triton_detected();
}
