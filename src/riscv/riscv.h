/* Entry points of the RV64 assembly implementations (registered in src/registry.c). */
#ifndef FC_RISCV_H
#define FC_RISCV_H

#include "portable/portable.h"

FC_DECLARE_IMPL(rv64_shifted);
FC_DECLARE_IMPL(rv64_misaligned_fast);
FC_DECLARE_IMPL(rv64_rvv);

#endif
