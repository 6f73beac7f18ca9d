/* planted.c - libctriton_planted.so: kernels with a planted bug, which the sweep of
 * `ctriton run --sweep` must catch (tests/sweep/test_sweep.sh).
 *
 * planted_add_kernel is add_kernel (kernels/add.c) with an off-by-one mask,
 * `offsets <= n_elements`: the lane at offset n_elements reads and writes one element
 * past the end.  At the config's own size, a multiple of the block, no such lane is
 * in the grid and the kernel passes; 1, BLOCK-1, BLOCK+1 and any size that leaves a
 * partial block expose it. */
#include <ctriton/ref.h>
#include <ctriton/registry.h>

TL_KERNEL(planted_add_kernel, (x_ptr, y_ptr, output_ptr, n_elements), (int, BLOCK_SIZE))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor offsets = tl_add(tl_mul(pid, BLOCK_SIZE), tl_arange(0, BLOCK_SIZE));
    tl_tensor mask = tl_le(offsets, n_elements); /* the bug: < is right */
    tl_tensor x = tl_load(tl_add(x_ptr, offsets), .mask = mask);
    tl_tensor y = tl_load(tl_add(y_ptr, offsets), .mask = mask);
    tl_store(tl_add(output_ptr, offsets), tl_add(x, y), .mask = mask);
}

TL_CONFIGS(planted_add_kernel,
    {.name = "B256", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 output_ptr=*fp32:16 n_elements=i32:16",
     .constexprs = "BLOCK_SIZE=256", .problem = "N=1024", .num_warps = 4});

static bool setup(ct_ref_case *c)
{
    int64_t n = ct_ref_problem(c, "N", 1024);
    ct_ref_input(c, "x_ptr", CT_EMU_F32, n, -1, 1);
    ct_ref_input(c, "y_ptr", CT_EMU_F32, n, -1, 1);
    ct_ref_output(c, "output_ptr", CT_EMU_F32, n, 0, 0);
    ct_ref_int(c, "n_elements", n);
    c->grid[0] = (int)ct_ref_cdiv(n, ct_ref_constexpr(c, "BLOCK_SIZE", 256));
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *y = ct_ref_find_arg(c, "y_ptr");
    ct_ref_arg *o = ct_ref_find_arg(c, "output_ptr");
    for (int64_t i = 0; i < o->n; i++)
        ct_ref_want(o, i, (float)ct_ref_in(x, i) + (float)ct_ref_in(y, i));
}

static const ct_kernel_ref planted_add_kernel__ref = {"planted_add_kernel", setup, reference,
                                                      "N:BLOCK_SIZE"};

CT_KERNEL_PLUGIN
{
    CT_REGISTER_KERNEL(planted_add_kernel, NULL, &planted_add_kernel__ref);
}
