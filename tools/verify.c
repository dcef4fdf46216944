// SPDX-License-Identifier: GPL-2.0
/*
 * verify: run the steps of verify_steps[] in order for one target.  Each
 * step has its own log, wall time, timeout and status; a failed step makes
 * the later ones SKIP, and --skip names steps not to run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exitcode.h"
#include "fsutil.h"
#include "ident.h"
#include "verify.h"

static char *default_cache(void);

/*
 * The pipeline, top to bottom.  Adding a step is adding a line.  The last
 * column names the steps whose results a step uses: with --keep-going a
 * failure stops only the steps that need it.
 */
#define NEEDS(s) (1u << STEP_IDX_##s)
enum {
	STEP_IDX_fetch, STEP_IDX_tree, STEP_IDX_apply, STEP_IDX_sim,
	STEP_IDX_checkpatch, STEP_IDX_cocci, STEP_IDX_config, STEP_IDX_build,
	STEP_IDX_kabi,
	STEP_IDX_selftests, STEP_IDX_boot,
};

const struct step verify_steps[] = {
	{ "fetch",	fetch_source,		3600,	1,	0, 0 },
	{ "tree",	prepare_tree,		900,	0,	0, NEEDS(fetch) },
	{ "apply",	apply_series,		300,	0,	0, NEEDS(tree) },
	{ "sim",	run_sim,		300,	0,	1, NEEDS(apply) },
	{ "checkpatch",	run_checkpatch,		600,	0,	0, NEEDS(apply) },
	{ "cocci",	check_cocci,		300,	1,	0, NEEDS(fetch) },
	{ "config",	configure_kernel,	600,	0,	0, NEEDS(apply) },
	{ "build",	build_kernel,		5400,	0,	0, NEEDS(config) },
	{ "kabi",	check_kabi,		300,	0,	0, NEEDS(build) },
	{ "selftests",	build_selftests,	1800,	0,	0, NEEDS(build) },
	{ "boot",	boot_and_test,		1800,	0,	0,
	  NEEDS(build) | NEEDS(selftests) },
};

const int nr_verify_steps = ARRAY_SIZE(verify_steps);

const char *step_status_name(enum step_status s)
{
	static const char *const names[] = {
		[STEP_PASS] = "PASS", [STEP_FAIL] = "FAIL",
		[STEP_SKIP] = "SKIP", [STEP_NA] = "N-A",
		[STEP_ERROR] = "ERROR",
	};

	return names[s];
}

char *cache_path(const struct verify_ctx *ctx, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s/", ctx->cache);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return sb.buf;
}

/* CONFIG=distro: Debian's own configuration, arch/x86/kvm objects only. */
int distro_config(const struct options *opt)
{
	return opt->config && !strcmp(opt->config, "distro");
}

/*
 * BOOT=distro: Debian's own kernel boots, with the patched KVM modules;
 * only deb: sources have one, the others keep our own kernel.
 */
int distro_boot(const struct verify_ctx *ctx)
{
	return ctx->boot_distro;
}

/*
 * BOOT=auto: Debian's kernel for a deb: source, unless an option asks for
 * our own build (a config fragment, objects only, a lab bundle); the config
 * step may still fall back when Debian's compiler is missing here.
 */
static int wants_distro_boot(const struct verify_ctx *ctx)
{
	const struct options *opt = ctx->opt;

	if (ctx->t->kind != SRC_DEB || opt->boot == BOOT_OWN)
		return 0;
	if (opt->boot == BOOT_DISTRO)
		return 1;
	return !opt->config && opt->mode == BUILD_KERNEL && !opt->bundle;
}

/* BOOT=auto found no Debian compiler: our own kernel, in its build dir. */
void boot_own_instead(struct verify_ctx *ctx, const char *why)
{
	ctx->boot_distro = 0;
	free(ctx->boot_why);
	ctx->boot_why = xstrdup(why);
	free(ctx->build);
	ctx->build = cache_path(ctx, "build/%s", ctx->t->name);
}

