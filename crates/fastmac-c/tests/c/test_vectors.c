/* RFC 4418 vectors (tests/vectors/rfc4418.txt) through every C entry point:
 * the one-shot calls, the per-width handles, the by-name handles, and the
 * OpenSSH umac.h API (UMAC-64 and UMAC-128 columns; the file's nonce is 8
 * bytes, OpenSSH's nonce size).
 *
 * usage: test_vectors PATH/TO/rfc4418.txt */
#include <string.h>

#include "check.h"
#include "fastmac.h"
#include "umac.h" /* OpenSSH's interface, from include/fastmac/ */
#include "vectors.h"

/* Streams in 1007-byte pieces: uneven against UMAC's 1024-byte NH blocks. */
#define PIECE 1007

static void flip(uint8_t *tag, size_t byte) { tag[byte] ^= 0x01; }

static void check_one_shot(const struct vector_file *v, const struct vector_row *row, int col)
{
    size_t tag_len = VECTOR_TAG_LENS[col];
    const uint8_t *expect = row->tags[col];
    uint8_t tag[16];
    fastmac_status s = fastmac_umac_compute(v->key, 16, v->nonce, v->nonce_len, row->message,
                                            row->message_len, tag, tag_len);
    CHECK(s == FASTMAC_OK && memcmp(tag, expect, tag_len) == 0, "one-shot UMAC-%zu len %zu: status %d",
          8 * tag_len, row->message_len, s);
    s = fastmac_umac_verify(v->key, 16, v->nonce, v->nonce_len, row->message, row->message_len, expect, tag_len);
    CHECK(s == FASTMAC_OK, "one-shot verify UMAC-%zu len %zu: status %d", 8 * tag_len, row->message_len, s);
    /* Every byte of the tag matters (one flipped bit per byte). */
    for (size_t byte = 0; byte < tag_len; byte++) {
        memcpy(tag, expect, tag_len);
        flip(tag, byte);
        s = fastmac_umac_verify(v->key, 16, v->nonce, v->nonce_len, row->message, row->message_len, tag, tag_len);
        CHECK(s == FASTMAC_ERR_INVALID_TAG, "one-shot verify of a bad tag (byte %zu): status %d", byte, s);
    }
}

/* The same sequence for each width's handle type: the one-shot call, then
 * stream, finalize, then verify (good and bad) on the same handle, which
 * finalize has reset. */
#define CHECK_HANDLE(BITS, v, row, col)                                                              \
    do {                                                                                             \
        const size_t tag_len = (BITS) / 8;                                                           \
        const uint8_t *expect = (row)->tags[col];                                                    \
        fastmac_umac##BITS *mac = NULL;                                                              \
        fastmac_status s = fastmac_umac##BITS##_new((v)->key, 16, &mac);                             \
        CHECK(s == FASTMAC_OK && mac != NULL, "UMAC-%d new: status %d", BITS, s);                    \
        if (mac == NULL)                                                                             \
            break;                                                                                   \
        uint8_t one_shot[16];                                                                        \
        s = fastmac_umac##BITS##_mac(mac, (v)->nonce, (v)->nonce_len, (row)->message,                \
                                     (row)->message_len, one_shot, tag_len);                         \
        CHECK(s == FASTMAC_OK && memcmp(one_shot, expect, tag_len) == 0,                             \
              "UMAC-%d one-shot len %zu: status %d", BITS, (row)->message_len, s);                   \
        for (int round = 0; round < 2; round++) {                                                    \
            int update_failures = 0;                                                                 \
            for (size_t off = 0; off < (row)->message_len; off += PIECE) {                           \
                size_t n = (row)->message_len - off < PIECE ? (row)->message_len - off : PIECE;      \
                update_failures += fastmac_umac##BITS##_update(mac, (row)->message + off, n) != FASTMAC_OK; \
            }                                                                                        \
            CHECK(update_failures == 0, "%d updates failed", update_failures);                       \
            if (round == 0) {                                                                        \
                uint8_t tag[16];                                                                     \
                s = fastmac_umac##BITS##_finalize(mac, (v)->nonce, (v)->nonce_len, tag, tag_len);    \
                CHECK(s == FASTMAC_OK && memcmp(tag, expect, tag_len) == 0,                          \
                      "UMAC-%d handle len %zu: status %d", BITS, (row)->message_len, s);             \
            } else {                                                                                 \
                s = fastmac_umac##BITS##_verify(mac, (v)->nonce, (v)->nonce_len, expect, tag_len);   \
                CHECK(s == FASTMAC_OK, "UMAC-%d handle verify len %zu: status %d", BITS,             \
                      (row)->message_len, s);                                                        \
            }                                                                                        \
        }                                                                                            \
        /* verify reset the handle: the empty message is next. */                                   \
        uint8_t bad[16];                                                                             \
        memcpy(bad, expect, tag_len);                                                                \
        flip(bad, tag_len - 1);                                                                      \
        s = fastmac_umac##BITS##_update(mac, (row)->message, (row)->message_len);                    \
        CHECK(s == FASTMAC_OK, "update: status %d", s);                                              \
        s = fastmac_umac##BITS##_verify(mac, (v)->nonce, (v)->nonce_len, bad, tag_len);              \
        CHECK(s == FASTMAC_ERR_INVALID_TAG, "UMAC-%d handle, bad tag: status %d", BITS, s);          \
        fastmac_umac##BITS##_free(mac);                                                              \
    } while (0)

