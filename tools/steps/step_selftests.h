/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_STEP_SELFTESTS_H
#define KVERIFY_STEP_SELFTESTS_H

/* The selftests step's output, for the boot step (step_selftests.c). */
#include "core/step.h"
#include "lib/strbuf.h"
#include "steps/steps.h"

struct selftests_out {
	char *arch;		/* "x86" or "x86_64" */
	struct strvec bins;	/* built, absolute paths */
	struct strvec new_tests;	/* tests the series adds */
};

/**
 * selftests_of() - The static KVM selftests built for the guest.
 * @ctx: The run, set up by the engine.
 *
 * Return: The selftests step's output, as far as it has run.
 */
static inline const struct selftests_out *selftests_of(const struct verify_ctx *ctx)
{
	return step_output(ctx, &selftests_step);
}

#endif
