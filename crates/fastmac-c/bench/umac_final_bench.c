/* Per-packet cost of MACing an SSH packet through libfastmac's C APIs:
 * umac_update + umac_final (the OpenSSH drop-in), the general API's
 * update + finalize, and fastmac_ssh_mac_compute, at 32 B and 1 KiB, with
 * GNU Nettle (set_nonce + update + digest) alongside for scale. Nonces are
 * consecutive sequence numbers, as in SSH.
 *
 * Each figure is the median of RUNS timed runs of PACKETS(size) packets
 * (CLOCK_MONOTONIC). A shared, noisy machine moves these numbers: read them
 * as orders of magnitude, compare within one run of this program.
 *
 * Then the drop-in against the one-shot call of the same bytes
 * (fastmac_umac64_mac, fastmac_umac128_mac), UMAC-64 and UMAC-128, from 32 B
 * to 64 KiB: rounds that time the two alternately, and the median of the
 * per-round ratios (drop-in time over one-shot time), which a machine whose
 * speed drifts moves less than the times.
 *
 *   make c-bench */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nettle/umac.h>
#undef umac128_update /* Nettle's macro has OpenSSH's name; call nettle_* */

#include "fastmac.h"
#include "umac.h"

#define RUNS 11

static const uint8_t KEY[16] = "abcdefghijklmnop";
static uint8_t packet[65536];
static volatile uint8_t sink; /* keeps every tag live */

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void put_u64(uint8_t out[8], uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        out[i] = (uint8_t)v;
}

enum api { OPENSSH64, OPENSSH128, GENERAL64, SSH_BY_NAME64, NETTLE64 };
static const char *const API_NAMES[] = {
    "umac_update+umac_final (umac-64)",
    "umac128_update+umac128_final",
    "fastmac_umac64_update+finalize",
    "fastmac_ssh_mac_compute (umac-64@openssh.com)",
    "Nettle umac64 set_nonce+update+digest",
};

struct contexts {
    struct umac_ctx *ossh64, *ossh128;
    fastmac_umac64 *gen64;
    fastmac_umac128 *gen128;
    fastmac_ssh_mac *ssh64;
    struct umac64_ctx nettle64;
};

/* One timed run: `n` packets of `size` bytes; returns ns per packet. */
static double run(enum api api, struct contexts *c, size_t size, unsigned n)
{
    uint8_t nonce[8], tag[16];
    uint8_t acc = 0;
    double t0 = now_ns();
    for (uint32_t seq = 0; seq < n; seq++) {
        switch (api) {
        case OPENSSH64:
            put_u64(nonce, seq);
            umac_update(c->ossh64, packet, (long)size);
            umac_final(c->ossh64, tag, nonce);
            break;
        case OPENSSH128:
            put_u64(nonce, seq);
            umac128_update(c->ossh128, packet, (long)size);
            umac128_final(c->ossh128, tag, nonce);
            break;
        case GENERAL64:
            put_u64(nonce, seq);
            fastmac_umac64_update(c->gen64, packet, size);
            fastmac_umac64_finalize(c->gen64, nonce, 8, tag, 8);
            break;
        case SSH_BY_NAME64:
            fastmac_ssh_mac_compute(c->ssh64, seq, packet, size, tag, 8);
            break;
        case NETTLE64:
            put_u64(nonce, seq);
            nettle_umac64_set_nonce(&c->nettle64, 8, nonce);
            nettle_umac64_update(&c->nettle64, size, packet);
            nettle_umac64_digest(&c->nettle64, 8, tag);
            break;
        }
        acc ^= tag[seq & 7];
    }
    double t1 = now_ns();
    sink ^= acc;
    return (t1 - t0) / n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int n)
{
    qsort(values, (size_t)n, sizeof values[0], cmp_double);
    return values[n / 2];
}

/* One timed run of `n` messages of `size` bytes through the drop-in
 * (`drop_in`) or the one-shot call of the same width; ns per message. */
