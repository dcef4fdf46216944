/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_TEST_HOOKS_H
#define KVERIFY_TEST_HOOKS_H

/*
 * The test hooks: values a test gives the driver, through
 * $KVERIFY_TEST_*, so that it can stand in for what it cannot have here
 * (tests/README, "Test hooks").  tools/kverify.c reads them once, and
 * struct options points to them (opt->test, NULL: none); a field 0 or
 * NULL is unset.  Nothing but the test suite sets them.
 */
struct test_hooks {
	/* KVERIFY_TEST_BOOT_TIMEOUT: seconds QEMU may run (step_boot.c) */
	long boot_timeout;
	/* KVERIFY_TEST_PROGRESS_SECONDS: between progress lines (verify.c) */
	long progress_seconds;
	/* KVERIFY_TEST_APT_MAX_AGE: the apt lists' age in seconds; -1 unset */
	long apt_max_age;
	/* KVERIFY_TEST_SWEEP_LIST: the archive's versions from a file */
	const char *sweep_list;
};

#endif
