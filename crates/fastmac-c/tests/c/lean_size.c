/* The smallest OpenSSH-style user of the drop-in: one message through
 * umac_new, umac_update, umac_final, umac_delete. lean.sh builds it twice,
 * with the static libfastmac-openssh (-DWITH_FASTMAC) and with the calls
 * compiled out, and compares the two binaries' sizes and NEEDED entries. */
#include <stdio.h>
#include <sys/types.h>

#ifdef WITH_FASTMAC
#include <umac.h>
#endif

int main(void)
{
    u_char tag[8] = {0};
#ifdef WITH_FASTMAC
    static const u_char key[16] = "abcdefghijklmnop", nonce[8] = {0, 0, 0, 0, 0, 0, 0, 1};
    struct umac_ctx *ctx = umac_new(key);
    if (ctx == NULL || !umac_update(ctx, (const u_char *)"abc", 3) || !umac_final(ctx, tag, nonce))
        return 1;
    umac_delete(ctx);
#endif
    for (int i = 0; i < 8; i++)
        printf("%02x", tag[i]);
    printf("\n");
    return 0;
}
