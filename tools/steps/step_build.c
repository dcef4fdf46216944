// SPDX-License-Identifier: GPL-2.0
/*
 * build: what the run's kernel builds (tools/kernels/): our own bzImage,
 * the tree's KVM objects, or KVM's modules against Debian's headers.
 */
#include <stdlib.h>

#include "kernels/kernel.h"
#include "steps/steps.h"

/* Nothing built yet, and no ccache. */
static void build_init(void *out)
{
	struct build_out *b = out;

	b->ccache_hits = -1;
	b->ccache_misses = -1;
}

static enum step_status build_step_run(const struct verify_ctx *ctx, void *out,
				       struct step_result *r)
{
	return kernel_of(ctx)->build(ctx, out, r);
}

const struct step build_step = {
	.name = "build",
	.run = build_step_run,
	.timeout = 5400,
	.flags = STEP_COUNTS_OBJECTS,
	.needs = NEEDS(STEP_IDX_config),
	STEP_OUTPUT(built),
	.init_out = build_init,
};
