/*
 * fastcopy kernel-target /init: a static riscv64 program run as PID 1 from
 * the initramfs of a Linux 6.12 kernel under qemu-system-riscv64 -M virt.
 *
 * Mode (first of the argv words "test" / "bench"; the kernel passes the
 * command-line words after "--" to init in argv; else the environment
 * variable FASTCOPY_INIT_MODE, which a "FASTCOPY_INIT_MODE=bench" word on
 * the kernel command line also sets; else "test"):
 *
 *   test   the write(2) livelock check: write(fd, p, n) from a buffer of
 *          which only the first R bytes are readable (the next page is
 *          unmapped) must return R and append exactly those bytes.  One
 *          summary line per case:
 *            fastcopy-init: write-livelock n=<n> readable=<R> result=<v|hang> expect=<R> <ok|FAIL>
 *          then "fastcopy-init: test-summary pass=<p> fail=<f>".
 *
 *   bench  instruction-count phases for a QEMU plugin: each phase is
 *            printf "fastcopy-init: phase <name>"; fflush; tcdrain;
 *            getppid();  <raw syscalls only>  getppid();
 *          names pipe-32, pipe-64, read-<S>-<O>, write-<S>-<O>
 *          (S in 8192 16384, O in 0..7), preceded by
 *            fastcopy-init: bench-config pipe-iterations=1000 file-iterations=10
 *
 * Both modes end with "fastcopy-init: done" and, as PID 1, sync() and
 * reboot(RB_POWER_OFF); not PID 1 (qemu-user), they exit instead
 * (status 0 when everything passed, 1 otherwise).  Failures print
 * "fastcopy-init: error <what>: <errno text>" and the run goes on.
 *
 * The livelock child calls alarm(3): an unhandled SIGALRM is turned into a
 * group SIGKILL, which the fatal_signal_pending() check in the
 * generic_perform_write() loop sees.  Without CONFIG_POSIX_TIMERS
 * (qemu-virt.config enables it) alarm() fails with ENOSYS; then the parent
 * is the watchdog: it polls waitpid() and after 3 s sends the child SIGALRM
 * itself, which reaches it on a uniprocessor PREEMPT_NONE kernel because
 * that loop calls cond_resched() on each pass.
 *
 * Build: riscv64-linux-gnu-gcc -std=c11 -O2 -Wall -Wextra -Werror -static \
 *          -o init kernel/test/init.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TAG "fastcopy-init: "

#define PIPE_ITERATIONS 1000
#define FILE_ITERATIONS 10
#define FILE_MAX 16384
#define FILE_SIZE (FILE_MAX + 64)

static int failures;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	va_list ap;

	fputs(TAG, stdout);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* "fastcopy-init: error <what>: <errno text>" for errno value e. */
static void error_e(const char *what, int e)
{
	say("error %s: %s", what, strerror(e));
	failures++;
}

static void error_errno(const char *what)
{
	error_e(what, errno);
}

/* ---------------------------------------------------------------- console */

static int fd_ok(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

/*
 * The kernel opens /dev/console for init only when the initramfs has one;
 * tinyconfig has no devtmpfs.  Without fds 0-2 make the node and open it.
 */
static void setup_console(void)
{
	int fd;

	if (fd_ok(0) && fd_ok(1) && fd_ok(2))
		return;
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0) {
		(void)mkdir("/dev", 0755);
		if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) != 0)
			(void)mknod("/dev/console", S_IFCHR | 0600,
				    makedev(5, 1));
		fd = open("/dev/console", O_RDWR | O_NOCTTY);
	}
	if (fd < 0)
		return; /* nowhere to print; run anyway */
	for (int i = 0; i < 3; i++)
		if (!fd_ok(i))
			(void)dup2(fd, i);
	if (fd > 2)
		close(fd);
}

/* --------------------------------------------------------------- power off */

static void finish(void)
{
	say("done");
	if (getpid() != 1)
		exit(failures ? 1 : 0);
	sync();
	if (reboot(RB_POWER_OFF) != 0)
		error_errno("reboot(RB_POWER_OFF)");
	if (reboot(RB_HALT_SYSTEM) != 0)
		error_errno("reboot(RB_HALT_SYSTEM)");
	/* Last resort: init exiting panics the kernel (panic=-1 ends qemu). */
	_exit(1);
}

/* ------------------------------------------------------------ file helpers */

/* A directory on the rootfs (or /tmp) that we may create files in. */
static const char *scratch_dir(void)
{
	struct stat st;

	if (stat("/tmp", &st) == 0 && S_ISDIR(st.st_mode) &&
	    access("/tmp", W_OK | X_OK) == 0)
		return "/tmp";
	return "";
}

