// SPDX-License-Identifier: GPL-2.0
/*
 * make sweep: every linux-source-X.Y version the Debian suites offer,
 * through the verify pipeline's steps that need no kernel build (fetch,
 * tree, apply, sim, checkpatch, cocci) with SERIES "auto".  Each version is
 * a synthetic target, "deb:linux-source-X.Y=VERSION@SUITE auto", run by
 * verify_target() with the other steps skipped, under make -jN in a
 * process of its own; its source is unpacked only in part
 * (sweep_members.c: what these steps read) under a cache key of its own.
 * A version checked before with the same series/, backports/, cocci/ and
 * checkpatch.allow is not checked again: its recorded row (sweep_rows.c)
 * is reused, and the table says so.
 *
 * The versions come from the archive (sweep_list.c, on sources/archive.c);
 * this file runs them and judges their rows.  Output (sweep_report.c): a
 * headline (the first failing version, or the count), a version x step
 * table on stdout and in docs/sweep.md (between markers), and
 * results/sweep/sweep.json.  Exit 1 when a version fails, 2 on bad input;
 * a suite the mirror lacks is reported, not fatal.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/cache.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/jobserver.h"
#include "lib/usage.h"
#include "matrix.h"
#include "sources/archive.h"
#include "sources/targets.h"
#include "steps/steps.h"
#include "sweep.h"
#include "sweep_int.h"
#include "sweep_report.h"
#include "verify.h"

/*
 * The steps a sweep runs (sweep_steps[], kept with the rows in
 * sweep_report.c): those of the engine's table that read only the source
 * and the series (verify_step_source_only()), in its order; the others are
 * skipped (sweep_skip).  Filled by find_sweep_steps().
 */
static unsigned int sweep_skip;

static void find_sweep_steps(void)
{
	int i;

	if (nr_sweep_steps)
		return;
	for (i = 0; i < nr_verify_steps; i++) {
		if (verify_step_source_only(i) &&
		    nr_sweep_steps < MAX_SWEEP_STEPS)
			sweep_steps[nr_sweep_steps++] = verify_step_name(i);
		else if (!verify_step_source_only(i))
			sweep_skip |= NEEDS(i);
	}
}

static char *target_name(const struct sweep_version *v)
{
	char *name = xstrfmt("sweep-%s", v->version);

	cache_name(name);
	return name;
}

/* What the version's run found, as its row. */
static void record_row(struct sweep_version *v,
		       const struct verify_outcome *run)
{
	v->variant = xstrdup(run->variant ? run->variant : "n/a");
	v->na_reason = run->variant || !run->na_reason ? NULL :
		       xstrdup(run->na_reason);
	v->src_key = run->src_key ? xstrdup(run->src_key) : NULL;
	v->kept = run->src && is_dir(run->src) ? sweep_disk_usage(run->src) : 0;
	sweep_record_steps(v, run->res, run->nr);
}

/* Run the pipeline on one version: 0, or -1 if it could not run. */
static int check_version(struct sweep *sw, struct sweep_version *v)
{
	struct options o = *sw->opt;
	struct target_list list = { 0 };
	struct strbuf line = STRBUF_INIT, err = STRBUF_INIT;
	static const char *const tree_files[] = { "", ".stamp", ".mtimes" };
	struct verify_outcome run = { 0 };
	char *name = target_name(v), *p;
	int ret = -1;
	size_t i;

	if (v->source)
		strbuf_addf(&line, "%s %s auto\n", name, v->source);
	else
		strbuf_addf(&line, "%s deb:%s=%s@%s auto\n", name, v->package,
			    v->version, v->suites.v[0]);
	if (targets_parse("(sweep)", line.buf, line.len, &list, &err)) {
		fprintf(stderr, "kverify: sweep: %s %s: %s", v->package,
			v->version, err.buf);
		goto out;
	}
	o.skip_steps = sweep_skip;
	o.results = sw->results;
	o.extract_only = &sw->members;
	sweep_clear_row(v);
	verify_target_outcome(&list.v[0], &o, &run);
	if (!run.res)
		goto out;
	record_row(v, &run);
	v->hash = xstrdup(sw->hash);
	ret = 0;
	/* the tree and the sim's work are made again when needed */
	for (i = 0; i < ARRAY_SIZE(tree_files); i++) {
		p = xstrfmt("%s/trees/%s%s", sw->cache, name, tree_files[i]);
		rm_rf(p);
		free(p);
	}
	p = xstrfmt("%s/sim/%s", sw->cache, name);
	rm_rf(p);
	free(p);
out:
	verify_outcome_clear(&run);
	targets_clear(&list);
	strbuf_release(&line);
	strbuf_release(&err);
	free(name);
	return ret;
}

/* FAIL, or any status that is not a pass, a skip or n/a (an ERROR, say). */

static void judge(struct sweep_version *v)
{
	size_t i;

	v->failed = 0;
	for (i = 0; i < nr_sweep_steps && !v->gone; i++)
		if (sweep_bad_status(v->status[i]))
			v->failed = 1;
	v->passed = !v->failed && !v->gone;
}

