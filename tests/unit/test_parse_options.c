// SPDX-License-Identifier: GPL-2.0
/* parse_options(): long and short options, values, errors, "--". */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/lib/parse-options.h"
#include "../../tools/lib/strbuf.h"

static const char *const usage[] = { "usage: test [options] ARG...\n", NULL };

/* Where the options of the table below go; reset by setup(). */
static struct {
	const char *dest, *skip;
	int keep_going, quiet, jobs, calls;
	const char *seen;
} v;

static int odd_only(const struct option *opt, const char *arg)
{
	(void)opt;
	v.calls++;
	v.seen = arg;
	return strlen(arg) % 2 ? 0 : -1;
}

static const struct option opts[] = {
	OPT_STRING(0, "dest", &v.dest, "DIR", "where it goes"),
	OPT_STRING_F(0, "skip", &v.skip, "STEP", "steps not to run",
		     PARSE_OPT_NONEMPTY),
	OPT_BOOL('k', "keep-going", &v.keep_going, "go on\nafter a failure"),
	OPT_BOOL('q', "quiet", &v.quiet, "no progress"),
	OPT_INTEGER('j', NULL, &v.jobs, "jobs"),
	OPT_CALLBACK(0, "odd", NULL, "S", "an odd string", odd_only),
	OPT_CALLBACK_F(0, "odder", NULL, "S", NULL, PARSE_OPT_HIDDEN,
		       odd_only),
	OPT_END()
};

/* A table of one option, which any prefix of its name would name. */
static const struct option one[] = {
	OPT_STRING(0, "dest", &v.dest, "DIR", "where it goes"),
	OPT_END()
};

static int setup(void **state)
{
	(void)state;
	memset(&v, 0, sizeof(v));
	return 0;
}

/*
 * parse_options(@table, @flags) over a copy of @args behind argv[0]
 * "test", in @argv.
 */
static int parse_with(const char **argv, const struct option *table,
		      int flags, const char *const *args)
{
	int argc = 1;

	argv[0] = "test";
	while (*args)
		argv[argc++] = *args++;
	argv[argc] = NULL;
	return parse_options(argc, argv, table, usage, flags);
}

#define PARSE(argv, ...) \
	parse_with(argv, opts, 0, (const char *const[]){ __VA_ARGS__, NULL })

static void long_and_short(void **state)
{
	const char *argv[16];

	(void)state;
	assert_int_equal(PARSE(argv, "a", "--dest", "d", "-k", "b",
			       "--quiet", "-j", "3"), 2);
	assert_string_equal(argv[0], "a");
	assert_string_equal(argv[1], "b");
	assert_null(argv[2]);
	assert_string_equal(v.dest, "d");
	assert_int_equal(v.keep_going, 1);
	assert_int_equal(v.quiet, 1);
	assert_int_equal(v.jobs, 3);
}

static void equals_and_attached_values(void **state)
{
	const char *argv[16];

	(void)state;
	assert_int_equal(PARSE(argv, "--dest=x=y", "-j12", "--skip=sim"), 0);
	assert_string_equal(v.dest, "x=y");
	assert_string_equal(v.skip, "sim");
	assert_int_equal(v.jobs, 12);
	/* a separate value may start with '-' */
	assert_int_equal(PARSE(argv, "--dest", "-k"), 0);
	assert_string_equal(v.dest, "-k");
	assert_int_equal(v.keep_going, 0);
	/* --dest= is an empty value, which --dest takes, --skip not */
	assert_int_equal(PARSE(argv, "--dest="), 0);
	assert_string_equal(v.dest, "");
	assert_int_equal(PARSE(argv, "--skip="), -1);
	assert_int_equal(PARSE(argv, "--skip", ""), -1);
}

static void bundled_and_abbreviated(void **state)
{
	const char *argv[16];

	(void)state;
	assert_int_equal(PARSE(argv, "-kqj4", "--de", "d", "--keep"), 0);
	assert_int_equal(v.keep_going, 1);
	assert_int_equal(v.quiet, 1);
	assert_int_equal(v.jobs, 4);
	assert_string_equal(v.dest, "d");
	/* --odd is a whole name, though a prefix of --odder */
	assert_int_equal(PARSE(argv, "--odd", "abc"), 0);
	assert_int_equal(v.calls, 1);
	/* --od and -s are prefixes of two names */
	assert_int_equal(PARSE(argv, "--od", "abc"), -1);
	assert_int_equal(PARSE(argv, "--s", "x"), 0);	/* --skip alone */
	assert_string_equal(v.skip, "x");
}

static void missing_value(void **state)
{
	const char *argv[16];

	(void)state;
	assert_int_equal(PARSE(argv, "a", "--dest"), -1);
	assert_null(v.dest);
	assert_int_equal(PARSE(argv, "-j"), -1);
	assert_int_equal(PARSE(argv, "-kj"), -1);
}

static void unknown_option(void **state)
{
	const char *argv[16];

	(void)state;
	assert_int_equal(PARSE(argv, "--nope"), -1);
	assert_int_equal(PARSE(argv, "--nope=1"), -1);
	assert_int_equal(PARSE(argv, "-x"), -1);
	/* "--=x" names no option, though "" is a prefix of every name */
	assert_int_equal(parse_with(argv, one, 0,
				    (const char *const[]){ "--=x", NULL }), -1);
	assert_null(v.dest);
	/* -k is set before -x is found: in the order given */
	assert_int_equal(PARSE(argv, "-kx"), -1);
	assert_int_equal(v.keep_going, 1);
}

