// SPDX-License-Identifier: GPL-2.0
/*
 * verify: run the steps of verify_steps[] in order for one target.  Each
 * step has its own log, wall time, timeout and status; a failed step makes
 * the later ones SKIP, and --skip names steps not to run.  This file
 * decides which step runs when (run_steps(), step_verdict(), the flavours'
 * rows) and writes the run's reports; a step's run itself, in the engine's
 * process or a STEP_BESIDE step's in one of its own, is verify_beside.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bundle.h"
#include "core/ident.h"
#include "core/series.h"
#include "kernels/kernel.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/guard.h"
#include "lib/lock.h"
#include "lib/usage.h"
#include "report.h"
#include "steps/step_selftests.h"
#include "steps/steps.h"
#include "verify.h"
#include "verify_int.h"

/*
 * BOOT=auto: Debian's kernel for a deb: source, unless an option asks for
 * our own build (a config fragment, objects only); the config
 * step may still fall back when Debian's compiler is missing here.
 */
static int wants_distro_boot(const struct verify_ctx *ctx)
{
	const struct options *opt = ctx->opt;

	if (ctx->t->kind != SRC_DEB || opt->boot == BOOT_OWN)
		return 0;
	if (opt->boot == BOOT_DISTRO)
		return 1;
	return !opt->config && opt->mode == BUILD_KERNEL;
}

/*
 * The pipeline, top to bottom (pipeline.h, which orders enum step_idx
 * too): each step's contract is its own file's const struct step.  needs
 * names the steps whose outputs a step reads: with --keep-going a failure
 * stops only the steps that need it.
 */
static const struct step *const verify_steps[] = {
#define STEP(name) (&name##_step),
#include "steps/pipeline.h"
#undef STEP
};

_Static_assert(ARRAY_SIZE(verify_steps) == NR_STEPS,
	       "verify_steps[]: a step for each line of pipeline.h");
_Static_assert(NR_STEPS <= 32, "needs is a 32-bit mask");
_Static_assert(NR_STEPS <= STEP_OUTPUTS_MAX, "an output for every step");

/* Where @ctx holds @s's output of its own type: its slot, or a free one. */
static struct step_output *own_slot(struct verify_ctx *ctx,
				    const struct step *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ctx->outs); i++)
		if (!ctx->outs[i].step || ctx->outs[i].step == s)
			break;
	if (i == ARRAY_SIZE(ctx->outs))
		abort();	/* a table of more than STEP_OUTPUTS_MAX steps */
	ctx->outs[i].step = s;
	return &ctx->outs[i];
}

/*
 * @s's output before it runs: zero, then what its init_out sets.  An
 * output of its own type is allocated anew: a flavour's copy of the
 * context gets its own, and the pipeline's stays.
 */
static void step_out_init(struct verify_ctx *ctx, const struct step *s)
{
	if (!s->out_size)
		return;
	if (s->out == STEP_OUT_OWN)
		own_slot(ctx, s)->out = xmalloc(s->out_size);
	memset(step_out(ctx, s), 0, s->out_size);
	if (s->init_out)
		s->init_out(step_out(ctx, s));
}

static void step_out_clear(struct verify_ctx *ctx, const struct step *s)
{
	struct step_output *own;

	if (!s->out_size)
		return;
	if (s->clear_out)
		s->clear_out(step_out(ctx, s));
	if (s->out == STEP_OUT_OWN) {
		own = own_slot(ctx, s);
		free(own->out);
		own->out = NULL;
	}
}

const int nr_verify_steps = ARRAY_SIZE(verify_steps);

const char *verify_step_name(int i)
{
	return i >= 0 && i < nr_verify_steps ? verify_steps[i]->name : NULL;
}

int verify_step_source_only(int i)
{
	return i >= 0 && i < nr_verify_steps &&
	       (verify_steps[i]->flags & STEP_SOURCE_ONLY);
}

int verify_step_index(const char *name)
{
	int i;

	for (i = 0; i < nr_verify_steps; i++)
		if (!strcmp(verify_steps[i]->name, name))
			return i;
	return -1;
}

/* The engine's view of one run of the steps (run_steps()). */
struct engine {
	struct verify_ctx *ctx;
	const struct step *const *steps;
	struct step_result *res;
	struct beside *beside;
	int nr;
	/* bits indexing @steps */
	unsigned int failed;	/* failed, or not run for what failed */
	unsigned int pending;	/* running beside, not yet joined */
	unsigned int done;	/* ended, or decided not to run */
	struct strbuf stopped;	/* what stopped the run, "" while none */
};

