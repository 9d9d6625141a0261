/*
 * checked.c - the signal side of fc_copy_checked: fc_checked_handle_fault,
 * the handlers and their installation on first use (fc_copy_checked's entry
 * and the copy itself: src/x86/checked.S, src/aarch64/checked.S,
 * src/riscv/rv64_checked.S, src/s390x/checked.S, src/i386/checked.S).
 *
 * Mechanism (the kernel's exception tables, per routine): the copy's
 * instructions that may fault lie in address ranges, each with a fixup
 * address, listed in the assembly's fc__checked_table.  A SIGSEGV or SIGBUS
 * whose interrupted instruction lies in a range is resolved by setting the
 * context's instruction pointer to that range's fixup and returning: the
 * kernel then resumes the copy there, which finishes it byte by byte and
 * returns the exact count (see each .S file).  The copy keeps everything the
 * fixups need in registers, so the handler reads nothing but the context and
 * the constant table: no thread-local storage, no locks, no libc call on
 * that path.
 *
 * Installation: SIGSEGV and SIGBUS handlers (SA_SIGINFO | SA_ONSTACK |
 * SA_NODEFER), once per process, on the first fc_copy_checked call (an
 * atomic state word: the first caller installs, concurrent first callers wait
 * for it); after that, each call tests one variable (x86-64: the byte
 * fc__checked_mode, in checked.S; elsewhere fc_state, below).  Each previous
 * disposition is kept and a fault that is not ours goes to it ("chaining"):
 *   - a handler (SA_SIGINFO or not): called with the same arguments;
 *   - SIG_DFL, or SIG_IGN for a fault the kernel raised: the default action
 *     is restored and the handler returns; the faulting instruction runs
 *     again, faults again, and the process dies of that signal (core dump and
 *     exit status as without fastcopy: the kernel does not let a program
 *     ignore a fault it raises);
 *   - SIG_IGN for a signal another process sent (si_code <= 0): ignored.
 * The previous handler runs with this handler's signal mask, not its own
 * sa_mask.  A program that installs its own SIGSEGV/SIGBUS handler after the
 * first fc_copy_checked must call fc_checked_handle_fault first thing in it.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

#include "fastcopy.h"

#if defined(FC_HAVE_COPY_CHECKED)
#if defined(__x86_64__)
#include "cpu/x86.h"

/* checked.S */
size_t fc__checked_sse2(void *dst, const void *src, size_t n);
size_t fc__checked_avx2(void *dst, const void *src, size_t n);
_Static_assert(offsetof(struct fc_x86_tune, nt_threshold) == 0, "checked.S reads nt_threshold at offset 0");
/* the interrupted instruction's address in a signal context */
#define FC_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#elif defined(__aarch64__)
size_t fc__checked_copy(void *dst, const void *src, size_t n); /* aarch64/checked.S */
#define FC_PC(uc) ((uc)->uc_mcontext.pc)
#elif defined(__riscv)
size_t fc__checked_copy(void *dst, const void *src, size_t n); /* riscv/rv64_checked.S */
#define FC_PC(uc) ((uc)->uc_mcontext.__gregs[REG_PC])
#elif defined(__s390x__)
size_t fc__checked_copy(void *dst, const void *src, size_t n); /* s390x/checked.S */
#define FC_PC(uc) ((uc)->uc_mcontext.psw.addr)
#elif defined(__i386__)
size_t fc__checked_copy(void *dst, const void *src, size_t n); /* i386/checked.S */
#define FC_PC(uc) ((uc)->uc_mcontext.gregs[REG_EIP])
#endif

/* The copy's fault ranges (the assembly's fc__checked_table): a fault whose
 * pc lies in [begin, end) resumes at fixup.  Ended by a zero entry. */
struct fc_checked_range {
    uintptr_t begin, end, fixup;
};
extern const struct fc_checked_range fc__checked_table[];

