/*
 * test_emu_oob.c - planted out-of-bounds accesses: loads, stores and
 * atomics, masked and unmasked, negative offsets, one past the end, 2-D
 * tiles, null and misaligned pointers, writes into inputs.  Each must be
 * caught with the kernel, program id, lane, buffer, byte offset and the
 * C line of the offending builtin; masked-off lanes must not be reported.
 */
#include <math.h>

#include "ctriton/text.h"
#include "emu_test.h"
#include "kernels_testutil.h"

static int L_load, L_store, L_atomic, L_tile, L_cas, L_scalar, L_mis, L_ok, L_in, L_carried, L_dred;

/* x[offs + shift] -> y[offs], mask `offs < n` when masked */
TL_KERNEL(k_shift_load, (x_ptr, y_ptr, n, shift), (int, BLOCK), (bool, MASKED))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor offs = tl_add(tl_mul(pid, BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor x;
    if (MASKED) {
        x = tl_load(tl_add(x_ptr, tl_add(offs, shift)), .mask = mask); MARK(L_load);
    } else {
        x = tl_load(tl_add(x_ptr, tl_add(offs, shift))); MARK(L_load);
    }
    tl_store(tl_add(y_ptr, offs), x, .mask = mask);
}

/* y[offs + shift] = x[offs] */
TL_KERNEL(k_shift_store, (x_ptr, y_ptr, n, shift), (int, BLOCK))
{
    tl_tensor offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = mask);
    tl_store(tl_add(y_ptr, tl_add(offs, shift)), x, .mask = mask); MARK(L_store);
}

/* atomic_add(acc[offs + shift], x[offs]) */
TL_KERNEL(k_atomic, (x_ptr, acc_ptr, n, shift), (int, BLOCK))
{
    tl_tensor offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = mask);
    tl_atomic_add(tl_add(acc_ptr, tl_add(offs, shift)), x, .mask = mask); MARK(L_atomic);
}

/* a BM x BN tile of an M x N matrix, rows masked only if MASK_ROWS */
TL_KERNEL(k_tile, (a_ptr, b_ptr, M, N, stride), (int, BM), (int, BN), (bool, MASK_ROWS))
{
    tl_tensor rm = tl_add(tl_mul(tl_program_id(0), BM), tl_arange(0, BM));
    tl_tensor rn = tl_add(tl_mul(tl_program_id(1), BN), tl_arange(0, BN));
    tl_tensor ptrs = tl_add(a_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), stride), tl_idx(rn, "None, :")));
    tl_tensor mask = tl_lt(tl_idx(rn, "None, :"), N);
    if (MASK_ROWS)
        mask = tl_logical_and(mask, tl_lt(tl_idx(rm, ":, None"), M));
    tl_tensor a = tl_load(ptrs, .mask = mask); MARK(L_tile);
    tl_tensor optrs = tl_add(b_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), stride), tl_idx(rn, "None, :")));
    tl_store(optrs, a, .mask = tl_logical_and(mask, tl_lt(tl_idx(rm, ":, None"), M)));
}

/* a BM x BN tile with `other` = -1, rows and columns masked, stored with the same mask */
TL_KERNEL(k_tile_other, (a_ptr, b_ptr, M, N, stride), (int, BM), (int, BN))
{
    tl_tensor rm = tl_add(tl_mul(tl_program_id(0), BM), tl_arange(0, BM));
    tl_tensor rn = tl_add(tl_mul(tl_program_id(1), BN), tl_arange(0, BN));
    tl_tensor offs = tl_add(tl_mul(tl_idx(rm, ":, None"), stride), tl_idx(rn, "None, :"));
    tl_tensor mask = tl_logical_and(tl_lt(tl_idx(rn, "None, :"), N), tl_lt(tl_idx(rm, ":, None"), M));
    tl_tensor a = tl_load(tl_add(a_ptr, offs), .mask = mask, .other = tl_c(-1.0));
    tl_store(tl_add(b_ptr, offs), tl_add(a, 1000.0), .mask = mask);
    tl_tensor dense = tl_add(tl_mul(tl_idx(rm, ":, None"), BN), tl_idx(tl_arange(0, BN), "None, :"));
    tl_store(tl_add(b_ptr, dense), a,
             .mask = tl_logical_and(tl_lt(tl_idx(rm, ":, None"), M), tl_eq(tl_program_id(1), 2)));
}

/* atomic_cas at lock[idx] */
TL_KERNEL(k_cas, (lock_ptr, idx), (int, UNUSED))
{
    (void)UNUSED;
    tl_atomic_cas(tl_add(lock_ptr, idx), 0, 1); MARK(L_cas);
}

/* a scalar load x[i] */
TL_KERNEL(k_scalar, (x_ptr, y_ptr, i), (int, UNUSED))
{
    (void)UNUSED;
    tl_tensor v = tl_load(tl_add(x_ptr, i)); MARK(L_scalar);
    tl_store(y_ptr, v);
}

/* a pointer moved by 2 bytes through an integer: a misaligned f32 load */
TL_KERNEL(k_misaligned, (x_ptr, y_ptr), (int, UNUSED))
{
    (void)UNUSED;
    tl_tensor as_int = tl_to(x_ptr, tl_int64);
    tl_tensor p = tl_to(tl_add(as_int, 2), tl_pointer_type(tl_float32));
    tl_tensor v = tl_load(p); MARK(L_mis);
    tl_store(y_ptr, v);
}

/* the whole of x, masked, with far out-of-range lanes masked off */
TL_KERNEL(k_masked_far, (x_ptr, y_ptr, n), (int, BLOCK))
{
    tl_tensor offs = tl_mul(tl_arange(0, BLOCK), 1000);
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = mask, .other = tl_c(-1.0)); MARK(L_ok);
    tl_store(tl_add(y_ptr, tl_arange(0, BLOCK)), x);
}

/* writes into its input */
TL_KERNEL(k_write_input, (x_ptr, n), (int, BLOCK))
{
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_store(tl_add(x_ptr, offs), 1.0, .mask = tl_lt(offs, n)); MARK(L_in);
}

/* a BM x BN block of an M x N matrix through block pointers: rows checked only if CHECK_ROWS */
static int L_bload;
TL_KERNEL(k_block_ptr, (x_ptr, y_ptr, M, N), (int, BM), (int, BN), (bool, CHECK_ROWS))
{
    tl_tensor p = tl_make_block_ptr(x_ptr, tl_tuple(M, N), tl_tuple(N, 1), tl_tuple(tl_mul(tl_program_id(0), BM), 0),
                                    tl_shape(BM, BN), tl_ints(1, 0));
    tl_tensor x;
    if (CHECK_ROWS) {
        x = tl_load(p, .boundary_check = tl_ints(0, 1), .padding_option = "zero");
    } else {
        x = tl_load(p, .boundary_check = tl_ints(1)); MARK(L_bload);
    }
    tl_tensor q = tl_make_block_ptr(y_ptr, tl_tuple(M, N), tl_tuple(N, 1), tl_tuple(tl_mul(tl_program_id(0), BM), 0),
                                    tl_shape(BM, BN), tl_ints(1, 0));
    tl_store(q, tl_add(x, 0.5f), .boundary_check = tl_ints(0, 1));
}

