/* libfc_ifunc_copy.so's interface (ifunc_copylib.c, test_ifunc_preload.c) */
#ifndef FC_IFUNC_COPYLIB_H
#define FC_IFUNC_COPYLIB_H
#include <stddef.h>
int ifunc_copylib_answer(void);
const char *ifunc_copylib_name(void);
long ifunc_copylib_calls(void);
long ifunc_copylib_bad(const char **fn, size_t *n);
#endif
