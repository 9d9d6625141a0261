/* A user's shared library that calls fastcopy (install_test.sh). */
#include <fastcopy.h>

void *consumer_lib_copy(void *d, const void *s, size_t n);
void *consumer_lib_copy(void *d, const void *s, size_t n) { return fc_memcpy(d, s, n); }
