/*
 * compile_asm.c - tt.elementwise_inline_asm into one instruction running the asm's PTX on
 * the interpreter of ptx.c / ptx_exec.c.
 *
 * Triton's lowering (ElementwiseInlineAsmOpConversion, Triton 3.6) calls the asm once per
 * `packed_element` consecutive elements of a thread; an operand or result of elements
 * narrower than 32 bits has min(32 / bits, pack) of them packed into each register (element
 * k of the register at bits [k * bits, (k + 1) * bits): an LLVM vector bitcast to an integer),
 * wider ones one per register.  The asm's operands are the results' registers, result by
 * result, then the inputs', operand by operand, in the constraints' order.  The emulator
 * groups consecutive elements of the row-major tensor; a group cut short by the tensor's end
 * is padded with zeros (on the GPU, a thread holding fewer than `pack` elements pads with
 * undefined values), which matters only to asm that mixes the elements of a group.
 */
#include "compile_internal.h"
#include "ptx.h"

/* a copy of the program in the kernel's arena */
static emu_ptx_prog *arena_prog(cctx *C, const emu_ptx_prog *p)
{
    emu_ptx_prog *q = emu_cc_aux(C, sizeof *q);
    *q = *p;
    q->width = emu_cc_aux(C, (size_t)(p->nregs ? p->nregs : 1));
    memcpy(q->width, p->width, (size_t)p->nregs);
    q->ins = emu_cc_aux(C, sizeof *q->ins * (size_t)(p->nins ? p->nins : 1));
    if (p->nins)
        memcpy(q->ins, p->ins, sizeof *q->ins * (size_t)p->nins);
    q->vec = emu_cc_aux(C, sizeof *q->vec * (size_t)(p->nvec ? p->nvec : 1));
    if (p->nvec)
        memcpy(q->vec, p->vec, sizeof *q->vec * (size_t)p->nvec);
    return q;
}

/* one value's registers: fills v's layout; its register count, or -1 (an error given) */
static int layout(cctx *C, const ct_op *op, const char *what, int idx, emu_ek ek, int pack,
                  emu_asm_val *v)
{
    /* i1 and block pointers are not passed to asm (a block pointer is no register value) */
    int b = ek == EK_I1 || ek == EK_BPTR ? 0 : 8 * (int)emu_ek_size(ek);
    if (b == 0) {
        emu_cc_err(C, op, "inline PTX: %s %d has elements of %s, which the emulator does not pass to asm",
                   what, idx, emu_ek_name(ek));
        return -1;
    }
    int per = b < 32 ? 32 / b : 1;
    if (per > pack)
        per = pack;
    if (pack % per) {
        emu_cc_err(C, op, "inline PTX: pack %d is not a multiple of the %d %s elements of a register",
                   pack, per, emu_ek_name(ek));
        return -1;
    }
    v->esz = (int)emu_ek_size(ek);
    v->ebits = b;
    v->per = per;
    return pack / per;
}

static bool inline_asm(cctx *C, const ct_op *op, const int *res);

/* the results are bound whatever happens, so that a refused asm gives one error */
bool emu_cc_inline_asm(cctx *C, const ct_op *op)
{
    int nres = op->nres;
    int *res = emu_cc_aux(C, sizeof(int) * (size_t)(nres ? nres : 1));
    for (int k = 0; k < nres; k++)
        res[k] = emu_cc_new_val(C, op, op->res[k].type);
    bool ok = inline_asm(C, op, res);
    for (int k = 0; k < nres; k++)
        emu_cc_bind(C, &op->res[k], res[k]);
    return ok;
}

