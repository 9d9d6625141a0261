/*
 * Compile-only (tests/check_inline.cmake, MODE=fold): fc_memcpy_inline at
 * constant sizes.  The check disassembles this object and requires, for every
 * fold_N with N <= FC_INLINE_MAX, a body with no call and no branch (the size
 * ladder folded to loads and stores), and for N > FC_INLINE_MAX a call or tail
 * jump to fc_memcpy and nothing else.  fold_max_<FC_INLINE_MAX> and
 * fold_vec_<FC_INLINE_VEC> tell the script the limit and the vector width this
 * compilation chose.
 */
#include <fastcopy/inline.h>

#define FOLD_CAT(a, b) a##b
#define FOLD_XCAT(a, b) FOLD_CAT(a, b)
#define FOLD_MARK(stem, v)                   \
    void FOLD_XCAT(stem, v)(void);           \
    void FOLD_XCAT(stem, v)(void) {}
FOLD_MARK(fold_max_, FC_INLINE_MAX)
FOLD_MARK(fold_vec_, FC_INLINE_VEC)

#define F(N)                                                   \
    void *fold_##N(void *d, const void *s);                    \
    void *fold_##N(void *d, const void *s) { return fc_memcpy_inline(d, s, N); }

F(0) F(1) F(2) F(3) F(4) F(5) F(7) F(8) F(9) F(12) F(15) F(16) F(17) F(24) F(31) F(32) F(33) F(40) F(48)
F(63) F(64) F(65) F(100) F(127) F(128) F(129) F(200) F(255) F(256) F(257) F(300) F(4096)