static void name_result(struct engine *e, int i)
{
	struct step_result *r = &e->res[i];

	r->name = e->steps[i]->name;
	r->log = xstrfmt("%s/logs/%02d-%s.log", e->ctx->results, i,
			 e->steps[i]->name);
}

/* A failure stops the run, unless its step is independent (or -k). */
static void note_failure(struct engine *e, int i)
{
	const struct step *s = e->steps[i];

	if (e->res[i].status != STEP_FAIL && e->res[i].status != STEP_ERROR)
		return;
	e->failed |= 1u << i;
	if (!(s->flags & STEP_INDEPENDENT) && !e->ctx->opt->keep_going &&
	    !e->stopped.len)
		strbuf_addf(&e->stopped, "%s failed", s->name);
}

static void join(struct engine *e, int j)
{
	beside_join(e->ctx, e->steps[j], &e->res[j], &e->beside[j]);
	e->pending &= ~(1u << j);
	e->done |= 1u << j;
	note_failure(e, j);
}

/*
 * Before step @i: the steps beside that it needs, and those above it in
 * the table that are not independent, so that their failure stops it as
 * when the steps run one after another.
 */
static void join_before(struct engine *e, int i)
{
	const struct step *s = e->steps[i];
	int j;

	for (j = 0; j < e->nr; j++) {
		if (!(e->pending & (1u << j)))
			continue;
		if ((s->needs & (1u << j)) ||
		    (j < i && !(e->steps[j]->flags & STEP_INDEPENDENT)))
			join(e, j);
	}
}

/*
 * Start every STEP_BESIDE step whose needs have all passed, however far
 * down the table: cocci runs beside checkpatch, selftests beside config,
 * build and kabi.  make's jobserver counts jobs: none then.
 */
static void start_ready(struct engine *e)
{
	const struct options *opt = e->ctx->opt;
	int k;

	for (k = 0; k < e->nr; k++) {
		const struct step *s = e->steps[k];
		unsigned int bit = 1u << k;

		if (!(s->flags & STEP_BESIDE) || ((e->done | e->pending) & bit) ||
		    (s->needs & ~e->done) || (s->needs & e->failed) ||
		    e->stopped.len || run_interrupted() ||
		    opt->make_jobserver || step_skipped(opt, k) ||
		    (!series_of(e->ctx)->dir &&
		     !(s->flags & STEP_RUNS_WHEN_NA)))
			continue;
		name_result(e, k);
		if (!beside_start(e->ctx, s, &e->res[k], &e->beside[k]))
			e->pending |= bit;
		else
			free(e->res[k].log);
	}
}

/*
 * Whether step @s runs, decided alike for the pipeline's rows and each
 * flavour's: if not, @r says why (its status, reason and skip cause) and
 * the cause is returned; SKIP_NONE: it runs.  @idx: @s's index in the
 * table, which --skip's bits follow; @rows: the row of each step
 * in this walk, as the bits of @failed index them (a flavour's own rows
 * for its config, build, kabi and boot); @failed: the steps that failed or
 * did not run for a failure; @stopped: what stopped the run, or "".
 */
static enum skip_cause step_verdict(const struct verify_ctx *ctx,
				    const struct step *s, int idx,
				    const struct step_result *const *rows,
				    unsigned int failed, const char *stopped,
				    struct step_result *r)
{
	const struct series *se = series_of(ctx);
	int j;

	if (!se->dir && !(s->flags & STEP_RUNS_WHEN_NA)) {
		r->status = STEP_NA;
		strbuf_addstr(&r->reason,
			      se->na_reason ? se->na_reason : "no series");
		return r->skipped = SKIP_NO_SERIES;
	}
	if (run_interrupted() && *stopped) {
		r->status = STEP_SKIP;
		strbuf_addstr(&r->reason, "not run: interrupted");
		return r->skipped = SKIP_INTERRUPTED;
	}
	if (step_skipped(ctx->opt, idx)) {
		/* The user's choice, whatever failed before it. */
		r->status = STEP_SKIP;
		strbuf_addstr(&r->reason, "skipped with --skip");
		return r->skipped = SKIP_USER;
	}
	if (s->needs & failed) {
		for (j = 0; !(s->needs & failed & (1u << j)); j++)
			;
		r->status = STEP_SKIP;
		strbuf_addf(&r->reason, "not run: needs %s, which %s",
			    rows[j]->name, rows[j]->status == STEP_SKIP ?
			    "did not run" : "failed");
		return r->skipped = SKIP_NEEDS;
	}
	if (*stopped) {
		/*
		 * It does not read what failed: it is not run only
		 * because the run stops at the first failure.
		 */
		r->status = STEP_SKIP;
		strbuf_addf(&r->reason, "not run: the run stopped when %s; %s does not need it: --keep-going runs it",
			    stopped, r->name);
		return r->skipped = SKIP_STOPPED;
	}
	return SKIP_NONE;
}

