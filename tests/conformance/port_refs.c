/* References of the conformance kernels of tests/conformance/porting.c (and of
 * conformance.c's ops_inline_asm) that `ctriton run KERNEL --emu` checks (registered by conformance.def's
 * KERNEL_REF rows): plain C, the same results in double or in the kernel's
 * own order where rounding would differ. */
#include <math.h>
#include <stdint.h>

#include "ctriton/ref.h"

/* ---- port_while_exit: the first element of each row above thresh, or -1 ---- */

static bool while_exit_setup(ct_ref_case *c)
{
    int64_t rows = ct_ref_problem(c, "ROWS", 24), n = ct_ref_problem(c, "N", 1000);
    double thresh = 0.995;
    ct_ref_arg *x = ct_ref_input(c, "x_ptr", CT_EMU_F32, rows * n, 0, 1);
    /* every fourth row stays below the threshold: its search runs to the end */
    for (int64_t r = 3; x && r < rows; r += 4)
        for (int64_t i = 0; i < n; i++)
            ct_emu_set(CT_EMU_F32, x->data, r * n + i, ct_ref_in(x, r * n + i) * thresh);
    ct_ref_output(c, "out_ptr", CT_EMU_I32, rows, 0, 0);
    ct_ref_int(c, "n", n);
    ct_ref_float(c, "thresh", thresh);
    c->grid[0] = (int)rows;
    return true;
}

static void while_exit_reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *out = ct_ref_find_arg(c, "out_ptr");
    int64_t n = ct_ref_find_arg(c, "n")->i;
    float thresh = (float)ct_ref_find_arg(c, "thresh")->f;
    for (int64_t r = 0; r < out->n; r++) {
        int64_t found = -1;
        for (int64_t i = 0; i < n && found < 0; i++)
            if ((float)ct_ref_in(x, r * n + i) > thresh)
                found = i;
        ct_ref_want(out, r, (double)found);
    }
}

const ct_kernel_ref port_while_exit__ref = {
    "port_while_exit", while_exit_setup, while_exit_reference, "N:BLOCK"};

/* ---- port_spin_wait: an inclusive prefix sum across tiles, chained by flags ---- */

static bool spin_wait_setup(ct_ref_case *c)
{
    int64_t tiles = ct_ref_problem(c, "TILES", 40), block = ct_ref_constexpr(c, "BLOCK", 256);
    ct_ref_arg *x = ct_ref_input(c, "x_ptr", CT_EMU_I32, tiles * block, 0, 0);
    for (int64_t i = 0; x && i < tiles * block; i++)
        ct_emu_set(CT_EMU_I32, x->data, i, (double)((int64_t)(ct_ref_rand(c) * 201) - 100));
    ct_ref_output(c, "y_ptr", CT_EMU_I32, tiles * block, 0, 0);
    ct_ref_inout(c, "sums_ptr", CT_EMU_I32, tiles, 0, 0, 0);
    ct_ref_inout(c, "flags_ptr", CT_EMU_I32, tiles, 0, 0, 0);
    ct_ref_inout(c, "counter_ptr", CT_EMU_I32, 1, 0, 0, 0);
    ct_ref_inout(c, "lock_ptr", CT_EMU_I32, 1, 0, 0, 0);
    ct_ref_inout(c, "total_ptr", CT_EMU_I32, 1, 0, 0, 0);
    c->grid[0] = (int)tiles;
    return true;
}

static void spin_wait_reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *y = ct_ref_find_arg(c, "y_ptr");
    ct_ref_arg *sums = ct_ref_find_arg(c, "sums_ptr"), *flags = ct_ref_find_arg(c, "flags_ptr");
    int64_t tiles = sums->n, block = x->n / tiles, run = 0;
    for (int64_t t = 0; t < tiles; t++) {
        for (int64_t i = t * block; i < (t + 1) * block; i++) {
            run += (int64_t)ct_ref_in(x, i);
            ct_ref_want(y, i, (double)run);
        }
        ct_ref_want(sums, t, (double)run);
        ct_ref_want(flags, t, 1);
    }
    ct_ref_want(ct_ref_find_arg(c, "counter_ptr"), 0, (double)tiles);
    ct_ref_want(ct_ref_find_arg(c, "lock_ptr"), 0, 0);
    ct_ref_want(ct_ref_find_arg(c, "total_ptr"), 0, (double)run);
}

const ct_kernel_ref port_spin_wait__ref = {
    "port_spin_wait", spin_wait_setup, spin_wait_reference, "TILES"};

/* ---- port_block_ptr_pad: row sums (zero padding), padded NaNs per row ---- */

