/* Cross entropy forward with its gradient written over the logits in place (online
 * softmax over the vocabulary in blocks, ignore index, label smoothing).
 * Python original: kernels/py/cross_entropy.py */
#include <math.h>

#include "kernels.h"

TL_KERNEL(cross_entropy_fwd_bwd_kernel, (logits_ptr, labels_ptr, loss_ptr, row_stride, n_cols, ignore_index,
                                         label_smoothing, grad_scale), (int, BLOCK_SIZE))
{
    tl_tensor row = tl_to(tl_program_id(0), tl_int64);
    logits_ptr = tl_add(logits_ptr, tl_mul(row, row_stride));
    tl_tensor label = tl_load(tl_add(labels_ptr, row));
    tl_tensor counted = tl_ne(label, ignore_index);
    // the label's logit, read before the row is overwritten
    tl_tensor x_label = tl_to(tl_load(tl_add(logits_ptr, label), .mask = counted, .other = tl_c(0.)), tl_float32);
    // online softmax: m the running maximum, d the sum of exp(x - m), s the sum of x
    tl_tensor m = tl_to_tensor(-INFINITY);
    tl_tensor d = tl_to_tensor(0.);
    tl_tensor s = tl_to_tensor(0.);
    TL_FOR(off, tl_range(0, n_cols, BLOCK_SIZE), m, d, s) {
        tl_tensor cols = tl_add(off, tl_arange(0, BLOCK_SIZE));
        tl_tensor mask = tl_lt(cols, n_cols);
        tl_tensor x = tl_to(tl_load(tl_add(logits_ptr, cols), .mask = mask, .other = tl_c(-INFINITY)), tl_float32);
        tl_tensor m_new = tl_maximum(m, tl_max(x, .axis = 0));
        d = tl_add(tl_mul(d, tl_exp(tl_sub(m, m_new))), tl_sum(tl_exp(tl_sub(x, m_new)), .axis = 0));
        s = tl_add(s, tl_sum(tl_where(mask, x, 0.), .axis = 0));
        m = m_new;
    }
    tl_tensor lse = tl_add(m, tl_log(d));
    tl_tensor smooth = tl_div(label_smoothing, n_cols);
    tl_tensor loss = tl_sub(tl_sub(lse, tl_mul(tl_sub(1., label_smoothing), x_label)), tl_mul(smooth, s));
    tl_store(tl_add(loss_ptr, row), tl_where(counted, loss, 0.));
    // the gradient, in place: (softmax(x) - q) * grad_scale
    tl_tensor scale = tl_where(counted, grad_scale, 0.);
    TL_FOR(off, tl_range(0, n_cols, BLOCK_SIZE)) {
        tl_tensor cols = tl_add(off, tl_arange(0, BLOCK_SIZE));
        tl_tensor mask = tl_lt(cols, n_cols);
        tl_tensor x = tl_to(tl_load(tl_add(logits_ptr, cols), .mask = mask, .other = tl_c(0.)), tl_float32);
        tl_tensor p = tl_div(tl_exp(tl_sub(x, m)), d);
        tl_tensor g = tl_sub(tl_sub(p, smooth), tl_where(tl_eq(cols, label), tl_sub(1., label_smoothing), 0.));
        tl_store(tl_add(logits_ptr, cols), tl_to(tl_mul(g, scale), tl_element_ty(logits_ptr)), .mask = mask);
    }
}

TL_CONFIGS(cross_entropy_fwd_bwd_kernel,
    {.name = "bf16_V32000", .signature = "logits_ptr=*bf16:16 labels_ptr=*i64:16 loss_ptr=*fp32:16 row_stride=i32:16 "
                                         "n_cols=i32:16 ignore_index=i32 label_smoothing=fp32 grad_scale=fp32",
     .constexprs = "BLOCK_SIZE=4096", .problem = "M=6 V=32000 SMOOTHING=0.1", .num_warps = 8},
    {.name = "fp32_V1003_tail", .signature = "logits_ptr=*fp32:16 labels_ptr=*i64:16 loss_ptr=*fp32:16 row_stride=i32 "
                                             "n_cols=i32 ignore_index=i32 label_smoothing=fp32 grad_scale=fp32",
     .constexprs = "BLOCK_SIZE=256", .problem = "M=12 V=1003 SMOOTHING=0", .num_warps = 4},
    {.name = "fp16_V50257", .signature = "logits_ptr=*fp16:16 labels_ptr=*i64:16 loss_ptr=*fp32:16 row_stride=i32 "
                                         "n_cols=i32 ignore_index=i32 label_smoothing=fp32 grad_scale=fp32",
     .constexprs = "BLOCK_SIZE=2048", .problem = "M=4 V=50257 SMOOTHING=0.05", .num_warps = 8});