/* Step @i, which runs in the engine or was not started beside. */
static void run_or_skip(struct engine *e, int i)
{
	const struct step_result *rows[32];	/* needs is a 32-bit mask */
	struct step_result *r = &e->res[i];
	int j;

	name_result(e, i);
	e->done |= 1u << i;
	for (j = 0; j < e->nr; j++)
		rows[j] = &e->res[j];
	switch (step_verdict(e->ctx, e->steps[i], i, rows, e->failed,
			     e->stopped.buf, r)) {
	case SKIP_NONE:
		run_one(e->ctx, e->steps[i], r, 1);
		if (run_interrupted() && !e->stopped.len)
			strbuf_addstr(&e->stopped, "interrupted");
		note_failure(e, i);
		break;
	case SKIP_NEEDS:
		e->failed |= 1u << i;
		break;
	default:
		break;
	}
}

/*
 * Run @steps (@nr of them, needs bits indexing @steps) into @res: a step
 * the user skipped, one that needs what failed or did not run, or one
 * after the first failure (without --keep-going, unless that failure's
 * step is independent) is not run, and says why.  A STEP_BESIDE step
 * runs in a process of its own from the moment its needs have passed,
 * beside the engine's steps (join_before() says when it is waited for).
 */
static void run_steps(struct verify_ctx *ctx, const struct step *const *steps,
		      int nr, struct step_result *res)
{
	struct engine e = {
		.ctx = ctx, .steps = steps, .res = res, .nr = nr,
		.beside = xmalloc(nr * sizeof(struct beside)),
		.stopped = STRBUF_INIT,
	};
	int i;

	for (i = 0; i < nr; i++) {
		join_before(&e, i);
		if ((e.pending | e.done) & (1u << i))
			continue;
		run_or_skip(&e, i);
		start_ready(&e);
	}
	for (i = 0; i < nr; i++)
		if (e.pending & (1u << i))
			join(&e, i);
	free(e.beside);
	strbuf_release(&e.stopped);
}

/*
 * --flavours' others: config, build, kabi and boot once more for each,
 * with Debian's packages of that flavour, in rows "<step>:<flavour>" after
 * the pipeline's.  What they need of the pipeline (fetch, apply, selftests)
 * is the pipeline's; what they need of each other, the flavour's own.
 */
static const int flavour_steps[] = {
	STEP_IDX_config, STEP_IDX_build, STEP_IDX_kabi, STEP_IDX_boot
};
#define FLAVOUR_STEPS_MASK (NEEDS(STEP_IDX_config) | NEEDS(STEP_IDX_build) | \
			    NEEDS(STEP_IDX_kabi) | NEEDS(STEP_IDX_boot))

/*
 * What stopped the pipeline (run_steps()), for the flavours' rows: an
 * interrupt, or the first failure of a step that is not independent,
 * without --keep-going; "" when none did, or when it was amd64's own
 * config, build, kabi or boot, which do not stop the other flavours.
 */
static void pipeline_stop(const struct verify_ctx *ctx,
			  const struct step_result *res, struct strbuf *out)
{
	int i;

	if (run_interrupted()) {
		strbuf_addstr(out, "interrupted");
		return;
	}
	for (i = 0; i < nr_verify_steps && !ctx->opt->keep_going; i++) {
		if ((res[i].status != STEP_FAIL &&
		     res[i].status != STEP_ERROR) ||
		    (verify_steps[i]->flags & STEP_INDEPENDENT))
			continue;
		if (!(FLAVOUR_STEPS_MASK & (1u << i)))
			strbuf_addf(out, "%s failed", verify_steps[i]->name);
		return;
	}
}

