/*
 * ptx.c - parses the inline PTX of tt.elementwise_inline_asm into the interpreter's
 * instructions (ptx.h).  The grammar is the part of PTX's statements that elementwise asm
 * uses: `{ }` scopes, `.reg .TYPE name, name<N>;` declarations, `@p` / `@!p` guards,
 * `opcode.mod.mod d, a, ...;` with register names, `$n`, immediates (decimal, hex 0x, octal
 * 0.., binary 0b, a U suffix; 0fXXXXXXXX and 0dXXXXXXXXXXXXXXXX float bit patterns, decimal
 * floats), vector operands `{a, b, _, d}`, `!p`, and `p|q` destinations of setp; `//` and
 * block comments.  Labels, branches, memory and everything else are refused with a message
 * naming the instruction.
 */
#include "ptx.h"
#include "util/alloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PX_MAX_REGS = 4096, PX_MAX_INS = 1 << 16, PX_MAX_NAME = 64 };

typedef struct sym {
    char name[PX_MAX_NAME];
    int reg;
    int depth;
} sym;

typedef struct pctx {
    const char *s, *p;
    char *err;
    size_t errn;
    bool failed;
    emu_ptx_prog *P;
    int cregs, cins, cvec;
    sym *syms;
    int nsyms, csyms;
    int depth;
    char stmt[96];           /* the instruction being parsed, for messages */
} pctx;

static bool fail(pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(pctx *c, const char *fmt, ...)
{
    if (c->failed)
        return false;
    c->failed = true;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->stmt[0])
        snprintf(c->err, c->errn, "inline PTX `%s`: %s", c->stmt, msg);
    else
        snprintf(c->err, c->errn, "inline PTX: %s", msg);
    return false;
}

/* the library's heap (util/alloc.h): inside ct_emu_compile a failed allocation unwinds the
 * compile, releasing what the parser holds */
static void *grow(pctx *c, void *arr, int *cap, int n, size_t es)
{
    (void)c;
    if (n < *cap)
        return arr;
    int nc = *cap ? *cap * 2 : 16;
    void *np = ct_xrealloc(arr, (size_t)nc * es);
    *cap = nc;
    return np;
}

/* ---- lexing -------------------------------------------------------------------- */

static void skip_ws(pctx *c)
{
    for (;;) {
        while (*c->p && isspace((unsigned char)*c->p))
            c->p++;
        if (c->p[0] == '/' && c->p[1] == '/') {
            while (*c->p && *c->p != '\n')
                c->p++;
            continue;
        }
        if (c->p[0] == '/' && c->p[1] == '*') {
            const char *e = strstr(c->p + 2, "*/");
            if (!e) {
                fail(c, "unterminated /* comment");
                c->p += strlen(c->p);
                return;
            }
            c->p = e + 2;
            continue;
        }
        return;
    }
}

static bool is_id_start(char ch)
{
    return isalpha((unsigned char)ch) || ch == '_' || ch == '%' || ch == '$';
}
static bool is_id_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_' || ch == '%' || ch == '$';
}

/* an identifier (dots included when `dots`) into buf; false if none */
static bool lex_word(pctx *c, char *buf, size_t n, bool dots)
{
    skip_ws(c);
    const char *b = c->p;
    if (!(is_id_start(*c->p) || (dots && *c->p == '.')))
        return false;
    while (is_id_char(*c->p) || (dots && *c->p == '.'))
        c->p++;
    size_t len = (size_t)(c->p - b);
    if (len >= n) {
        fail(c, "name too long: %.20s...", b);
        return false;
    }
    memcpy(buf, b, len);
    buf[len] = 0;
    return true;
}

static bool expect(pctx *c, char ch)
{
    skip_ws(c);
    if (*c->p != ch) {
        if (*c->p)
            return fail(c, "expected `%c`, found `%.12s`", ch, c->p);
        return fail(c, "expected `%c` at the end of the asm", ch);
    }
    c->p++;
    return true;
}

/* ---- registers -------------------------------------------------------------------- */

static int new_reg(pctx *c, int width)
{
    emu_ptx_prog *P = c->P;
    if (P->nregs >= PX_MAX_REGS) {
        fail(c, "more than %d registers", PX_MAX_REGS);
        return -1;
    }
    uint8_t *w = grow(c, P->width, &c->cregs, P->nregs, 1);
    if (!w)
        return -1;
    P->width = w;
    P->width[P->nregs] = (uint8_t)width;
    return P->nregs++;
}

static int lookup(pctx *c, const char *name)
{
    for (int i = c->nsyms - 1; i >= 0; i--)
        if (!strcmp(c->syms[i].name, name))
            return c->syms[i].reg;
    return -1;
}

static bool declare(pctx *c, const char *name, int width)
{
    for (int i = c->nsyms - 1; i >= 0 && c->syms[i].depth == c->depth; i--)
        if (!strcmp(c->syms[i].name, name))
            return fail(c, "register `%s` declared twice in one scope", name);
    int r = new_reg(c, width);
    if (r < 0)
        return false;
    sym *s = grow(c, c->syms, &c->csyms, c->nsyms, sizeof *s);
    if (!s)
        return false;
    c->syms = s;
    snprintf(s[c->nsyms].name, PX_MAX_NAME, "%s", name);
    s[c->nsyms].reg = r;
    s[c->nsyms].depth = c->depth;
    c->nsyms++;
    return true;
}

/* ---- types and modifiers ------------------------------------------------------------ */

/* a type word: class and bits; false if it is none */
static bool type_word(const char *w, uint8_t *cls, uint8_t *bits)
{
    static const struct {
        const char *w;
        uint8_t cls, bits;
    } t[] = {
        {"b8", PXT_B, 8},        {"b16", PXT_B, 16},         {"b32", PXT_B, 32},
        {"b64", PXT_B, 64},      {"u8", PXT_U, 8},           {"u16", PXT_U, 16},
        {"u32", PXT_U, 32},      {"u64", PXT_U, 64},         {"s8", PXT_S, 8},
        {"s16", PXT_S, 16},      {"s32", PXT_S, 32},         {"s64", PXT_S, 64},
        {"f16", PXT_F, 16},      {"f32", PXT_F, 32},         {"f64", PXT_F, 64},
        {"bf16", PXT_BF, 16},    {"f16x2", PXT_F16X2, 32},   {"bf16x2", PXT_BF16X2, 32},
        {"pred", PXT_PRED, 1},   {"e4m3x2", PXT_E4M3X2, 16}, {"e5m2x2", PXT_E5M2X2, 16},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(w, t[i].w)) {
            *cls = t[i].cls;
            *bits = t[i].bits;
            return true;
        }
    return false;
}

