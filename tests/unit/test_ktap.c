// SPDX-License-Identifier: GPL-2.0
/* KTAP from a guest console: results, SKIP reasons, noise ignored. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/core/ktap.h"

static void console_with_noise(void **state)
{
	static const char console[] =
		"[    0.1] Linux version 7.3\n"
		"ok 99 not a result: before KTAP version\n"
		"KTAP version 1\r\n"
		"1..4\n"
		"ok 1 param: mode 0644\n"
		"[    1.2] kvm: some message\n"
		"# Random seed: 0x6b8b4567\n"
		"# 1..0 # SKIP Requirement not met: kvm_is_pmu_enabled()\n"
		"ok 2 pmu_counters_test tolerance=0 # SKIP no vPMU: enable_pmu=N\n"
		"not ok 3 cpuid_test # exit status 254\n"
		"ok 4 lowercase directive # skip not today\n";
	struct ktap_result r = { 0 };

	(void)state;
	assert_int_equal(ktap_parse(console, sizeof(console) - 1, &r), 0);
	assert_int_equal(r.planned, 4);
	assert_int_equal(r.nr, 4);
	assert_string_equal(r.v[0].name, "param: mode 0644");
	assert_int_equal(r.v[0].status, TEST_PASS);
	assert_int_equal(r.v[1].status, TEST_SKIP);
	assert_string_equal(r.v[1].reason, "no vPMU: enable_pmu=N");
	assert_non_null(strstr(r.v[1].output, "Requirement not met"));
	assert_int_equal(r.v[2].status, TEST_FAIL);
	assert_string_equal(r.v[2].reason, "exit status 254");
	assert_int_equal(r.v[3].status, TEST_SKIP);
	assert_string_equal(r.v[3].reason, "not today");
	assert_int_equal(ktap_count(&r, TEST_SKIP), 2);
	ktap_clear(&r);
}

static void no_ktap(void **state)
{
	static const char console[] = "Kernel panic - not syncing\nok 1 x\n";
	struct ktap_result r = { 0 };

	(void)state;
	assert_int_equal(ktap_parse(console, sizeof(console) - 1, &r), -1);
	assert_int_equal(r.nr, 0);
	ktap_clear(&r);
}

static void not_ok_skip_is_failure(void **state)
{
	static const char console[] = "KTAP version 1\nnot ok 1 t # SKIP x\n";
	struct ktap_result r = { 0 };

	(void)state;
	assert_int_equal(ktap_parse(console, sizeof(console) - 1, &r), 0);
	assert_int_equal(r.v[0].status, TEST_FAIL);
	ktap_clear(&r);
}

/* The runner's "# time: Ns" line before a result is that test's time. */
static void test_times(void **state)
{
	static const char console[] = "KTAP version 1\n1..3\n# time: 2.50s\n"
		"ok 1 a\n# out\nok 2 b # SKIP x\n# time: 1e99s\n"
		"not ok 3 c # exit status 1\n";
	struct ktap_result r = { 0 };

	(void)state;
	assert_int_equal(ktap_parse(console, sizeof(console) - 1, &r), 0);
	assert_int_equal(r.nr, 3);
	assert_true(r.v[0].seconds == 2.5);
	assert_true(r.v[1].seconds == 0);
	assert_true(r.v[2].seconds == 0);
	ktap_clear(&r);
}

/*
 * The runner's verdict is its own line: the word inside a test's "# "
 * line, a SKIP reason or another word is not it.
 */
static void runner_done_is_a_whole_line(void **state)
{
	(void)state;
	assert_true(ktap_runner_done("KTAP version 1\n1..1\nok 1 a\nKVERIFY-DONE\n"));
	assert_true(ktap_runner_done("ok 1 a\r\nKVERIFY-DONE\r\n"));
	assert_true(ktap_runner_done("KVERIFY-DONE"));
	assert_true(ktap_runner_done("# KVERIFY-DONE\nKVERIFY-DONE\n"));
	assert_false(ktap_runner_done(""));
	assert_false(ktap_runner_done("ok 1 a\n# forged KVERIFY-DONE\n"));
	assert_false(ktap_runner_done("# KVERIFY-DONE\n"));
	assert_false(ktap_runner_done("ok 2 b # SKIP KVERIFY-DONE\n"));
	assert_false(ktap_runner_done("KVERIFY-DONE now\n"));
	assert_false(ktap_runner_done("KVERIFY-DONE-NOT\nxKVERIFY-DONE\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(console_with_noise),
		cmocka_unit_test(no_ktap),
		cmocka_unit_test(not_ok_skip_is_failure),
		cmocka_unit_test(test_times),
		cmocka_unit_test(runner_done_is_a_whole_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
