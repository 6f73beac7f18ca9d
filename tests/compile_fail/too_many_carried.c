/* Must NOT compile: a TL_FOR carrying 65 variables, one past TL_MAX_ARGS (64); the
 * compiler's error names the limit (tl_limit_64_arguments_exceeded).  Checked by CTest
 * (tests/CMakeLists.txt). */
#include "ctriton/tl.h"

TL_KERNEL(too_many_carried, (x_ptr, n))
{
    tl_tensor v0 = tl_load(x_ptr), v1 = tl_load(x_ptr), v2 = tl_load(x_ptr), v3 = tl_load(x_ptr), v4 = tl_load(x_ptr), v5 = tl_load(x_ptr), v6 = tl_load(x_ptr), v7 = tl_load(x_ptr), v8 = tl_load(x_ptr), v9 = tl_load(x_ptr), v10 = tl_load(x_ptr), v11 = tl_load(x_ptr), v12 = tl_load(x_ptr), v13 = tl_load(x_ptr), v14 = tl_load(x_ptr), v15 = tl_load(x_ptr), v16 = tl_load(x_ptr), v17 = tl_load(x_ptr), v18 = tl_load(x_ptr), v19 = tl_load(x_ptr), v20 = tl_load(x_ptr), v21 = tl_load(x_ptr), v22 = tl_load(x_ptr), v23 = tl_load(x_ptr), v24 = tl_load(x_ptr), v25 = tl_load(x_ptr), v26 = tl_load(x_ptr), v27 = tl_load(x_ptr), v28 = tl_load(x_ptr), v29 = tl_load(x_ptr), v30 = tl_load(x_ptr), v31 = tl_load(x_ptr), v32 = tl_load(x_ptr), v33 = tl_load(x_ptr), v34 = tl_load(x_ptr), v35 = tl_load(x_ptr), v36 = tl_load(x_ptr), v37 = tl_load(x_ptr), v38 = tl_load(x_ptr), v39 = tl_load(x_ptr), v40 = tl_load(x_ptr), v41 = tl_load(x_ptr), v42 = tl_load(x_ptr), v43 = tl_load(x_ptr), v44 = tl_load(x_ptr), v45 = tl_load(x_ptr), v46 = tl_load(x_ptr), v47 = tl_load(x_ptr), v48 = tl_load(x_ptr), v49 = tl_load(x_ptr), v50 = tl_load(x_ptr), v51 = tl_load(x_ptr), v52 = tl_load(x_ptr), v53 = tl_load(x_ptr), v54 = tl_load(x_ptr), v55 = tl_load(x_ptr), v56 = tl_load(x_ptr), v57 = tl_load(x_ptr), v58 = tl_load(x_ptr), v59 = tl_load(x_ptr), v60 = tl_load(x_ptr), v61 = tl_load(x_ptr), v62 = tl_load(x_ptr), v63 = tl_load(x_ptr), v64 = tl_load(x_ptr);
    TL_FOR(k, tl_range(0, n, 1), v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63, v64) {
        v0 = tl_add(v0, 1);
    }
    tl_store(x_ptr, v0);
}
