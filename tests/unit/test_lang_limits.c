/*
 * test_lang_limits.c - the limits of the kernel language's lists (TL_MAX_ARGS,
 * 64 each: TL_KERNEL and TL_JIT parameters, TL_CALL arguments, the variables
 * TL_FOR / TL_WHILE / TL_IF carry, tl_tuple and TL_UNPACK elements), each
 * used at the limit, and None arguments as Triton's JIT specializes them
 * ("x=None": a constexpr None, gone from the signature, TL_NONE in the body,
 * Python's error text when the body uses it anyway), and constexpr defaults
 * (`BLOCK: tl.constexpr = 64` is (int, BLOCK, 64)).  Past a limit the
 * compiler refuses the file (tests/compile_fail/too_many_*.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ctriton/registry.h"
#include "ctriton/tl.h"
#include "ctriton/text.h"

static int line_of;

/* 64 runtime parameters: p0 a pointer, the rest ints, summed in order */
TL_KERNEL(k64_params, (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63))
{
    tl_tensor s = p1;
    s = tl_add(s, p2);
    s = tl_add(s, p3);
    s = tl_add(s, p4);
    s = tl_add(s, p5);
    s = tl_add(s, p6);
    s = tl_add(s, p7);
    s = tl_add(s, p8);
    s = tl_add(s, p9);
    s = tl_add(s, p10);
    s = tl_add(s, p11);
    s = tl_add(s, p12);
    s = tl_add(s, p13);
    s = tl_add(s, p14);
    s = tl_add(s, p15);
    s = tl_add(s, p16);
    s = tl_add(s, p17);
    s = tl_add(s, p18);
    s = tl_add(s, p19);
    s = tl_add(s, p20);
    s = tl_add(s, p21);
    s = tl_add(s, p22);
    s = tl_add(s, p23);
    s = tl_add(s, p24);
    s = tl_add(s, p25);
    s = tl_add(s, p26);
    s = tl_add(s, p27);
    s = tl_add(s, p28);
    s = tl_add(s, p29);
    s = tl_add(s, p30);
    s = tl_add(s, p31);
    s = tl_add(s, p32);
    s = tl_add(s, p33);
    s = tl_add(s, p34);
    s = tl_add(s, p35);
    s = tl_add(s, p36);
    s = tl_add(s, p37);
    s = tl_add(s, p38);
    s = tl_add(s, p39);
    s = tl_add(s, p40);
    s = tl_add(s, p41);
    s = tl_add(s, p42);
    s = tl_add(s, p43);
    s = tl_add(s, p44);
    s = tl_add(s, p45);
    s = tl_add(s, p46);
    s = tl_add(s, p47);
    s = tl_add(s, p48);
    s = tl_add(s, p49);
    s = tl_add(s, p50);
    s = tl_add(s, p51);
    s = tl_add(s, p52);
    s = tl_add(s, p53);
    s = tl_add(s, p54);
    s = tl_add(s, p55);
    s = tl_add(s, p56);
    s = tl_add(s, p57);
    s = tl_add(s, p58);
    s = tl_add(s, p59);
    s = tl_add(s, p60);
    s = tl_add(s, p61);
    s = tl_add(s, p62);
    s = tl_add(s, p63);
    tl_store(p0, s);
}

/* a @jit helper of 64 parameters, called with 64 arguments */
TL_JIT(sum64, (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63))
{
    tl_tensor s = p0;
    s = tl_add(s, p1);
    s = tl_add(s, p2);
    s = tl_add(s, p3);
    s = tl_add(s, p4);
    s = tl_add(s, p5);
    s = tl_add(s, p6);
    s = tl_add(s, p7);
    s = tl_add(s, p8);
    s = tl_add(s, p9);
    s = tl_add(s, p10);
    s = tl_add(s, p11);
    s = tl_add(s, p12);
    s = tl_add(s, p13);
    s = tl_add(s, p14);
    s = tl_add(s, p15);
    s = tl_add(s, p16);
    s = tl_add(s, p17);
    s = tl_add(s, p18);
    s = tl_add(s, p19);
    s = tl_add(s, p20);
    s = tl_add(s, p21);
    s = tl_add(s, p22);
    s = tl_add(s, p23);
    s = tl_add(s, p24);
    s = tl_add(s, p25);
    s = tl_add(s, p26);
    s = tl_add(s, p27);
    s = tl_add(s, p28);
    s = tl_add(s, p29);
    s = tl_add(s, p30);
    s = tl_add(s, p31);
    s = tl_add(s, p32);
    s = tl_add(s, p33);
    s = tl_add(s, p34);
    s = tl_add(s, p35);
    s = tl_add(s, p36);
    s = tl_add(s, p37);
    s = tl_add(s, p38);
    s = tl_add(s, p39);
    s = tl_add(s, p40);
    s = tl_add(s, p41);
    s = tl_add(s, p42);
    s = tl_add(s, p43);
    s = tl_add(s, p44);
    s = tl_add(s, p45);
    s = tl_add(s, p46);
    s = tl_add(s, p47);
    s = tl_add(s, p48);
    s = tl_add(s, p49);
    s = tl_add(s, p50);
    s = tl_add(s, p51);
    s = tl_add(s, p52);
    s = tl_add(s, p53);
    s = tl_add(s, p54);
    s = tl_add(s, p55);
    s = tl_add(s, p56);
    s = tl_add(s, p57);
    s = tl_add(s, p58);
    s = tl_add(s, p59);
    s = tl_add(s, p60);
    s = tl_add(s, p61);
    s = tl_add(s, p62);
    s = tl_add(s, p63);
    return s;
}