/* a BM x BN block of ones stored at (OM, ON) of an M x N matrix of row stride SM, both
 * dimensions checked: shapes, strides and offsets at the ends of their types */
static int L_bwide;
TL_KERNEL(k_block_wide, (y_ptr, M, N, SM, OM, ON), (int, BM), (int, BN))
{
    tl_tensor q = tl_make_block_ptr(y_ptr, tl_tuple(M, N), tl_tuple(SM, 1), tl_tuple(OM, ON),
                                    tl_shape(BM, BN), tl_ints(1, 0));
    tl_store(q, tl_full(tl_shape(BM, BN), 1.0, tl_float32), .boundary_check = tl_ints(0, 1)); MARK(L_bwide);
}

/* a BM x BN block of an M x N matrix through tensor descriptors (TMA): what lies outside the
 * tensor reads as the padding and is not written; the tensor's own shape (SHAPE_M rows) may
 * claim more than the buffer holds, which the emulator reports */
static int L_dload;
TL_KERNEL(k_desc, (x_ptr, y_ptr, M, N, SHAPE_M), (int, BM), (int, BN), (const char *, PAD))
{
    tl_tensor xd = tl_make_tensor_descriptor(x_ptr, tl_tuple(SHAPE_M, N), tl_tuple(N, 1), tl_shape(BM, BN), .padding_option = PAD);
    tl_tensor yd = tl_make_tensor_descriptor(y_ptr, tl_tuple(M, N), tl_tuple(N, 1), tl_shape(BM, BN));
    tl_tensor x = tl_desc_load(xd, tl_tuple(tl_mul(tl_program_id(0), BM), -4)); MARK(L_dload);
    tl_desc_store(yd, tl_tuple(tl_mul(tl_program_id(0), BM), 0), tl_add(x, 0.5f));
}

/* the same through descriptors made on the host (kernel arguments) */
static int L_hload;
TL_KERNEL(k_host_desc, (xd, yd), (int, BM))
{
    tl_tensor x = tl_desc_load(xd, tl_tuple(tl_mul(tl_program_id(0), BM), 0)); MARK(L_hload);
    tl_desc_store(yd, tl_tuple(tl_mul(tl_program_id(0), BM), 0), tl_add(x, 0.5f));
}

static const char *SIG4 = "x_ptr=*fp32 y_ptr=*fp32 n=i32 shift=i32";

typedef struct bufs {
    float x[256], y[256];
    ct_emu *e;
    int bx, by;
} bufs;

static void setup_bufs(bufs *b, int nx, int ny)
{
    for (int i = 0; i < 256; i++)
        b->x[i] = (float)i;
    b->e = ct_emu_new();
    b->bx = ct_emu_add_buffer(b->e, "x", b->x, sizeof(float) * (size_t)nx, CT_EMU_F32, CT_EMU_IN);
    b->by = ct_emu_add_buffer(b->e, "y", b->y, sizeof(float) * (size_t)ny, CT_EMU_F32, CT_EMU_OUT);
}

static void t_load_one_past_end(void **s)
{
    (void)s;
    /* 63 elements, a 64-wide block, no mask: lane 63 reads one past the end */
    ct_emu_kernel *k = emu_build(&k_shift_load, SIG4, "BLOCK=64 MASKED=False");
    bufs b;
    setup_bufs(&b, 63, 64);
    ct_emu_arg a[] = {ct_emu_ptr(b.bx), ct_emu_ptr(b.by), ct_emu_int(63), ct_emu_int(0)};
    ct_emu_result r;
    emu_go(b.e, k, 1, 1, 1, 1, 4, a, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_load, __FILE__);
    assert_int_equal(r.fault.lane, 63);
    assert_int_equal(r.fault.buffer, b.bx);
    assert_string_equal(r.fault.buffer_name, "x");
    assert_int_equal(r.fault.offset, 252);
    assert_int_equal(r.fault.pid[0], 0);
    assert_string_equal(r.fault.op, "tt.load");
    assert_non_null(strstr(r.fault.message, "k_shift_load"));
    ct_emu_free(b.e);
    ct_emu_kernel_free(k);
}

static void t_load_masked_but_shifted(void **s)
{
    (void)s;
    /* mask offs < n, but the pointer is offs + 1: lane n-1 reads x[n] */
    ct_emu_kernel *k = emu_build(&k_shift_load, SIG4, "BLOCK=32 MASKED=True");
    bufs b;
    setup_bufs(&b, 100, 100);
    ct_emu_arg a[] = {ct_emu_ptr(b.bx), ct_emu_ptr(b.by), ct_emu_int(100), ct_emu_int(1)};
    ct_emu_result r;
    emu_go(b.e, k, 4, 1, 1, 2, 4, a, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_load, __FILE__);
    assert_int_equal(r.fault.pid[0], 3); /* program 3 covers 96..127 */
    assert_int_equal(r.fault.lane, 3);   /* offs 99, reads x[100] */
    assert_int_equal(r.fault.offset, 400);
    ct_emu_free(b.e);
    ct_emu_kernel_free(k);
}

static void t_load_negative_offset(void **s)
{
    (void)s;
    ct_emu_kernel *k = emu_build(&k_shift_load, SIG4, "BLOCK=16 MASKED=True");
    bufs b;
    setup_bufs(&b, 64, 64);
    ct_emu_arg a[] = {ct_emu_ptr(b.bx), ct_emu_ptr(b.by), ct_emu_int(64), ct_emu_int(-1)};
    ct_emu_result r;
    emu_go(b.e, k, 4, 1, 1, 1, 4, a, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_load, __FILE__);
    assert_int_equal(r.fault.pid[0], 0);
    assert_int_equal(r.fault.lane, 0);
    assert_int_equal(r.fault.offset, -4);
    ct_emu_free(b.e);
    ct_emu_kernel_free(k);
}

static void t_masked_lanes_untouched(void **s)
{
    (void)s;
    /* lanes 1.. point 4000 bytes and more past the end but are masked off */
    ct_emu_kernel *k = emu_build(&k_masked_far, "x_ptr=*fp32 y_ptr=*fp32 n=i32", "BLOCK=16");
    bufs b;
    setup_bufs(&b, 1, 16);
    ct_emu_arg a[] = {ct_emu_ptr(b.bx), ct_emu_ptr(b.by), ct_emu_int(1)};
    ct_emu_result r;
    assert_int_equal(emu_go(b.e, k, 1, 1, 1, 1, 3, a, &r), CT_EMU_OK);
    assert_true(b.y[0] == 0.0f);
    for (int i = 1; i < 16; i++)
        assert_true(b.y[i] == -1.0f);
    ct_emu_free(b.e);
    ct_emu_kernel_free(k);
}

