/*
 * The string and number helpers of the code that runs before libc is usable
 * (ifunc resolvers: src/cpu/, dispatch/select.c), defined once, in
 * dispatch/early.c.  No libc calls, no stack protector, no sanitizer
 * (CMakeLists.txt builds early.c so), and loops the compiler cannot turn into
 * calls to libc's strlen, memset or memcpy.  Everything here is hidden.
 *
 * dispatch/early.c's system-facing functions (fc__early_getenv,
 * fc__copy_bytes, fc__warn, fc__read_file, fc__auxv, fc__secure) are declared
 * in internal.h, beside the rest of the library's internal interface.
 */
#ifndef FC_DISPATCH_EARLY_H
#define FC_DISPATCH_EARLY_H

#include <stddef.h>
#include <stdint.h>

/* strlen */
size_t fc__str_len(const char *s);

/* strcmp(a, b) == 0 */
int fc__str_eq(const char *a, const char *b);

/* prefix at the start of s: what follows it in s, else NULL */
const char *fc__str_after(const char *s, const char *prefix);

/* Appends s to buf[*n..size) and advances *n; buf is always NUL-terminated,
 * and what does not fit is cut (buf never holds more than size - 1 bytes). */
void fc__str_put(char *buf, size_t size, size_t *n, const char *s);

/* Appends v: decimal, or (hex) "0x" and lowercase hexadecimal digits. */
void fc__str_put_num(char *buf, size_t size, size_t *n, uint64_t v, int hex);

/* n zero bytes at d, a byte at a time, never through libc's memset (which the
 * compiler makes of a large struct's clearing). */
void fc__clear_bytes(void *d, size_t n);

/* One unsigned number at p into *out; returns the end of it, or NULL (and
 * *out unchanged) where p holds no digit of the base or the value does not fit
 * in 64 bits.  how: the base - FC_NUM_DEC (digits 0-9), FC_NUM_HEX (an
 * optional 0x or 0X, then hexadecimal digits of either case), FC_NUM_AUTO
 * (hexadecimal after 0x or 0X, else decimal) - and with FC_NUM_KMG an
 * optional binary suffix k, m or g (either case: KiB, MiB, GiB). */
enum { FC_NUM_DEC = 0, FC_NUM_HEX = 1, FC_NUM_AUTO = 2, FC_NUM_KMG = 4 };
const char *fc__parse_num(const char *p, unsigned how, uint64_t *out);

#endif