TL_JIT_TUPLE(split64, (x))
{
    return tl_tuple(tl_add(x, 0), tl_add(x, 1), tl_add(x, 2), tl_add(x, 3), tl_add(x, 4), tl_add(x, 5), tl_add(x, 6), tl_add(x, 7), tl_add(x, 8), tl_add(x, 9), tl_add(x, 10), tl_add(x, 11), tl_add(x, 12), tl_add(x, 13), tl_add(x, 14), tl_add(x, 15), tl_add(x, 16), tl_add(x, 17), tl_add(x, 18), tl_add(x, 19), tl_add(x, 20), tl_add(x, 21), tl_add(x, 22), tl_add(x, 23), tl_add(x, 24), tl_add(x, 25), tl_add(x, 26), tl_add(x, 27), tl_add(x, 28), tl_add(x, 29), tl_add(x, 30), tl_add(x, 31), tl_add(x, 32), tl_add(x, 33), tl_add(x, 34), tl_add(x, 35), tl_add(x, 36), tl_add(x, 37), tl_add(x, 38), tl_add(x, 39), tl_add(x, 40), tl_add(x, 41), tl_add(x, 42), tl_add(x, 43), tl_add(x, 44), tl_add(x, 45), tl_add(x, 46), tl_add(x, 47), tl_add(x, 48), tl_add(x, 49), tl_add(x, 50), tl_add(x, 51), tl_add(x, 52), tl_add(x, 53), tl_add(x, 54), tl_add(x, 55), tl_add(x, 56), tl_add(x, 57), tl_add(x, 58), tl_add(x, 59), tl_add(x, 60), tl_add(x, 61), tl_add(x, 62), tl_add(x, 63));
}

