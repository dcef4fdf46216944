// SPDX-License-Identifier: GPL-2.0
/*
 * make's variables and kverify's own environment: make_vars[], the one
 * table of every $KVERIFY_* variable kverify reads.  A row is either an
 * option of a command, parsed with --env as its command line is
 * (options_from_env()), or a value read at start (read_make_variables())
 * into the_options, the_make_values or the test hooks.  No other file of
 * tools/ reads a $KVERIFY_* variable (t0169).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/exitcode.h"
#include "lib/options.h"
#include "lib/usage.h"

enum var_kind {
	VAR_OPTION,	/* @option of @command, parsed with its --env */
	VAR_TEXT,	/* a string, into the const char * @value */
	VAR_SWITCH,	/* 0 or 1, into the int @value */
	VAR_NUMBER,	/* @min to @max, into the long @value */
};

struct make_var {
	const char *var;	/* what kverify reads: KVERIFY_SKIP */
	const char *make;	/* make's SKIP=; NULL: the environment's alone */
	enum var_kind kind;
	const char *command, *option;	/* VAR_OPTION: verify, --skip */
	void *value;		/* the others: where the value goes */
	long min, max;		/* VAR_NUMBER */
	const char *help;	/* the others: kverify --help prints it */
};

struct make_values the_make_values;
static struct test_hooks test_hooks = { .apt_max_age = -1 };

#define MAKE_OPTION(c, v, o, m) \
	{ .var = v, .make = m, .kind = VAR_OPTION, .command = c, .option = o }
#define MAKE_TEXT(v, m, p, h) \
	{ .var = v, .make = m, .kind = VAR_TEXT, .value = p, .help = h }
#define MAKE_SWITCH(v, m, p, h) \
	{ .var = v, .make = m, .kind = VAR_SWITCH, .value = p, .help = h }
#define ENV_NUMBER(v, p, lo, hi, h) \
	{ .var = v, .kind = VAR_NUMBER, .value = p, .min = lo, .max = hi, \
	  .help = h }

