// SPDX-License-Identifier: GPL-2.0
/* kverify sim: the sim step on any pair of trees (sim.c). */
#include "cmd/cmd.h"
#include "sim.h"

static int run_sim(struct options *opt, int argc, char **argv)
{
	return cmd_sim(argc, argv, opt);
}

/* sim parses its own options and prints its own --help. */
const struct command command_sim = {
	.name = "sim", .run = run_sim, .flags = RUNS_TOOLS | OWN_OPTIONS,
};
