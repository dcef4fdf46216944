// SPDX-License-Identifier: GPL-2.0
/*
 * The sim harness: seeded random guest traces (or one from a trace file)
 * run on three trees' vPMU code (pristine, baseline: pristine + the
 * series' Fixes: patches, and patched; linked in as sim_tree_pristine,
 * sim_tree_baseline, sim_tree_patched), each against an architectural
 * reference model.  docs/sim.md has the invariants in full:
 *  i       every counter read is exact;
 *  ii-a    a wrap by emulated instructions alone is signalled at once;
 *  ii-b    a joint wrap within the tolerance (emulated instructions, and
 *          native events past the wrap);
 *  ii-lost an owed wrap is signalled by the VM-entry after a fold;
 *  ii-save a save finds every owed wrap signalled, its PMI in the LAPIC;
 *  iii     with tolerance 0 the patched tree does what the baseline does;
 *  iv      no bit and no PMI without a wrap, unless the baseline has it;
 *  v       the figure's reprograms stay within the batching's bound.
 *
 * This file is the program's command line; the model is model.c, the ops
 * ops.c and points.c, the traces trace.c and tracefile.c, and the judging
 * check.c (harness_int.h).
 *
 * Exit 0: every trace passed; 1: a counterexample; 2: bad usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"

/* The command line. */
struct harness_opts {
	struct gen_opts g;
	uint64_t seed;
	long traces;
	int self_only, figures, batching;
	double shrink_s, max_s;
	const char *trace_file;
	long min_period;
};

/*
 * "--without set-filter,wrmsr-global-ctrl": op names, as traces print them;
 * "kvm-run": every KVM_RUN returns from vcpu_run(), 0 (no run=).
 */
static int parse_without(const char *list, unsigned int *mask)
{
	char buf[256], *tok, *save = NULL;
	int i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "kvm-run")) {
			*mask |= WITHOUT_KVM_RUN;
			continue;
		}
		for (i = 0; i < NR_OPS; i++)
			if (!strcmp(tok, op_names[i]))
				break;
		if (i == NR_OPS || i == OP_ENTRY || i == OP_EMUL) {
			fprintf(stderr, "sim: --without: no op '%s' to leave out\n",
				tok);
			return -1;
		}
		*mask |= 1U << i;
	}
	return 0;
}

static int print_usage(void)
{
	fprintf(stderr, "usage: sim [--seed N] [--traces N] [--tolerance T] [--vendor intel|amd] [--self] [--sync] [--prev] [--batching] [--fixes-only] [--no-figures] [--shrink-seconds S] [--max-seconds S] [--without OP,...] [--min-period N] [--trace FILE]\n");
	return 2;
}

/* An option without a value: 1 if @a is one (set in @o), else 0. */
static int parse_flag(struct harness_opts *o, const char *a)
{
	if (!strcmp(a, "--self"))
		o->self_only = 1;
	else if (!strcmp(a, "--sync"))
		o->g.era_sync = era_sync = 1;
	else if (!strcmp(a, "--prev"))
		o->g.era_prev = era_prev = 1;
	else if (!strcmp(a, "--batching"))
		o->batching = 1;
	else if (!strcmp(a, "--fixes-only"))
		fixes_only = 1;
	else if (!strcmp(a, "--no-figures"))
		o->figures = 0;
	else
		return 0;
	return 1;
}

/* Option @a with its value @v, into @o: 0, or -1 if either is bad. */
static int parse_valued(struct harness_opts *o, const char *a, const char *v)
{
	char *end = (char *)"";

	if (!strcmp(a, "--seed")) {
		o->seed = strtoull(v, &end, 0);
	} else if (!strcmp(a, "--traces")) {
		o->traces = strtol(v, &end, 0);
	} else if (!strcmp(a, "--tolerance")) {
		o->g.tolerance = strtol(v, &end, 0);
	} else if (!strcmp(a, "--shrink-seconds")) {
		o->shrink_s = strtod(v, &end);
	} else if (!strcmp(a, "--trace")) {
		o->trace_file = v;
	} else if (!strcmp(a, "--min-period")) {
		o->min_period = strtol(v, &end, 0);
		if (o->min_period < 0 || o->min_period > 4096)
			return -1;
	} else if (!strcmp(a, "--max-seconds")) {
		o->max_s = strtod(v, &end);
	} else if (!strcmp(a, "--without")) {
		if (parse_without(v, &o->g.without))
			return -1;
	} else if (!strcmp(a, "--vendor")) {
		if (!strcmp(v, "intel"))
			o->g.vendor = 0;
		else if (!strcmp(v, "amd"))
			o->g.vendor = 1;
		else
			return -1;
	} else {
		return -1;
	}
	if (*end || o->traces <= 0 || o->g.tolerance > 4294967295L)
		return -1;
	return 0;
}