static bool block_ptr_pad_setup(ct_ref_case *c)
{
    int64_t m = ct_ref_problem(c, "M", 100), n = ct_ref_problem(c, "N", 300);
    ct_emu_dtype t = ct_ref_sig_dtype(c, "x_ptr");
    ct_ref_input(c, "x_ptr", t, m * n, -1, 1);
    /* fp16 rows are summed in fp16, a block at a time */
    ct_ref_output(c, "sum_ptr", CT_EMU_F32, m, t == CT_EMU_F16 ? 1e-2 : 1e-5, t == CT_EMU_F16 ? 0.1 : 1e-4);
    ct_ref_output(c, "nan_ptr", CT_EMU_I32, m, 0, 0);
    ct_ref_int(c, "M", m);
    ct_ref_int(c, "N", n);
    ct_ref_int(c, "stride_m", n);
    ct_ref_int(c, "stride_n", 1);
    c->grid[0] = (int)ct_ref_cdiv(m, ct_ref_constexpr(c, "BLOCK_M", 32));
    return true;
}

static void block_ptr_pad_reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *s = ct_ref_find_arg(c, "sum_ptr");
    ct_ref_arg *nans = ct_ref_find_arg(c, "nan_ptr");
    int64_t m = ct_ref_find_arg(c, "M")->i, n = ct_ref_find_arg(c, "N")->i;
    int64_t bn = ct_ref_constexpr(c, "BLOCK_N", 64);
    for (int64_t r = 0; r < m; r++) {
        double acc = 0;
        for (int64_t i = 0; i < n; i++)
            acc += ct_ref_in(x, r * n + i);
        ct_ref_want(s, r, acc);
        ct_ref_want(nans, r, (double)(ct_ref_cdiv(n, bn) * bn - n));
    }
}

const ct_kernel_ref port_block_ptr_pad__ref = {"port_block_ptr_pad", block_ptr_pad_setup,
                                               block_ptr_pad_reference, "M:BLOCK_M"};
/* its tensor-descriptor twin: the same results (stride_n is the constant 1 of its configs) */
const ct_kernel_ref port_block_ptr_pad_desc__ref = {"port_block_ptr_pad_desc", block_ptr_pad_setup,
                                                    block_ptr_pad_reference, "M:BLOCK_M"};

/* ---- port_ptr_tuple: 0.5 x0 + 2 x1 - x2, summed in the kernel's order ---- */

static bool ptr_tuple_setup(ct_ref_case *c)
{
    int64_t n = ct_ref_problem(c, "N", 5000);
    ct_ref_input(c, "x0_ptr", ct_ref_sig_dtype(c, "x0_ptr"), n, -1, 1);
    ct_ref_input(c, "x1_ptr", ct_ref_sig_dtype(c, "x1_ptr"), n, -1, 1);
    ct_ref_input(c, "x2_ptr", ct_ref_sig_dtype(c, "x2_ptr"), n, -1, 1);
    ct_ref_output(c, "y_ptr", CT_EMU_F32, n, 0, 0); /* products by powers of 2, f32 adds in order */
    ct_ref_int(c, "n", n);
    c->grid[0] = (int)ct_ref_cdiv(n, ct_ref_constexpr(c, "BLOCK", 256));
    return true;
}

static void ptr_tuple_reference(ct_ref_case *c)
{
    ct_ref_arg *x0 = ct_ref_find_arg(c, "x0_ptr"), *x1 = ct_ref_find_arg(c, "x1_ptr");
    ct_ref_arg *x2 = ct_ref_find_arg(c, "x2_ptr"), *y = ct_ref_find_arg(c, "y_ptr");
    for (int64_t i = 0; i < y->n; i++) {
        float acc = 0.0f;
        acc += (float)ct_ref_in(x0, i) * 0.5f;
        acc += (float)ct_ref_in(x1, i) * 2.0f;
        acc += (float)ct_ref_in(x2, i) * -1.0f;
        ct_ref_want(y, i, acc);
    }
}

const ct_kernel_ref port_ptr_tuple__ref = {
    "port_ptr_tuple", ptr_tuple_setup, ptr_tuple_reference, "N:BLOCK"};

/* ---- port_raw_forms: the block sums of x, halved pid % 3 + 1 times, plus 3 and BLOCK / 32 ---- */

static bool raw_forms_setup(ct_ref_case *c)
{
    int64_t n = ct_ref_problem(c, "N", 1000), programs = 5;
    ct_ref_input(c, "x_ptr", CT_EMU_F32, n, -1, 1);
    /* f32 adds in the kernel's order, products by powers of 2: exact */
    ct_ref_output(c, "y_ptr", CT_EMU_F32, programs * ct_ref_constexpr(c, "BLOCK", 64), 0, 0);
    ct_ref_int(c, "n", n);
    c->grid[0] = (int)programs;
    return true;
}