static void dashdash_ends_options(void **state)
{
	const char *argv[16];

	(void)state;
	assert_int_equal(PARSE(argv, "-k", "--", "--dest", "-q", "-"), 3);
	assert_string_equal(argv[0], "--dest");
	assert_string_equal(argv[1], "-q");
	assert_string_equal(argv[2], "-");
	assert_null(argv[3]);
	assert_null(v.dest);
	assert_int_equal(v.quiet, 0);
	assert_int_equal(v.keep_going, 1);
}

static void bool_given_a_value(void **state)
{
	const char *argv[16];

	(void)state;
	assert_int_equal(PARSE(argv, "--quiet=1"), -1);
	assert_int_equal(v.quiet, 0);
	/* a separate word after a bool is an argument, not its value */
	assert_int_equal(PARSE(argv, "--quiet", "1"), 1);
	assert_string_equal(argv[0], "1");
	assert_int_equal(v.quiet, 1);
}

static void numbers_and_callbacks(void **state)
{
	const char *argv[16];

	(void)state;
	assert_int_equal(PARSE(argv, "-j", "4x"), -1);
	assert_int_equal(PARSE(argv, "-j", ""), -1);
	assert_int_equal(PARSE(argv, "-j", "99999999999"), -1);
	assert_int_equal(PARSE(argv, "--odd=ab"), -1);
	assert_string_equal(v.seen, "ab");
	assert_int_equal(PARSE(argv, "--odd", "a", "--odder=abc"), 0);
	assert_string_equal(v.seen, "abc");
}

static void help(void **state)
{
	const char *argv[16];

	(void)state;
	assert_int_equal(PARSE(argv, "a", "--help"), PARSE_OPT_HELP);
	assert_int_equal(PARSE(argv, "-h"), PARSE_OPT_HELP);
}

/* The usage: each option's help, its later lines under the first. */
static void usage_from_the_table(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	usage_with_options(f, usage, opts);
	fclose(f);
	assert_non_null(strstr(text, "usage: test [options] ARG...\n\n"
				     "  --dest DIR           where it goes\n"));
	assert_non_null(strstr(text, "\n  -k, --keep-going     go on\n"
				     "                       after a failure\n"));
	assert_non_null(strstr(text, "\n  -j N                 jobs\n"));
	assert_null(strstr(text, "--odder"));	/* hidden */
	free(text);
}

/* An option with no help and not hidden: the table's bug, an abort. */
static void option_without_help_aborts(void **state)
{
	static const struct option bad[] = {
		OPT_STRING(0, "dest", &v.dest, "DIR", "where it goes"),
		OPT_BOOL(0, "mute", &v.quiet, NULL),
		OPT_END()
	};
	const char *argv[16];
	int status;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		freopen("/dev/null", "w", stderr);
		parse_with(argv, bad, 0, (const char *const[]){ "x", NULL });
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

static void stop_at_non_option(void **state)
{
	const char *argv[16];

	(void)state;
	assert_int_equal(parse_with(argv, opts, PARSE_OPT_STOP_AT_NON_OPTION,
				    (const char *const[]){ "-k", "cmd",
							   "--dest", "d",
							   NULL }), 3);
	assert_string_equal(argv[0], "cmd");
	assert_string_equal(argv[1], "--dest");
	assert_null(v.dest);
}

static void first_arg(void **state)
{
	static const char *const a[] = {
		"test", "--dest", "cmd", "-j", "2", "-k", "cmd", "x"
	};
	static const char *const b[] = { "test", "--dest=d", "-j2", "--", "-k" };
	static const char *const c[] = { "test", "-k", "--nope", "cmd" };
	static const char *const d[] = { "test", "-k", "--dest" };

	(void)state;
	assert_int_equal(parse_options_first_arg(8, a, opts), 6);
	assert_int_equal(parse_options_first_arg(5, b, opts), 4);
	assert_int_equal(parse_options_first_arg(4, c, opts), -1);
	assert_int_equal(parse_options_first_arg(3, d, opts), -1);
	assert_int_equal(parse_options_first_arg(2, d, opts), 2);
	assert_null(v.dest);
	assert_int_equal(v.keep_going, 0);
}

static void concat(void **state)
{
	static const struct option more[] = {
		OPT_BOOL(0, "more", &v.calls, "more"),
		OPT_END()
	};
	struct option *all = parse_options_concat(opts, more);
	const char *argv[16];

	(void)state;
	assert_int_equal(parse_options_count(all),
			 parse_options_count(opts) + 1);
	assert_int_equal(parse_with(argv, all, 0,
				    (const char *const[]){ "--more", "-k",
							   NULL }), 0);
	assert_int_equal(v.calls, 1);
	assert_int_equal(v.keep_going, 1);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(long_and_short, setup),
		cmocka_unit_test_setup(equals_and_attached_values, setup),
		cmocka_unit_test_setup(bundled_and_abbreviated, setup),
		cmocka_unit_test_setup(missing_value, setup),
		cmocka_unit_test_setup(unknown_option, setup),
		cmocka_unit_test_setup(dashdash_ends_options, setup),
		cmocka_unit_test_setup(bool_given_a_value, setup),
		cmocka_unit_test_setup(numbers_and_callbacks, setup),
		cmocka_unit_test_setup(help, setup),
		cmocka_unit_test_setup(usage_from_the_table, setup),
		cmocka_unit_test_setup(option_without_help_aborts, setup),
		cmocka_unit_test_setup(stop_at_non_option, setup),
		cmocka_unit_test_setup(first_arg, setup),
		cmocka_unit_test_setup(concat, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