/* 64 variables carried by TL_FOR, TL_WHILE and TL_IF; a 64-tuple unpacked */
TL_KERNEL(k64_carried, (x_ptr, y_ptr, n))
{
    tl_tensor x = tl_load(x_ptr);
    tl_tensor v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63;
    TL_UNPACK(TL_CALL_TUPLE(split64, x), v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63);
    TL_FOR(k, tl_range(0, n, 1), v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63) {
        v0 = tl_add(v0, 0.0);
        v1 = tl_add(v1, 1.0);
        v2 = tl_add(v2, 2.0);
        v3 = tl_add(v3, 3.0);
        v4 = tl_add(v4, 4.0);
        v5 = tl_add(v5, 5.0);
        v6 = tl_add(v6, 6.0);
        v7 = tl_add(v7, 7.0);
        v8 = tl_add(v8, 8.0);
        v9 = tl_add(v9, 9.0);
        v10 = tl_add(v10, 10.0);
        v11 = tl_add(v11, 11.0);
        v12 = tl_add(v12, 12.0);
        v13 = tl_add(v13, 13.0);
        v14 = tl_add(v14, 14.0);
        v15 = tl_add(v15, 15.0);
        v16 = tl_add(v16, 16.0);
        v17 = tl_add(v17, 17.0);
        v18 = tl_add(v18, 18.0);
        v19 = tl_add(v19, 19.0);
        v20 = tl_add(v20, 20.0);
        v21 = tl_add(v21, 21.0);
        v22 = tl_add(v22, 22.0);
        v23 = tl_add(v23, 23.0);
        v24 = tl_add(v24, 24.0);
        v25 = tl_add(v25, 25.0);
        v26 = tl_add(v26, 26.0);
        v27 = tl_add(v27, 27.0);
        v28 = tl_add(v28, 28.0);
        v29 = tl_add(v29, 29.0);
        v30 = tl_add(v30, 30.0);
        v31 = tl_add(v31, 31.0);
        v32 = tl_add(v32, 32.0);
        v33 = tl_add(v33, 33.0);
        v34 = tl_add(v34, 34.0);
        v35 = tl_add(v35, 35.0);
        v36 = tl_add(v36, 36.0);
        v37 = tl_add(v37, 37.0);
        v38 = tl_add(v38, 38.0);
        v39 = tl_add(v39, 39.0);
        v40 = tl_add(v40, 40.0);
        v41 = tl_add(v41, 41.0);
        v42 = tl_add(v42, 42.0);
        v43 = tl_add(v43, 43.0);
        v44 = tl_add(v44, 44.0);
        v45 = tl_add(v45, 45.0);
        v46 = tl_add(v46, 46.0);
        v47 = tl_add(v47, 47.0);
        v48 = tl_add(v48, 48.0);
        v49 = tl_add(v49, 49.0);
        v50 = tl_add(v50, 50.0);
        v51 = tl_add(v51, 51.0);
        v52 = tl_add(v52, 52.0);
        v53 = tl_add(v53, 53.0);
        v54 = tl_add(v54, 54.0);
        v55 = tl_add(v55, 55.0);
        v56 = tl_add(v56, 56.0);
        v57 = tl_add(v57, 57.0);
        v58 = tl_add(v58, 58.0);
        v59 = tl_add(v59, 59.0);
        v60 = tl_add(v60, 60.0);
        v61 = tl_add(v61, 61.0);
        v62 = tl_add(v62, 62.0);
        v63 = tl_add(v63, 63.0);
    }
    tl_tensor i = tl_to_tensor(0);
    TL_WHILE(tl_lt(i, n), i, v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62) {
        v0 = tl_mul(v0, 2.0);
        v1 = tl_mul(v1, 2.0);
        v2 = tl_mul(v2, 2.0);
        v3 = tl_mul(v3, 2.0);
        v4 = tl_mul(v4, 2.0);
        v5 = tl_mul(v5, 2.0);
        v6 = tl_mul(v6, 2.0);
        v7 = tl_mul(v7, 2.0);
        v8 = tl_mul(v8, 2.0);
        v9 = tl_mul(v9, 2.0);
        v10 = tl_mul(v10, 2.0);
        v11 = tl_mul(v11, 2.0);
        v12 = tl_mul(v12, 2.0);
        v13 = tl_mul(v13, 2.0);
        v14 = tl_mul(v14, 2.0);
        v15 = tl_mul(v15, 2.0);
        v16 = tl_mul(v16, 2.0);
        v17 = tl_mul(v17, 2.0);
        v18 = tl_mul(v18, 2.0);
        v19 = tl_mul(v19, 2.0);
        v20 = tl_mul(v20, 2.0);
        v21 = tl_mul(v21, 2.0);
        v22 = tl_mul(v22, 2.0);
        v23 = tl_mul(v23, 2.0);
        v24 = tl_mul(v24, 2.0);
        v25 = tl_mul(v25, 2.0);
        v26 = tl_mul(v26, 2.0);
        v27 = tl_mul(v27, 2.0);
        v28 = tl_mul(v28, 2.0);
        v29 = tl_mul(v29, 2.0);
        v30 = tl_mul(v30, 2.0);
        v31 = tl_mul(v31, 2.0);
        v32 = tl_mul(v32, 2.0);
        v33 = tl_mul(v33, 2.0);
        v34 = tl_mul(v34, 2.0);
        v35 = tl_mul(v35, 2.0);
        v36 = tl_mul(v36, 2.0);
        v37 = tl_mul(v37, 2.0);
        v38 = tl_mul(v38, 2.0);
        v39 = tl_mul(v39, 2.0);
        v40 = tl_mul(v40, 2.0);
        v41 = tl_mul(v41, 2.0);
        v42 = tl_mul(v42, 2.0);
        v43 = tl_mul(v43, 2.0);
        v44 = tl_mul(v44, 2.0);
        v45 = tl_mul(v45, 2.0);
        v46 = tl_mul(v46, 2.0);
        v47 = tl_mul(v47, 2.0);
        v48 = tl_mul(v48, 2.0);
        v49 = tl_mul(v49, 2.0);
        v50 = tl_mul(v50, 2.0);
        v51 = tl_mul(v51, 2.0);
        v52 = tl_mul(v52, 2.0);
        v53 = tl_mul(v53, 2.0);
        v54 = tl_mul(v54, 2.0);
        v55 = tl_mul(v55, 2.0);
        v56 = tl_mul(v56, 2.0);
        v57 = tl_mul(v57, 2.0);
        v58 = tl_mul(v58, 2.0);
        v59 = tl_mul(v59, 2.0);
        v60 = tl_mul(v60, 2.0);
        v61 = tl_mul(v61, 2.0);
        v62 = tl_mul(v62, 2.0);
        i = tl_add(i, 1);
    }
    TL_IF(tl_gt(n, 3), v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63) {
        v0 = tl_sub(v0, 1.0);
        v1 = tl_sub(v1, 1.0);
        v2 = tl_sub(v2, 1.0);
        v3 = tl_sub(v3, 1.0);
        v4 = tl_sub(v4, 1.0);
        v5 = tl_sub(v5, 1.0);
        v6 = tl_sub(v6, 1.0);
        v7 = tl_sub(v7, 1.0);
        v8 = tl_sub(v8, 1.0);
        v9 = tl_sub(v9, 1.0);
        v10 = tl_sub(v10, 1.0);
        v11 = tl_sub(v11, 1.0);
        v12 = tl_sub(v12, 1.0);
        v13 = tl_sub(v13, 1.0);
        v14 = tl_sub(v14, 1.0);
        v15 = tl_sub(v15, 1.0);
        v16 = tl_sub(v16, 1.0);
        v17 = tl_sub(v17, 1.0);
        v18 = tl_sub(v18, 1.0);
        v19 = tl_sub(v19, 1.0);
        v20 = tl_sub(v20, 1.0);
        v21 = tl_sub(v21, 1.0);
        v22 = tl_sub(v22, 1.0);
        v23 = tl_sub(v23, 1.0);
        v24 = tl_sub(v24, 1.0);
        v25 = tl_sub(v25, 1.0);
        v26 = tl_sub(v26, 1.0);
        v27 = tl_sub(v27, 1.0);
        v28 = tl_sub(v28, 1.0);
        v29 = tl_sub(v29, 1.0);
        v30 = tl_sub(v30, 1.0);
        v31 = tl_sub(v31, 1.0);
        v32 = tl_sub(v32, 1.0);
        v33 = tl_sub(v33, 1.0);
        v34 = tl_sub(v34, 1.0);
        v35 = tl_sub(v35, 1.0);
        v36 = tl_sub(v36, 1.0);
        v37 = tl_sub(v37, 1.0);
        v38 = tl_sub(v38, 1.0);
        v39 = tl_sub(v39, 1.0);
        v40 = tl_sub(v40, 1.0);
        v41 = tl_sub(v41, 1.0);
        v42 = tl_sub(v42, 1.0);
        v43 = tl_sub(v43, 1.0);
        v44 = tl_sub(v44, 1.0);
        v45 = tl_sub(v45, 1.0);
        v46 = tl_sub(v46, 1.0);
        v47 = tl_sub(v47, 1.0);
        v48 = tl_sub(v48, 1.0);
        v49 = tl_sub(v49, 1.0);
        v50 = tl_sub(v50, 1.0);
        v51 = tl_sub(v51, 1.0);
        v52 = tl_sub(v52, 1.0);
        v53 = tl_sub(v53, 1.0);
        v54 = tl_sub(v54, 1.0);
        v55 = tl_sub(v55, 1.0);
        v56 = tl_sub(v56, 1.0);
        v57 = tl_sub(v57, 1.0);
        v58 = tl_sub(v58, 1.0);
        v59 = tl_sub(v59, 1.0);
        v60 = tl_sub(v60, 1.0);
        v61 = tl_sub(v61, 1.0);
        v62 = tl_sub(v62, 1.0);
        v63 = tl_sub(v63, 1.0);
    }
    tl_store(y_ptr, TL_CALL(sum64, v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32, v33, v34, v35, v36, v37, v38, v39, v40, v41, v42, v43, v44, v45, v46, v47, v48, v49, v50, v51, v52, v53, v54, v55, v56, v57, v58, v59, v60, v61, v62, v63));
}

