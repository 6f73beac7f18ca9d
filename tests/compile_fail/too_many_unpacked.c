/* Must NOT compile: a TL_UNPACK into 65 variables, one past TL_MAX_ARGS (64); the compiler's error names the
 * limit (tl_limit_64_arguments_exceeded).  Checked by CTest (tests/CMakeLists.txt). */
#include "ctriton/tl.h"

TL_KERNEL(k, (x_ptr))
{
    tl_tensor x = tl_load(x_ptr);
    tl_tensor v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63, v64;
    TL_UNPACK(tl_tuple(x, x), v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63, v64);
    tl_store(x_ptr, v0);
}
