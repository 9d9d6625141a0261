#include <fastcopy.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    char a[64] = "fastcopy consumer", b[64] = {0};
    fc_memmove(a + 1, a, 20);
    if (fc_memcpy(b, a, sizeof a) != b || memcmp(a, b, sizeof a) != 0) return 1;
    printf("consumer ok: %s (%zu implementations)\n", fc_active(), fc_impl_count());
    return 0;
}