static const struct make_var make_vars[] = {
	MAKE_OPTION("verify", "KVERIFY_BUILD", "--build", "BUILD"),
	MAKE_OPTION("verify", "KVERIFY_SKIP", "--skip", "SKIP"),
	MAKE_OPTION("verify", "KVERIFY_CONFIG", "--config", "CONFIG"),
	MAKE_OPTION("verify", "KVERIFY_BOOT", "--boot", "BOOT"),
	MAKE_OPTION("verify", "KVERIFY_ARTIFACTS", "--artifacts", "ARTIFACTS"),
	MAKE_OPTION("verify", "KVERIFY_REQUIRE", "--require", "REQUIRE"),
	MAKE_OPTION("verify", "KVERIFY_FLAVOURS", "--flavours", "FLAVOURS"),
	MAKE_OPTION("verify", "KVERIFY_FORMAT", "--format", "FORMAT"),
	MAKE_OPTION("backport", "KVERIFY_BACKPORT_TREE", "--tree", "TREE"),
	MAKE_OPTION("backport", "KVERIFY_BACKPORT_NAME", "--name", "NAME"),
	MAKE_OPTION("debian-patches", "KVERIFY_DEST", "--dest", "DEST"),
	MAKE_OPTION("sweep", "KVERIFY_SWEEP_ONLY", "--only", "ONLY"),
	MAKE_TEXT("KVERIFY_TARGETS", "KERNEL", &the_make_values.targets,
		  "the targets of --env: names or prefixes"),
	MAKE_TEXT("KVERIFY_BUG_DEBIAN", "BUG", &the_make_values.bug_debian,
		  "backport, debian-patches: Debian's bug number"),
	MAKE_TEXT("KVERIFY_MBOX", "MBOX", &the_make_values.mbox,
		  "am, trailers: a local mbox"),
	MAKE_TEXT("KVERIFY_MSGID", "MSGID", &the_make_values.msgid,
		  "am: a message-id on lore"),
	MAKE_TEXT("KVERIFY_TO", "TO", &the_make_values.to,
		  "send: the recipients"),
	MAKE_TEXT("KVERIFY_CC", "CC", &the_make_values.cc,
		  "send: the copies' recipients"),
	MAKE_TEXT("KVERIFY_FROM", "FROM", &the_make_values.from,
		  "range-diff: the revision vN"),
	MAKE_SWITCH("KVERIFY_SEND", "SEND", &the_make_values.send,
		    "send: 1 sends, 0 (the default) is a dry run"),
	MAKE_SWITCH("KVERIFY_REFLECT", "REFLECT", &the_make_values.reflect,
		    "send with SEND=1: only to the sender"),
	MAKE_SWITCH("KVERIFY_RESEND", "RESEND", &the_make_values.resend,
		    "send: a revision posted before, again"),
	MAKE_SWITCH("KVERIFY_CCACHE", "CCACHE", &the_options.ccache,
		    "ccache in front of the kernel's compiler (default:\n"
		    "where it is installed)"),
	MAKE_TEXT("KVERIFY_KERNEL_CC", "KCC", &the_options.kernel_cc,
		  "the kernel's compiler (distcc, icecream)"),
	MAKE_TEXT("KVERIFY_KERNEL_HOSTCC", "KHOSTCC",
		  &the_options.kernel_hostcc, "the kernel's host compiler"),
	MAKE_SWITCH("KVERIFY_KEEP_GOING", "KEEP_GOING",
		    &the_options.keep_going, "as --keep-going"),
	MAKE_SWITCH("KVERIFY_VERIFY_CACHE", "VERIFY_CACHE",
		    &the_options.verify_cache,
		    "hash every file of the cached source"),
	MAKE_SWITCH("KVERIFY_FORCE", "FORCE", &the_options.force,
		    "run again the steps that keep a PASS"),
	MAKE_TEXT("KVERIFY_CACHE", NULL, &the_make_values.cache,
		  "the cache, unless --cache"),
	MAKE_TEXT("KVERIFY_SOURCES", NULL, &the_make_values.sources,
		  "what is fetched, unless --sources"),
	MAKE_TEXT("KVERIFY_BUSYBOX", NULL, &the_options.busybox,
		  "the guest's static busybox (default /bin/busybox)"),
	MAKE_TEXT("KVERIFY_DEBIAN_MIRROR", NULL, &the_options.debian_mirror,
		  "Debian's mirror, not apt's sources'"),
	MAKE_TEXT("KVERIFY_SECURITY_MIRROR", NULL,
		  &the_options.security_mirror,
		  "Debian's security mirror, not apt's sources'"),
	ENV_NUMBER("KVERIFY_SIM_SEED", &the_options.sim_seed, 0, 1L << 62,
		   "the sim step's first seed (default 1)"),
	ENV_NUMBER("KVERIFY_SIM_TRACES", &the_options.sim_traces, 1,
		   100000000, "the sim step's traces"),
	ENV_NUMBER("KVERIFY_SIM_SECONDS", &the_options.sim_seconds, 1, 3600,
		   "the sim step's time limit"),
	MAKE_SWITCH("KVERIFY_SIM_DEBUG", NULL, &the_options.sim_debug,
		    "1: the sim step lists what came along"),
	MAKE_TEXT("KVERIFY_CI_IMAGE", NULL, &the_options.ci_image,
		  "matrix: the jobs' image"),
	MAKE_TEXT("KVERIFY_CI_TAGS", NULL, &the_options.ci_tags,
		  "matrix: the runners' tags"),
	ENV_NUMBER("KVERIFY_CI_TIMEOUT", &the_options.ci_timeout, 1, 10080,
		   "matrix: a job's minutes"),
	ENV_NUMBER("KVERIFY_TEST_BOOT_TIMEOUT", &test_hooks.boot_timeout, 1,
		   86400, "tests: seconds QEMU may run"),
	ENV_NUMBER("KVERIFY_TEST_PROGRESS_SECONDS",
		   &test_hooks.progress_seconds, 1, 3600,
		   "tests: seconds between progress lines"),
	ENV_NUMBER("KVERIFY_TEST_APT_MAX_AGE", &test_hooks.apt_max_age, 0,
		   1L << 40, "tests: the apt lists' age in seconds"),
	MAKE_TEXT("KVERIFY_TEST_SWEEP_LIST", NULL, &test_hooks.sweep_list,
		  "tests: the archive's versions, from a file"),
};

