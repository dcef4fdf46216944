// SPDX-License-Identifier: GPL-2.0
/*
 * fetch: the target's pristine source (source.c), then for SERIES auto the
 * variant its shape needs (probe.c).  A source that cannot be had is an
 * ERROR; no variant that applies is the series' FAIL.
 */
#include "probe.h"
#include "source.h"
#include "steps.h"

enum step_status fetch_source(const struct verify_ctx *ctx,
			      struct fetch_out *out, struct step_result *r)
{
	const struct source_req req = {
		.t = ctx->t, .opt = ctx->opt, .cache = ctx->cache,
		.log = ctx->log, .timeout = ctx->timeout,
	};

	if (source_get(&req, &out->source, &r->reason, &r->detail))
		return STEP_ERROR;
	if (ctx->t->auto_series)
		return probe_series(ctx, out, r);
	return STEP_PASS;
}
