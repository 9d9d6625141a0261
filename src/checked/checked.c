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
 * SA_NODEFER), once per process, on the first fc_copy_checked call; after
 * that, each call tests one variable (x86-64: the byte fc__checked_mode, in
 * checked.S; elsewhere fc_installed, below).  The installation never waits
 * for another caller: every caller that finds it not done does it all
 * itself (fc_install_one), so a signal handler that interrupts it in the same
 * thread, and a child forked while another thread is inside it, complete it
 * too.  Each previous disposition is kept and a fault that is not ours goes
 * to it ("chaining"), as the kernel would have delivered it:
 *   - a handler (SA_SIGINFO or not): called with the same arguments, with its
 *     sa_mask and, without SA_NODEFER, its own signal blocked; with
 *     SA_RESETHAND only once, SIG_DFL after;
 *   - SIG_DFL, or SIG_IGN for a fault the kernel raised: the default action
 *     is restored; a fault then faults again when the handler returns, and a
 *     signal that does not come again by itself (sent, or an asynchronous
 *     notice) is delivered again: the process dies of it (core dump and exit
 *     status as without fastcopy; the kernel does not let a program ignore a
 *     fault it raises);
 *   - SIG_IGN for a signal another process sent (si_code <= 0) or one of the
 *     kernel's asynchronous notices (BUS_MCEERR_AO, SEGV_MTEAERR): ignored.
 * A program that installs its own SIGSEGV/SIGBUS handler after the first
 * fc_copy_checked must call fc_checked_handle_fault first thing in it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "fastcopy.h"
#include "internal.h"

#if defined(FC_HAVE_COPY_CHECKED)
#if defined(__x86_64__)
#include "cpu/x86.h"

/* checked.S */
size_t fc__checked_sse2(void *dst, const void *src, size_t n);
size_t fc__checked_avx2(void *dst, const void *src, size_t n);
_Static_assert(offsetof(struct fc_x86_tune, nt_threshold) == 0 && offsetof(struct fc_x86_tune, movsb_min) == 8 &&
                   offsetof(struct fc_x86_tune, movsb_max) == 16 && offsetof(struct fc_x86_tune, special_min) == 24 &&
                   offsetof(struct fc_x86_tune, movsb_gap) == 32,
               "checked.S reads these fields at its FC_TUNE_* offsets");
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
static int fc_prev_spent[2];        /* a SA_RESETHAND handler's one call made: SIG_DFL since */
#if defined(__x86_64__)
/* Read by fc_copy_checked (checked.S) on every call: 0 until the handlers are
 * in (it then calls fc__checked_first), then 1 (the avx2 copy) or 2 (sse2). */
unsigned char fc__checked_mode;
size_t fc__checked_first(void *dst, const void *src, size_t n);
#endif
static int fc_installed; /* 1 once a caller in this process has installed both handlers */
#ifdef FC_TEST_HOOKS
/* tests/test_first_use.c: called inside the installation, between reading
 * SIGSEGV's disposition and installing fastcopy's handler over it */
void (*fc__checked_test_hook)(void);
#endif

static void fc_checked_signal(int sig, siginfo_t *info, void *ucontext);

static int fc_is_ours(const struct sigaction *a)
{
    return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == fc_checked_signal;
}

/* The previous disposition is a handler (SA_SIGINFO's sa_sigaction shares
 * storage with sa_handler: SIG_DFL and SIG_IGN read the same through both). */
static int fc_is_handler(const struct sigaction *a) { return a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN; }

/* The previous handler, called as the kernel would have called it: with its
 * sa_mask and (without SA_NODEFER) its own signal blocked, so that a fault
 * inside it kills the process as it would have without fastcopy, rather than
 * re-entering it.  No need to restore the mask: returning from this handler
 * restores the interrupted context's, as the kernel's return from the
 * previous handler would have. */
static void fc_call_prev(int sig, siginfo_t *info, void *ucontext, const struct sigaction *p)
{
    sigprocmask(SIG_BLOCK, &p->sa_mask, NULL);
    if (!(p->sa_flags & SA_NODEFER)) {
        sigset_t own;
        sigemptyset(&own);
        sigaddset(&own, sig);
        sigprocmask(SIG_BLOCK, &own, NULL);
    }
    if (p->sa_flags & SA_SIGINFO)
        p->sa_sigaction(sig, info, ucontext);
    else
        p->sa_handler(sig);
}

/* Signals with si_code > 0 that the kernel sends asynchronously: nothing
 * faults again when the handler returns (a memory error found in the
 * background; an asynchronous MTE tag-check fault, AArch64). */
#ifndef SEGV_MTEAERR
#define SEGV_MTEAERR 8
#endif
static int fc_async_notice(int sig, const siginfo_t *info)
{
    return sig == SIGBUS ? info->si_code == BUS_MCEERR_AO : info->si_code == SEGV_MTEAERR;
}

