/* Must NOT compile: an optional tensor argument passed positionally
 * (Python's tl.dot(a, b, acc)); C spells it `.acc = acc`.  Checked by CTest
 * (tests/CMakeLists.txt), which expects the compiler to reject this file. */
#include "ctriton/tl.h"

TL_KERNEL(positional_acc, (a_ptr, b_ptr))
{
    tl_tensor r = tl_arange(0, 16);
    tl_tensor a = tl_load(tl_add(tl_add(a_ptr, tl_mul(tl_idx(r, ":, None"), 16)), tl_idx(r, "None, :")));
    tl_tensor b = tl_load(tl_add(tl_add(b_ptr, tl_mul(tl_idx(r, ":, None"), 16)), tl_idx(r, "None, :")));
    tl_tensor acc = tl_zeros(tl_shape(16, 16), tl_float32);
    acc = tl_dot(a, b, acc);
    (void)acc;
}
