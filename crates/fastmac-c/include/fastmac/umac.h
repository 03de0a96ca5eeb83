/*
 * umac.h: OpenSSH's UMAC interface, implemented by libfastmac.
 *
 * A drop-in replacement for OpenSSH's umac.h + umac.c + umac128.c: the eight
 * declarations below are OpenSSH's (umac.h, "$OpenBSD: umac.h,v 1.5"),
 * character for character, and libfastmac-openssh exports these exact
 * symbols, so code written against OpenSSH's header compiles and links
 * unchanged (cc ... -I<includedir>/fastmac ... -lfastmac-openssh, or
 * pkg-config fastmac-openssh). The general libfastmac does not export them,
 * so a program with its own umac.c can link it without a clash.
 *
 * Semantics, as in OpenSSH:
 *  - umac_new / umac128_new expand a 16-byte key into a heap context for
 *    UMAC-64 / UMAC-128 (RFC 4418) and return it;
 *  - umac_update / umac128_update append len bytes of the message;
 *  - umac_final / umac128_final write the 8 / 16-byte tag of the message
 *    under the 8-byte nonce (SSH: the big-endian 64-bit sequence number) and
 *    reset the context for the next message;
 *  - umac_delete / umac128_delete wipe and free the context (NULL is fine);
 *  - every int-returning function returns 1 on success.
 * One opaque struct umac_ctx serves both widths, as in OpenSSH.
 *
 * Where OpenSSH's code would have undefined behaviour, libfastmac fails
 * safely instead: umac_new(NULL) returns NULL; a NULL ctx/tag/nonce (or NULL
 * input with len > 0), a negative len, or a context of the other width
 * (umac_final on a umac128_new context) returns 0 and changes nothing.
 *
 * Thread safety: distinct contexts are independent; one context must not be
 * used by two threads at once. libfastmac keeps no global state.
 *
 * u_char comes from <sys/types.h> (glibc: defined unless a strict -std=cNN
 * mode hides it; OpenSSH builds in the default gnu mode).
 */

#ifndef FASTMAC_OPENSSH_UMAC_H
#define FASTMAC_OPENSSH_UMAC_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct umac_ctx;

struct umac_ctx *umac_new(const u_char key[]);
int umac_update(struct umac_ctx *ctx, const u_char *input, long len);
int umac_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8]);
int umac_delete(struct umac_ctx *ctx);

/* matching umac-128 API, we reuse umac_ctx, since it's opaque */
struct umac_ctx *umac128_new(const u_char key[]);
int umac128_update(struct umac_ctx *ctx, const u_char *input, long len);
int umac128_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8]);
int umac128_delete(struct umac_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* FASTMAC_OPENSSH_UMAC_H */
