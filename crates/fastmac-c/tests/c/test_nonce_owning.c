/* The C API's version, the by-name reset, and the handles that own their
 * nonces (sequenced UMAC, SSH outbound/inbound), each checked against the
 * plain calls that take the nonce or sequence number from the caller. Links
 * the general libfastmac only (no OpenSSH umac.h symbols). */
#include <stdio.h>
#include <string.h>

#include <fastmac.h>

#include "check.h"

static const uint8_t KEY[16] = "abcdefghijklmnop";

static void test_version(void)
{
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", FASTMAC_VERSION_MAJOR, FASTMAC_VERSION_MINOR,
             FASTMAC_VERSION_PATCH);
    CHECK(strcmp(fastmac_version(), expected) == 0, "library %s, header %s", fastmac_version(), expected);
}

/* For every algorithm: data fed before a reset does not reach the tag. */
static void test_by_name_reset(void)
{
    static const struct { const char *name; size_t key_len, nonce_len; } algs[] = {
        {"umac-32", 16, 8}, {"umac-64", 16, 8}, {"umac-96", 16, 8}, {"umac-128", 16, 8},
        {"hmac-sha2-256", 32, 0}, {"badger-64", 16, 8},
    };
    uint8_t key[64], nonce[8] = {0, 0, 0, 0, 0, 0, 0, 1};
    memset(key, 7, sizeof key);
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        struct fastmac_mac *fresh = NULL, *reset = NULL;
        size_t tag_len = 0;
        uint8_t a[64], b[64];
        CHECK(fastmac_mac_new(algs[i].name, key, algs[i].key_len, &fresh) == FASTMAC_OK, "%s", algs[i].name);
        CHECK(fastmac_mac_new(algs[i].name, key, algs[i].key_len, &reset) == FASTMAC_OK, "%s", algs[i].name);
        if (fresh == NULL || reset == NULL) {
            fastmac_mac_free(fresh);
            fastmac_mac_free(reset);
            continue;
        }
        CHECK(fastmac_mac_tag_len(fresh, &tag_len) == FASTMAC_OK, "%s", algs[i].name);
        CHECK(fastmac_mac_update(reset, (const uint8_t *)"discarded", 9) == FASTMAC_OK, "%s", algs[i].name);
        CHECK(fastmac_mac_reset(reset) == FASTMAC_OK, "%s", algs[i].name);
        CHECK(fastmac_mac_update(reset, (const uint8_t *)"message", 7) == FASTMAC_OK, "%s", algs[i].name);
        CHECK(fastmac_mac_update(fresh, (const uint8_t *)"message", 7) == FASTMAC_OK, "%s", algs[i].name);
        CHECK(fastmac_mac_finalize(fresh, nonce, algs[i].nonce_len, a, tag_len) == FASTMAC_OK, "%s", algs[i].name);
        CHECK(fastmac_mac_finalize(reset, nonce, algs[i].nonce_len, b, tag_len) == FASTMAC_OK, "%s", algs[i].name);
        CHECK(memcmp(a, b, tag_len) == 0, "%s: reset did not discard the data", algs[i].name);
        fastmac_mac_free(fresh);
        fastmac_mac_free(reset);
    }
    CHECK(fastmac_mac_reset(NULL) == FASTMAC_ERR_NULL_POINTER, "NULL handle");
}

