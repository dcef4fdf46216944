// SPDX-License-Identifier: GPL-2.0
/*
 * dummy: a step that reads nothing and writes nothing, added to a copy of
 * the pipeline by t0176 to show what adding a step takes: this file and a
 * line of pipeline.h.  It ends as DUMMY_STEP_STATUS says ("fail": FAIL).
 */
#include <stdlib.h>
#include <string.h>

#include "steps/steps.h"

static enum step_status dummy_step_run(const struct verify_ctx *ctx, void *out,
				       struct step_result *r)
{
	(void)out;	/* it has none */
	const char *want = getenv("DUMMY_STEP_STATUS");

	if (want && !strcmp(want, "fail")) {
		strbuf_addf(&r->reason, "%s: told to fail", ctx->t->name);
		return STEP_FAIL;
	}
	return STEP_PASS;
}

const struct step dummy_step = {
	.name = "dummy",
	.run = dummy_step_run,
	.timeout = 60,
	.flags = STEP_SOURCE_ONLY,
	.needs = NEEDS(STEP_IDX_apply),
};
