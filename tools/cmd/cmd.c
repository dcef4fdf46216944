// SPDX-License-Identifier: GPL-2.0
/*
 * What every command of tools/cmd/ stands on: the options every command
 * takes (common_options[] into the_options), make's variables as the
 * options they stand for (make_options[]), errors that name a value as
 * the user wrote it, and kernels.list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/usage.h"
#include "version.h"

/*
 * make's variables (the Makefile exports them as $KVERIFY_*) as the
 * options they stand for, read with --env: "make verify SKIP=x" is
 * "kverify verify --skip x", the same code and the same errors.  The
 * variables a command reads besides (KVERIFY_TARGETS, make's KERNEL=, and
 * b4's) are not options.
 */
static const struct make_option {
	const char *command, *var, *option, *make;
} make_options[] = {
	{ "verify", "KVERIFY_BUILD", "--build", "BUILD" },
	{ "verify", "KVERIFY_SKIP", "--skip", "SKIP" },
	{ "verify", "KVERIFY_CONFIG", "--config", "CONFIG" },
	{ "verify", "KVERIFY_BOOT", "--boot", "BOOT" },
	{ "verify", "KVERIFY_ARTIFACTS", "--artifacts", "ARTIFACTS" },
	{ "verify", "KVERIFY_REQUIRE", "--require", "REQUIRE" },
	{ "verify", "KVERIFY_FLAVOURS", "--flavours", "FLAVOURS" },
	{ "verify", "KVERIFY_FORMAT", "--format", "FORMAT" },
	{ "backport", "KVERIFY_BACKPORT_TREE", "--tree", "TREE" },
	{ "backport", "KVERIFY_BACKPORT_NAME", "--name", "NAME" },
	{ "debian-patches", "KVERIFY_DEST", "--dest", "DEST" },
	{ "sweep", "KVERIFY_SWEEP_ONLY", "--only", "ONLY" },
};

/*
 * The value @val of @option as the user wrote it: "SKIP=bot" when it came
 * from make (options_from_env() passes $KVERIFY_SKIP's own string), else
 * "--skip bot"; *@name, unless NULL, the variable or the option alone.
 */
static char *as_written(const char *option, const char *val,
			const char **name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(make_options); i++) {
		const struct make_option *m = &make_options[i];

		if (strcmp(m->option, option) || env(m->var) != val)
			continue;
		if (name)
			*name = m->make;
		return xstrfmt("%s=%s", m->make, val);
	}
	if (name)
		*name = option;
	return xstrfmt("%s %s", option, val);
}

/*
 * A bad value of an option or make variable: "@what: @why", @what as the
 * user wrote it (as_written()), one line; EXIT_USAGE.
 */
int bad_value(const char *option, const char *val, const char *why)
{
	char *w = as_written(option, val, NULL);

	error("%s: %s", w, why);
	free(w);
	return EXIT_USAGE;
}

/* An environment variable that is set and not empty, or NULL. */
const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/*
 * make's switch @make (KEEP_GOING=1), the Makefile's $KVERIFY_@make: 1 or
 * 0 into *@on, unset or empty leaves it; another value is one line and
 * EXIT_USAGE, never taken as 0.
 */
int env_switch(const char *var, const char *make, int *on)
{
	const char *v = env(var);

	if (!v)
		return 0;
	if (strcmp(v, "0") && strcmp(v, "1")) {
		error("%s=%s: %s is 0 or 1", make, v, make);
		return EXIT_USAGE;
	}
	*on = *v == '1';
	return 0;
}

/* The options, each into the_options or its command's values (cmd/). */
struct options the_options = {
	.list = "kernels.list", .results = "results", .mode = BUILD_KERNEL,
};

int parse_jobs(const struct option *opt, const char *arg)
{
	struct options *o = opt->value;
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > JOBS_MAX)
		return error("-j wants a number from 1 to "
			     __stringify(JOBS_MAX) ", not '%s'", arg);
	o->jobs = n;
	return 0;
}

static int print_version(const struct option *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	printf("kverify %s\n", kverify_version);
	exit(0);
}

/* What every command takes. */
const struct option common_options[] = {
	OPT_PATH("list", &the_options.list, "FILE",
		 "the target list (default kernels.list)"),
	OPT_PATH("results", &the_options.results, "DIR",
		 "where reports go (default results)"),
	OPT_PATH("cache", &the_options.cache, "DIR",
		 "sources, trees and builds (default $KVERIFY_CACHE,\n"
		 "else $XDG_CACHE_HOME/kverify if it is absolute,\n"
		 "else ~/.cache/kverify)"),
	OPT_PATH("sources", &the_options.sources, "DIR",
		 "what is fetched: sources, Debian's packages, the apt\n"
		 "state and toolchains, which several caches may share\n"
		 "(default $KVERIFY_SOURCES, else the cache)"),
	OPT_CALLBACK_F(0, "version", NULL, NULL, "kverify's version",
		       PARSE_OPT_NOARG, print_version),
	OPT_END()
};

int targets_from_make;	/* make's KERNEL= named them */

/*
 * targets_find()'s error on stderr; for a name no target has, how to add
 * one, naming it as the user wrote it (KERNEL=, or the argument).
 */
void no_such_target(const char *name, const struct strbuf *err)
{
	const char *n = plain_name(name) ? name : "<name>";

	fputs(err->buf, stderr);
	if (!strstr(err->buf, ": unknown target '"))
		return;
	error("%s%s: to add a kernel, give it a line in kernels.list, e.g. '%s deb:linux-source-X.Y@SUITE auto' (auto: the nearest variant of series/ and backports/ that applies), and for a kernel none applies to, write its variant with 'make backport TREE=<its tree> NAME=%s' (docs/backports.md)",
	      targets_from_make ? "KERNEL=" : "", name, n, n);
}

int load_targets(const struct options *opt, struct target_list *list)
{
	struct strbuf err = STRBUF_INIT;
	int ret = targets_load(opt->list, list, &err);

	if (ret)
		fprintf(stderr, "%s", err.buf);
	strbuf_release(&err);
	return ret;
}

/*
 * @cmd's make_options[] that are set, parsed as its command line is; the
 * values stay the environment's own strings.
 */
int options_from_env(const struct command *cmd,
			    const struct option *options)
{
	const char *usagestr[2] = { cmd->usage, NULL };
	const char *argv[2 * ARRAY_SIZE(make_options) + 2] = { cmd->name };
	int argc = 1;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(make_options); i++) {
		const struct make_option *m = &make_options[i];

		if (strcmp(m->command, cmd->name) || !env(m->var))
			continue;
		argv[argc++] = m->option;
		argv[argc++] = env(m->var);
	}
	return parse_options(argc, argv, options, usagestr,
			     PARSE_OPT_NO_USAGE) ? EXIT_USAGE : 0;
}

int command_usage_error(const struct command *c, const char *fmt,
			const char *arg)
{
	const char *usagestr[2] = { c->usage, NULL };
	struct option *all = parse_options_concat(common_options,
						  c->options);

	error(fmt, arg);
	fputc('\n', stderr);
	usage_with_options(stderr, usagestr, all);
	free(all);
	return EXIT_USAGE;
}
