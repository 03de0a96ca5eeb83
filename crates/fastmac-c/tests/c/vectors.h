/* Reader of tests/vectors/rfc4418.txt, the RFC 4418 known-answer file shared
 * by the Rust, Python and C tests (its header comment documents the format
 * and the sources of each column). */
#ifndef FASTMAC_TEST_VECTORS_H
#define FASTMAC_TEST_VECTORS_H

#include <stddef.h>
#include <stdint.h>

/* Tag lengths of the file's four columns: UMAC-32, -64, -96, -128. */
static const size_t VECTOR_TAG_LENS[4] = {4, 8, 12, 16};

struct vector_row {
    uint8_t *message; /* pattern repeated: malloc'ed, message_len bytes */
    size_t message_len;
    uint8_t tags[4][16]; /* per column; only the first VECTOR_TAG_LENS[i] bytes */
};

struct vector_file {
    uint8_t key[16];
    uint8_t nonce[16];
    size_t nonce_len;
    struct vector_row *rows;
    size_t n_rows;
};

/* Parses the file; exits with a message if it is missing or malformed. */
void vectors_load(const char *path, struct vector_file *out);
void vectors_free(struct vector_file *v);

#endif