static const struct {
    const char *name;
    px_opc op;
} opnames[] = {
    {"mov", PX_MOV},     {"add", PX_ADD},     {"sub", PX_SUB},   {"mul", PX_MUL},
    {"mad", PX_MAD},     {"fma", PX_FMA},     {"div", PX_DIV},   {"rem", PX_REM},
    {"min", PX_MIN},     {"max", PX_MAX},     {"abs", PX_ABS},   {"neg", PX_NEG},
    {"and", PX_AND},     {"or", PX_OR},       {"xor", PX_XOR},   {"not", PX_NOT},
    {"cnot", PX_CNOT},   {"shl", PX_SHL},     {"shr", PX_SHR},   {"shf", PX_SHF},
    {"prmt", PX_PRMT},   {"lop3", PX_LOP3},   {"bfe", PX_BFE},   {"bfi", PX_BFI},
    {"popc", PX_POPC},   {"clz", PX_CLZ},     {"brev", PX_BREV}, {"cvt", PX_CVT},
    {"setp", PX_SETP},   {"selp", PX_SELP},   {"ex2", PX_EX2},   {"lg2", PX_LG2},
    {"rcp", PX_RCP},     {"rsqrt", PX_RSQRT}, {"sqrt", PX_SQRT}, {"copysign", PX_COPYSIGN},
};

static const char *const cmpnames[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                       "lo",  "ls",  "hi",  "hs",  "equ", "neu",
                                       "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const prmtmodes[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
static const char *const rndnames[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};

/* ---- operands ----------------------------------------------------------------------- */

/* the type an operand is read as: its class and bits */
typedef struct otype {
    uint8_t cls, bits;
} otype;

static bool parse_uint(pctx *c, uint64_t *v, bool *is_float, double *fv, int *fbits)
{
    const char *b = c->p;
    *is_float = false;
    *fbits = 0;
    if ((b[0] == '0') && (b[1] == 'f' || b[1] == 'F' || b[1] == 'd' || b[1] == 'D')) {
        int nd = (b[1] == 'f' || b[1] == 'F') ? 8 : 16;
        uint64_t x = 0;
        for (int i = 0; i < nd; i++) {
            char ch = b[2 + i];
            if (!isxdigit((unsigned char)ch))
                return fail(c, "a float literal %.2s needs %d hex digits", b, nd);
            x = x << 4 | (uint64_t)(isdigit((unsigned char)ch) ? ch - '0' : (tolower(ch) - 'a' + 10));
        }
        if (isxdigit((unsigned char)b[2 + nd]))
            return fail(c, "a float literal %.2s needs %d hex digits", b, nd);
        c->p = b + 2 + nd;
        *v = x;
        *fbits = nd * 4;
        return true;
    }
    /* a decimal float: digits with a '.' or an exponent */
    const char *q = b;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q == '.' || ((*q == 'e' || *q == 'E') && !(b[0] == '0' && (b[1] == 'x' || b[1] == 'X')))) {
        char *e;
        errno = 0;
        double d = strtod(b, &e);
        if (e == b)
            return fail(c, "bad number `%.12s`", b);
        c->p = e;
        *is_float = true;
        *fv = d;
        return true;
    }
    int base = 10;
    const char *d = b;
    if (b[0] == '0' && (b[1] == 'x' || b[1] == 'X'))
        base = 16, d = b + 2;
    else if (b[0] == '0' && (b[1] == 'b' || b[1] == 'B'))
        base = 2, d = b + 2;
    else if (b[0] == '0' && isdigit((unsigned char)b[1]))
        base = 8, d = b + 1;
    uint64_t x = 0;
    int nd = 0;
    for (;; d++, nd++) {
        int dv;
        char ch = *d;
        if (isdigit((unsigned char)ch))
            dv = ch - '0';
        else if (isxdigit((unsigned char)ch) && base == 16)
            dv = tolower(ch) - 'a' + 10;
        else
            break;
        if (dv >= base)
            return fail(c, "bad digit in `%.12s`", b);
        if (x > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base)
            return fail(c, "integer literal `%.24s` does not fit 64 bits", b);
        x = x * (uint64_t)base + (uint64_t)dv;
    }
    if (nd == 0)
        return fail(c, "bad number `%.12s`", b);
    if (*d == 'U' || *d == 'u')
        d++;
    if (is_id_char(*d))
        return fail(c, "bad number `%.12s`", b);
    c->p = d;
    *v = x;
    return true;
}

static uint64_t mask_bits(int bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* an immediate's bits in the operand's type */
static bool parse_imm(pctx *c, otype t, px_opnd *o)
{
    bool neg = false;
    if (*c->p == '-' || *c->p == '+') {
        neg = *c->p == '-';
        c->p++;
    }
    uint64_t v = 0;
    bool isf = false;
    double fv = 0;
    int fbits;
    if (!parse_uint(c, &v, &isf, &fv, &fbits))
        return false;
    o->kind = PXO_IMM;
    bool tfloat = (t.cls == PXT_F && (t.bits == 32 || t.bits == 64));
    if (t.cls == PXT_PRED)
        return fail(c, "an immediate where a predicate is needed");
    if (!tfloat && (t.cls == PXT_F || t.cls == PXT_BF || t.cls == PXT_F16X2 || t.cls == PXT_BF16X2) &&
        (isf || fbits))
        return fail(c, "float immediates of %s operands are not supported",
                    t.cls == PXT_F ? "f16" : "16-bit float");
    if (!tfloat) {
        if (isf)
            return fail(c, "a float literal where an integer is needed");
        if (fbits) /* a float bit pattern used as bits */
            o->imm = v & mask_bits(t.bits);
        else
            o->imm = (neg ? (uint64_t)0 - v : v) & mask_bits(t.bits);
        return true;
    }
    /* a float operand: the literal's value in the type */
    double d;
    if (fbits == 32) {
        float f;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, 4);
        d = f;
    } else if (fbits == 64) {
        memcpy(&d, &v, 8);
    } else if (isf) {
        d = fv;
    } else {
        d = (double)v;
    }
    if (neg)
        d = -d;
    if (t.bits == 32) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        if (fbits == 32 && !neg)
            u = (uint32_t)v; /* NaN payloads kept */
        o->imm = u;
    } else {
        uint64_t u;
        memcpy(&u, &d, 8);
        if (fbits == 64 && !neg)
            u = v;
        o->imm = u;
    }
    return true;
}

