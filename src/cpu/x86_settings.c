/*
 * x86-64 settings that come from outside the library: a tuned profile
 * (fastcopy-tune writes it; format: docs/profile.md) and FASTCOPY_TUNE, steps 3
 * and 4 of the decision (x86_policy.c, which calls these in that order):
 *   3. a tuned profile: FASTCOPY_PROFILE, else the per-user one, else the
 *      system one, for this CPU's signature (fc__x86_load_profile);
 *   4. FASTCOPY_TUNE="nt_threshold=B,movsb_min=B,movsb_max=B,movsb_gap=B,nt_pages=P,
 *      inorder_min=B" (any subset, any order; B in bytes with an optional k/m/g
 *      suffix; nt_threshold=0 = never stream, inorder_min=0 = never in address
 *      order; movsb_gap < 2048; P = 1 or 4); a
 *      window reaching past the NT threshold ends there; where the window is
 *      closed, movsb_min alone opens it up to the NT threshold, movsb_max alone
 *      from the smallest loop size; a malformed value, movsb_min > movsb_max,
 *      or a value longer than 127 bytes is reported once on stderr and
 *      ignored as a whole (fc__x86_env_tune).
 * In a secure-execution process (fc__secure: set-user-ID and the like) steps
 * 3 and 4 take only a system profile owned by root and writable by nobody
 * else; FASTCOPY_PROFILE, the per-user profile and FASTCOPY_TUNE are ignored.
 *
 * Runs inside the ifunc resolvers, before libc is initialised: no libc calls;
 * files, the environment and stderr through dispatch/early.c.
 */
#if defined(__x86_64__)
#include <stdint.h>

#include "cpu/x86_private.h"
#include "dispatch/early.h"
#include "internal.h"

#define FC_TUNE_MAX 127 /* bytes of FASTCOPY_TUNE read; a longer value is rejected, not cut */
#define FC_STR(x) #x
#define FC_XSTR(x) FC_STR(x)
#ifndef FC_SYSTEM_PROFILE
#define FC_SYSTEM_PROFILE "/etc/fastcopy/profile"
#endif

static int fc_warned; /* the FASTCOPY_TUNE line is written once */

/* One "BYTES[k|m|g]" value (fc__parse_num); returns the end of the number or NULL. */
static const char *fc_parse_bytes(const char *p, size_t *out)
{
    uint64_t v;
    const char *e = fc__parse_num(p, FC_NUM_DEC | FC_NUM_KMG, &v);
    if (e) *out = (size_t)v;
    return e;
}

/* ---- FASTCOPY_TUNE ------------------------------------------------------------ */

/* "nt_threshold=123m,movsb_min=4k,..." -> sets the keys it names; 0 if malformed.
 * A window end left out keeps its value, except where the window is closed
 * (min = max): movsb_min alone then opens it up to the NT threshold
 * (movsb_max alone opens it from the loops' smallest size, as a min of 0
 * already does).  The ends must then satisfy min <= max. */
static int fc_parse_tune(const char *p, struct fc_settings *s)
{
    static const char *const keys[] = {"nt_threshold=", "movsb_min=", "movsb_max=", "movsb_gap=", "nt_pages=",
                                       "inorder_min="};
    struct fc_x86_tune *t = &s->t;
    int closed = t->movsb_min == t->movsb_max, min_given = 0, max_given = 0;
    while (*p) {
        unsigned which = 0;
        const char *v0 = NULL;
        for (; which < sizeof keys / sizeof keys[0]; which++)
            if ((v0 = fc__str_after(p, keys[which])) != NULL) break;
        if (which == sizeof keys / sizeof keys[0]) return 0;
        size_t v;
        p = fc_parse_bytes(v0, &v);
        if (!p) return 0;
        if (*p == ',') p++;
        else if (*p) return 0;
        if (which == 0) t->nt_threshold = v ? v : (size_t)-1, fc_set(s, FC_SET_NT, FC_SRC_ENV); /* 0: never */
        else if (which == 1) t->movsb_min = v, min_given = 1, fc_set(s, FC_SET_MOVSB, FC_SRC_ENV);
        else if (which == 2) t->movsb_max = v, max_given = 1, fc_set(s, FC_SET_MOVSB, FC_SRC_ENV);
        else if (which == 3 && v < 2048) t->movsb_gap = v, fc_set(s, FC_SET_GAP, FC_SRC_ENV); /* 2048: no distance left */
        else if (which == 4 && (v == 1 || v == 4)) t->nt_pages = v, fc_set(s, FC_SET_PAGES, FC_SRC_ENV);
        else if (which == 5) t->inorder_min = v ? v : (size_t)-1, fc_set(s, FC_SET_INORDER, FC_SRC_ENV); /* 0: never */
        else return 0;
    }
    if (closed && min_given && !max_given) t->movsb_max = FC_UP_TO_NT; /* movsb_min=0 too: from 8W up */
    return t->movsb_min <= t->movsb_max;
}

