/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SWEEP_H
#define KVERIFY_SWEEP_H

#include "lib/options.h"

struct sweep_args {
	const char *only;	/* linux-source-X.Y=VERSION[@SUITE], or NULL */
	const char *md;		/* the Markdown table (default docs/sweep.md) */
	const char *json;	/* default results/sweep/sweep.json */
	const char *matrix;	/* matrix --sweep: github or gitlab */
	int print_members;	/* the paths a sweep unpacks, one a line */
};

#define SWEEP_ARGS_INIT \
	{ .md = "docs/sweep.md", .json = "results/sweep/sweep.json" }

int cmd_sweep(const struct options *opt, const struct sweep_args *a);

#endif
