/*
 * Compile-only check (tests/check_inline.cmake, MODE=warn): the ways callers
 * use fc_memcpy_inline that make compilers warn about the code they inline -
 * small fixed-size destinations, constant sizes equal to the object size,
 * sizes bounded by a test, copies into the middle of an array, struct fields,
 * string literals, sizes above the inline limit - must compile silently with
 * -Wall -Wextra -Warray-bounds -Wstringop-overflow ... -Werror at -O0/-O2/-O3,
 * with gcc and clang, as C11 and as C++.
 */
#include <fastcopy/inline.h>

#ifdef __cplusplus
extern "C" {
#endif
struct hdr {
    unsigned char mac[6];
    unsigned short type;
    unsigned int seq;
};

struct pkt {
    struct hdr h;
    unsigned char payload[300];
};

unsigned warn_sink(const void *p, size_t n);

/* constant sizes equal to the destination object's size, 1 .. 300 */
unsigned warn_exact(const unsigned char *src);
unsigned warn_exact(const unsigned char *src)
{
    unsigned char b1[1], b2[2], b3[3], b4[4], b7[7], b8[8], b15[15], b16[16], b17[17], b31[31], b32[32];
    unsigned char b33[33], b63[63], b64[64], b65[65], b100[100], b128[128], b129[129], b255[255];
    unsigned char b256[256], b257[257], b300[300];
    unsigned r = 0;
#define EXACT(b) fc_memcpy_inline(b, src, sizeof b); r += warn_sink(b, sizeof b);
    EXACT(b1) EXACT(b2) EXACT(b3) EXACT(b4) EXACT(b7) EXACT(b8) EXACT(b15) EXACT(b16) EXACT(b17)
    EXACT(b31) EXACT(b32) EXACT(b33) EXACT(b63) EXACT(b64) EXACT(b65) EXACT(b100) EXACT(b128)
    EXACT(b129) EXACT(b255) EXACT(b256) EXACT(b257) EXACT(b300)
#undef EXACT
    return r;
}

/* constant-size sources: string literals and small arrays */
unsigned warn_literal(void);
unsigned warn_literal(void)
{
    char a[4], b[13];
    static const unsigned char tbl[3] = {1, 2, 3};
    unsigned char c[3];
    fc_memcpy_inline(a, "abc", 4);
    fc_memcpy_inline(b, "hello, world", sizeof b);
    fc_memcpy_inline(c, tbl, sizeof tbl);
    return warn_sink(a, sizeof a) + warn_sink(b, sizeof b) + warn_sink(c, sizeof c);
}

/* a size bounded by a test, into a small fixed-size buffer */
unsigned warn_bounded(const void *src, size_t n);
unsigned warn_bounded(const void *src, size_t n)
{
    unsigned char b5[5], b24[24], b200[200];
    unsigned r = 0;
    if (n <= sizeof b5) {
        fc_memcpy_inline(b5, src, n);
        r += warn_sink(b5, n);
    }
    if (n <= sizeof b24) {
        fc_memcpy_inline(b24, src, n);
        r += warn_sink(b24, n);
    }
    if (n >= 20 && n <= sizeof b200) {
        fc_memcpy_inline(b200, src, n);
        r += warn_sink(b200, n);
    }
    fc_memcpy_inline(b5, src, n & 3);
    r += warn_sink(b5, n & 3);
    fc_memcpy_inline(b24, src, n % 25);
    return r + warn_sink(b24, n % 25);
}

/* struct fields, an offset into an array, the tail of an object */
unsigned warn_struct(struct pkt *p, const struct hdr *h, const unsigned char *data, size_t n);
unsigned warn_struct(struct pkt *p, const struct hdr *h, const unsigned char *data, size_t n)
{
    struct hdr copy;
    fc_memcpy_inline(&copy, h, sizeof copy);
    fc_memcpy_inline(&p->h, h, sizeof p->h);
    fc_memcpy_inline(p->h.mac, data, sizeof p->h.mac);
    fc_memcpy_inline(p->payload + 290, data, 10);
    fc_memcpy_inline(p->payload + 44, data, 256);
    fc_memcpy_inline(p->payload, data, sizeof p->payload);
    if (n <= sizeof p->payload - 100) fc_memcpy_inline(p->payload + 100, data, n);
    return warn_sink(&copy, sizeof copy) + (unsigned)((unsigned char *)fc_memcpy_inline(p, p + 1, 0) - (unsigned char *)p);
}

/* the return value, variable sizes, zero */
void *warn_ret(void *d, const void *s, size_t n);
void *warn_ret(void *d, const void *s, size_t n)
{
    unsigned char z[1];
    fc_memcpy_inline(z, s, 0);
    fc_memcpy_inline(d, z, 0);
    return fc_memcpy_inline(d, s, n);
}
#ifdef __cplusplus
}
#endif
