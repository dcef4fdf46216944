// SPDX-License-Identifier: GPL-2.0
/*
 * What every command of tools/cmd/ stands on: the options every command
 * takes (common_options[] into the_options), -j, and kernels.list.
 * make's variables are variables.c's.
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

/* The options, each into the_options or its command's values (cmd/). */
struct options the_options = {
	.list = "kernels.list", .results = "results", .mode = BUILD_KERNEL,
	.ccache = -1, .sim_seed = -1,
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
