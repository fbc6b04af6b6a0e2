/*
 * check.c - the one harness state of a test program (see tests/check.h),
 * shared by the program's own CHECKs and those of the code in tests/lib.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

check_state check_state_;

int check_quick(void)
{
    const char *q = getenv("LOOPY_TEST_QUICK");
    const char *tsan = getenv("LOOPY_TEST_TSAN");

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return 1;
#endif
#endif
    return (q != NULL && q[0] != '\0' && strcmp(q, "0") != 0) ||
           (tsan != NULL && tsan[0] != '\0');
}
