// SPDX-License-Identifier: GPL-2.0
/*
 * echo: a step that reads the count step's output through its header
 * (step_count.h) and says it in its reason; t0176 adds both.
 */
#include "steps/step_count.h"

static enum step_status echo_step_run(const struct verify_ctx *ctx,
				      void *out, struct step_result *r)
{
	const struct count_out *c = count_of(ctx);

	(void)out;	/* it has none */
	strbuf_addf(&r->reason, "count found %zu patches, the first %s",
		    c->patches, c->first ? c->first : "none");
	return STEP_PASS;
}

const struct step echo_step = {
	.name = "echo",
	.run = echo_step_run,
	.timeout = 60,
	.flags = STEP_SOURCE_ONLY,
	.needs = NEEDS(STEP_IDX_count),
};