/* The flavours after amd64 into @out, an array to free; their number. */
static size_t other_flavours(const struct options *opt,
			     const struct flavour ***out)
{
	char *copy, *f, *save = NULL;
	size_t n = 1;

	*out = NULL;
	if (!opt->flavours)
		return 0;
	copy = xstrdup(opt->flavours);
	for (f = copy; *f; f++)
		n += *f == ',';
	*out = xmalloc(n * sizeof(**out));
	n = 0;
	for (f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		const struct flavour *fl = flavour_find(f);

		if (fl && !fl->pipeline)
			(*out)[n++] = fl;
	}
	free(copy);
	return n;
}

/*
 * What a flavour's rows cannot have of the pipeline's other steps: those
 * that failed or did not run for a failure (a need, or the run's stop).
 */
static unsigned int pipeline_missing(const struct step_result *res)
{
	unsigned int missing = 0;
	int j;

	for (j = 0; j < nr_verify_steps; j++)
		if (!(FLAVOUR_STEPS_MASK & (1u << j)) &&
		    (res[j].status == STEP_FAIL ||
		     res[j].status == STEP_ERROR ||
		     res[j].skipped == SKIP_NEEDS ||
		     res[j].skipped == SKIP_STOPPED ||
		     res[j].skipped == SKIP_INTERRUPTED))
			missing |= 1u << j;
	return missing;
}

/*
 * @stopped: what stopped the run, when a step the flavours share did; a
 * failure of amd64's own config, build, kabi or boot does not stop the
 * other flavours, which check the same series on another kernel.
 */
static void run_flavour(struct verify_ctx *ctx, const struct flavour *fl,
			struct step_result *res, int first,
			const char *stopped)
{
	const char *flavour = fl->name;
	struct verify_ctx fc = *ctx;
	unsigned int failed = pipeline_missing(res);
	const struct step_result *rows[NR_STEPS];
	struct strbuf stop = STRBUF_INIT;
	size_t i;
	int j;

	strbuf_addstr(&stop, stopped);
	for (j = 0; j < nr_verify_steps; j++)
		rows[j] = &res[j];
	for (i = 0; i < ARRAY_SIZE(flavour_steps); i++)
		rows[flavour_steps[i]] = &res[first + i];

	for (i = 0; i < ARRAY_SIZE(flavour_steps); i++)
		step_out_init(&fc, verify_steps[flavour_steps[i]]);
	fc.flavour = fl;
	fc.build = cache_path(ctx, "build/%s-debian@%s", ctx->t->name, flavour);
	fc.kvm_tree = cache_path(ctx, "trees/%s@%s", ctx->t->name, flavour);
	fs_guard(fc.build);
	fs_guard(fc.kvm_tree);
	fc.results = xstrfmt("%s/%s", ctx->results, flavour);
	mkdir_p(fc.results);
	for (i = 0; i < ARRAY_SIZE(flavour_steps); i++) {
		int k = flavour_steps[i];
		const struct step *s = verify_steps[k];
		struct step_result *r = &res[first + i];
		char *name = xstrfmt("%s:%s", s->name, flavour);

		r->name = name;
		r->log = xstrfmt("%s/logs/%02d-%s-%s.log", ctx->results,
				 first + (int)i, s->name, flavour);
		if (series_of(ctx)->dir && (!ctx->kernel_ops->prebuilt ||
		    (ctx->config.boot_why && k != STEP_IDX_config))) {
			r->status = STEP_NA;
			r->skipped = SKIP_KERNEL;
			strbuf_addf(&r->reason, "%s is one of Debian's kernels, which only BOOT=distro (or auto, with Debian's compiler here) builds against: this run %s",
				    flavour, ctx->config.boot_why ?
				    ctx->config.boot_why : "boots its own kernel");
			continue;
		}
		if (series_of(ctx)->dir && fc.config.boot_why &&
		    k != STEP_IDX_config) {
			r->status = STEP_NA;
			r->skipped = SKIP_KERNEL;
			strbuf_addf(&r->reason, "config:%s: %s", flavour,
				    fc.config.boot_why);
			continue;
		}
		if (run_interrupted() && !stop.len)
			strbuf_addstr(&stop, "interrupted");
		switch (step_verdict(ctx, s, k, rows, failed, stop.buf, r)) {
		case SKIP_NONE:
			run_one(&fc, s, r, 1);
			if (r->status == STEP_FAIL || r->status == STEP_ERROR)
				failed |= 1u << k;
			break;
		case SKIP_NEEDS:
			failed |= 1u << k;
			break;
		default:
			break;
		}
	}
	strbuf_release(&stop);
	free(fc.build);
	free(fc.kvm_tree);
	free(fc.results);
	for (i = 0; i < ARRAY_SIZE(flavour_steps); i++)
		step_out_clear(&fc, verify_steps[flavour_steps[i]]);
}

