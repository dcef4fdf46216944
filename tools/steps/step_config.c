// SPDX-License-Identifier: GPL-2.0
/*
 * config: the run's kernel (tools/kernels/) configures: our own from the
 * fragment, Debian's config (CONFIG=distro), or Debian's built kernel
 * found and unpacked.
 */
#include <stdlib.h>

#include "kernels/debian.h"
#include "kernels/kernel.h"
#include "steps/steps.h"

/*
 * The kernel wanted configures, and when it falls back (BOOT=auto without
 * Debian's compiler), the one it falls back to; @out records which.
 */
static enum step_status configure_kernel(const struct verify_ctx *ctx,
					 struct config_out *out, struct step_result *r)
{
	const struct kernel_ops *k = ctx->kernel_ops;
	enum step_status st = k->configure(ctx, out, r);

	if (st == STEP_PASS && out->boot_why && k->fallback) {
		strbuf_reset(&r->reason);	/* BOOT=auto: our own after all */
		k = k->fallback;
		st = k->configure(ctx, out, r);
	}
	out->kernel_ops = out->boot_why && k->fallback ? k->fallback : k;
	if (out->boot_why)
		strbuf_addf(&r->reason, "; our own kernel, not Debian's: %s",
			    out->boot_why);
	return st;
}

static void config_clear(void *out)
{
	struct config_out *c = out;

	free(c->boot_why);
	free(c->build);
	free(c->kbuild);
	free(c->toolchain);
	debian_state_free(c->debian);
}

static enum step_status config_step_run(const struct verify_ctx *ctx, void *out,
					struct step_result *r)
{
	return configure_kernel(ctx, out, r);
}

const struct step config_step = {
	.name = "config",
	.run = config_step_run,
	.timeout = 600,
	.needs = NEEDS(STEP_IDX_fetch) | NEEDS(STEP_IDX_apply),
	STEP_OUTPUT(config),
	.clear_out = config_clear,
};
