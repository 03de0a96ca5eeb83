/*
 * The negative control of the OpenSSH sessions: linked with
 * -Wl,--wrap=umac_final -Wl,--wrap=umac128_final, every tag OpenSSH's mac.c
 * computes (to send, and to compare with a received one) has its lowest bit
 * flipped. A peer must refuse the first packet ("Corrupted MAC on input").
 */
#include <sys/types.h>

struct umac_ctx;

int __real_umac_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8]);
int __real_umac128_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8]);
int __wrap_umac_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8]);
int __wrap_umac128_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8]);

int __wrap_umac_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8])
{
	int ok = __real_umac_final(ctx, tag, nonce);
	tag[0] ^= 1;
	return ok;
}

int __wrap_umac128_final(struct umac_ctx *ctx, u_char tag[], const u_char nonce[8])
{
	int ok = __real_umac128_final(ctx, tag, nonce);
	tag[0] ^= 1;
	return ok;
}