static bool parse_reg_name(pctx *c, int *reg)
{
    char name[PX_MAX_NAME];
    skip_ws(c);
    if (*c->p == '$') {
        c->p++;
        if (!isdigit((unsigned char)*c->p))
            return fail(c, "`$` without an operand number");
        long n = 0;
        while (isdigit((unsigned char)*c->p)) {
            if (n <= 100000)
                n = n * 10 + (*c->p - '0');
            c->p++;
        }
        if (is_id_char(*c->p))
            return fail(c, "bad operand `$%ld%c`", n, *c->p);
        if (n >= c->P->nops)
            return fail(c, "operand $%ld out of range: the constraints give %d operands", n, c->P->nops);
        *reg = (int)n;
        return true;
    }
    if (!lex_word(c, name, sizeof name, false))
        return c->failed ? false : fail(c, "expected an operand, found `%.12s`", c->p);
    int r = lookup(c, name);
    if (r < 0)
        return fail(c, "undeclared register `%s`", name);
    *reg = r;
    return true;
}

/* one operand read as type t (dst: a destination) */
static bool parse_opnd(pctx *c, otype t, bool dst, px_opnd *o)
{
    memset(o, 0, sizeof *o);
    skip_ws(c);
    emu_ptx_prog *P = c->P;
    if (*c->p == '{') {
        c->p++;
        int first = P->nvec, n = 0;
        for (;;) {
            skip_ws(c);
            int r = -1;
            if (*c->p == '_' && !is_id_char(c->p[1])) {
                c->p++;
                if (!dst)
                    return fail(c, "`_` in a source vector");
            } else if (!parse_reg_name(c, &r)) {
                return false;
            }
            int32_t *v = grow(c, P->vec, &c->cvec, P->nvec, sizeof *v);
            if (!v)
                return false;
            P->vec = v;
            P->vec[P->nvec++] = r;
            if (++n > 8)
                return fail(c, "a vector of more than 8 registers");
            skip_ws(c);
            if (*c->p == ',') {
                c->p++;
                continue;
            }
            if (*c->p == '}') {
                c->p++;
                break;
            }
            return fail(c, "expected `,` or `}` in a vector operand, found `%.12s`", c->p);
        }
        o->kind = PXO_VEC;
        o->reg = first;
        o->nvec = (uint16_t)n;
        return true;
    }
    if (*c->p == '!') {
        c->p++;
        o->neg = true;
        if (t.cls != PXT_PRED)
            return fail(c, "`!` on an operand that is not a predicate");
        if (dst)
            return fail(c, "`!` on a destination");
    }
    if (*c->p == '-' || *c->p == '+' || isdigit((unsigned char)*c->p)) {
        if (dst)
            return fail(c, "an immediate as a destination");
        if (o->neg)
            return fail(c, "`!` on an immediate");
        return parse_imm(c, t, o);
    }
    int r;
    if (!parse_reg_name(c, &r))
        return false;
    o->kind = PXO_REG;
    o->reg = r;
    if (t.cls == PXT_PRED && P->width[r] != 1)
        return fail(c, "a predicate operand that is not a .pred register");
    if (t.cls != PXT_PRED && P->width[r] == 1)
        return fail(c, "a predicate register where a value is needed");
    return true;
}

/* ---- statements --------------------------------------------------------------------- */

static bool parse_decl(pctx *c)
{
    char tw[32];
    skip_ws(c);
    if (*c->p != '.' || !lex_word(c, tw, sizeof tw, true))
        return fail(c, "`.reg` without a type");
    uint8_t cls, bits;
    if (!type_word(tw + 1, &cls, &bits))
        return fail(c, "`.reg %s`: unknown register type", tw);
    for (;;) {
        char name[PX_MAX_NAME];
        if (!lex_word(c, name, sizeof name, false))
            return c->failed ? false : fail(c, "`.reg` without a name");
        if (name[0] == '$')
            return fail(c, "`.reg %s`: a register named like an operand", name);
        skip_ws(c);
        if (*c->p == '<') {
            c->p++;
            skip_ws(c);
            long n = 0;
            if (!isdigit((unsigned char)*c->p))
                return fail(c, "`.reg %s<`: expected a count", name);
            while (isdigit((unsigned char)*c->p)) {
                n = n * 10 + (*c->p++ - '0');
                if (n > PX_MAX_REGS)
                    return fail(c, "`.reg %s<...>`: more than %d registers", name, PX_MAX_REGS);
            }
            if (!expect(c, '>'))
                return false;
            for (long i = 0; i < n; i++) {
                char nm[PX_MAX_NAME + 32];
                snprintf(nm, sizeof nm, "%s%ld", name, i);
                if (strlen(nm) >= PX_MAX_NAME)
                    return fail(c, "name too long");
                if (!declare(c, nm, bits))
                    return false;
            }
        } else if (!declare(c, name, bits)) {
            return false;
        }
        skip_ws(c);
        if (*c->p == ',') {
            c->p++;
            continue;
        }
        return expect(c, ';');
    }
}

typedef struct mods {
    int ntypes;
    uint8_t cls[2], bits[2];
    int rnd;
    int cmp;                 /* -1 none */
    int bop;
    int mode;
    unsigned flags;
    bool sh_dir, sh_mode;    /* shf: .l/.r and .wrap/.clamp seen */
} mods;