int fc_checked_handle_fault(int sig, siginfo_t *info, void *ucontext)
{
    if ((sig != SIGSEGV && sig != SIGBUS) || !info || !ucontext || info->si_code <= 0)
        return 0; /* not a fault the kernel raised (kill, sigqueue, tgkill) */
    ucontext_t *uc = ucontext;
    uintptr_t pc = (uintptr_t)FC_PC(uc);
    for (const struct fc_checked_range *r = fc__checked_table; r->end; r++)
        if (pc - r->begin < r->end - r->begin) {
            FC_PC(uc) = r->fixup;
            return 1;
        }
    return 0;
}

static struct sigaction fc_prev[2]; /* [0] SIGSEGV, [1] SIGBUS: what was there before */
#if defined(__x86_64__)
/* Read by fc_copy_checked (checked.S) on every call: 0 until the handlers are
 * in (it then calls fc__checked_first), then 1 (the avx2 copy) or 2 (sse2). */
unsigned char fc__checked_mode;
size_t fc__checked_first(void *dst, const void *src, size_t n);
#endif
static int fc_state; /* 0: not installed, 1: being installed, 2: installed */

static void fc_checked_signal(int sig, siginfo_t *info, void *ucontext)
{
    if (fc_checked_handle_fault(sig, info, ucontext)) return;
    const struct sigaction *p = &fc_prev[sig == SIGBUS];
    if (p->sa_flags & SA_SIGINFO) {
        p->sa_sigaction(sig, info, ucontext);
    } else if (p->sa_handler == SIG_IGN && info->si_code <= 0) {
        /* ignored, as it was */
    } else if (p->sa_handler == SIG_DFL || p->sa_handler == SIG_IGN) {
        static struct sigaction dfl; /* zero: SIG_DFL, empty mask, no flags */
        sigaction(sig, &dfl, NULL);
        if (info->si_code <= 0) raise(sig); /* sent, not raised by a fault: deliver it again on return */
        /* a fault: returning re-runs the instruction, which faults into the default action */
    } else {
        p->sa_handler(sig);
    }
}

__attribute__((noinline, cold)) static void fc_checked_install(void)
{
    int expect = 0;
    if (__atomic_compare_exchange_n(&fc_state, &expect, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
#if defined(__x86_64__)
        /* the ymm copy where fc_memcpy runs a ymm or zmm entry (FASTCOPY_IMPL=sse2, or
         * a CPU without AVX2: the xmm one) */
        const char *a = fc_active();
        unsigned char mode = fc__x86_info()->avx2 && a[0] == 'a' && a[1] == 'v' ? 1 : 2;
#endif
        static struct sigaction sa;
        sa.sa_sigaction = fc_checked_signal;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        /* the previous dispositions are read first so that a fault between the
         * installation and sigaction's report of the old one finds them */
        sigaction(SIGSEGV, NULL, &fc_prev[0]);
        sigaction(SIGBUS, NULL, &fc_prev[1]);
        sigaction(SIGSEGV, &sa, &fc_prev[0]);
        sigaction(SIGBUS, &sa, &fc_prev[1]);
        /* the copy only once the handlers are in: a thread that reads this
         * mode reads a store that follows the sigaction calls */
#if defined(__x86_64__)
        __atomic_store_n(&fc__checked_mode, mode, __ATOMIC_RELEASE);
#endif
        __atomic_store_n(&fc_state, 2, __ATOMIC_RELEASE);
        return;
    }
    while (__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE) != 2) {
#if defined(__x86_64__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ volatile("yield");
#endif
    }
}

#if defined(__x86_64__)
size_t fc__checked_first(void *dst, const void *src, size_t n)
{
    fc_checked_install();
    return __atomic_load_n(&fc__checked_mode, __ATOMIC_ACQUIRE) == 1 ? fc__checked_avx2(dst, src, n)
                                                                     : fc__checked_sse2(dst, src, n);
}
#else
/* The API's entry where the copy is one routine: the handlers first (one
 * acquire load once they are in), then the copy. */
size_t fc_copy_checked(void *restrict dst, const void *restrict src, size_t n)
{
    if (__builtin_expect(__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE) != 2, 0)) fc_checked_install();
    return fc__checked_copy(dst, src, n);
}
#endif
#endif