/* ---- profiles ------------------------------------------------------------------ */

/* Entries a profile may name, with what they need (the registry's probes are
 * not callable here: they call back into the decision, x86_policy.c). */
static int fc_entry_runs(const char *name, const struct fc_x86_info *in)
{
    if (fc__str_eq(name, "sse2") || fc__str_eq(name, "generic") || fc__str_eq(name, "byte") ||
        fc__str_eq(name, "word-coaligned"))
        return 1;
    if (fc__str_eq(name, "avx2")) return in->avx2;
    if (fc__str_eq(name, "avx512") || fc__str_eq(name, "avx512-ymmloop")) return in->avx512f;
    if (fc__str_eq(name, "avx512-masked")) return in->avx512bw && in->bmi2;
    if (fc__str_eq(name, "erms")) return in->erms;
    return -1; /* not an entry */
}

static const char *const fc_profile_names[] = {"impl", "nt_threshold", "movsb_min", "movsb_max", "movsb_gap",
                                               "nt_pages", "inorder_min"};
#define FC_PROFILE_KEYS ((int)(sizeof fc_profile_names / sizeof fc_profile_names[0]))

/* (x86_private.h) */
int fc__x86_profile_apply(const char *text, long len, const char *sig, const struct fc_x86_info *in,
                          struct fc_settings *s, char *why, size_t whylen)
{
    size_t wn = 0;
    struct fc_settings u;
    fc__copy_bytes(&u, s, sizeof u);
    int seen[FC_PROFILE_KEYS] = {0}, header = 0, cpu = 0, line = 0, ended = 0;
    char impl[sizeof s->impl];
    impl[0] = 0;
    for (long i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == 0 || (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c >= 0x7f) {
            fc__str_put(why, whylen, &wn, "not a text file (a byte that is no printable ASCII)");
            return 0;
        }
    }
    /* Format 2 ends with a line "end": a file cut anywhere, even at a line
     * boundary, lacks it.  Looked for first, so that a cut inside a line is
     * called what it is rather than, say, another CPU's signature. */
    {
        const char *q = text + len;
        for (;;) { /* the last line that is not blank or a comment */
            while (q > text && (q[-1] == '\n' || q[-1] == '\r' || q[-1] == ' ' || q[-1] == '\t')) q--;
            const char *b = q;
            while (b > text && b[-1] != '\n') b--;
            const char *k = b;
            while (k < q && (*k == ' ' || *k == '\t')) k++;
            if (k < q && *k == '#') {
                q = b;
                continue;
            }
            if (!(q - k == 3 && k[0] == 'e' && k[1] == 'n' && k[2] == 'd')) {
                int v1 = 0; /* a format 1 file has no end line: say so rather than "cut short" */
                for (const char *h = text; h + 18 <= text + len && !v1; h++) {
                    const char *b0 = h; /* a line start, then its blanks */
                    if (h != text && h[-1] != '\n') continue;
                    while (b0 < text + len && (*b0 == ' ' || *b0 == '\t')) b0++;
                    v1 = b0 + 18 <= text + len && fc__str_after(b0, "fastcopy-profile 1") &&
                         (b0 + 18 == text + len || b0[18] == '\n' || b0[18] == '\r' || b0[18] == ' ' || b0[18] == '\t');
                }
                fc__str_put(why, whylen, &wn, k == q && q == text ? "empty"
                                         : v1 ? "format 1 (an older fastcopy-tune; docs/profile.md): run fastcopy-tune again"
                                              : "cut short: its last line is not \"end\"");
                return 0;
            }
            break;
        }
    }
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = p;
        while (eol < end && *eol != '\n') eol++;
        line++;
        char l[256];
        size_t ln = 0;
        if (eol - p - (eol > p && eol[-1] == '\r') >= (long)sizeof l) { /* a CRLF line's CR not counted */
            fc__str_put(why, whylen, &wn, "line ");
            fc__str_put_num(why, whylen, &wn, (uint64_t)line, 0);
            fc__str_put(why, whylen, &wn, " is longer than 255 bytes");
            return 0;
        }
        for (const char *q = p; q < eol; q++) l[ln++] = *q;
        while (ln && (l[ln - 1] == ' ' || l[ln - 1] == '\t' || l[ln - 1] == '\r')) ln--;
        l[ln] = 0;
        p = eol + 1;
        const char *k = l;
        while (*k == ' ' || *k == '\t') k++;
        if (!*k || *k == '#') continue;
        const char *v = NULL;
        if (!header) {
            if (!fc__str_eq(k, "fastcopy-profile 2")) {
                fc__str_put(why, whylen, &wn, "its first line is not \"fastcopy-profile 2\"");
                return 0;
            }
            header = 1;
            continue;
        }
        if (ended) { /* only the last such line is "end" (checked above) */
            fc__str_put(why, whylen, &wn, "line ");
            fc__str_put_num(why, whylen, &wn, (uint64_t)line, 0);
            fc__str_put(why, whylen, &wn, ": after the end line");
            return 0;
        }
        if (fc__str_eq(k, "end")) {
            ended = 1;
            continue;
        }
        if ((v = fc__str_after(k, "cpu ")) != NULL) {
            if (cpu++) {
                fc__str_put(why, whylen, &wn, "two cpu lines");
                return 0;
            }
            if (!fc__str_eq(v, sig)) {
                fc__str_put(why, whylen, &wn, "written for another CPU (");
                fc__str_put(why, whylen, &wn, v);
                fc__str_put(why, whylen, &wn, ")");
                return 0;
            }
            continue;
        }
        int which = -1;
        for (int w = 0; w < FC_PROFILE_KEYS && which < 0; w++) {
            const char *a = fc__str_after(k, fc_profile_names[w]);
            if (a && *a == ' ') which = w, v = a + 1;
        }
        if (which < 0) {
            fc__str_put(why, whylen, &wn, "line ");
            fc__str_put_num(why, whylen, &wn, (uint64_t)line, 0);
            fc__str_put(why, whylen, &wn, ": unknown key");
            return 0;
        }
        if (seen[which]++) {
            fc__str_put(why, whylen, &wn, "line ");
            fc__str_put_num(why, whylen, &wn, (uint64_t)line, 0);
            fc__str_put(why, whylen, &wn, ": ");
            fc__str_put(why, whylen, &wn, fc_profile_names[which]);
            fc__str_put(why, whylen, &wn, " given twice");
            return 0;
        }
        while (*v == ' ') v++;
        if (which == 0) {
            int runs = fc_entry_runs(v, in);
            size_t vl = fc__str_len(v);
            if (runs != 1 || vl >= sizeof impl) {
                fc__str_put(why, whylen, &wn, "line ");
                fc__str_put_num(why, whylen, &wn, (uint64_t)line, 0);
                fc__str_put(why, whylen, &wn, runs < 0 ? ": impl is not an entry of the registry"
                                                  : ": impl is not available on this CPU");
                return 0;
            }
            for (size_t q = 0; q <= vl; q++) impl[q] = v[q];
            continue;
        }
        size_t x;
        const char *e = fc_parse_bytes(v, &x);
        if (!e || *e || (which == 4 && x >= 2048) || (which == 5 && x != 1 && x != 4)) {
            fc__str_put(why, whylen, &wn, "line ");
            fc__str_put_num(why, whylen, &wn, (uint64_t)line, 0);
            fc__str_put(why, whylen, &wn, ": bad value for ");
            fc__str_put(why, whylen, &wn, fc_profile_names[which]);
            return 0;
        }
        if (which == 1) u.t.nt_threshold = x ? x : (size_t)-1, fc_set(&u, FC_SET_NT, FC_SRC_PROFILE);
        if (which == 2) u.t.movsb_min = x, fc_set(&u, FC_SET_MOVSB, FC_SRC_PROFILE);
        if (which == 3) u.t.movsb_max = x, fc_set(&u, FC_SET_MOVSB, FC_SRC_PROFILE);
        if (which == 4) u.t.movsb_gap = x, fc_set(&u, FC_SET_GAP, FC_SRC_PROFILE);
        if (which == 5) u.t.nt_pages = x, fc_set(&u, FC_SET_PAGES, FC_SRC_PROFILE);
        if (which == 6) u.t.inorder_min = x ? x : (size_t)-1, fc_set(&u, FC_SET_INORDER, FC_SRC_PROFILE);
    }
    if (!header || !cpu) {
        fc__str_put(why, whylen, &wn, !header ? "empty" : "no cpu line");
        return 0;
    }
    if (seen[2] != seen[3] || u.t.movsb_min > u.t.movsb_max) {
        fc__str_put(why, whylen, &wn, "movsb_min and movsb_max must come together, min <= max");
        return 0;
    }
    if (impl[0]) {
        for (size_t q = 0; q < sizeof impl; q++) u.impl[q] = impl[q];
        fc_set(&u, FC_SET_IMPL, FC_SRC_PROFILE);
    }
    fc__copy_bytes(s, &u, sizeof u);
    return 1;
}

