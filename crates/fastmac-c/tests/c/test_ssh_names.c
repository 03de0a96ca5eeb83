/* SSH MACs by name through libfastmac's C API (fastmac_ssh_mac_*), against
 * GNU Nettle computing what OpenSSH's mac.c computes:
 *   umac-64/128[-etm]@openssh.com: UMAC(key, nonce = uint64 BE seq, packet);
 *   hmac-*[-etm]:                  HMAC(key, uint32 BE seq || packet),
 *                                  truncated to 12 bytes for the -96 forms.
 * The expected key and tag lengths are OpenSSH's (mac.c's macs[] table). */
#include <string.h>

#include <nettle/hmac.h>
#include <nettle/umac.h>

#include "check.h"
#include "fastmac.h"

enum kind { UMAC64, UMAC128, MD5, SHA1, RIPEMD160, SHA256, SHA512 };

struct ssh_alg {
    const char *name;
    enum kind kind;
    size_t key_len, tag_len;
    int etm;
};

/* OpenSSH's table (mac.c), every entry. */
static const struct ssh_alg ALGS[] = {
    {"hmac-sha1", SHA1, 20, 20, 0},
    {"hmac-sha1-96", SHA1, 20, 12, 0},
    {"hmac-sha2-256", SHA256, 32, 32, 0},
    {"hmac-sha2-512", SHA512, 64, 64, 0},
    {"hmac-md5", MD5, 16, 16, 0},
    {"hmac-md5-96", MD5, 16, 12, 0},
    {"hmac-ripemd160", RIPEMD160, 20, 20, 0},
    {"hmac-ripemd160@openssh.com", RIPEMD160, 20, 20, 0},
    {"umac-64@openssh.com", UMAC64, 16, 8, 0},
    {"umac-128@openssh.com", UMAC128, 16, 16, 0},
    {"hmac-sha1-etm@openssh.com", SHA1, 20, 20, 1},
    {"hmac-sha1-96-etm@openssh.com", SHA1, 20, 12, 1},
    {"hmac-sha2-256-etm@openssh.com", SHA256, 32, 32, 1},
    {"hmac-sha2-512-etm@openssh.com", SHA512, 64, 64, 1},
    {"hmac-md5-etm@openssh.com", MD5, 16, 16, 1},
    {"hmac-md5-96-etm@openssh.com", MD5, 16, 12, 1},
    {"hmac-ripemd160-etm@openssh.com", RIPEMD160, 20, 20, 1},
    {"umac-64-etm@openssh.com", UMAC64, 16, 8, 1},
    {"umac-128-etm@openssh.com", UMAC128, 16, 16, 1},
};
#define N_ALGS (sizeof ALGS / sizeof ALGS[0])
#define PACKETS 300
#define MAX_PACKET 35000

static uint64_t rng_state = 0x2545f4914f6cdd1du;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Nettle computing OpenSSH's mac_compute, keyed from scratch each time (the
 * reference favours obviousness over speed). */
static void reference(const struct ssh_alg *a, const uint8_t *key, uint32_t seq, const uint8_t *packet, size_t len,
                      uint8_t *out)
{
    uint8_t seq32[4] = {(uint8_t)(seq >> 24), (uint8_t)(seq >> 16), (uint8_t)(seq >> 8), (uint8_t)seq};
    uint8_t nonce[8] = {0, 0, 0, 0, seq32[0], seq32[1], seq32[2], seq32[3]};
    union {
        struct umac64_ctx u64;
        struct umac128_ctx u128;
        struct hmac_md5_ctx md5;
        struct hmac_sha1_ctx sha1;
        struct hmac_ripemd160_ctx rmd;
        struct hmac_sha256_ctx sha256;
        struct hmac_sha512_ctx sha512;
    } c;
    switch (a->kind) {
    case UMAC64:
        nettle_umac64_set_key(&c.u64, key);
        nettle_umac64_set_nonce(&c.u64, 8, nonce);
        nettle_umac64_update(&c.u64, len, packet);
        nettle_umac64_digest(&c.u64, 8, out);
        break;
    case UMAC128:
        nettle_umac128_set_key(&c.u128, key);
        nettle_umac128_set_nonce(&c.u128, 8, nonce);
        nettle_umac128_update(&c.u128, len, packet);
        nettle_umac128_digest(&c.u128, 16, out);
        break;
#define HMAC_REF(ctx, fn)                                    \
    nettle_hmac_##fn##_set_key(&c.ctx, a->key_len, key);     \
    nettle_hmac_##fn##_update(&c.ctx, 4, seq32);             \
    nettle_hmac_##fn##_update(&c.ctx, len, packet);          \
    nettle_hmac_##fn##_digest(&c.ctx, a->tag_len, out); /* digest truncates */ \
    break;
    case MD5: HMAC_REF(md5, md5)
    case SHA1: HMAC_REF(sha1, sha1)
    case RIPEMD160: HMAC_REF(rmd, ripemd160)
    case SHA256: HMAC_REF(sha256, sha256)
    case SHA512: HMAC_REF(sha512, sha512)
    }
}