/* the modifiers of the opcode word (after its first dot) */
static bool parse_mods(pctx *c, px_opc op, char *word, mods *m)
{
    memset(m, 0, sizeof *m);
    m->cmp = -1;
    char *save = NULL;
    for (char *w = strtok_r(word, ".", &save); w; w = strtok_r(NULL, ".", &save)) {
        uint8_t cls, bits;
        if (type_word(w, &cls, &bits)) {
            if (m->ntypes == 2)
                return fail(c, "too many types");
            m->cls[m->ntypes] = cls;
            m->bits[m->ntypes++] = bits;
            continue;
        }
        bool done = false;
        for (int i = 1; i < (int)(sizeof rndnames / sizeof rndnames[0]); i++)
            if (!strcmp(w, rndnames[i])) {
                if (m->rnd)
                    return fail(c, "two rounding modifiers");
                m->rnd = i;
                done = true;
            }
        if (done)
            continue;
        if (op == PX_SETP) {
            for (int i = 0; i < (int)(sizeof cmpnames / sizeof cmpnames[0]); i++)
                if (!strcmp(w, cmpnames[i])) {
                    if (m->cmp >= 0)
                        return fail(c, "two comparisons");
                    m->cmp = i;
                    done = true;
                }
            if (!strcmp(w, "and") || !strcmp(w, "or") || !strcmp(w, "xor")) {
                if (m->bop)
                    return fail(c, "two boolean operations");
                m->bop = w[0] == 'a' ? 1 : w[0] == 'o' ? 2 : 3;
                done = true;
            }
            if (done)
                continue;
        }
        if (op == PX_PRMT) {
            for (int i = 1; i < (int)(sizeof prmtmodes / sizeof prmtmodes[0]); i++)
                if (!strcmp(w, prmtmodes[i])) {
                    if (m->mode)
                        return fail(c, "two prmt modes");
                    m->mode = i;
                    done = true;
                }
            if (done)
                continue;
        }
        if (op == PX_SHF && (!strcmp(w, "l") || !strcmp(w, "r"))) {
            if (m->sh_dir)
                return fail(c, "two shift directions");
            m->sh_dir = true;
            if (w[0] == 'l')
                m->flags |= PXF_LEFT;
            continue;
        }
        if (op == PX_SHF && (!strcmp(w, "wrap") || !strcmp(w, "clamp"))) {
            if (m->sh_mode)
                return fail(c, "two shift modes");
            m->sh_mode = true;
            if (w[0] == 'c')
                m->flags |= PXF_CLAMP;
            continue;
        }
        static const struct {
            const char *w;
            unsigned f;
        } fl[] = {{"ftz", PXF_FTZ},   {"sat", PXF_SAT},       {"hi", PXF_HI},
                  {"lo", PXF_LO},     {"wide", PXF_WIDE},     {"approx", PXF_APPROX},
                  {"full", PXF_FULL}, {"relu", PXF_RELU},     {"satfinite", PXF_SATFINITE},
                  {"NaN", PXF_NAN}};
        for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
            if (!strcmp(w, fl[i].w)) {
                m->flags |= fl[i].f;
                done = true;
            }
        if (!done)
            return fail(c, "unknown or unsupported modifier `.%s`", w);
    }
    return true;
}

static bool is_int_cls(int cls)
{
    return cls == PXT_B || cls == PXT_U || cls == PXT_S;
}
static bool is_f32_64(int cls, int bits)
{
    return cls == PXT_F && (bits == 32 || bits == 64);
}

