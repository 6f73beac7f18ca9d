/*
 * ptx.h - the emulator's interpreter of inline PTX (tt.elementwise_inline_asm).
 *
 * ptx.c parses the asm string of one op once, at compile time, into a flat list of
 * instructions over a small register file; ptx_exec.c runs it once per group of `pack`
 * elements, bit for bit as the GPU computes each instruction (the approximate ones through
 * the MUFU models of mufu.c).  The registers are numbered: first the asm's operands `$0`,
 * `$1`, ... (the outputs first, then the inputs, as in the constraints), then the registers
 * the asm declares (`.reg .b32 t<4>;`), each with its width in bits (1 for a predicate).
 * Every register holds its value zero-extended in a uint64_t.
 *
 * What is not understood is refused when parsed, with a message naming the instruction
 * (emu_ptx_parse returns NULL); nothing the parser accepts can fault when run.
 */
#ifndef CTRITON_EMU_PTX_H
#define CTRITON_EMU_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the instructions */
typedef enum px_opc {
    PX_MOV, PX_ADD, PX_SUB, PX_MUL, PX_MAD, PX_FMA, PX_DIV, PX_REM, PX_MIN, PX_MAX, PX_ABS,
    PX_NEG, PX_AND, PX_OR, PX_XOR, PX_NOT, PX_CNOT, PX_SHL, PX_SHR, PX_SHF, PX_PRMT, PX_LOP3,
    PX_BFE, PX_BFI, PX_POPC, PX_CLZ, PX_BREV, PX_CVT, PX_SETP, PX_SELP, PX_EX2, PX_LG2, PX_RCP,
    PX_RSQRT, PX_SQRT, PX_COPYSIGN,
    PX__COUNT
} px_opc;

/* type classes (a type is a class and a width in bits) */
enum { PXT_B, PXT_U, PXT_S, PXT_F, PXT_PRED, PXT_BF, PXT_F16X2, PXT_BF16X2, PXT_E4M3X2,
       PXT_E5M2X2 };

/* rounding modifiers */
enum { PXR_NONE, PXR_RN, PXR_RZ, PXR_RM, PXR_RP, PXR_RNI, PXR_RZI, PXR_RMI, PXR_RPI };

/* flags */
enum {
    PXF_FTZ = 1 << 0, PXF_SAT = 1 << 1, PXF_HI = 1 << 2, PXF_LO = 1 << 3, PXF_WIDE = 1 << 4,
    PXF_APPROX = 1 << 5, PXF_FULL = 1 << 6, PXF_LEFT = 1 << 7, PXF_CLAMP = 1 << 8,
    PXF_RELU = 1 << 9, PXF_SATFINITE = 1 << 10, PXF_NAN = 1 << 11, PXF_TWO = 1 << 12, /* p|q */
    /* an add/sub.f32 into which ptx.c contracted a mul.f32 (as ptxas does): an fma whose
     * product's first factor (NEGA) or addend (NEGC) is negated */
    PXF_NEGA = 1 << 13, PXF_NEGC = 1 << 14
};

/* an operand: a register, an immediate (its bits, already in the instruction's type), a
 * vector of registers ({a, b}: vec/nvec into the program's vector table; -1 entries: `_`),
 * or none */
enum { PXO_NONE, PXO_REG, PXO_IMM, PXO_VEC };
typedef struct px_opnd {
    uint8_t kind;
    bool neg;                /* !p */
    uint16_t nvec;
    int32_t reg;             /* PXO_REG; PXO_VEC: first entry of the vector table */
    uint64_t imm;
} px_opnd;

enum { PX_MAX_OPNDS = 6 };

typedef struct px_ins {
    uint8_t op;              /* px_opc */
    uint8_t tcls, tbits;     /* the instruction's type (the destination's for cvt) */
    uint8_t scls, sbits;     /* cvt: the source type; setp/selp: unused */
    uint8_t rnd;             /* PXR_* */
    uint8_t cmp;             /* setp: the comparison; prmt: the mode; setp: bool op in bop */
    uint8_t bop;             /* setp: 0 none, 1 and, 2 or, 3 xor */
    uint16_t flags;          /* PXF_* */
    int32_t guard;           /* predicate register, -1: none */
    bool guard_neg;
    uint8_t nopnd;
    px_opnd o[PX_MAX_OPNDS];
} px_ins;

typedef struct emu_ptx_prog {
    int nops;                /* $0 .. $(nops-1) */
    int nregs;               /* operands, then declared registers */
    uint8_t *width;          /* bits of each register */
    int nins;
    px_ins *ins;
    int32_t *vec;            /* vector operands' registers */
    int nvec;
} emu_ptx_prog;

/* setp comparisons */
enum { PXC_EQ, PXC_NE, PXC_LT, PXC_LE, PXC_GT, PXC_GE, PXC_LO, PXC_LS, PXC_HI, PXC_HS, PXC_EQU,
       PXC_NEU, PXC_LTU, PXC_LEU, PXC_GTU, PXC_GEU, PXC_NUM, PXC_NAN };

/* Parses `asm_` for `nops` operands whose widths in bits are opbits[0..nops-1] ($i has
 * opbits[i]).  The result is on the library's heap (ct_xmalloc: emu_ptx_free), or NULL with a
 * message in err. */
emu_ptx_prog *emu_ptx_parse(const char *asm_, int nops, const int *opbits, char *err, size_t errn);
void emu_ptx_free(emu_ptx_prog *p);

/* Runs the program on the register file r (p->nregs entries): the inputs' registers set,
 * the rest zero; the outputs' registers hold the results afterwards. */
void emu_ptx_exec(const emu_ptx_prog *p, uint64_t *r);

/* The width in bits of a constraint's register ("r" 32, "=h" 16, "l" 64, "f" 32, "d" 64,
 * "c" 8, "b" 1); 0 for a constraint the interpreter does not know. */
int emu_ptx_constraint_bits(const char *c, size_t len);

/* tt.elementwise_inline_asm's instruction (ptx_exec.c): for each group of `pack` elements,
 * the inputs' elements packed into their registers (element e of a group into register
 * reg0 + e / per at bit (e % per) * ebits, as Triton's lowering packs them), the program run,
 * the results unpacked the same way.  The register file lives in the frame at the
 * instruction's d. */
typedef struct emu_asm_val {
    uint32_t off;            /* the tensor's frame offset */
    int esz;                 /* bytes per element */
    int ebits;               /* bits per element */
    int per;                 /* elements per register */
    int reg0;                /* its first register ($n) */
} emu_asm_val;

typedef struct emu_asm_aux {
    const emu_ptx_prog *prog;
    int64_t n;               /* elements of every operand and result */
    int pack;
    int nin, nres;
    emu_asm_val *in, *res;
} emu_asm_aux;

struct emu_frame;
struct emu_ins;
int emu_h_inline_asm(struct emu_frame *F, const struct emu_ins *I);

#endif