static double run_width(struct contexts *c, int wide, int drop_in, size_t size, unsigned n, uint64_t first)
{
    uint8_t nonce[8], tag[16];
    uint8_t acc = 0;
    double t0 = now_ns();
    for (uint64_t seq = first; seq < first + n; seq++) {
        put_u64(nonce, seq);
        if (drop_in && !wide) {
            umac_update(c->ossh64, packet, (long)size);
            umac_final(c->ossh64, tag, nonce);
        } else if (drop_in) {
            umac128_update(c->ossh128, packet, (long)size);
            umac128_final(c->ossh128, tag, nonce);
        } else if (!wide) {
            fastmac_umac64_mac(c->gen64, nonce, 8, packet, size, tag, 8);
        } else {
            fastmac_umac128_mac(c->gen128, nonce, 8, packet, size, tag, 16);
        }
        acc ^= tag[seq & 7];
    }
    double t1 = now_ns();
    sink ^= acc;
    return (t1 - t0) / n;
}

#define RATIO_ROUNDS 21

/* The interleaved table: per size and width, median one-shot and drop-in
 * times and the median of the per-round ratios. */
static void ratios(struct contexts *c)
{
    const size_t sizes[] = {32, 1024, 1025, 1500, 2048, 32768, 65536};
    printf("umac_update+umac_final over the one-shot fastmac_umacN_mac, same bytes: median of %d "
           "interleaved rounds\n",
           RATIO_ROUNDS);
    printf("  %6s %8s %12s %12s %7s\n", "bytes", "UMAC", "one-shot ns", "drop-in ns", "ratio");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t size = sizes[s];
        /* About 1 MiB per timed run. */
        unsigned n = (unsigned)((1u << 20) / size) + 1;
        for (int wide = 0; wide <= 1; wide++) {
            double one_shot[RATIO_ROUNDS], drop_in[RATIO_ROUNDS], ratio[RATIO_ROUNDS];
            uint64_t seq = 0;
            run_width(c, wide, 0, size, n, seq);
            run_width(c, wide, 1, size, n, seq);
            for (int r = 0; r < RATIO_ROUNDS; r++) {
                seq += n;
                if (r % 2 == 0) {
                    one_shot[r] = run_width(c, wide, 0, size, n, seq);
                    drop_in[r] = run_width(c, wide, 1, size, n, seq);
                } else {
                    drop_in[r] = run_width(c, wide, 1, size, n, seq);
                    one_shot[r] = run_width(c, wide, 0, size, n, seq);
                }
                ratio[r] = drop_in[r] / one_shot[r];
            }
            printf("  %6zu %8d %12.1f %12.1f %7.3f\n", size, wide ? 128 : 64, median(one_shot, RATIO_ROUNDS),
                   median(drop_in, RATIO_ROUNDS), median(ratio, RATIO_ROUNDS));
        }
    }
}

int main(void)
{
    for (size_t i = 0; i < sizeof packet; i++)
        packet[i] = (uint8_t)(i * 131 + 7);
    struct contexts c;
    c.ossh64 = umac_new(KEY);
    c.ossh128 = umac128_new(KEY);
    if (c.ossh64 == NULL || c.ossh128 == NULL || fastmac_umac64_new(KEY, 16, &c.gen64) != FASTMAC_OK ||
        fastmac_umac128_new(KEY, 16, &c.gen128) != FASTMAC_OK ||
        fastmac_ssh_mac_new("umac-64@openssh.com", KEY, 16, &c.ssh64) != FASTMAC_OK) {
        fprintf(stderr, "setup failed\n");
        return 1;
    }
    nettle_umac64_set_key(&c.nettle64, KEY);

    const size_t sizes[] = {32, 1024};
    printf("median of %d runs; ns per packet (min..max of runs)\n", RUNS);
    for (size_t s = 0; s < 2; s++) {
        size_t size = sizes[s];
        unsigned n = size <= 32 ? 400000 : 100000;
        printf("packet %zu B, %u packets per run:\n", size, n);
        for (int api = OPENSSH64; api <= NETTLE64; api++) {
            double t[RUNS];
            run((enum api)api, &c, size, n / 10); /* warm-up */
            for (int r = 0; r < RUNS; r++)
                t[r] = run((enum api)api, &c, size, n);
            qsort(t, RUNS, sizeof t[0], cmp_double);
            printf("  %-46s %8.1f ns  (%.1f..%.1f)  %6.2f GB/s\n", API_NAMES[api], t[RUNS / 2], t[0],
                   t[RUNS - 1], size / t[RUNS / 2]);
        }
    }
    ratios(&c);
    umac_delete(c.ossh64);
    umac128_delete(c.ossh128);
    fastmac_umac64_free(c.gen64);
    fastmac_umac128_free(c.gen128);
    fastmac_ssh_mac_free(c.ssh64);
    return 0;
}