/* checks the modifiers against the op; fills the instruction's type fields */
static bool check_ins(pctx *c, px_ins *I, const mods *m)
{
    px_opc op = (px_opc)I->op;
    unsigned f = m->flags;
    int want_types = op == PX_CVT ? 2 : 1;
    if (m->ntypes != want_types)
        return fail(c, m->ntypes < want_types ? "missing type" : "too many types");
    I->tcls = m->cls[0];
    I->tbits = m->bits[0];
    if (op == PX_CVT) {
        I->scls = m->cls[1];
        I->sbits = m->bits[1];
    }
    I->rnd = (uint8_t)m->rnd;
    I->flags = (uint16_t)f;
    int cls = I->tcls, bits = I->tbits;
    bool isint = is_int_cls(cls), isf = is_f32_64(cls, bits);
    /* f16, bf16 and their x2 pairs: add/sub/mul/fma/min/max/neg/abs (ptx_exec.c: half_op) */
    bool ishalf = (cls == PXT_F && bits == 16) || cls == PXT_BF || cls == PXT_F16X2 || cls == PXT_BF16X2;
    if (ishalf && op != PX_MOV && op != PX_CVT) {
        bool bfc = cls == PXT_BF || cls == PXT_BF16X2;
        unsigned ok = 0;
        switch (op) {
        case PX_ADD:
        case PX_SUB:
        case PX_MUL:
            if (m->rnd && m->rnd != PXR_RN)
                return fail(c, "only .rn is emulated for 16-bit float arithmetic");
            ok = bfc ? 0 : PXF_FTZ | PXF_SAT;
            break;
        case PX_FMA:
            if (m->rnd != PXR_RN)
                return fail(c, "fma of 16-bit floats needs .rn");
            ok = bfc ? PXF_RELU : PXF_FTZ | PXF_SAT | PXF_RELU;
            break;
        case PX_MIN:
        case PX_MAX:
            ok = (bfc ? 0 : PXF_FTZ) | PXF_NAN;
            break;
        case PX_NEG:
        case PX_ABS:
            ok = bfc ? 0 : PXF_FTZ;
            break;
        default:
            return fail(c, "unsupported type (16-bit float add, sub, mul, fma, min, max, neg, abs are)");
        }
        if ((op == PX_MIN || op == PX_MAX || op == PX_NEG || op == PX_ABS) && m->rnd)
            return fail(c, "a rounding modifier this instruction does not take");
        if (f & ~ok)
            return fail(c, "a modifier this instruction does not take");
        return true;
    }
    bool frnd = m->rnd >= PXR_RN && m->rnd <= PXR_RP;
    unsigned allowed = 0;
    switch (op) {
    case PX_MOV:
        if (!(isint || isf || cls == PXT_PRED || cls == PXT_F || cls == PXT_BF))
            return fail(c, "unsupported type");
        break;
    case PX_ADD:
    case PX_SUB:
        if (isint) {
            allowed = PXF_SAT;
            if ((f & PXF_SAT) && !(cls == PXT_S && bits == 32))
                return fail(c, ".sat is only for .s32");
            if (m->rnd)
                return fail(c, "a rounding modifier on an integer operation");
        } else if (isf) {
            allowed = bits == 32 ? PXF_FTZ | PXF_SAT : 0;
            if (m->rnd && !frnd)
                return fail(c, "bad rounding modifier");
        } else {
            return fail(c, "unsupported type (f32, f64 and integers are)");
        }
        break;
    case PX_MUL:
    case PX_MAD:
        if (isint) {
            allowed = PXF_HI | PXF_LO | PXF_WIDE;
            int n = !!(f & PXF_HI) + !!(f & PXF_LO) + !!(f & PXF_WIDE);
            if (n != 1)
                return fail(c, "an integer %s needs one of .lo, .hi, .wide", op == PX_MUL ? "mul" : "mad");
            if ((f & PXF_WIDE) && bits == 64)
                return fail(c, ".wide of a 64-bit type");
            if (bits == 8)
                return fail(c, "8-bit multiplies do not exist");
            if (m->rnd)
                return fail(c, "a rounding modifier on an integer operation");
            if ((f & PXF_SAT))
                return fail(c, ".sat is not supported here");
        } else if (isf) {
            allowed = bits == 32 ? PXF_FTZ | PXF_SAT : 0;
            if (m->rnd && !frnd)
                return fail(c, "bad rounding modifier");
            if (op == PX_MAD && !m->rnd && bits == 64)
                return fail(c, "mad.f64 needs a rounding modifier");
        } else {
            return fail(c, "unsupported type (f32, f64 and integers are)");
        }
        break;
    case PX_FMA:
        if (!isf)
            return fail(c, "unsupported type (f32 and f64 are)");
        if (!frnd)
            return fail(c, "fma needs a rounding modifier (.rn, .rz, .rm, .rp)");
        allowed = bits == 32 ? PXF_FTZ | PXF_SAT : 0;
        break;
    case PX_DIV:
        if (isint) {
            if (cls == PXT_B || bits == 8)
                return fail(c, "unsupported type");
            if (m->rnd)
                return fail(c, "a rounding modifier on an integer operation");
        } else if (isf) {
            if (bits == 32 && (f & PXF_APPROX))
                return fail(c, "div.approx.f32 is not emulated (div.rn and div.full are)");
            if (bits == 32 && (f & PXF_FULL)) {
                allowed = PXF_FULL | PXF_FTZ;
                if (f & PXF_FTZ)
                    return fail(c, "div.full.ftz.f32 is not emulated (div.full.f32 is)");
                if (m->rnd)
                    return fail(c, "div.full takes no rounding modifier");
            } else {
                if (!frnd)
                    return fail(c, "div needs .rn, .rz, .rm, .rp or .full");
                allowed = bits == 32 ? PXF_FTZ : 0;
            }
        } else {
            return fail(c, "unsupported type");
        }
        break;
    case PX_REM:
        if (!isint || cls == PXT_B || bits == 8)
            return fail(c, "unsupported type");
        break;
    case PX_MIN:
    case PX_MAX:
        if (isint) {
            if (cls == PXT_B || bits == 8)
                return fail(c, "unsupported type");
        } else if (isf) {
            allowed = bits == 32 ? PXF_FTZ | PXF_NAN : 0;
        } else {
            return fail(c, "unsupported type");
        }
        break;
    case PX_ABS:
    case PX_NEG:
        if (isint) {
            if (cls != PXT_S || bits == 8)
                return fail(c, "unsupported type (signed 16- to 64-bit integers, f32, f64 are)");
        } else if (isf) {
            allowed = bits == 32 ? PXF_FTZ : 0;
        } else {
            return fail(c, "unsupported type");
        }
        break;
    case PX_AND:
    case PX_OR:
    case PX_XOR:
    case PX_NOT:
    case PX_CNOT:
        if (!(cls == PXT_B || cls == PXT_PRED) || bits == 8)
            return fail(c, "unsupported type (.b16, .b32, .b64, .pred are)");
        if (op == PX_CNOT && cls == PXT_PRED)
            return fail(c, "cnot.pred does not exist");
        break;
    case PX_SHL:
        if (cls != PXT_B || bits == 8)
            return fail(c, "unsupported type (.b16, .b32, .b64 are)");
        break;
    case PX_SHR:
        if (!isint || bits == 8)
            return fail(c, "unsupported type");
        break;
    case PX_SHF:
        if (!(cls == PXT_B && bits == 32))
            return fail(c, "shf is .b32");
        if (!m->sh_dir || !m->sh_mode)
            return fail(c, "shf needs .l or .r and .wrap or .clamp");
        allowed = PXF_LEFT | PXF_CLAMP;
        break;
    case PX_PRMT:
    case PX_LOP3:
        if (!(cls == PXT_B && bits == 32))
            return fail(c, "unsupported type (.b32 is)");
        I->cmp = (uint8_t)m->mode;
        break;
    case PX_BFE:
        if (!((cls == PXT_U || cls == PXT_S) && bits >= 32))
            return fail(c, "unsupported type (.u32, .s32, .u64, .s64 are)");
        break;
    case PX_BFI:
        if (!(cls == PXT_B && bits >= 32))
            return fail(c, "unsupported type (.b32, .b64 are)");
        break;
    case PX_POPC:
    case PX_CLZ:
    case PX_BREV:
        if (!(cls == PXT_B && bits >= 32))
            return fail(c, "unsupported type (.b32, .b64 are)");
        break;
    case PX_COPYSIGN:
        if (!isf)
            return fail(c, "unsupported type");
        break;
    case PX_EX2:
    case PX_LG2:
    case PX_RCP:
    case PX_RSQRT:
    case PX_SQRT:
        if (!(cls == PXT_F && bits == 32))
            return fail(c, "only the f32 form is emulated");
        if (f & PXF_APPROX) {
            if (m->rnd)
                return fail(c, ".approx takes no rounding modifier");
            allowed = PXF_APPROX | PXF_FTZ;
            if (!(f & PXF_FTZ) && (op == PX_RCP || op == PX_RSQRT || op == PX_SQRT))
                return fail(c, "only the .ftz form of %s.approx.f32 is modelled",
                            op == PX_RCP ? "rcp" : op == PX_RSQRT ? "rsqrt" : "sqrt");
        } else if (op == PX_RCP || op == PX_SQRT) {
            if (!frnd)
                return fail(c, "needs .approx or a rounding modifier");
            allowed = PXF_FTZ;
        } else {
            return fail(c, "needs .approx");
        }
        break;
    case PX_SETP:
        if (m->cmp < 0)
            return fail(c, "setp needs a comparison");
        I->cmp = (uint8_t)m->cmp;
        I->bop = (uint8_t)m->bop;
        if (isint) {
            if (m->cmp >= PXC_EQU)
                return fail(c, "an unordered comparison of integers");
            /* ptxas refuses lo/ls/hi/hs on a signed type, and every ordering comparison on an
             * untyped one (measured on the H100's driver JIT: "Mismatch between instruction
             * type and comparison qualifier" for setp.lo/ls/hi/hs.s32, setp.lt.b32,
             * setp.gt.b16, setp.lo.b32 and setp.ge.b64) */
            if (cls == PXT_S && m->cmp >= PXC_LO && m->cmp <= PXC_HS)
                return fail(c, "mismatch between instruction type and comparison qualifier "
                               "(lo, ls, hi, hs are for unsigned integers)");
            if (cls == PXT_B && m->cmp != PXC_EQ && m->cmp != PXC_NE)
                return fail(c, "mismatch between instruction type and comparison qualifier "
                               "(untyped .b types take only eq and ne)");
            if (bits == 8)
                return fail(c, "unsupported type");
        } else if (isf) {
            if (m->cmp >= PXC_LO && m->cmp <= PXC_HS)
                return fail(c, "an unsigned comparison of floats");
            allowed = bits == 32 ? PXF_FTZ : 0;
        } else {
            return fail(c, "unsupported type");
        }
        break;
    case PX_SELP:
        if (!(isint || isf) || bits == 8)
            return fail(c, "unsupported type");
        break;
    case PX_CVT: {
        int sc = I->scls, sb = I->sbits;
        bool dint = isint && cls != PXT_B, sint = is_int_cls(sc) && sc != PXT_B;
        bool dfl = cls == PXT_F || cls == PXT_BF, sfl = sc == PXT_F || sc == PXT_BF;
        bool irnd = m->rnd >= PXR_RNI;
        allowed = PXF_FTZ | PXF_SAT;
        if (cls == PXT_F16X2 || cls == PXT_BF16X2) {
            if (sc == PXT_F && sb == 32) {
                if (m->rnd != PXR_RN && m->rnd != PXR_RZ)
                    return fail(c, "needs .rn or .rz");
                allowed = PXF_RELU | PXF_SATFINITE;
            } else if (cls == PXT_F16X2 && (sc == PXT_E4M3X2 || sc == PXT_E5M2X2)) {
                if (m->rnd != PXR_RN)
                    return fail(c, "needs .rn");
                allowed = PXF_RELU;
            } else {
                return fail(c, "unsupported conversion");
            }
        } else if (cls == PXT_E4M3X2 || cls == PXT_E5M2X2) {
            if (!((sc == PXT_F && sb == 32) || sc == PXT_F16X2))
                return fail(c, "unsupported conversion");
            if (m->rnd != PXR_RN || !(f & PXF_SATFINITE))
                return fail(c, "needs .rn.satfinite");
            allowed = PXF_RELU | PXF_SATFINITE;
        } else if (dint && sint) {
            if (m->rnd)
                return fail(c, "a rounding modifier on an integer conversion");
            allowed = PXF_SAT;
        } else if (dint && sfl) {
            if (!irnd)
                return fail(c, "a float to integer conversion needs .rni, .rzi, .rmi or .rpi");
        } else if (dfl && sint) {
            if (!frnd)
                return fail(c, "an integer to float conversion needs .rn, .rz, .rm or .rp");
            if ((cls == PXT_BF || bits == 16) && m->rnd != PXR_RN && m->rnd != PXR_RZ)
                return fail(c, "only .rn and .rz conversions to 16-bit floats are emulated");
        } else if (dfl && sfl) {
            bool narrowing = bits < sb || (bits == 16 && (cls != sc));
            if (narrowing) {
                if (!frnd)
                    return fail(c, "a narrowing float conversion needs .rn, .rz, .rm or .rp");
                if (bits == 16 && m->rnd != PXR_RN && m->rnd != PXR_RZ)
                    return fail(c, "only .rn and .rz conversions to 16-bit floats are emulated");
                if (bits == 16)
                    allowed |= PXF_RELU | PXF_SATFINITE;
            } else if (bits == sb && cls == sc) {
                if (m->rnd && !irnd)
                    return fail(c, "a float to float conversion of one type takes .rni, .rzi, .rmi or .rpi");
                if (bits == 16 && (m->rnd || (f & PXF_SAT)))
                    return fail(c, "unsupported conversion");
            } else if (m->rnd) {
                return fail(c, "a widening float conversion takes no rounding modifier");
            }
        } else {
            return fail(c, "unsupported conversion");
        }
        if ((f & PXF_FTZ) && !((cls == PXT_F && bits == 32) || (sc == PXT_F && sb == 32)))
            return fail(c, ".ftz needs an f32 source or destination");
        break;
    }
    default:
        return fail(c, "unsupported instruction");
    }
    if (f & ~allowed)
        return fail(c, "a modifier this instruction does not take");
    if (m->rnd && op != PX_CVT && op != PX_ADD && op != PX_SUB && op != PX_MUL && op != PX_MAD &&
        op != PX_FMA && op != PX_DIV && op != PX_RCP && op != PX_SQRT)
        return fail(c, "a rounding modifier this instruction does not take");
    if (m->rnd >= PXR_RNI && op != PX_CVT)
        return fail(c, "an integer rounding modifier outside cvt");
    if (m->mode && op != PX_PRMT)
        return fail(c, "a prmt mode outside prmt");
    return true;
}