/* empty lists: no carried variables, no arguments, no constexprs */
TL_JIT(one, ())
{
    return tl_to_tensor(1.0);
}

TL_KERNEL(k_empty_lists, (y_ptr, n))
{
    tl_tensor acc = TL_CALL(one);
    TL_FOR(k, tl_range(0, n, 1)) {
        tl_store(y_ptr, acc);
    }
    TL_IF(tl_gt(n, 3)) {
        TL_RETURN();
    }
    tl_store(y_ptr, acc);
}

/* None arguments */
TL_JIT(_scale_by, (x, s_ptr))
{
    if (!tl_is_none(s_ptr))
        x = tl_mul(x, tl_load(s_ptr));
    return x;
}

TL_KERNEL(k_optional, (x_ptr, s_ptr, y_ptr))
{
    tl_tensor x = tl_load(x_ptr);
    x = TL_CALL(_scale_by, x, s_ptr);
    if (tl_is_none(s_ptr))
        x = tl_add(x, 1.0);
    tl_store(y_ptr, x);
}

TL_KERNEL(k_none_arith, (x_ptr, s_ptr))
{
    line_of = __LINE__; tl_tensor x = tl_load(tl_add(s_ptr, tl_program_id(0)));
    tl_store(x_ptr, x);
}

TL_KERNEL(k_none_load, (x_ptr, s_ptr))
{
    line_of = __LINE__; tl_tensor x = tl_load(s_ptr);
    tl_store(x_ptr, x);
}

