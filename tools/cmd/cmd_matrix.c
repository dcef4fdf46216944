// SPDX-License-Identifier: GPL-2.0
/* kverify matrix: the targets fanned out over CI. */
#include <string.h>

#include "cmd/cmd.h"
#include "lib/exitcode.h"
#include "matrix.h"
#include "sweep.h"

static const char usage_matrix[] =
"usage: kverify [--list FILE] matrix [--ci github|gitlab] [--shard I/N]\n"
"                                    [--costs FILE]\n"
"\n"
"Fan the applicable targets out over CI: --ci github prints JSON for\n"
"strategy.matrix (kernel, image, timeout_minutes, cache_key), --ci\n"
"gitlab a child pipeline: one job per target calling build/kverify (its\n"
"exit status kept: 1 FAIL, 3 ERROR, retried), with image, tags, timeout,\n"
"its JUnit report and a cache per target of the store $KVERIFY_SOURCES\n"
"only (.kverify-sources/: what a job fetches; not $KVERIFY_CACHE, whose\n"
"trees and builds cost more to unpack than to make again); no --ci\n"
"the names, one a line.  --shard I/N keeps the I-th of N shards, balanced\n"
"on each target's cold cost from the committed table .ci/cold-seconds\n"
"(--costs FILE; never a local run's results: the same commit gives the\n"
"same CI), else by name.  No shard is ever empty: with\n"
"fewer targets than N, there are as many shards as targets (a note says so\n"
"on stderr) and a shard I beyond them is refused with exit 2.\n"
"$KVERIFY_CI_IMAGE (default debian:bookworm), $KVERIFY_CI_TAGS (runner tags\n"
"a,b; default kvm), $KVERIFY_CI_TIMEOUT (minutes; default the table's\n"
"margin times the cold cost, at least 30, 180 when unknown) shape the jobs.\n";

static struct { const char *ci, *shard, *costs; int sweep; } matrix_args;

static const struct option matrix_options[] = {
	OPT_PATH("ci", &matrix_args.ci, "github|gitlab",
		 "JSON for GitHub's strategy.matrix, or a GitLab child\n"
		 "pipeline; none: the names, one a line"),
	OPT_PATH("shard", &matrix_args.shard, "I/N",
		 "keep the I-th of N shards, balanced on cold cost"),
	OPT_PATH("costs", &matrix_args.costs, "FILE",
		 "the cold costs (default .ci/cold-seconds)"),
	OPT_BOOL(0, "sweep", &matrix_args.sweep,
		 "one job per Debian linux-source version instead\n"
		 "(see 'kverify sweep --help'); no --shard"),
	OPT_END()
};

#define CI_NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"

static int run_matrix(struct options *opt, int argc, char **argv)
{
	struct target_list list = { 0 };
	struct ci_jobs ci = { 0 };
	int ret;

	(void)argc;
	(void)argv;
	/* They go into YAML and JSON as they are: no quote, no space. */
	if (opt->ci_image && opt->ci_image[strspn(opt->ci_image, CI_NAME_CHARS ":@/")])
		return command_usage_error(&command_matrix, "KVERIFY_CI_IMAGE is an image name ([A-Za-z0-9._-:@/]), not '%s'",
				   opt->ci_image);
	if (opt->ci_tags && (opt->ci_tags[strspn(opt->ci_tags, CI_NAME_CHARS ",")] ||
			     strstr(opt->ci_tags, ",,") || *opt->ci_tags == ',' ||
			     opt->ci_tags[strlen(opt->ci_tags) - 1] == ','))
		return command_usage_error(&command_matrix, "KVERIFY_CI_TAGS is runner tags, TAG[,TAG] of [A-Za-z0-9._-], not '%s'",
				   opt->ci_tags);
	if (matrix_args.sweep) {
		struct sweep_args a = SWEEP_ARGS_INIT;

		if (matrix_args.shard)
			return command_usage_error(&command_matrix, "%s", "matrix --sweep has one job per version: no --shard");
		a.matrix = matrix_args.ci ? matrix_args.ci : "github";
		return cmd_sweep(opt, &a);
	}
	if (load_targets(opt, &list))
		return EXIT_USAGE;
	ci.image = opt->ci_image;
	ci.tags = opt->ci_tags;
	ci.timeout = opt->ci_timeout;
	ci.list = strcmp(opt->list, "kernels.list") ? opt->list : NULL;
	ci.costs = matrix_args.costs;
	ret = cmd_matrix(&list, matrix_args.ci, matrix_args.shard, &ci);
	targets_clear(&list);
	return ret;
}

const struct command command_matrix = {
	.name = "matrix", .run = run_matrix, .usage = usage_matrix,
	.options = matrix_options, .flags = RUNS_TOOLS,
};
