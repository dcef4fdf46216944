// SPDX-License-Identifier: GPL-2.0
/* kverify sweep: every linux-source version Debian offers (sweep.c). */
#include "cmd/cmd.h"
#include "sweep.h"

static const char usage_sweep[] =
"usage: kverify sweep [--only linux-source-X.Y=VERSION[@SUITE]] [--md FILE]\n"
"                     [--json FILE] [--members] [--env]   (make sweep)\n"
"\n"
"Every linux-source-X.Y version of the Debian suites the archive offers,\n"
"through fetch, tree, apply, sim, checkpatch and cocci with SERIES auto,\n"
"unpacking only what those steps read (--members prints it).  A version\n"
"checked before with the same series/, backports/, cocci/ and\n"
"checkpatch.allow is not checked again.  The table goes to stdout and\n"
"--md (docs/sweep.md), the rows to --json (results/sweep/sweep.json).\n"
"Exit 1 when a version fails (it is the first line), 2 on bad input, 3 when\n"
"the table cannot be written.\n";

static struct { int env; struct sweep_args a; } sweep_args = {
	.a = SWEEP_ARGS_INIT,
};

static const struct option sweep_options[] = {
	OPT_PATH("only", &sweep_args.a.only, "linux-source-X.Y=VERSION",
		 "that version alone, [@SUITE] to name its suite\n"
		 "(make's ONLY=)"),
	OPT_PATH("md", &sweep_args.a.md, "FILE",
		 "the table (default docs/sweep.md)"),
	OPT_PATH("json", &sweep_args.a.json, "FILE",
		 "the rows (default results/sweep/sweep.json)"),
	OPT_BOOL(0, "members", &sweep_args.a.print_members,
		 "print the members of a source it unpacks, and stop"),
	OPT_ENV(&sweep_args.env, "the options from make's variables"),
	OPT_JOBS(),
	OPT_NO_WAIT(),
	OPT_QUIET(),
	OPT_END()
};

static int run_sweep(struct options *opt, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_sweep(opt, &sweep_args.a);
}

const struct command command_sweep = {
	.name = "sweep", .run = run_sweep, .usage = usage_sweep,
	.options = sweep_options, .env = &sweep_args.env, .flags = RUNS_TOOLS,
};