TL_KERNEL(k_none_const, (x_ptr, s_ptr))
{
    line_of = __LINE__; tl_tensor x = tl_load(tl_add(s_ptr, 1));
    tl_store(x_ptr, x);
}

TL_KERNEL(k_none_store, (x_ptr, s_ptr))
{
    tl_tensor x = tl_load(x_ptr);
    line_of = __LINE__; tl_store(s_ptr, x);
}

static char *emit(const tl_kernel_def *k, const char *sig, const char *cx, const char *triton)
{
    ct_diags d;
    ct_diags_init(&d);
    tl_options o;
    tl_options_default(&o);
    o.triton = triton;
    ct_module *m = tl_build(k, sig, cx, &o, &d);
    if (!m)
        fprintf(stderr, "%s\n", ct_diags_first_error(&d));
    assert_non_null(m);
    char *s = ct_print_module(m, 0);
    ct_module_destroy(m);
    ct_diags_free(&d);
    return s;
}

/* the first error of a kernel that must be refused, with the C line */
static void refused(const tl_kernel_def *k, const char *sig, const char *triton, const char *want)
{
    ct_diags d;
    ct_diags_init(&d);
    tl_options o;
    tl_options_default(&o);
    o.triton = triton;
    line_of = -1;
    assert_null(tl_build(k, sig, "", &o, &d));
    const char *e = ct_diags_first_error(&d);
    if (!strstr(e, want))
        fprintf(stderr, "got: %s\nwant: %s\n", e, want);
    assert_non_null(strstr(e, want));
    if (line_of > 0) {
        const ct_diag *g = &d.items[0];
        assert_int_equal(g->line, line_of);
        assert_non_null(strstr(g->file, "test_lang_limits.c"));
    }
    ct_diags_free(&d);
}

static void t_params_64(void **s)
{
    (void)s;
    assert_int_equal(k64_params.nparams, TL_MAX_ARGS);
    assert_string_equal(k64_params.params[63], "p63");
    char *t = emit(&k64_params, "*i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32", "", NULL);
    /* every parameter is an argument of the public function, in order */
    assert_non_null(strstr(t, "%p0: !tt.ptr<i32>"));
    assert_non_null(strstr(t, "%p63: i32"));
    assert_non_null(strstr(t, "%p62: i32, %p63: i32"));
    free(t);
}

static void t_carried_64(void **s)
{
    (void)s;
    char *t = emit(&k64_carried, "*fp32 *fp32 i32", "", NULL);
    /* the loop yields its 64 values, the if its 64 results */
    assert_non_null(strstr(t, "scf.for"));
    assert_non_null(strstr(t, "scf.while"));
    assert_non_null(strstr(t, "scf.if"));
    assert_non_null(strstr(t, "tt.call @test_lang_limits.sum64__"));
    int nyield = 0;
    for (const char *p = strstr(t, "scf.yield"); p; p = strstr(p + 1, "scf.yield")) {
        const char *e = strchr(p, '\n');
        int commas = 0;
        for (const char *c = p; c < e && *c != ':'; c++)
            commas += *c == ',';
        if (commas == 63)
            nyield++;
    }
    assert_true(nyield >= 2); /* the for's and the if's */
    free(t);
    t = emit(&k_empty_lists, "*fp32 i32", "", NULL);
    assert_non_null(strstr(t, "scf.for"));
    free(t);
}