static void test_sequenced_umac(void)
{
    static const size_t tag_lens[] = {4, 8, 12, 16};
    for (size_t t = 0; t < 4; t++) {
        size_t tag_len = tag_lens[t];
        struct fastmac_sequenced_umac *mac = NULL;
        uint8_t tag[16], expected[16], nonce_bytes[8], big[16];
        uint64_t nonce = 99, next = 0, left = 0;
        CHECK(fastmac_sequenced_umac_new(KEY, 16, tag_len, &mac) == FASTMAC_OK, "tag_len %zu", tag_len);
        if (mac == NULL)
            continue;
        for (uint64_t i = 0; i < 3; i++) {
            /* A wrong tag buffer is refused before a nonce is drawn. */
            CHECK(fastmac_sequenced_umac_tag(mac, (const uint8_t *)"msg", 3, &nonce, big, tag_len + 1)
                      == FASTMAC_ERR_TAG_LENGTH, "tag_len %zu", tag_len);
            CHECK(fastmac_sequenced_umac_tag(mac, (const uint8_t *)"msg", 3, &nonce, tag, tag_len) == FASTMAC_OK,
                  "tag_len %zu", tag_len);
            CHECK(nonce == i, "nonce %llu, expected %llu", (unsigned long long)nonce, (unsigned long long)i);
            CHECK(fastmac_umac_counter_nonce(nonce, nonce_bytes, 8) == FASTMAC_OK, "counter nonce");
            CHECK(nonce_bytes[7] == (uint8_t)i && nonce_bytes[0] == 0, "big-endian counter nonce");
            CHECK(fastmac_umac_compute(KEY, 16, nonce_bytes, 8, (const uint8_t *)"msg", 3, expected, tag_len)
                      == FASTMAC_OK, "one-shot");
            CHECK(memcmp(tag, expected, tag_len) == 0, "tag_len %zu, nonce %llu: tag differs from the one-shot",
                  tag_len, (unsigned long long)i);
        }
        /* Streaming gets the next nonce too. */
        CHECK(fastmac_sequenced_umac_update(mac, (const uint8_t *)"stre", 4) == FASTMAC_OK, "update");
        CHECK(fastmac_sequenced_umac_update(mac, (const uint8_t *)"amed", 4) == FASTMAC_OK, "update");
        CHECK(fastmac_sequenced_umac_finalize(mac, &nonce, tag, tag_len) == FASTMAC_OK, "finalize");
        CHECK(nonce == 3, "streamed message nonce %llu", (unsigned long long)nonce);
        fastmac_umac_counter_nonce(3, nonce_bytes, 8);
        fastmac_umac_compute(KEY, 16, nonce_bytes, 8, (const uint8_t *)"streamed", 8, expected, tag_len);
        CHECK(memcmp(tag, expected, tag_len) == 0, "streamed tag");
        CHECK(fastmac_sequenced_umac_position(mac, &next, &left) == FASTMAC_OK, "position");
        CHECK(next == 4 && left == UINT64_MAX - 4, "next %llu left %llu", (unsigned long long)next,
              (unsigned long long)left);
        fastmac_sequenced_umac_free(mac);
    }

    /* At the limit: refused, and nothing moves. */
    struct fastmac_sequenced_umac *mac = NULL;
    uint8_t tag[8];
    uint64_t nonce = 0, next = 0, left = 1;
    CHECK(fastmac_sequenced_umac_new_at(KEY, 16, 8, 41, 42, &mac) == FASTMAC_OK, "new_at");
    CHECK(fastmac_sequenced_umac_tag(mac, (const uint8_t *)"last", 4, &nonce, tag, 8) == FASTMAC_OK && nonce == 41,
          "the last nonce");
    for (int i = 0; i < 2; i++) {
        CHECK(fastmac_sequenced_umac_tag(mac, (const uint8_t *)"more", 4, &nonce, tag, 8)
                  == FASTMAC_ERR_NONCE_EXHAUSTED, "past the limit");
        CHECK(fastmac_sequenced_umac_finalize(mac, &nonce, tag, 8) == FASTMAC_ERR_NONCE_EXHAUSTED, "past the limit");
    }
    CHECK(fastmac_sequenced_umac_position(mac, &next, &left) == FASTMAC_OK && next == 42 && left == 0, "exhausted");
    CHECK(strstr(fastmac_strerror(FASTMAC_ERR_NONCE_EXHAUSTED), "rekey") != NULL, "message");
    fastmac_sequenced_umac_free(mac);

    /* Bad arguments. */
    mac = (struct fastmac_sequenced_umac *)&nonce;
    CHECK(fastmac_sequenced_umac_new_at(KEY, 16, 8, 5, 5, &mac) == FASTMAC_ERR_NONCE_EXHAUSTED && mac == NULL,
          "first == limit");
    CHECK(fastmac_sequenced_umac_new(KEY, 15, 8, &mac) == FASTMAC_ERR_KEY_LENGTH, "key length");
    CHECK(fastmac_sequenced_umac_new(KEY, 16, 10, &mac) == FASTMAC_ERR_TAG_LENGTH, "tag length");
    CHECK(fastmac_sequenced_umac_new(NULL, 16, 8, &mac) == FASTMAC_ERR_NULL_POINTER, "NULL key");
    CHECK(fastmac_sequenced_umac_tag(NULL, NULL, 0, &nonce, tag, 8) == FASTMAC_ERR_NULL_POINTER, "NULL handle");
    CHECK(fastmac_umac_counter_nonce(1, tag, 7) == FASTMAC_ERR_NONCE_LENGTH, "counter nonce length");
    fastmac_sequenced_umac_free(NULL);
}