/* The default action of sig, as the kernel would have taken it: SIG_DFL
 * restored, then
 *   - a fault (si_code > 0): returning re-runs the instruction, which faults
 *     again into the default action: the process dies there with the
 *     fault's own siginfo (core dump and exit status as without fastcopy);
 *   - a signal that will not come again by itself (sent by a process, si_code
 *     <= 0, or one of the kernel's asynchronous notices): delivered again,
 *     blocked now and unblocked by the return (which restores the interrupted
 *     context's mask), so it kills the process at the interrupted
 *     instruction.  A sent one is queued again with its own siginfo; a
 *     notice is raised (si_code SI_TKILL): a SIGSEGV/SIGBUS a process queues
 *     itself with si_code > 0 is taken for a fault by qemu-user, which then
 *     aborts. */
static void fc_default_action(int sig, siginfo_t *info)
{
    static struct sigaction dfl; /* zero: SIG_DFL, empty mask, no flags */
    sigaction(sig, &dfl, NULL);
    int sent = info->si_code <= 0;
    if (!sent && !fc_async_notice(sig, info)) return;
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    sigprocmask(SIG_BLOCK, &one, NULL);
    if (!sent || syscall(SYS_rt_tgsigqueueinfo, (long)getpid(), (long)syscall(SYS_gettid), (long)sig, info) != 0)
        raise(sig); /* pending until the return unblocks it */
}

static void fc_checked_signal(int sig, siginfo_t *info, void *ucontext)
{
    if (fc_checked_handle_fault(sig, info, ucontext)) return;
    int i = sig == SIGBUS;
    const struct sigaction *p = &fc_prev[i];
    /* SA_RESETHAND: the kernel resets the disposition to SIG_DFL as it calls
     * the handler, so the handler runs once; later signals get the default */
    int spent = (p->sa_flags & SA_RESETHAND) && __atomic_exchange_n(&fc_prev_spent[i], 1, __ATOMIC_ACQ_REL);
    int handler = fc_is_handler(p) && !spent;
    if (handler) {
        fc_call_prev(sig, info, ucontext, p);
    } else if (fc_is_handler(p) || p->sa_handler == SIG_DFL) {
        fc_default_action(sig, info);
    } else if (info->si_code <= 0 || fc_async_notice(sig, info)) {
        /* SIG_IGN, and a signal a process sent or one of the kernel's
         * asynchronous notices: ignored, as it was */
    } else {
        /* SIG_IGN, and a fault: the kernel does not let a program ignore one */
        fc_default_action(sig, info);
    }
}

/* Installs fastcopy's handler for sig over the disposition there, which it
 * keeps in *prev.  Idempotent, and it never waits: callers racing through it
 * (threads, a signal handler that interrupts the installation in its own
 * thread, a child forked in the middle of it) each complete it.  A
 * disposition that is fastcopy's own is never kept as the previous one, and
 * the previous one is stored before the handler goes in (a fault in another
 * thread the moment after finds it); racing callers store the same value. */
static void fc_install_one(int sig, struct sigaction *prev, const struct sigaction *ours)
{
    struct sigaction cur, old;
    sigaction(sig, NULL, &cur);
    if (fc_is_ours(&cur)) return;
    fc__copy_bytes(prev, &cur, sizeof *prev); /* no libc copy here */
#ifdef FC_TEST_HOOKS
    if (sig == SIGSEGV && fc__checked_test_hook) fc__checked_test_hook();
#endif
    sigaction(sig, ours, &old);
    if (!fc_is_ours(&old)) fc__copy_bytes(prev, &old, sizeof *prev); /* changed between the two calls: the newer one */
}

/* A child of fork() installs again at its first copy (idempotent: it keeps
 * the handlers it inherited).  fork() copies the signal dispositions before
 * the memory: a thread of the parent that installs in between leaves a child
 * that reads "installed" from memory with the dispositions from before (seen
 * in 6 of 3,000 forks made while another thread made its first copy).
 * Registered at load, not at the first copy: pthread_atfork takes a lock that
 * a signal handler interrupting the installation could not take again. */
static void fc_checked_forked(void)
{
#if defined(__x86_64__)
    __atomic_store_n(&fc__checked_mode, 0, __ATOMIC_RELAXED);
#endif
    __atomic_store_n(&fc_installed, 0, __ATOMIC_RELAXED);
}

__attribute__((constructor)) static void fc_checked_at_load(void) { pthread_atfork(NULL, NULL, fc_checked_forked); }

__attribute__((noinline, cold)) static void fc_checked_install(void)
{
#if defined(__x86_64__)
    /* the ymm copy where fc_memcpy runs a ymm or zmm entry (FASTCOPY_IMPL=sse2, or
     * a CPU without AVX2: the xmm one) */
    const char *a = fc_active();
    unsigned char mode = fc__x86_info()->avx2 && a[0] == 'a' && a[1] == 'v' ? 1 : 2;
#endif
    struct sigaction sa;
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = fc_checked_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    fc_install_one(SIGSEGV, &fc_prev[0], &sa);
    fc_install_one(SIGBUS, &fc_prev[1], &sa);
    /* the copy only once the handlers are in: a thread that reads this
     * mode reads a store that follows the sigaction calls */
#if defined(__x86_64__)
    __atomic_store_n(&fc__checked_mode, mode, __ATOMIC_RELEASE);
#endif
    __atomic_store_n(&fc_installed, 1, __ATOMIC_RELEASE);
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
    if (__builtin_expect(!__atomic_load_n(&fc_installed, __ATOMIC_ACQUIRE), 0)) fc_checked_install();
    return fc__checked_copy(dst, src, n);
}
#endif
#endif
