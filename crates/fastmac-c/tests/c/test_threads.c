/* No global state: THREADS threads, each with its own OpenSSH context and
 * SSH-by-name handle (same key, same packets), MAC the same packet stream
 * concurrently; every thread must produce exactly the tags a single thread
 * computed beforehand. (A shared hidden cache or counter would show up as
 * differing tags, and valgrind, which `make test` also runs this under,
 * would flag any unsynchronised allocation misuse.) */
#include <pthread.h>
#include <string.h>

#include "check.h"
#include "fastmac.h"
#include "umac.h"

#define THREADS 4
#define PACKETS 400
#define PACKET_LEN 300

static const uint8_t KEY[16] = "0123456789abcdef";
static uint8_t packets[PACKETS][PACKET_LEN];
static uint8_t expected[PACKETS][8]; /* umac-64 tags, single-threaded */
static uint8_t expected128[PACKETS][16]; /* umac-128 tags */

struct result {
    unsigned mismatches, failures;
};

static void nonce_of(uint32_t seq, uint8_t nonce[8])
{
    memset(nonce, 0, 8);
    for (int i = 0; i < 4; i++)
        nonce[7 - i] = (uint8_t)(seq >> (8 * i));
}

static void *worker(void *arg)
{
    struct result *res = arg;
    struct umac_ctx *ctx = umac_new(KEY);
    fastmac_ssh_mac *ssh = NULL;
    if (ctx == NULL || fastmac_ssh_mac_new("umac-128@openssh.com", KEY, 16, &ssh) != FASTMAC_OK) {
        res->failures++;
        umac_delete(ctx);
        return NULL;
    }
    for (uint32_t seq = 0; seq < PACKETS; seq++) {
        uint8_t nonce[8], tag[8], tag128[16];
        nonce_of(seq, nonce);
        res->failures += umac_update(ctx, packets[seq], PACKET_LEN) != 1;
        res->failures += umac_final(ctx, tag, nonce) != 1;
        res->failures += fastmac_ssh_mac_compute(ssh, seq, packets[seq], PACKET_LEN, tag128, 16) != FASTMAC_OK;
        res->mismatches += memcmp(tag, expected[seq], 8) != 0;
        res->mismatches += memcmp(tag128, expected128[seq], 16) != 0;
    }
    umac_delete(ctx);
    fastmac_ssh_mac_free(ssh);
    return NULL;
}

int main(void)
{
    for (int p = 0; p < PACKETS; p++)
        for (int i = 0; i < PACKET_LEN; i++)
            packets[p][i] = (uint8_t)(p * 7 + i * 13);
    /* Single-threaded reference, through the general API. */
    fastmac_umac64 *m64 = NULL;
    fastmac_umac128 *m128 = NULL;
    CHECK(fastmac_umac64_new(KEY, 16, &m64) == FASTMAC_OK && fastmac_umac128_new(KEY, 16, &m128) == FASTMAC_OK,
          "reference handles");
    if (m64 == NULL || m128 == NULL)
        return check_summary("test_threads");
    for (uint32_t seq = 0; seq < PACKETS; seq++) {
        uint8_t nonce[8];
        nonce_of(seq, nonce);
        fastmac_umac64_update(m64, packets[seq], PACKET_LEN);
        fastmac_umac64_finalize(m64, nonce, 8, expected[seq], 8);
        fastmac_umac128_update(m128, packets[seq], PACKET_LEN);
        fastmac_umac128_finalize(m128, nonce, 8, expected128[seq], 16);
    }
    fastmac_umac64_free(m64);
    fastmac_umac128_free(m128);

    pthread_t threads[THREADS];
    struct result results[THREADS];
    memset(results, 0, sizeof results);
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, worker, &results[t]) == 0, "pthread_create %d", t);
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK(results[t].failures == 0, "thread %d: %u calls failed", t, results[t].failures);
        CHECK(results[t].mismatches == 0, "thread %d: %u tags differ from the single-threaded run", t,
              results[t].mismatches);
    }
    printf("%d threads x %d packets: identical to the single-threaded tags\n", THREADS, PACKETS);
    return check_summary("test_threads");
}
