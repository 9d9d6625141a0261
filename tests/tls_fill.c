/* A library that takes TLS_FILL bytes of the process's static TLS surplus
 * (initial-exec TLS in a dlopen'ed object can only come from there): the
 * fillers of test_tls_dlopen.c. */
#ifndef TLS_FILL
#error "define TLS_FILL"
#endif
__thread char tls_fill_block[TLS_FILL] __attribute__((tls_model("initial-exec")));

char *tls_fill_touch(void);
char *tls_fill_touch(void)
{
    tls_fill_block[TLS_FILL - 1] = 1;
    return tls_fill_block;
}
