// SPDX-License-Identifier: GPL-2.0
/*
 * A step's result: whose fault a failure is comes from what failed (a tool
 * that could not start, a full disk, blame_machine()), never from the
 * reason's words, so rewording a reason leaves FAIL and ERROR as they are.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/lib/result.h"

static char *log_path;

/* Each check starts with an empty step log (run_tool() reads its tail). */
static int empty_log(void **state)
{
	(void)state;
	return truncate(log_path, 0);
}

static int run_one(struct step_result *r, const char *script)
{
	struct child c = CHILD_INIT;
	int ret;

	if (script)
		strvec_pushl(&c.args, "sh", "-c", script, NULL);
	else
		strvec_push(&c.args, "kverify-tool-that-is-not-there");
	ret = run_tool(log_path, 10, r, &c);
	child_clear(&c);
	return ret;
}

static void release(struct step_result *r)
{
	strbuf_release(&r->reason);
	strbuf_release(&r->detail);
}

static void missing_tool_is_an_error(void **state)
{
	struct step_result r = STEP_RESULT_INIT("t");

	(void)state;
	assert_int_not_equal(run_one(&r, NULL), 0);
	assert_int_equal(r.cause, CAUSE_MACHINE);
	assert_int_equal(step_outcome(STEP_FAIL, &r), STEP_ERROR);
	/* The words do not matter: reworded, it is still an ERROR. */
	strbuf_reset(&r.reason);
	strbuf_addstr(&r.reason, "something else entirely");
	assert_int_equal(step_outcome(STEP_FAIL, &r), STEP_ERROR);
	release(&r);
}

static void exit_status_is_the_patch(void **state)
{
	struct step_result r = STEP_RESULT_INIT("t");

	(void)state;
	assert_int_equal(run_one(&r, "exit 2"), 2);
	assert_int_equal(r.cause, CAUSE_PATCH);
	assert_int_equal(step_outcome(STEP_FAIL, &r), STEP_FAIL);
	/* A reason that names a missing tool does not make it one. */
	strbuf_addstr(&r.reason,
		      "; x not found: install it with 'apt-get install x'");
	strbuf_addstr(&r.reason, "; no space left on device");
	assert_int_equal(step_outcome(STEP_FAIL, &r), STEP_FAIL);
	release(&r);
}

static void full_disk_is_an_error(void **state)
{
	struct step_result r = STEP_RESULT_INIT("t");

	(void)state;
	assert_int_equal(run_one(&r, "echo 'x.o: No space left on device'; exit 1"),
			 1);
	assert_int_equal(r.cause, CAUSE_MACHINE);
	assert_non_null(strstr(r.reason.buf, "no space left on device"));
	assert_int_equal(step_outcome(STEP_FAIL, &r), STEP_ERROR);
	release(&r);
}

/* The last failure decides: a tool that then runs and fails is the patch's. */
static void last_failure_decides(void **state)
{
	struct step_result r = STEP_RESULT_INIT("t");

	(void)state;
	assert_int_equal(blame_machine(&r), -1);
	assert_int_equal(step_outcome(STEP_FAIL, &r), STEP_ERROR);
	assert_int_equal(run_one(&r, "exit 1"), 1);
	assert_int_equal(step_outcome(STEP_FAIL, &r), STEP_FAIL);
	assert_int_not_equal(run_one(&r, NULL), 0);
	assert_int_equal(step_outcome(STEP_FAIL, &r), STEP_ERROR);
	release(&r);
}

/* Only a FAIL turns into an ERROR: what passed, skipped or was n/a stays. */
static void only_fail_changes(void **state)
{
	struct step_result r = STEP_RESULT_INIT("t");

	(void)state;
	blame_machine(&r);
	assert_int_equal(step_outcome(STEP_PASS, &r), STEP_PASS);
	assert_int_equal(step_outcome(STEP_SKIP, &r), STEP_SKIP);
	assert_int_equal(step_outcome(STEP_NA, &r), STEP_NA);
	assert_int_equal(step_outcome(STEP_ERROR, &r), STEP_ERROR);
	r.cause = CAUSE_PATCH;
	assert_int_equal(step_outcome(STEP_ERROR, &r), STEP_ERROR);
	release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(missing_tool_is_an_error, empty_log),
		cmocka_unit_test_setup(exit_status_is_the_patch, empty_log),
		cmocka_unit_test_setup(full_disk_is_an_error, empty_log),
		cmocka_unit_test_setup(last_failure_decides, empty_log),
		cmocka_unit_test_setup(only_fail_changes, empty_log),
	};
	int fd, ret;

	log_path = strdup("/tmp/kverify-test-result-XXXXXX");
	fd = log_path ? mkstemp(log_path) : -1;
	if (fd < 0)
		return 1;
	close(fd);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(log_path);
	free(log_path);
	return ret;
}
