// SPDX-License-Identifier: GPL-2.0
/*
 * count: a step with an output of its own type (step_count.h): the number
 * of the series' patches and the first one's name.  t0176 adds it, and
 * step_echo.c, which reads it, to a copy of the pipeline.
 */
#include <stdlib.h>

#include "core/series.h"
#include "lib/fsutil.h"
#include "steps/step_count.h"

static enum step_status count_step_run(const struct verify_ctx *ctx,
				       void *out, struct step_result *r)
{
	const struct series *s = series_of(ctx);
	struct count_out *c = out;

	c->patches = s->patches.nr;
	if (c->patches)
		c->first = xstrdup(patch_name(s->patches.v[0]));
	strbuf_addf(&r->reason, "%zu patches", c->patches);
	return STEP_PASS;
}

static void count_clear(void *out)
{
	struct count_out *c = out;

	free(c->first);
}

const struct step count_step = {
	.name = "count",
	.run = count_step_run,
	.timeout = 60,
	.flags = STEP_SOURCE_ONLY,
	.needs = NEEDS(STEP_IDX_apply),
	STEP_OWN_OUTPUT(struct count_out),
	.clear_out = count_clear,
};
