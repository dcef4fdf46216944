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

#include "b4_int.h"
#include "exitcode.h"
#include "series.h"
#include "usage.h"

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

/*
 * One target's report.json against the gate: 0, or 1 after a "send:"
 * line saying what is wrong.  @stale_inputs: the files that, changed
 * after the report, make it stale.
 */
static int gate_target(struct b4 *b, const struct target *t)
{
	char *path = xstrfmt("%s/%s/report.json", b->a->results, t->name);
	char *where = xstrfmt("kernels.list:%d", t->line);
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct strvec inputs = STRVEC_INIT;
	struct series s = { 0 };
	struct stat st;
	const char *p;
	size_t i;
	int bad = 0, sim_passed = 0;

	if (stat(path, &st) < 0 || strbuf_read_file(&sb, path, 16 << 20) < 0) {
		error("send: %s: no result of make verify (%s)", t->name, path);
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
	/* report.c writes one step a line: {"name": "X", "status": "Y", */
	for (p = sb.buf; !bad && (p = strstr(p, "{\"name\": \"")); p++) {
		const char *name = p + 10, *st_at = strstr(p, "\"status\": \"");
		size_t nl = strcspn(name, "\"");
		const char *status;
		size_t sl, j;

		if (!st_at || memchr(p, '\n', st_at - p))
			continue;
		status = st_at + 11;
		sl = strcspn(status, "\"");
		for (j = 0; j < ARRAY_SIZE(gate_steps); j++)
			if (strlen(gate_steps[j]) == nl &&
			    !strncmp(gate_steps[j], name, nl))
				break;
		if (nl == 3 && !strncmp(name, "sim", 3) && sl == 4 &&
		    !strncmp(status, "PASS", 4))
			sim_passed = 1;
		if ((sl == 4 && !strncmp(status, "FAIL", 4)) ||
		    (sl == 5 && !strncmp(status, "ERROR", 5)) ||
		    (j < ARRAY_SIZE(gate_steps) &&
		     !(sl == 4 && !strncmp(status, "PASS", 4)) &&
		     !(sl == 3 && !strncmp(status, "N-A", 3)))) {
			const char *r = strstr(st_at, "\"reason\": \"");

			error("send: %s: %.*s %.*s%s%.*s", t->name,
			      (int)nl, name, (int)sl, status,
			      r ? ": " : "", r ? (int)strcspn(r + 11, "\"") : 0,
			      r ? r + 11 : "");
			bad = 1;
		}
	}
	/*
	 * A sim PASS over fewer traces than make send wants (a
	 * KVERIFY_SIM_TRACES=1 verify-all) is a smaller proof than the one
	 * the posting would claim.
	 */
	p = strstr(sb.buf, "\n  \"sim\": {");
	p = p ? strstr(p, "\"traces\": ") : NULL;
	if (!bad && sim_passed &&
	    (p ? strtol(p + 10, NULL, 10) : 0) < b->sim_traces) {
		error("send: %s: sim ran %ld traces, make send wants %ld: run make verify-all again without KVERIFY_SIM_TRACES (or with it at least that high)",
		      t->name, p ? strtol(p + 10, NULL, 10) : 0L, b->sim_traces);
		bad = 1;
	}
out:
	series_clear(&s);
	strvec_clear(&inputs);
	strbuf_release(&sb);
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
int gate(struct b4 *b)
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