static void t_store_one_past_end(void **s)
{
    (void)s;
    ct_emu_kernel *k = emu_build(&k_shift_store, SIG4, "BLOCK=32");
    bufs b;
    setup_bufs(&b, 64, 64);
    ct_emu_arg a[] = {ct_emu_ptr(b.bx), ct_emu_ptr(b.by), ct_emu_int(64), ct_emu_int(1)};
    ct_emu_result r;
    emu_go(b.e, k, 2, 1, 1, 2, 4, a, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_store, __FILE__);
    assert_int_equal(r.fault.pid[0], 1);
    assert_int_equal(r.fault.lane, 31);
    assert_string_equal(r.fault.buffer_name, "y");
    assert_int_equal(r.fault.offset, 256);
    assert_string_equal(r.fault.op, "tt.store");
    /* the first program ran: y[1..32] written, y[0] still poisoned */
    ct_emu_report rep;
    ct_emu_buffer_report(b.e, b.by, &rep);
    assert_true(rep.unwritten > 0);
    ct_emu_free(b.e);
    ct_emu_kernel_free(k);
}

static void t_store_negative(void **s)
{
    (void)s;
    ct_emu_kernel *k = emu_build(&k_shift_store, SIG4, "BLOCK=32");
    bufs b;
    setup_bufs(&b, 64, 64);
    ct_emu_arg a[] = {ct_emu_ptr(b.bx), ct_emu_ptr(b.by), ct_emu_int(64), ct_emu_int(-40)};
    ct_emu_result r;
    emu_go(b.e, k, 2, 1, 1, 1, 4, a, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_store, __FILE__);
    assert_int_equal(r.fault.lane, 0);
    assert_int_equal(r.fault.offset, -160);
    ct_emu_free(b.e);
    ct_emu_kernel_free(k);
}

/* 64-bit offsets of 2^39 bytes and more from one buffer (issue 14): buffers live 2^40 bytes
 * apart, so without the windows' check y + 2^40 would be z's memory and y + 2^39 would be
 * named as z.  Every such store must fault naming y, whatever the offset, and leave x and z
 * untouched. */
static void t_wild_offsets(void **s)
{
    (void)s;
    ct_emu_kernel *k = emu_build(&k_shift_store, "x_ptr=*fp32 y_ptr=*fp32 n=i32 shift=i64", "BLOCK=16");
    static const int64_t shifts[] = {
        (int64_t)1 << 38,        /* 2^40 bytes: the next buffer's base */
        ((int64_t)1 << 38) + 16, /* inside the next buffer */
        (int64_t)1 << 37,        /* 2^39 bytes: where the next buffer's window starts */
        ((int64_t)1 << 37) - 16, /* just short of it: still y's window */
        -((int64_t)1 << 38),     /* 2^40 bytes down: the previous buffer's base */
        -((int64_t)1 << 37),     /* 2^39 bytes down */
        (int64_t)1 << 60,        /* far out */
        INT64_MIN / 4,
    };
    for (size_t i = 0; i < sizeof shifts / sizeof shifts[0]; i++) {
        bufs b;
        setup_bufs(&b, 64, 64);
        float z[64];
        for (int j = 0; j < 64; j++)
            z[j] = 7.0f;
        int bz = ct_emu_add_buffer(b.e, "z", z, sizeof z, CT_EMU_F32, CT_EMU_INOUT);
        assert_true(bz == b.by + 1);
        ct_emu_arg a[] = {ct_emu_ptr(b.bx), ct_emu_ptr(b.by), ct_emu_int(16), ct_emu_int(shifts[i])};
        ct_emu_result r;
        emu_go(b.e, k, 1, 1, 1, 1, 4, a, &r);
        if (r.status != CT_EMU_ERR_OOB || strcmp(r.fault.buffer_name, "y"))
            fprintf(stderr, "shift %lld: %s: %s\n", (long long)shifts[i],
                    ct_emu_status_name(r.status), r.fault.message);
        expect_fault(&r, CT_EMU_ERR_OOB, L_store, __FILE__);
        assert_string_equal(r.fault.buffer_name, "y");
        assert_int_equal(r.fault.buffer, b.by);
        for (int j = 0; j < 64; j++) {
            assert_true(z[j] == 7.0f);
            assert_true(b.x[j] == (float)j);
        }
        ct_emu_free(b.e);
    }
    ct_emu_kernel_free(k);
}

static void t_atomic_oob(void **s)
{
    (void)s;
    ct_emu_kernel *k = emu_build(&k_atomic, "x_ptr=*fp32 acc_ptr=*fp32 n=i32 shift=i32", "BLOCK=32");
    float x[32], acc[32] = {0};
    for (int i = 0; i < 32; i++)
        x[i] = 1;
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN);
    int ba = ct_emu_add_buffer(e, "acc", acc, sizeof acc, CT_EMU_F32, CT_EMU_INOUT);
    ct_emu_result r;
    /* in bounds first: atomics add 1 to each */
    ct_emu_arg a0[] = {ct_emu_ptr(bx), ct_emu_ptr(ba), ct_emu_int(32), ct_emu_int(0)};
    assert_int_equal(emu_go(e, k, 1, 1, 1, 1, 4, a0, &r), CT_EMU_OK);
    assert_true(acc[0] == 1 && acc[31] == 1);
    ct_emu_arg a[] = {ct_emu_ptr(bx), ct_emu_ptr(ba), ct_emu_int(32), ct_emu_int(16)};
    emu_go(e, k, 1, 1, 1, 1, 4, a, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_atomic, __FILE__);
    assert_int_equal(r.fault.lane, 16);
    assert_int_equal(r.fault.offset, 128);
    assert_string_equal(r.fault.op, "tt.atomic_rmw");
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