/* Where the fetch step keeps Debian's amd64 config of this source. */
char *distro_config_path(const struct verify_ctx *ctx)
{
	return cache_path(ctx, "src/%s.config-amd64", ctx->src_key);
}

/* The last @lines lines of @log, into r->detail. */
void step_fail_tail(struct step_result *r, const char *log, int lines)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int n = 0;

	if (!log || strbuf_read_file(&sb, log, 64 << 20) < 0 || !sb.len)
		goto out;
	for (i = sb.len - 1; i > 0; i--)
		if (sb.buf[i - 1] == '\n' && ++n >= lines)
			break;
	strbuf_reset(&r->detail);
	strbuf_add(&r->detail, sb.buf + i, sb.len - i);
out:
	strbuf_release(&sb);
}

/* Run @c with the step's log and timeout; on failure say why in @r. */
int step_run(struct verify_ctx *ctx, struct step_result *r, struct child *c)
{
	int ret;

	if (!c->log)
		c->log = ctx->log;
	if (!c->timeout)
		c->timeout = ctx->step->timeout;
	ret = run_child(c);
	if (ret) {
		strbuf_reset(&r->reason);
		child_describe_failure(c, &r->reason);
		step_fail_tail(r, ctx->log, 20);
		note_enospc(r);
	}
	return ret;
}

/* A tool that ran out of disk says so in its output; say it in the reason. */
void note_enospc(struct step_result *r)
{
	if (strstr(strbuf_str(&r->detail), "No space left on device"))
		strbuf_addstr(&r->reason,
			      "; no space left on device (cache or results)");
}

static int jobserver_active(void)
{
	const char *mf = getenv("MAKEFLAGS");

	return mf && (strstr(mf, "--jobserver-auth=") ||
		      strstr(mf, "--jobserver-fds="));
}

/* -jN, unless make's jobserver reached us: then the sub-make shares it. */
void make_jobs(const struct verify_ctx *ctx, struct child *c)
{
	long n = ctx->opt->jobs ? ctx->opt->jobs : sysconf(_SC_NPROCESSORS_ONLN);

	if (!jobserver_active() || ctx->opt->jobs)
		strvec_pushf(&c->args, "-j%ld", n > 0 ? n : 1);
}

/*
 * The kernel's compilers: make's KCC=/KHOSTCC= (distcc, icecream), else
 * with CCACHE=1 ccache in front of gcc.  Opt-in, because kbuild records
 * the compiler command: switching an existing O= directory to ccache
 * rebuilds it all.
 */
static int kernel_compilers(const struct options *opt, struct child *c)
{
	int ccache = opt->ccache && path_has("ccache");

	if (opt->kernel_cc)
		strvec_pushf(&c->args, "CC=%s", opt->kernel_cc);
	else if (ccache)
		strvec_push(&c->args, "CC=ccache gcc");
	if (opt->kernel_hostcc)
		strvec_pushf(&c->args, "HOSTCC=%s", opt->kernel_hostcc);
	else if (ccache)
		strvec_push(&c->args, "HOSTCC=ccache gcc");
	return ccache && !opt->kernel_cc;
}

/*
 * "make -C <tree> O=<build> -jN" with a reproducible build identity;
 * returns whether ccache compiles.
 */
