/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_STEP_SIM_H
#define KVERIFY_STEP_SIM_H

/* The sim step's output, for the reports (step_sim.c). */
#include "core/step.h"
#include "lib/strbuf.h"
#include "steps/steps.h"

struct sim_out {
	char *era;		/* what ran, or NULL */
	long traces;		/* ran: fewer than asked when time ran out */
	long traces_asked;	/* KVERIFY_SIM_TRACES, or SIM_TRACES */
	unsigned long long seed;
	struct strbuf figures;	/* "T=0:1000000 T=1:500000 ..." */
	struct strbuf reads;	/* perf_event_read_value() calls, the same */
};

/**
 * sim_of() - What the sim ran: its era, traces and figures.
 * @ctx: The run, set up by the engine.
 *
 * Return: The sim step's output, as far as it has run.
 */
static inline const struct sim_out *sim_of(const struct verify_ctx *ctx)
{
	return step_output(ctx, &sim_step);
}

#endif
