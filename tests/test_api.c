/*
 * Registry and dispatch contract.
 *
 *   - the registry lists byte, word-coaligned and generic; names are unique;
 *     fc_impl_at(count) is NULL; fc_impl_find finds each name and rejects
 *     unknown ones; every available entry has both functions and a summary;
 *   - fc_active() names an available entry, and with --expect NAME it is NAME;
 *   - fc_memcpy/fc_memmove copy correctly, including when 8 threads make
 *     their first calls at the same moment.
 *
 * Built several times (static library, shared library lazy and BIND_NOW,
 * fully static executable, pointer dispatch) and run with FASTCOPY_IMPL set
 * to each entry, to an unknown name, and unset (see tests/CMakeLists.txt).
 */
#include "harness.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long checks;
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(c)) fail(__VA_ARGS__);                                                               \
    } while (0)

static void *hammer(void *arg)
{
    unsigned char a[300], b[300];
    size_t seed = (size_t)arg;
    for (int it = 0; it < 2000; it++) {
        size_t n = (seed * 31 + (size_t)it * 7) % 257;
        for (size_t i = 0; i < n + 16; i++) a[i] = (unsigned char)(i * 13 + seed + (size_t)it);
        memset(b, 0, sizeof b);
        if (fc_memcpy(b + 3, a + 1, n) != b + 3 || memcmp(b + 3, a + 1, n) != 0) return (void *)1;
        if (fc_memmove(a + 5, a + 1, n) != a + 5 || memcmp(a + 5, b + 3, n) != 0) return (void *)1;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    install_crash_handler();
    cur.suite = "api";
    const char *expect = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--expect") == 0) expect = argv[i + 1];

    /* Threads first: in pointer mode these may be the very first calls. */
    pthread_t t[8];
    for (size_t i = 0; i < 8; i++) CHECK(pthread_create(&t[i], NULL, hammer, (void *)i) == 0, "pthread_create");
    for (size_t i = 0; i < 8; i++) {
        void *res;
        pthread_join(t[i], &res);
        CHECK(res == NULL, "thread %zu saw a wrong copy through fc_memcpy/fc_memmove", i);
    }

    size_t count = fc_impl_count();
    CHECK(count >= 3, "registry has %zu entries", count);
    CHECK(fc_impl_at(count) == NULL, "fc_impl_at(count) is not NULL");
    CHECK(fc_impl_at((size_t)-1) == NULL, "fc_impl_at(SIZE_MAX) is not NULL");
    CHECK(fc_impl_find("no-such-impl") == NULL, "fc_impl_find of an unknown name");
    CHECK(fc_impl_find(NULL) == NULL, "fc_impl_find(NULL)");
    static const char *required[] = {"byte", "word-coaligned", "generic"};
    for (size_t k = 0; k < 3; k++) {
        const struct fc_impl *im = fc_impl_find(required[k]);
        CHECK(im && im->available, "required entry %s missing or unavailable", required[k]);
    }
    for (size_t i = 0; i < count; i++) {
        const struct fc_impl *im = fc_impl_at(i);
        CHECK(im && im->name && im->name[0] && im->summary && im->summary[0], "entry %zu incomplete", i);
        CHECK(fc_impl_find(im->name) == im, "fc_impl_find(%s) is not entry %zu", im->name, i);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(fc_impl_at(j)->name, im->name) != 0, "duplicate name %s", im->name);
        if (im->available) CHECK(im->memcpy && im->memmove, "%s lacks a function", im->name);
    }

    const char *active = fc_active();
    const struct fc_impl *a = fc_impl_find(active);
    CHECK(a && a->available, "fc_active() = %s is not an available entry", active ? active : "(null)");
    CHECK(fc_active() == active, "fc_active() changed between calls");
    if (expect) CHECK(strcmp(active, expect) == 0, "fc_active() = %s, expected %s", active, expect);
    printf("api: fc_active() = %s%s%s\n", active, expect ? ", as expected: " : "", expect ? expect : "");
    print_count("api", "registry+dispatch checks", checks);
    return 0;
}
