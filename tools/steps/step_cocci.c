// SPDX-License-Identifier: GPL-2.0
/*
 * cocci: the semantic patch, run on copies of the pristine sources (never
 * in place on the cache), must write byte for byte what the curated series
 * writes in every C file it touches outside tools/testing/.  On a target
 * whose series is n/a, it must agree that the change does not apply; on
 * one whose series carries fixes only, that the knob does not apply.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cocci.h"
#include "core/series.h"
#include "core/toolout.h"
#include "lib/fsutil.h"
#include "steps/memo.h"
#include "steps/steps.h"

static int run_spatch(const struct verify_ctx *ctx, struct step_result *r,
		      const char *work, char **outcome)
{
	int ret = cocci_run(ctx->repo, ctx->fetch.source.src, work, 0,
			    ctx->log, ctx->timeout, outcome, &r->reason);

	return ret == COCCI_CANNOT_RUN ? blame_machine(r) : ret;
}

/* diff -u of one file into r->detail; 0 if identical. */
static int compare(const struct verify_ctx *ctx, struct step_result *r,
		   const char *work, const char *file)
{
	char *a = xstrfmt("%s/%s", ctx->tree, file);
	char *b = xstrfmt("%s/b/%s", work, file);
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "diff", "-u", "--label", "series/", a,
		     "--label", "cocci/", b, NULL);
	c.out = &out;
	c.log = ctx->log;
	run_child(&c);
	if (c.status)
		strbuf_addf(&r->detail, "%s differs:\n%s", file,
			    out.buf);
	strbuf_release(&out);
	child_clear(&c);
	free(a);
	free(b);
	return c.status;
}

static int compared_by_cocci(const char *f)
{
	size_t i, n = strlen(f);

	if (starts_with(f, "tools/testing/") ||
	    starts_with(f, "Documentation/"))
		return 0;
	for (i = 0; i < nr_cocci_inputs; i++)
		if (!strcmp(f, cocci_inputs[i]))
			return 1;
	return n > 2 && (!strcmp(f + n - 2, ".c") || !strcmp(f + n - 2, ".h"));
}

static enum step_status compare_series(const struct verify_ctx *ctx,
				       struct step_result *r,
				       const char *work, const char *outcome)
{
	struct strvec files = STRVEC_INIT;
	size_t i;
	int diffs = 0, n = 0;

	series_files(series_of(ctx), &files, 0);
	for (i = 0; i < nr_cocci_inputs; i++) {
		char *p = xstrfmt("%s/b/%s", work, cocci_inputs[i]);

		if (is_file(p)) {
			diffs += !!compare(ctx, r, work, cocci_inputs[i]);
			n++;
		}
		free(p);
	}
	for (i = 0; i < files.nr; i++) {
		size_t j;

		for (j = 0; j < nr_cocci_inputs; j++)
			if (!strcmp(files.v[i], cocci_inputs[j]))
				break;
		if (j == nr_cocci_inputs && compared_by_cocci(files.v[i])) {
			strbuf_addf(&r->detail, "%s: changed by the series, not by the semantic patch\n",
				    files.v[i]);
			diffs++;
		}
	}
	strvec_clear(&files);
	if (diffs) {
		strbuf_addf(&r->reason, "%s, but %d file(s) differ from the series: the semantic patch writes every variant, so make the same change in %s, then make regenerate",
			    outcome, diffs, COCCI_SMPL);
		return STEP_FAIL;
	}
	strbuf_addf(&r->reason, "%s; %d files identical to the series",
		    outcome, n);
	return STEP_PASS;
}

/*
 * A series of fixes only (every patch has Fixes:, backports/6.1): the
 * semantic patch adds the knob, so it must say that the knob does not
 * apply here; the step is n/a for the knob, with its reason.  On the
 * prev_counter shape (6.2-6.7) it writes the fixes only, which are then
 * compared with the series as for a knob.
 */
static enum step_status fixes_only(const struct verify_ctx *ctx,
				   struct step_result *r, const char *work,
				   const char *outcome)
{
	const char *rest;
	const char *rel = series_of(ctx)->rel;
	enum cocci_outcome kind = cocci_outcome(outcome, &rest);

	if (kind == COCCI_APPLIED && !strcmp(rest, "prev_counter")) {
		strbuf_addf(&r->reason, "the knob: n/a, %s carries fixes only (every patch has Fixes:), as the semantic patch writes for this shape: ",
			    rel);
		return compare_series(ctx, r, work, outcome);
	}
	if (kind == COCCI_NOT_APPLICABLE) {
		strbuf_addf(&r->reason, "the knob: n/a, %s carries fixes only (every patch has Fixes:); semantic patch agrees: %s",
			    rel, outcome);
		return STEP_NA;
	}
	strbuf_addf(&r->reason, "%s carries fixes only (every patch has Fixes:), but the semantic patch says %s: the knob's patch is missing",
		    rel, outcome);
	return STEP_FAIL;
}

static enum step_status check_cocci(const struct verify_ctx *ctx, struct step_result *r)
{
	char *work = xstrfmt("%s/cocci", ctx->results), *outcome = NULL;
	char *smpl = xstrfmt("%s/%s", ctx->repo, COCCI_SMPL);
	const char *rest;
	enum step_status st = STEP_FAIL;
	struct memo memo;

	memo_init(&memo, ctx, "cocci");
	memo_add_file(&memo, smpl);
	memo_add_tool(&memo, "spatch");
	if (memo_reuse(&memo, r)) {
		st = STEP_PASS;
		goto out;
	}
	rm_rf(work);
	if (run_spatch(ctx, r, work, &outcome))
		goto out;
	if (series_fixes_only(series_of(ctx))) {
		st = fixes_only(ctx, r, work, outcome);
		goto out;
	}
	if (!series_of(ctx)->dir) {
		if (cocci_outcome(outcome, &rest) == COCCI_NOT_APPLICABLE) {
			strbuf_addf(&r->reason, "semantic patch agrees: %s",
				    outcome);
			st = STEP_NA;
		} else {
			strbuf_addf(&r->reason, "kernels.list says n/a, but the semantic patch says %s",
				    outcome);
		}
		goto out;
	}
	if (cocci_outcome(outcome, &rest) != COCCI_APPLIED) {
		strbuf_addf(&r->reason, "the semantic patch says %s", outcome);
		goto out;
	}
	st = compare_series(ctx, r, work, outcome);
	memo_keep(&memo, st, r);
out:
	memo_clear(&memo);
	free(outcome);
	free(smpl);
	free(work);
	return st;
}

static enum step_status cocci_step_run(const struct verify_ctx *ctx, void *out,
				       struct step_result *r)
{
	(void)out;	/* it has none */
	return check_cocci(ctx, r);
}

const struct step cocci_step = {
	.name = "cocci",
	.run = cocci_step_run,
	.timeout = 300,
	.flags = STEP_RUNS_WHEN_NA | STEP_SOURCE_ONLY | STEP_BESIDE,
	/* spatch reads the pristine source; the series' tree is compared */
	.needs = NEEDS(STEP_IDX_fetch) | NEEDS(STEP_IDX_apply),
};