const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/* make's name of @m (SKIP), else the environment's (KVERIFY_SIM_DEBUG) */
static const char *var_name(const struct make_var *m)
{
	return m->make ? m->make : m->var;
}

static int read_variable(const struct make_var *m)
{
	const char *v = env(m->var);
	char *end;
	long x;

	if (!v)
		return 0;
	switch (m->kind) {
	case VAR_OPTION:
		return 0;
	case VAR_TEXT:
		*(const char **)m->value = v;
		return 0;
	case VAR_SWITCH:
		if (strcmp(v, "0") && strcmp(v, "1")) {
			error("%s=%s: %s is 0 or 1", var_name(m), v,
			      var_name(m));
			return EXIT_USAGE;
		}
		*(int *)m->value = *v == '1';
		return 0;
	case VAR_NUMBER:
		errno = 0;
		x = strtol(v, &end, 0);
		if (errno || *end || x < m->min || x > m->max) {
			error("%s is a number from %ld to %ld, not '%s'",
			      var_name(m), m->min, m->max, v);
			return EXIT_USAGE;
		}
		*(long *)m->value = x;
		return 0;
	}
	return 0;
}

int read_make_variables(struct options *opt)
{
	const char *mf = env("MAKEFLAGS");
	size_t i;

	for (i = 0; i < ARRAY_SIZE(make_vars); i++)
		if (read_variable(&make_vars[i]))
			return EXIT_USAGE;
	opt->makeflags = mf;
	opt->make_jobserver = mf && (strstr(mf, "--jobserver-auth=") ||
				     strstr(mf, "--jobserver-fds="));
	opt->test = &test_hooks;
	return 0;
}

void print_make_variables(FILE *out)
{
	size_t i;

	fputs("\nmake's variables (as KVERIFY_*) and the environment's:\n\n",
	      out);
	for (i = 0; i < ARRAY_SIZE(make_vars); i++) {
		const struct make_var *m = &make_vars[i];
		const char *h;
		char name[64];

		if (m->make)
			snprintf(name, sizeof(name), "%s=", m->make);
		else
			snprintf(name, sizeof(name), "$%s", m->var);
		if (strlen(name) > 22)
			fprintf(out, "  %s\n%25s", name, "");
		else
			fprintf(out, "  %-22s ", name);
		if (m->kind == VAR_OPTION) {
			fprintf(out, "%s %s\n", m->command, m->option);
			continue;
		}
		for (h = m->help; *h; h++) {
			fputc(*h, out);
			if (*h == '\n')
				fprintf(out, "%25s", "");
		}
		fputc('\n', out);
	}
}

/*
 * The value @val of @option as the user wrote it: "SKIP=bot" when it came
 * from make (options_from_env() passes $KVERIFY_SKIP's own string), else
 * "--skip bot"; *@name, unless NULL, the variable or the option alone.
 */
static char *as_written(const char *option, const char *val,
			const char **name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(make_vars); i++) {
		const struct make_var *m = &make_vars[i];

		if (m->kind != VAR_OPTION || strcmp(m->option, option) ||
		    env(m->var) != val)
			continue;
		if (name)
			*name = m->make;
		return xstrfmt("%s=%s", m->make, val);
	}
	if (name)
		*name = option;
	return xstrfmt("%s %s", option, val);
}

int bad_value(const char *option, const char *val, const char *why)
{
	char *w = as_written(option, val, NULL);

	error("%s: %s", w, why);
	free(w);
	return EXIT_USAGE;
}

int options_from_env(const struct command *cmd, const struct option *options)
{
	const char *usagestr[2] = { cmd->usage, NULL };
	const char *argv[2 * ARRAY_SIZE(make_vars) + 2] = { cmd->name };
	int argc = 1;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(make_vars); i++) {
		const struct make_var *m = &make_vars[i];

		if (m->kind != VAR_OPTION || strcmp(m->command, cmd->name) ||
		    !env(m->var))
			continue;
		argv[argc++] = m->option;
		argv[argc++] = env(m->var);
	}
	return parse_options(argc, argv, options, usagestr,
			     PARSE_OPT_NO_USAGE) ? EXIT_USAGE : 0;
}
