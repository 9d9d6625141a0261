/* Entry points of the AArch64 assembly implementations (registered in src/registry.c). */
#ifndef FC_AARCH64_H
#define FC_AARCH64_H

#include "portable/portable.h"

FC_DECLARE_IMPL(neon);
FC_DECLARE_IMPL(sve);

#endif
