#include <fastcopy.h>
#include <fastcopy/inline.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    char a[64] = "fastcopy consumer", b[64] = {0}, c[300], e[300];
    fc_memmove(a + 1, a, 20);
    if (fc_memcpy(b, a, sizeof a) != b || memcmp(a, b, sizeof a) != 0) return 1;
    /* the installed inline header: a constant size, and one above its limit */
    memset(b, 0, sizeof b);
    if (fc_memcpy_inline(b, a, 24) != b || memcmp(a, b, 24) != 0 || b[24] != 0) return 1;
    for (size_t i = 0; i < sizeof c; i++) c[i] = (char)i;
    if (fc_memcpy_inline(e, c, sizeof c) != e || memcmp(c, e, sizeof c) != 0) return 1;
    printf("consumer ok: %s (%zu implementations), fc_memcpy_inline limit %d\n", fc_active(), fc_impl_count(),
           FC_INLINE_MAX);
    return 0;
}
