/*
 * ctriton/alloc.h - the allocator the library uses, settable by the embedder.
 *
 * The IR, the parser and printer, the normalizer and differ, the kernel
 * language, the verifier and lints and the emulator take their heap memory
 * from one function, as Lua (lua_Alloc) and SQLite (SQLITE_CONFIG_MALLOC)
 * do: by default realloc/free; an embedder that wants its own heap, a
 * memory limit or fault injection installs another with ct_set_allocator.
 * (Lowering through Triton, the cache, the registry and the CUDA layer use
 * malloc directly.)
 *
 * Out of memory is an error, never an abort, at these entry points:
 * ct_parse_module / ct_parse_file, tl_build (and the calls that build a
 * kernel through it), ct_verify_module / ct_verify_module_at
 * and ct_emu_compile / ct_emu_compile_ex.  When an
 * allocation fails inside one of them, the call releases everything it had
 * allocated, adds the error "out of memory" to the diagnostics it was given
 * and returns its failure value (NULL or false); the process goes on.
 * Other entry points, where memory runs out, print "ctriton: out of
 * memory" and abort.
 *
 * Ownership: memory the library returns to the caller (printed text, a
 * module, a kernel) was allocated with the allocator in place when it was
 * made and is released through the allocator in place when it is freed
 * (ct_free for text and buffers; ct_module_free, ct_emu_kernel_free, ...
 * for objects).  So install the allocator before the first call into the
 * library and keep it while the library holds memory; with the default
 * allocator, ct_free(p) and free(p) are the same.
 */
#ifndef CTRITON_ALLOC_H
#define CTRITON_ALLOC_H

#include <stddef.h>

#include "ctriton/export.h"

CT_BEGIN_DECLS

/* realloc's contract: ptr NULL: a new block of size bytes (size > 0); size 0:
 * release ptr (may be NULL) and return NULL; otherwise resize ptr to size bytes,
 * keeping its contents.  NULL for a failure, ptr then left as it was.  Blocks
 * must be aligned for any object (as malloc's).  It is called from every thread
 * that uses the library: it must be thread-safe if they are several.  ud is the
 * pointer given to ct_set_allocator. */
typedef void *(*ct_alloc_fn)(void *ud, void *ptr, size_t size);

/* Installs fn (NULL: back to the default, realloc/free). */
void ct_set_allocator(ct_alloc_fn fn, void *ud);
/* The allocator in place (the default is reported as NULL). */
void ct_get_allocator(ct_alloc_fn *fn, void **ud);

/* A block from the allocator in place (NULL when it fails), and its release. */
void *ct_malloc(size_t size);
void ct_free(void *p);

CT_END_DECLS
#endif
