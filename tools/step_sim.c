// SPDX-License-Identifier: GPL-2.0
/*
 * sim: the tree's own vPMU code, pristine and patched, against a simulated
 * perf PMU and an architectural reference model (tools/sim.c, docs/sim.md).
 * A counterexample fails the step: its shortest trace goes into the log and
 * the detail, its invariant and values into the reason.
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "fsutil.h"
#include "run.h"
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

/* Whether @patch's message carries a Fixes: trailer. */
static int has_fixes(const char *patch)
{
	struct strbuf b = STRBUF_INIT;
	const char *p, *end;
	int ret = 0;

	if (strbuf_read_file(&b, patch, 16 << 20) < 0)
		return 0;
	end = strstr(b.buf, "\n---\n");
	if (!end)
		end = strstr(b.buf, "\ndiff --git ");
	for (p = b.buf; p && (!end || p < end); p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, "Fixes:", 6)) {
			ret = 1;
			break;
		}
	}
	strbuf_release(&b);
	return ret;
}

/* The files @patch changes ("+++ b/PATH"), added to @files. */
static void patch_paths(const char *patch, struct strvec *files)
{
	struct strbuf b = STRBUF_INIT;
	const char *p;

	if (strbuf_read_file(&b, patch, 16 << 20) < 0)
		return;
	for (p = b.buf; (p = strstr(p, "\n+++ b/")); ) {
		const char *s = p + 7, *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		while (n && (s[n - 1] == '\t' || s[n - 1] == ' ' ||
			     s[n - 1] == '\r'))
			n--;
		strvec_pushf(files, "%.*s", (int)n, s);
		p = s;
	}
	strbuf_release(&b);
}

/* @from to @to: a hard link (patch breaks it on write), else a copy. */
static int link_file(const char *from, const char *to)
{
	char *d = xstrdup(to);
	int ret = mkdir_p(dirname(d));

	free(d);
	if (ret)
		return -1;
	if (!link(from, to))
		return 0;
	return copy_file(from, to);
}

/*
 * The baseline tree: the pristine tree's files the sim reads, and those
 * the patches touch, linked into @dir, with the series' patches that carry
 * a Fixes: trailer applied in series order.  Their names go into @names;
 * 0 with none (the baseline is then the pristine tree), 1 when made, -1 on
 * failure (@why says what).
 */
static int make_baseline(const struct verify_ctx *ctx, const char *dir,
			 struct strbuf *names, struct strbuf *why)
{
	const struct series *s = series_of(ctx);
	const char *src = ctx->fetch.source.src;
	struct strvec fixes = STRVEC_INIT, files = STRVEC_INIT;
	size_t i;
	int ret = -1;

	for (i = 0; s && i < s->patches.nr; i++)
		if (has_fixes(s->patches.v[i]))
			strvec_push(&fixes, s->patches.v[i]);
	if (!fixes.nr) {
		ret = 0;
		goto out;
	}
	for (i = 0; i < nr_sim_files; i++)
		strvec_push(&files, sim_files[i] + (sim_files[i][0] == '?'));
	for (i = 0; i < fixes.nr; i++)
		patch_paths(fixes.v[i], &files);
	rm_rf(dir);
	for (i = 0; i < files.nr; i++) {
		char *from = xstrfmt("%s/%s", src, files.v[i]);
		char *to = xstrfmt("%s/%s", dir, files.v[i]);
		int bad = strstr(files.v[i], "..") != NULL;

		if (bad || (is_file(from) && !is_file(to) &&
			    link_file(from, to)))
			strbuf_addf(why, "cannot link %s into %s%s", files.v[i],
				    dir, bad ? " (a path with ..)" : "");
		free(from);
		free(to);
		if (why->len)
			goto out;
	}
	for (i = 0; i < fixes.nr; i++) {
		struct child c = CHILD_INIT;
		struct strbuf out = STRBUF_INIT;

		strvec_pushl(&c.args, "patch", "-p1", "--fuzz=0", "--forward",
			     "--batch", "--no-backup-if-mismatch",
			     "--reject-file=-", "-s", "-i", fixes.v[i], NULL);
		c.dir = dir;
		c.out = &out;
		c.log = ctx->log;
		c.timeout = ctx->timeout;
		if (run_child(&c)) {
			strbuf_addf(why, "%s (a Fixes: patch) does not apply to the pristine tree: ",
				    patch_name(fixes.v[i]));
			child_describe_failure(&c, why);
		}
		child_clear(&c);
		strbuf_release(&out);
		if (why->len)
			goto out;
		strbuf_addf(names, "%s%.4s", i ? ", " : "",
			    patch_name(fixes.v[i]));
	}
	ret = 1;
out:
	strvec_clear(&fixes);
	strvec_clear(&files);
	return ret;
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
	char *base = xstrfmt("%s/baseline", work);
	struct strbuf names = STRBUF_INIT, why = STRBUF_INIT, bdesc = STRBUF_INIT;
	int made;

	o.work = work;
	if (!is_dir(ctx->tree) || !tree_is_current(ctx)) {
		strbuf_addstr(&r->reason, "no patched tree of this series: the tree and apply steps did not run");
		st = STEP_SKIP;
		goto out;
	}
	rm_rf(work);
	made = make_baseline(ctx, base, &names, &why);
	if (made < 0) {
		strbuf_addf(&r->reason, "sim: the baseline: %s", why.buf);
		goto out;
	}
	if (made) {
		o.baseline = base;
		strbuf_addf(&bdesc, "pristine + %s (the Fixes: patches)",
			    names.buf);
	} else {
		strbuf_addstr(&bdesc, "the pristine tree (no Fixes: patch)");
	}
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
	strbuf_addstr(&out->reads, res.reads.buf);
	if (res.passed) {
		strbuf_addf(&r->reason, "%s era, %ld traces (seed %llu), every invariant holds; baseline: %s; reprograms per million emulated instructions: %s; perf reads: %s",
			    sim_era_name(res.era), res.traces, o.seed,
			    bdesc.buf, res.figures.buf, res.reads.buf);
		st = STEP_PASS;
	} else {
		strbuf_addf(&r->reason, "%s", res.reason.buf);
		counterexample(res.output.buf, &r->detail);
	}
out:
	sim_result_clear(&res);
	strbuf_release(&names);
	strbuf_release(&why);
	strbuf_release(&bdesc);
	free(base);
	free(work);
	return st;
}
