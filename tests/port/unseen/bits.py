# Constructs one after another: a while loop, static_range, an AnnAssign'd
# constexpr, a dtype branch with elif, a tuple variable, a runtime if/else
# that defines a name in both branches, and builtin min of tensors.
# config: bits_kernel fp16 | x_ptr=*fp16:16 y_ptr=*fp32:16 n=i32 | BLOCK=128 STEPS=3
# config: bits_kernel fp32 | x_ptr=*fp32:16 y_ptr=*fp32:16 n=i32 | BLOCK=64 STEPS=2
import triton
import triton.language as tl


@triton.jit
def halves(x):
    return x * 0.5, x + 0.5


@triton.jit
def bits_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, STEPS: tl.constexpr):
    HALF: tl.constexpr = BLOCK // 2
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if x.dtype == tl.float16:
        x = x.to(tl.float32) * 2
    elif x.dtype == tl.bfloat16:
        x = x.to(tl.float32) * 3
    else:
        x = x + 1
    for i in tl.static_range(STEPS):
        x = x + i
    t = halves(x)
    a = t[0] + t[1]
    i = 0
    while i < n:
        a = a * 1.5
        i += HALF
    if pid % 2 == 0:
        b = a - 1
    else:
        b = a + 1
    c = min(a, b)
    tl.store(y_ptr + offs, c, mask=offs < n)
