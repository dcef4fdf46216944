/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_KTAP_H
#define KVERIFY_KTAP_H

#include <stddef.h>

/* A test's result, from its "ok" or "not ok" line. */
enum test_status { TEST_PASS, TEST_FAIL, TEST_SKIP };

/* One test of a KTAP run: a top-level result line. */
struct test_case {
	char *name;
	enum test_status status;
	char *reason;		/* SKIP reason or failure diagnostic */
	char *output;		/* "# " diagnostic lines before the result */
	double seconds;		/* the runner's "# time: Ns", or 0 */
};

/* A KTAP run: its tests in the order they reported. */
struct ktap_result {
	struct test_case *v;
	size_t nr;
	size_t alloc;
	int planned;		/* from "1..N", or -1 */
	int bail_out;
};

/**
 * ktap_parse() - Read the tests' results from the guest's output.
 * @text: The output: KTAP from the "KTAP version" (or "TAP version") line
 *	on, with kernel messages in between, which are ignored.
 * @len: Its length.
 * @out: An empty result (zeroed), filled in: each top-level "ok N name
 *	# SKIP reason" or "not ok N name # why" line adds a test, with the
 *	"# " lines before it (up to about 8 KiB) and its "# time: Ns"; the
 *	plan and a "Bail out!".
 *
 * Return: 0, or -1 when @text has no version line (and @out no test).
 */
int ktap_parse(const char *text, size_t len, struct ktap_result *out);

/**
 * ktap_clear() - Free a result's tests.
 * @r: The result; left zeroed.
 */
void ktap_clear(struct ktap_result *r);

/**
 * ktap_count() - How many tests of a result have a status.
 * @r: The result.
 * @s: The status.
 *
 * Return: The number of tests of @r with status @s.
 */
size_t ktap_count(const struct ktap_result *r, enum test_status s);

/**
 * ktap_runner_done() - Did the guest's test runner finish?
 * @runner: What the runner (tools/guest/init) wrote to its port.
 *
 * The runner's last line is "KVERIFY-DONE", a whole line (a serial port's
 * CR before its newline counts as its end).  The tests' output reaches
 * that port only as the runner's "# " lines, so the word inside a line is
 * not the runner's.
 *
 * Return: 1 if @runner has that line, else 0.
 */
int ktap_runner_done(const char *runner);

#endif
