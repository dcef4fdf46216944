// SPDX-License-Identifier: GPL-2.0
/* kverify summary: results/summary.md and index.html. */
#include "cmd/cmd.h"
#include "summary.h"

static const char usage_summary[] =
"usage: kverify [--results DIR] summary\n"
"\n"
"Write DIR/summary.md and DIR/index.html (default results/) from the\n"
"reports there (DIR/<target>/report.json): targets by steps with status\n"
"and time, each reason cut to 80 characters with a link to its step's log,\n"
"and the sim's figures as an SVG plot.  make verify and verify-all run it\n"
"after their targets.  Exit 2 when a report cannot be read (the others\n"
"are still shown).\n";

static int run_summary(struct options *opt, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_summary(opt->results);
}

const struct command command_summary = {
	.name = "summary", .run = run_summary, .usage = usage_summary,
};