/* A version checked (@checked: its row made) or not. */
static void row_done(struct sweep *sw, struct sweep_version *v, int checked)
{
	if (checked) {
		sw->checked++;
		/*
		 * Recorded once the source is here: a download that failed
		 * is tried again next time.
		 */
		if (v->kept > 0 && !run_interrupted() && sweep_write_row(sw, v))
			error("sweep: cannot record %s: %s", v->version,
			      strerror(errno));
	}
	judge(v);
	if (checked)
		note("sweep: %s %s: %s", v->package, v->version,
		     v->passed ? "PASS" : v->gone ? "gone from the archive" :
		     "FAIL");
}

/*
 * Under make -jN, a version is checked in a process of its own while
 * make's jobserver has a token for it (the first needs none: it is this
 * job's own slot), and leaves its row in its own $TMPDIR.
 */
struct sweep_job {
	pid_t pid;
	size_t v;	/* sw->v's index */
	int token;	/* the jobserver's, to give back; -1: our own slot */
	char *tmp;
};

static void start_job(struct sweep *sw, struct sweep_job *job)
{
	struct sweep_version *v = &sw->v[job->v];
	const char *parent = getenv("TMPDIR");
	char *row;
	int ok;

	job->tmp = xstrfmt("%s/sweep-row-XXXXXX", parent ? parent : "/tmp");
	if (!mkdtemp(job->tmp)) {
		error("sweep: %s: cannot create a directory: %s", job->tmp,
		      strerror(errno));
		free(job->tmp);
		job->tmp = NULL;
		job->pid = -1;
		return;
	}
	fflush(NULL);
	job->pid = fork();
	if (job->pid)
		return;
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	setenv("TMPDIR", job->tmp, 1);
	ok = !check_version(sw, v);
	row = xstrfmt("%s/row", job->tmp);
	if (ok && sweep_write_row_file(row, v))
		ok = 0;
	fflush(NULL);
	_exit(ok ? 0 : 1);
}

/* A job's end: its row read back, its token given back. */
static void end_job(struct sweep *sw, struct sweep_job *job,
		    struct jobserver *js, int ws)
{
	struct sweep_version *v = &sw->v[job->v];
	char *row = xstrfmt("%s/row", job->tmp);
	int ok = WIFEXITED(ws) && !WEXITSTATUS(ws);

	sweep_clear_row(v);
	if (ok && sweep_read_row_file(row, v))
		ok = 0;
	v->have_row = ok;
	if (job->token >= 0)
		jobserver_give(js, job->token);
	rm_rf(job->tmp);
	free(job->tmp);
	free(row);
	row_done(sw, v, ok);
}

/* Reap the jobs that ended (@block: wait for one); how many are left. */
static size_t reap_jobs(struct sweep *sw, struct sweep_job *jobs, size_t nr,
			struct jobserver *js, int block)
{
	pid_t pid;
	size_t i;
	int ws;

	while (nr && (pid = waitpid(-1, &ws, block ? 0 : WNOHANG)) != 0) {
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0) {
			/* none left to wait for: each job ended unheard */
			error("sweep: waiting for the versions' processes: %s",
			      strerror(errno));
			while (nr)
				end_job(sw, &jobs[--nr], js, W_EXITCODE(1, 0));
			break;
		}
		for (i = 0; i < nr && jobs[i].pid != pid; i++)
			;
		if (i == nr)
			continue;	/* an orphan of a job's tools */
		end_job(sw, &jobs[i], js, ws);
		jobs[i] = jobs[--nr];
		block = 0;
	}
	return nr;
}

/* Wait for a slot: 1 and *@token (-1 for our own), or 0: interrupted. */
static int wait_slot(struct sweep *sw, struct sweep_job *jobs, size_t *nr,
		     struct jobserver *js, int *token)
{
	struct pollfd p = { .fd = js->rfd, .events = POLLIN };
	char c;

	for (;;) {
		*nr = reap_jobs(sw, jobs, *nr, js, 0);
		if (run_interrupted())
			return 0;
		if (!*nr) {
			*token = -1;
			return 1;
		}
		if (jobserver_take(js, &c)) {
			*token = (unsigned char)c;
			return 1;
		}
		poll(&p, 1, 200);
	}
}

static void run_versions(struct sweep *sw)
{
	struct sweep_job *jobs = xmalloc((sw->nr + 1) * sizeof(*jobs));
	struct jobserver js;
	int parallel = !jobserver_open(&js, sw->opt->makeflags);
	size_t i, nr = 0;
	int token;

	run_install_signal_handlers();
	for (i = 0; i < sw->nr && !run_interrupted(); i++) {
		struct sweep_version *v = &sw->v[i];

		if (!sweep_read_row(sw, v) && !strcmp(v->hash, sw->hash)) {
			v->have_row = v->reused = 1;
			sw->reused++;
			note("sweep: %s %s: unchanged since %s, row reused",
			     v->package, v->version, v->checked);
			judge(v);
			continue;
		}
		sweep_clear_row(v);
		if (!parallel) {
			note("sweep: %s %s (%zu/%zu) ...", v->package,
			     v->version, i + 1, sw->nr);
			row_done(sw, v, !check_version(sw, v));
			continue;
		}
		if (!wait_slot(sw, jobs, &nr, &js, &token))
			break;
		note("sweep: %s %s (%zu/%zu) ...", v->package, v->version,
		     i + 1, sw->nr);
		jobs[nr] = (struct sweep_job){ .v = i, .token = token };
		start_job(sw, &jobs[nr]);
		if (jobs[nr].pid > 0) {
			nr++;
			continue;
		}
		if (jobs[nr].tmp) {
			error("sweep: cannot start a process: %s",
			      strerror(errno));
			rm_rf(jobs[nr].tmp);
			free(jobs[nr].tmp);
		}
		if (token >= 0)
			jobserver_give(&js, token);
		judge(v);
	}
	while (nr)
		nr = reap_jobs(sw, jobs, nr, &js, 1);
	if (parallel)
		jobserver_close(&js);
	free(jobs);
}

