/* text_internal.h - helpers shared by the printer, parser and normalizer. */
#ifndef CTRITON_TEXT_INTERNAL_H
#define CTRITON_TEXT_INTERNAL_H

#include "ctriton/float.h"
#include "ctriton/ir.h"

#endif