/* the operand types of instruction I: n operands, t[i] for each (destinations first) */
static int operand_types(const px_ins *I, otype *t)
{
    otype T = {I->tcls, I->tbits}, U32 = {PXT_U, 32}, PRED = {PXT_PRED, 1};
    otype S = {I->scls, I->sbits};
    switch ((px_opc)I->op) {
    case PX_MOV:
    case PX_ABS:
    case PX_NEG:
    case PX_NOT:
    case PX_CNOT:
    case PX_EX2:
    case PX_LG2:
    case PX_RCP:
    case PX_RSQRT:
    case PX_SQRT:
        t[0] = t[1] = T;
        return 2;
    case PX_POPC:
    case PX_CLZ:
        t[0] = U32;
        t[1] = T;
        return 2;
    case PX_BREV:
        t[0] = t[1] = T;
        return 2;
    case PX_ADD:
    case PX_SUB:
    case PX_DIV:
    case PX_REM:
    case PX_MIN:
    case PX_MAX:
    case PX_AND:
    case PX_OR:
    case PX_XOR:
    case PX_COPYSIGN:
        t[0] = t[1] = t[2] = T;
        return 3;
    case PX_MUL:
        t[0] = t[1] = t[2] = T;
        if (I->flags & PXF_WIDE)
            t[0].bits = (uint8_t)(T.bits * 2);
        return 3;
    case PX_MAD:
        t[0] = t[1] = t[2] = t[3] = T;
        if (I->flags & PXF_WIDE)
            t[0].bits = t[3].bits = (uint8_t)(T.bits * 2);
        return 4;
    case PX_FMA:
        t[0] = t[1] = t[2] = t[3] = T;
        return 4;
    case PX_SHL:
    case PX_SHR:
        t[0] = t[1] = T;
        t[2] = U32;
        return 3;
    case PX_SHF:
    case PX_PRMT:
        t[0] = t[1] = t[2] = t[3] = T;
        return 4;
    case PX_LOP3:
        t[0] = t[1] = t[2] = t[3] = t[4] = T;
        return 5;
    case PX_BFE:
        t[0] = t[1] = T;
        t[2] = t[3] = U32;
        return 4;
    case PX_BFI:
        t[0] = t[1] = t[2] = T;
        t[3] = t[4] = U32;
        return 5;
    case PX_CVT:
        t[0] = T;
        t[1] = S;
        if ((T.cls == PXT_F16X2 || T.cls == PXT_BF16X2 || T.cls == PXT_E4M3X2 ||
             T.cls == PXT_E5M2X2) &&
            S.cls == PXT_F) {
            t[1] = t[2] = S;
            return 3;
        }
        return 2;
    case PX_SETP:
        t[0] = PRED;
        t[1] = t[2] = T;
        t[3] = PRED;
        return I->bop ? 4 : 3;
    case PX_SELP:
        t[0] = t[1] = t[2] = T;
        t[3] = PRED;
        return 4;
    default:
        return 0;
    }
}

