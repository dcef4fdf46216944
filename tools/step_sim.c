// SPDX-License-Identifier: GPL-2.0
/*
 * sim: the tree's own vPMU code, pristine and patched, against a simulated
 * perf PMU and an architectural reference model (tools/sim.c, docs/sim.md).
 * A counterexample fails the step: its shortest trace goes into the log and
 * the detail, its invariant and values into the reason.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "fsutil.h"
#include "sim.h"
#include "series.h"
#include "steps.h"

/* The counterexample block of the harness's output, for the detail. */
static void counterexample(const char *out, struct strbuf *detail)
{
	const char *p = strstr(out, "COUNTEREXAMPLE");
	const char *e = p ? strstr(p, "\nRESULT ") : NULL;

	if (p)
		strbuf_add(detail, p, e ? (size_t)(e - p + 1) : strlen(p));
}

enum step_status run_sim(const struct verify_ctx *ctx, struct sim_out *out,
			 struct step_result *r)
{
	struct sim_opts o = {
		.pristine = ctx->fetch.source.src, .patched = ctx->tree, .log = ctx->log,
		.seed = ctx->opt->sim_seed >= 0 ? ctx->opt->sim_seed : 1,
		.traces = ctx->opt->sim_traces ? ctx->opt->sim_traces :
			  SIM_TRACES,
		.tolerance = -1, .shrink_seconds = 8,
		.total_seconds = ctx->opt->sim_seconds ? ctx->opt->sim_seconds :
				 24,
		.debug = ctx->opt->sim_debug,
		.timeout = ctx->timeout,
	};
	struct sim_result res = SIM_RESULT_INIT;
	enum step_status st = STEP_FAIL;
	char *work = cache_path(ctx, "sim/%s", ctx->t->name);

	o.work = work;
	if (!is_dir(ctx->tree) || !tree_is_current(ctx)) {
		strbuf_addstr(&r->reason, "no patched tree of this series: the tree and apply steps did not run");
		st = STEP_SKIP;
		goto out;
	}
	rm_rf(work);
	if (sim_run(&o, &res)) {
		strbuf_addf(&r->reason, "sim: %s", res.reason.buf);
		step_fail_tail(r, ctx->log, 20);
		goto out;
	}
	{
		FILE *f = fopen(ctx->log, "a");

		if (f) {
			fputs(res.output.buf, f);
			fclose(f);
		}
	}
	out->era = xstrdup(sim_era_name(res.era));
	out->traces = res.passed ? res.traces : o.traces;
	out->seed = o.seed;
	strbuf_addstr(&out->figures, res.figures.buf);
	if (res.passed) {
		strbuf_addf(&r->reason, "%s era, %ld traces (seed %llu), every invariant holds; reprograms per million emulated instructions: %s",
			    sim_era_name(res.era), res.traces, o.seed,
			    res.figures.buf);
		st = STEP_PASS;
	} else {
		strbuf_addf(&r->reason, "%s", res.reason.buf);
		counterexample(res.output.buf, &r->detail);
	}
out:
	sim_result_clear(&res);
	free(work);
	return st;
}
