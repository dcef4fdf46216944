// SPDX-License-Identifier: GPL-2.0
/*
 * make send's gate: every target of kernels.list has a make verify-all
 * report of the series as it is now, with the gate's steps run and
 * nothing failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "b4/b4_int.h"
#include "core/series.h"
#include "lib/escape.h"
#include "lib/exitcode.h"
#include "lib/usage.h"
#include "report_read.h"

/*
 * The steps make verify-all must have run, not skipped, for make send:
 * the series applies, its logic passes the sim, checkpatch is clean and
 * every variant is what the semantic patch writes (the cocci step).  The
 * others (config, build, kabi, selftests, boot) may be skipped: they
 * take a kernel build each.
 */
static const char *const gate_steps[] = {
	"fetch", "tree", "apply", "sim", "checkpatch", "cocci",
};

/* Newer than @t: the file @path, 1 when it is (or is missing: -1). */
static int newer_than(const char *path, const struct timespec *t)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	return st.st_mtim.tv_sec > t->tv_sec ||
	       (st.st_mtim.tv_sec == t->tv_sec &&
		st.st_mtim.tv_nsec > t->tv_nsec);
}

/* A step's row as the error shows it: name, status and reason. */
static void step_error(const struct target *t, const struct report_step *s)
{
	struct strbuf why = STRBUF_INIT;

	if (s->reason && *s->reason) {
		strbuf_addstr(&why, ": ");
		term_escape(&why, s->reason);
	}
	error("send: %s: %s %s%s", t->name, s->name, s->status, why.buf);
	strbuf_release(&why);
}

/* Every row passes the gate: 0, or 1 after the first that does not. */
static int gate_steps_ok(const struct target *t, const struct report_view *v)
{
	const struct report_step *s;
	size_t i;

	for (i = 0; i < v->nr; i++) {
		s = &v->steps[i];
		if (!strcmp(s->status, "FAIL") || !strcmp(s->status, "ERROR")) {
			step_error(t, s);
			return 1;
		}
	}
	for (i = 0; i < ARRAY_SIZE(gate_steps); i++) {
		s = report_step(v, gate_steps[i]);
		if (!s) {
			error("send: %s: the report has no %s step", t->name,
			      gate_steps[i]);
			return 1;
		}
		if (strcmp(s->status, "PASS") && strcmp(s->status, "N-A")) {
			step_error(t, s);
			return 1;
		}
	}
	return 0;
}

/*
 * One target's report.json against the gate: 0, or 1 after a "send:"
 * line saying what is wrong.  @stale_inputs: the files that, changed
 * after the report, make it stale.
 */
static int gate_target(struct b4 *b, const struct target *t)
{
	char *path = xstrfmt("%s/%s/report.json", b->a->results, t->name);
	char *where = xstrfmt("kernels.list:%d", t->line);
	struct report_view v = REPORT_VIEW_INIT;
	const struct report_step *sim;
	struct strbuf err = STRBUF_INIT;
	struct strvec inputs = STRVEC_INIT;
	struct series s = { 0 };
	struct stat st;
	size_t i;
	int bad = 0;

	if (stat(path, &st) < 0) {
		error("send: %s: no result of make verify (%s)", t->name, path);
		bad = 1;
		goto out;
	}
	if (report_read(&v, path, &err)) {
		error("send: %s: %s: run make verify-all again", t->name,
		      err.buf);
		bad = 1;
		goto out;
	}
	strvec_pushl(&inputs, "kernels.list", COCCI_INPUT, NULL);
	if (t->series && !series_load(&s, ".", t->series, where, &err)) {
		char *sf = xstrfmt("%s/series", t->series);

		strvec_push(&inputs, sf);
		free(sf);
		for (i = 0; i < s.patches.nr; i++)
			strvec_push(&inputs, s.patches.v[i]);
	}
	for (i = 0; i < inputs.nr && !bad; i++)
		if (newer_than(inputs.v[i], &st.st_mtim) > 0) {
			error("send: %s: %s changed after its last make verify (%s)",
			      t->name, inputs.v[i], path);
			bad = 1;
		}
	if (!bad)
		bad = gate_steps_ok(t, &v);
	/*
	 * A sim PASS asked for fewer traces than make send wants (a
	 * KVERIFY_SIM_TRACES=1 verify-all) is a smaller proof than the one
	 * the posting would claim.  Asked, not ran: the step stops at its
	 * time budget, and a loaded machine runs fewer.
	 */
	sim = report_step(&v, "sim");
	if (!bad && sim && !strcmp(sim->status, "PASS") &&
	    v.sim_traces_asked < b->sim_traces) {
		error("send: %s: the sim was asked for %ld traces, make send wants %ld: run make verify-all again without KVERIFY_SIM_TRACES (or with it at least that high)",
		      t->name, v.sim_traces_asked < 0 ? 0L : v.sim_traces_asked,
		      b->sim_traces);
		bad = 1;
	}
out:
	report_view_clear(&v);
	series_clear(&s);
	strvec_clear(&inputs);
	strbuf_release(&err);
	free(path);
	free(where);
	return bad;
}

/*
 * make send is for a series that make verify-all passed as it is now:
 * every target of kernels.list has a report newer than its series, the
 * semantic patch and kernels.list, without a FAIL or ERROR, and with the
 * gate's steps run (PASS or N-A).  0, or EXIT_USAGE after what to do.
 */
int b4_gate(struct b4 *b)
{
	size_t i;
	int bad = 0;

	if (!b->a->list)
		return 0;
	for (i = 0; i < b->a->list->nr; i++)
		bad += gate_target(b, &b->a->list->v[i]);
	if (!bad)
		return 0;
	error("%d target%s of kernels.list %s no passing make verify-all of this series (above)%s: run 'make verify-all' (SKIP=config,build,kabi,selftests,boot is enough for this check; not fetch, tree, apply, sim, checkpatch or cocci), fix what fails ('make regenerate' rewrites a variant the semantic patch covers), then make send",
	      bad, bad == 1 ? "" : "s", bad == 1 ? "has" : "have",
	      b->a->send ? "; nothing was sent" : "");
	return EXIT_USAGE;
}
