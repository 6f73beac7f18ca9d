/*
 * exec.c - the interpreter loop and the control, program-id, assert and
 * print handlers.
 *
 * emu_exec runs resolved handlers one after another; a handler returns
 * EMU_NEXT, or EMU_STOP (end of program or fault), or EMU_RET (end of a
 * combine region, back to the reduce/scan handler that ran it).  Jumps set
 * F->pc.  There is nothing else in the loop.
 */
#include "emu_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

int emu_exec(emu_frame *F, int32_t pc)
{
    const emu_ins *code = F->k->code;
    F->pc = pc;
    for (;;) {
        const emu_ins *I = &code[F->pc++];
        int rc = I->fn(F, I);
        if (rc)
            return rc;
    }
}

int emu_h_nop(emu_frame *F, const emu_ins *I)
{
    (void)F;
    (void)I;
    return EMU_NEXT;
}

int emu_h_jmp(emu_frame *F, const emu_ins *I)
{
    F->pc = I->target;
    return EMU_NEXT;
}

/* The step budget: every back edge costs one step; a program that runs out stops with
 * CT_EMU_ERR_BUDGET at the loop's op (a program without back edges always ends). */
static int out_of_steps(emu_frame *F, const emu_ins *I, bool zero_step)
{
    return emu_fault(F, I, CT_EMU_ERR_BUDGET, -1, -1, 0, 0,
                     "step budget exhausted: %lld loop iterations in one program%s "
                     "(ct_emu_launch.max_steps, run --max-steps N)",
                     (long long)F->run->max_steps,
                     zero_step ? "; the scf.for's step is 0, so it never ends" : "; an endless loop?");
}

int emu_h_back(emu_frame *F, const emu_ins *I)
{
    if (--F->steps < 0)
        return out_of_steps(F, I, false);
    F->pc = I->target;
    return EMU_NEXT;
}

/* branch to target when the i1 scalar at a is false */
int emu_h_brz(emu_frame *F, const emu_ins *I)
{
    if (!(F->mem[I->a] & 1))
        F->pc = I->target;
    return EMU_NEXT;
}

int emu_h_end(emu_frame *F, const emu_ins *I)
{
    (void)I;
    F->status = CT_EMU_OK;
    return EMU_STOP;
}

int emu_h_ret(emu_frame *F, const emu_ins *I)
{
    (void)F;
    (void)I;
    return EMU_RET;
}

/* parallel copy: the compiler ordered the copies (through temporaries
 * where sources and destinations overlap) so sequential is correct */
int emu_h_pcopy(emu_frame *F, const emu_ins *I)
{
    const emu_copy_aux *x = I->x.p;
    for (int i = 0; i < x->n; i++)
        memmove(F->mem + x->dst[i], F->mem + x->src[i], x->bytes[i]);
    return EMU_NEXT;
}

/* scf.for test: leave the loop (jump to target) unless iv < ub */
int emu_h_for_test(emu_frame *F, const emu_ins *I)
{
    bool in;
    bool uns = I->flags != 0;
    switch ((emu_ek)I->ek) {
    case EK_I32:
        in = uns ? *SLOT(F, I->a, uint32_t) < *SLOT(F, I->b, uint32_t)
                 : *SLOT(F, I->a, int32_t) < *SLOT(F, I->b, int32_t);
        break;
    case EK_I64:
        in = uns ? *SLOT(F, I->a, uint64_t) < *SLOT(F, I->b, uint64_t)
                 : *SLOT(F, I->a, int64_t) < *SLOT(F, I->b, int64_t);
        break;
    case EK_I16:
        in = uns ? *SLOT(F, I->a, uint16_t) < *SLOT(F, I->b, uint16_t)
                 : *SLOT(F, I->a, int16_t) < *SLOT(F, I->b, int16_t);
        break;
    default:
        in = uns ? *SLOT(F, I->a, uint8_t) < *SLOT(F, I->b, uint8_t)
                 : *SLOT(F, I->a, int8_t) < *SLOT(F, I->b, int8_t);
        break;
    }
    if (!in)
        F->pc = I->target;
    return EMU_NEXT;
}

