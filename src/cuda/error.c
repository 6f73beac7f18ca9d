/*
 * error.c - ctriton's runtime errors: a status code returned by value and,
 * per thread, the message and CUresult of the last failure (like
 * sqlite3_errmsg).  The buffer is thread-local so that threads launching
 * kernels concurrently never see each other's messages.
 */
#include "ctriton/cuda.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_msg[8192];
static _Thread_local int last_cu;

const char *ct_status_name(ct_status s)
{
    switch (s) {
    case CT_OK: return "CT_OK";
    case CT_ERR_NO_DRIVER: return "CT_ERR_NO_DRIVER";
    case CT_ERR_CUDA: return "CT_ERR_CUDA";
    case CT_ERR_INVALID: return "CT_ERR_INVALID";
    case CT_ERR_COMPILE: return "CT_ERR_COMPILE";
    case CT_ERR_IO: return "CT_ERR_IO";
    case CT_ERR_NOMEM: return "CT_ERR_NOMEM";
    case CT_ERR_NO_BINARY: return "CT_ERR_NO_BINARY";
    case CT_ERR_UNSUPPORTED: return "CT_ERR_UNSUPPORTED";
    }
    return "CT_ERR_?";
}

const char *ct_errmsg(void) { return last_msg; }

int ct_last_cuda_result(void) { return last_cu; }

ct_status ct_fail(ct_status s, const char *fmt, ...)
{
    /* format into a scratch buffer first: a message may quote the old one */
    char tmp[sizeof last_msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    snprintf(last_msg, sizeof last_msg, "%s", tmp);
    if (s != CT_ERR_CUDA)
        last_cu = 0;
    return s;
}

/* Used by driver.c to remember the CUresult with its message. */
void ct__set_cuda_result(int res) { last_cu = res; }