static int parse_options(struct harness_opts *o, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (parse_flag(o, argv[i]))
			continue;
		if (!v || parse_valued(o, argv[i], v))
			return -1;
		i++;
	}
	return 0;
}

/* A failing trace, shrunk and printed: RESULT FAIL. */
static int report_failure(const struct harness_opts *o, struct trace *tr,
			  struct failure *f, long idx, double t0)
{
	char where[64];

	printf("FAIL after %ld traces (%.1f s)\n", idx + 1, sim_now() - t0);
	shrink(tr, f, o->shrink_s, o->self_only);
	check_trace(tr, f, o->self_only);
	snprintf(where, sizeof(where), "seed=%" PRIu64 " trace=%ld", o->seed,
		 idx);
	print_counterexample(tr, where, f, o->self_only);
	printf("RESULT FAIL invariant %s: seed %" PRIu64 " trace %ld, %d ops: %s\n",
	       f->inv, o->seed, idx, tr->n, f->what);
	free(tr->ops);
	return 1;
}

/*
 * The seed's traces, each checked, to the first failure or the end of
 * the traces or of the time budget: 1 on a failure, else 0, with
 * o->traces cut to those run.
 */
static int run_traces(struct harness_opts *o, double t0)
{
	struct failure f;
	struct trace tr;
	long idx;

	for (idx = 0; idx < o->traces; idx++) {
		int ti = idx % ARRAY_SIZE(trace_tolerances);
		unsigned int tol;

		if (o->max_s > 0 && sim_now() - t0 > o->max_s) {
			printf("time budget of %.0f s spent after %ld of %ld traces\n",
			       o->max_s, idx, o->traces);
			o->traces = idx;
			break;
		}
		rng_state = o->seed * 0x100000001b3ULL + idx;
		tol = o->g.tolerance >= 0 ? (unsigned int)o->g.tolerance :
					    trace_tolerances[ti];
		gen_trace(&tr, &o->g, tol);
		tr.min_period = o->min_period >= 0 ? (uint64_t)o->min_period :
			trace_min_period(o->seed, idx);
		trace_runs(&tr, o->seed, idx, o->g.without);
		if (check_trace(&tr, &f, o->self_only))
			return report_failure(o, &tr, &f, idx, t0);
		free(tr.ops);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct harness_opts o = {
		.g = { .vendor = -1, .tolerance = -1 },
		.seed = 1, .traces = 2000, .figures = 1, .shrink_s = 8,
		.min_period = -1,
	};
	char fig_what[512], fig_inv[4] = "";
	double t0 = sim_now();

	if (parse_options(&o, argc, argv))
		return print_usage();
	if (o.trace_file)
		return replay(o.trace_file, o.self_only);
	printf("sim: %s era, seed %" PRIu64 ", %ld traces%s\n",
	       sim_tree_pristine.era, o.seed, o.traces,
	       o.self_only ? ", pristine against the model only" : "");
	fflush(stdout);
	if (o.figures && !o.self_only)
		judge_figures(o.batching, fig_inv, fig_what, sizeof(fig_what));
	if (run_traces(&o, t0))
		return 1;
	if (*fig_inv) {
		printf("RESULT FAIL invariant %s: %s\n", fig_inv, fig_what);
		return 1;
	}
	printf("RESULT PASS %ld traces, %.1f s\n", o.traces, sim_now() - t0);
	return 0;
}