/* iv += step, wrapping */
int emu_h_for_step(emu_frame *F, const emu_ins *I)
{
    switch ((emu_ek)I->ek) {
    case EK_I32:
        *SLOT(F, I->a, uint32_t) += *SLOT(F, I->b, uint32_t);
        break;
    case EK_I64:
        *SLOT(F, I->a, uint64_t) += *SLOT(F, I->b, uint64_t);
        break;
    case EK_I16:
        *SLOT(F, I->a, uint16_t) = (uint16_t)(*SLOT(F, I->a, uint16_t) + *SLOT(F, I->b, uint16_t));
        break;
    default:
        *SLOT(F, I->a, uint8_t) = (uint8_t)(*SLOT(F, I->a, uint8_t) + *SLOT(F, I->b, uint8_t));
        break;
    }
    if (--F->steps < 0) {
        uint64_t st = 0;
        memcpy(&st, F->mem + I->b, emu_ek_size((emu_ek)I->ek));
        return out_of_steps(F, I, st == 0);
    }
    F->pc = I->target;
    return EMU_NEXT;
}

int emu_h_elem_get(emu_frame *F, const emu_ins *I)
{
    int64_t i = *SLOT(F, I->b, int64_t) + I->x.i;
    memcpy(F->mem + I->d, F->mem + I->a + (size_t)i * (size_t)I->y.i, (size_t)I->y.i);
    return EMU_NEXT;
}

int emu_h_elem_set(emu_frame *F, const emu_ins *I)
{
    int64_t i = *SLOT(F, I->b, int64_t) + I->x.i;
    memcpy(F->mem + I->d + (size_t)i * (size_t)I->y.i, F->mem + I->a, (size_t)I->y.i);
    return EMU_NEXT;
}

int emu_h_program_id(emu_frame *F, const emu_ins *I)
{
    *SLOT(F, I->d, int32_t) = F->pid[I->x.i];
    return EMU_NEXT;
}

int emu_h_num_programs(emu_frame *F, const emu_ins *I)
{
    *SLOT(F, I->d, int32_t) = F->npid[I->x.i];
    return EMU_NEXT;
}

/* tt.assert: every element of the condition must be true */
int emu_h_assert(emu_frame *F, const emu_ins *I)
{
    const uint8_t *c = F->mem + I->a;
    for (int64_t i = 0; i < I->n; i++)
        if (!(c[i] & 1))
            return emu_fault(F, I, CT_EMU_ERR_ASSERT, I->n > 1 ? i : -1, -1, 0, 0,
                             "device assertion failed: %s", (const char *)I->x.p);
    return EMU_NEXT;
}

/* llvm.intr.assume (tl.assume): a false assumption is undefined behaviour on the GPU */
int emu_h_assume(emu_frame *F, const emu_ins *I)
{
    const uint8_t *c = F->mem + I->a;
    for (int64_t i = 0; i < I->n; i++)
        if (!(c[i] & 1))
            return emu_fault(F, I, CT_EMU_ERR_ASSERT, I->n > 1 ? i : -1, -1, 0, 0,
                             "assumption violated (tl.assume): the GPU would compute garbage here");
    return EMU_NEXT;
}

