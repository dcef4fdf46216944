/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_VERIFY_H
#define KVERIFY_VERIFY_H

/* The pipeline engine: the steps of a target, in order, and the reports. */
#include "lib/options.h"
#include "sources/targets.h"

/* What a run found, for a caller that renders it itself (the sweep). */
struct verify_outcome {
	struct step_result *res;	/* each step's, in order; NULL: no run */
	int nr;
	char *variant;		/* the series verified, as named; NULL: n/a */
	char *na_reason;	/* why no series applies, or NULL */
	char *src_key;		/* the source's name in the cache, or NULL */
	char *src;		/* its pristine tree, or NULL */
};

/* The pipeline on @t, its reports written and its table printed. */
int verify_target(const struct target *t, const struct options *opt);
/* The same, but @out gets what the table would say: the caller's to clear. */
int verify_target_outcome(const struct target *t, const struct options *opt,
			  struct verify_outcome *out);
void verify_outcome_clear(struct verify_outcome *out);
/* The steps' names, in order; -1 for a name that is none. */
extern const int nr_verify_steps;
const char *verify_step_name(int i);
int verify_step_index(const char *name);
int verify_step_source_only(int i);

#endif