static void check_algorithm(const struct ssh_alg *a, uint8_t *packet)
{
    size_t key_len = 0, tag_len = 0;
    int etm = -1;
    fastmac_status s = fastmac_ssh_mac_lookup(a->name, &key_len, &tag_len, &etm);
    CHECK(s == FASTMAC_OK && key_len == a->key_len && tag_len == a->tag_len && etm == a->etm,
          "%s: lookup status %d, key %zu tag %zu etm %d", a->name, s, key_len, tag_len, etm);

    uint8_t key[64];
    for (size_t i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)rng();
    fastmac_ssh_mac *mac = NULL;
    s = fastmac_ssh_mac_new(a->name, key, a->key_len, &mac);
    CHECK(s == FASTMAC_OK && mac != NULL, "%s: new: status %d", a->name, s);
    if (mac == NULL)
        return;
    s = fastmac_ssh_mac_tag_len(mac, &tag_len);
    CHECK(s == FASTMAC_OK && tag_len == a->tag_len, "%s: tag length %zu", a->name, tag_len);

    unsigned mismatches = 0, failures = 0, accepted_forgeries = 0;
    uint32_t seq = (uint32_t)rng();
    for (int p = 0; p < PACKETS; p++, seq++) {
        size_t len = p % 5 == 0 ? 0 : (p % 7 == 0 ? MAX_PACKET - rng() % 2000 : rng() % 2048);
        for (size_t i = 0; i < len; i++)
            packet[i] = (uint8_t)rng();
        uint8_t tag[64], ref[64];
        failures += fastmac_ssh_mac_compute(mac, seq, packet, len, tag, a->tag_len) != FASTMAC_OK;
        reference(a, key, seq, packet, len, ref);
        if (memcmp(tag, ref, a->tag_len) != 0 && mismatches++ < 3)
            fprintf(stderr, "  %s seq %u len %zu differs from Nettle\n", a->name, seq, len);
        failures += fastmac_ssh_mac_verify(mac, seq, packet, len, ref, a->tag_len) != FASTMAC_OK;
        /* The sequence number is authenticated; so is every tag byte. */
        accepted_forgeries += fastmac_ssh_mac_verify(mac, seq + 1, packet, len, ref, a->tag_len) != FASTMAC_ERR_INVALID_TAG;
        ref[p % a->tag_len] ^= 0x40;
        accepted_forgeries += fastmac_ssh_mac_verify(mac, seq, packet, len, ref, a->tag_len) != FASTMAC_ERR_INVALID_TAG;
    }
    CHECK(mismatches == 0, "%s: %u of %d packets differ from Nettle", a->name, mismatches, PACKETS);
    CHECK(failures == 0, "%s: %u calls failed", a->name, failures);
    CHECK(accepted_forgeries == 0, "%s: %u forgeries not rejected", a->name, accepted_forgeries);

    /* Wrong tag buffers. */
    uint8_t tag[65];
    s = fastmac_ssh_mac_compute(mac, 0, packet, 10, tag, a->tag_len - 1);
    CHECK(s == FASTMAC_ERR_TAG_LENGTH, "%s: short tag buffer: status %d", a->name, s);
    s = fastmac_ssh_mac_compute(mac, 0, packet, 10, tag, a->tag_len + 1);
    CHECK(s == FASTMAC_ERR_TAG_LENGTH, "%s: long tag buffer: status %d", a->name, s);
    s = fastmac_ssh_mac_verify(mac, 0, packet, 10, tag, a->tag_len + 1);
    CHECK(s == FASTMAC_ERR_TAG_LENGTH, "%s: long tag: status %d", a->name, s);
    fastmac_ssh_mac_free(mac);

    /* Wrong key lengths. */
    mac = (fastmac_ssh_mac *)0x1;
    s = fastmac_ssh_mac_new(a->name, key, a->key_len - 1, &mac);
    CHECK(s == FASTMAC_ERR_KEY_LENGTH && mac == NULL, "%s: short key: status %d", a->name, s);
    s = fastmac_ssh_mac_new(a->name, NULL, 0, &mac);
    CHECK(s == FASTMAC_ERR_KEY_LENGTH, "%s: empty key: status %d", a->name, s);

    printf("%-31s key %2zu tag %2zu%s: %d packets equal Nettle\n", a->name, a->key_len, a->tag_len,
           a->etm ? " etm" : "    ", mismatches == 0 ? PACKETS : 0);
}

