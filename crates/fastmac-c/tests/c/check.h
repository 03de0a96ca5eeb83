/* Minimal test harness shared by the C tests: CHECK counts failures and
 * keeps going, so one run reports every broken case. */
#ifndef FASTMAC_TEST_CHECK_H
#define FASTMAC_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static unsigned long checks_run, checks_failed;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        checks_run++;                                                        \
        if (!(cond)) {                                                       \
            checks_failed++;                                                 \
            fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

/* Prints the tally; the process exit status is 1 if anything failed or if
 * nothing was checked at all (a test that checks nothing cannot pass). */
static inline int check_summary(const char *name)
{
    printf("%s: %lu checks, %lu failed\n", name, checks_run, checks_failed);
    return (checks_failed == 0 && checks_run > 0) ? 0 : 1;
}

/* Exits on allocation failure: tests have no use for a partial run. */
static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

#endif