static int open_scratch(const char *name, char *path, size_t size)
{
	int fd;

	snprintf(path, size, "%s/%s", scratch_dir(), name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		char what[300];

		snprintf(what, sizeof(what), "open %s", path);
		error_errno(what);
	}
	return fd;
}

static double now_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0.0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* ------------------------------------------------------ write livelock test */

#define HANG_SECONDS 3
#define EXIT_WRITE_ERROR 255

struct livelock_case {
	size_t n, readable;
};

static const struct livelock_case livelock_cases[] = {
	{ 100, 8 },
	{ 100, 1 },
	{ 64, 8 }, /* control */
};

static int itimers_work(void)
{
	struct itimerval zero;

	memset(&zero, 0, sizeof(zero));
	return setitimer(ITIMER_REAL, &zero, NULL) == 0;
}

/* Child: the write under test.  Never returns. */
static void livelock_child(int fd, const unsigned char *src,
			   const struct livelock_case *c, int use_alarm)
{
	ssize_t ret;
	int e;

	if (use_alarm)
		alarm(HANG_SECONDS);
	ret = write(fd, src, c->n);
	e = errno;
	if (use_alarm)
		alarm(0);
	if (ret >= 0)
		printf(TAG "write n=%zu readable=%zu: returned %zd\n", c->n,
		       c->readable, ret);
	else
		printf(TAG "write n=%zu readable=%zu: returned -1 (%s)\n",
		       c->n, c->readable, strerror(e));
	fflush(stdout);
	if (ret < 0)
		_exit(EXIT_WRITE_ERROR);
	_exit(ret > 200 ? 254 : (int)ret);
}

/* Parent: wait for the child, sending it SIGALRM after the deadline. */
static int wait_child(pid_t pid, int use_alarm, int *status)
{
	double deadline = now_s() + (use_alarm ? 2 * HANG_SECONDS :
						 HANG_SECONDS);
	int sent = 0;

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR) {
			error_errno("waitpid");
			return -1;
		}
		if (now_s() >= deadline) {
			if (sent == 0) {
				if (kill(pid, SIGALRM) != 0)
					error_errno("kill SIGALRM");
				deadline = now_s() + 10;
				sent = 1;
			} else if (sent == 1) {
				say("error watchdog: child %d ignores SIGALRM, "
				    "sending SIGKILL", (int)pid);
				failures++;
				if (kill(pid, SIGKILL) != 0)
					error_errno("kill SIGKILL");
				deadline = now_s() + 1e9;
				sent = 2;
			}
		}
		sleep_ms(10);
	}
}

static int livelock_case_run(int fd, unsigned char *page2, size_t page,
			     const struct livelock_case *c, int use_alarm)
{
	const unsigned char *src = page2 - c->readable;
	unsigned char back[256];
	char result[32];
	unsigned char vec;
	struct stat st;
	long ret = -2; /* -2: no write result */
	int status, ok = 1, hang = 0;
	pid_t pid;

	if (ftruncate(fd, 0) != 0) {
		error_errno("ftruncate");
		ok = 0;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		error_errno("lseek");
		ok = 0;
	}
	if (mincore(page2, page, &vec) == 0) {
		say("error mincore: page after the source is mapped");
		failures++;
		ok = 0;
	} else if (errno != ENOMEM) {
		say("warning mincore: %s", strerror(errno));
	}

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		error_errno("fork");
		ret = -2;
		ok = 0;
		snprintf(result, sizeof(result), "error");
		goto summary;
	}
	if (pid == 0)
		livelock_child(fd, src, c, use_alarm);

	if (wait_child(pid, use_alarm, &status) != 0) {
		ok = 0;
		snprintf(result, sizeof(result), "error");
		goto summary;
	}
	if (WIFEXITED(status)) {
		int code = WEXITSTATUS(status);

		if (code == EXIT_WRITE_ERROR) {
			ret = -1;
		} else if (code > 200) {
			say("error write n=%zu readable=%zu: child exit %d",
			    c->n, c->readable, code);
			failures++;
			ret = -2;
		} else {
			ret = code;
		}
		if (ret == -2)
			snprintf(result, sizeof(result), "error");
		else
			snprintf(result, sizeof(result), "%ld", ret);
	} else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		say("write n=%zu readable=%zu: HANG (no return in %d s, "
		    "killed by SIGALRM)", c->n, c->readable, HANG_SECONDS);
		hang = 1;
		snprintf(result, sizeof(result), "hang");
	} else if (WIFSIGNALED(status)) {
		say("write n=%zu readable=%zu: child killed by signal %d (%s)",
		    c->n, c->readable, WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
		snprintf(result, sizeof(result), "signal-%d",
			 WTERMSIG(status));
	} else {
		snprintf(result, sizeof(result), "error");
	}
	if (ret != (long)c->readable)
		ok = 0;

	/* The file must hold exactly the readable bytes. */
	if (fstat(fd, &st) != 0) {
		error_errno("fstat");
		ok = 0;
	} else {
		if (st.st_size != (off_t)c->readable) {
			say("write n=%zu readable=%zu: file size %lld, "
			    "expected %zu", c->n, c->readable,
			    (long long)st.st_size, c->readable);
			ok = 0;
		}
		if (!hang && st.st_size > 0) {
			size_t len = (size_t)st.st_size;
			ssize_t got;

			if (len > c->readable)
				len = c->readable;
			got = pread(fd, back, len, 0);
			if (got < 0) {
				error_errno("pread");
				ok = 0;
			} else if ((size_t)got != len) {
				say("write n=%zu readable=%zu: pread got %zd "
				    "of %zu", c->n, c->readable, got, len);
				ok = 0;
			} else if (memcmp(back, src, len) != 0) {
				for (size_t i = 0; i < len; i++)
					if (back[i] != src[i]) {
						say("write n=%zu readable=%zu: "
						    "content differs at %zu "
						    "(0x%02x, expected 0x%02x)",
						    c->n, c->readable, i,
						    back[i], src[i]);
						break;
					}
				ok = 0;
			}
		}
	}

summary:
	say("write-livelock n=%zu readable=%zu result=%s expect=%zu %s", c->n,
	    c->readable, result, c->readable, ok ? "ok" : "FAIL");
	return ok;
}