/* A note for fastcopy-info: "PATH: TEXT". */
static void fc_note(struct fc_x86_status *st, const char *path, const char *text)
{
    if (st->nnotes >= FC_NOTES) return;
    char *b = st->notes[st->nnotes++];
    size_t n = 0;
    fc__str_put(b, FC_NOTE_LEN, &n, path);
    fc__str_put(b, FC_NOTE_LEN, &n, ": ");
    fc__str_put(b, FC_NOTE_LEN, &n, text);
}

/* Tries one profile: 1 if it was taken (its settings now in *s). */
static int fc_try_profile(struct fc_x86_status *st, const char *path, int need_trusted, const struct fc_x86_info *in,
                          struct fc_settings *s)
{
    char text[FC_PROFILE_MAX + 1]; /* each deciding caller its own */
    char why[FC_NOTE_LEN];
    int trusted;
    long len = fc__read_file(path, text, sizeof text, &trusted);
    why[0] = 0;
    if (len == FC_FILE_ABSENT) {
        fc_note(st, path, "absent or unreadable");
        return 0;
    }
    if (len == FC_FILE_TOO_BIG) {
        fc_note(st, path, "ignored: larger than " FC_XSTR(FC_PROFILE_MAX) " bytes");
        return 0;
    }
    if (len < 0) {
        fc_note(st, path, "ignored: not a regular file, or a read error");
        return 0;
    }
    if (need_trusted && !trusted) {
        fc_note(st, path, "ignored in this secure-execution process: not owned by root, or writable by others");
        return 0;
    }
    if (!fc__x86_profile_apply(text, len, st->signature, in, s, why, sizeof why)) {
        char msg[FC_NOTE_LEN];
        size_t n = 0;
        fc__str_put(msg, sizeof msg, &n, "ignored: ");
        fc__str_put(msg, sizeof msg, &n, why);
        fc_note(st, path, msg);
        return 0;
    }
    size_t n = 0;
    fc__str_put(st->profile, sizeof st->profile, &n, path);
    fc_note(st, path, "in use");
    return 1;
}

