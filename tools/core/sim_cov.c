// SPDX-License-Identifier: GPL-2.0
/*
 * sim --coverage: the trees' units compiled with gcov's instrumentation
 * (sim.c), the counts of an earlier run dropped before the harness runs,
 * and after it, gcov's summary of each tree function reached, pristine
 * beside patched, into the result and WORK/coverage.txt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sim_int.h"
#include "lib/fsutil.h"
#include "lib/run.h"

/* One function's coverage in a unit, from gcov's text summary. */
struct cov_fn {
	char name[96];
	double lines, taken;
	int nlines, nbranches;
};

/*
 * gcov -b -n of @unit in o->work: the tree's functions (the generated unit
 * names each "tree:NAME" with #line) into @fns, at most @max; their number.
 */
static int gcov_unit(const struct sim_opts *o, const char *unit,
		     struct cov_fn *fns, int max)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *p;
	int n = 0;

	strvec_pushl(&c.args, "gcov", "-b", "-n", "-o", o->work, NULL);
	strvec_pushf(&c.args, "%s/%s.c", o->work, unit);
	c.dir = o->work;
	c.out = &out;
	c.timeout = o->timeout;
	run_child(&c);
	for (p = out.buf; (p = strstr(p, "File 'tree:")) && n < max; ) {
		struct cov_fn *f = &fns[n];
		const char *e = strchr(p + 11, '\'');
		const char *next = strstr(p + 11, "File '");
		const char *l, *t;

		if (!e)
			break;
		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%.*s", (int)(e - p - 11),
			 p + 11);
		l = strstr(e, "Lines executed:");
		t = strstr(e, "Taken at least once:");
		if (l && (!next || l < next))
			sscanf(l, "Lines executed:%lf%% of %d", &f->lines,
			       &f->nlines);
		if (t && (!next || t < next))
			sscanf(t, "Taken at least once:%lf%% of %d", &f->taken,
			       &f->nbranches);
		n++;
		p = e;
	}
	child_clear(&c);
	strbuf_release(&out);
	return n;
}

/* --coverage: the tree's vPMU functions reached, pristine and patched. */
void coverage_table(const struct sim_opts *o, struct sim_result *r)
{
	static struct cov_fn p[512], q[512];
	int np = gcov_unit(o, "sim_tree_pristine", p, 512);
	int nq = gcov_unit(o, "sim_tree_patched", q, 512);
	char *path = xstrfmt("%s/coverage.txt", o->work);
	int i, j;

	strbuf_addstr(&r->coverage, "COVERAGE function: pristine lines, branches taken | patched lines, branches taken (gcov -b)\n");
	for (i = 0; i < nq; i++) {
		for (j = 0; j < np; j++)
			if (!strcmp(p[j].name, q[i].name))
				break;
		if (j < np)
			strbuf_addf(&r->coverage, "COVERAGE %s: %.0f%% of %d, %.0f%% of %d | ",
				    q[i].name, p[j].lines, p[j].nlines,
				    p[j].taken, p[j].nbranches);
		else
			strbuf_addf(&r->coverage, "COVERAGE %s: - | ",
				    q[i].name);
		strbuf_addf(&r->coverage, "%.0f%% of %d, %.0f%% of %d\n",
			    q[i].lines, q[i].nlines, q[i].taken,
			    q[i].nbranches);
	}
	for (j = 0; j < np; j++) {
		for (i = 0; i < nq; i++)
			if (!strcmp(p[j].name, q[i].name))
				break;
		if (i == nq)
			strbuf_addf(&r->coverage, "COVERAGE %s: %.0f%% of %d, %.0f%% of %d | -\n",
				    p[j].name, p[j].lines, p[j].nlines,
				    p[j].taken, p[j].nbranches);
	}
	if (!np && !nq)
		strbuf_addstr(&r->coverage, "COVERAGE none: gcov printed no function of the trees (is gcov installed?)\n");
	write_file(path, r->coverage.buf, r->coverage.len);
	free(path);
}

/* --coverage: the counts of an earlier run in the same --work go. */
void forget_coverage(const struct sim_opts *o)
{
	static const char *const units[] = {
		"sim_tree_pristine", "sim_tree_patched", "sim_tree_baseline",
	};
	size_t u;

	for (u = 0; u < ARRAY_SIZE(units); u++) {
		char *gcda = xstrfmt("%s/%s.gcda", o->work, units[u]);

		unlink(gcda);
		free(gcda);
	}
}
