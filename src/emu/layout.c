/*
 * layout.c - the layouts of reductions and scans, read from TTGIR text.
 *
 * The order in which the GPU combines the elements of a tt.reduce depends on
 * the operand's layout, which Triton chooses after TTIR (coalescing loads,
 * propagating their layouts).  The TTGIR Triton writes for a kernel names it:
 *     #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], ...}>
 *     %9 = "tt.reduce"(%8) <{axis = 0 : i32}> ({ ... }) : (tensor<1024xf32, #blocked>) -> f32
 * or, for a dot result, #mma = #ttg.nvidia_mma<{versionMajor = 3, ...,
 * warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>, or a slice of either
 * (#ttg.slice<{dim = 1, parent = #mma}>: a reduction's result, reduced again).
 * This reads those, in the order of the ops, without a full MLIR parser: the
 * alias definitions, then each "tt.reduce"( / "tt.scan"( op's axis and the
 * first operand type after its region.
 */
#include "emu_internal.h"

#include <ctype.h>
#include <stdlib.h>

typedef struct alias {
    char name[64];
    ct_emu_layout l;
} alias;

/* reads "[a, b, c]" into v; returns the count or -1 */
static int int_list(const char *p, int *v, int max)
{
    while (*p == ' ')
        p++;
    if (*p != '[')
        return -1;
    p++;
    int n = 0;
    while (*p && *p != ']') {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || n >= max)
            return -1;
        v[n++] = (int)x;
        p = end;
        while (*p == ' ' || *p == ',')
            p++;
    }
    return *p == ']' ? n : -1;
}

static bool field(const char *start, const char *end, const char *name, int *v, int *n)
{
    const char *f = strstr(start, name);
    if (!f || f > end)
        return false;
    f = strchr(f, '=');
    if (!f || f > end)
        return false;
    *n = int_list(f + 1, v, CT_MAX_RANK);
    return *n > 0;
}

/* Resolves the encoding at nm (an alias "#blocked1", or "#ttg.slice<{dim = D, parent = ENC}>")
 * of a tensor of `rank` dims into l: the base alias's values, base_rank and dims[i], the base's
 * dim of the tensor's dim i.  False when it is neither. */
static bool resolve_enc(const char *nm, const alias *as, int na, int rank, ct_emu_layout *l,
                        int *dims, int *base_rank, int depth)
{
    static const char slice[] = "#ttg.slice<{dim = ";
    if (depth > CT_MAX_RANK || rank > CT_MAX_RANK)
        return false;
    if (!strncmp(nm, slice, strlen(slice))) {
        int d = atoi(nm + strlen(slice));
        const char *pp = strstr(nm, "parent = ");
        const char *gt = strchr(nm, '>');
        if (!pp || (gt && gt < pp) || d < 0 || d > rank)
            return false;
        int pd[CT_MAX_RANK + 1];
        if (!resolve_enc(pp + strlen("parent = "), as, na, rank + 1, l, pd, base_rank, depth + 1))
            return false;
        for (int i = 0; i < rank; i++)
            dims[i] = pd[i < d ? i : i + 1];
        return true;
    }
    size_t len = 0;
    while (nm[len] == '#' || nm[len] == '_' || isalnum((unsigned char)nm[len]))
        len++;
    for (int i = 0; i < na; i++)
        if (strlen(as[i].name) == len && !strncmp(as[i].name, nm, len) && as[i].l.rank == rank) {
            l->blocked = as[i].l.mma_version == 0;
            l->mma_version = as[i].l.mma_version;
            memcpy(l->instr_shape, as[i].l.instr_shape, sizeof l->instr_shape);
            memcpy(l->size_per_thread, as[i].l.size_per_thread, sizeof l->size_per_thread);
            memcpy(l->threads_per_warp, as[i].l.threads_per_warp, sizeof l->threads_per_warp);
            memcpy(l->warps_per_cta, as[i].l.warps_per_cta, sizeof l->warps_per_cta);
            for (int j = 0; j < rank; j++)
                dims[j] = j;
            *base_rank = rank;
            return true;
        }
    return false;
}