int make_args(const struct verify_ctx *ctx, struct child *c)
{
	strvec_pushl(&c->args, "make", "-C", ctx->tree, NULL);
	strvec_pushf(&c->args, "O=%s", ctx->build);
	make_jobs(ctx, c);
	strvec_push(&c->env, "KBUILD_BUILD_TIMESTAMP=2026-01-01");
	strvec_push(&c->env, "KBUILD_BUILD_USER=kverify");
	strvec_push(&c->env, "KBUILD_BUILD_HOST=kverify");
	return kernel_compilers(ctx->opt, c);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int skipped_by_option(const struct options *opt, const char *name)
{
	const char *s = opt->skip;
	size_t n = strlen(name);

	while (s && *s) {
		if (!strncmp(s, name, n) && (s[n] == ',' || !s[n]))
			return 1;
		s = strchr(s, ',');
		s = s ? s + 1 : NULL;
	}
	return 0;
}

char *cache_dir(const struct options *opt)
{
	return opt->cache ? abspath(opt->cache) : default_cache();
}

static char *default_cache(void)
{
	const char *env = getenv("KVERIFY_CACHE"), *xdg, *home;

	if (env && *env)
		return abspath(env);
	xdg = getenv("XDG_CACHE_HOME");
	if (xdg && *xdg)
		return xstrfmt("%s/kverify", xdg);
	home = getenv("HOME");
	return xstrfmt("%s/.cache/kverify", home && *home ? home : "/tmp");
}

/*
 * Read <series>/series: patch names, in order; 0, or with @err set -1 when
 * it or a patch is missing, -2 when a patch names a file outside the tree.
 */
int load_series(struct verify_ctx *ctx, const char *rel, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *file, *line, *save = NULL;
	int ret = -1;

	ctx->series_rel = xstrdup(rel);
	ctx->series = xstrfmt("%s/%s", ctx->repo, rel);
	file = xstrfmt("%s/series", ctx->series);
	if (strbuf_read_file(&sb, file, 1 << 20) < 0) {
		strbuf_addf(err, "%s:%d: series directory '%s' has no readable series file (%s): create it or fix the SERIES field\n",
			    ctx->opt->list, ctx->t->line, rel, strerror(errno));
		goto out;
	}
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strpbrk(line, " \t"), *patch;

		if (sp)
			*sp = '\0';
		if (!*line || *line == '#')
			continue;
		patch = xstrfmt("%s/%s", ctx->series, line);
		if (strstr(line, "..") || !is_file(patch)) {
			strbuf_addf(err, "%s: patch '%s' listed in the series is missing\n",
				    file, line);
			free(patch);
			goto out;
		}
		strvec_push(&ctx->patches, patch);
		free(patch);
		if (series_check_names(ctx->patches.v[ctx->patches.nr - 1],
				       err)) {
			ret = -2;
			goto out;
		}
	}
	ret = 0;
out:
	free(file);
	strbuf_release(&sb);
	return ret;
}

/*
 * A failure that says nothing about the patch: the machine or a tool
 * failed (no disk, a missing tool, an interrupt), or the source could not
 * be had.  KCIDB and report.json call it ERROR.
 */
static int is_error(int idx, const struct step_result *r)
{
	const char *why = strbuf_str(&r->reason);

	return run_interrupted() || idx == STEP_IDX_tree ||
	       strstr(why, " not found: install it with ") ||
	       strstr(why, "no space left on device");
}

/* Progress: objects compiled so far, from kbuild's "  CC  x.o" lines. */
struct progress {
	struct verify_ctx *ctx;
	const char *step;
	double t0, last, every;
	long objects, total;
	off_t off;
	int tty, shown;
};

/* Count the complete new lines of the step's log that kbuild's CC/AS print. */
static void count_objects(struct progress *p)
{
	char buf[65536];
	ssize_t n, i, bol;
	int fd = p->ctx->log ? open(p->ctx->log, O_RDONLY | O_CLOEXEC) : -1;

	if (fd < 0)
		return;
	while ((n = pread(fd, buf, sizeof(buf), p->off)) > 0) {
		for (bol = 0, i = 0; i < n; i++) {
			if (buf[i] != '\n')
				continue;
			if (i - bol >= 5 && (!memcmp(buf + bol, "  CC ", 5) ||
					     !memcmp(buf + bol, "  AS ", 5)))
				p->objects++;
			bol = i + 1;
		}
		if (!bol && n < (ssize_t)sizeof(buf))
			break;		/* a line still being written */
		p->off += bol ? bol : n;	/* or one longer than buf */
	}
	close(fd);
}