static void sweep_clear(struct sweep *sw)
{
	size_t i;

	for (i = 0; i < sw->nr; i++) {
		sweep_clear_row(&sw->v[i]);
		free(sw->v[i].package);
		free(sw->v[i].version);
		free(sw->v[i].source);
		strvec_clear(&sw->v[i].suites);
	}
	free(sw->v);
	free(sw->repo);
	free(sw->results);
	free(sw->hash);
	strvec_clear(&sw->members);
	strvec_clear(&sw->suites);
	strvec_clear(&sw->missing);
}

/* matrix --sweep: one job per version. */
static int sweep_matrix(struct sweep *sw)
{
	struct strvec jobs = STRVEC_INIT;
	struct ci_jobs ci = { 0 };
	size_t i;
	int ret;

	for (i = 0; i < sw->nr; i++)
		strvec_pushf(&jobs, "%s=%s@%s", sw->v[i].package,
			     sw->v[i].version, sw->v[i].suites.v[0]);
	for (i = 0; i < sw->missing.nr; i++)
		note("sweep: suite %s", sw->missing.v[i]);
	ci.image = sw->opt->ci_image;
	ci.tags = sw->opt->ci_tags;
	ci.timeout = sw->opt->ci_timeout;
	ret = cmd_matrix_sweep(&jobs, sw->a->matrix, &ci);
	strvec_clear(&jobs);
	return ret;
}

static int check_only(const char *only)
{
	const char *eq = strchr(only, '=');
	char *pkg;
	int ok;

	if (!eq || !eq[1] || eq[1] == '@')
		goto bad;
	pkg = xstrfmt("%.*s", (int)(eq - only), only);
	ok = archive_valid_package(pkg);
	free(pkg);
	if (ok)
		return 0;
bad:
	error("--only (make sweep ONLY=) wants linux-source-X.Y=VERSION[@SUITE], not '%s'", only);
	return 2;
}

int cmd_sweep(const struct options *opt, const struct sweep_args *a)
{
	struct sweep sw = { .opt = opt, .a = a, .md = a->md, .json = a->json,
			    .only = a->only };

	find_sweep_steps();
	struct strbuf head = STRBUF_INIT, body = STRBUF_INIT;
	struct timespec t0, t1;
	char *p;
	int ret = 2, nr_failed;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (a->only && check_only(a->only))
		return 2;
	sw.repo = abspath(".");
	sw.cache = opt->cache;
	sweep_members(sw.repo, &sw.members);
	if (a->print_members) {
		for (i = 0; i < sw.members.nr; i++)
			printf("%s\n", sw.members.v[i]);
		ret = 0;
		goto out;
	}
	p = abspath(opt->results);
	sw.results = xstrfmt("%s/sweep", p);
	free(p);
	if (mkdir_p(sw.results)) {
		error("cannot create %s: %s", sw.results, strerror(errno));
		goto out;
	}
	sw.hash = sweep_content_hash(sw.repo);
	if (sweep_list_versions(&sw))
		goto out;
	if (a->matrix) {
		ret = sweep_matrix(&sw);
		goto out;
	}
	if (a->only && !sw.nr) {
		error("sweep: %s is not in the archive%s%s",
		      a->only, sw.missing.nr ? ": " : "",
		      sw.missing.nr ? sw.missing.v[0] : "");
		ret = 1;
		goto out;
	}
	run_versions(&sw);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sweep_headline(&sw, &head);
	sweep_table(&sw, &body);
	printf("sweep: %s\n\n%s", head.buf, body.buf);
	fflush(stdout);
	ret = sweep_write_json(&sw, head.buf, t1.tv_sec - t0.tv_sec +
			       (t1.tv_nsec - t0.tv_nsec) / 1e9,
			       run_interrupted());
	/* one CI job's version, or an interrupted run, is not the table */
	if (!a->only && !run_interrupted())
		ret |= sweep_write_md(&sw, head.buf, body.buf);
	ret = ret ? EXIT_TOOL :
	      sweep_first_failure(&sw, &nr_failed) ? EXIT_FAIL : EXIT_PASS;
	if (run_interrupted())
		ret = EXIT_INTERRUPTED;
out:
	strbuf_release(&head);
	strbuf_release(&body);
	sweep_clear(&sw);
	return ret;
}