static void t_tile_2d(void **s)
{
    (void)s;
    /* a 15 x 16 matrix read in 16 x 16 tiles with only columns masked: row 15 is out */
    ct_emu_kernel *k = emu_build(&k_tile, "a_ptr=*fp32 b_ptr=*fp32 M=i32 N=i32 stride=i32",
                                 "BM=16 BN=16 MASK_ROWS=False");
    float a[15 * 16], b[15 * 16];
    for (int i = 0; i < 15 * 16; i++)
        a[i] = (float)i;
    ct_emu *e = ct_emu_new();
    int ia = ct_emu_add_buffer(e, "a", a, sizeof a, CT_EMU_F32, CT_EMU_IN);
    int ib = ct_emu_add_buffer(e, "b", b, sizeof b, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg args[] = {ct_emu_ptr(ia), ct_emu_ptr(ib), ct_emu_int(15), ct_emu_int(16),
                         ct_emu_int(16)};
    ct_emu_result r;
    emu_go(e, k, 1, 1, 1, 1, 5, args, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_tile, __FILE__);
    assert_int_equal(r.fault.lane, 15 * 16); /* row 15, column 0 of the tile */
    assert_int_equal(r.fault.offset, 15 * 16 * 4);
    ct_emu_kernel_free(k);
    /* with rows masked it runs, and copies the matrix */
    k = emu_build(&k_tile, "a_ptr=*fp32 b_ptr=*fp32 M=i32 N=i32 stride=i32",
                  "BM=16 BN=16 MASK_ROWS=True");
    assert_int_equal(emu_go(e, k, 1, 1, 1, 1, 5, args, &r), CT_EMU_OK);
    assert_memory_equal(a, b, sizeof a);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

static void t_tile_2d_grid(void **s)
{
    (void)s;
    /* program (0, 1) of a 2-D grid: columns 16..31 of a 16 x 20 matrix, columns masked by
     * N = 24 (wrong): column 20 of row 0 is element 20 = row 1 column 0, in bounds; but the
     * last row's column 20 is past the end */
    ct_emu_kernel *k = emu_build(&k_tile, "a_ptr=*fp32 b_ptr=*fp32 M=i32 N=i32 stride=i32",
                                 "BM=16 BN=16 MASK_ROWS=True");
    static float a[16 * 20], b[16 * 20];
    ct_emu *e = ct_emu_new();
    int ia = ct_emu_add_buffer(e, "a", a, sizeof a, CT_EMU_F32, CT_EMU_IN);
    int ib = ct_emu_add_buffer(e, "b", b, sizeof b, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg args[] = {ct_emu_ptr(ia), ct_emu_ptr(ib), ct_emu_int(16), ct_emu_int(24),
                         ct_emu_int(20)};
    ct_emu_result r;
    emu_go(e, k, 1, 2, 1, 2, 5, args, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_tile, __FILE__);
    assert_int_equal(r.fault.pid[0], 0);
    assert_int_equal(r.fault.pid[1], 1);
    assert_int_equal(r.fault.lane, 15 * 16 + 4); /* row 15, column 20 */
    assert_int_equal(r.fault.offset, (15 * 20 + 20) * 4);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

static void t_tile_rows(void **s)
{
    (void)s;
    /* a 12 x 40 matrix (row stride 40) in 16 x 16 tiles: each tile's rows are blocks of memory
     * 40 elements apart; rows >= 12 and columns >= 40 are masked; tile column 2 also writes
     * its loaded tile (`other` = -1 where masked) densely at the start of b */
    ct_emu_kernel *k = emu_build(&k_tile_other, "a_ptr=*fp32 b_ptr=*fp32 M=i32 N=i32 stride=i32",
                                 "BM=16 BN=16");
    static float a[12 * 40], b[12 * 40];
    for (int i = 0; i < 12 * 40; i++) {
        a[i] = (float)i;
        b[i] = 7;
    }
    ct_emu *e = ct_emu_new();
    int ia = ct_emu_add_buffer(e, "a", a, sizeof a, CT_EMU_F32, CT_EMU_IN);
    int ib = ct_emu_add_buffer(e, "b", b, sizeof b, CT_EMU_F32, CT_EMU_INOUT);
    ct_emu_arg args[] = {ct_emu_ptr(ia), ct_emu_ptr(ib), ct_emu_int(12), ct_emu_int(40),
                         ct_emu_int(40)};
    ct_emu_result r;
    /* tile column 2 runs last (programs in order, one thread): its dense copy wins */
    assert_int_equal(emu_go(e, k, 1, 3, 1, 1, 5, args, &r), CT_EMU_OK);
    for (int i = 0; i < 12 * 16; i++) {
        int row = i / 16, col = 32 + i % 16;
        float want = col < 40 ? a[row * 40 + col] : -1.0f;
        assert_true(b[i] == want);
    }
    for (int i = 12 * 16; i < 12 * 40; i++)
        assert_true(b[i] == a[i] + 1000);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

/* y[r, j] = x[idx[r, j]]: a gather whose index tile the test shapes (R x L) */
TL_KERNEL(k_gather_tile, (x_ptr, idx_ptr, y_ptr), (int, R), (int, L))
{
    tl_tensor offs = tl_add(tl_mul(tl_idx(tl_arange(0, R), ":, None"), L),
                            tl_idx(tl_arange(0, L), "None, :"));
    tl_tensor idx = tl_load(tl_add(idx_ptr, offs));
    tl_store(tl_add(y_ptr, offs), tl_load(tl_add(x_ptr, idx)));
}

/* The load path that takes a tensor of pointers for rows at a constant stride (one bounds
 * check, row copies) must not take a tensor that is such a tile but for one lane: a perfect
 * tile (strides forward and backward), then one lane moved in the first row, a middle row and
 * the last lane, for rows of 16 lanes (the vector check) and of 4 (the scalar one). */
static void t_tile_detection(void **s)
{
    (void)s;
    static float x[4096], y[256];
    static int32_t idx[256];
    for (int i = 0; i < 4096; i++)
        x[i] = (float)i;
    static const int shapes[][2] = {{16, 16}, {64, 4}};
    for (int si = 0; si < 2; si++) {
        int R = shapes[si][0], L = shapes[si][1];
        char cx[64];
        snprintf(cx, sizeof cx, "R=%d L=%d", R, L);
        ct_emu_kernel *k = emu_build(&k_gather_tile, "x_ptr=*fp32 idx_ptr=*i32 y_ptr=*fp32", cx);
        /* stride, base, then the lane moved (-1: none) and where to */
        static const int cases[][4] = {
            {40, 0, -1, 0}, {-40, 3000, -1, 0}, {40, 0, 3, 7}, {40, 0, -2, 9}, {40, 0, -3, 1}};
        for (int c = 0; c < 5; c++) {
            int S = cases[c][0], base = cases[c][1];
            for (int r = 0; r < R; r++)
                for (int j = 0; j < L; j++)
                    idx[r * L + j] = base + r * S + j;
            int lane = cases[c][2] == -2 ? (R / 2) * L + 1 : cases[c][2] == -3 ? R * L - 1 : cases[c][2];
            if (lane >= 0)
                idx[lane] += cases[c][3];
            ct_emu *e = ct_emu_new();
            ct_emu_arg args[] = {
                ct_emu_ptr(ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "idx", idx, sizeof(int32_t) * (size_t)(R * L), CT_EMU_I32, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "y", y, sizeof(float) * (size_t)(R * L), CT_EMU_F32, CT_EMU_OUT))};
            ct_emu_result r;
            assert_int_equal(emu_go(e, k, 1, 1, 1, 1, 3, args, &r), CT_EMU_OK);
            for (int i = 0; i < R * L; i++)
                if (y[i] != (float)idx[i])
                    fail_msg("%dx%d case %d: lane %d loaded %g, want x[%d]", R, L, c, i, y[i], idx[i]);
            ct_emu_free(e);
        }
        ct_emu_kernel_free(k);
    }
}

/* A gather with every lane in one buffer takes one bounds check for the span of its lanes
 * (transposed tiles, permutations): values in lane order, and when one lane leaves the buffer
 * (one past the end, one before the start, far past it, another buffer next to it) the
 * lane-by-lane path still names that lane */
static void t_gather_span(void **s)
{
    (void)s;
    static float x[4096], y[256], x2[64];
    static int32_t idx[256];
    for (int i = 0; i < 4096; i++)
        x[i] = (float)i;
    ct_emu_kernel *k = emu_build(&k_gather_tile, "x_ptr=*fp32 idx_ptr=*i32 y_ptr=*fp32", "R=16 L=16");
    /* a transposed 16 x 16 tile of rows 64 apart, then a permutation */
    for (int r = 0; r < 16; r++)
        for (int j = 0; j < 16; j++)
            idx[r * 16 + j] = j * 64 + r;
    for (int c = 0; c < 5; c++) {
        if (c == 1)
            for (int i = 0; i < 256; i++)
                idx[i] = (i * 2731 + 17) % 4096;
        int lane = c == 2 ? 37 : c == 3 ? 200 : c == 4 ? 255 : -1, saved = 0;
        if (lane >= 0) {
            saved = idx[lane];
            idx[lane] = c == 2 ? 4096 : c == 3 ? -1 : 1 << 24; /* one past, one before, far past */
        }
        ct_emu *e = ct_emu_new();
        ct_emu_arg args[] = {
            ct_emu_ptr(ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN)),
            ct_emu_ptr(ct_emu_add_buffer(e, "idx", idx, sizeof idx, CT_EMU_I32, CT_EMU_IN)),
            ct_emu_ptr(ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT))};
        ct_emu_add_buffer(e, "x2", x2, sizeof x2, CT_EMU_F32, CT_EMU_IN);
        ct_emu_result r;
        emu_go(e, k, 1, 1, 1, 1, 3, args, &r);
        if (lane < 0) {
            assert_int_equal(r.status, CT_EMU_OK);
            for (int i = 0; i < 256; i++)
                if (y[i] != (float)idx[i])
                    fail_msg("case %d: lane %d loaded %g, want x[%d]", c, i, y[i], idx[i]);
        } else {
            assert_int_equal(r.status, CT_EMU_ERR_OOB);
            assert_int_equal(r.fault.lane, lane);
            assert_string_equal(r.fault.buffer_name, "x");
            assert_int_equal(r.fault.offset, 4 * (int64_t)idx[lane]);
            idx[lane] = saved;
        }
        ct_emu_free(e);
    }
    ct_emu_kernel_free(k);
}

/* y[o] = sum over s < STEPS of x[offs_o + 3 s]: an outer loop whose inner loop carries a
 * pointer tensor and advances it by a constant (the emulator checks such pointers for a tile
 * once per entry of the inner loop, emu_cc_for); the start is a tile of rows 40 apart for
 * even o, the gather perm for odd o (the same but for one row), so every entry must look
 * again */
TL_KERNEL(k_carried, (x_ptr, perm_ptr, y_ptr), (int, R), (int, L), (int, STEPS), (int, OUTER))
{
    tl_tensor offs = tl_add(tl_mul(tl_idx(tl_arange(0, R), ":, None"), L),
                            tl_idx(tl_arange(0, L), "None, :"));
    tl_tensor tile = tl_add(tl_mul(tl_idx(tl_arange(0, R), ":, None"), 40),
                            tl_idx(tl_arange(0, L), "None, :"));
    tl_tensor perm = tl_load(tl_add(perm_ptr, offs));
    TL_FOR(o, tl_range(0, OUTER, 1))
    {
        tl_tensor p = tl_add(x_ptr, tl_where(tl_eq(tl_mod(o, 2), 0), tile, perm));
        tl_tensor acc = tl_zeros(tl_shape(R, L), tl_float32);
        TL_FOR(st, tl_range(0, STEPS, 1), p, acc)
        {
            (void)st;
            acc = tl_add(acc, tl_load(p)); MARK(L_carried);
            p = tl_add(p, 3);
        }
        tl_store(tl_add(y_ptr, tl_add(tl_mul(o, R * L), offs)), acc);
    }
}

/* the same inner loop, but p advances by a tensor of offsets (no tile after the first step):
 * no record may be kept for it */
TL_KERNEL(k_carried_moved, (x_ptr, delta_ptr, y_ptr), (int, R), (int, L), (int, STEPS))
{
    tl_tensor offs = tl_add(tl_mul(tl_idx(tl_arange(0, R), ":, None"), L),
                            tl_idx(tl_arange(0, L), "None, :"));
    tl_tensor p = tl_add(x_ptr, tl_add(tl_mul(tl_idx(tl_arange(0, R), ":, None"), 40),
                                       tl_idx(tl_arange(0, L), "None, :")));
    tl_tensor delta = tl_load(tl_add(delta_ptr, offs));
    tl_tensor acc = tl_zeros(tl_shape(R, L), tl_float32);
    TL_FOR(st, tl_range(0, STEPS, 1), p, acc)
    {
        (void)st;
        acc = tl_add(acc, tl_load(p));
        p = tl_add(p, delta);
    }
    tl_store(tl_add(y_ptr, offs), acc);
}

static void t_tile_loop_carried(void **s)
{
    (void)s;
    enum { R = 16, L = 16, STEPS = 5, OUTER = 4 };
    static float x[1024], y[OUTER * R * L];
    static int32_t perm[R * L];
    for (int i = 0; i < 1024; i++)
        x[i] = (float)i;
    for (int i = 0; i < R * L; i++) /* the tile but for row 7, whose lanes are reversed */
        perm[i] = (i / L) * 40 + (i / L == 7 ? L - 1 - i % L : i % L);
    ct_emu_kernel *k = emu_build(&k_carried, "x_ptr=*fp32 perm_ptr=*i32 y_ptr=*fp32",
                                 "R=16 L=16 STEPS=5 OUTER=4");
    ct_emu *e = ct_emu_new();
    int ix = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN);
    ct_emu_arg args[] = {
        ct_emu_ptr(ix),
        ct_emu_ptr(ct_emu_add_buffer(e, "perm", perm, sizeof perm, CT_EMU_I32, CT_EMU_IN)),
        ct_emu_ptr(ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT))};
    ct_emu_result r;
    for (int rep = 0; rep < 2; rep++) { /* the second run reuses the frame and its records */
        assert_int_equal(emu_go(e, k, 1, 1, 1, 1, 3, args, &r), CT_EMU_OK);
        for (int o = 0; o < OUTER; o++)
            for (int i = 0; i < R * L; i++) {
                int off = o % 2 == 0 ? (i / L) * 40 + i % L : perm[i];
                float want = (float)(STEPS * off + 3 * STEPS * (STEPS - 1) / 2);
                if (y[o * R * L + i] != want)
                    fail_msg("outer %d lane %d: %g, want %g", o, i, y[o * R * L + i], want);
            }
    }
    ct_emu_free(e);

    /* advanced by a tensor: row 7's lanes j move by 15 - 2 j each step */
    {
        static int32_t delta[R * L];
        for (int i = 0; i < R * L; i++)
            delta[i] = i / L == 7 ? L - 1 - 2 * (i % L) : 0;
        ct_emu_kernel *k2 = emu_build(&k_carried_moved, "x_ptr=*fp32 delta_ptr=*i32 y_ptr=*fp32",
                                      "R=16 L=16 STEPS=3");
        e = ct_emu_new();
        ct_emu_arg a2[] = {
            ct_emu_ptr(ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN)),
            ct_emu_ptr(ct_emu_add_buffer(e, "delta", delta, sizeof delta, CT_EMU_I32, CT_EMU_IN)),
            ct_emu_ptr(ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT))};
        assert_int_equal(emu_go(e, k2, 1, 1, 1, 1, 3, a2, &r), CT_EMU_OK);
        for (int i = 0; i < R * L; i++) {
            int off = (i / L) * 40 + i % L;
            float want = (float)(3 * off + 3 * delta[i]); /* off + (off + d) + (off + 2 d) */
            if (y[i] != want)
                fail_msg("moved: lane %d: %g, want %g", i, y[i], want);
        }
        ct_emu_free(e);
        ct_emu_kernel_free(k2);
    }

    /* a tile that the loop advances past the end of x: the load faults in the step that
     * leaves the buffer, naming the first lane outside it */
    static float small[15 * 40 + 16 + 2 * 3];
    e = ct_emu_new();
    ix = ct_emu_add_buffer(e, "x", small, sizeof small, CT_EMU_F32, CT_EMU_IN);
    args[0] = ct_emu_ptr(ix);
    args[1] = ct_emu_ptr(ct_emu_add_buffer(e, "perm", perm, sizeof perm, CT_EMU_I32, CT_EMU_IN));
    args[2] = ct_emu_ptr(ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT));
    emu_go(e, k, 1, 1, 1, 1, 3, args, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_carried, __FILE__);
    /* x holds 15 * 40 + 15 + 1 + 6 elements: step 2 (offset 6) still fits, step 3 does
     * not; its last row's lanes 0..12 are inside, lane 13 is the first outside */
    assert_int_equal(r.fault.lane, 15 * 16 + 13);
    assert_int_equal(r.fault.offset, 4 * (15 * 40 + 13 + 9));
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

