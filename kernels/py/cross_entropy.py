# Cross entropy of a row of logits over its vocabulary, forward and backward in
# one program per row: an online softmax (running maximum and running sum of
# exponentials) walks the row in BLOCK_SIZE chunks, the row's loss is stored,
# and a second walk overwrites the logits in place with the loss's gradient
# times grad_scale (1 / counted rows for a mean).  Label smoothing eps mixes
# the one-hot target with the uniform one: q = (1 - eps) [i == label] + eps / V,
# so loss = logsumexp(x) - (1 - eps) x[label] - eps / V sum(x) and the gradient
# is softmax(x) - q.  A row whose label is ignore_index gets loss 0 and a zero
# gradient.  The C port is kernels/cross_entropy.c.
import triton
import triton.language as tl


@triton.jit
def cross_entropy_fwd_bwd_kernel(logits_ptr, labels_ptr, loss_ptr, row_stride, n_cols, ignore_index,
                                 label_smoothing, grad_scale, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    logits_ptr += row * row_stride
    label = tl.load(labels_ptr + row)
    counted = label != ignore_index
    # the label's logit, read before the row is overwritten
    x_label = tl.load(logits_ptr + label, mask=counted, other=0.).to(tl.float32)
    # online softmax: m the running maximum, d the sum of exp(x - m), s the sum of x
    m = float("-inf")
    d = 0.
    s = 0.
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(logits_ptr + cols, mask=mask, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        s += tl.sum(tl.where(mask, x, 0.), axis=0)
        m = m_new
    lse = m + tl.log(d)
    smooth = label_smoothing / n_cols
    loss = lse - (1. - label_smoothing) * x_label - smooth * s
    tl.store(loss_ptr + row, tl.where(counted, loss, 0.))
    # the gradient, in place: (softmax(x) - q) * grad_scale
    scale = tl.where(counted, grad_scale, 0.)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(logits_ptr + cols, mask=mask, other=0.).to(tl.float32)
        p = tl.exp(x - m) / d
        g = p - smooth - tl.where(cols == label, 1. - label_smoothing, 0.)
        tl.store(logits_ptr + cols, (g * scale).to(logits_ptr.dtype.element_ty), mask=mask)
