/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_KTAP_H
#define KVERIFY_KTAP_H

#include <stddef.h>

enum test_status { TEST_PASS, TEST_FAIL, TEST_SKIP };

struct test_case {
	char *name;
	enum test_status status;
	char *reason;		/* SKIP reason or failure diagnostic */
	char *output;		/* "# " diagnostic lines before the result */
	double seconds;		/* the runner's "# time: Ns", or 0 */
};

struct ktap_result {
	struct test_case *v;
	size_t nr;
	size_t alloc;
	int planned;		/* from "1..N", or -1 */
	int bail_out;
};

int ktap_parse(const char *text, size_t len, struct ktap_result *out);
void ktap_clear(struct ktap_result *r);
size_t ktap_count(const struct ktap_result *r, enum test_status s);
int ktap_runner_done(const char *runner);

#endif