static void t_cas_and_scalar(void **s)
{
    (void)s;
    ct_emu_kernel *k = emu_build(&k_cas, "lock_ptr=*i32 idx=i32", "UNUSED=0");
    int32_t lock[4] = {0};
    ct_emu *e = ct_emu_new();
    int bl = ct_emu_add_buffer(e, "lock", lock, sizeof lock, CT_EMU_I32, CT_EMU_INOUT);
    ct_emu_result r;
    ct_emu_arg a0[] = {ct_emu_ptr(bl), ct_emu_int(2)};
    assert_int_equal(emu_go(e, k, 1, 1, 1, 1, 2, a0, &r), CT_EMU_OK);
    assert_int_equal(lock[2], 1);
    ct_emu_arg a1[] = {ct_emu_ptr(bl), ct_emu_int(4)};
    emu_go(e, k, 1, 1, 1, 1, 2, a1, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_cas, __FILE__);
    assert_int_equal(r.fault.offset, 16);
    assert_int_equal(r.fault.lane, -1); /* a scalar access names no lane */
    ct_emu_kernel_free(k);

    k = emu_build(&k_scalar, "x_ptr=*fp32 y_ptr=*fp32 i=i32", "UNUSED=0");
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[1];
    int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN);
    int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg a2[] = {ct_emu_ptr(bx), ct_emu_ptr(by), ct_emu_int(7)};
    assert_int_equal(emu_go(e, k, 1, 1, 1, 1, 3, a2, &r), CT_EMU_OK);
    assert_true(y[0] == 8);
    ct_emu_arg a3[] = {ct_emu_ptr(bx), ct_emu_ptr(by), ct_emu_int(8)};
    emu_go(e, k, 1, 1, 1, 1, 3, a3, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_scalar, __FILE__);
    assert_int_equal(r.fault.lane, -1);
    assert_int_equal(r.fault.offset, 32);
    /* a null pointer */
    ct_emu_arg a4[] = {ct_emu_ptr(-1), ct_emu_ptr(by), ct_emu_int(0)};
    emu_go(e, k, 1, 1, 1, 1, 3, a4, &r);
    expect_fault(&r, CT_EMU_ERR_NULL, L_scalar, __FILE__);
    assert_non_null(strstr(r.fault.message, "null"));
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

