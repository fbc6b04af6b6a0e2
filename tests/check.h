/*
 * check.h - the test suite's tiny harness.
 *
 * A test program runs cases; each case passes when none of its CHECKs
 * failed.  CHECK does not depend on NDEBUG.  check_finish() prints
 * "NAME: P passed, F failed" and returns the exit status for main.
 *
 * The state is one object per program (tests/lib/check.c), so CHECKs in the
 * shared test code of tests/lib (the oracle's checker, ...) count towards
 * the case that the test program is running.
 */
#ifndef LOOPY_TEST_CHECK_H
#define LOOPY_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

typedef struct check_state {
    unsigned long passed, failed;
    int case_failed;       /* a CHECK failed in the current case */
    unsigned long reports; /* failure messages printed so far */
} check_state;

/* Internal to CHECK and check_*; defined in tests/lib/check.c. */
extern check_state check_state_;

/* Print at most this many failure messages, so a broken solver does not
 * flood the log with a million lines. */
#define CHECK_MAX_REPORTS 50

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            check_state_.case_failed = 1;                                      \
            if (check_state_.reports++ < CHECK_MAX_REPORTS)                    \
                fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__,         \
                        __LINE__, #cond);                                      \
        }                                                                      \
    } while (0)

/* Like CHECK, with a printf-style explanation printed on failure. */
#define CHECK_MSG(cond, ...)                                                   \
    do {                                                                       \
        if (!(cond)) {                                                         \
            check_state_.case_failed = 1;                                      \
            if (check_state_.reports++ < CHECK_MAX_REPORTS) {                  \
                fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__,         \
                        __LINE__, #cond);                                      \
                fprintf(stderr, __VA_ARGS__);                                  \
                fputc('\n', stderr);                                           \
            }                                                                  \
        }                                                                      \
    } while (0)

/* Ends the current case, counting it as passed or failed; returns whether it
 * passed. */
static inline int check_case_end(void)
{
    int ok = !check_state_.case_failed;
    if (ok)
        check_state_.passed++;
    else
        check_state_.failed++;
    check_state_.case_failed = 0;
    return ok;
}

static inline int check_finish(const char *name)
{
    if (check_state_.case_failed)
        check_case_end();
    printf("%s: %lu passed, %lu failed\n", name, check_state_.passed,
           check_state_.failed);
    return check_state_.failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Whether to cut a test's heavy parts: LOOPY_TEST_QUICK set (and not
 * "0"), LOOPY_TEST_TSAN set, or a build with AddressSanitizer or
 * ThreadSanitizer (which are slow and hungry). */
int check_quick(void);

#endif
