/*
 * optable.c - the op table (ops.def) and what is read from it: each op's
 * signature (its value segments with their type rules, its regions and
 * successors, the counts they allow), the enum attributes and the
 * attributes ops name.
 *
 * The rows hold the segment lists as text (`"ptr mask?:i1(pointee($ptr))"`,
 * as ODS writes them); they are read once, on first use, into ct_op_sig
 * records.  A malformed row is a defect of ops.def: test_optable reads every
 * row and fails on it (here such a row gets an empty signature, which the
 * verifier then refuses every op of).
 */
#include "ctriton/ir.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define PURE CT_OPF_PURE
#define COMM CT_OPF_COMM
#define TERM CT_OPF_TERM
#define ELEM CT_OPF_ELEM
#define MOVE CT_OPF_MOVE
#define SAME CT_OPF_SAME
#define INT CT_OPF_INT
#define FLOAT CT_OPF_FLOAT
#define READ CT_OPF_READ
#define WRITE CT_OPF_WRITE
#define PROGRAM CT_OPF_PROGRAM
#define TRAPS CT_OPF_TRAPS
#define ASSOC CT_OPF_ASSOC

const ct_op_info ct_op_table[CT_OP__COUNT] = {
#define CT_OP(E, NAME, OPERANDS, RESULTS, REGIONS, TRAITS, FORMAT)                                \
    [CT_OP_##E] = {NAME, (TRAITS), sizeof(NAME) - 1, OPERANDS, RESULTS, REGIONS, FORMAT},
#include "ctriton/ops.def"
};

int ct_opcode_from_name(const char *name, size_t len)
{
    for (int i = 0; i < CT_OP__COUNT; i++) {
        const ct_op_info *o = &ct_op_table[i];
        if (o->name_len == len && memcmp(o->name, name, len) == 0)
            return i;
    }
    return -1;
}

/* ---- enums ----------------------------------------------------------------- */

typedef struct enum_row {
    int bits;
    int first, n; /* its cases in `cases` */
} enum_row;

static const struct {
    int e;
    ct_enum_case c;
} case_rows[] = {
#define CT_CASE(E, WORD, VALUE) {CT_EN_##E, {WORD, VALUE}},
#include "ctriton/ops.def"
};
#define NCASES ((int)(sizeof case_rows / sizeof case_rows[0]))

static const int enum_bits[CT_EN__COUNT] = {
#define CT_ENUM(E, BITS) [CT_EN_##E] = BITS,
#include "ctriton/ops.def"
};

/* the cases grouped by enum (ops.def lists them so; read once) */
static ct_enum_case cases[NCASES];
static enum_row enums[CT_EN__COUNT];

/* ---- attribute specs --------------------------------------------------------- */

#define REQ CT_AF_REQ
#define OPT 0
#define OPT_DROP CT_AF_DROP
#define OPT_KEEP CT_AF_KEEP

static const ct_attr_spec attr_rows[] = {
#define CT_ATTR(OP, NAME, KIND, DEFAULT, FLAGS)                                                    \
    {CT_OP_##OP, NAME, CT_AK_##KIND, -1, DEFAULT, FLAGS},
#include "ctriton/ops.def"
};
#define NATTRS ((int)(sizeof attr_rows / sizeof attr_rows[0]))

static ct_attr_spec attrs[NATTRS];
static const ct_attr_spec *attr_index[NATTRS];
static int attr_first[CT_OP__COUNT], attr_n[CT_OP__COUNT];

/* ---- signatures ---------------------------------------------------------------- */

/* Everything read from the rows lives here: rules and names. */
#define MAX_RULES 512
static ct_type_rule rules[MAX_RULES];
static int nrules;
static char names[8192];
static size_t nnames;
static ct_op_sig sigs[CT_OP__COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const char *keep_name(const char *s, size_t n)
{
    if (nnames + n + 1 > sizeof names)
        return "";
    char *d = names + nnames;
    memcpy(d, s, n);
    d[n] = 0;
    nnames += n + 1;
    return d;
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

typedef struct reader {
    const char *p;
} reader;

static int find_seg(const ct_op_seg *s, int n, const char *name, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(s[i].name) == len && !memcmp(s[i].name, name, len))
            return i;
    return -1;
}

static const ct_type_rule *read_rule(reader *R, const ct_op_sig *sig);

static const ct_type_rule *rule_arg(reader *R, const ct_op_sig *sig)
{
    if (*R->p != '(')
        return NULL;
    R->p++;
    const ct_type_rule *a = read_rule(R, sig);
    if (!a || *R->p != ')')
        return NULL;
    R->p++;
    return a;
}

static const ct_type_rule *read_rule(reader *R, const ct_op_sig *sig)
{
    if (nrules == MAX_RULES)
        return NULL;
    ct_type_rule *r = &rules[nrules];
    memset(r, 0, sizeof *r);
    const char *s = R->p;
    if (*s == '$') {
        const char *n = ++R->p;
        while (is_name_char(*R->p))
            R->p++;
        size_t len = (size_t)(R->p - n);
        int i = find_seg(sig->opnd, sig->nopnd_segs, n, len);
        r->kind = CT_RULE_SEG;
        if (i < 0) {
            i = find_seg(sig->res, sig->nres_segs, n, len);
            r->result = true;
        }
        if (i < 0)
            return NULL;
        r->seg = i;
        nrules++;
        return r;
    }
    const char *w = R->p;
    while (is_name_char(*R->p))
        R->p++;
    size_t wl = (size_t)(R->p - w);
#define WORD(x) (wl == sizeof(x) - 1 && !memcmp(w, x, wl))
    if (WORD("i1") || WORD("i32") || WORD("i64")) {
        if (WORD("i1") && *R->p == '(') {
            r->kind = CT_RULE_I1_LIKE;
        } else {
            r->kind = WORD("i1") ? CT_RULE_I1 : WORD("i32") ? CT_RULE_I32 : CT_RULE_I64;
            nrules++;
            return r;
        }
    } else if (WORD("pointee")) {
        r->kind = CT_RULE_POINTEE;
    } else if (WORD("elem")) {
        r->kind = CT_RULE_ELEM;
    } else if (WORD("base")) {
        r->kind = CT_RULE_BASE;
    } else if (WORD("typeof")) {
        r->kind = CT_RULE_ATTR;
        if (R->p[0] != '(' || R->p[1] != '$')
            return NULL;
        const char *n = R->p += 2;
        while (is_name_char(*R->p))
            R->p++;
        r->attr = keep_name(n, (size_t)(R->p - n));
        if (*R->p != ')')
            return NULL;
        R->p++;
        nrules++;
        return r;
    } else {
        return NULL;
    }
#undef WORD
    nrules++;
    r->arg = rule_arg(R, sig);
    return r->arg ? r : NULL;
}

/* Reads a segment list ("a b?:i1($a) c*"): the names and kinds, or (with_rules,
 * once every name of the row is known) the rules; false on a malformed row. */
static bool read_segs(const char *text, ct_op_sig *sig, bool result, bool with_rules)
{
    reader R = {text};
    ct_op_seg *segs = result ? sig->res : sig->opnd;
    int k = 0;
    for (;;) {
        while (*R.p == ' ')
            R.p++;
        if (!*R.p)
            break;
        if (k == CT_OP_MAX_SEGS)
            return false;
        const char *s = R.p;
        while (is_name_char(*R.p))
            R.p++;
        if (R.p == s)
            return false;
        ct_op_seg *g = &segs[k++];
        if (!with_rules) {
            g->name = keep_name(s, (size_t)(R.p - s));
            g->kind = CT_SEG_ONE;
        }
        if (*R.p == '?' || *R.p == '*') {
            if (!with_rules)
                g->kind = *R.p == '?' ? CT_SEG_OPT : CT_SEG_VAR;
            R.p++;
        }
        if (*R.p == ':') {
            R.p++;
            if (with_rules) {
                if (!(g->rule = read_rule(&R, sig)))
                    return false;
            } else {
                while (*R.p && *R.p != ' ')
                    R.p++;
            }
        }
        if (*R.p && *R.p != ' ')
            return false;
    }
    if (result)
        sig->nres_segs = k;
    else
        sig->nopnd_segs = k;
    return true;
}

static bool read_regions(const char *text, ct_op_sig *sig)
{
    const char *p = text;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            return true;
        if (*p == '^') {
            p++;
            while (is_name_char(*p))
                p++;
            sig->nsucc++;
            continue;
        }
        if (sig->nregions == CT_OP_MAX_REGIONS)
            return false;
        ct_op_region_sig *r = &sig->region[sig->nregions++];
        const char *s = p;
        while (is_name_char(*p))
            p++;
        r->name = keep_name(s, (size_t)(p - s));
        for (; *p == '?' || *p == '+'; p++) {
            if (*p == '?')
                r->may_be_empty = true;
            else
                r->many_blocks = true;
        }
        if (*p++ != ':')
            return false;
        s = p;
        while (*p && *p != ' ')
            p++;
        r->term = ct_opcode_from_name(s, (size_t)(p - s));
        if (r->term < 0 || !(ct_op_table[r->term].flags & CT_OPF_TERM))
            return false;
    }
}

/* the counts a segment list allows: [*lo, *hi], *hi -1 when unbounded */
static void counts(const ct_op_seg *s, int n, int *lo, int *hi)
{
    bool var = false;
    *lo = *hi = 0;
    for (int i = 0; i < n; i++) {
        *lo += s[i].kind == CT_SEG_ONE;
        *hi += s[i].kind != CT_SEG_VAR;
        var |= s[i].kind == CT_SEG_VAR;
    }
    if (var)
        *hi = -1;
}

static void init(void)
{
    /* enums: the cases of each, in the order ops.def lists them */
    int k = 0;
    for (int e = 0; e < CT_EN__COUNT; e++) {
        enums[e].bits = enum_bits[e];
        enums[e].first = k;
        for (int i = 0; i < NCASES; i++)
            if (case_rows[i].e == e)
                cases[k++] = case_rows[i].c;
        enums[e].n = k - enums[e].first;
    }
    /* attribute specs, indexed by op */
    for (int i = 0; i < NATTRS; i++) {
        attrs[i] = attr_rows[i];
        int kind = (int)attrs[i].kind;
        attrs[i].enum_id = kind >= CT_AK_VALUE + 1 ? kind - (CT_AK_VALUE + 1) : -1;
    }
    k = 0;
    for (int op = 0; op < CT_OP__COUNT; op++) {
        attr_first[op] = k;
        for (int i = 0; i < NATTRS; i++)
            if ((int)attrs[i].op == op)
                attr_index[k++] = &attrs[i];
        attr_n[op] = k - attr_first[op];
    }
    /* signatures */
    for (int op = 0; op < CT_OP__COUNT; op++) {
        const ct_op_info *o = &ct_op_table[op];
        ct_op_sig *s = &sigs[op];
        ct_op_sig tmp;
        memset(&tmp, 0, sizeof tmp);
        /* the names first, so that a rule may name any segment of the row */
        bool ok = read_segs(o->operands, &tmp, false, false) &&
                  read_segs(o->results, &tmp, true, false) &&
                  read_segs(o->operands, &tmp, false, true) &&
                  read_segs(o->results, &tmp, true, true) && read_regions(o->regions, &tmp);
        if (!ok) {
            memset(s, 0, sizeof *s);
            s->max_opnds = s->max_res = -2; /* nothing fits */
            continue;
        }
        *s = tmp;
        counts(s->opnd, s->nopnd_segs, &s->min_opnds, &s->max_opnds);
        counts(s->res, s->nres_segs, &s->min_res, &s->max_res);
    }
}

const ct_op_sig *ct_op_sig_of(ct_opcode code)
{
    pthread_once(&once, init);
    return &sigs[code];
}

int ct_op_seg_index(ct_opcode code, bool result, const char *name)
{
    const ct_op_sig *s = ct_op_sig_of(code);
    return find_seg(result ? s->res : s->opnd, result ? s->nres_segs : s->nopnd_segs, name,
                    strlen(name));
}

/* The sizes of the segments for `total` values: singles 1, optionals filled
 * left to right, variadic ones sharing the rest equally. */
static bool seg_sizes(const ct_op_seg *segs, int n, int total, int *size)
{
    int ones = 0, opts = 0, vars = 0;
    for (int i = 0; i < n; i++) {
        ones += segs[i].kind == CT_SEG_ONE;
        opts += segs[i].kind == CT_SEG_OPT;
        vars += segs[i].kind == CT_SEG_VAR;
    }
    int rest = total - ones;
    if (rest < 0 || (!vars && rest > opts) || (vars && opts) || (vars && rest % vars))
        return false;
    for (int i = 0; i < n; i++) {
        if (segs[i].kind == CT_SEG_ONE)
            size[i] = 1;
        else if (segs[i].kind == CT_SEG_OPT)
            size[i] = rest > 0 ? (rest--, 1) : 0;
        else
            size[i] = rest / vars;
    }
    return true;
}

/* operands that are not successor operands */
static int own_operands(const ct_op *op)
{
    int n = op->nopnds;
    for (int i = 0; i < op->nsucc && op->succ_nopnds; i++)
        n -= op->succ_nopnds[i];
    return n;
}

bool ct_op_segment(const ct_op *op, bool result, int seg, int *start, int *count)
{
    const ct_op_sig *s = ct_op_sig_of(op->code);
    int nseg = result ? s->nres_segs : s->nopnd_segs;
    int size[CT_OP_MAX_SEGS];
    *start = 0;
    *count = 0;
    if (seg < 0 || seg >= nseg ||
        !seg_sizes(result ? s->res : s->opnd, nseg, result ? op->nres : own_operands(op), size))
        return false;
    for (int i = 0; i < seg; i++)
        *start += size[i];
    *count = size[seg];
    return true;
}

ct_value *ct_op_get(const ct_op *op, const char *name)
{
    int st, n;
    if (!ct_op_segment(op, false, ct_op_seg_index(op->code, false, name), &st, &n) || !n)
        return NULL;
    return op->opnds[st];
}

ct_value *ct_op_get_at(const ct_op *op, const char *name, int i)
{
    int st, n;
    if (i < 0 || !ct_op_segment(op, false, ct_op_seg_index(op->code, false, name), &st, &n) ||
        i >= n)
        return NULL;
    return op->opnds[st + i];
}

int ct_op_count(const ct_op *op, const char *name)
{
    int st, n;
    return ct_op_segment(op, false, ct_op_seg_index(op->code, false, name), &st, &n) ? n : 0;
}

static void say(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t cap, const char *fmt, ...)
{
    if (!why || !cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
}

static void count_text(char *buf, size_t cap, int lo, int hi, const char *what)
{
    if (hi == lo)
        snprintf(buf, cap, "%d %s%s", lo, what, lo == 1 ? "" : "s");
    else if (hi < 0)
        snprintf(buf, cap, "at least %d %s%s", lo, what, lo == 1 ? "" : "s");
    else
        snprintf(buf, cap, "%d to %d %ss", lo, hi, what);
}

bool ct_op_arity_ok(const ct_op *op, char *why, size_t cap)
{
    const ct_op_sig *s = ct_op_sig_of(op->code);
    char want[64];
    if (s->max_opnds < -1) {
        say(why, cap, "its row in ops.def does not read");
        return false;
    }
    if (op->nsucc != s->nsucc) {
        count_text(want, sizeof want, s->nsucc, s->nsucc, "successor");
        say(why, cap, "expects %s, has %d", want, op->nsucc);
        return false;
    }
    int n = own_operands(op), size[CT_OP_MAX_SEGS];
    if (n < 0 || !seg_sizes(s->opnd, s->nopnd_segs, n, size)) {
        count_text(want, sizeof want, s->min_opnds, s->max_opnds, "operand");
        int nvar = 0;
        for (int i = 0; i < s->nopnd_segs; i++)
            nvar += s->opnd[i].kind == CT_SEG_VAR;
        say(why, cap, "expects %s%s, has %d", want,
            nvar > 1 ? " (its lists of one length)" : "", n);
        return false;
    }
    if (!seg_sizes(s->res, s->nres_segs, op->nres, size)) {
        count_text(want, sizeof want, s->min_res, s->max_res, "result");
        say(why, cap, "expects %s, has %d", want, op->nres);
        return false;
    }
    if (op->nregions != s->nregions) {
        count_text(want, sizeof want, s->nregions, s->nregions, "region");
        say(why, cap, "expects %s, has %d", want, op->nregions);
        return false;
    }
    for (int i = 0; i < op->nopnds; i++)
        if (!op->opnds[i]) {
            say(why, cap, "operand %d is not set", i);
            return false;
        }
    return true;
}

/* ---- type rules ---------------------------------------------------------------- */

static const ct_type *op_seg_type(void *ud, bool result, int seg)
{
    const ct_op *op = ud;
    int st, n;
    if (!ct_op_segment(op, result, seg, &st, &n) || !n)
        return NULL;
    return result ? op->res[st].type : (op->opnds[st] ? op->opnds[st]->type : NULL);
}

static const ct_attr *op_attr(void *ud, const char *name)
{
    return ct_op_attr(ud, name);
}

static const ct_type *eval(const ct_type_rule *r, const ct_rule_env *env, ct_type *sc, int *nsc,
                           int cap)
{
    const ct_type *a = NULL;
    if (r->arg && !(a = eval(r->arg, env, sc, nsc, cap)))
        return NULL;
    if (*nsc + 2 > cap)
        return NULL;
    ct_type *t = &sc[*nsc];
    switch (r->kind) {
    case CT_RULE_SEG:
        return env->seg(env->ud, r->result, r->seg);
    case CT_RULE_I1:
    case CT_RULE_I32:
    case CT_RULE_I64:
        memset(t, 0, sizeof *t);
        t->kind = CT_TY_INT;
        t->bits = r->kind == CT_RULE_I1 ? 1 : r->kind == CT_RULE_I32 ? 32 : 64;
        ++*nsc;
        return t;
    case CT_RULE_I1_LIKE: {
        memset(t, 0, 2 * sizeof *t);
        t[0].kind = CT_TY_INT;
        t[0].bits = 1;
        *nsc += 1;
        if (a->kind != CT_TY_TENSOR)
            return &t[0];
        t[1] = *a;
        t[1].elem = &t[0];
        *nsc += 1;
        return &t[1];
    }
    case CT_RULE_POINTEE: {
        const ct_type *e = ct_type_scalar(a);
        if (!e || e->kind != CT_TY_PTR || !e->elem)
            return NULL;
        if (a->kind != CT_TY_TENSOR)
            return e->elem; /* a pointer, or a block pointer: its pointee as it is */
        *t = *a;
        t->elem = e->elem;
        ++*nsc;
        return t;
    }
    case CT_RULE_ELEM:
        return a->kind == CT_TY_TENSOR ? a->elem : NULL;
    case CT_RULE_BASE:
        if (a->kind != CT_TY_PTR || !a->elem || a->elem->kind != CT_TY_TENSOR)
            return NULL;
        memset(t, 0, sizeof *t);
        t->kind = CT_TY_PTR;
        t->elem = a->elem->elem;
        t->addrspace = a->addrspace;
        ++*nsc;
        return t;
    case CT_RULE_ATTR: {
        const ct_attr *v = env->attr(env->ud, r->attr);
        if (!v)
            return NULL;
        if (v->kind == CT_ATTR_BOOL) {
            memset(t, 0, sizeof *t);
            t->kind = CT_TY_INT;
            t->bits = 1;
            ++*nsc;
            return t;
        }
        return v->kind == CT_ATTR_INT || v->kind == CT_ATTR_FLOAT || v->kind == CT_ATTR_DENSE
                   ? v->type
                   : NULL;
    }
    }
    return NULL;
}

const ct_type *ct_rule_eval(const ct_type_rule *r, const ct_rule_env *env, ct_type *scratch,
                            int nscratch)
{
    int n = 0;
    return r ? eval(r, env, scratch, &n, nscratch) : NULL;
}

const ct_type *ct_rule_type(const ct_type_rule *r, const ct_op *op, ct_type *scratch, int nscratch)
{
    ct_rule_env env = {op_seg_type, op_attr, (void *)op};
    return ct_rule_eval(r, &env, scratch, nscratch);
}

/* ---- enums and attributes: lookups ------------------------------------------- */

const ct_enum_case *ct_enum_cases(ct_enum_id e, int *n, int *bits)
{
    pthread_once(&once, init);
    if ((int)e < 0 || e >= CT_EN__COUNT) {
        if (n)
            *n = 0;
        return NULL;
    }
    if (n)
        *n = enums[e].n;
    if (bits)
        *bits = enums[e].bits;
    return &cases[enums[e].first];
}

bool ct_enum_value(ct_enum_id e, const char *word, size_t len, int64_t *value)
{
    int n;
    const ct_enum_case *c = ct_enum_cases(e, &n, NULL);
    for (int i = 0; i < n; i++) {
        if (strlen(c[i].word) == len && !memcmp(c[i].word, word, len)) {
            if (value)
                *value = c[i].value;
            return true;
        }
    }
    return false;
}

const char *ct_enum_word(ct_enum_id e, int64_t value)
{
    int n;
    const ct_enum_case *c = ct_enum_cases(e, &n, NULL);
    for (int i = 0; i < n; i++)
        if (c[i].value == value)
            return c[i].word;
    return NULL;
}

const ct_attr_spec *const *ct_attr_specs_of(ct_opcode op, int *n)
{
    pthread_once(&once, init);
    *n = attr_n[op];
    return &attr_index[attr_first[op]];
}

const ct_attr_spec *ct_attr_spec_of(ct_opcode op, const char *name)
{
    int n;
    const ct_attr_spec *const *s = ct_attr_specs_of(op, &n);
    for (int i = 0; i < n; i++)
        if (ct_streq(s[i]->name, name))
            return s[i];
    return NULL;
}

bool ct_attr_is_default(const ct_attr_spec *s, const ct_attr *a)
{
    if (!s || !a || (!*s->dflt && s->kind != CT_AK_ARRAY_I32))
        return false;
    switch (a->kind) {
    case CT_ATTR_ENUM:
    case CT_ATTR_STR:
        return !strcmp(a->s, s->dflt);
    case CT_ATTR_BOOL:
        return !strcmp(s->dflt, a->i ? "true" : "false");
    case CT_ATTR_INT:
        return a->i == strtoll(s->dflt, NULL, 10);
    case CT_ATTR_DENSE_ARRAY:
        return s->kind == CT_AK_ARRAY_I32 && !*s->dflt && a->n == 0;
    default:
        return false;
    }
}

int64_t ct_op_enum(const ct_op *op, const char *name, int64_t dflt)
{
    const ct_attr *a = ct_op_attr(op, name);
    if (!a)
        return dflt;
    const ct_attr_spec *s = ct_attr_spec_of(op->code, name);
    if (!s || s->enum_id < 0)
        return -1;
    if (a->kind == CT_ATTR_INT) /* an enum the op's form does not spell: its integer */
        return ct_enum_word((ct_enum_id)s->enum_id, a->i) ? a->i : -1;
    int64_t v;
    return a->kind == CT_ATTR_ENUM && ct_enum_value((ct_enum_id)s->enum_id, a->s, strlen(a->s), &v)
               ? v
               : -1;
}