static void ctx_clear(struct verify_ctx *ctx)
{
	int i;

	free(ctx->repo);
	free(ctx->results);
	free(ctx->tree);
	free(ctx->build);
	series_clear(&ctx->listed);
	for (i = 0; i < nr_verify_steps; i++)
		step_out_clear(ctx, verify_steps[i]);
}

static int setup(struct verify_ctx *ctx, struct strbuf *err)
{
	char *p;
	int i, ret = 0;

	for (i = 0; i < nr_verify_steps; i++)
		step_out_init(ctx, verify_steps[i]);
	ctx->repo = abspath(".");
	ctx->cache = ctx->opt->cache;
	p = abspath(ctx->opt->results);
	ctx->results = xstrfmt("%s/%s", p, ctx->t->name);
	free(p);
	ctx->tree = cache_path(ctx, "trees/%s", ctx->t->name);
	ctx->flavour = flavour_pipeline();
	ctx->kvm_tree = ctx->tree;
	ctx->kernel_ops = wants_distro_boot(ctx) ? &debian_kernel :
			  distro_config(ctx->opt) ? &distro_config_kernel :
			  &own_kernel;
	ctx->build = cache_path(ctx, ctx->kernel_ops->build_dir, ctx->t->name);
	/* what an earlier run's sandbox wrote (lib/guard.c) */
	fs_guard(ctx->tree);
	fs_guard(ctx->build);
	if (ctx->t->series) {
		char *where = xstrfmt("%s:%d", ctx->opt->list, ctx->t->line);

		ret = series_load(&ctx->listed, ctx->repo, ctx->t->series,
				  where, err);
		free(where);
		if (ret)
			return -1;
	}
	if (ctx->t->na_reason)
		ctx->listed.na_reason = xstrdup(ctx->t->na_reason);
	return 0;
}

/*
 * results/<target>, emptied for this run: only under the target's lock, so
 * that a second run never deletes what the first one is writing.
 */
/*
 * The reports of the last complete run (report.json, junit.xml,
 * kcidb.json) stay in results/<target>/ until this run completes: an
 * interrupted one writes its own beside them (report.interrupted.json).
 */
static int last_complete_report(const char *name)
{
	static const char *const kept[] = {
		"report.json", "junit.xml", "kcidb.json",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kept); i++)
		if (!strcmp(name, kept[i]))
			return 1;
	return 0;
}

/* results/<target>/ emptied, but for the last complete run's reports. */
static int fresh_results(struct verify_ctx *ctx, struct strbuf *err)
{
	char *logs = xstrfmt("%s/logs", ctx->results);
	DIR *d = opendir(ctx->results);
	struct dirent *e;
	int ret;

	while (d && (e = readdir(d))) {
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    last_complete_report(e->d_name))
			continue;
		path = xstrfmt("%s/%s", ctx->results, e->d_name);
		rm_rf(path);
		free(path);
	}
	if (d)
		closedir(d);
	ret = mkdir_p(logs);
	if (ret)
		strbuf_addf(err, "cannot create %s: %s\n", logs,
			    strerror(errno));
	free(logs);
	return ret;
}

/* @text: the table on stdout too (verify_target()'s, not the outcome's) */
static int write_reports(struct verify_ctx *ctx, struct step_result *res,
			 int n, int text)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	/* A complete run's reports replace the last one's, all of them. */
	if (!ctx->interrupted && !ctx->opt->kcidb) {
		char *kcidb = xstrfmt("%s/kcidb.json", ctx->results);

		unlink(kcidb);
		free(kcidb);
	}
	if (text)
		report_text(ctx, res, n);
	if (report_json(ctx, res, n, &err) ||
	    report_junit(ctx, res, n, &err) ||
	    (ctx->opt->kcidb &&
	     report_kcidb(ctx, res, n, &err))) {
		error("%s", err.buf);
		ret = 1;
	}
	strbuf_release(&err);
	return ret;
}