static void bad_arguments(void)
{
    const uint8_t key[16] = {0};
    size_t k, t;
    int e;
    fastmac_ssh_mac *mac = NULL;
    const char *unknown[] = {"umac-64", "UMAC-64@openssh.com", "hmac-sha2-256 ", "", "none", "hmac-sha2-256\xff"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        fastmac_status s = fastmac_ssh_mac_lookup(unknown[i], &k, &t, &e);
        CHECK(s == FASTMAC_ERR_UNKNOWN_ALGORITHM, "lookup \"%s\": status %d", unknown[i], s);
        s = fastmac_ssh_mac_new(unknown[i], key, 16, &mac);
        CHECK(s == FASTMAC_ERR_UNKNOWN_ALGORITHM && mac == NULL, "new \"%s\": status %d", unknown[i], s);
    }
    const char *name = "umac-64@openssh.com";
    CHECK(fastmac_ssh_mac_lookup(NULL, &k, &t, &e) == FASTMAC_ERR_NULL_POINTER, "lookup NULL name");
    CHECK(fastmac_ssh_mac_lookup(name, NULL, &t, &e) == FASTMAC_ERR_NULL_POINTER, "lookup NULL key_len");
    CHECK(fastmac_ssh_mac_lookup(name, &k, NULL, &e) == FASTMAC_ERR_NULL_POINTER, "lookup NULL tag_len");
    CHECK(fastmac_ssh_mac_lookup(name, &k, &t, NULL) == FASTMAC_ERR_NULL_POINTER, "lookup NULL is_etm");
    CHECK(fastmac_ssh_mac_new(NULL, key, 16, &mac) == FASTMAC_ERR_NULL_POINTER, "new NULL name");
    CHECK(fastmac_ssh_mac_new(name, NULL, 16, &mac) == FASTMAC_ERR_NULL_POINTER, "new NULL key");
    CHECK(fastmac_ssh_mac_new(name, key, 16, NULL) == FASTMAC_ERR_NULL_POINTER, "new NULL out");
    uint8_t tag[8];
    CHECK(fastmac_ssh_mac_compute(NULL, 0, key, 4, tag, 8) == FASTMAC_ERR_NULL_POINTER, "compute NULL handle");
    CHECK(fastmac_ssh_mac_verify(NULL, 0, key, 4, tag, 8) == FASTMAC_ERR_NULL_POINTER, "verify NULL handle");
    CHECK(fastmac_ssh_mac_tag_len(NULL, &t) == FASTMAC_ERR_NULL_POINTER, "tag_len NULL handle");
    fastmac_ssh_mac_free(NULL);
    CHECK(fastmac_ssh_mac_new(name, key, 16, &mac) == FASTMAC_OK, "new");
    CHECK(fastmac_ssh_mac_tag_len(mac, NULL) == FASTMAC_ERR_NULL_POINTER, "tag_len NULL out");
    CHECK(fastmac_ssh_mac_compute(mac, 0, NULL, 4, tag, 8) == FASTMAC_ERR_NULL_POINTER, "NULL packet, len 4");
    CHECK(fastmac_ssh_mac_compute(mac, 0, NULL, 0, tag, 8) == FASTMAC_OK, "NULL packet, len 0");
    CHECK(fastmac_ssh_mac_verify(mac, 0, NULL, 0, tag, 8) == FASTMAC_OK, "verify the empty packet");
    CHECK(fastmac_ssh_mac_compute(mac, 0, key, 4, NULL, 8) == FASTMAC_ERR_NULL_POINTER, "NULL tag");
    CHECK(fastmac_ssh_mac_verify(mac, 0, key, 4, NULL, 8) == FASTMAC_ERR_NULL_POINTER, "verify NULL tag");
    CHECK(fastmac_ssh_mac_compute(mac, 0, key, SIZE_MAX, tag, 8) == FASTMAC_ERR_LENGTH_OVERFLOW, "huge length");
    fastmac_ssh_mac_free(mac);
}

int main(void)
{
    uint8_t *packet = xmalloc(MAX_PACKET);
    for (size_t i = 0; i < N_ALGS; i++)
        check_algorithm(&ALGS[i], packet);
    free(packet);
    bad_arguments();
    return check_summary("test_ssh_names");
}