static bool parse_instruction(pctx *c, const char *word)
{
    emu_ptx_prog *P = c->P;
    px_ins I;
    memset(&I, 0, sizeof I);
    I.guard = -1;
    /* the guard was parsed by the caller into c->P->ins[nins] (see parse_stmt) */
    char w[96];
    snprintf(w, sizeof w, "%s", word);
    char *dot = strchr(w, '.');
    if (dot)
        *dot = 0;
    int op = -1;
    for (size_t i = 0; i < sizeof opnames / sizeof opnames[0]; i++)
        if (!strcmp(w, opnames[i].name))
            op = (int)opnames[i].op;
    if (op < 0)
        return fail(c, "the instruction `%s` is not emulated", w);
    I.op = (uint8_t)op;
    mods m;
    char rest[96];
    snprintf(rest, sizeof rest, "%s", dot ? dot + 1 : "");
    if (!parse_mods(c, (px_opc)op, rest, &m) || !check_ins(c, &I, &m))
        return false;
    otype t[PX_MAX_OPNDS];
    int n = operand_types(&I, t);
    if (n <= 0)
        return fail(c, "unsupported instruction");
    /* setp's destination may be p|q */
    int got = 0;
    for (int i = 0;; i++) {
        skip_ws(c);
        if (*c->p == ';' || !*c->p) {
            if (i == 0)
                return fail(c, "no operands");
            break;
        }
        if (got >= n) {
            if (I.op == PX_SETP && !I.bop)
                return fail(c, "%d operands, setp takes 3 (a fourth needs .and, .or or .xor)", got + 1);
            return fail(c, "too many operands: %s takes %d", w, n);
        }
        if (!parse_opnd(c, t[got], got == 0, &I.o[got]))
            return false;
        if (got == 0 && I.op == PX_SETP) {
            skip_ws(c);
            if (*c->p == '|') {
                c->p++;
                if (!parse_opnd(c, t[0], true, &I.o[5]))
                    return false;
                I.flags |= PXF_TWO;
            }
        }
        got++;
        skip_ws(c);
        if (*c->p == ',') {
            c->p++;
            continue;
        }
        if (*c->p == ';' || !*c->p)
            break;
        return fail(c, "expected `,` or `;`, found `%.12s`", c->p);
    }
    if (!expect(c, ';'))
        return false;
    if (got != n)
        return fail(c, "%d operands, %s takes %d", got, w, n);
    I.nopnd = (uint8_t)n;
    /* operand shapes */
    for (int i = 0; i < n; i++) {
        px_opnd *o = &I.o[i];
        if (o->kind == PXO_VEC) {
            if (I.op != PX_MOV || i > 1)
                return fail(c, "a vector operand outside mov");
            if (o->nvec != 2 && o->nvec != 4)
                return fail(c, "a vector operand of %d registers (2 or 4 are)", o->nvec);
            int ew = I.tbits / o->nvec;
            if (ew < 8 || ew * o->nvec != I.tbits)
                return fail(c, "a vector of %d registers in a %d-bit mov", o->nvec, I.tbits);
            for (int k = 0; k < o->nvec; k++) {
                int r = P->vec[o->reg + k];
                if (r >= 0 && P->width[r] < ew)
                    return fail(c, "a vector element narrower than %d bits", ew);
            }
        }
    }
    if (I.o[0].kind == PXO_VEC && I.o[1].kind == PXO_VEC)
        return fail(c, "a mov between two vectors");
    if (I.op == PX_LOP3 && I.o[4].kind != PXO_IMM)
        return fail(c, "lop3's lookup table must be an immediate");
    /* the guard */
    I.guard = P->ins[P->nins].guard;
    I.guard_neg = P->ins[P->nins].guard_neg;
    P->ins[P->nins++] = I;
    return true;
}

static bool parse_stmt(pctx *c)
{
    skip_ws(c);
    c->stmt[0] = 0;
    if (c->failed)
        return false;
    if (*c->p == '{') {
        c->p++;
        if (++c->depth > 64)
            return fail(c, "scopes nested more than 64 deep");
        return true;
    }
    if (*c->p == '}') {
        if (c->depth == 0)
            return fail(c, "`}` without `{`");
        c->p++;
        while (c->nsyms > 0 && c->syms[c->nsyms - 1].depth == c->depth)
            c->nsyms--;
        c->depth--;
        return true;
    }
    if (*c->p == ';') {
        c->p++;
        return true;
    }
    /* the statement's text for messages: up to its ';' */
    const char *e = strchr(c->p, ';');
    size_t len = e ? (size_t)(e - c->p) : strlen(c->p);
    if (len >= sizeof c->stmt)
        len = sizeof c->stmt - 1;
    memcpy(c->stmt, c->p, len);
    c->stmt[len] = 0;
    for (char *q = c->stmt; *q; q++)
        if (*q == '\n' || *q == '\t' || *q == '\r')
            *q = ' ';
    emu_ptx_prog *P = c->P;
    px_ins *ni = grow(c, P->ins, &c->cins, P->nins, sizeof *ni);
    if (!ni)
        return false;
    P->ins = ni;
    if (P->nins >= PX_MAX_INS)
        return fail(c, "more than %d instructions", PX_MAX_INS);
    memset(&P->ins[P->nins], 0, sizeof P->ins[0]);
    P->ins[P->nins].guard = -1;
    if (*c->p == '@') {
        c->p++;
        skip_ws(c);
        if (*c->p == '!') {
            P->ins[P->nins].guard_neg = true;
            c->p++;
        }
        int r;
        if (!parse_reg_name(c, &r))
            return false;
        if (P->width[r] != 1)
            return fail(c, "a guard that is not a .pred register");
        P->ins[P->nins].guard = r;
    }
    char word[96];
    skip_ws(c);
    if (*c->p == '.') {
        if (!lex_word(c, word, sizeof word, true))
            return false;
        if (P->ins[P->nins].guard >= 0)
            return fail(c, "a guarded directive");
        if (!strcmp(word, ".reg"))
            return parse_decl(c);
        return fail(c, "the directive `%s` is not supported", word);
    }
    if (!lex_word(c, word, sizeof word, true))
        return c->failed ? false : fail(c, "expected an instruction, found `%.12s`", c->p);
    skip_ws(c);
    if (*c->p == ':')
        return fail(c, "labels and branches are not supported");
    return parse_instruction(c, word);
}