int ct_emu_layouts_from_ttgir(const char *text, ct_emu_layout *out, int max)
{
    if (!text)
        return -1;
    alias as[64];
    int na = 0;
    /* #name = #ttg.blocked<{...}> at the start of a line */
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        if (*p == '#' && na < 64) {
            const char *eq = strstr(p, " = #ttg.blocked<{");
            const char *mq = strstr(p, " = #ttg.nvidia_mma<{");
            if (mq && mq < eol && (size_t)(mq - p) < sizeof as[na].name) {
                /* #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0,
                 *        warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}> */
                alias *a = &as[na];
                memset(a, 0, sizeof *a);
                memcpy(a->name, p, (size_t)(mq - p));
                const char *v = strstr(mq, "versionMajor = ");
                int n1, n2, is[CT_MAX_RANK];
                if (v && v < eol && field(mq, eol, "warpsPerCTA", a->l.warps_per_cta, &n1) &&
                    field(mq, eol, "instrShape", is, &n2) && n2 <= 3) {
                    memcpy(a->l.instr_shape, is, sizeof(int) * (size_t)n2);
                    a->l.mma_version = atoi(v + strlen("versionMajor = "));
                    a->l.rank = n1;
                    if (a->l.mma_version > 0)
                        na++;
                }
            } else if (eq && eq < eol) {
                alias *a = &as[na];
                memset(a, 0, sizeof *a);
                size_t len = (size_t)(eq - p);
                if (len < sizeof a->name) {
                    memcpy(a->name, p, len);
                    int n1, n2, n3;
                    if (field(eq, eol, "sizePerThread", a->l.size_per_thread, &n1) &&
                        field(eq, eol, "threadsPerWarp", a->l.threads_per_warp, &n2) &&
                        field(eq, eol, "warpsPerCTA", a->l.warps_per_cta, &n3) && n1 == n2 &&
                        n2 == n3) {
                        a->l.rank = n1;
                        na++;
                    }
                }
            }
        }
        p = *eol ? eol + 1 : eol;
    }
    int count = 0;
    for (const char *p = text;;) {
        const char *r = strstr(p, "\"tt.reduce\"(");
        const char *s = strstr(p, "\"tt.scan\"(");
        if (!r && !s)
            break;
        const char *op = !s || (r && r < s) ? r : s;
        ct_emu_layout l;
        memset(&l, 0, sizeof l);
        l.is_scan = op == s;
        const char *ax = strstr(op, "axis = ");
        if (ax)
            l.axis = atoi(ax + 7);
        /* the region: from "({" to its matching "})", then ": (tensor<...>" */
        const char *q = strstr(op, "({");
        if (!q)
            return -1;
        int depth = 0;
        for (; *q; q++) {
            if (*q == '{')
                depth++;
            else if (*q == '}' && --depth == 0)
                break;
        }
        if (!*q)
            return -1;
        const char *t = strstr(q, ": (tensor<");
        const char *nl = strchr(q, '\n');
        if (t && (!nl || t < nl)) {
            t += strlen(": (tensor<");
            /* dims: 8x32xf32, #blocked> */
            int rank = 0;
            while (isdigit((unsigned char)*t) && rank < CT_MAX_RANK) {
                l.shape[rank++] = strtoll(t, (char **)&t, 10);
                if (*t == 'x')
                    t++;
            }
            l.rank = rank;
            const char *comma = strchr(t, ',');
            const char *gt = strchr(t, '>');
            if (comma && gt && comma < gt) {
                const char *nm = comma + 1;
                while (*nm == ' ')
                    nm++;
                int dims[CT_MAX_RANK], base_rank = 0;
                ct_emu_layout b = l;
                if (resolve_enc(nm, as, na, rank, &b, dims, &base_rank, 0)) {
                    l = b;
                    if (base_rank != rank) { /* a slice: the parent's values, its dims */
                        l.base_rank = base_rank;
                        memcpy(l.base_dim, dims, sizeof(int) * (size_t)rank);
                    }
                }
            }
        }
        if (count < max && out)
            out[count] = l;
        count++;
        p = q;
    }
    return count;
}
