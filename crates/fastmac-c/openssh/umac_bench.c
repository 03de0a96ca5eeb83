/*
 * The per-packet cost of OpenSSH's own umac.c against libfastmac's drop-in,
 * as OpenSSH's mac.c uses them: umac_update + umac_final per message under
 * a counter nonce (the packet sequence number, 8 bytes big-endian), one
 * keyed context, messages of 32 B to 64 KiB. Also fastmac's general C API
 * on a keyed handle: streamed (fastmac_umac64_update +
 * fastmac_umac64_finalize) and in one call (fastmac_umac64_mac, the
 * library's one-shot, the floor for the drop-in's per-message cost).
 *
 * OpenSSH's umac.o and umac128.o are the objects its build compiled (its
 * CFLAGS, from the same source package), with their symbols renamed
 * ossh_* by objcopy so that both implementations link into one program
 * (openssh.mk, c-bench). The implementations run in alternation, round by
 * round; the table gives the median ns per message of each, and ratios.
 *
 *   umac_bench [rounds]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fastmac.h>
#include <umac.h>

struct umac_ctx *ossh_umac_new(const u_char key[]);
int ossh_umac_update(struct umac_ctx *ctx, const u_char *input, long len);
int ossh_umac_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8]);
int ossh_umac_delete(struct umac_ctx *ctx);
struct umac_ctx *ossh_umac128_new(const u_char key[]);
int ossh_umac128_update(struct umac_ctx *ctx, const u_char *input, long len);
int ossh_umac128_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8]);
int ossh_umac128_delete(struct umac_ctx *ctx);

enum { IMPLS = 4, MAX_ROUNDS = 101 };
static const size_t SIZES[] = {32, 256, 1024, 16384, 65536};
static const char *const IMPL_NAMES[IMPLS] = {"OpenSSH umac.c", "fastmac drop-in", "fastmac_umacN handle",
                                              "fastmac_umacN_mac"};

struct width {
    const char *name;
    size_t tag_len;
    struct umac_ctx *(*ossh_new)(const u_char *);
    int (*ossh_update)(struct umac_ctx *, const u_char *, long);
    int (*ossh_final)(struct umac_ctx *, u_char *, const u_char *);
    int (*ossh_delete)(struct umac_ctx *);
    struct umac_ctx *(*drop_new)(const u_char *);
    int (*drop_update)(struct umac_ctx *, const u_char *, long);
    int (*drop_final)(struct umac_ctx *, u_char *, const u_char *);
    int (*drop_delete)(struct umac_ctx *);
};

static const struct width WIDTHS[] = {
    {"UMAC-64", 8, ossh_umac_new, ossh_umac_update, ossh_umac_final, ossh_umac_delete,
     umac_new, umac_update, umac_final, umac_delete},
    {"UMAC-128", 16, ossh_umac128_new, ossh_umac128_update, ossh_umac128_final, ossh_umac128_delete,
     umac128_new, umac128_update, umac128_final, umac128_delete},
};

static const u_char KEY[16] = "abcdefghijklmnop";

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void counter_nonce(uint64_t n, u_char nonce[8])
{
    for (int i = 7; i >= 0; i--, n >>= 8)
        nonce[i] = (u_char)n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The general API's handle for the width (UMAC-64 or UMAC-128). */
struct handle {
    size_t tag_len;
    struct fastmac_umac64 *h64;
    struct fastmac_umac128 *h128;
};

static void handle_mac(struct handle *h, const u_char *msg, size_t len, const u_char nonce[8], u_char *tag)
{
    if (h->tag_len == 8) {
        fastmac_umac64_update(h->h64, msg, len);
        fastmac_umac64_finalize(h->h64, nonce, 8, tag, 8);
    } else {
        fastmac_umac128_update(h->h128, msg, len);
        fastmac_umac128_finalize(h->h128, nonce, 8, tag, 16);
    }
}

/* The general API's one-shot call on the handle. */
static void handle_one_shot(struct handle *h, const u_char *msg, size_t len, const u_char nonce[8], u_char *tag)
{
    if (h->tag_len == 8)
        fastmac_umac64_mac(h->h64, nonce, 8, msg, len, tag, 8);
    else
        fastmac_umac128_mac(h->h128, nonce, 8, msg, len, tag, 16);
}

