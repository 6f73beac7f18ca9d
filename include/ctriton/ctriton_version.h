/*
 * ctriton/ctriton_version.h - the version of ctriton (the library and the command).
 *
 * These three numbers are the one place the version is written: CMake
 * reads them for project(VERSION), the shared library's SONAME
 * (libctriton.so.MAJOR), ctritonConfigVersion.cmake and ctriton.pc.  The
 * major version changes when the library's interface does (a program or a
 * kernel plugin built against one major version is refused by another).
 * The version is part of every compile cache key.
 */
#ifndef CTRITON_CTRITON_VERSION_H
#define CTRITON_CTRITON_VERSION_H

#include "ctriton/export.h"

#define CTRITON_VERSION_MAJOR 0
#define CTRITON_VERSION_MINOR 1
#define CTRITON_VERSION_PATCH 0

#define CTRITON__STR2(x) #x
#define CTRITON__STR(x) CTRITON__STR2(x)
/* "0.1.0" */
#define CTRITON_VERSION                                                                       \
    CTRITON__STR(CTRITON_VERSION_MAJOR)                                                       \
    "." CTRITON__STR(CTRITON_VERSION_MINOR) "." CTRITON__STR(CTRITON_VERSION_PATCH)
/* One number that grows with the version: 10000 * major + 100 * minor + patch. */
#define CTRITON_VERSION_NUMBER                                                                \
    (10000 * CTRITON_VERSION_MAJOR + 100 * CTRITON_VERSION_MINOR + CTRITON_VERSION_PATCH)

CT_BEGIN_DECLS

/* The version of the library in use ("0.1.0"), which may differ from the
 * CTRITON_VERSION a program was compiled with when it links the shared
 * library. */
const char *ct_version(void);
/* Its CTRITON_VERSION_NUMBER. */
int ct_version_number(void);

CT_END_DECLS
#endif