static void t_misaligned_and_readonly(void **s)
{
    (void)s;
    ct_emu_kernel *k = emu_build(&k_misaligned, "x_ptr=*fp32 y_ptr=*fp32", "UNUSED=0");
    float x[4] = {0}, y[1];
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN);
    int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg a[] = {ct_emu_ptr(bx), ct_emu_ptr(by)};
    ct_emu_result r;
    emu_go(e, k, 1, 1, 1, 1, 2, a, &r);
    expect_fault(&r, CT_EMU_ERR_MISALIGNED, L_mis, __FILE__);
    assert_int_equal(r.fault.offset, 2);
    ct_emu_kernel_free(k);

    k = emu_build(&k_write_input, "x_ptr=*fp32 n=i32", "BLOCK=4");
    ct_emu_arg b[] = {ct_emu_ptr(bx), ct_emu_int(4)};
    emu_go(e, k, 1, 1, 1, 1, 2, b, &r);
    expect_fault(&r, CT_EMU_ERR_READONLY, L_in, __FILE__);
    assert_true(x[0] == 0); /* untouched */
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

static void t_lowest_program_reported(void **s)
{
    (void)s;
    /* programs 3.. fault; with several threads the report is still program 3's */
    ct_emu_kernel *k = emu_build(&k_shift_load, SIG4, "BLOCK=16 MASKED=False");
    static float x[50], y[256];
    for (int threads = 1; threads <= 4; threads++) {
        ct_emu *e = ct_emu_new();
        int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN);
        int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT);
        ct_emu_arg a[] = {ct_emu_ptr(bx), ct_emu_ptr(by), ct_emu_int(256), ct_emu_int(0)};
        ct_emu_result r;
        emu_go(e, k, 16, 1, 1, threads, 4, a, &r);
        expect_fault(&r, CT_EMU_ERR_OOB, L_load, __FILE__);
        assert_int_equal(r.fault.pid[0], 3);
        assert_int_equal(r.fault.lane, 2);
        assert_true(r.programs >= 3);
        ct_emu_free(e);
    }
    ct_emu_kernel_free(k);
}

