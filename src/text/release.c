/*
 * release.c - the TTIR spellings that differ between Triton releases
 * (ctriton/triton_version.h, docs/ttir-text.md), for the printer and the parser.
 *
 * The IR is the same for every release; only these spellings change:
 *   - a tensor descriptor type: !tt.tensordesc<tensor<64x64xf16>> until 3.7,
 *     !tt.tensordesc<64x64xf16> from 3.8 (ct_type_str_for, parse_type.c);
 *   - the cache hints of tt.load, tt.store, tt.descriptor_load: the oilist
 *     `cacheModifier = cg evictionPolicy = evict_last` until 3.8, one
 *     attribute from 3.9, {cachePolicy = #tt.cache_policy<cache_modifier = cg,
 *     eviction_policy = evict_last>} (the op keeps its cache and evict
 *     attributes either way);
 *   - the ops some releases lack (ct_triton_has_op: tt.make_tensor_ptr and
 *     tt.advance until 3.7, ttg.barrier from 3.7).
 * The printer writes the module's release's; the parser reads them all and
 * narrows the releases the text can belong to, refusing a text that mixes two.
 */
#include "ctriton/triton_version.h"
#include "format_internal.h"
#include "parse_internal.h"
#include "print_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* ---- the cache policy ------------------------------------------------------------- */

static bool has_hints(ct_opcode code)
{
    return code == CT_OP_TT_LOAD || code == CT_OP_TT_STORE || code == CT_OP_TT_DESCRIPTOR_LOAD;
}

bool rel_hint_attr(const char *name)
{
    return !strcmp(name, "cache") || !strcmp(name, "evict");
}

bool rel_hints_as_attr(const printer *p, const ct_op *op)
{
    return p->tv->cache_policy_attr && has_hints(op->code);
}

void rel_put_cache_policy(printer *p, const ct_op *op, int *shown)
{
    if (!rel_hints_as_attr(p, op))
        return;
    const ct_attr *c = ct_op_attr(op, "cache"), *e = ct_op_attr(op, "evict");
    if (!c && !e)
        return;
    P(p, (*shown)++ ? ", " : " {");
    Pf(p, "cachePolicy = #tt.cache_policy<cache_modifier = %s, eviction_policy = %s>",
       c && c->kind == CT_ATTR_ENUM ? c->s : "none",
       e && e->kind == CT_ATTR_ENUM ? e->s : "evict_normal");
}

/* ---- which releases a text can be ------------------------------------------------- */

static void release_range(unsigned mask, char *buf, size_t cap)
{
    int lo = -1, hi = -1;
    for (int i = 0; i < ct_triton_count(); i++)
        if (mask & (1u << i)) {
            if (lo < 0)
                lo = i;
            hi = i;
        }
    if (lo < 0)
        snprintf(buf, cap, "no release");
    else if (lo == hi)
        snprintf(buf, cap, "Triton %s", ct_triton_at(lo)->name);
    else
        snprintf(buf, cap, "Triton %s to %s", ct_triton_at(lo)->name, ct_triton_at(hi)->name);
}

void rel_init(parser *P)
{
    P->releases = (1u << ct_triton_count()) - 1;
    P->why[0] = 0;
}

static void narrow(parser *P, const char *at, const char *what, unsigned mask)
{
    if ((P->releases & mask) == P->releases)
        return;
    int line, col;
    where(P, at, &line, &col);
    char mine[64], before[64];
    release_range(mask, mine, sizeof mine);
    if (!(P->releases & mask)) {
        release_range(P->releases, before, sizeof before);
        fail_at(P, at, "%s is %s's spelling, but %s is %s's: the text mixes two Triton releases",
                what, mine, P->why, before);
    }
    P->releases &= mask;
    snprintf(P->why, sizeof P->why, "%s (line %d)", what, line);
}

void rel_note(parser *P, const char *at, rel_spelling s)
{
    static const char *const what[] = {
        [REL_DESC_WRAPPED] = "!tt.tensordesc<tensor<...>>",
        [REL_DESC_BARE] = "!tt.tensordesc<SHAPExTYPE>",
        [REL_HINT_KEYWORDS] = "cacheModifier/evictionPolicy = ...",
        [REL_HINT_ATTR] = "{cachePolicy = #tt.cache_policy<...>}",
    };
    unsigned mask = 0;
    for (int i = 0; i < ct_triton_count(); i++) {
        const ct_triton *t = ct_triton_at(i);
        bool in = s == REL_DESC_WRAPPED    ? !t->tensordesc_bare
                  : s == REL_DESC_BARE     ? t->tensordesc_bare
                  : s == REL_HINT_KEYWORDS ? !t->cache_policy_attr
                                           : t->cache_policy_attr;
        if (in)
            mask |= 1u << i;
    }
    narrow(P, at, what[s], mask);
}

