/* A -ftrapv program whose int addition overflows, as OpenSSH's programs are
 * compiled (docs/openssh.md section 1, "Compiler flags"): GCC compiles the
 * addition to a call of libgcc's __addvsi3, which calls abort() on overflow
 * (SIGABRT). run.sh links it with each installed archive, whose code must
 * be in the program (the API call below) without replacing libgcc's
 * __addvsi3. */
#include <limits.h>
#include <stdio.h>

#ifdef WITH_OPENSSH
#include <umac.h>
#elif defined(WITH_FASTMAC)
#include <fastmac.h>
#endif

int main(int argc, char **argv)
{
    (void)argv;
#ifdef WITH_OPENSSH
    static const u_char key[16] = "abcdefghijklmnop";
    umac_delete(umac_new(key));
#elif defined(WITH_FASTMAC)
    uint8_t nonce[8];
    if (fastmac_umac_counter_nonce(1, nonce, sizeof nonce) != FASTMAC_OK)
        return 1;
#endif
    /* volatile: the overflow happens at run time, in __addvsi3. */
    volatile int largest = INT_MAX;
    int sum = largest + argc;
    printf("no trap: %d\n", sum);
    return 0;
}
