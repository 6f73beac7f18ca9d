/*
 * ctriton/export.h - what the shared library exports.
 *
 * libctriton is built with -fvisibility=hidden: a function is part of the
 * shared library's interface only if a public header (include/ctriton/)
 * declares it between CT_BEGIN_DECLS and CT_END_DECLS, which every public
 * header wraps around its declarations.  The helpers the layers share
 * (the internal headers under src/) stay hidden, so `nm -D --defined-only
 * libctriton.so` lists only ct_ and tl_ names, and a program's own symbols
 * cannot clash with them.  The static library holds the same objects.
 *
 * CT_API marks a single declaration outside those brackets: the entry
 * points of a kernel plugin (CT_KERNEL_PLUGIN in ctriton/registry.h), which
 * must stay visible even when the plugin is built with -fvisibility=hidden.
 */
#ifndef CTRITON_EXPORT_H
#define CTRITON_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define CT_API __attribute__((visibility("default")))
#define CT__VISIBILITY_PUSH _Pragma("GCC visibility push(default)")
#define CT__VISIBILITY_POP _Pragma("GCC visibility pop")
#else
#define CT_API
#define CT__VISIBILITY_PUSH
#define CT__VISIBILITY_POP
#endif

#ifdef __cplusplus
#define CT_BEGIN_DECLS extern "C" { CT__VISIBILITY_PUSH
#define CT_END_DECLS CT__VISIBILITY_POP }
#else
#define CT_BEGIN_DECLS CT__VISIBILITY_PUSH
#define CT_END_DECLS CT__VISIBILITY_POP
#endif

#endif