static void progress_tick(void *arg)
{
	struct progress *p = arg;
	double t = now();
	long el;

	if (t - p->last < p->every)
		return;
	p->last = t;
	count_objects(p);
	el = (long)(t - p->t0);
	fprintf(stderr, "%skverify: %s: %s: %ldm%02lds", p->tty ? "\r\033[K" : "",
		p->ctx->t->name, p->step, el / 60, el % 60);
	if (p->objects && p->total >= p->objects)
		fprintf(stderr, ", %ld/%ld objects compiled", p->objects,
			p->total);
	else if (p->objects)
		fprintf(stderr, ", %ld objects compiled", p->objects);
	fputs(p->tty ? "" : "\n", stderr);
	p->shown = 1;
}

/* How many objects the last build of this tree compiled: the progress total. */
static char *objects_memo(const struct verify_ctx *ctx)
{
	return xstrfmt("%s.kverify-objects", ctx->build);
}

static void progress_start(struct progress *p, struct verify_ctx *ctx,
			   const char *step)
{
	struct strbuf sb = STRBUF_INIT;
	char *memo = objects_memo(ctx);

	memset(p, 0, sizeof(*p));
	p->ctx = ctx;
	p->step = step;
	p->t0 = p->last = now();
	/*
	 * On a TTY one line updated every second, else a line every 30 s.
	 * Under make's jobserver (make -jN verify-all) other targets share
	 * the terminal: lines, not one line rewritten by all of them.
	 */
	p->tty = isatty(STDERR_FILENO) && !jobserver_active();
	p->every = p->tty ? 1 : 30;
	if (getenv("KVERIFY_TEST_PROGRESS_SECONDS"))
		p->every = atof(getenv("KVERIFY_TEST_PROGRESS_SECONDS"));
	if (p->every <= 0)
		p->every = 1;
	if (strbuf_read_file(&sb, memo, 64) > 0)
		p->total = atol(sb.buf);
	strbuf_release(&sb);
	free(memo);
	if (!ctx->opt->quiet)
		run_set_tick(progress_tick, p);
}

static void progress_end(struct progress *p, enum step_status st)
{
	run_set_tick(NULL, NULL);
	if (p->shown && p->tty)
		fputs("\r\033[K", stderr);
	if (st == STEP_PASS && !strcmp(p->step, "build")) {
		char *memo = objects_memo(p->ctx), *n;

		count_objects(p);
		n = xstrfmt("%ld\n", p->objects);
		if (p->objects > p->total)
			write_file_atomic(memo, n, strlen(n));
		free(n);
		free(memo);
	}
}

static void run_steps(struct verify_ctx *ctx, struct step_result *res)
{
	struct strbuf stopped = STRBUF_INIT;
	unsigned int failed = 0;
	struct progress prog;
	int i, j;

	for (i = 0; i < nr_verify_steps; i++) {
		const struct step *s = &verify_steps[i];
		struct step_result *r = &res[i];
		double t0 = now();

		r->log = xstrfmt("%s/logs/%02d-%s.log", ctx->results, i,
				 s->name);
		if (!ctx->series && !s->runs_when_na) {
			r->status = STEP_NA;
			strbuf_addstr(&r->reason, ctx->na_reason ?
				      ctx->na_reason : "no series");
		} else if (stopped.len) {
			r->status = STEP_SKIP;
			strbuf_addf(&r->reason, "not run: %s", stopped.buf);
		} else if (s->needs & failed) {
			for (j = 0; !(s->needs & failed & (1u << j)); j++)
				;
			r->status = STEP_SKIP;
			strbuf_addf(&r->reason, "not run: needs %s, which %s",
				    verify_steps[j].name,
				    res[j].status == STEP_SKIP ? "did not run" :
				    "failed");
			failed |= 1u << i;
		} else if (skipped_by_option(ctx->opt, s->name)) {
			r->status = STEP_SKIP;
			strbuf_addstr(&r->reason, "skipped with --skip");
		} else {
			ctx->step = s;
			ctx->log = r->log;
			if (!ctx->opt->quiet)
				fprintf(stderr, "kverify: %s: %s ...\n",
					ctx->t->name, s->name);
			progress_start(&prog, ctx, s->name);
			r->status = s->run(ctx, r);
			progress_end(&prog, r->status);
			r->seconds = now() - t0;
			if (run_interrupted()) {
				r->status = STEP_ERROR;
				strbuf_reset(&r->reason);
				strbuf_addstr(&r->reason, "interrupted");
				strbuf_addstr(&stopped, "interrupted");
			} else if (r->status == STEP_FAIL && is_error(i, r)) {
				r->status = STEP_ERROR;
			}
			if (r->status != STEP_FAIL && r->status != STEP_ERROR)
				continue;
			failed |= 1u << i;
			if (!s->independent && !ctx->opt->keep_going &&
			    !stopped.len)
				strbuf_addf(&stopped, "%s failed", s->name);
		}
	}
	strbuf_release(&stopped);
}