static void clear_results(struct step_result *res, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		strbuf_release(&res[i].reason);
		strbuf_release(&res[i].detail);
		free(res[i].log);
		if (i >= nr_verify_steps)	/* "<step>:<flavour>" */
			free((char *)res[i].name);
	}
	free(res);
}

void verify_outcome_clear(struct verify_outcome *out)
{
	clear_results(out->res, out->nr);
	free(out->variant);
	free(out->na_reason);
	free(out->src_key);
	free(out->src);
	memset(out, 0, sizeof(*out));
}

/* What the run found, its results moved to @out: theirs now. */
static void take_outcome(const struct verify_ctx *ctx,
			 struct step_result **res, int n,
			 struct verify_outcome *out)
{
	const struct series *s = series_of(ctx);
	const struct source *src = &ctx->fetch.source;

	out->res = *res;
	out->nr = n;
	*res = NULL;
	out->variant = s->rel ? xstrdup(s->rel) : NULL;
	out->na_reason = s->na_reason ? xstrdup(s->na_reason) : NULL;
	out->src_key = src->src_key ? xstrdup(src->src_key) : NULL;
	out->src = src->src ? xstrdup(src->src) : NULL;
}

int verify_target(const struct target *t, const struct options *opt)
{
	return verify_target_outcome(t, opt, NULL);
}

int verify_target_outcome(const struct target *t, const struct options *opt,
			  struct verify_outcome *out)
{
	const struct flavour **flavours = NULL;
	struct strbuf stopped = STRBUF_INIT;
	struct step_result *res;
	struct verify_ctx ctx = { .t = t, .opt = opt };
	struct strbuf err = STRBUF_INIT;
	int i, n, lockfd = -1, fail = 0, errored = 0;
	enum exit_code ret = EXIT_USAGE;
	size_t f, nr_flavours;

	nr_flavours = other_flavours(opt, &flavours);
	n = nr_verify_steps + nr_flavours *
	    ARRAY_SIZE(flavour_steps);
	res = xmalloc(n * sizeof(*res));
	for (i = 0; i < n; i++)
		res[i] = (struct step_result)STEP_RESULT_INIT(NULL);
	if (setup(&ctx, &err)) {
		fputs(err.buf, stderr);
		goto out;
	}
	/* A bundle leaves the machine: no placeholder identity goes along. */
	if (opt->bundle && ident_refuse_patches(&ctx.listed.patches, t->name))
		goto out;
	if (lock_in_cache(ctx.cache, !opt->no_wait, &lockfd, &err, "%s.lock",
			  t->name)) {
		error("%s: %s", t->name, err.buf);
		ret = EXIT_TOOL;
		goto out;
	}
	if (fresh_results(&ctx, &err)) {
		fputs(err.buf, stderr);
		goto out;
	}
	/* Every process the run starts holds the lock too. */
	lock_inherit(lockfd);
	ctx.started = time(NULL);
	run_steps(&ctx, verify_steps, nr_verify_steps, res);
	pipeline_stop(&ctx, res, &stopped);
	for (f = 0; f < nr_flavours; f++)
		run_flavour(&ctx, flavours[f], res,
			    nr_verify_steps + f * ARRAY_SIZE(flavour_steps),
			    stopped.buf);
	ctx.finished = time(NULL);
	ctx.interrupted = !!run_interrupted();
	for (i = 0; i < n; i++) {
		fail |= res[i].status == STEP_FAIL;
		errored |= res[i].status == STEP_ERROR;
	}
	ret = fail ? EXIT_FAIL : errored ? EXIT_TOOL : EXIT_PASS;
	if (write_reports(&ctx, res, n, !out))
		ret = exit_worse(ret, EXIT_TOOL);
	if (opt->bundle && ret == EXIT_PASS && selftests_of(&ctx)->bins.nr &&
	    write_bundle(&ctx))
		ret = EXIT_TOOL;
	if (run_interrupted())
		ret = EXIT_INTERRUPTED;
	if (out)
		take_outcome(&ctx, &res, n, out);
out:
	unlock_file(lockfd);
	if (res)
		clear_results(res, n);
	free(flavours);
	strbuf_release(&stopped);
	strbuf_release(&err);
	ctx_clear(&ctx);
	return ret;
}
