/*
 * ctriton/ctriton.h - all of ctriton's public API in one include.
 *
 *   ctriton_version.h  the version (CTRITON_VERSION, ct_version)
 *   alloc.h            the allocator, settable by the embedder; out of memory
 *   diag.h             diagnostics: errors are values
 *   ir.h               the IR: types, attributes, values, ops, modules
 *   float.h            Triton's float formats: encode, decode, round
 *   tl.h               the kernel language (docs/cheatsheet.md)
 *   text.h             TTIR text: printer, parser, normalizer, differ
 *   check.h            the verifier and the lints
 *   emu.h              the CPU emulator
 *   cuda.h             the CUDA driver, loaded at run time; status codes
 *   compile.h          lowering through Triton, the cache, AOT launchers
 *   launch.h           launching and autotuning from C
 *   registry.h         the kernel registry and kernel plugins
 *   ref.h              C references for kernels
 * docs/api.md describes every function; docs/using.md, how to use them
 * from another project.
 */
#ifndef CTRITON_CTRITON_H
#define CTRITON_CTRITON_H

#include "ctriton/alloc.h"
#include "ctriton/check.h"
#include "ctriton/compile.h"
#include "ctriton/ctriton_version.h"
#include "ctriton/cuda.h"
#include "ctriton/diag.h"
#include "ctriton/emu.h"
#include "ctriton/float.h"
#include "ctriton/ir.h"
#include "ctriton/launch.h"
#include "ctriton/ref.h"
#include "ctriton/registry.h"
#include "ctriton/text.h"
#include "ctriton/tl.h"
#include "ctriton/triton_version.h"

#endif
