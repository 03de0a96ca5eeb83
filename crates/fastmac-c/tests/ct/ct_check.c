/* Constant-time evidence (the ctgrind technique, Langley 2010): run every MAC
 * and verify path under valgrind memcheck with the secrets marked
 * *undefined*. Memcheck then reports any conditional jump or memory address
 * that depends on them ("Conditional jump or move depends on uninitialised
 * value", "Use of uninitialised value of size 8"), i.e. a secret-dependent
 * branch or table index. Run by `make test-ct` (crates/fastmac-c/tests/ct/ct.mk).
 *
 * Secrets marked undefined: the key (so everything derived from it, the
 * AES/Rabbit subkeys and the per-nonce pad, is undefined too: memcheck
 * propagates definedness through every copy and arithmetic operation) and
 * the received tag handed to verify. Messages, nonces and lengths are public.
 *
 * Declassified (ct.supp, each entry naming the exact inlined frames): the
 * verify verdict, where the C boundary branches on the Result and maps it to
 * a status (accept/reject is public by design: the receiver acts on it; the
 * tag comparison that produced it is subtle's constant-time one), and
 * Badger's rejection sampling of key words (a redraw with probability about
 * 2^-30 per key, inherent to the scheme). The statuses the harness checks are
 * then defined: the library's branch produced them.
 *
 * Negative controls (make test-ct): without ct.supp the run must fail (the
 * key's taint really reaches the verdict through key setup, the hash layers
 * and the pad: it is not lost on the way), and built with
 * -DSECRET_BRANCH_CONTROL this program branches on a key byte itself and
 * must fail too (memcheck flags such a branch with these options).
 */
#include <fastmac.h>
#include <valgrind/memcheck.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../c/check.h"

