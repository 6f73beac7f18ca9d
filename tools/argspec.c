/* argspec.c - the `--arg SPEC` arguments of `run --ttir` and `bench --ttir` (argspec.h). */
#include "argspec.h"

#include <errno.h>
#include <sys/stat.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ":out" etc. at the end of s (after an @FILE, whose name may hold ':'): its
 * length, or 0 */
static size_t mode_suffix(const char *s, const char **mode)
{
    static const char *const modes[] = {":out", ":inout", ":zeros", ":ones"};
    size_t n = strlen(s);
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        size_t m = strlen(modes[i]);
        if (n >= m && !strcmp(s + n - m, modes[i])) {
            *mode = modes[i] + 1;
            return m;
        }
    }
    *mode = NULL;
    return 0;
}

bool cli_arg_parse(const char *spec, cli_arg *a, char *err, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->access = CT_EMU_IN;
    if (!strcmp(spec, "null")) {
        a->kind = CLI_ARG_NULL;
        return true;
    }
    const char *lb = strchr(spec, '[');
    if (!lb) {
        char *end;
        errno = 0;
        long long iv = strtoll(spec, &end, 0);
        if (*spec && *end == 0 && !errno && (unsigned char)*spec > ' ') {
            a->kind = CLI_ARG_INT;
            a->i = iv;
            return true;
        }
        errno = 0;
        double dv = strtod(spec, &end);
        if (*spec && *end == 0 && !errno && isfinite(dv) && (unsigned char)*spec > ' ') {
            a->kind = CLI_ARG_FLOAT;
            a->f = dv;
            return true;
        }
        snprintf(err, cap, "`%s` is not a number, null, or DTYPE[N] (see `ctriton run --help`)", spec);
        return false;
    }
    a->kind = CLI_ARG_BUF;
    char dt[32];
    if (lb - spec >= (long)sizeof dt) {
        snprintf(err, cap, "`%.*s` is not a dtype", (int)(lb - spec), spec);
        return false;
    }
    memcpy(dt, spec, (size_t)(lb - spec));
    dt[lb - spec] = 0;
    int t = ct_emu_dtype_from_name(dt);
    if (t < 0) {
        snprintf(err, cap, "`%s` is not a dtype (fp32, fp16, bf16, fp64, i8, i16, i32, i64, ...)", dt);
        return false;
    }
    a->dtype = (ct_emu_dtype)t;
    char *end;
    errno = 0;
    long long n = strtoll(lb + 1, &end, 10);
    if (end == lb + 1 || *end != ']' || errno || n < 0 || n > (1ll << 34)) {
        snprintf(err, cap, "`%s`: the element count in [...] must be 0 to 2^34", spec);
        return false;
    }
    a->n = n;
    a->bytes = (size_t)n * ct_emu_dtype_size(a->dtype);
    const char *rest = end + 1, *mode;
    size_t ml = mode_suffix(rest, &mode);
    size_t rl = strlen(rest) - ml;
    if (rl) {
        if (rest[0] != '@' || rl == 1) {
            snprintf(err, cap, "`%s`: after DTYPE[N] comes @FILE and/or :out, :inout, :zeros, :ones",
                     spec);
            return false;
        }
        if (rl - 1 >= sizeof a->file) {
            snprintf(err, cap, "`%s`: the file name is too long", spec);
            return false;
        }
        memcpy(a->file, rest + 1, rl - 1);
        a->file[rl - 1] = 0;
        a->fill = CLI_FILL_FILE;
    }
    if (mode && !strcmp(mode, "out")) {
        a->access = CT_EMU_OUT;
    } else if (mode && !strcmp(mode, "inout")) {
        a->access = CT_EMU_INOUT;
        if (!a->file[0])
            a->fill = CLI_FILL_ZEROS; /* an accumulator, as before */
    } else if (mode) {
        if (a->file[0]) {
            snprintf(err, cap, "`%s`: :%s and @FILE both say how the buffer starts", spec, mode);
            return false;
        }
        a->fill = !strcmp(mode, "zeros") ? CLI_FILL_ZEROS : CLI_FILL_ONES;
    }
    return true;
}

bool cli_arg_load(cli_arg *a, uint64_t *rng, char *err, size_t cap)
{
    if (a->kind != CLI_ARG_BUF)
        return true;
    size_t room = (a->bytes + 63) & ~(size_t)63;
    a->data = aligned_alloc(64, room ? room : 64);
    if (!a->data) {
        snprintf(err, cap, "out of memory for %zu bytes", a->bytes);
        return false;
    }
    memset(a->data, 0, room ? room : 64);
    if (a->access == CT_EMU_OUT) {
        memset(a->data, ct_emu_poison_byte(a->dtype), a->bytes);
        return true;
    }
    if (a->fill == CLI_FILL_FILE) {
        /* exactly the buffer's bytes: a file of another size is a mistake (dtype, count) */
        FILE *f = fopen(a->file, "rb");
        struct stat st;
        if (!f || fstat(fileno(f), &st) != 0) {
            snprintf(err, cap, "cannot open %s: %s", a->file, strerror(errno));
            if (f)
                fclose(f);
            return false;
        }
        if (!S_ISREG(st.st_mode) || (size_t)st.st_size != a->bytes) {
            snprintf(err, cap, S_ISREG(st.st_mode) ? "%s holds %lld bytes, %s[%lld] is %zu"
                                                   : "%s is not a regular file (%lld), %s[%lld] needs %zu bytes",
                     a->file, (long long)st.st_size, ct_emu_dtype_name(a->dtype), a->n, a->bytes);
            fclose(f);
            return false;
        }
        bool ok = fread(a->data, 1, a->bytes, f) == a->bytes;
        fclose(f);
        if (!ok)
            snprintf(err, cap, "cannot read %zu bytes from %s", a->bytes, a->file);
        return ok;
    }
    bool fl = ct_emu_dtype_is_float(a->dtype);
    for (long long i = 0; i < a->n; i++) {
        double v;
        if (a->fill == CLI_FILL_ZEROS)
            v = 0;
        else if (a->fill == CLI_FILL_ONES)
            v = 1;
        else {
            double u = (double)(splitmix(rng) >> 11) * 0x1p-53;
            v = fl ? 2 * u - 1 : floor(u * 16);
        }
        ct_emu_set(a->dtype, a->data, i, v);
    }
    return true;
}

bool cli_arg_store(const cli_arg *a, char *err, size_t cap)
{
    if (a->kind != CLI_ARG_BUF || !a->file[0] || a->access == CT_EMU_IN)
        return true;
    return cli_write_file(a->file, a->data, a->bytes, err, cap);
}

void cli_arg_free(cli_arg *a)
{
    free(a->data);
    a->data = NULL;
}
