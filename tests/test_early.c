/*
 * The ifunc resolver's environment reader (src/dispatch/early.c), tested
 * directly on both of its paths: `environ` (set) and /proc/self/environ
 * (with environ forced to NULL, as in a BIND_NOW resolver).  ctest starts it
 * with padding variables larger than the reader's 512-byte chunks and with
 * names that are prefixes or extensions of each other.
 */
#include "harness.h"

#include <stdio.h>
#include <string.h>

#include "internal.h"

extern char **environ;
static unsigned long long checks;

/* want: the value expected in buf (NULL: unset); cut: the reader must say it did
 * not fit (2) rather than found (1), so that no caller acts on a prefix. */
static void expect_cut(const char *name, const char *want, size_t size, const char *path, int cut)
{
    char buf[256];
    int got = fc__early_getenv(name, buf, size);
    checks++;
    if (!want && got) fail("%s path: %s should be unset, got '%s'", path, name, buf);
    if (want && (got != 1 + cut || strcmp(buf, want) != 0))
        fail("%s path: %s = '%s' (returned %d), expected '%s' (returned %d)", path, name, got ? buf : "", got, want,
             1 + cut);
}

static void expect(const char *name, const char *want, size_t size, const char *path)
{
    expect_cut(name, want, size, path, 0);
}

static void all(const char *path)
{
    expect("FC_PROBE", "value", 256, path);
    expect("FC_PROBE_LONG", "a=b=c", 256, path);    /* '=' inside the value */
    expect("FC_PROB", "short", 256, path);           /* a prefix of another name */
    expect("FC_PROBE_MISSING", NULL, 256, path);
    expect("FC_PRO", NULL, 256, path);               /* prefix of names, itself unset */
    expect_cut("FC_PROBE", "val", 4, path, 1);       /* cut to the buffer, and said so */
    expect("FC_PROBE", "value", 6, path);            /* exactly fits */
    expect("FC_EMPTY", "", 256, path);
    expect("FC_LAST", "end", 256, path);             /* after the padding: past several chunks */
}

int main(void)
{
    cur.suite = "early-env";
    all("environ");
    char **saved = environ;
    environ = NULL;
    all("/proc/self/environ");
    environ = saved;
    print_count("early", "environment lookups", checks);
    return 0;
}
