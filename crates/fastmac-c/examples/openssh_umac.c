/* A program written against OpenSSH's umac.h, unchanged, linked against
 * libfastmac: it MACs a few SSH packets the way OpenSSH's mac.c does
 * (nonce = 64-bit big-endian sequence number; umac_final resets the context
 * for the next packet).
 *
 *   cc -I$PREFIX/include/fastmac openssh_umac.c -L$PREFIX/lib -lfastmac */
#include <sys/types.h>
#include <stdio.h>
#include <string.h>

#include "umac.h"

static void put_u64(u_char out[8], unsigned long long v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        out[i] = (u_char)v;
}

static void print_hex(const char *label, const u_char *p, size_t n)
{
    printf("%s", label);
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
    printf("\n");
}

int main(void)
{
    const u_char key[16] = "abcdefghijklmnop";
    const char *packets[] = {"abc", "", "SSH-2.0 packet payload"};
    struct umac_ctx *ctx64 = umac_new(key);
    struct umac_ctx *ctx128 = umac128_new(key);
    if (ctx64 == NULL || ctx128 == NULL)
        return 1;

    for (unsigned seq = 0; seq < 3; seq++) {
        u_char nonce[8], tag64[8], tag128[16];
        put_u64(nonce, seq);
        const u_char *data = (const u_char *)packets[seq];
        long len = (long)strlen(packets[seq]);
        if (umac_update(ctx64, data, len) != 1 || umac_final(ctx64, tag64, nonce) != 1 ||
            umac128_update(ctx128, data, len) != 1 || umac128_final(ctx128, tag128, nonce) != 1)
            return 1;
        printf("seq %u, packet \"%s\"\n", seq, packets[seq]);
        print_hex("  umac-64@openssh.com  ", tag64, sizeof tag64);
        print_hex("  umac-128@openssh.com ", tag128, sizeof tag128);
    }

    /* The RFC 4418 test vector: message "abc", nonce "bcdefghi". */
    u_char tag[8];
    umac_update(ctx64, (const u_char *)"abc", 3);
    umac_final(ctx64, tag, (const u_char *)"bcdefghi");
    print_hex("RFC 4418 'abc' UMAC-64 (expect d4d7b9f6bd4fbfcf): ", tag, sizeof tag);

    umac_delete(ctx64);
    umac128_delete(ctx128);
    return 0;
}
