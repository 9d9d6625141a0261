/*
 * simd.S - the neon and sve entries (neon.S, sve.S) assembled as one object:
 * at VL 128 bits sve hands its copies above 32 bytes to neon with one
 * conditional branch (b.eq, +-1 MiB), which the assembler then resolves
 * inside this object's .text; from separate objects a linker could place
 * them out of its reach (it adds veneers only for b and bl).  Each file
 * #undefs its register names (#define dstin x0 ...) at its end, so neon.S's
 * names do not reach into sve.S.
 */
#include "neon.S"
#include "sve.S"

#if defined(__aarch64__)
#include "gnu_property.h"
FC_GNU_PROPERTY
#endif
