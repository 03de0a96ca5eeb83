/* The OpenSSH API over a stream of SSH packets, as OpenSSH's mac.c drives it
 * for umac-64@openssh.com and umac-128@openssh.com: one context per key,
 * then per packet umac_update(packet) and umac_final(tag, nonce) with
 * nonce = the 64-bit big-endian sequence number. Each tag is compared with
 * GNU Nettle's UMAC (an independent implementation), with libfastmac's
 * general API, and with libfastmac's SSH MAC of that name
 * (fastmac_ssh_mac_compute(seq, packet)).
 *
 * The sequence numbers run from 0 (consecutive nonces share a cached AES
 * pad block) and across the 32-bit wrap of OpenSSH's u_int32_t seqnr. */
#include <string.h>

#include <nettle/umac.h>
/* Nettle maps its API onto nettle_-prefixed symbols with macros, and its
 * umac128_update macro has OpenSSH's name: call Nettle by its real names. */
#undef umac128_update

#include "check.h"
#include "fastmac.h"
#include "umac.h"

#define PACKETS_PER_RUN 1500
#define MAX_PACKET 35000 /* OpenSSH's largest packets are 32 KiB + headers */

/* xorshift64: deterministic packet contents and sizes, no libc rand state. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Sizes an SSH connection sees: mostly small, some full blocks and large
 * data packets, plus the empty message. */
static size_t packet_size(void)
{
    switch (rng() % 8) {
    case 0: return 0;
    case 1: return 32;
    case 2: return 1024;
    case 3: return 1 + rng() % 64;
    case 4: return 1 + rng() % 4096;
    case 5: return MAX_PACKET - rng() % 3000;
    default: return 16 + 16 * (rng() % 100);
    }
}

static void put_u64_be(uint8_t out[8], uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        out[i] = (uint8_t)v;
}

