// SPDX-License-Identifier: GPL-2.0
/*
 * sim: the tree's own vPMU code, pristine and patched, against a simulated
 * perf PMU and an architectural reference model (tools/core/sim.c, docs/sim.md).
 * A counterexample fails the step: its shortest trace goes into the log and
 * the detail, its invariant and values into the reason.
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/series.h"
#include "core/sim.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/run.h"
#include "steps/memo.h"
#include "steps/step_sim.h"
#include "steps/steps.h"

/* The counterexample block of the harness's output, for the detail. */
static void counterexample(const char *out, struct strbuf *detail)
{
	const char *p = strstr(out, "COUNTEREXAMPLE");
	const char *e = p ? strstr(p, "\nRESULT ") : NULL;

	if (p)
		strbuf_add(detail, p, e ? (size_t)(e - p + 1) : strlen(p));
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
 * What the baseline is made of: the series' patches that carry a Fixes:
 * trailer, in series order, into @fixes; the pristine tree's files the sim
 * reads and those the patches touch, into @files.
 */
static void baseline_inputs(const struct verify_ctx *ctx,
			    struct strvec *fixes, struct strvec *files)
{
	const struct series *s = series_of(ctx);
	size_t i;

	for (i = 0; s && i < s->patches.nr; i++)
		if (series_patch_has_fixes(s->patches.v[i]))
			strvec_push(fixes, s->patches.v[i]);
	if (!fixes->nr)
		return;
	for (i = 0; i < nr_sim_files; i++)
		strvec_push(files, sim_files[i] + (sim_files[i][0] == '?'));
	for (i = 0; i < fixes->nr; i++)
		patch_paths(fixes->v[i], files);
}

/*
 * The baseline tree: the pristine tree's files the sim reads, and those
 * the patches touch, linked into @dir, with the series' patches that carry
 * a Fixes: trailer applied in series order.  Their names go into @names;
 * 0 with none (the baseline is then the pristine tree), 1 when made, -1 on
 * failure (@why says what), -2 when patch(1) cannot run here.
 */
static int make_baseline(const struct verify_ctx *ctx, const char *dir,
			 struct strbuf *names, struct strbuf *why)
{
	const char *src = ctx->fetch.source.src;
	struct strvec fixes = STRVEC_INIT, files = STRVEC_INIT;
	size_t i;
	int ret = -1;

	baseline_inputs(ctx, &fixes, &files);
	if (!fixes.nr) {
		ret = 0;
		goto out;
	}
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
			if (c.spawn_errno)
				ret = -2;
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

/*
 * The sim's PASS follows from: the code of the files it cuts out of the
 * pristine and the patched tree (a comment edited in place is no input), the baseline's Fixes: patches and the pristine files
 * they touch, the sim's sources (tools/sim) and this kverify (which cuts
 * the code out and generates the units), the compiler, and the seed, the
 * trace count and the time budget.  Not from the rest of the series: a
 * patch that touches no file the sim reads leaves its PASS up to date.
 */
static void sim_memo(const struct verify_ctx *ctx, const struct sim_opts *o,
		     struct memo *m)
{
	struct strvec fixes = STRVEC_INIT, files = STRVEC_INIT;
	uint64_t h = HASH_INIT;
	size_t i;

	memo_init_bare(m, ctx, "sim");
	for (i = 0; i < nr_sim_files; i++) {
		const char *f = sim_files[i] + (sim_files[i][0] == '?');
		char *p = xstrfmt("%s/%s", o->pristine, f);
		char *q = xstrfmt("%s/%s", o->patched, f);

		memo_add_optional_code(m, p);
		memo_add_optional_code(m, q);
		free(p);
		free(q);
	}
	baseline_inputs(ctx, &fixes, &files);
	for (i = 0; i < fixes.nr; i++) {
		memo_add_string(m, patch_name(fixes.v[i]));
		memo_add_file(m, fixes.v[i]);
	}
	for (i = 0; i < files.nr; i++) {
		char *p = xstrfmt("%s/%s", o->pristine, files.v[i]);

		memo_add_optional_file(m, p);
		free(p);
	}
	if (sim_hash_toolchain(&h)) {
		m->incomplete = 1;
	} else {
		char hex[17];

		snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
		memo_add_string(m, hex);
	}
	{
		char *k = xstrfmt("seed %llu traces %ld tolerance %ld shrink %g total %g debug %d%s",
				  o->seed, o->traces, o->tolerance,
				  o->shrink_seconds, o->total_seconds,
				  o->debug, o->fixes_only ? " fixes-only" : "");

		memo_add_string(m, k);
		free(k);
	}
	strvec_clear(&fixes);
	strvec_clear(&files);
}

/* What the report needs of the sim's output, kept beside the PASS. */
static void sim_out_save(const struct sim_out *out, struct strbuf *data)
{
	strbuf_addf(data, "%s\n%ld\n%llu\n%s\n%s\n%ld\n", out->era,
		    out->traces, out->seed, out->figures.buf, out->reads.buf,
		    out->traces_asked);
}

static int sim_out_load(struct sim_out *out, struct strbuf *data)
{
	char *v[5], *p = data->buf, *e;
	int i;

	for (i = 0; i < 5; i++) {
		e = strchr(p, '\n');
		if (!e)
			return -1;
		*e = '\0';
		v[i] = p;
		p = e + 1;
	}
	out->era = xstrdup(v[0]);
	out->traces = strtol(v[1], NULL, 10);
	out->seed = strtoull(v[2], NULL, 10);
	strbuf_addstr(&out->figures, v[3]);
	strbuf_addstr(&out->reads, v[4]);
	/* kept before the count asked was: as many as ran */
	out->traces_asked = *p ? strtol(p, NULL, 10) : out->traces;
	return 0;
}

/* What the baseline is, for the reason line. */
static void describe_baseline(const struct sim_opts *o, const char *names,
			      struct strbuf *sb)
{
	if (o->baseline && o->fixes_only)
		strbuf_addf(sb, "pristine + %s (the Fixes: patches), the whole series: fixes only, no parameter, so the patched tree is the fixed baseline (iii by construction) and iv excuses no spurious overflow perf's overflow handler raises",
			    names);
	else if (o->baseline)
		strbuf_addf(sb, "pristine + %s (the Fixes: patches)", names);
	else
		strbuf_addstr(sb, "the pristine tree (no Fixes: patch)");
}

static enum step_status run_sim(const struct verify_ctx *ctx, struct sim_out *out,
				struct step_result *r)
{
	struct sim_opts o = {
		.pristine = ctx->fetch.source.src, .patched = ctx->tree, .log = ctx->log,
		.seed = ctx->opt->sim_seed >= 0 ? ctx->opt->sim_seed : 1,
		.traces = ctx->opt->sim_traces ? ctx->opt->sim_traces :
			  SIM_TRACES,
		.tolerance = -1, .min_period = -1, .shrink_seconds = 8,
		.total_seconds = ctx->opt->sim_seconds ? ctx->opt->sim_seconds :
				 24,
		.debug = ctx->opt->sim_debug,
		.timeout = ctx->timeout,
	};
	struct sim_result res = SIM_RESULT_INIT;
	enum step_status st = STEP_FAIL;
	char *work = cache_path(ctx, "sim/%s", ctx->t->name);
	char *objects = cache_path(ctx, SIM_OBJECTS);
	char *base = xstrfmt("%s/baseline", work);
	struct strbuf names = STRBUF_INIT, why = STRBUF_INIT, bdesc = STRBUF_INIT;
	struct strbuf kept = STRBUF_INIT;
	struct memo memo = { 0 };
	int made;

	o.work = work;
	o.objects = objects;
	o.fixes_only = series_fixes_only(series_of(ctx));
	if (!is_dir(ctx->tree) || !tree_is_current(ctx)) {
		strbuf_addstr(&r->reason, "no patched tree of this series: the tree and apply steps did not run");
		st = STEP_SKIP;
		goto out;
	}
	sim_memo(ctx, &o, &memo);
	if (memo_reuse_data(&memo, r, &kept)) {
		if (!sim_out_load(out, &kept)) {
			st = STEP_PASS;
			goto out;
		}
		strbuf_reset(&r->reason);
		strbuf_reset(&r->detail);
	}
	rm_rf(work);
	made = make_baseline(ctx, base, &names, &why);
	if (made < 0) {
		strbuf_addf(&r->reason, "sim: the baseline: %s", why.buf);
		if (made == -2)
			blame_machine(r);
		goto out;
	}
	if (made)
		o.baseline = base;
	describe_baseline(&o, names.buf, &bdesc);
	if (sim_run(&o, &res)) {
		strbuf_addf(&r->reason, "sim: %s", res.reason.buf);
		step_fail_tail(r, ctx->log, 20);
		if (res.cannot_run)
			blame_machine(r);
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
	out->traces_asked = o.traces;
	out->seed = o.seed;
	strbuf_addstr(&out->figures, res.figures.buf);
	strbuf_addstr(&out->reads, res.reads.buf);
	if (res.passed) {
		strbuf_addf(&r->reason, "%s era, %ld traces (seed %llu), every invariant holds; baseline: %s; reprograms per million emulated instructions: %s; perf reads: %s",
			    sim_era_name(res.era), res.traces, o.seed,
			    bdesc.buf, res.figures.buf, res.reads.buf);
		st = STEP_PASS;
		sim_out_save(out, &kept);
	} else {
		strbuf_addf(&r->reason, "%s", res.reason.buf);
		counterexample(res.output.buf, &r->detail);
	}
	memo_keep_data(&memo, st, r, &kept);
out:
	if (memo.path)
		memo_clear(&memo);
	strbuf_release(&kept);
	sim_result_clear(&res);
	strbuf_release(&names);
	strbuf_release(&why);
	strbuf_release(&bdesc);
	free(base);
	free(work);
	free(objects);
	return st;
}

static void sim_init(void *out)
{
	struct sim_out *s = out;

	strbuf_init(&s->figures);
	strbuf_init(&s->reads);
}

static void sim_clear(void *out)
{
	struct sim_out *s = out;

	free(s->era);
	strbuf_release(&s->figures);
	strbuf_release(&s->reads);
}

/* In the step's own process, for the engine's: only what ran. */
static void sim_save(const void *out, struct strbuf *sb)
{
	const struct sim_out *s = out;

	if (s->era)
		sim_out_save(s, sb);
}

static int sim_load(void *out, struct strbuf *sb)
{
	return sb->len ? sim_out_load(out, sb) : 0;
}

static enum step_status sim_step_run(const struct verify_ctx *ctx, void *out,
				     struct step_result *r)
{
	return run_sim(ctx, out, r);
}

const struct step sim_step = {
	.name = "sim",
	.run = sim_step_run,
	.timeout = 300,
	.flags = STEP_INDEPENDENT | STEP_BESIDE | STEP_SOURCE_ONLY,
	.needs = NEEDS(STEP_IDX_apply),
	STEP_OWN_OUTPUT(struct sim_out),
	.init_out = sim_init,
	.clear_out = sim_clear,
	.save_out = sim_save,
	.load_out = sim_load,
};
