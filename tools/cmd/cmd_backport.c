// SPDX-License-Identifier: GPL-2.0
/* kverify backport: backports/X.Y/ from the semantic patch. */
#include "backport.h"
#include "cmd/cmd.h"

static const char usage_backport[] =
"usage: kverify backport --tree PATH --name X.Y\n"
"       kverify backport --env   ($KVERIFY_BACKPORT_TREE, $KVERIFY_BACKPORT_NAME)\n"
"\n"
"Run the semantic patch on copies of the tree's arch/x86/kvm/ files and\n"
"write backports/X.Y/ with the series it generates.\n";

static struct { int env; struct backport_args bp; } backport_args;

static const struct option backport_options[] = {
	OPT_PATH("tree", &backport_args.bp.tree, "PATH",
		 "the kernel tree to backport to (make's TREE=)"),
	OPT_PATH("name", &backport_args.bp.name, "X.Y",
		 "the variant's name: backports/X.Y/ (make's NAME=)"),
	OPT_ENV(&backport_args.env, "the options from make's variables"),
	OPT_END()
};

static int run_backport(struct options *opt, int argc, char **argv)
{
	struct backport_args *bp = &backport_args.bp;

	(void)argc;
	(void)argv;
	if (backport_args.env)
		bp->bug = the_make_values.bug_debian;
	bp->tmp = opt->tmp;
	return cmd_backport(bp);
}

const struct command command_backport = {
	.name = "backport", .run = run_backport, .usage = usage_backport,
	.options = backport_options, .env = &backport_args.env,
	.flags = RUNS_TOOLS,
};