static void make_secret(void *p, size_t n)
{
    VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

struct algorithm {
    const char *name;
    size_t key_len;
    size_t nonce_len;
    int long_messages; /* also a message past UMAC's 16 MiB POLY switch */
};

static const struct algorithm ALGORITHMS[] = {
    {"umac-32", 16, 8, 1},       {"umac-64", 16, 8, 1},      {"umac-96", 16, 8, 1},
    {"umac-128", 16, 8, 1},      {"badger-32", 16, 8, 0},    {"badger-64", 16, 8, 0},
    {"badger-96", 16, 8, 0},     {"badger-128", 16, 8, 0},   {"badger-160", 16, 8, 0},
    {"hmac-md5", 16, 0, 0},      {"hmac-md5-96", 16, 0, 0},  {"hmac-sha1", 20, 0, 0},
    {"hmac-sha1-96", 20, 0, 0},  {"hmac-ripemd160", 20, 0, 0},
    {"hmac-sha2-256", 32, 0, 0}, {"hmac-sha2-512", 64, 0, 0},
};

static const char *const SSH_MACS[] = {
    "umac-64@openssh.com", "umac-128@openssh.com", "umac-64-etm@openssh.com",
    "umac-128-etm@openssh.com", "hmac-sha2-256", "hmac-sha1-etm@openssh.com",
};

/* Short messages (empty, within one NH block, across L1 blocks, two
 * chunks with a short and a long second one (the two forms of POLY64's
 * two-word step), L2's first and later POLY blocks) and, for UMAC, one of
 * 16 MiB + 5000 bytes: past 2^14 L1 outputs, where L2 switches from POLY64
 * to POLY128 (RFC 4418 section 5.3.2), a branch on the *count*, which is
 * public. */
static const size_t SHORT_LENGTHS[] = {0, 1, 31, 33, 1024, 1025, 1500, 5000, 70000};
#define LONG_LENGTH ((size_t)16 * 1024 * 1024 + 5000)

static uint8_t *message;

static void mac_round_trip(const struct algorithm *alg, size_t len, uint8_t nonce_byte)
{
    uint8_t key[64], nonce[16], tag[64], received[64];
    struct fastmac_mac *mac = NULL;
    size_t tag_len = 0;

    for (size_t i = 0; i < alg->key_len; i++)
        key[i] = (uint8_t)(0x5a ^ (i * 29));
    make_secret(key, alg->key_len);
    memset(nonce, nonce_byte, sizeof nonce);

    CHECK(fastmac_mac_new(alg->name, key, alg->key_len, &mac) == FASTMAC_OK, "%s new", alg->name);
    if (mac == NULL)
        return;
    CHECK(fastmac_mac_tag_len(mac, &tag_len) == FASTMAC_OK && tag_len <= sizeof tag, "%s", alg->name);

    /* The MAC path: the tag is derived from the key, so it is undefined. */
    CHECK(fastmac_mac_update(mac, message, len) == FASTMAC_OK, "%s update", alg->name);
    CHECK(fastmac_mac_finalize(mac, nonce, alg->nonce_len, tag, tag_len) == FASTMAC_OK, "%s finalize",
          alg->name);

    /* The verify path, with the received tag itself marked secret: once
     * the right tag, once with its last byte flipped. */
    memcpy(received, tag, tag_len);
    make_secret(received, tag_len);
    CHECK(fastmac_mac_update(mac, message, len) == FASTMAC_OK, "%s update", alg->name);
    CHECK(fastmac_mac_verify(mac, nonce, alg->nonce_len, received, tag_len) == FASTMAC_OK,
          "%s: verify rejected its own tag (len %zu)", alg->name, len);
    received[tag_len - 1] ^= 1;
    CHECK(fastmac_mac_update(mac, message, len) == FASTMAC_OK, "%s update", alg->name);
    CHECK(fastmac_mac_verify(mac, nonce, alg->nonce_len, received, tag_len)
              == FASTMAC_ERR_INVALID_TAG,
          "%s: verify accepted a wrong tag (len %zu)", alg->name, len);

#ifdef SECRET_BRANCH_CONTROL
    /* Negative control: a branch on a key byte must be reported. */
    if (key[3] == 0x42)
        puts("control");
#endif
    fastmac_mac_free(mac);
}

/* The one-call UMAC path (fastmac_umacN_mac): UHASH straight from the
 * message, with L2 code of its own (in registers up to 16 MiB, one step
 * for a message of two chunks). Its tag is secret and not compared:
 * memcheck checks the computation. */
#define UMAC_ONE_CALL(bits, tag_bytes)                                                          \
    do {                                                                                        \
        struct fastmac_umac##bits *umac = NULL;                                                 \
        CHECK(fastmac_umac##bits##_new(key, sizeof key, &umac) == FASTMAC_OK, "umac-" #bits " new"); \
        if (umac != NULL) {                                                                     \
            CHECK(fastmac_umac##bits##_mac(umac, nonce, sizeof nonce, message, len, tag, tag_bytes) \
                      == FASTMAC_OK,                                                            \
                  "umac-" #bits " one call, len %zu", len);                                     \
            fastmac_umac##bits##_free(umac);                                                    \
        }                                                                                       \
    } while (0)

static void umac_one_call(size_t len)
{
    uint8_t key[16], nonce[8], tag[16];

    for (size_t i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)(0x3c ^ (i * 7));
    make_secret(key, sizeof key);
    memset(nonce, 0x11, sizeof nonce);
    UMAC_ONE_CALL(32, 4);
    UMAC_ONE_CALL(64, 8);
    UMAC_ONE_CALL(96, 12);
    UMAC_ONE_CALL(128, 16);
}

static void ssh_round_trip(const char *name, size_t len, uint32_t seq)
{
    uint8_t key[64], tag[64], received[64];
    struct fastmac_ssh_mac *mac = NULL;
    size_t tag_len = 0;
    size_t key_len = 0, lookup_tag_len = 0;
    int etm = 0;

    CHECK(fastmac_ssh_mac_lookup(name, &key_len, &lookup_tag_len, &etm) == FASTMAC_OK, "%s", name);
    for (size_t i = 0; i < key_len; i++)
        key[i] = (uint8_t)(0xa5 ^ (i * 13));
    make_secret(key, key_len);
    CHECK(fastmac_ssh_mac_new(name, key, key_len, &mac) == FASTMAC_OK, "%s new", name);
    if (mac == NULL)
        return;
    CHECK(fastmac_ssh_mac_tag_len(mac, &tag_len) == FASTMAC_OK && tag_len <= sizeof tag, "%s", name);
    CHECK(fastmac_ssh_mac_compute(mac, seq, message, len, tag, tag_len) == FASTMAC_OK, "%s", name);
    memcpy(received, tag, tag_len);
    make_secret(received, tag_len);
    CHECK(fastmac_ssh_mac_verify(mac, seq, message, len, received, tag_len) == FASTMAC_OK,
          "%s: verify rejected its own tag", name);
    received[0] ^= 0x80;
    CHECK(fastmac_ssh_mac_verify(mac, seq, message, len, received, tag_len)
              == FASTMAC_ERR_INVALID_TAG,
          "%s: verify accepted a wrong tag", name);
    fastmac_ssh_mac_free(mac);
}

int main(void)
{
    message = xmalloc(LONG_LENGTH);
    for (size_t i = 0; i < LONG_LENGTH; i++)
        message[i] = (uint8_t)(i * 131 + (i >> 8));

    for (size_t a = 0; a < sizeof ALGORITHMS / sizeof ALGORITHMS[0]; a++) {
        for (size_t l = 0; l < sizeof SHORT_LENGTHS / sizeof SHORT_LENGTHS[0]; l++)
            mac_round_trip(&ALGORITHMS[a], SHORT_LENGTHS[l], (uint8_t)(l + 1));
        if (ALGORITHMS[a].long_messages)
            mac_round_trip(&ALGORITHMS[a], LONG_LENGTH, 0x77);
    }
    for (size_t l = 0; l < sizeof SHORT_LENGTHS / sizeof SHORT_LENGTHS[0]; l++)
        umac_one_call(SHORT_LENGTHS[l]);
    umac_one_call(LONG_LENGTH);
    for (size_t s = 0; s < sizeof SSH_MACS / sizeof SSH_MACS[0]; s++)
        for (size_t l = 0; l < sizeof SHORT_LENGTHS / sizeof SHORT_LENGTHS[0]; l++)
            ssh_round_trip(SSH_MACS[s], SHORT_LENGTHS[l], (uint32_t)(l * 1000003u));
    free(message);
    return check_summary("ct_check");
}