/* Python's 3.9 cachePolicy attribute, read into the op's cache and evict
 * attributes (defaults dropped, as the keywords' are): struct(params), the two
 * parameters in either order, both required. */
static void read_cache_policy(parser *P, ct_op *op, const char *at)
{
    const ct_attr *a = ct_op_attr(op, "cachePolicy");
    if (!a)
        return;
    if (!has_hints(op->code))
        fail_at(P, at, "'%s' has no cachePolicy", ct_op_info_of(op->code)->name);
    rel_note(P, at, REL_HINT_ATTR);
    const char *pre = "#tt.cache_policy<";
    if (a->kind != CT_ATTR_OPAQUE || strncmp(a->s, pre, strlen(pre)))
        fail_at(P, at, "cachePolicy must be a #tt.cache_policy<cache_modifier = ..., "
                       "eviction_policy = ...>");
    if (ct_op_attr(op, "cache") || ct_op_attr(op, "evict"))
        fail_at(P, at, "cachePolicy and cacheModifier/evictionPolicy given together");
    static const struct {
        const char *param, *attr, *dflt;
    } params[] = {{"cache_modifier", "cache", "none"}, {"eviction_policy", "evict", "evict_normal"}};
    const char *c = a->s + strlen(pre);
    bool seen[2] = {false, false};
    for (int k = 0; k < 2; k++) {
        while (*c == ' ')
            c++;
        int which = -1;
        for (int i = 0; i < 2; i++)
            if (!strncmp(c, params[i].param, strlen(params[i].param)))
                which = i;
        if (which < 0 || seen[which])
            fail_at(P, at, "#tt.cache_policy needs cache_modifier and eviction_policy, once each");
        seen[which] = true;
        c += strlen(params[which].param);
        while (*c == ' ')
            c++;
        if (*c++ != '=')
            fail_at(P, at, "expected '=' in #tt.cache_policy");
        while (*c == ' ')
            c++;
        size_t n = 0;
        while (c[n] && (isalnum((unsigned char)c[n]) || c[n] == '_'))
            n++;
        char w[32];
        snprintf(w, sizeof w, "%.*s", (int)(n < sizeof w ? n : sizeof w - 1), c);
        const ct_attr_spec *sp = ct_attr_spec_of(op->code, params[which].attr);
        if (n >= sizeof w || !sp || sp->enum_id < 0 ||
            !ct_enum_value((ct_enum_id)sp->enum_id, c, n, NULL))
            fail_at(P, at, "'%.*s' is not a valid %s of '%s'", (int)n, c, params[which].param,
                    ct_op_info_of(op->code)->name);
        if (strcmp(w, params[which].dflt))
            ct_op_set_attr(P->m, op, params[which].attr, ct_attr_enum(P->m, w));
        c += n;
        while (*c == ' ')
            c++;
        if (*c != (k ? '>' : ','))
            fail_at(P, at, "malformed #tt.cache_policy<...>");
        c++;
    }
    if (*c)
        fail_at(P, at, "malformed #tt.cache_policy<...>");
    ct_op_remove_attr(op, "cachePolicy");
}

void rel_op(parser *P, ct_op *op, const char *at)
{
    unsigned mask = 0;
    for (int i = 0; i < ct_triton_count(); i++)
        if (ct_triton_has_op(ct_triton_at(i), op->code))
            mask |= 1u << i;
    narrow(P, at, ct_op_info_of(op->code)->name, mask);
    read_cache_policy(P, op, at);
}

void rel_finish(parser *P)
{
    ct_module *m = P->m;
    for (int i = 0; i < ct_triton_count(); i++)
        if (P->releases & (1u << i)) {
            if (!m->text_lo)
                m->text_lo = ct_triton_at(i);
            m->text_hi = ct_triton_at(i);
        }
    /* the default target when the text can be its, else the oldest it can be */
    const ct_triton *d = ct_triton_resolve(NULL, NULL);
    m->triton = d && ct_triton_cmp(d, m->text_lo) >= 0 && ct_triton_cmp(d, m->text_hi) <= 0
                    ? d
                    : m->text_lo;
    if (P->why[0])
        m->text_why = ct_arena_strdup(m->arena, P->why);
}
