/*
 * The three functions scripts/rv-audit/plugin.c recognises by symbol name: it
 * counts what runs between fc_audit_begin() and fc_audit_end(), leaving out
 * those two and fc_audit_call().  Included by exactly one file of each
 * audited program (driver.c, kernel/test/umemcpy.c): the definitions are
 * external so that the symbols exist under these names.
 */
#ifndef FC_RV_AUDIT_HOOKS_H
#define FC_RV_AUDIT_HOOKS_H
#include <stddef.h>

static volatile int fc_audit_sink;

/* Out of line and distinct, so the plugin can find them. */
__attribute__((noinline, noipa)) void fc_audit_begin(void);
__attribute__((noinline, noipa)) void fc_audit_end(void);
__attribute__((noinline, noipa)) void *fc_audit_call(void *(*fn)(void *, const void *, size_t), void *d,
                                                      const void *s, size_t n);
void fc_audit_begin(void) { fc_audit_sink = 1; }
void fc_audit_end(void) { fc_audit_sink = 2; }
void *fc_audit_call(void *(*fn)(void *, const void *, size_t), void *d, const void *s, size_t n)
{
    fc_audit_begin();
    void *r = fn(d, s, n);
    fc_audit_end();
    return r;
}
#endif
