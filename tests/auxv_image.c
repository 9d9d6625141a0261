/*
 * Writes an image of this process's auxiliary vector (/proc/self/auxv) with
 * AT_SECURE set to the value given - for the secure-execution tests, which
 * hand it to a hooks build of the library (FASTCOPY_TEST_AUXV) so that the
 * library's own auxv parser reads it.
 *   auxv_image FILE SECURE
 */
#include <stdio.h>
#include <stdlib.h>

#define AT_NULL_ 0
#define AT_SECURE_ 23

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: auxv_image FILE SECURE\n");
        return 2;
    }
    unsigned long v[512][2];
    FILE *in = fopen("/proc/self/auxv", "rb");
    size_t n = in ? fread(v, sizeof v[0], 511, in) : 0;
    if (in) fclose(in);
    size_t k = 0, secure = 0;
    for (; k < n && v[k][0] != AT_NULL_; k++)
        if (v[k][0] == AT_SECURE_) v[k][1] = strtoul(argv[2], NULL, 0), secure = 1;
    if (!secure) v[k][0] = AT_SECURE_, v[k][1] = strtoul(argv[2], NULL, 0), k++;
    v[k][0] = AT_NULL_, v[k][1] = 0, k++;
    FILE *out = fopen(argv[1], "wb");
    if (!out || fwrite(v, sizeof v[0], k, out) != k || fclose(out) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