static void run(int wide, uint32_t first_seq)
{
    const size_t tag_len = wide ? 16 : 8;
    uint8_t key[16];
    for (int i = 0; i < 16; i++)
        key[i] = (uint8_t)rng();

    struct umac_ctx *ssh = wide ? umac128_new(key) : umac_new(key);
    struct umac64_ctx nettle64;
    struct umac128_ctx nettle128;
    fastmac_umac64 *gen64 = NULL;
    fastmac_umac128 *gen128 = NULL;
    fastmac_status s;
    if (wide) {
        nettle_umac128_set_key(&nettle128, key);
        s = fastmac_umac128_new(key, 16, &gen128);
    } else {
        nettle_umac64_set_key(&nettle64, key);
        s = fastmac_umac64_new(key, 16, &gen64);
    }
    CHECK(ssh != NULL && s == FASTMAC_OK, "contexts: %p, status %d", (void *)ssh, s);
    const char *ssh_name = wide ? "umac-128@openssh.com" : "umac-64@openssh.com";
    fastmac_ssh_mac *by_name = NULL;
    s = fastmac_ssh_mac_new(ssh_name, key, 16, &by_name);
    CHECK(s == FASTMAC_OK, "%s: status %d", ssh_name, s);
    if (ssh == NULL || by_name == NULL || (gen64 == NULL && gen128 == NULL))
        return;

    uint8_t *packet = xmalloc(MAX_PACKET);
    unsigned mismatches_nettle = 0, mismatches_general = 0, mismatches_by_name = 0, failures = 0;
    uint32_t seq = first_seq;
    for (int p = 0; p < PACKETS_PER_RUN; p++, seq++) { /* seq wraps like OpenSSH's */
        size_t len = packet_size();
        for (size_t i = 0; i < len; i++)
            packet[i] = (uint8_t)rng();
        uint8_t nonce[8];
        put_u64_be(nonce, seq);

        /* OpenSSH API; the packet in one or two updates. */
        u_char tag[16], ref[16], gen[16], named[16];
        size_t split = len ? rng() % (len + 1) : 0;
        if (wide) {
            failures += umac128_update(ssh, packet, (long)split) != 1;
            failures += umac128_update(ssh, packet + split, (long)(len - split)) != 1;
            failures += umac128_final(ssh, tag, nonce) != 1;
        } else {
            failures += umac_update(ssh, packet, (long)split) != 1;
            failures += umac_update(ssh, packet + split, (long)(len - split)) != 1;
            failures += umac_final(ssh, tag, nonce) != 1;
        }

        /* Nettle, nonce set explicitly per packet. */
        if (wide) {
            nettle_umac128_set_nonce(&nettle128, 8, nonce);
            nettle_umac128_update(&nettle128, len, packet);
            nettle_umac128_digest(&nettle128, 16, ref);
        } else {
            nettle_umac64_set_nonce(&nettle64, 8, nonce);
            nettle_umac64_update(&nettle64, len, packet);
            nettle_umac64_digest(&nettle64, 8, ref);
        }

        /* libfastmac's general API. */
        if (wide) {
            failures += fastmac_umac128_update(gen128, packet, len) != FASTMAC_OK;
            failures += fastmac_umac128_finalize(gen128, nonce, 8, gen, 16) != FASTMAC_OK;
        } else {
            failures += fastmac_umac64_update(gen64, packet, len) != FASTMAC_OK;
            failures += fastmac_umac64_finalize(gen64, nonce, 8, gen, 8) != FASTMAC_OK;
        }

        /* libfastmac's SSH MAC by name; its verify accepts OpenSSH's tag. */
        failures += fastmac_ssh_mac_compute(by_name, seq, packet, len, named, tag_len) != FASTMAC_OK;
        failures += fastmac_ssh_mac_verify(by_name, seq, packet, len, tag, tag_len) != FASTMAC_OK;

        if (memcmp(tag, ref, tag_len) != 0 && mismatches_nettle++ < 3)
            fprintf(stderr, "  seq %u len %zu: OpenSSH API differs from Nettle\n", seq, len);
        if (memcmp(gen, ref, tag_len) != 0 && mismatches_general++ < 3)
            fprintf(stderr, "  seq %u len %zu: general API differs from Nettle\n", seq, len);
        if (memcmp(named, tag, tag_len) != 0 && mismatches_by_name++ < 3)
            fprintf(stderr, "  seq %u len %zu: %s differs from the OpenSSH API\n", seq, len, ssh_name);
    }
    CHECK(failures == 0, "%u calls failed", failures);
    CHECK(mismatches_nettle == 0, "umac%s: %u of %d packets differ from Nettle (seq from %u)", wide ? "128" : "",
          mismatches_nettle, PACKETS_PER_RUN, first_seq);
    CHECK(mismatches_general == 0, "UMAC-%zu general API: %u of %d packets differ from Nettle", 8 * tag_len,
          mismatches_general, PACKETS_PER_RUN);
    CHECK(mismatches_by_name == 0, "%s: %u of %d packets differ from the OpenSSH API", ssh_name,
          mismatches_by_name, PACKETS_PER_RUN);
    printf("umac%s: %d packets from seq %u: %s\n", wide ? "128" : "-64", PACKETS_PER_RUN, first_seq,
           mismatches_nettle + mismatches_general + mismatches_by_name + failures == 0
               ? "OpenSSH API = Nettle = general API = fastmac_ssh_mac"
               : "MISMATCH");

    free(packet);
    CHECK((wide ? umac128_delete(ssh) : umac_delete(ssh)) == 1, "umac_delete did not return 1");
    fastmac_ssh_mac_free(by_name);
    fastmac_umac64_free(gen64);
    fastmac_umac128_free(gen128);
}

int main(void)
{
    for (int wide = 0; wide <= 1; wide++) {
        run(wide, 0);
        run(wide, UINT32_MAX - PACKETS_PER_RUN / 2);
    }
    return check_summary("test_openssh_packets");
}