static void t_block_ptr(void **s)
{
    (void)s;
    enum { M = 10, N = 12 };
    const char *sig = "x_ptr=*fp32 y_ptr=*fp32 M=i32 N=i32";
    float x[M * N], y[M * N];
    for (int i = 0; i < M * N; i++)
        x[i] = (float)i;
    /* rows and columns checked: 3 programs of 4 x 16 cover the 10 x 12 matrix exactly once */
    ct_emu_kernel *k = emu_build(&k_block_ptr, sig, "BM=4 BN=16 CHECK_ROWS=True");
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN);
    int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg a[] = {ct_emu_ptr(bx), ct_emu_ptr(by), ct_emu_int(M), ct_emu_int(N)};
    ct_emu_result r;
    assert_int_equal(emu_go(e, k, 3, 1, 1, 2, 4, a, &r), CT_EMU_OK);
    for (int i = 0; i < M * N; i++)
        assert_true(y[i] == x[i] + 0.5f);
    ct_emu_kernel_free(k);
    /* rows unchecked: program 2 reads rows 8..11 of a 10-row matrix; row 10 starts at element
     * 120, one past the end, in lane 2 * 16 = 32 of the block */
    k = emu_build(&k_block_ptr, sig, "BM=4 BN=16 CHECK_ROWS=False");
    emu_go(e, k, 3, 1, 1, 1, 4, a, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_bload, __FILE__);
    assert_int_equal(r.fault.pid[0], 2);
    assert_int_equal(r.fault.lane, 32);
    assert_int_equal(r.fault.offset, 480);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

/* Block pointers whose shapes, strides and offsets reach the ends of i64 and i32 (issue 14):
 * the address arithmetic wraps as the GPU's does (it overflowed int64_t: UBSan aborted), a
 * row that leaves the buffer's window faults naming it, and a shape near 2^63 checks columns
 * without overflow. */
static void t_block_ptr_wide(void **s)
{
    (void)s;
    ct_emu_kernel *k = emu_build(&k_block_wide, "y_ptr=*fp32 M=i64 N=i64 SM=i64 OM=i32 ON=i32",
                                 "BM=2 BN=4");
    static const struct {
        int64_t m, n, sm;
        int32_t om, on;
        bool fault;
        int written; /* without a fault: the elements of y set to 1 */
    } cases[] = {
        {2, 4, 4, 0, 0, false, 8},                       /* in bounds */
        {2, 4, (int64_t)1 << 61, 0, 0, true, 0},         /* row 1 is 2^63 bytes away */
        {INT64_MAX, 4, INT64_MAX, INT32_MAX, 0, true, 0}, /* the offset's product wraps */
        {1, INT64_MAX, 4, 0, INT32_MIN, false, 0},        /* every column left of 0 */
        {1, INT64_MAX, 4, 0, INT32_MAX, true, 0},         /* inside the shape, past the buffer */
        {1, INT64_MAX, 4, 0, INT32_MAX - 1, true, 0},     /* the block crosses column 2^31 - 1 */
        {1, 2, 4, 0, -2, false, 0},                       /* columns -2 .. 1, shape 2: 0 and 1 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        float y[8] = {0}, z[8] = {0};
        ct_emu *e = ct_emu_new();
        int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_INOUT);
        ct_emu_add_buffer(e, "z", z, sizeof z, CT_EMU_F32, CT_EMU_INOUT);
        ct_emu_arg a[] = {ct_emu_ptr(by), ct_emu_int(cases[i].m), ct_emu_int(cases[i].n),
                          ct_emu_int(cases[i].sm), ct_emu_int(cases[i].om), ct_emu_int(cases[i].on)};
        ct_emu_result r;
        emu_go(e, k, 1, 1, 1, 1, 6, a, &r);
        if (cases[i].fault) {
            expect_fault(&r, CT_EMU_ERR_OOB, L_bwide, __FILE__);
            assert_string_equal(r.fault.buffer_name, "y");
        } else {
            if (r.status != CT_EMU_OK)
                fail_msg("case %zu: %s", i, r.fault.message);
            int ones = 0;
            for (int j = 0; j < 8; j++)
                ones += y[j] == 1.0f;
            int want = cases[i].written ? cases[i].written : cases[i].on == -2 ? 2 : 0;
            assert_int_equal(ones, want);
        }
        for (int j = 0; j < 8; j++)
            assert_true(z[j] == 0.0f);
        ct_emu_free(e);
    }
    ct_emu_kernel_free(k);
}

static void t_tensor_desc(void **s)
{
    (void)s;
    enum { M = 10, N = 16 };
    const char *sig = "x_ptr=*fp32 y_ptr=*fp32 M=i32 N=i32 SHAPE_M=i32";
    float x[M * N], y[M * N];
    for (int i = 0; i < M * N; i++)
        x[i] = (float)i;
    /* 3 programs of 4 x 16 rows, read 4 columns to the left: columns -4..-1 and rows 10, 11
     * are outside the tensor (NaN), and rows 10, 11 are not stored */
    ct_emu_kernel *k = emu_build(&k_desc, sig, "BM=4 BN=16 PAD='nan'");
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN);
    int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg a[] = {ct_emu_ptr(bx), ct_emu_ptr(by), ct_emu_int(M), ct_emu_int(N), ct_emu_int(M)};
    ct_emu_result r;
    assert_int_equal(emu_go(e, k, 3, 1, 1, 2, 5, a, &r), CT_EMU_OK);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            if (j < 4)
                assert_true(isnan(y[i * N + j]));
            else
                assert_true(y[i * N + j] == x[i * N + j - 4] + 0.5f);
        }
    ct_emu_kernel_free(k);
    /* the descriptor says 12 rows, the buffer has 10: row 10 (element 160) is outside it */
    k = emu_build(&k_desc, sig, "BM=4 BN=16 PAD='zero'");
    a[4] = ct_emu_int(12);
    emu_go(e, k, 3, 1, 1, 1, 5, a, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_dload, __FILE__);
    assert_int_equal(r.fault.pid[0], 2);
    assert_int_equal(r.fault.lane, 2 * 16 + 4);
    assert_int_equal(r.fault.offset, 640);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

/* desc.atomic_add into rows of a descriptor that claims more rows than the buffer has */
TL_KERNEL(k_desc_red, (x_ptr, M, N), (int, BM), (int, BN))
{
    tl_tensor d = tl_make_tensor_descriptor(x_ptr, tl_tuple(M, N), tl_tuple(N, 1), tl_shape(BM, BN));
    tl_tensor v = tl_full(tl_shape(BM, BN), 1.0, tl_float32);
    tl_desc_atomic_add(d, tl_tuple(tl_mul(tl_program_id(0), BM), 0), v); MARK(L_dred);
}

/* TMA reductions: Python's and the C port of the conformance kernel ops_desc_atomic give the
 * C reference (elements outside the tensor untouched; two launches accumulate); a reduction
 * past the end of its buffer faults with its line */
static void run_desc_atomic(ct_module *m, float *a, int32_t *iv, int M, int N)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_emu_kernel *k = m ? ct_emu_compile(m, "ops_desc_atomic", &d) : NULL;
    if (!k)
        ct_diags_print(&d, stderr, true);
    assert_non_null(k);
    ct_diags_free(&d);
    ct_emu *e = ct_emu_new();
    ct_emu_arg args[] = {
        ct_emu_ptr(ct_emu_add_buffer(e, "a", a, sizeof(float) * (size_t)(M * N), CT_EMU_F32, CT_EMU_INOUT)),
        ct_emu_ptr(ct_emu_add_buffer(e, "i", iv, sizeof(int32_t) * (size_t)(M * N), CT_EMU_I32, CT_EMU_INOUT)),
        ct_emu_int(M), ct_emu_int(N), ct_emu_int(N)};
    ct_emu_result r;
    for (int rep = 0; rep < 2; rep++) {
        if (emu_go(e, k, 2, 3, 1, 2, 5, args, &r) != CT_EMU_OK)
            fail_msg("ops_desc_atomic: %s", r.fault.message);
    }
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