/* whether instruction I writes register reg */
static bool writes(const emu_ptx_prog *P, const px_ins *I, int reg)
{
    const px_opnd *d = &I->o[0];
    if (d->kind == PXO_REG && d->reg == reg)
        return true;
    if (d->kind == PXO_VEC)
        for (int k = 0; k < d->nvec; k++)
            if (P->vec[d->reg + k] == reg)
                return true;
    return (I->flags & PXF_TWO) && I->o[5].kind == PXO_REG && I->o[5].reg == reg;
}

static bool contractible(const px_ins *I, px_opc op)
{
    return I->op == op && I->tcls == PXT_F && I->tbits == 32 && I->rnd == PXR_NONE &&
           !(I->flags & ~PXF_FTZ) && I->guard < 0;
}

/* ptxas contracts a mul.f32 and an add.f32 / sub.f32 written without rounding modifiers into
 * one FFMA (the ISA allows it; mul.rn / add.rn never are).  Measured on the H100 (probes
 * contract_mul_add, contract_two_uses, no_contract_rn; 8192 inputs each): `mul.f32 t, a, b;
 * add.f32 d, t, c` gives fma(a, b, c) on every input (112 differ from the two roundings, e.g.
 * a = 0xd1851dee, b = 0xbc73959c, c = 0xcb54409d gives 0x4e7a0166, not 0x4e7a0167), and a
 * product with two uses is contracted into both: `add.f32 d0, t, c; sub.f32 d1, c, t` gives
 * fma(a, b, c) and fma(-a, b, c) (0x42340000, 0x3f4a2b15, 0x43000000: d1 = 0x42b8ecdb,
 * 0x42b8ecda rounded twice).  Modelled: every unguarded add/sub.f32 without a rounding
 * modifier reading the result t of an unguarded mul.f32 without one (the same .ftz, neither
 * .sat), t and the mul's sources not written in between, becomes an fma of the mul's sources
 * (the mul stays, for t's other uses).  Not probed, so not modelled: f64, .sat, guarded
 * instructions, mixed .ftz; an add of two products contracts its first. */
static void contract(emu_ptx_prog *P)
{
    for (int j = 0; j < P->nins; j++) {
        px_ins *A = &P->ins[j];
        bool sub = A->op == PX_SUB;
        if (!contractible(A, PX_ADD) && !contractible(A, PX_SUB))
            continue;
        for (int side = 1; side <= 2; side++) {
            const px_opnd *t = &A->o[side];
            if (t->kind != PXO_REG)
                continue;
            /* the last writer of t before A */
            int i = j - 1;
            while (i >= 0 && !writes(P, &P->ins[i], t->reg))
                i--;
            if (i < 0 || !contractible(&P->ins[i], PX_MUL) || P->ins[i].flags != A->flags)
                continue;
            const px_ins *M = &P->ins[i];
            bool ok = M->o[0].kind == PXO_REG;
            for (int k = i; ok && k < j; k++) /* the factors as the mul read them */
                for (int q = 1; q <= 2; q++)
                    if (M->o[q].kind == PXO_REG && writes(P, &P->ins[k], M->o[q].reg))
                        ok = false;
            if (!ok)
                continue;
            px_opnd c = A->o[3 - side];
            A->op = PX_FMA;
            A->rnd = PXR_RN;
            if (sub)
                A->flags |= side == 1 ? PXF_NEGC : PXF_NEGA; /* t - c, c - t */
            A->o[1] = M->o[1];
            A->o[2] = M->o[2];
            A->o[3] = c;
            A->nopnd = 4;
            break;
        }
    }
}

emu_ptx_prog *emu_ptx_parse(const char *asm_, int nops, const int *opbits, char *err, size_t errn)
{
    char dummy[8];
    if (!err || !errn) {
        err = dummy;
        errn = sizeof dummy;
    }
    err[0] = 0;
    pctx c;
    memset(&c, 0, sizeof c);
    c.err = err;
    c.errn = errn;
    c.s = c.p = asm_ ? asm_ : "";
    emu_ptx_prog *P = ct_xcalloc(1, sizeof *P);
    c.P = P;
    P->nops = nops;
    if (nops < 0 || nops > 1024) {
        fail(&c, "%d operands", nops);
    } else {
        for (int i = 0; i < nops; i++) {
            int w = opbits[i];
            if (w != 1 && w != 8 && w != 16 && w != 32 && w != 64) {
                fail(&c, "operand $%d of %d bits", i, w);
                break;
            }
            if (new_reg(&c, w) < 0)
                break;
        }
    }
    while (!c.failed) {
        skip_ws(&c);
        if (!*c.p)
            break;
        parse_stmt(&c);
    }
    if (!c.failed && c.depth > 0) {
        c.stmt[0] = 0;
        fail(&c, "unterminated `{` (%d open)", c.depth);
    }
    ct_xfree(c.syms);
    if (c.failed) {
        emu_ptx_free(P);
        return NULL;
    }
    contract(P);
    return P;
}

void emu_ptx_free(emu_ptx_prog *p)
{
    if (!p)
        return;
    ct_xfree(p->width);
    ct_xfree(p->ins);
    ct_xfree(p->vec);
    ct_xfree(p);
}

int emu_ptx_constraint_bits(const char *c, size_t len)
{
    while (len && (*c == '=' || *c == '+' || *c == '&' || *c == ' ')) {
        c++;
        len--;
    }
    while (len && c[len - 1] == ' ')
        len--;
    if (len != 1)
        return 0;
    switch (*c) {
    case 'r':
    case 'f':
        return 32;
    case 'h':
        return 16;
    case 'l':
    case 'd':
        return 64;
    case 'c':
        return 8;
    case 'b':
        return 1;
    default:
        return 0;
    }
}
