/* One variant of fc_memcpy_inline, compiled with -DV=name against one tree's
 * include/ (run.sh): a variable-n copy and eleven constant-n copies, each its
 * own 64-byte-aligned function so that code placement is the same in every
 * variant. */
#include <fastcopy/inline.h>
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define FN(x) CAT(V, x)
/* variable n */
__attribute__((noinline, aligned(64))) void FN(_var)(unsigned char *d, const unsigned char *s, size_t n) { fc_memcpy_inline(d, s, n); }
/* constant n */
#define K(n) __attribute__((noinline, aligned(64))) void FN(_c##n)(unsigned char *d, const unsigned char *s) { fc_memcpy_inline(d, s, n); }
K(8) K(16) K(24) K(33) K(40) K(48) K(64) K(100) K(128) K(200) K(256)
