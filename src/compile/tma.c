/*
 * tma.c - tensor descriptor arguments at launch, as backends/nvidia/driver.py passes them
 * (make_tensordesc_arg, fillTMADescriptor):
 *
 *   kernel lowered with TMA (tensordesc_meta in kernel.json):
 *       the 128-byte CUtensorMap, then the shape (i32 each) and the strides (i64 each);
 *   without TMA (no metadata):
 *       the base pointer, shape and strides (i64 each), padding == "nan" (i1), then the
 *       shape (i32) and strides (i64) again.
 *
 * The tensor map is cuTensorMapEncodeTiled of the descriptor with the swizzle, element type
 * and block Triton chose (the metadata), dimensions innermost first, byte strides, element
 * strides 1, no interleave, L2 promotion of 128 bytes, and NaN fill for padding "nan".
 */
#include "compile_internal.h"

#include <stdio.h>
#include <string.h>

#include "ctriton/launch.h"

/* The TMA element types differ between the device-side enum in the metadata and the host's
 * CUtensorMapDataType (driver.py: TMA_DTYPE_DEVICE_TO_HOST). */
static int host_tma_dtype(int device)
{
    switch (device) {
    case 8:
        return 10;
    case 9:
        return 8;
    case 10:
        return 9;
    default:
        return device;
    }
}

static int elem_bytes(tl_scalar s)
{
    switch (s) {
    case TL_INT64:
    case TL_UINT64:
    case TL_FP64:
        return 8;
    case TL_INT32:
    case TL_UINT32:
    case TL_FP32:
        return 4;
    case TL_INT16:
    case TL_UINT16:
    case TL_FP16:
    case TL_BF16:
        return 2;
    default:
        return 1;
    }
}

static ct_status encode(const ct_tensordesc *d, const struct ct_desc_meta *m, void *map,
                        const char *name)
{
    const ct_cuda_api *cu = ct_cuda();
    if (!cu)
        return CT_ERR_NO_DRIVER;
    if (!cu->cuTensorMapEncodeTiled)
        return ct_fail(CT_ERR_UNSUPPORTED, "argument `%s`: this CUDA driver has no "
                       "cuTensorMapEncodeTiled (tensor descriptors need CUDA 12)", name);
    int r = d->rank;
    if (m->rank != r)
        return ct_fail(CT_ERR_INVALID, "argument `%s`: the kernel expects a descriptor of rank %d, "
                       "got %d", name, m->rank, r);
    uint64_t dims[5], strides[5];
    unsigned box[5], es[5] = {1, 1, 1, 1, 1};
    for (int j = 0; j < r; j++) {
        int64_t v = d->shape[j];
        if (j == r - 1 && m->fp4_padded)
            v *= 2;
        dims[r - 1 - j] = (uint64_t)v;
        box[r - 1 - j] = (unsigned)m->block[j];
    }
    for (int j = 0; j + 1 < r; j++)
        strides[r - 2 - j] = (uint64_t)(m->elem_size * d->strides[j]);
    strides[r - 1] = dims[r - 1] * (r == 1 ? (uint64_t)m->elem_size : strides[r - 2]);
    int res = cu->cuTensorMapEncodeTiled(map, host_tma_dtype(m->elem_type), (unsigned)r,
                                         (void *)(uintptr_t)d->base, dims, strides, box, es,
                                         0 /* no interleave */, m->swizzle, 2 /* L2 128B */,
                                         d->padding_nan ? 1 : 0);
    if (res) {
        char what[160];
        snprintf(what, sizeof what, "encoding the tensor descriptor `%s` (cuTensorMapEncodeTiled)",
                 name);
        return ct_cu_check(res, what);
    }
    return CT_OK;
}

static ct_status check_desc(const ct_tensordesc *d, const char *name)
{
    if (d->strides[d->rank - 1] != 1)
        return ct_fail(CT_ERR_INVALID, "argument `%s`: a descriptor's last stride must be 1, got "
                       "%lld", name, (long long)d->strides[d->rank - 1]);
    if (d->base % 16)
        return ct_fail(CT_ERR_INVALID, "argument `%s`: a descriptor's base must be 16-byte aligned",
                       name);
    for (int j = 0; j + 1 < d->rank; j++)
        if ((d->strides[j] * elem_bytes(d->dtype)) % 16)
            return ct_fail(CT_ERR_INVALID, "argument `%s`: stride %d is %lld elements, not a "
                           "multiple of 16 bytes (TMA needs it)", name, j, (long long)d->strides[j]);
    for (int j = 0; j < d->rank; j++)
        if (d->shape[j] < 0 || d->shape[j] > INT32_MAX)
            return ct_fail(CT_ERR_INVALID, "argument `%s`: shape %d is %lld", name, j,
                           (long long)d->shape[j]);
    return CT_OK;
}

ct_status ct__pack_args_desc(const ct_arg *args, const uint8_t *codes, int n,
                             const char *const *names, const ct_launch_meta *meta, uint64_t *slots,
                             unsigned char *maps, void **params, int *nparams)
{
    int j = 0, di = 0;
    ct_status s;
    for (int i = 0; i < n; i++) {
        int t = codes[i] & CT_SPEC_TYPE_MASK;
        if (t != CT_SPEC_DESC) {
            int k = ct_pack_args(&args[i], &codes[i], 1, &slots[j], &params[j]);
            if (k < 0)
                return ct_fail(CT_ERR_INVALID, "argument `%s` cannot be passed to a kernel",
                               names ? names[i] : "?");
            j += k;
            continue;
        }
        const ct_tensordesc *d = args[i].v.desc;
        const char *name = names ? names[i] : "?";
        if ((s = check_desc(d, name)) != CT_OK)
            return s;
        int r = d->rank;
        if (meta->ndescs > 0) {
            if (di >= meta->ndescs)
                return ct_fail(CT_ERR_INVALID, "the kernel's metadata describes %d descriptors, "
                               "but argument `%s` is one more", meta->ndescs, name);
            void *map = maps + 128 * di;
            if ((s = encode(d, &meta->descs[di], map, name)) != CT_OK)
                return s;
            params[j++] = map;
        } else {
            memcpy(&slots[j], &d->base, 8);
            params[j] = &slots[j];
            j++;
            for (int x = 0; x < 2 * r; x++, j++) {
                int64_t v = x < r ? d->shape[x] : d->strides[x - r];
                memcpy(&slots[j], &v, 8);
                params[j] = &slots[j];
            }
            slots[j] = d->padding_nan ? 1 : 0;
            params[j] = &slots[j];
            j++;
        }
        di++;
        for (int x = 0; x < 2 * r; x++, j++) {
            slots[j] = 0;
            if (x < r) {
                int32_t v = (int32_t)d->shape[x];
                memcpy(&slots[j], &v, 4);
            } else {
                memcpy(&slots[j], &d->strides[x - r], 8);
            }
            params[j] = &slots[j];
        }
    }
    *nparams = j;
    return CT_OK;
}