/* ns per message of `iters` messages through implementation `impl`. */
static double sample(const struct width *w, int impl, struct umac_ctx *ossh, struct umac_ctx *drop,
                     struct handle *h, const u_char *msg, size_t len, long iters, uint64_t *seq, u_char *sink)
{
    u_char nonce[8], tag[16];
    double start = now_ns();
    for (long i = 0; i < iters; i++) {
        counter_nonce((*seq)++, nonce);
        if (impl == 0) {
            w->ossh_update(ossh, msg, (long)len);
            w->ossh_final(ossh, tag, nonce);
        } else if (impl == 1) {
            w->drop_update(drop, msg, (long)len);
            w->drop_final(drop, tag, nonce);
        } else if (impl == 2) {
            handle_mac(h, msg, len, nonce, tag);
        } else {
            handle_one_shot(h, msg, len, nonce, tag);
        }
        *sink ^= tag[0];
    }
    return (now_ns() - start) / (double)iters;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 21;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "rounds: 1 to %d\n", MAX_ROUNDS);
        return 2;
    }
    u_char *msg = malloc(65536), sink = 0;
    if (msg == NULL)
        return 2;
    for (size_t i = 0; i < 65536; i++)
        msg[i] = (u_char)(i * 131 + 7);

    printf("| MAC | size | OpenSSH umac.c ns | drop-in ns | fastmac_umacN handle ns | fastmac_umacN_mac ns "
           "| umac.c / drop-in | drop-in / one-shot |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    int failed = 0;
    for (size_t wi = 0; wi < sizeof WIDTHS / sizeof WIDTHS[0]; wi++) {
        const struct width *w = &WIDTHS[wi];
        struct umac_ctx *ossh = w->ossh_new(KEY), *drop = w->drop_new(KEY);
        struct handle h = {w->tag_len, NULL, NULL};
        if (w->tag_len == 8)
            fastmac_umac64_new(KEY, 16, &h.h64);
        else
            fastmac_umac128_new(KEY, 16, &h.h128);
        for (size_t si = 0; si < sizeof SIZES / sizeof SIZES[0]; si++) {
            size_t len = SIZES[si];
            /* The three agree on a tag before they are timed. */
            u_char nonce[8], tags[IMPLS][16];
            counter_nonce(12345, nonce);
            w->ossh_update(ossh, msg, (long)len);
            w->ossh_final(ossh, tags[0], nonce);
            w->drop_update(drop, msg, (long)len);
            w->drop_final(drop, tags[1], nonce);
            handle_mac(&h, msg, len, nonce, tags[2]);
            handle_one_shot(&h, msg, len, nonce, tags[3]);
            int agree = 1;
            for (int impl = 1; impl < IMPLS; impl++)
                agree &= memcmp(tags[0], tags[impl], w->tag_len) == 0;
            if (!agree) {
                fprintf(stderr, "%s %zu B: the implementations disagree\n", w->name, len);
                failed = 1;
            }
            /* About 2 ms of work per sample. */
            long iters = (long)(2e6 / (20.0 + len * 0.5)) + 1;
            double samples[IMPLS][MAX_ROUNDS], median[IMPLS];
            uint64_t seq[IMPLS] = {0, 0, 0, 0};
            for (int impl = 0; impl < IMPLS; impl++) /* warm-up */
                sample(w, impl, ossh, drop, &h, msg, len, iters, &seq[impl], &sink);
            for (int r = 0; r < rounds; r++)
                for (int impl = 0; impl < IMPLS; impl++)
                    samples[impl][r] = sample(w, impl, ossh, drop, &h, msg, len, iters, &seq[impl], &sink);
            for (int impl = 0; impl < IMPLS; impl++) {
                qsort(samples[impl], (size_t)rounds, sizeof(double), cmp_double);
                median[impl] = samples[impl][rounds / 2];
            }
            printf("| %s | %zu | %.1f | %.1f | %.1f | %.1f | %.2fx | %.2fx |\n", w->name, len, median[0],
                   median[1], median[2], median[3], median[0] / median[1], median[1] / median[3]);
        }
        w->ossh_delete(ossh);
        w->drop_delete(drop);
        fastmac_umac64_free(h.h64);
        fastmac_umac128_free(h.h128);
    }
    printf("(%d rounds, %s, %s, %s and %s in alternation; medians; checksum %u)\n", rounds, IMPL_NAMES[0],
           IMPL_NAMES[1], IMPL_NAMES[2], IMPL_NAMES[3], sink);
    free(msg);
    return failed;
}