static void t_none_args(void **s)
{
    (void)s;
    char *with = emit(&k_optional, "x_ptr=*fp32 s_ptr=*fp32 y_ptr=*fp32", "", NULL);
    char *none = emit(&k_optional, "x_ptr=*fp32 s_ptr=None y_ptr=*fp32", "", NULL);
    assert_non_null(strstr(with, "%s_ptr: !tt.ptr<f32>"));
    /* the parameter leaves the signature; the helper is specialized on constexpr None */
    assert_null(strstr(none, "%s_ptr"));
    assert_non_null(strstr(none, "test_lang_limits._scale_by__fp32__(1,)cconstexpr_None_"));
    assert_non_null(strstr(none, "arith.addf"));
    assert_null(strstr(with, "arith.addf"));
    free(with);
    free(none);
    none = emit(&k_optional, "x_ptr=*fp32 s_ptr=None y_ptr=*fp32", "", "3.9.0");
    assert_non_null(strstr(none, "test_lang_limits._scale_by__fp32_cNone"));
    free(none);
    /* positional entries too */
    none = emit(&k_optional, "*fp32 None *fp32", "", NULL);
    assert_null(strstr(none, "%s_ptr"));
    free(none);
}

/* a body that uses a None anyway: Python's error, per release, at the C line */
static void t_none_errors(void **s)
{
    (void)s;
    refused(&k_none_arith, "*fp32 None", "3.6.0",
            "AttributeError(\"'NoneType' object has no attribute 'type'\")");
    refused(&k_none_arith, "*fp32 None", "3.9.0", "'NoneType' object has no attribute 'dtype'");
    refused(&k_none_const, "*fp32 None", "3.6.0", "unsupported operand type(s) for +: 'NoneType' and 'int'");
    refused(&k_none_load, "*fp32 None", "3.7.0", "'constexpr_type' object has no attribute 'is_ptr'");
    refused(&k_none_load, "*fp32 None", "3.8.0", "'constexpr_type' object has no attribute 'scalar'");
    refused(&k_none_store, "*fp32 None", "3.6.0", "'constexpr_type' object has no attribute 'is_const'");
    /* bad signatures */
    line_of = -1;
    refused(&k_optional, "x_ptr=*fp32 s_ptr=None:16 y_ptr=*fp32", NULL, "takes no divisibility");
    refused(&k_optional, "x_ptr=*fp32 s_ptr=constexpr y_ptr=*fp32", NULL,
            "`constexpr` does not say the value");
}

TL_KERNEL(k_defaults, (y_ptr), (int, BLOCK, 32), (double, F, 2.5), (bool, NEG, false),
          (const char *, MODE, "add"), (const char *, NONE_STR, NULL), (tl_dtype, DT, tl_float16),
          (int, NO_DEFAULT))
{
    tl_tensor x = tl_full(tl_shape(BLOCK), F, DT);
    if (MODE && !strcmp(MODE, "add"))
        x = tl_add(x, NO_DEFAULT);
    if (NEG)
        x = tl_neg(x);
    if (!NONE_STR)
        x = tl_mul(x, 3);
    tl_store(tl_add(y_ptr, tl_arange(0, BLOCK)), x);
}

static void t_cx_defaults(void **s)
{
    (void)s;
    assert_int_equal(k_defaults.cx_defaults[0].kind, TL_CX_INT);
    assert_int_equal(k_defaults.cx_defaults[0].i, 32);
    assert_true(k_defaults.cx_defaults[1].f == 2.5);
    assert_int_equal(k_defaults.cx_defaults[2].kind, TL_CX_BOOL);
    assert_string_equal(k_defaults.cx_defaults[3].s, "add");
    assert_int_equal(k_defaults.cx_defaults[4].kind, TL_CX_STR);
    assert_null(k_defaults.cx_defaults[4].s);
    assert_ptr_equal(k_defaults.cx_defaults[5].dtype, tl_float16);
    assert_int_equal(k_defaults.cx_defaults[6].kind, TL_CX_NONE);
    char *d = emit(&k_defaults, "*fp16", "NO_DEFAULT=7", NULL);
    char *e = emit(&k_defaults, "*fp16", "NO_DEFAULT=7 BLOCK=32 F=2.5 NEG=False MODE='add' NONE_STR=None DT=fp16", NULL);
    assert_string_equal(d, e); /* the defaults are what an explicit config gives */
    assert_non_null(strstr(d, "tensor<32xf16>"));
    free(d);
    free(e);
    d = emit(&k_defaults, "*fp32", "NO_DEFAULT=7 BLOCK=64 DT=fp32 NEG=True", NULL);
    assert_non_null(strstr(d, "tensor<64xf32>"));
    free(d);
    ct_diags g;
    ct_diags_init(&g);
    assert_null(tl_build(&k_defaults, "*fp16", "", NULL, &g));
    assert_non_null(strstr(ct_diags_first_error(&g), "constexpr NO_DEFAULT of k_defaults has no value"));
    ct_diags_free(&g);
}

