/*
 * libfastcopy.a inside other shared objects (tests/embed_lib.c):
 *   test_embed linked              the embed library this program is linked to
 *   test_embed dlopen A.so B.so    two plugins, each with its own copy of the
 *                                  archive, loaded with RTLD_NOW | RTLD_GLOBAL
 *                                  (the binding most prone to cross-binding)
 * Each must copy correct bytes, and each plugin must use its own registry.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifdef EMBED_LINKED
int embed_check(void);
const char *embed_active(void);
#endif

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "linked") == 0) {
#ifdef EMBED_LINKED
        int bad = embed_check();
        printf("embed: %s, %d wrong results\n", embed_active(), bad);
        return bad != 0;
#else
        fprintf(stderr, "built without an embed library\n");
        return 2;
#endif
    }
    if (argc == 4 && strcmp(argv[1], "dlopen") == 0) {
        const void *reg[2] = {NULL, NULL};
        for (int i = 0; i < 2; i++) {
            const char *path = argv[2 + i];
            void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
            if (!h) {
                fprintf(stderr, "FAIL: dlopen %s: %s\n", path, dlerror());
                return 1;
            }
            int (*check)(void) = (int (*)(void))dlsym(h, "embed_check");
            const char *(*active)(void) = (const char *(*)(void))dlsym(h, "embed_active");
            const void *(*registry)(void) = (const void *(*)(void))dlsym(h, "embed_registry");
            if (!check || !active || !registry) {
                fprintf(stderr, "FAIL: %s lacks the embed_* functions\n", path);
                return 1;
            }
            int bad = check();
            reg[i] = registry();
            Dl_info where;
            if (!dladdr(reg[i], &where) || !where.dli_fname) {
                fprintf(stderr, "FAIL: %s: its registry %p is in no loaded object\n", path, reg[i]);
                return 1;
            }
            /* dlopen gave the path as is: compare the file names */
            const char *a = strrchr(path, '/'), *b = strrchr(where.dli_fname, '/');
            a = a ? a + 1 : path;
            b = b ? b + 1 : where.dli_fname;
            printf("plugin %s: %s, %d wrong results, registry in %s\n", a, active(), bad, b);
            if (bad) return 1;
            if (strcmp(a, b) != 0) {
                fprintf(stderr, "FAIL: plugin %s uses the fastcopy registry of %s\n", a, b);
                return 1;
            }
        }
        if (reg[0] == reg[1]) {
            fprintf(stderr, "FAIL: the two plugins share one registry\n");
            return 1;
        }
        return 0;
    }
    fprintf(stderr, "usage: test_embed linked | dlopen A.so B.so\n");
    return 2;
}