static void t_desc_atomic(void **s)
{
    (void)s;
    enum { M = 100, N = 80 };
    static float a[M * N], a2[M * N], want_a[M * N];
    static int32_t iv[M * N], iv2[M * N], want_i[M * N];
    for (int i = 0; i < M * N; i++) {
        a[i] = a2[i] = want_a[i] = (float)(i % 13) - 6.0f;
        iv[i] = iv2[i] = want_i[i] = (i * 7) % 61 - 30;
    }
    /* 2 x 3 programs of 64 x 32 cover 128 x 96; each element inside is reduced twice */
    for (int rep = 0; rep < 2; rep++)
        for (int r = 0; r < M; r++)
            for (int c = 0; c < N; c++) {
                int kk = (r % 64) * 3 - c % 32, at = r * N + c;
                want_a[at] += (float)kk * 0.5f;
                want_i[at] = want_i[at] > kk ? want_i[at] : kk;
                want_i[at] = want_i[at] < kk + 40 ? want_i[at] : kk + 40;
                want_i[at] ^= kk & 7;
            }
    const ct_kernel_entry *ke = tu_kernel("ops_desc_atomic");
    assert_non_null(ke);
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build_config(ke->def, ct_kernel_config(ke, "64x32_tail"), &d);
    ct_diags_free(&d);
    run_desc_atomic(m, a, iv, M, N);
    ct_module_destroy(m);
    assert_memory_equal(a, want_a, sizeof a);
    assert_memory_equal(iv, want_i, sizeof iv);
    /* Python's raw TTIR */
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/golden/ops_desc_atomic/64x32_tail/py.source",
             getenv("CTRITON_SOURCE_DIR") ? getenv("CTRITON_SOURCE_DIR") : CTRITON_SOURCE_DIR);
    ct_diags_init(&d);
    ct_module *py = ct_parse_file(path, &d);
    if (!py)
        ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    run_desc_atomic(py, a2, iv2, M, N);
    ct_module_destroy(py);
    assert_memory_equal(a2, want_a, sizeof a2);
    assert_memory_equal(iv2, want_i, sizeof iv2);

    /* the descriptor says 12 rows, the buffer has 10: program 2's rows 10, 11 are outside */
    float x[10 * 16];
    memset(x, 0, sizeof x);
    ct_emu_kernel *k = emu_build(&k_desc_red, "x_ptr=*fp32 M=i32 N=i32", "BM=4 BN=16");
    ct_emu *e = ct_emu_new();
    ct_emu_arg xa[] = {ct_emu_ptr(ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_INOUT)),
                       ct_emu_int(12), ct_emu_int(16)};
    ct_emu_result r;
    emu_go(e, k, 3, 1, 1, 1, 3, xa, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_dred, __FILE__);
    assert_int_equal(r.fault.pid[0], 2);
    assert_int_equal(r.fault.lane, 2 * 16);
    assert_int_equal(r.fault.offset, 640);
    assert_non_null(strstr(r.fault.message, "atomic on buffer `x`"));
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

static void t_host_desc(void **s)
{
    (void)s;
    enum { M = 10, N = 16 };
    float x[M * N], y[M * N];
    for (int i = 0; i < M * N; i++)
        x[i] = (float)i;
    ct_emu_kernel *k = emu_build(&k_host_desc, "xd=tensordesc<fp32[4,16]> yd=tensordesc<fp32[4,16]>", "BM=4");
    assert_int_equal(ct_emu_kernel_nparams(k), 10); /* each: the descriptor, 2 shapes, 2 strides */
    assert_int_equal(ct_emu_kernel_param(k, 0)->kind, CT_EMU_PARAM_DESC);
    assert_int_equal(ct_emu_kernel_param(k, 0)->rank, 2);
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN);
    int by = ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg a[] = {ct_emu_ptr(bx), ct_emu_int(M), ct_emu_int(N), ct_emu_int(N), ct_emu_int(1),
                      ct_emu_ptr(by), ct_emu_int(M), ct_emu_int(N), ct_emu_int(N), ct_emu_int(1)};
    ct_emu_result r;
    assert_int_equal(emu_go(e, k, 3, 1, 1, 2, 10, a, &r), CT_EMU_OK);
    for (int i = 0; i < M * N; i++)
        assert_true(y[i] == x[i] + 0.5f);
    /* a descriptor of 12 rows over a buffer of 10: row 10 of x is outside the buffer */
    a[1] = ct_emu_int(12);
    emu_go(e, k, 3, 1, 1, 1, 10, a, &r);
    expect_fault(&r, CT_EMU_ERR_OOB, L_hload, __FILE__);
    assert_int_equal(r.fault.pid[0], 2);
    assert_int_equal(r.fault.lane, 32);
    /* the last stride must be 1, and the descriptor needs a buffer */
    a[1] = ct_emu_int(M);
    a[4] = ct_emu_int(2);
    assert_int_equal(emu_go(e, k, 3, 1, 1, 1, 10, a, &r), CT_EMU_ERR_ARGS);
    assert_non_null(strstr(r.fault.message, "last stride must be 1"));
    a[4] = ct_emu_int(1);
    a[0] = ct_emu_int(0);
    assert_int_equal(emu_go(e, k, 3, 1, 1, 1, 10, a, &r), CT_EMU_ERR_ARGS);
    assert_non_null(strstr(r.fault.message, "tensor descriptor"));
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_load_one_past_end),      cmocka_unit_test(t_load_masked_but_shifted),
        cmocka_unit_test(t_load_negative_offset),   cmocka_unit_test(t_masked_lanes_untouched),
        cmocka_unit_test(t_store_one_past_end),     cmocka_unit_test(t_store_negative),
        cmocka_unit_test(t_wild_offsets),
        cmocka_unit_test(t_atomic_oob),             cmocka_unit_test(t_tile_2d),
        cmocka_unit_test(t_tile_2d_grid), cmocka_unit_test(t_tile_rows), cmocka_unit_test(t_tile_detection), cmocka_unit_test(t_gather_span), cmocka_unit_test(t_tile_loop_carried),
        cmocka_unit_test(t_cas_and_scalar),
        cmocka_unit_test(t_misaligned_and_readonly), cmocka_unit_test(t_lowest_program_reported),
        cmocka_unit_test(t_block_ptr), cmocka_unit_test(t_block_ptr_wide), cmocka_unit_test(t_tensor_desc),
        cmocka_unit_test(t_host_desc), cmocka_unit_test(t_desc_atomic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
