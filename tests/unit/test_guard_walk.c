// SPDX-License-Identifier: GPL-2.0
/*
 * test_guard.c's checks on a kernel without openat2(): lib/guard.c's walk
 * of O_NOFOLLOW opens, which it takes when openat2() fails on "/".
 */
#include <errno.h>
#include <unistd.h>

/* the syscall(2) of a kernel that has no openat2() */
static long no_openat2(long nr, ...)
{
	(void)nr;
	errno = EINVAL;
	return -1;
}

#define syscall no_openat2
#include "../../tools/lib/guard.c"
#undef syscall

#include "test_guard.c"
