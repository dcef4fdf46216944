/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_STEP_COUNT_H
#define KVERIFY_STEP_COUNT_H

/*
 * The count step's output (step_count.c), which t0176 adds with the step
 * to show what a step with an output takes: its file, this header and a
 * line of pipeline.h.
 */
#include <stddef.h>

#include "core/step.h"
#include "steps/steps.h"

struct count_out {
	size_t patches;		/* the series' */
	char *first;		/* the first patch's name, or NULL */
};

/**
 * count_of() - What the count step found.
 * @ctx: The run, set up by the engine.
 *
 * Return: The count step's output.
 */
static inline const struct count_out *count_of(const struct verify_ctx *ctx)
{
	return step_output(ctx, &count_step);
}

#endif
