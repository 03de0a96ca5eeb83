/* Negative control for the valgrind step of `make test-c`: this program
 * leaks a context on purpose, and the Makefile requires valgrind (with the
 * flags the real tests use) to fail on it. It proves the leak check is
 * live, not that libfastmac leaks. */
#include <stdio.h>

#include "umac.h"

int main(void)
{
    const u_char key[16] = "abcdefghijklmnop";
    struct umac_ctx *leaked = umac_new(key);
    printf("context %s, not deleted\n", leaked ? "created" : "NOT created");
    return leaked == NULL;
}