static void mode_test(void)
{
	size_t ncase = sizeof(livelock_cases) / sizeof(livelock_cases[0]);
	unsigned char *p;
	char path[256];
	long page;
	int fd, use_alarm, pass = 0, fail = 0;

	fd = open_scratch("livelock.dat", path, sizeof(path));
	page = sysconf(_SC_PAGESIZE);
	if (page <= 0) {
		error_errno("sysconf(_SC_PAGESIZE)");
		page = 4096;
	}
	p = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		error_errno("mmap");
		p = NULL;
	} else {
		for (long i = 0; i < page; i++)
			p[i] = (unsigned char)(i * 7 + 0x41);
		if (munmap(p + page, (size_t)page) != 0)
			error_errno("munmap");
	}
	use_alarm = itimers_work();
	say("write-livelock file %s page %ld watchdog %s", path, page,
	    use_alarm ? "child-alarm" : "parent-sigalrm");

	for (size_t i = 0; i < ncase; i++) {
		const struct livelock_case *c = &livelock_cases[i];

		if (fd < 0 || p == NULL) {
			say("write-livelock n=%zu readable=%zu result=error "
			    "expect=%zu FAIL", c->n, c->readable, c->readable);
			fail++;
			continue;
		}
		if (livelock_case_run(fd, p + page, (size_t)page, c,
				      use_alarm))
			pass++;
		else
			fail++;
	}
	say("test-summary pass=%d fail=%d", pass, fail);
	if (fail)
		failures++;
	if (fd >= 0) {
		close(fd);
		if (unlink(path) != 0)
			error_errno("unlink");
	}
}

/* ------------------------------------------------------------------- bench */

/* Raw system call: no errno, no libc code between the markers. */
static inline long raw4(long nr, long a0, long a1, long a2, long a3)
{
#if defined(__riscv)
	register long x10 __asm__("a0") = a0;
	register long x11 __asm__("a1") = a1;
	register long x12 __asm__("a2") = a2;
	register long x13 __asm__("a3") = a3;
	register long x17 __asm__("a7") = nr;

	__asm__ volatile("ecall"
			 : "+r"(x10)
			 : "r"(x11), "r"(x12), "r"(x13), "r"(x17)
			 : "memory");
	return x10;
#else
	long r = syscall(nr, a0, a1, a2, a3);

	return r < 0 ? -errno : r;
#endif
}

static inline void marker(void)
{
	(void)raw4(SYS_getppid, 0, 0, 0, 0);
}

static unsigned char pipe_wbuf[64] __attribute__((aligned(64)));
static unsigned char pipe_rbuf[64] __attribute__((aligned(64)));
static unsigned char file_buf[FILE_SIZE + 64] __attribute__((aligned(64)));

struct phase_error {
	const char *what;
	long ret; /* raw return: -errno, or a short count */
	long want;
};

