/*
 * conformance.h - the conformance kernels (tests/conformance/conformance.c,
 * Python originals in conformance.py): one construct of triton.language
 * each, for the fidelity harness and the tests.  They are not part of the
 * kernel library: the tests link them, and the command gets them from the
 * plugin libctriton_conformance.so (`ctriton --kernels ...`).
 */
#ifndef CTRITON_CONFORMANCE_H
#define CTRITON_CONFORMANCE_H

#include "ctriton/registry.h"

/* Registers them (conformance.def, flagged `conformance`); later calls do nothing. */
ct_status ct_register_conformance_kernels(void);

#endif
