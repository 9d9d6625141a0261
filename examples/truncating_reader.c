/*
 * truncating_reader - fc_copy_checked's worked example: read fixed-size
 * records out of a shared file mapping while another process truncates the
 * file and grows it again at random, the situation of a Wayland compositor
 * reading a client's shm buffer, a database reading its mmap'ed file, or a
 * backend reading a peer's shared memory.
 *
 * A plain memcpy from such a mapping dies of SIGBUS as soon as the copy
 * reaches a page past the file's current end.  fc_copy_checked returns the
 * number of bytes it could not copy instead, so the reader can treat the
 * record as short (here: count it and go on; a compositor would send the
 * client a protocol error).
 *
 *   truncating_reader [SECONDS [RECORD_BYTES]]     (defaults: 2 s, 3000 B)
 *
 * What it checks, and prints: every copy returned (no crash), and every byte
 * copied is the record's byte or zero (the writer re-extends the file with
 * zeros, then writes the records back).  It counts the short copies by where
 * they stopped: at the record's first byte (empty), at a page boundary (the
 * first page past the file's end: SIGBUS comes page by page), or inside a
 * page (the file shrank while the copy was reading that page: the count is
 * exact for the file as it was at the fault).  It exits 1 when a check fails or when the
 * run saw no short copy or no full one (the example would then show
 * nothing), 0 otherwise.
 *
 * What fc_copy_checked does not protect against: a fault in the caller's own
 * code.  Once the copy has returned, the reader works on its private copy in
 * `rec`; it must never dereference the mapping directly (a header read
 * through a pointer into the mapping can still fault), and a truncation
 * after the copy is not seen until the next one.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fastcopy.h"

#ifndef FC_HAVE_COPY_CHECKED
int main(void)
{
    puts("truncating_reader: fc_copy_checked is not built for this target");
    return 77;
}
#else

enum { RECORDS = 64 };

static unsigned char rec_byte(size_t record, size_t i) { return (unsigned char)(record * 37u + i * 11u + 1u); }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The other process: shrink the file to a random length, wait a little, grow
 * it back to full size (zeros) and write every record again. */
static void writer(int fd, size_t rsize, double seconds, const unsigned char *image)
{
    size_t full = RECORDS * rsize;
    unsigned seed = (unsigned)getpid();
    double end = now() + seconds;
    while (now() < end) {
        off_t len = (off_t)(rand_r(&seed) % (full + 1));
        if (ftruncate(fd, len)) _exit(2);
        usleep(200 + rand_r(&seed) % 800);
        if (ftruncate(fd, (off_t)full)) _exit(2);
        if (pwrite(fd, image, full, 0) != (ssize_t)full) _exit(2);
        usleep(200 + rand_r(&seed) % 800);
    }
    _exit(0);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    size_t rsize = argc > 2 ? strtoul(argv[2], NULL, 0) : 3000;
    long pg = sysconf(_SC_PAGESIZE);
    if (seconds <= 0 || rsize == 0 || rsize > (1u << 20)) {
        fprintf(stderr, "usage: truncating_reader [SECONDS [RECORD_BYTES (1..1048576)]]\n");
        return 2;
    }
    size_t full = RECORDS * rsize;
    unsigned char *image = malloc(full), *rec = malloc(rsize);
    if (!image || !rec) return 2;
    for (size_t r = 0; r < RECORDS; r++)
        for (size_t i = 0; i < rsize; i++) image[r * rsize + i] = rec_byte(r, i);

    int fd = memfd_create("records", 0);
    if (fd < 0 || ftruncate(fd, (off_t)full) || pwrite(fd, image, full, 0) != (ssize_t)full) {
        perror("memfd");
        return 2;
    }
    /* the reader maps the whole file once; its length then changes under it */
    const unsigned char *map = mmap(NULL, full, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 2;
    }
    if (child == 0) writer(fd, rsize, seconds, image);

    unsigned long copies = 0, whole = 0, at_page = 0, mid_page = 0, empty = 0, bad = 0;
    size_t r = 0;
    double end = now() + seconds;
    while (now() < end) {
        r = (r * 7 + 3) % RECORDS;
        size_t left = fc_copy_checked(rec, map + r * rsize, rsize);
        copies++;
        size_t got = rsize - left;
        if (left == 0)
            whole++;
        else if (got == 0)
            empty++; /* the record's first byte lies past the file's end */
        else if ((r * rsize + got) % (size_t)pg == 0)
            at_page++; /* stopped at the first page past the file's end */
        else
            mid_page++; /* the file shrank while this copy ran: stopped in a page it had been reading */
        for (size_t i = 0; i < got; i++)
            if (rec[i] != rec_byte(r, i) && rec[i] != 0) {
                if (bad++ < 10) fprintf(stderr, "record %zu: byte %zu is %u, not the record's or zero\n", r, i, rec[i]);
                break;
            }
    }
    int status = 0;
    waitpid(child, &status, 0);
    unsigned long shorts = empty + at_page + mid_page;
    printf("truncating_reader: %lu copies of %zu-byte records in %.1f s: %lu whole, %lu short (%lu empty, %lu "
           "at a page boundary, %lu in a page the file lost during the copy), %lu bad; writer %s\n",
           copies, rsize, seconds, whole, shorts, empty, at_page, mid_page, bad,
           WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "failed");
    munmap((void *)map, full);
    close(fd);
    free(image);
    free(rec);
    if (bad || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
    if (!whole || !shorts) {
        fprintf(stderr, "truncating_reader: the run saw %s copies only\n", whole ? "whole" : "short");
        return 1;
    }
    return 0;
}
#endif