static void phase_begin(const char *name)
{
	printf(TAG "phase %s\n", name);
	fflush(stdout);
	(void)tcdrain(STDOUT_FILENO); /* no console output inside the phase */
	marker();
}

static void phase_report(const char *name, const struct phase_error *pe)
{
	char what[128];

	if (pe->what == NULL)
		return;
	snprintf(what, sizeof(what), "phase %s %s", name, pe->what);
	if (pe->ret < 0)
		error_e(what, (int)-pe->ret);
	else {
		say("error %s: returned %ld, expected %ld", what, pe->ret,
		    pe->want);
		failures++;
	}
}

static void bench_pipe(long m)
{
	struct phase_error pe = { NULL, 0, 0 };
	char name[32];
	int fds[2];

	snprintf(name, sizeof(name), "pipe-%ld", m);
	if (pipe(fds) != 0) {
		error_errno("pipe");
		return;
	}
	memset(pipe_wbuf, 0x5a, sizeof(pipe_wbuf));
	memset(pipe_rbuf, 0, sizeof(pipe_rbuf));

	phase_begin(name);
	for (long k = 0; k < PIPE_ITERATIONS; k++) {
		long r = raw4(SYS_write, fds[1], (long)pipe_wbuf, m, 0);

		if (r != m) {
			pe = (struct phase_error){ "write", r, m };
			break;
		}
		r = raw4(SYS_read, fds[0], (long)pipe_rbuf, m, 0);
		if (r != m) {
			pe = (struct phase_error){ "read", r, m };
			break;
		}
	}
	marker();

	phase_report(name, &pe);
	close(fds[0]);
	close(fds[1]);
}

static void bench_file_phase(int fd, int is_write, long size, long off)
{
	long nr = is_write ? SYS_pwrite64 : SYS_pread64;
	const char *op = is_write ? "pwrite" : "pread";
	struct phase_error pe = { NULL, 0, 0 };
	long buf = (long)(file_buf + off);
	char name[32];
	long r;

	snprintf(name, sizeof(name), "%s-%ld-%ld", is_write ? "write" : "read",
		 size, off);
	/* Warm-up call outside the markers: caches, TLB, page cache. */
	r = raw4(nr, fd, buf, size, 0);
	if (r != size) {
		pe = (struct phase_error){ op, r, size };
		phase_report(name, &pe);
		return;
	}

	phase_begin(name);
	for (long k = 0; k < FILE_ITERATIONS; k++) {
		r = raw4(nr, fd, buf, size, 0);
		if (r != size) {
			pe = (struct phase_error){ op, r, size };
			break;
		}
	}
	marker();

	phase_report(name, &pe);
}

static void mode_bench(void)
{
	static const long sizes[] = { 8192, FILE_MAX };
	char path[256];
	size_t done = 0;
	int fd;

	say("bench-config pipe-iterations=%d file-iterations=%d",
	    PIPE_ITERATIONS, FILE_ITERATIONS);

	bench_pipe(32);
	bench_pipe(64);

	fd = open_scratch("bench.dat", path, sizeof(path));
	if (fd < 0)
		return;
	/* Fill the file and fault in the whole user buffer. */
	for (size_t i = 0; i < sizeof(file_buf); i++)
		file_buf[i] = (unsigned char)(i * 13 + 1);
	while (done < FILE_SIZE) {
		ssize_t w = write(fd, file_buf + done, FILE_SIZE - done);

		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			error_errno("write bench file");
			close(fd);
			return;
		}
		done += (size_t)w;
	}

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (long off = 0; off < 8; off++) {
			bench_file_phase(fd, 0, sizes[s], off);
			bench_file_phase(fd, 1, sizes[s], off);
		}

	close(fd);
	if (unlink(path) != 0)
		error_errno("unlink");
}

/* -------------------------------------------------------------------- main */

static const char *mode_word(const char *s)
{
	if (s != NULL && strcmp(s, "test") == 0)
		return "test";
	if (s != NULL && strcmp(s, "bench") == 0)
		return "bench";
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = NULL;
	const char *env;

	setup_console();
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (int i = 1; i < argc && mode == NULL; i++)
		mode = mode_word(argv[i]);
	env = getenv("FASTCOPY_INIT_MODE");
	if (mode == NULL && env != NULL && env[0] != '\0') {
		mode = mode_word(env);
		if (mode == NULL) {
			say("error mode: unknown FASTCOPY_INIT_MODE '%s', "
			    "using test", env);
			failures++;
		}
	}
	if (mode == NULL)
		mode = "test";

	say("mode %s pid %d", mode, (int)getpid());
	if (strcmp(mode, "bench") == 0)
		mode_bench();
	else
		mode_test();
	finish();
	return 0;
}