/* tl_config.options: the other tl_options per config */
static void t_config_options(void **s)
{
    (void)s;
    tl_options o;
    tl_options_default(&o);
    ct_diags d;
    ct_diags_init(&d);
    assert_true(tl_options_parse(&o, "implicit_store_casts=True enable_fp_fusion=False maxnreg=128", &d));
    assert_true(o.implicit_store_casts);
    assert_false(o.enable_fp_fusion);
    assert_int_equal(o.maxnreg, 128);
    assert_false(tl_options_parse(&o, "implicit_store_cast=True", &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "`implicit_store_cast` is not an option"));
    ct_diags_clear(&d);
    assert_false(tl_options_parse(&o, "debug=yes", &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "debug must be True or False"));
    ct_diags_clear(&d);
    /* a store of fp32 values through a bf16 pointer: refused, unless the config says so */
    tl_config cfg = {.name = "c", .signature = "x_ptr=*fp32 y_ptr=*bf16 n=i32", .constexprs = "OUT_DTYPE=fp32"};
    extern const tl_kernel_def port_cx_defaults;
    assert_null(tl_build_config(&port_cx_defaults, &cfg, &d));
    ct_diags_clear(&d);
    cfg.options = "implicit_store_casts=True";
    ct_module *m = tl_build_config(&port_cx_defaults, &cfg, &d);
    assert_non_null(m);
    ct_module_destroy(m);
    cfg.options = "bogus=1";
    assert_null(tl_build_config(&port_cx_defaults, &cfg, &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "`bogus` is not an option"));
    ct_diags_free(&d);
}

/* the dtype API: core.dtype's predicates and attributes */
TL_KERNEL(k_dtype_on_tensor, (x_ptr))
{
    tl_tensor x = tl_load(x_ptr);
    line_of = __LINE__; if (tl_dtype_is_fp8(x))
        tl_store(x_ptr, x);
}

TL_KERNEL(k_dtype_of_number, (x_ptr))
{
    line_of = __LINE__; if (tl_dtype_is_floating(tl_dtype_of(tl_c(1.5))))
        tl_store(x_ptr, 1.0);
}

TL_KERNEL(k_bitwidth_of_ptr, (x_ptr))
{
    line_of = __LINE__; int b = tl_primitive_bitwidth(tl_dtype_of(x_ptr));
    tl_store(x_ptr, b);
}

