/*
 * emu_test.h - helpers shared by the emulator's unit tests: build a kernel
 * written with the tl_* language in the test file, compile it for the
 * emulator, run it on buffers; line markers for the expected fault lines.
 */
#ifndef CTRITON_EMU_TEST_H
#define CTRITON_EMU_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ctriton/emu.h"
#include "ctriton/tl.h"

/* MARK(name) inside a kernel body records the line it is on when the kernel
 * is built, so a test can expect a fault at exactly that line. */
#define MARK(var) (var = __LINE__)

/* builds and compiles; fails the test with the diagnostics on error */
static inline ct_emu_kernel *emu_build(const tl_kernel_def *k, const char *sig, const char *cx)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(k, sig, cx, NULL, &d);
    ct_emu_kernel *ek = m ? ct_emu_compile(m, k->name, &d) : NULL;
    if (!ek)
        ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    ct_module_destroy(m);
    assert_non_null(ek);
    return ek;
}

/* runs on 1-3 grid dims with `threads` workers; returns the status */
static inline ct_emu_status emu_go(ct_emu *e, const ct_emu_kernel *k, int gx, int gy, int gz,
                                   int threads, int nargs, const ct_emu_arg *args,
                                   ct_emu_result *res)
{
    ct_emu_launch l = {{gx, gy, gz}, threads, 0, NULL};
    return ct_emu_run(e, k, &l, nargs, args, res);
}

/* the file part of a path */
static inline const char *emu_base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* expects a fault at this test file's `line` */
static inline void expect_fault(const ct_emu_result *r, ct_emu_status st, int line,
                                const char *file)
{
    if (r->status != st || r->fault.line != line)
        fprintf(stderr, "expected %s at line %d, got %s: %s\n", ct_emu_status_name(st), line,
                ct_emu_status_name(r->status), r->fault.message);
    assert_int_equal(r->status, st);
    assert_int_equal(r->fault.line, line);
    assert_string_equal(emu_base(r->fault.file), emu_base(file));
}

#endif
