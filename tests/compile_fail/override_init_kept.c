/* Must NOT compile under -Wextra -Werror (the flags CTest gives this file): an initializer
 * that overrides a field of the user's own code, after the kernel-language headers and a
 * kernel whose options override defaults.  ctriton turns the warning off inside its option
 * initializers only, so the user's -Woverride-init (-Winitializer-overrides) still reports
 * this one.  Checked by CTest (tests/CMakeLists.txt). */
#include "ctriton/tl.h"

struct user_opts {
    int a, b;
};

TL_KERNEL(k, (x_ptr, n))
{
    tl_tensor acc = tl_load(x_ptr, .mask = tl_lt(0, n), .other = tl_c(0.0));
    TL_FOR(i, tl_range(0, n, 1, .num_stages = 2), acc) {
        acc = tl_add(acc, i);
    }
    tl_store(x_ptr, acc);
}

struct user_opts user_default(void)
{
    struct user_opts o = {.a = 1, .b = 2, .a = 3};
    return o;
}