/* FASTCOPY_PROFILE (a path, or "off"), else $XDG_CONFIG_HOME/fastcopy/profile
 * (XDG_CONFIG_HOME absolute) or $HOME/.config/fastcopy/profile, else the
 * system profile: the first that is a valid profile for this CPU is taken;
 * FASTCOPY_PROFILE, when set, is the only one tried.  A secure-execution
 * process takes only the system profile, and only if root owns it and nobody
 * else may write it. */
void fc__x86_load_profile(struct fc_x86_status *st, const struct fc_x86_info *in, struct fc_settings *s)
{
    char path[FC_PATH_MAX], sys[FC_PATH_MAX];
    size_t sn = 0;
    fc__str_put(sys, sizeof sys, &sn, FC_SYSTEM_PROFILE); /* not an initialiser: that is a memcpy call */
#ifdef FC_TEST_HOOKS
    char hook[FC_PATH_MAX];
    if (fc__early_getenv("FASTCOPY_TEST_SYSTEM_PROFILE", hook, sizeof hook) == 1 && hook[0]) {
        sn = 0;
        fc__str_put(sys, sizeof sys, &sn, hook);
    }
#endif
    if (st->secure) {
        (void)fc_try_profile(st, sys, 1, in, s);
        return;
    }
    int got = fc__early_getenv("FASTCOPY_PROFILE", path, sizeof path);
    if (got == 2) {
        fc_note(st, "FASTCOPY_PROFILE", "ignored: the path is too long");
        return;
    }
    if (got == 1 && path[0]) {
        if (fc__str_eq(path, "off")) fc_note(st, "FASTCOPY_PROFILE=off", "no profile read");
        else (void)fc_try_profile(st, path, 0, in, s);
        return;
    }
    /* the per-user profile: XDG_CONFIG_HOME when it is an absolute path (too long to read: the
     * per-user profile is skipped, said so - not HOME's, which XDG uses only without it) */
    char base[FC_PATH_MAX];
    size_t n = 0;
    path[0] = 0;
    const char *var = "XDG_CONFIG_HOME", *tail = "/fastcopy/profile";
    int x = fc__early_getenv(var, base, sizeof base);
    if (!(x && base[0] == '/')) {
        var = "HOME", tail = "/.config/fastcopy/profile";
        x = fc__early_getenv(var, base, sizeof base);
    }
    if (x && base[0] == '/') {
        /* the whole path's length: fc__str_put stops at sizeof path - 1 */
        size_t need = fc__str_len(base) + fc__str_len(tail);
        fc__str_put(path, sizeof path, &n, base);
        fc__str_put(path, sizeof path, &n, tail);
        if (x == 2 || need >= sizeof path) {
            char why[96];
            size_t wn = 0;
            fc__str_put(why, sizeof why, &wn, "the per-user profile's path is longer than ");
            fc__str_put_num(why, sizeof why, &wn, (uint64_t)(sizeof path - 1), 0);
            fc__str_put(why, sizeof why, &wn, " bytes: skipped");
            fc_note(st, var, why);
        } else if (fc_try_profile(st, path, 0, in, s)) {
            return;
        }
    }
    (void)fc_try_profile(st, sys, 0, in, s);
}

void fc__x86_env_tune(int secure, struct fc_settings *s)
{
    char env[FC_TUNE_MAX + 1];
    int got = secure ? 0 : fc__early_getenv("FASTCOPY_TUNE", env, sizeof env);
    if (got && env[0]) {
        struct fc_settings u;
        fc__copy_bytes(&u, s, sizeof u);
        if (got == 1 && fc_parse_tune(env, &u))
            fc__copy_bytes(s, &u, sizeof *s);
        else if (!__atomic_exchange_n(&fc_warned, 1, __ATOMIC_ACQ_REL))
            fc__warn("fastcopy: FASTCOPY_TUNE=", env,
                     got == 1 ? " not understood (expected nt_threshold=, movsb_min=, movsb_max=BYTES[k|m|g], "
                                "min <= max, movsb_gap<2048, nt_pages=1|4, inorder_min=BYTES); ignored"
                              : "... longer than " FC_XSTR(FC_TUNE_MAX) " bytes; ignored",
                     "");
    }
}
#endif