static void ctx_clear(struct verify_ctx *ctx)
{
	free(ctx->repo);
	free(ctx->cache);
	free(ctx->src);
	free(ctx->src_key);
	free(ctx->tree);
	free(ctx->build);
	free(ctx->results);
	free(ctx->series);
	free(ctx->series_rel);
	free(ctx->na_reason);
	free(ctx->selftest_arch);
	free(ctx->accel);
	free(ctx->sim_era);
	free(ctx->kernel_release);
	strbuf_release(&ctx->sim_figures);
	free(ctx->deb_version);
	free(ctx->deb_abi);
	free(ctx->deb_root);
	free(ctx->deb_image);
	free(ctx->kbuild);
	free(ctx->toolchain);
	free(ctx->kernel);
	free(ctx->boot_why);
	strvec_clear(&ctx->patches);
	strvec_clear(&ctx->selftests);
	strvec_clear(&ctx->new_tests);
	ktap_clear(&ctx->tests);
}

static int setup(struct verify_ctx *ctx, struct strbuf *err)
{
	char *p;
	int ret = 0;

	ctx->repo = abspath(".");
	ctx->cache = ctx->opt->cache ? abspath(ctx->opt->cache) :
				       default_cache();
	p = abspath(ctx->opt->results);
	ctx->results = xstrfmt("%s/%s", p, ctx->t->name);
	free(p);
	ctx->tree = cache_path(ctx, "trees/%s", ctx->t->name);
	ctx->boot_distro = wants_distro_boot(ctx);
	ctx->build = cache_path(ctx, distro_boot(ctx) ? "build/%s-debian" :
				distro_config(ctx->opt) ? "build/%s-distro" :
				"build/%s", ctx->t->name);
	if (ctx->t->series && load_series(ctx, ctx->t->series, err))
		return -1;
	if (ctx->t->na_reason)
		ctx->na_reason = xstrdup(ctx->t->na_reason);
	p = cache_path(ctx, "locks");
	ret = mkdir_p(p);
	free(p);
	if (ret)
		strbuf_addf(err, "cannot create %s/locks: %s\n", ctx->cache,
			    strerror(errno));
	return ret;
}

/*
 * results/<target>, emptied for this run: only under the target's lock, so
 * that a second run never deletes what the first one is writing.
 */
static int fresh_results(struct verify_ctx *ctx, struct strbuf *err)
{
	char *logs = xstrfmt("%s/logs", ctx->results);
	int ret;

	rm_rf(ctx->results);
	ret = mkdir_p(logs);
	if (ret)
		strbuf_addf(err, "cannot create %s: %s\n", logs,
			    strerror(errno));
	free(logs);
	return ret;
}

