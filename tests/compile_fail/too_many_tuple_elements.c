/* Must NOT compile: a tl_tuple of 65 elements, one past TL_MAX_ARGS (64); the compiler's error names the
 * limit (tl_limit_64_arguments_exceeded).  Checked by CTest (tests/CMakeLists.txt). */
#include "ctriton/tl.h"

TL_KERNEL(k, (x_ptr))
{
    tl_tensor x = tl_load(x_ptr);
    tl_tensor v0 = x, v1 = x, v2 = x, v3 = x, v4 = x, v5 = x, v6 = x, v7 = x, v8 = x, v9 = x, v10 = x, v11 = x, v12 = x, v13 = x, v14 = x, v15 = x, v16 = x, v17 = x, v18 = x, v19 = x, v20 = x, v21 = x, v22 = x, v23 = x, v24 = x, v25 = x, v26 = x, v27 = x, v28 = x, v29 = x, v30 = x, v31 = x, v32 = x, v33 = x, v34 = x, v35 = x, v36 = x, v37 = x, v38 = x, v39 = x, v40 = x, v41 = x, v42 = x, v43 = x, v44 = x, v45 = x, v46 = x, v47 = x, v48 = x, v49 = x, v50 = x, v51 = x, v52 = x, v53 = x, v54 = x, v55 = x, v56 = x, v57 = x, v58 = x, v59 = x, v60 = x, v61 = x, v62 = x, v63 = x, v64 = x;
    tl_tuple_t t = tl_tuple(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63, v64);
    tl_store(x_ptr, t.v[0]);
}
