/* Bad arguments to every C entry point give the documented status (or, in
 * the OpenSSH API, 0 / NULL) and never crash, leak or consume input. Run
 * under valgrind by `make test`, which also proves no invalid read or write
 * happens on these paths. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "fastmac.h"
#include "umac.h"

static const uint8_t KEY[16] = "abcdefghijklmnop";
static const uint8_t NONCE[8] = "bcdefghi";
static const uint8_t MSG[3] = "abc";

#define EXPECT(call, want)                                                                   \
    do {                                                                                     \
        fastmac_status got_ = (call);                                                        \
        CHECK(got_ == (want), "got %d (%s), want %s", got_, fastmac_strerror(got_), #want); \
    } while (0)

/* A non-NULL value a failed constructor must overwrite with NULL. */
#define POISON ((void *)0x1)

static void general_umac(void)
{
    uint8_t expect[8], tag[8], big_tag[16];
    EXPECT(fastmac_umac_compute(KEY, 16, NONCE, 8, MSG, 3, expect, 8), FASTMAC_OK);

    /* Constructors, every width. */
    fastmac_umac64 *m = POISON;
    EXPECT(fastmac_umac64_new(NULL, 16, &m), FASTMAC_ERR_NULL_POINTER);
    CHECK(m == NULL, "*out must be NULL after a failed new");
    m = POISON;
    EXPECT(fastmac_umac64_new(KEY, 15, &m), FASTMAC_ERR_KEY_LENGTH);
    CHECK(m == NULL, "*out must be NULL after a failed new");
    EXPECT(fastmac_umac64_new(KEY, 17, &m), FASTMAC_ERR_KEY_LENGTH);
    EXPECT(fastmac_umac64_new(KEY, 0, &m), FASTMAC_ERR_KEY_LENGTH);
    EXPECT(fastmac_umac64_new(KEY, 16, NULL), FASTMAC_ERR_NULL_POINTER);
    fastmac_umac32 *m32 = POISON;
    fastmac_umac96 *m96 = POISON;
    fastmac_umac128 *m128 = POISON;
    EXPECT(fastmac_umac32_new(KEY, 8, &m32), FASTMAC_ERR_KEY_LENGTH);
    EXPECT(fastmac_umac96_new(NULL, 16, &m96), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac128_new(KEY, 32, &m128), FASTMAC_ERR_KEY_LENGTH);
    CHECK(m32 == NULL && m96 == NULL && m128 == NULL, "*out must be NULL after a failed new");

    /* NULL handles. */
    EXPECT(fastmac_umac64_update(NULL, MSG, 3), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac64_finalize(NULL, NONCE, 8, tag, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac64_verify(NULL, NONCE, 8, expect, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac64_reset(NULL), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac64_prefetch(NULL, 64), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac128_prefetch(NULL, 0), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac64_mac(NULL, NONCE, 8, MSG, 3, tag, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac32_update(NULL, MSG, 3), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac96_finalize(NULL, NONCE, 8, tag, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac128_verify(NULL, NONCE, 8, big_tag, 16), FASTMAC_ERR_NULL_POINTER);
    fastmac_umac32_free(NULL);
    fastmac_umac64_free(NULL);
    fastmac_umac96_free(NULL);
    fastmac_umac128_free(NULL);

    /* A live handle: every failing call below must leave "abc" streamed. */
    EXPECT(fastmac_umac64_new(KEY, 16, &m), FASTMAC_OK);
    EXPECT(fastmac_umac64_update(m, MSG, 3), FASTMAC_OK);
    EXPECT(fastmac_umac64_update(m, NULL, 0), FASTMAC_OK); /* empty input may be NULL */
    EXPECT(fastmac_umac64_update(m, NULL, 1), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac64_update(m, MSG, SIZE_MAX), FASTMAC_ERR_LENGTH_OVERFLOW);
    EXPECT(fastmac_umac64_update(m, MSG, (size_t)PTRDIFF_MAX + 1), FASTMAC_ERR_LENGTH_OVERFLOW);
    EXPECT(fastmac_umac64_finalize(m, NULL, 8, tag, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac64_finalize(m, NONCE, 0, tag, 8), FASTMAC_ERR_NONCE_LENGTH);
    EXPECT(fastmac_umac64_finalize(m, big_tag, 17, tag, 8), FASTMAC_ERR_NONCE_LENGTH);
    EXPECT(fastmac_umac64_finalize(m, NONCE, 8, NULL, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac64_finalize(m, NONCE, 8, tag, 7), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_umac64_finalize(m, NONCE, 8, big_tag, 16), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_umac64_finalize(m, NONCE, 8, tag, 0), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_umac64_verify(m, NONCE, 8, NULL, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac64_verify(m, NONCE, 8, expect, 4), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_umac64_verify(m, NONCE, 0, expect, 8), FASTMAC_ERR_NONCE_LENGTH);
    EXPECT(fastmac_umac64_verify(m, NULL, 8, expect, 8), FASTMAC_ERR_NULL_POINTER);
    /* The one-shot call checks its arguments and tags its own message only. */
    EXPECT(fastmac_umac64_mac(m, NONCE, 8, MSG, 3, tag, 7), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_umac64_mac(m, NONCE, 0, MSG, 3, tag, 8), FASTMAC_ERR_NONCE_LENGTH);
    EXPECT(fastmac_umac64_mac(m, NONCE, 8, NULL, 3, tag, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac64_mac(m, NONCE, 8, MSG, 3, NULL, 8), FASTMAC_ERR_NULL_POINTER);
    /* Asking for the key's lines, at any length, changes nothing. */
    EXPECT(fastmac_umac64_prefetch(m, 3), FASTMAC_OK);
    EXPECT(fastmac_umac64_prefetch(m, 0), FASTMAC_OK);
    EXPECT(fastmac_umac64_prefetch(m, SIZE_MAX), FASTMAC_OK);
    EXPECT(fastmac_umac64_mac(m, NONCE, 8, MSG, 2, tag, 8), FASTMAC_OK);
    CHECK(memcmp(tag, expect, 8) != 0, "the one-shot tag of 2 bytes equals the tag of 3");
    memset(tag, 0, sizeof tag);
    EXPECT(fastmac_umac64_finalize(m, NONCE, 8, tag, 8), FASTMAC_OK);
    CHECK(memcmp(tag, expect, 8) == 0, "failed calls consumed or altered the streamed message");

    /* reset discards the message; the wrong tag is rejected and resets. */
    EXPECT(fastmac_umac64_update(m, MSG, 2), FASTMAC_OK);
    EXPECT(fastmac_umac64_reset(m), FASTMAC_OK);
    EXPECT(fastmac_umac64_update(m, MSG, 3), FASTMAC_OK);
    EXPECT(fastmac_umac64_verify(m, NONCE, 8, expect, 8), FASTMAC_OK);
    tag[0] ^= 0x80;
    EXPECT(fastmac_umac64_update(m, MSG, 3), FASTMAC_OK);
    EXPECT(fastmac_umac64_verify(m, NONCE, 8, tag, 8), FASTMAC_ERR_INVALID_TAG);
    EXPECT(fastmac_umac64_update(m, MSG, 3), FASTMAC_OK);
    EXPECT(fastmac_umac64_verify(m, NONCE, 8, expect, 8), FASTMAC_OK);
    fastmac_umac64_free(m);

    /* One-shot calls. */
    EXPECT(fastmac_umac_compute(NULL, 16, NONCE, 8, MSG, 3, tag, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac_compute(KEY, 15, NONCE, 8, MSG, 3, tag, 8), FASTMAC_ERR_KEY_LENGTH);
    EXPECT(fastmac_umac_compute(KEY, 16, NULL, 8, MSG, 3, tag, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac_compute(KEY, 16, NONCE, 0, MSG, 3, tag, 8), FASTMAC_ERR_NONCE_LENGTH);
    EXPECT(fastmac_umac_compute(KEY, 16, NONCE, 8, NULL, 3, tag, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac_compute(KEY, 16, NONCE, 8, NULL, 0, tag, 8), FASTMAC_OK);
    EXPECT(fastmac_umac_compute(KEY, 16, NONCE, 8, MSG, SIZE_MAX, tag, 8), FASTMAC_ERR_LENGTH_OVERFLOW);
    EXPECT(fastmac_umac_compute(KEY, 16, NONCE, 8, MSG, 3, NULL, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac_compute(KEY, 16, NONCE, 8, MSG, 3, tag, 5), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_umac_compute(KEY, 16, NONCE, 8, MSG, 3, tag, 0), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_umac_verify(KEY, 16, NONCE, 8, MSG, 3, expect, 3), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_umac_verify(KEY, 16, NONCE, 8, MSG, 3, NULL, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_umac_verify(KEY, 16, NONCE, 17, MSG, 3, expect, 8), FASTMAC_ERR_NONCE_LENGTH);
    EXPECT(fastmac_umac_verify(KEY, 16, NONCE, 8, MSG, 2, expect, 8), FASTMAC_ERR_INVALID_TAG);
    EXPECT(fastmac_umac_verify(KEY, 16, NONCE, 8, MSG, 3, expect, 8), FASTMAC_OK);
}

static void by_name(void)
{
    fastmac_mac *m = POISON;
    size_t len = 0;
    uint8_t tag[16];
    EXPECT(fastmac_mac_new("umac-65", KEY, 16, &m), FASTMAC_ERR_UNKNOWN_ALGORITHM);
    CHECK(m == NULL, "*out must be NULL after a failed new");
    EXPECT(fastmac_mac_new("", KEY, 16, &m), FASTMAC_ERR_UNKNOWN_ALGORITHM);
    EXPECT(fastmac_mac_new("umac-64\xff", KEY, 16, &m), FASTMAC_ERR_UNKNOWN_ALGORITHM); /* not UTF-8 */
    EXPECT(fastmac_mac_new(NULL, KEY, 16, &m), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_mac_new("umac-64", NULL, 16, &m), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_mac_new("umac-64", KEY, 12, &m), FASTMAC_ERR_KEY_LENGTH);
    EXPECT(fastmac_mac_new("umac-64", KEY, 16, NULL), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_mac_tag_len(NULL, &len), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_mac_update(NULL, MSG, 3), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_mac_finalize(NULL, NONCE, 8, tag, 8), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_mac_verify(NULL, NONCE, 8, tag, 8), FASTMAC_ERR_NULL_POINTER);
    fastmac_mac_free(NULL);

    EXPECT(fastmac_mac_new("umac-96", KEY, 16, &m), FASTMAC_OK);
    EXPECT(fastmac_mac_tag_len(m, NULL), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_mac_tag_len(m, &len), FASTMAC_OK);
    CHECK(len == 12, "umac-96 tag length %zu", len);
    EXPECT(fastmac_mac_update(m, NULL, 3), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_mac_finalize(m, NONCE, 8, tag, 8), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_mac_finalize(m, NONCE, 8, NULL, 12), FASTMAC_ERR_NULL_POINTER);
    EXPECT(fastmac_mac_finalize(m, NONCE, 0, tag, 12), FASTMAC_ERR_NONCE_LENGTH);
    EXPECT(fastmac_mac_verify(m, NONCE, 8, tag, 16), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_mac_finalize(m, NONCE, 8, tag, 12), FASTMAC_OK);
    EXPECT(fastmac_mac_verify(m, NONCE, 8, tag, 12), FASTMAC_OK); /* same (empty) message */
    tag[11] ^= 1;
    EXPECT(fastmac_mac_verify(m, NONCE, 8, tag, 12), FASTMAC_ERR_INVALID_TAG);
    fastmac_mac_free(m);

    /* HMAC by name: no nonce, so an empty one (NULL, 0) and no other. */
    EXPECT(fastmac_mac_new("hmac-sha2-256", KEY, 16, &m), FASTMAC_OK);
    EXPECT(fastmac_mac_update(m, MSG, 3), FASTMAC_OK);
    EXPECT(fastmac_mac_finalize(m, NONCE, 1, tag, 16), FASTMAC_ERR_NONCE_LENGTH);
    uint8_t hmac_tag[32];
    EXPECT(fastmac_mac_finalize(m, NULL, 0, hmac_tag, 32), FASTMAC_OK);
    EXPECT(fastmac_mac_update(m, MSG, 3), FASTMAC_OK);
    EXPECT(fastmac_mac_verify(m, NULL, 0, hmac_tag, 32), FASTMAC_OK);
    fastmac_mac_free(m);
}

static void strerror_codes(void)
{
    enum { CODES = FASTMAC_ERR_NONCE_EXHAUSTED + 1 };
    const char *seen[CODES];
    for (int code = 0; code < CODES; code++) {
        seen[code] = fastmac_strerror(code);
        CHECK(seen[code] != NULL && strcmp(seen[code], "unknown status code") != 0, "code %d has no message", code);
        for (int earlier = 0; earlier < code; earlier++)
            CHECK(strcmp(seen[code], seen[earlier]) != 0, "codes %d and %d share a message", earlier, code);
    }
    CHECK(strcmp(fastmac_strerror(FASTMAC_OK), "success") == 0, "FASTMAC_OK: %s", fastmac_strerror(FASTMAC_OK));
    const int unknown[] = {-1, CODES, INT_MAX, INT_MIN};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        CHECK(strcmp(fastmac_strerror(unknown[i]), "unknown status code") == 0, "code %d", unknown[i]);
}

static void openssh(void)
{
    u_char tag[16], ref[16], expect[8];
    CHECK(umac_new(NULL) == NULL, "umac_new(NULL) must return NULL");
    CHECK(umac128_new(NULL) == NULL, "umac128_new(NULL) must return NULL");
    CHECK(umac_update(NULL, MSG, 3) == 0, "update of a NULL context");
    CHECK(umac128_update(NULL, MSG, 3) == 0, "update of a NULL context");
    CHECK(umac_final(NULL, tag, NONCE) == 0, "final of a NULL context");
    CHECK(umac128_final(NULL, tag, NONCE) == 0, "final of a NULL context");
    CHECK(umac_delete(NULL) == 1, "umac_delete(NULL) returns 1, as OpenSSH's");
    CHECK(umac128_delete(NULL) == 1, "umac128_delete(NULL) returns 1, as OpenSSH's");

    EXPECT(fastmac_umac_compute(KEY, 16, NONCE, 8, MSG, 3, expect, 8), FASTMAC_OK);
    struct umac_ctx *c64 = umac_new(KEY), *c128 = umac128_new(KEY);
    CHECK(c64 != NULL && c128 != NULL, "umac_new failed");
    CHECK(umac_update(c64, MSG, 3) == 1, "umac_update");
    /* Failures below must leave "abc" streamed in c64. */
    CHECK(umac_update(c64, NULL, 5) == 0, "NULL input with len 5");
    CHECK(umac_update(c64, MSG, -1) == 0, "negative len");
    CHECK(umac_update(c64, MSG, LONG_MIN) == 0, "negative len");
    CHECK(umac_update(c64, NULL, 0) == 1, "NULL input with len 0 is an empty update");
    CHECK(umac_final(c64, NULL, NONCE) == 0, "NULL tag");
    CHECK(umac_final(c64, tag, NULL) == 0, "NULL nonce");
    /* One struct umac_ctx, two widths: the other width's calls refuse. */
    CHECK(umac128_update(c64, MSG, 3) == 0, "umac128_update on a UMAC-64 context");
    CHECK(umac128_final(c64, tag, NONCE) == 0, "umac128_final on a UMAC-64 context");
    CHECK(umac_update(c128, MSG, 3) == 0, "umac_update on a UMAC-128 context");
    CHECK(umac_final(c128, tag, NONCE) == 0, "umac_final on a UMAC-128 context");
    CHECK(umac_final(c64, tag, NONCE) == 1 && memcmp(tag, expect, 8) == 0,
          "failed calls consumed or altered the streamed message");
    /* c128 saw no successful update: its tag is the empty message's. */
    CHECK(umac128_final(c128, tag, NONCE) == 1, "umac128_final");
    EXPECT(fastmac_umac_compute(KEY, 16, NONCE, 8, NULL, 0, ref, 16), FASTMAC_OK);
    CHECK(memcmp(tag, ref, 16) == 0, "umac128: refused updates changed the context");
    /* Either delete frees either width. */
    CHECK(umac128_delete(c64) == 1 && umac_delete(c128) == 1, "delete");
}

/* Badger by name: exactly 8-byte nonces, never all zero (the zero nonce has
 * no code of its own in this API version: FASTMAC_ERR_OTHER). */
static void badger_by_name(void)
{
    static const uint8_t zero_nonce[8] = {0};
    fastmac_mac *m = POISON;
    uint8_t tag[8];
    EXPECT(fastmac_mac_new("badger-64", KEY, 15, &m), FASTMAC_ERR_KEY_LENGTH);
    CHECK(m == NULL, "*out must be NULL after a failed new");
    EXPECT(fastmac_mac_new("badger-64", KEY, 16, &m), FASTMAC_OK);
    EXPECT(fastmac_mac_update(m, MSG, 3), FASTMAC_OK);
    EXPECT(fastmac_mac_finalize(m, NONCE, 7, tag, 8), FASTMAC_ERR_NONCE_LENGTH);
    EXPECT(fastmac_mac_finalize(m, NONCE, 9, tag, 8), FASTMAC_ERR_NONCE_LENGTH);
    EXPECT(fastmac_mac_finalize(m, zero_nonce, 8, tag, 8), FASTMAC_ERR_OTHER);
    EXPECT(fastmac_mac_finalize(m, NONCE, 8, tag, 4), FASTMAC_ERR_TAG_LENGTH);
    EXPECT(fastmac_mac_finalize(m, NONCE, 8, tag, 8), FASTMAC_OK);
    EXPECT(fastmac_mac_update(m, MSG, 3), FASTMAC_OK);
    EXPECT(fastmac_mac_verify(m, NONCE, 8, tag, 8), FASTMAC_OK); /* failed calls consumed nothing */
    tag[0] ^= 1;
    EXPECT(fastmac_mac_update(m, MSG, 3), FASTMAC_OK);
    EXPECT(fastmac_mac_verify(m, NONCE, 8, tag, 8), FASTMAC_ERR_INVALID_TAG);
    fastmac_mac_free(m);
}

int main(void)
{
    general_umac();
    by_name();
    badger_by_name();
    strerror_codes();
    openssh();
    return check_summary("test_bad_args");
}
