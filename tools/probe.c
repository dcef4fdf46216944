// SPDX-License-Identifier: GPL-2.0
/*
 * SERIES "auto" in kernels.list (for a vendor tree, say): the semantic patch
 * tells the shape of kvm_pmu_incr_counter() in the pristine source, and the
 * shape picks the curated variant.  The fetch step reports which.
 */
#include <stdlib.h>
#include <string.h>

#include "cocci.h"
#include "fsutil.h"
#include "verify.h"

static const struct {
	const char *shape;
	const char *series;
} variants[] = {
	{ "mediated",		"series" },
	{ "emulated_counter",	"backports/6.12" },
	{ "prev_counter",	"backports/6.6" },
	{ "sync",		"backports/6.1" },
};

static enum step_status pick(struct verify_ctx *ctx, struct step_result *r,
			     const char *shape)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(variants); i++)
		if (!strcmp(shape, variants[i].shape))
			break;
	if (i == ARRAY_SIZE(variants)) {
		strbuf_addf(&r->reason, "; the semantic patch names a shape no variant is for: %s",
			    shape);
		return STEP_FAIL;
	}
	if (load_series(ctx, variants[i].series, &err)) {
		strbuf_addf(&r->reason, "; shape %s needs %s, which is not there: generate it with make backport TREE=%s NAME=<X.Y>",
			    shape, variants[i].series, ctx->src);
		free(ctx->series);
		ctx->series = NULL;
		strbuf_release(&err);
		return STEP_FAIL;
	}
	strbuf_addf(&r->reason, "; probed shape %s: picked %s", shape,
		    variants[i].series);
	return STEP_PASS;
}

enum step_status probe_series(struct verify_ctx *ctx, struct step_result *r)
{
	char *work = xstrfmt("%s/probe", ctx->results), *outcome = NULL;
	struct strbuf why = STRBUF_INIT;
	enum step_status st = STEP_FAIL;

	rm_rf(work);
	if (cocci_run(ctx->repo, ctx->src, work, 0, ctx->log,
		      ctx->step->timeout, &outcome, &why)) {
		strbuf_addf(&r->reason, "; probe: %s", why.buf);
		goto out;
	}
	if (!strncmp(outcome, "APPLIED ", 8)) {
		st = pick(ctx, r, outcome + 8);
	} else if (!strncmp(outcome, "NOT-APPLICABLE", 14)) {
		ctx->na_reason = xstrdup(outcome + 15);
		strbuf_addf(&r->reason, "; probed: n/a, %s", ctx->na_reason);
		st = STEP_PASS;
	} else if (!strcmp(outcome, "ALREADY")) {
		ctx->na_reason = xstrdup("the tree already carries emulated_counter_reprogram_tolerance");
		strbuf_addf(&r->reason, "; probed: n/a, %s", ctx->na_reason);
		st = STEP_PASS;
	} else {
		/* "UNKNOWN <shape> ..." already says which hunk is missing. */
		strbuf_addf(&r->reason, "; probe: %s%s", outcome,
			    strcmp(outcome, "UNKNOWN") ? "" :
			    ": kvm_pmu_incr_counter() has a shape no rule knows");
	}
out:
	rm_rf(work);
	strbuf_release(&why);
	free(outcome);
	free(work);
	return st;
}