static void test_ssh_directions(const char *name)
{
    size_t key_len = 0, tag_len = 0;
    int etm = 0;
    uint8_t key1[64], key2[64], tag[64], expected[64], packet[100];
    uint32_t seq = 0, next = 0;
    uint64_t left = 0;
    int needs_rekey = 1;
    struct fastmac_ssh_outbound *out = NULL;
    struct fastmac_ssh_inbound *in = NULL;
    struct fastmac_ssh_mac *plain = NULL;

    CHECK(fastmac_ssh_mac_lookup(name, &key_len, &tag_len, &etm) == FASTMAC_OK, "%s", name);
    memset(key1, 1, sizeof key1);
    memset(key2, 2, sizeof key2);
    memset(packet, 0x5a, sizeof packet);
    /* Sequence numbers are uint32 and wrap (RFC 4253 section 6.4). */
    CHECK(fastmac_ssh_outbound_new(name, key1, key_len, UINT32_MAX - 1, &out) == FASTMAC_OK, "%s", name);
    CHECK(fastmac_ssh_inbound_new(name, key1, key_len, UINT32_MAX - 1, &in) == FASTMAC_OK, "%s", name);
    CHECK(fastmac_ssh_mac_new(name, key1, key_len, &plain) == FASTMAC_OK, "%s", name);
    if (out == NULL || in == NULL || plain == NULL)
        goto done;
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t want = UINT32_MAX - 1 + i, got = 0;
        packet[0] = (uint8_t)i;
        CHECK(fastmac_ssh_outbound_compute(out, packet, sizeof packet, &seq, tag, tag_len + 1)
                  == FASTMAC_ERR_TAG_LENGTH, "%s: wrong tag buffer", name);
        CHECK(fastmac_ssh_outbound_compute(out, packet, sizeof packet, &seq, tag, tag_len) == FASTMAC_OK, "%s", name);
        CHECK(seq == want, "%s: seq %u, expected %u", name, seq, want);
        CHECK(fastmac_ssh_mac_compute(plain, want, packet, sizeof packet, expected, tag_len) == FASTMAC_OK, "%s", name);
        CHECK(memcmp(tag, expected, tag_len) == 0, "%s: seq %u: tag differs from mac_compute", name, want);
        /* Altered or replayed: refused, and the expected number stays. */
        packet[1] ^= 1;
        CHECK(fastmac_ssh_inbound_verify(in, packet, sizeof packet, tag, tag_len, &got) == FASTMAC_ERR_INVALID_TAG,
              "%s: altered packet", name);
        packet[1] ^= 1;
        CHECK(fastmac_ssh_inbound_verify(in, packet, sizeof packet, tag, tag_len, &got) == FASTMAC_OK && got == want,
              "%s: seq %u", name, want);
        CHECK(fastmac_ssh_inbound_verify(in, packet, sizeof packet, tag, tag_len, &got) == FASTMAC_ERR_INVALID_TAG,
              "%s: replay", name);
    }
    CHECK(fastmac_ssh_outbound_position(out, &next, &left) == FASTMAC_OK, "%s", name);
    CHECK(next == 1 && left == FASTMAC_SSH_REKEY_AFTER_PACKETS - 3, "%s: next %u left %llu", name, next,
          (unsigned long long)left);
    CHECK(fastmac_ssh_inbound_position(in, &next, &needs_rekey) == FASTMAC_OK && next == 1 && needs_rekey == 0,
          "%s: inbound position", name);

    /* A key exchange: the numbers continue under the new key; a refused
     * rekey keeps the old key. */
    CHECK(fastmac_ssh_outbound_rekey(out, name, key2, key_len - 1) == FASTMAC_ERR_KEY_LENGTH, "%s", name);
    CHECK(fastmac_ssh_outbound_rekey(out, "no-such-mac", key2, key_len) == FASTMAC_ERR_UNKNOWN_ALGORITHM, "%s", name);
    CHECK(fastmac_ssh_outbound_rekey(out, name, key2, key_len) == FASTMAC_OK, "%s", name);
    CHECK(fastmac_ssh_outbound_compute(out, packet, sizeof packet, &seq, tag, tag_len) == FASTMAC_OK && seq == 1,
          "%s: seq after rekey", name);
    CHECK(fastmac_ssh_inbound_verify(in, packet, sizeof packet, tag, tag_len, &seq) == FASTMAC_ERR_INVALID_TAG,
          "%s: the old key refuses", name);
    CHECK(fastmac_ssh_inbound_rekey(in, name, key2, key_len) == FASTMAC_OK, "%s", name);
    CHECK(fastmac_ssh_inbound_verify(in, packet, sizeof packet, tag, tag_len, &seq) == FASTMAC_OK && seq == 1,
          "%s: the new key", name);
    CHECK(fastmac_ssh_inbound_verify(in, packet, sizeof packet, tag, tag_len - 1, &seq) == FASTMAC_ERR_TAG_LENGTH,
          "%s: short tag", name);