static void t_dtype_api(void **s)
{
    (void)s;
    const tl_dtype fp8s[] = {tl_float8e4nv, tl_float8e5, tl_float8e4b8, tl_float8e4b15, tl_float8e5b16};
    for (int i = 0; i < 5; i++) {
        assert_true(tl_dtype_is_fp8(fp8s[i]));
        assert_true(tl_dtype_is_floating(fp8s[i]));
        assert_false(tl_dtype_is_standard_floating(fp8s[i]));
        assert_int_equal(tl_primitive_bitwidth(fp8s[i]), 8);
    }
    assert_true(tl_dtype_is_fp8e4nv(tl_float8e4nv) && !tl_dtype_is_fp8e4nv(tl_float8e5));
    assert_true(tl_dtype_is_fp8e5(tl_float8e5) && tl_dtype_is_bf16(tl_bfloat16));
    assert_true(tl_dtype_is_fp16(tl_float16) && tl_dtype_is_fp32(tl_float32) && tl_dtype_is_fp64(tl_float64));
    /* int1 is unsigned in Triton (UINT_TYPES) */
    assert_true(tl_dtype_is_bool(tl_int1) && tl_dtype_is_int(tl_int1) && tl_dtype_is_int_unsigned(tl_int1));
    assert_false(tl_dtype_is_int_signed(tl_int1));
    assert_true(tl_dtype_is_int_signed(tl_int32) && !tl_dtype_is_int_unsigned(tl_int32));
    assert_true(tl_dtype_is_int_unsigned(tl_uint64) && !tl_dtype_is_floating(tl_uint64));
    assert_int_equal(tl_primitive_bitwidth(tl_bfloat16), 16);
    assert_int_equal(tl_primitive_bitwidth(tl_int1), 1);
    tl_dtype p = tl_pointer_type(tl_float16);
    assert_true(tl_dtype_is_ptr(p) && !tl_dtype_is_ptr(tl_float16));
    assert_false(tl_dtype_is_floating(p) || tl_dtype_is_int(p) || tl_dtype_is_fp16(p));
    assert_true(tl_dtype_is_const(tl_pointer_type_ex(tl_float16, 1, true)) && !tl_dtype_is_const(p));
    assert_ptr_equal(tl_dtype_element_ty(p), tl_float16);
    assert_ptr_equal(tl_dtype_scalar(tl_float16), tl_float16);
    assert_ptr_equal(tl_get_int_dtype(32, false), tl_uint32);
    assert_ptr_equal(tl_get_int_dtype(8, true), tl_int8);
    assert_ptr_equal(tl_get_int_dtype(1, true), tl_int1);
    assert_ptr_equal(tl_dtype_from_name("uint32"), tl_uint32); /* tl.dtype("uint32") */
    assert_true(tl_type_eq(tl_get_int_dtype(16, true), tl_int16));
    refused(&k_dtype_on_tensor, "*fp32", NULL, "'tensor' object has no attribute 'is_fp8'");
    refused(&k_dtype_of_number, "*fp32", NULL, "is_floating(): not a dtype");
    refused(&k_bitwidth_of_ptr, "*fp32", NULL, "'pointer_type' object has no attribute 'primitive_bitwidth'");
}

/* s[:, None] on a scalar is a splat to [1], as Python's list.insert appends past the end */
TL_KERNEL(k_scalar_idx, (x_ptr, y_ptr))
{
    tl_tensor s = tl_load(x_ptr);
    tl_tensor t = tl_idx(s, ":, None");
    tl_store(tl_add(y_ptr, tl_idx(tl_arange(0, 1), ":, None")), t);
}

static void t_scalar_index(void **s)
{
    (void)s;
    char *t = emit(&k_scalar_idx, "*fp32 *fp32", "", NULL);
    assert_non_null(strstr(t, "tt.splat %0 : f32 -> tensor<1xf32>"));
    assert_non_null(strstr(t, "tensor<1xf32> -> tensor<1x1xf32>"));
    free(t);
}

/* the kernel file of every construct (tests/headers/all_constructs.c, compiled without a
 * warning by headers_clean_c11) is a kernel ctriton builds, in both its configs */
TL_DECLARE_KERNEL(all_constructs);

static void t_all_constructs(void **s)
{
    (void)s;
    assert_int_equal(all_constructs.nparams, 20);
    assert_int_equal(all_constructs__nconfigs, 2);
    for (int i = 0; i < all_constructs__nconfigs; i++) {
        ct_diags d;
        ct_diags_init(&d);
        ct_module *m = tl_build_config(&all_constructs, &all_constructs__configs[i], &d);
        if (!m)
            fprintf(stderr, "%s: %s\n", all_constructs__configs[i].name, ct_diags_first_error(&d));
        assert_non_null(m);
        char *t = ct_print_module(m, 0);
        assert_non_null(strstr(t, "scf.while"));
        assert_non_null(strstr(t, "tt.call @"));
        /* twenty values carried, and the loop that carries none */
        assert_non_null(strstr(t, "scf.for"));
        free(t);
        ct_module_destroy(m);
        ct_diags_free(&d);
    }
}

/* the committed tl_macros.h is what its generator writes */
static void t_macros_generated(void **s)
{
    (void)s;
    const char *py = getenv("CTRITON_PYTHON");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s/scripts/gen_tl_macros.py | cmp -s - %s/include/ctriton/tl_macros.h",
             py && *py ? py : "python3", CTRITON_SOURCE_DIR, CTRITON_SOURCE_DIR);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_params_64),   cmocka_unit_test(t_carried_64),
        cmocka_unit_test(t_none_args),   cmocka_unit_test(t_none_errors),
        cmocka_unit_test(t_macros_generated), cmocka_unit_test(t_cx_defaults),
        cmocka_unit_test(t_config_options), cmocka_unit_test(t_dtype_api),
        cmocka_unit_test(t_scalar_index), cmocka_unit_test(t_all_constructs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