/* tt.print: one line per element, as Triton's device_print formats them */
int emu_h_print(emu_frame *F, const emu_ins *I)
{
    const emu_print_aux *x = I->x.p;
    FILE *out = F->run->print ? F->run->print : stdout;
    pthread_mutex_lock(&F->run->lock);
    int64_t n = x->n ? x->numel[0] : 1;
    if (x->n == 0)
        fprintf(out, "pid (%d, %d, %d) %s\n", F->pid[0], F->pid[1], F->pid[2], x->prefix);
    for (int64_t i = 0; i < n && x->n; i++) {
        fprintf(out, "pid (%d, %d, %d) idx (", F->pid[0], F->pid[1], F->pid[2]);
        int64_t rem = i;
        int64_t idx[CT_MAX_RANK];
        for (int d = x->rank - 1; d >= 0; d--) {
            idx[d] = rem % x->shape[d];
            rem /= x->shape[d];
        }
        for (int d = 0; d < x->rank; d++)
            fprintf(out, d ? ", %3lld" : "%3lld", (long long)idx[d]);
        fprintf(out, ")%s", x->prefix);
        for (int a = 0; a < x->n; a++) {
            int64_t j = x->numel[a] > 1 ? i : 0;
            const void *p = F->mem + x->off[a];
            emu_ek ek = x->ek[a];
            fputs(a ? ", " : "", out);
            if (emu_ek_is_float(ek) && !x->hex) {
                fprintf(out, "%f", emu_load_f64(ek, p, j));
            } else if (ek == EK_PTR || x->hex) {
                uint64_t u = (uint64_t)emu_load_i64(ek, p, j);
                int bits = (int)emu_ek_size(ek) * 8;
                if (bits < 64)
                    u &= (1ull << bits) - 1;
                fprintf(out, "0x%0*" PRIx64, bits / 4, u);
            } else if (x->is_signed[a]) {
                fprintf(out, "%lld", (long long)emu_load_i64(ek, p, j));
            } else {
                uint64_t u = (uint64_t)emu_load_i64(ek, p, j);
                int bits = emu_ek_int_bits(ek);
                if (bits < 64)
                    u &= (1ull << bits) - 1;
                fprintf(out, "%" PRIu64, u);
            }
        }
        fputc('\n', out);
    }
    pthread_mutex_unlock(&F->run->lock);
    return EMU_NEXT;
}

/* ---- faults ---------------------------------------------------------------------- */

static void copy_str(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

int emu_fault(emu_frame *F, const emu_ins *I, ct_emu_status st, int64_t lane, int buf,
              int64_t offset, int64_t bytes, const char *fmt, ...)
{
    emu_run *R = F->run;
    const ct_emu_kernel *k = F->k;
    ct_emu_fault f;
    memset(&f, 0, sizeof f);
    f.status = st;
    f.pid[0] = F->pid[0];
    f.pid[1] = F->pid[1];
    f.pid[2] = F->pid[2];
    f.lane = lane;
    f.buffer = buf;
    f.offset = offset;
    f.access_bytes = bytes;
    if (buf >= 0 && buf < R->e->nbufs)
        copy_str(f.buffer_name, sizeof f.buffer_name, R->e->bufs[buf].name);
    copy_str(f.op, sizeof f.op, ct_op_info_of((ct_opcode)I->code)->name);
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const emu_loc *L = I->loc >= 0 ? &k->locs[I->loc] : NULL;
    if (L) {
        copy_str(f.file, sizeof f.file, L->file);
        f.line = L->line;
        f.col = L->col;
        if (L->caller >= 0) {
            const emu_loc *C = &k->locs[L->caller];
            snprintf(f.called_from, sizeof f.called_from, "%s:%d", C->file ? C->file : "?",
                     C->line);
        }
    }
    char where[400] = "";
    if (L && L->file && *L->file)
        snprintf(where, sizeof where, "%s:%d: ", L->file, L->line);
    char lanebuf[64] = "";
    if (lane >= 0)
        snprintf(lanebuf, sizeof lanebuf, ", lane %lld", (long long)lane);
    snprintf(f.message, sizeof f.message, "%s%s in %s (program (%d, %d, %d)%s): %s%s%s", where,
             f.op, k->name, f.pid[0], f.pid[1], f.pid[2], lanebuf, what,
             f.called_from[0] ? ", called from " : "", f.called_from);

    pthread_mutex_lock(&R->lock);
    R->nfaults++;
    if (F->lin < R->fault_pid) {
        R->fault_pid = F->lin;
        R->fault = f;
    }
    int64_t cur = atomic_load(&R->min_fault);
    while (F->lin < cur && !atomic_compare_exchange_weak(&R->min_fault, &cur, F->lin))
        ;
    pthread_mutex_unlock(&R->lock);
    F->status = st;
    return EMU_STOP;
}