done:
    fastmac_ssh_outbound_free(out);
    fastmac_ssh_inbound_free(in);
    fastmac_ssh_mac_free(plain);
}

static void test_ssh_bad_args(void)
{
    struct fastmac_ssh_outbound *out = (struct fastmac_ssh_outbound *)KEY;
    uint32_t seq;
    uint8_t tag[8];
    CHECK(fastmac_ssh_outbound_new("umac-64@openssh.com", KEY, 15, 0, &out) == FASTMAC_ERR_KEY_LENGTH && out == NULL,
          "key length");
    CHECK(fastmac_ssh_outbound_new(NULL, KEY, 16, 0, &out) == FASTMAC_ERR_NULL_POINTER, "NULL name");
    CHECK(fastmac_ssh_outbound_compute(NULL, NULL, 0, &seq, tag, 8) == FASTMAC_ERR_NULL_POINTER, "NULL handle");
    CHECK(fastmac_ssh_inbound_verify(NULL, NULL, 0, tag, 8, &seq) == FASTMAC_ERR_NULL_POINTER, "NULL handle");
    fastmac_ssh_outbound_free(NULL);
    fastmac_ssh_inbound_free(NULL);
}

int main(void)
{
    test_version();
    test_by_name_reset();
    test_sequenced_umac();
    test_ssh_directions("umac-64@openssh.com");
    test_ssh_directions("umac-128-etm@openssh.com");
    test_ssh_directions("hmac-sha2-256");
    test_ssh_directions("hmac-sha2-512-etm@openssh.com");
    test_ssh_bad_args();
    return check_summary("test_nonce_owning");
}
