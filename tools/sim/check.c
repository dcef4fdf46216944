// SPDX-License-Identifier: GPL-2.0
/*
 * Judging a trace: the pristine tree against the reference model, the
 * patched tree against it and against the baseline's signals (iv), then
 * the differential at tolerance 0 (iii); a failing trace shrunk to a short
 * counterexample and printed with the calls that show it; the figure of
 * reprograms and perf reads per million emulated instructions (v, vi);
 * the replay of a trace file.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness_int.h"

/*
 * The baseline: pristine plus the series' Fixes: patches (kverify sim
 * --baseline), or the pristine tree itself when the program has none.
 */
static const struct sim_tree *baseline(void)
{
	return &sim_tree_baseline ? &sim_tree_baseline : &sim_tree_pristine;
}

static const char *baseline_name(void)
{
	return &sim_tree_baseline ? "baseline" : "pristine";
}

/* The tree whose spurious signals iv excuses, and its name. */
static const struct sim_tree *excuser(void)
{
	return fixes_only ? &sim_tree_pristine : baseline();
}

/*
 * --fixes-only: a spurious signal perf's overflow handler raised, which
 * nothing excuses.  KVM sets a counter's GLOBAL_STATUS bit and requests its
 * PMI in __kvm_perf_overflow() only, called from perf's handler,
 * kvm_perf_overflow() (the 6.2-6.7 fixture's pmu.c:126-143, 6.1.192
 * pmu.c:144-151), which the simulated perf calls (world.h, in_overflow),
 * and from KVM's own code, its fold of emulated events among it
 * (fold_signal()).
 */
static int from_perf(const struct spurious *s)
{
	return fixes_only && s->perf;
}

/*
 * --fixes-only: a spurious signal KVM raised folding the counter's emulated
 * events, compared with a snapshot taken before perf's count was folded:
 * 5.19-6.1's prev_count, in the emulated instruction's own call
 * (kvm_pmu_incr_counter(), 6.1.192 pmu.c:523-533); 6.2-6.7's
 * prev_counter, taken there (the fixture's pmu.c:600) and compared in
 * reprogram_counter() at the first drain of KVM_REQ_PMU after it
 * (:306-307), which clears it (:344), i.e. the next VM-entry, a native
 * op's entry in the traces.  A counter write with a running event leaves
 * pmc->counter offset by perf's count (the fixture's pmu.h:71-75): the
 * snapshot is above the folded value with no wrap.  The pristine trees do
 * so; no fix of the series claims it (docs/sim.md).
 */
static int fold_signal(const struct spurious *s)
{
	return fixes_only && s->fold;
}

/* iii: with tolerance 0, the patched tree does what the baseline does. */
static int differential(const struct trace *tr, struct failure *f,
			char **plog, char **qlog)
{
	struct run p, q;
	int k, ret = 0;

	run_trace(&p, baseline(), tr, 1);
	run_trace(&q, &sim_tree_patched, tr, 1);
	for (k = 0; k <= tr->n && k < tr->n; k++) {
		size_t ps = k ? p.op_log[k - 1] : 0, qs = k ? q.op_log[k - 1] : 0;
		size_t pl = p.op_log[k] - ps, ql = q.op_log[k] - qs;

		if (!p.op_log[k] && k)
			break;
		if (pl != ql || memcmp(p.w.log + ps, q.w.log + qs, pl)) {
			f->failed = 1;
			f->op = k;
			snprintf(f->inv, sizeof(f->inv), "iii");
			snprintf(f->what, sizeof(f->what),
				 "with tolerance 0 the patched tree differs from the %s tree at op %d",
				 baseline_name(), k);
			if (plog)
				*plog = strndup(p.w.log + ps, pl);
			if (qlog)
				*qlog = strndup(q.w.log + qs, ql);
			ret = 1;
			break;
		}
	}
	run_fini(&p);
	run_fini(&q);
	return ret;
}

/*
 * iv: the first signal of the patched run @q that no wrap of the reference
 * explains and the baseline does not give either (at the same op, for the
 * same counter): the pristine trees have spurious overflows of their own
 * (the period bug, docs/sim.md), the baseline fixes them.
 */
