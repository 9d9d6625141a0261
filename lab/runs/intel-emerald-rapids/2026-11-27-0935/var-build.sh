#!/bin/bash
# micro.c MODE 3: the avx512 entry of src/x86/vec_copy.h compiled into the harness six ways.
# Run from the repository root with variants.patch applied to src/x86/vec_copy.h and the static
# library built (LIB); writes /tmp/sm-var.  vA as the library, vB no page-edge tests, vC the
# NT/rep movsb thresholds a constant, vD without -falign-jumps=64, vE no 4K-aliasing direction
# tests, vF B+C+E.
H="$(dirname "$0")"
L=${LIB:-build/release/libfastcopy.a}
F="-O3 -DNDEBUG -fPIC -fvisibility=hidden -mavx512f -mno-red-zone -Isrc -Iinclude -std=gnu11"
J=-falign-jumps=64
set -e
gcc $F $J -DFC_VEC_ID=vA -c $H/var.c -o /tmp/vA.o
gcc $F $J -DFC_VEC_ID=vB -DFC_PAGE_SAFE=0 -c $H/var.c -o /tmp/vB.o
gcc $F $J -DFC_VEC_ID=vC -DNO_TUNE -c $H/var.c -o /tmp/vC.o
gcc $F -DFC_VEC_ID=vD -c $H/var.c -o /tmp/vD.o
gcc $F $J -DFC_VEC_ID=vE -DFC_INORDER_WINDOW=0 -DFC_ALIAS_WINDOW=0 -c $H/var.c -o /tmp/vE.o
gcc $F $J -DFC_VEC_ID=vF -DFC_PAGE_SAFE=0 -DNO_TUNE -DFC_INORDER_WINDOW=0 -DFC_ALIAS_WINDOW=0 -c $H/var.c -o /tmp/vF.o
gcc -O2 -mavx512f -mavx512bw -mavx512vbmi -DMODE=3 $H/micro.c /tmp/v[A-F].o $L -o /tmp/sm-var