static void raw_forms_reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *y = ct_ref_find_arg(c, "y_ptr");
    int64_t n = ct_ref_find_arg(c, "n")->i, block = ct_ref_constexpr(c, "BLOCK", 64);
    for (int64_t pid = 0; pid < y->n / block; pid++) {
        for (int64_t i = 0; i < block; i++) {
            float acc = 0.0f;
            for (int64_t k = 0; k < ct_ref_cdiv(n, block); k++)
                acc += k * block + i < n ? (float)ct_ref_in(x, k * block + i) : 0.0f;
            for (int64_t j = 0; j < pid % 3 + 1; j++)
                acc = acc * 0.5f;
            for (int64_t j = 1; j < 3; j++)
                acc += (float)j;
            for (int64_t j = 0; j < block / 32; j++)
                acc = acc + 1.0f;
            ct_ref_want(y, pid * block + i, acc);
        }
    }
}

const ct_kernel_ref port_raw_forms__ref = {
    "port_raw_forms", raw_forms_setup, raw_forms_reference, "N:BLOCK"};

/* ---- port_none_args: y = x[idx] * scale, or x * 2 without the optional pointers ---- */

static bool none_args_setup(ct_ref_case *c)
{
    int64_t n = ct_ref_problem(c, "N", 1000);
    ct_ref_input(c, "x_ptr", CT_EMU_F32, n, -1, 1);
    /* a None in the signature: the parameter is gone, no buffer is passed */
    if (ct_ref_sig_dtype(c, "scale_ptr") != CT_EMU_BYTES)
        ct_ref_input(c, "scale_ptr", CT_EMU_F32, 1, 0.5, 1.5);
    if (ct_ref_sig_dtype(c, "idx_ptr") != CT_EMU_BYTES) {
        ct_ref_arg *idx = ct_ref_input(c, "idx_ptr", CT_EMU_I32, n, 0, 0);
        for (int64_t i = 0; idx && i < n; i++) /* a gather in reverse */
            ct_emu_set(CT_EMU_I32, idx->data, i, (double)(n - 1 - i));
    }
    ct_ref_output(c, "y_ptr", CT_EMU_F32, n, 0, 0); /* one f32 product: exact */
    ct_ref_int(c, "n", n);
    c->grid[0] = (int)ct_ref_cdiv(n, ct_ref_constexpr(c, "BLOCK", 128));
    return true;
}

static void none_args_reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *y = ct_ref_find_arg(c, "y_ptr");
    ct_ref_arg *scale = ct_ref_find_arg(c, "scale_ptr"), *idx = ct_ref_find_arg(c, "idx_ptr");
    for (int64_t i = 0; i < y->n; i++) {
        int64_t src = idx ? (int64_t)ct_ref_in(idx, i) : i;
        float v = (float)ct_ref_in(x, src);
        v = scale ? v * (float)ct_ref_in(scale, 0) : v * 2.0f;
        ct_ref_want(y, i, v);
    }
}

const ct_kernel_ref port_none_args__ref = {
    "port_none_args", none_args_setup, none_args_reference, "N:BLOCK"};

/* ---- ops_inline_asm: y = x rotated left by 3 (shf.l.wrap), c = a (u8), d = max(float(a), b) ---- */

static bool inline_asm_setup(ct_ref_case *c)
{
    int64_t n = ct_ref_constexpr(c, "BLOCK", 256);
    ct_ref_input(c, "x_ptr", CT_EMU_I32, n, -2147483648.0, 2147483647.0);
    ct_ref_input(c, "a_ptr", ct_ref_sig_dtype(c, "a_ptr"), n, 0, 255);
    ct_ref_input(c, "b_ptr", CT_EMU_F32, n, -10, 300);
    /* bit operations, an exact conversion and a max: exact */
    ct_ref_output(c, "y_ptr", CT_EMU_I32, n, 0, 0);
    ct_ref_output(c, "c_ptr", CT_EMU_I32, n, 0, 0);
    ct_ref_output(c, "d_ptr", CT_EMU_F32, n, 0, 0);
    c->grid[0] = 1;
    return true;
}

static void inline_asm_reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *a = ct_ref_find_arg(c, "a_ptr");
    ct_ref_arg *b = ct_ref_find_arg(c, "b_ptr"), *y = ct_ref_find_arg(c, "y_ptr");
    ct_ref_arg *cc = ct_ref_find_arg(c, "c_ptr"), *d = ct_ref_find_arg(c, "d_ptr");
    for (int64_t i = 0; i < y->n; i++) {
        uint32_t v = (uint32_t)(int32_t)ct_ref_in(x, i);
        ct_ref_want(y, i, (double)(int32_t)(v << 3 | v >> 29));
        uint8_t u = (uint8_t)((int64_t)ct_ref_in(a, i) & 0xff);
        ct_ref_want(cc, i, u);
        /* max.f32: a NaN operand gives the other; +0 above -0 */
        float fa = (float)u, fb = (float)ct_ref_in(b, i);
        float m = fb != fb ? fa : (fa == fb ? (signbit(fa) ? fb : fa) : (fa > fb ? fa : fb));
        ct_ref_want(d, i, m);
    }
}

const ct_kernel_ref ops_inline_asm__ref = {
    "ops_inline_asm", inline_asm_setup, inline_asm_reference, NULL}; /* one block, no problem size */