static const struct spurious *new_spurious(const struct trace *tr,
					   const struct run *q)
{
	struct run b;
	const struct spurious *found = NULL;
	int i, j;

	if (!q->nsp)
		return NULL;
	/*
	 * The Fixes: patches fix the pristine trees' spurious overflows (the
	 * period bug, 0001): against them nothing is excused, so a defect
	 * inside one of them fails too, at tolerance 0 as at any.  A series
	 * of fixes only is its own baseline: there nothing perf's handler
	 * raised is excused (from_perf()), KVM's fold of emulated events is
	 * (fold_signal(), which no patch claims to fix), and another signal
	 * only if the pristine tree raises it the same way.
	 */
	if (!fixes_only && &sim_tree_baseline)
		return &q->sp[0];
	run_trace(&b, excuser(), tr, 0);
	for (i = 0; i < q->nsp && !found; i++) {
		const struct spurious *s = &q->sp[i];

		if (from_perf(s)) {
			found = s;
			break;
		}
		if (fold_signal(s))
			continue;
		for (j = 0; j < b.nsp; j++)
			if (b.sp[j].op == s->op && b.sp[j].ctr == s->ctr &&
			    b.sp[j].pmi == s->pmi && (!fixes_only ||
			    (b.sp[j].perf == s->perf && b.sp[j].fold == s->fold)))
				break;
		if (j == b.nsp)
			found = s;
	}
	run_fini(&b);
	return found;
}

/* Why iv's spurious signal @sp of @tr is not excused. */
static const char *excuse(const struct spurious *sp)
{
	if (fixes_only)
		return from_perf(sp) ?
		       "fixes only, raised by perf's overflow handler: perf's period is wrong" :
		       "fixes only, raised by KVM outside the fold of emulated events, and the pristine tree raises none there";
	return &sim_tree_baseline ?
	       "none is excused against the Fixes: patches" :
	       "the pristine tree gives none there";
}

int check_trace(const struct trace *tr, struct failure *f, int self_only)
{
	struct run run;
	const struct spurious *sp;
	int diff_ok = !self_only && tr->tolerance == 0;
	int k;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < tr->n && diff_ok; k++)
		if ((tr->ops[k].type == OP_PARAM ||
		     tr->ops[k].type == OP_PARAM_ASYNC) && tr->ops[k].a)
			diff_ok = 0;
	run_trace(&run, &sim_tree_pristine, tr, 0);
	if (run.f.failed) {
		*f = run.f;
		snprintf(f->what + strlen(f->what),
			 sizeof(f->what) - strlen(f->what), " [pristine tree]");
		run_fini(&run);
		return 1;
	}
	run_fini(&run);
	if (self_only)
		return 0;
	run_trace(&run, &sim_tree_patched, tr, 0);
	sp = new_spurious(tr, &run);
	if (sp && (!run.f.failed || sp->op <= run.f.op)) {
		f->failed = 1;
		f->op = sp->op;
		snprintf(f->inv, sizeof(f->inv), "iv");
		if (sp->ctr < 0)
			snprintf(f->what, sizeof(f->what),
				 "a PMI is requested at op %d with no counter's overflow signalled before it; %s",
				 sp->op, excuse(sp));
		else
			snprintf(f->what, sizeof(f->what),
				 "%s for %s at op %d, and the reference has no wrap of %s since its last signal: a spurious overflow; %s",
				 sp->pmi ? "a PMI is requested" :
				 "GLOBAL_STATUS's bit is set", ctr_name(sp->ctr),
				 sp->op, ctr_name(sp->ctr), excuse(sp));
		run_fini(&run);
		return 1;
	}
	if (run.f.failed) {
		*f = run.f;
		run_fini(&run);
		return 1;
	}
	run_fini(&run);
	if (diff_ok && differential(tr, f, NULL, NULL))
		return 1;
	return 0;
}

double sim_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Delta debugging over the ops: the shortest trace failing the same way. */
void shrink(struct trace *tr, const struct failure *orig, double budget,
	    int self_only)
{
	double end = sim_now() + budget;
	struct trace t = *tr;
	struct failure f;
	int chunk, i, progress = 1;

	t.ops = malloc(tr->n * sizeof(*tr->ops));
	while (progress && sim_now() < end) {
		progress = 0;
		for (chunk = tr->n / 2; chunk >= 1 && sim_now() < end; chunk /= 2) {
			for (i = 0; i + chunk <= tr->n && sim_now() < end;) {
				memcpy(t.ops, tr->ops, i * sizeof(*t.ops));
				memcpy(t.ops + i, tr->ops + i + chunk,
				       (tr->n - i - chunk) * sizeof(*t.ops));
				t.n = tr->n - chunk;
				if (check_trace(&t, &f, self_only) &&
				    !strcmp(f.inv, orig->inv)) {
					memcpy(tr->ops, t.ops,
					       t.n * sizeof(*t.ops));
					tr->n = t.n;
					progress = 1;
				} else {
					i++;
				}
			}
		}
		/* fewer emulated instructions in a burst */
		for (i = 0; i < tr->n && sim_now() < end; i++) {
			uint64_t a = tr->ops[i].a;

			if (tr->ops[i].type != OP_EMUL || a <= 1)
				continue;
			memcpy(t.ops, tr->ops, tr->n * sizeof(*t.ops));
			t.n = tr->n;
			t.ops[i].a = a / 2;
			if (check_trace(&t, &f, self_only) &&
			    !strcmp(f.inv, orig->inv)) {
				tr->ops[i].a = a / 2;
				progress = 1;
				i--;
			}
		}
	}
	free(t.ops);
}