static int write_reports(struct verify_ctx *ctx, struct step_result *res)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (ctx->opt->on_result)
		ctx->opt->on_result(ctx, res, nr_verify_steps,
				    ctx->opt->on_result_data);
	else
		report_text(ctx, res, nr_verify_steps);
	if (report_json(ctx, res, nr_verify_steps, &err) ||
	    report_junit(ctx, res, nr_verify_steps, &err) ||
	    (ctx->opt->kcidb &&
	     report_kcidb(ctx, res, nr_verify_steps, &err))) {
		fprintf(stderr, "kverify: %s\n", strbuf_str(&err));
		ret = 1;
	}
	strbuf_release(&err);
	return ret;
}

/* Only the fetch step, for the b4 workflow: the pristine tree of @t. */
int fetch_only(const struct target *t, const struct options *opt,
	       char **src, char **key)
{
	struct verify_ctx ctx = { .t = t, .opt = opt };
	struct step_result r = { 0 };
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	if (setup(&ctx, &err) || fresh_results(&ctx, &err)) {
		fputs(strbuf_str(&err), stderr);
		goto out;
	}
	ctx.step = &verify_steps[0];
	ctx.log = xstrfmt("%s/logs/00-fetch.log", ctx.results);
	if (fetch_source(&ctx, &r) == STEP_PASS) {
		*src = xstrdup(ctx.src);
		*key = xstrdup(ctx.src_key);
		ret = 0;
	} else {
		fprintf(stderr, "kverify: %s: fetch: %s\n", t->name,
			strbuf_str(&r.reason));
	}
	free(ctx.log);
out:
	strbuf_release(&r.reason);
	strbuf_release(&r.detail);
	strbuf_release(&err);
	ctx_clear(&ctx);
	return ret;
}

int verify_target(const struct target *t, const struct options *opt)
{
	struct step_result res[ARRAY_SIZE(verify_steps)];
	struct verify_ctx ctx = {
		.t = t, .opt = opt, .ccache_hits = -1, .ccache_misses = -1,
	};
	struct strbuf err = STRBUF_INIT;
	int i, lockfd = -1, fail = 0, error = 0;
	enum exit_code ret = EXIT_USAGE;
	char *lock;

	memset(res, 0, sizeof(res));
	if (setup(&ctx, &err)) {
		fputs(strbuf_str(&err), stderr);
		goto out;
	}
	/* A bundle leaves the machine: no placeholder identity goes along. */
	if (opt->bundle && ident_refuse_patches(&ctx.patches, t->name))
		goto out;
	lock = cache_path(&ctx, "locks/%s.lock", t->name);
	if (lock_file(lock, !opt->no_wait, &lockfd, &err)) {
		fprintf(stderr, "kverify: %s: %s\n", t->name, strbuf_str(&err));
		free(lock);
		ret = EXIT_TOOL;
		goto out;
	}
	free(lock);
	if (fresh_results(&ctx, &err)) {
		fputs(strbuf_str(&err), stderr);
		goto out;
	}
	/* Every process the run starts holds the lock too. */
	lock_inherit(lockfd);
	ctx.started = time(NULL);
	run_steps(&ctx, res);
	ctx.finished = time(NULL);
	for (i = 0; i < nr_verify_steps; i++) {
		fail |= res[i].status == STEP_FAIL;
		error |= res[i].status == STEP_ERROR;
	}
	ret = fail ? EXIT_FAIL : error ? EXIT_TOOL : EXIT_PASS;
	if (write_reports(&ctx, res))
		ret = exit_worse(ret, EXIT_TOOL);
	if (opt->bundle && ret == EXIT_PASS && ctx.selftests.nr &&
	    write_bundle(&ctx))
		ret = EXIT_TOOL;
	if (run_interrupted())
		ret = EXIT_INTERRUPTED;
out:
	unlock_file(lockfd);
	for (i = 0; i < nr_verify_steps; i++) {
		strbuf_release(&res[i].reason);
		strbuf_release(&res[i].detail);
		free(res[i].log);
	}
	strbuf_release(&err);
	ctx_clear(&ctx);
	return ret;
}
