#include "vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *path, unsigned line, const char *what)
{
    fprintf(stderr, "%s:%u: %s\n", path, line, what);
    exit(2);
}

/* Decodes exactly `len` bytes of hex; returns 0 on any malformed digit or
 * length mismatch. */
static int unhex(const char *hex, uint8_t *out, size_t len)
{
    if (strlen(hex) != 2 * len)
        return 0;
    for (size_t i = 0; i < len; i++) {
        unsigned byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
            return 0;
        out[i] = (uint8_t)byte;
    }
    return 1;
}

void vectors_load(const char *path, struct vector_file *v)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        die(path, 0, "cannot open the vector file");
    memset(v, 0, sizeof *v);
    int have_key = 0;
    char line[512];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char a[128], b[128];
        char t[4][64];
        if (strncmp(line, "key ", 4) == 0) {
            if (strlen(line + 4) != 16)
                die(path, lineno, "the key must be 16 ASCII bytes");
            memcpy(v->key, line + 4, 16);
            have_key = 1;
        } else if (strncmp(line, "nonce ", 6) == 0) {
            v->nonce_len = strlen(line + 6);
            if (v->nonce_len < 1 || v->nonce_len > 16)
                die(path, lineno, "the nonce must be 1 to 16 ASCII bytes");
            memcpy(v->nonce, line + 6, v->nonce_len);
        } else if (sscanf(line, "%127s %127s %63s %63s %63s %63s", a, b, t[0], t[1], t[2], t[3]) == 6) {
            char *end;
            unsigned long repeat = strtoul(b, &end, 10);
            if (*end != '\0')
                die(path, lineno, "bad repeat count");
            const char *pattern = strcmp(a, "-") == 0 ? "" : a;
            size_t plen = strlen(pattern);
            v->rows = realloc(v->rows, (v->n_rows + 1) * sizeof *v->rows);
            if (v->rows == NULL)
                die(path, lineno, "out of memory");
            struct vector_row *row = &v->rows[v->n_rows++];
            memset(row, 0, sizeof *row);
            row->message_len = plen * repeat;
            row->message = malloc(row->message_len ? row->message_len : 1);
            if (row->message == NULL)
                die(path, lineno, "out of memory");
            for (size_t i = 0; i < repeat; i++)
                memcpy(row->message + i * plen, pattern, plen);
            for (int c = 0; c < 4; c++)
                if (!unhex(t[c], row->tags[c], VECTOR_TAG_LENS[c]))
                    die(path, lineno, "bad tag hex");
        } else {
            die(path, lineno, "unrecognised line");
        }
    }
    fclose(f);
    if (!have_key || v->nonce_len == 0 || v->n_rows == 0)
        die(path, lineno, "no key, nonce or rows");
}

void vectors_free(struct vector_file *v)
{
    for (size_t i = 0; i < v->n_rows; i++)
        free(v->rows[i].message);
    free(v->rows);
    memset(v, 0, sizeof *v);
}
