// SPDX-License-Identifier: GPL-2.0
/*
 * fetch: the target's pristine source (source.c), then for SERIES auto the
 * variant its shape needs (probe.c).  A source that cannot be had is an
 * ERROR; no variant that applies is the series' FAIL.
 */
#include "probe.h"
#include "series.h"
#include "sources/source.h"
#include "steps/steps.h"

static enum step_status fetch_source(const struct verify_ctx *ctx,
				     struct fetch_out *out, struct step_result *r)
{
	const struct source_req req = {
		.t = ctx->t, .opt = ctx->opt, .cache = sources_dir(ctx->opt),
		.log = ctx->log, .timeout = ctx->timeout,
	};

	if (source_get(&req, &out->source, &r->reason, &r->detail))
		return STEP_ERROR;
	if (ctx->t->auto_series)
		return probe_series(ctx, out, r);
	return STEP_PASS;
}

static void fetch_clear(void *out)
{
	struct fetch_out *f = out;

	source_clear(&f->source);
	series_clear(&f->probed);
}

static enum step_status fetch_step_run(const struct verify_ctx *ctx, void *out,
				       struct step_result *r)
{
	return fetch_source(ctx, out, r);
}

const struct step fetch_step = {
	.name = "fetch",
	.run = fetch_step_run,
	.timeout = SOURCE_TIMEOUT,
	.flags = STEP_RUNS_WHEN_NA | STEP_SOURCE_ONLY,
	STEP_OUTPUT(fetch),
	.clear_out = fetch_clear,
};
