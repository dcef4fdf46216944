/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_MATRIX_H
#define KVERIFY_MATRIX_H

#include "sources/targets.h"

/* What the generated CI jobs are given: NULL or 0 for the defaults. */
struct ci_jobs {
	const char *image;	/* $KVERIFY_CI_IMAGE, default debian:bookworm */
	const char *tags;	/* $KVERIFY_CI_TAGS, runner tags a,b; default kvm */
	long timeout;		/* $KVERIFY_CI_TIMEOUT minutes; default margin x cost */
	const char *list;	/* --list, when not kernels.list */
	const char *costs;	/* --costs, default .ci/cold-seconds */
	double margin;		/* the table's: a timeout is margin x cost */
};

int cmd_matrix(const struct target_list *l, const char *format,
	       const char *shard_spec, const struct ci_jobs *ci);

int cmd_matrix_sweep(const struct strvec *jobs, const char *format,
		     const struct ci_jobs *ci);

#endif