static bool inline_asm(cctx *C, const ct_op *op, const int *res)
{
    const ct_attr *s = emu_cc_attr(op, "asm_string"), *cs = emu_cc_attr(op, "constraints");
    if (!emu_cc_no_batch(C, op))
        return false;
    if (!s || !s->s || !cs || !cs->s) {
        emu_cc_err(C, op, "inline PTX without its asm string or constraints");
        return false;
    }
    int64_t pk = emu_cc_attr_int(op, "packed_element", 1);
    if (pk < 1 || pk > 64) {
        emu_cc_err(C, op, "inline PTX: packed_element %lld (1 to 64 are emulated)", (long long)pk);
        return false;
    }
    int pack = (int)pk, nin = op->nopnds, nres = op->nres;
    if (nres < 1 || nres > 64 || nin > 64) {
        emu_cc_err(C, op, "inline PTX with %d results and %d operands", nres, nin);
        return false;
    }
    emu_asm_aux *x = emu_cc_aux(C, sizeof *x);
    x->pack = pack;
    x->nin = nin;
    x->nres = nres;
    x->in = emu_cc_aux(C, sizeof *x->in * (size_t)(nin ? nin : 1));
    x->res = emu_cc_aux(C, sizeof *x->res * (size_t)nres);
    /* registers: results first, then inputs */
    int nregs = 0;
    for (int k = 0; k < nres; k++) {
        int nr = layout(C, op, "result", k, C->vals[res[k]].ek, pack, &x->res[k]);
        if (nr < 0)
            return false;
        x->res[k].reg0 = nregs;
        x->res[k].off = OFF(res[k]);
        nregs += nr;
    }
    int64_t n = C->vals[res[0]].n;
    for (int k = 0; k < nres; k++)
        if (C->vals[res[k]].n != n || n < 0) {
            emu_cc_err(C, op, "inline PTX: results of different shapes");
            return false;
        }
    for (int j = 0; j < nin; j++) {
        int v = emu_cc_val(C, op, op->opnds[j]);
        if (C->vals[v].n != n) {
            emu_cc_err(C, op, "inline PTX: operand %d has %lld elements, the results %lld", j,
                       (long long)C->vals[v].n, (long long)n);
            return false;
        }
        int nr = layout(C, op, "operand", j, C->vals[v].ek, pack, &x->in[j]);
        if (nr < 0)
            return false;
        x->in[j].reg0 = nregs;
        x->in[j].off = OFF(v);
        nregs += nr;
    }
    x->n = n;
    /* the constraints: one per register, outputs ("=") first */
    int *bits = emu_cc_aux(C, sizeof(int) * (size_t)(nregs ? nregs : 1));
    const char *p = cs->s;
    int nc = 0, nout = 0;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && *p == ' ')
            p++, len--;
        bool out = len && *p == '=';
        int b = emu_ptx_constraint_bits(p, len);
        if (b == 0 || b == 1) {
            emu_cc_err(C, op, "inline PTX: constraint `%.*s` is not emulated (r, h, l, f, d, c are)",
                       (int)(len > 16 ? 16 : len), p);
            return false;
        }
        if (out && nc != nout) {
            emu_cc_err(C, op, "inline PTX: the output constraints must come first");
            return false;
        }
        if (nc < nregs)
            bits[nc] = b;
        nc++;
        nout += out;
        if (!e)
            break;
        p = e + 1;
    }
    int nres_regs = nres ? x->in[0].reg0 : 0;
    if (nin == 0)
        nres_regs = nregs;
    if (nc != nregs || nout != nres_regs) {
        emu_cc_err(C, op,
                   "inline PTX: %d constraints (%d outputs), but %d results and %d operands with pack %d "
                   "take %d registers (%d outputs)",
                   nc, nout, nres, nin, pack, nregs, nres_regs);
        return false;
    }
    /* every register's packed elements fit its constraint's width */
    for (int k = 0; k < nres + nin; k++) {
        const emu_asm_val *v = k < nres ? &x->res[k] : &x->in[k - nres];
        int nr = pack / v->per;
        for (int q = 0; q < nr; q++)
            if (v->per * v->ebits > bits[v->reg0 + q]) {
                emu_cc_err(C, op, "inline PTX: $%d holds %d bits of elements, but its constraint %d bits",
                           v->reg0 + q, v->per * v->ebits, bits[v->reg0 + q]);
                return false;
            }
    }
    char err[512];
    emu_ptx_prog *prog = emu_ptx_parse(s->s, nregs, bits, err, sizeof err);
    if (!prog) {
        emu_cc_err(C, op, "%s", err);
        return false;
    }
    x->prog = arena_prog(C, prog);
    int total = prog->nregs;
    emu_ptx_free(prog);
    uint32_t rf = (uint32_t)emu_cc_alloc_frame(C, sizeof(uint64_t) * (size_t)total);
    int i = emu_cc_emit(C, emu_h_inline_asm, op);
    INS(i)->d = rf;
    INS(i)->n = n;
    INS(i)->x.p = x;
    return true;
}