/* The calls of @t, op by op, up to its failure or the end. */
static void print_calls(const struct trace *tr, const struct sim_tree *t,
			const char *name)
{
	struct run run;
	int k;

	run_trace(&run, t, tr, 1);
	printf("  the %s tree's calls, op by op:\n", name);
	for (k = 0; k <= tr->n && run.op_log; k++) {
		size_t s = k ? run.op_log[k - 1] : 0;

		if (run.op_log[k] < s)
			break;
		printf("  %3d%.*s", k, (int)(run.op_log[k] - s),
		       run.w.log + s);
		if (run.f.failed && k == run.f.op)
			break;
	}
	run_fini(&run);
}

void print_counterexample(const struct trace *tr, const char *where,
			  const struct failure *f, int self_only)
{
	printf("COUNTEREXAMPLE %s invariant=%s\n", where, f->inv);
	print_trace(stdout, tr);
	printf("  at op %d: %s\n", f->op, f->what);
	if (!strcmp(f->inv, "iii")) {
		char *pl = NULL, *ql = NULL;
		struct failure g;

		differential(tr, &g, &pl, &ql);
		printf("  %s:%s  patched: %s", baseline_name(),
		       pl ? pl : "\n", ql ? ql : "\n");
		free(pl);
		free(ql);
	} else if (self_only) {
		print_calls(tr, &sim_tree_pristine, "pristine");
	} else {
		if (!strcmp(f->inv, "iv"))
			print_calls(tr, baseline(), baseline_name());
		print_calls(tr, &sim_tree_patched, "patched");
	}
}

/*
 * The figure: counter reprograms (perf_event_pause(), the costly part: the
 * perf context mutex and the PMU MSR writes) and perf_event_read_value()
 * calls per million emulated instructions, on the patched tree.  The
 * workload: one counter counting instructions with INT; each emulated
 * instruction in its own exit; 3 native instructions every FIG_NATIVE
 * emulated ones; a guest write of the counter every FIG_WRITE.
 */
#define FIG_N 1000000UL
#define FIG_NATIVE 101UL
#define FIG_WRITE 10007UL
/* invariant v: allowed per million beyond 1e6/(T+1), per counter write */
#define FIG_PER_WRITE 2
#define FIG_MIN_T 1000U

/* invariant vi: perf reads allowed per counter write (its read, its fold's) */
#define FIG_READS_PER_WRITE 2

/* The figure's tolerances (report.json's keys). */
static const unsigned int tolerances[] = {
	0, 1, 1000, 100000, 10000000, 4294967295U,
};

struct fig {
	double reprograms, reads, bound, read_bound;
	unsigned long writes;
};

static struct fig figure(unsigned int tol, int amd)
{
	struct trace tr = { 0 };
	struct fig fg = { 0, 0, 0, 0, 0 };
	struct run run;
	unsigned long i, pauses, reads;
	struct op setup[3];

