/*
 * check.c - the one harness state of a test program (see tests/check.h),
 * shared by the program's own CHECKs and those of the code in tests/lib.
 */
#include "check.h"

check_state check_state_;