static void check_by_name(const struct vector_file *v, const struct vector_row *row, int col)
{
    static const char *const names[4] = {"umac-32", "UMAC-64", "umac-96", "Umac-128"};
    size_t tag_len = VECTOR_TAG_LENS[col];
    fastmac_mac *mac = NULL;
    fastmac_status s = fastmac_mac_new(names[col], v->key, 16, &mac);
    CHECK(s == FASTMAC_OK && mac != NULL, "by-name new %s: status %d", names[col], s);
    if (mac == NULL)
        return;
    size_t len = 0;
    s = fastmac_mac_tag_len(mac, &len);
    CHECK(s == FASTMAC_OK && len == tag_len, "%s tag length %zu", names[col], len);
    s = fastmac_mac_update(mac, row->message, row->message_len);
    uint8_t tag[16];
    s |= fastmac_mac_finalize(mac, v->nonce, v->nonce_len, tag, tag_len);
    CHECK(s == FASTMAC_OK && memcmp(tag, row->tags[col], tag_len) == 0, "%s len %zu", names[col],
          row->message_len);
    s = fastmac_mac_update(mac, row->message, row->message_len);
    s |= fastmac_mac_verify(mac, v->nonce, v->nonce_len, row->tags[col], tag_len);
    CHECK(s == FASTMAC_OK, "%s verify len %zu: status %d", names[col], row->message_len, s);
    fastmac_mac_free(mac);
}

/* OpenSSH's calls, as mac.c makes them: update (here in pieces, with long
 * lengths), then final with the 8-byte nonce; twice on one context, since
 * final must reset it. */
static void check_openssh(const struct vector_file *v, const struct vector_row *row, int wide)
{
    int col = wide ? 3 : 1;
    size_t tag_len = wide ? 16 : 8;
    struct umac_ctx *ctx = wide ? umac128_new(v->key) : umac_new(v->key);
    CHECK(ctx != NULL, "umac%s_new returned NULL", wide ? "128" : "");
    if (ctx == NULL)
        return;
    for (int round = 0; round < 2; round++) {
        int update_failures = 0;
        for (size_t off = 0; off < row->message_len; off += PIECE) {
            long n = (long)(row->message_len - off < PIECE ? row->message_len - off : PIECE);
            int r = wide ? umac128_update(ctx, row->message + off, n) : umac_update(ctx, row->message + off, n);
            update_failures += r != 1;
        }
        CHECK(update_failures == 0, "%d umac_update calls did not return 1", update_failures);
        u_char tag[16];
        int r = wide ? umac128_final(ctx, tag, v->nonce) : umac_final(ctx, tag, v->nonce);
        CHECK(r == 1 && memcmp(tag, row->tags[col], tag_len) == 0, "umac%s_final len %zu round %d: returned %d",
              wide ? "128" : "", row->message_len, round, r);
    }
    int r = wide ? umac128_delete(ctx) : umac_delete(ctx);
    CHECK(r == 1, "umac_delete returned %d", r);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s rfc4418.txt\n", argv[0]);
        return 2;
    }
    struct vector_file v;
    vectors_load(argv[1], &v);
    CHECK(v.nonce_len == 8, "the OpenSSH checks need the file's 8-byte nonce (got %zu)", v.nonce_len);
    for (size_t i = 0; i < v.n_rows; i++) {
        const struct vector_row *row = &v.rows[i];
        for (int col = 0; col < 4; col++) {
            check_one_shot(&v, row, col);
            check_by_name(&v, row, col);
        }
        CHECK_HANDLE(32, &v, row, 0);
        CHECK_HANDLE(64, &v, row, 1);
        CHECK_HANDLE(96, &v, row, 2);
        CHECK_HANDLE(128, &v, row, 3);
        check_openssh(&v, row, 0);
        check_openssh(&v, row, 1);
    }
    printf("%zu RFC 4418 rows x 4 tag lengths\n", v.n_rows);
    vectors_free(&v);
    return check_summary("test_vectors");
}
