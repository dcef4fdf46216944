// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's version order (make sweep sorts linux-source-X.Y versions by
 * it): pairs whose order dpkg's policy fixes, and each of them against
 * dpkg --compare-versions itself, run here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/debian/debversion.h"

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

/* a < b, in Debian's order */
static const char *const less[][2] = {
	{ "6.1", "6.12" },
	{ "6.1.158-1", "6.1.159-1" },
	{ "6.12.9-1", "6.12.10-1" },
	{ "6.12.38-1~bpo12+1", "6.12.38-1" },
	{ "6.12.38-1", "6.12.38-1+deb13u1" },
	{ "1.0~rc1-1", "1.0-1" },
	{ "1.0-1", "1.0+b1-1" },	/* the upstream part decides first */
	{ "1.0-2", "1.0.1-1" },
	{ "1:0.9-1", "2:0.1-1" },
	{ "9.9-9", "1:0.1-1" },		/* no epoch is epoch 0 */
	{ "1.0-1", "1.0-1a" },
	{ "1.0-1", "1.0-a" },
	{ "1.0-1.1", "1.0-1.1.1" },
	{ "1.2-3-4", "1.2-3-5" },	/* the revision after the last '-' */
	{ "1.0~~", "1.0~" },
	{ "1.0a", "1.0+" },		/* letters before other characters */
	{ "0001", "2" },
};

static const char *const equal[][2] = {
	{ "1.0", "1.0-0" },
	{ "0:1.0-1", "1.0-1" },
	{ "1.01-1", "1.1-1" },
	{ "6.12.38-1", "6.12.38-1" },
};

static int sign(int c)
{
	return (c > 0) - (c < 0);
}

static void table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(less); i++) {
		if (sign(debversion_cmp(less[i][0], less[i][1])) != -1 ||
		    sign(debversion_cmp(less[i][1], less[i][0])) != 1)
			fail_msg("%s < %s is not kept", less[i][0], less[i][1]);
	}
	for (i = 0; i < ARRAY_SIZE(equal); i++)
		if (debversion_cmp(equal[i][0], equal[i][1]))
			fail_msg("%s = %s is not kept", equal[i][0],
				 equal[i][1]);
}

/* dpkg --compare-versions A OP B: 1 when it holds, 0 when not, -1: no dpkg */
static int dpkg_says(const char *a, const char *op, const char *b)
{
	pid_t pid = fork();
	int ws;

	if (pid < 0)
		return -1;
	if (!pid) {
		execlp("dpkg", "dpkg", "--compare-versions", a, op, b,
		       (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &ws, 0) < 0 || !WIFEXITED(ws) ||
	    WEXITSTATUS(ws) > 1)
		return -1;
	return WEXITSTATUS(ws) == 0;
}

/* Every pair of the table, both ways, as dpkg itself orders it. */
static void as_dpkg(void **state)
{
	const char *v[2 * (ARRAY_SIZE(less) + ARRAY_SIZE(equal))];
	size_t n = 0, i, j;

	(void)state;
	if (dpkg_says("1", "lt", "2") != 1)
		skip();
	for (i = 0; i < ARRAY_SIZE(less); i++) {
		v[n++] = less[i][0];
		v[n++] = less[i][1];
	}
	for (i = 0; i < ARRAY_SIZE(equal); i++) {
		v[n++] = equal[i][0];
		v[n++] = equal[i][1];
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int c = sign(debversion_cmp(v[i], v[j]));
			const char *op = c < 0 ? "lt" : c > 0 ? "gt" : "eq";

			if (dpkg_says(v[i], op, v[j]) != 1)
				fail_msg("%s %s %s here, not for dpkg", v[i],
					 op, v[j]);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(as_dpkg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