	tr.cfg.amd = amd;
	tr.cfg.version = 2;
	tr.cfg.nr_gp = amd ? 6 : 8;
	tr.cfg.nr_fixed = amd ? 0 : 3;
	tr.cfg.width_gp = 48;
	tr.cfg.width_fixed = 48;
	tr.tolerance = tol;
	setup[0] = (struct op){ OP_WR_EVSEL, 0, EVSEL_EN | EVSEL_OS |
				EVSEL_USR | EVSEL_INT | EV_INSN, 0, 0, 0, 0 };
	setup[1] = (struct op){ OP_WR_GLOBAL_CTRL, 0, 1, 0, 0, 0, 0 };
	setup[2] = (struct op){ OP_ENTRY, 0, 0, 0, 0, 0, 0 };
	run_init(&run, &sim_tree_patched, &tr, 0);
	for (i = 0; i < 3; i++)
		exec_op(&run, &setup[i], i);
	pauses = run.w.nr_pause;
	reads = run.w.nr_read;
	for (i = 0; i < FIG_N; i++) {
		run.w.t->emulate(run.w.vcpu, SIM_EMUL_INSN);
		run.w.t->entry(run.w.vcpu);
		if (i % FIG_NATIVE == FIG_NATIVE - 1) {
			sim_native(&run.w, EV_INSN, 3);
			if (run.w.t->requests(run.w.vcpu))
				run.w.t->entry(run.w.vcpu);
		}
		if (i % FIG_WRITE == FIG_WRITE - 1) {
			run.w.t->set_msr(run.w.vcpu, ctr_msr(&tr.cfg, 0),
					 0x1000, 0);
			run.w.t->entry(run.w.vcpu);
			fg.writes++;
		}
	}
	fg.reprograms = (run.w.nr_pause - pauses) * 1e6 / FIG_N;
	fg.reads = (run.w.nr_read - reads) * 1e6 / FIG_N;
	fg.bound = 1e6 / (tol + 1.0) + FIG_PER_WRITE * fg.writes * 1e6 / FIG_N +
		   2;
	/* the workload has no guest read: a fold may read, and a write */
	fg.read_bound = fg.reprograms +
			FIG_READS_PER_WRITE * fg.writes * 1e6 / FIG_N + 2;
	run_fini(&run);
	return fg;
}

/*
 * The figure at every tolerance, printed; invariant v (reprograms, on a
 * tree with the parameter, tolerances 1000 and up) and vi (perf reads, on
 * every tree at every tolerance): the first broken goes in @inv and @what.
 */
void judge_figures(int batching, char *inv, char *what, size_t len)
{
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(tolerances); i++) {
		struct fig fg = figure(tolerances[i], 0);
		int judged = batching && tolerances[i] >= FIG_MIN_T;

		printf("FIGURE tolerance=%u reprograms_per_million=%.1f reads_per_million=%.1f",
		       tolerances[i], fg.reprograms, fg.reads);
		if (judged)
			printf(" bound=%.1f", fg.bound);
		printf(" read_bound=%.1f\n", fg.read_bound);
		if (judged && fg.reprograms > fg.bound && strcmp(inv, "v")) {
			snprintf(inv, 4, "v");
			snprintf(what, len,
				 "batching is not in effect: at tolerance %u the patched tree reprograms %.0f times per million emulated instructions (%.0f perf reads) in the figure's workload (a counter write every %lu, 3 native instructions every %lu), above the bound 1e6/(T+1) + %d per write + 2 = %.0f",
				 tolerances[i], fg.reprograms, fg.reads,
				 FIG_WRITE, FIG_NATIVE, FIG_PER_WRITE, fg.bound);
		}
		if (fg.reads > fg.read_bound && !*inv) {
			snprintf(inv, 4, "vi");
			snprintf(what, len,
				 "perf reads cost more than the guest's reads and the folds need: at tolerance %u the patched tree makes %.0f perf_event_read_value() calls per million emulated instructions in the figure's workload (no guest read, a counter write every %lu), above the bound: its %.0f reprograms + %d per write + 2 = %.0f",
				 tolerances[i], fg.reads, FIG_WRITE,
				 fg.reprograms, FIG_READS_PER_WRITE,
				 fg.read_bound);
		}
	}
	fflush(stdout);
}

/*
 * --trace FILE: the one trace of FILE, every invariant, no shrinking; the
 * patched tree's calls op by op (the pristine tree's with --self).
 */
int replay(const char *file, int self_only)
{
	struct failure f;
	struct trace tr;
	int ret;

	parse_trace(file, &tr);
	printf("sim: %s era, the trace of %s (%d ops)%s\n",
	       sim_tree_pristine.era, file, tr.n,
	       self_only ? ", pristine against the model only" : "");
	ret = check_trace(&tr, &f, self_only);
	if (ret) {
		char where[512];

		snprintf(where, sizeof(where), "file=%s", file);
		print_counterexample(&tr, where, &f, self_only);
		printf("RESULT FAIL invariant %s: %s, %d ops: %s\n", f.inv,
		       file, tr.n, f.what);
	} else {
		print_trace(stdout, &tr);
		print_calls(&tr, self_only ? &sim_tree_pristine :
			    &sim_tree_patched, self_only ? "pristine" : "patched");
		printf("RESULT PASS 1 traces, the trace of %s\n", file);
	}
	free(tr.ops);
	return ret;
}
