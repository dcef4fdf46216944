// SPDX-License-Identifier: GPL-2.0
/*
 * kverify matrix's shards: the balance of jobs over them (heaviest first,
 * each to the least loaded shard; the mean cost for a job without one)
 * and --shard I/N.  Includes matrix.c, for its static functions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/matrix.c"

static int shard_of(const struct job *jobs, size_t nr, const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(jobs[i].name, name))
			return jobs[i].shard;
	fail_msg("no job %s", name);
	return 0;
}

static double load_of(const struct job *jobs, size_t nr, int shard)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < nr; i++)
		if (jobs[i].shard == shard)
			sum += jobs[i].secs;
	return sum;
}

/* 10, 9, 8, 7, 1 over two: 10 | 9, 8 | 7 to the lighter | 1 on a tie. */
static void heaviest_first(void **state)
{
	struct job jobs[] = {
		{ .name = "e", .secs = 1 }, { .name = "c", .secs = 8 },
		{ .name = "a", .secs = 10 }, { .name = "d", .secs = 7 },
		{ .name = "b", .secs = 9 },
	};
	size_t nr = ARRAY_SIZE(jobs);

	(void)state;
	balance(jobs, nr, 2);
	assert_int_equal(shard_of(jobs, nr, "a"), 1);
	assert_int_equal(shard_of(jobs, nr, "b"), 2);
	assert_int_equal(shard_of(jobs, nr, "c"), 2);
	assert_int_equal(shard_of(jobs, nr, "d"), 1);
	assert_int_equal(shard_of(jobs, nr, "e"), 1);
	assert_true(load_of(jobs, nr, 1) == 18 && load_of(jobs, nr, 2) == 17);
	/* sorted costliest first, the order the matrix lists them in */
	assert_string_equal(jobs[0].name, "a");
	assert_string_equal(jobs[4].name, "e");
}

/* A job with no cost known weighs the mean of the others, and says so. */
static void unknown_is_the_mean(void **state)
{
	struct job jobs[] = {
		{ .name = "new", .secs = -1 }, { .name = "a", .secs = 30 },
		{ .name = "b", .secs = 10 },
	};

	(void)state;
	balance(jobs, 3, 2);
	assert_string_equal(jobs[0].name, "a");
	assert_string_equal(jobs[1].name, "new");
	assert_true(jobs[1].secs == 20);
	assert_false(jobs[1].known);
	assert_true(jobs[0].known && jobs[2].known);
	assert_int_equal(shard_of(jobs, 3, "new"), 2);
	assert_int_equal(shard_of(jobs, 3, "b"), 2);
}

/* None known: each weighs the same, by name, round the shards. */
static void none_known(void **state)
{
	struct job jobs[] = {
		{ .name = "c", .secs = -1 }, { .name = "a", .secs = -1 },
		{ .name = "d", .secs = -1 }, { .name = "b", .secs = -1 },
	};

	(void)state;
	balance(jobs, 4, 3);
	assert_int_equal(shard_of(jobs, 4, "a"), 1);
	assert_int_equal(shard_of(jobs, 4, "b"), 2);
	assert_int_equal(shard_of(jobs, 4, "c"), 3);
	assert_int_equal(shard_of(jobs, 4, "d"), 1);
}

/* Jobs that cost nothing still spread: no shard gets them all. */
static void zero_cost_spreads(void **state)
{
	struct job jobs[] = {
		{ .name = "a", .secs = 0 }, { .name = "b", .secs = 0 },
	};

	(void)state;
	balance(jobs, 2, 2);
	assert_int_not_equal(jobs[0].shard, jobs[1].shard);
}

static void shard_spec(void **state)
{
	static const char *const bad[] = {
		"", "1", "1/", "/2", "0/2", "3/2", "1/0", "-1/2", "1/-2",
		"1/1001", "a/2", "1/2x", "1 /2", "1/2/3",
		"99999999999999999999/2",
	};
	int shard = -1, n = -1;
	size_t i;

	(void)state;
	assert_int_equal(parse_shard("1/2", &shard, &n), 0);
	assert_int_equal(shard, 1);
	assert_int_equal(n, 2);
	assert_int_equal(parse_shard("1000/1000", &shard, &n), 0);
	assert_int_equal(shard, 1000);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		shard = n = -1;
		if (!parse_shard(bad[i], &shard, &n))
			fail_msg("--shard '%s' taken as %d/%d", bad[i], shard,
				 n);
		assert_int_equal(shard, -1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(heaviest_first),
		cmocka_unit_test(unknown_is_the_mean),
		cmocka_unit_test(none_known),
		cmocka_unit_test(zero_cost_spreads),
		cmocka_unit_test(shard_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
