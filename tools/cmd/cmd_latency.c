// SPDX-License-Identifier: GPL-2.0
/* kverify latency: the v2 posting's latency table from traces. */
#include "cmd/cmd.h"
#include "latency.h"

static int run_latency(struct options *opt, int argc, char **argv)
{
	return cmd_latency(argc, argv, opt->results);
}

/* latency parses its own options and prints its own --help. */
const struct command command_latency = {
	.name = "latency", .run = run_latency, .flags = OWN_OPTIONS,
};
