// SPDX-License-Identifier: GPL-2.0
/*
 * kverify matrix: fan the targets of kernels.list out over the CI system a
 * pipeline already has: a GitHub Actions matrix (JSON for
 * strategy.matrix), a GitLab child pipeline (one job per target, JUnit as
 * its test report), or, with --shard I/N alone, the names of one shard for
 * any other scheduler.  n/a targets are left out.
 *
 * Each job calls build/kverify itself, so that its exit status is
 * kverify's (exitcode.h: 0 PASS, 1 FAIL, 2 usage, 3 ERROR) and not make's 2
 * for all: GitLab retries a job that exits 3 (a mirror, a tool or the
 * machine failed) and never one that exits 1 (the patch is wrong).  A
 * GitLab job also names its image, runner tags and timeout, and keeps
 * the store $KVERIFY_SOURCES (what it fetches) in a cache of its own
 * target (gitlab_job()).
 *
 * Shards are balanced, and each job's timeout set, on what a job pays
 * with a cold cache: the committed table .ci/cold-seconds (measured cold
 * times, and the margin a timeout gives them), never a local run's
 * results, so that the same commit gives the same CI; the mean for a
 * target the table lacks (its timeout then CI_TIMEOUT_UNKNOWN), by name
 * when it has none.  The targets, costliest first, each go to the shard with the least
 * work so far.  No shard is ever empty: with fewer targets than shards
 * asked, there are as many shards as targets, a note says so, and a shard
 * beyond them is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/exitcode.h"
#include "lib/usage.h"
#include "matrix.h"
#include "sources/targets.h"

#define SHARDS_MAX 1000
#define CI_IMAGE "debian:bookworm"
#define CI_TAGS "kvm"
#define CI_TIMEOUT_MIN 30		/* minutes */
#define CI_TIMEOUT_UNKNOWN 180		/* no cost known: a cold kernel build */
#define CI_COSTS ".ci/cold-seconds"	/* the committed table of cold costs */

struct job {
	const char *name;
	double secs;		/* cold cost, else last run's duration, or < 0 */
	int known;		/* secs is measured, not the mean */
	int shard;		/* 1-based */
};

static int applicable(const struct target *t)
{
	return t->series || t->auto_series;
}

/*
 * The committed table of cold costs (CI_COSTS, --costs): "margin M" once
 * (a job's timeout is M times its target's cost), then "NAME SECONDS" a
 * line, each measured with a cold cache (the file names its source);
 * '#' starts a comment.  The generated CI is the same for the same commit:
 * nothing of a local run (results/, the cache) goes into it.
 */
struct costs {
	struct strvec names;
	double *secs;
	double margin;
};

static int costs_line(struct costs *c, const char *path, int nr, char *line)
{
	char name[128], extra;
	double v;

	line[strcspn(line, "#")] = '\0';
	if (!line[strspn(line, " \t")])
		return 0;
	if (sscanf(line, " margin %lf %c", &v, &extra) == 1) {
		if (c->margin || !(v >= 1 && v <= 100))
			return error("%s:%d: margin: once, a number from 1 to 100",
				     path, nr);
		c->margin = v;
		return 0;
	}
	if (sscanf(line, " %127s %lf %c", name, &v, &extra) != 2 ||
	    !plain_name(name) || !(v > 0 && v <= 7 * 86400))
		return error("%s:%d: not 'NAME SECONDS' (a kernels.list name, 0 < seconds <= 604800) nor 'margin M': '%s'",
			     path, nr, line);
	if (strvec_has(&c->names, name))
		return error("%s:%d: %s named twice", path, nr, name);
	c->secs = realloc(c->secs, (c->names.nr + 1) * sizeof(*c->secs));
	if (!c->secs)
		abort();
	c->secs[c->names.nr] = v;
	strvec_push(&c->names, name);
	return 0;
}

static int costs_load(struct costs *c, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *next;
	int nr = 0, ret = 0;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0) {
		error("%s: %s: the CI's table of cold costs (docs/ci.md)",
		      path, strerror(errno));
		strbuf_release(&sb);
		return -1;
	}
	for (line = sb.buf; !ret && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = costs_line(c, path, ++nr, line);
	}
	if (!ret && !c->margin)
		ret = error("%s: no 'margin M' line", path);
	strbuf_release(&sb);
	return ret;
}

/* @name's cold cost from the table, or -1. */
static double table_seconds(const struct costs *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->names.nr; i++)
		if (!strcmp(c->names.v[i], name))
			return c->secs[i];
	return -1;
}

static int by_weight(const void *a, const void *b)
{
	const struct job *x = a, *y = b;

	if (x->secs != y->secs)
		return x->secs < y->secs ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Greedy: heaviest first, each to the least loaded shard (lowest on ties). */
static void balance(struct job *jobs, size_t nr, int shards)
{
	double *load = calloc(shards, sizeof(*load)), sum = 0;
	size_t i, known = 0;
	int s, best;

	if (!load)
		abort();
	for (i = 0; i < nr; i++) {
		jobs[i].known = jobs[i].secs >= 0;
		if (jobs[i].known) {
			sum += jobs[i].secs;
			known++;
		}
	}
	for (i = 0; i < nr; i++)
		if (jobs[i].secs < 0)
			jobs[i].secs = known ? sum / known : 1;
	qsort(jobs, nr, sizeof(*jobs), by_weight);
	for (i = 0; i < nr; i++) {
		for (best = 0, s = 1; s < shards; s++)
			if (load[s] < load[best])
				best = s;
		jobs[i].shard = best + 1;
		load[best] += jobs[i].secs > 0 ? jobs[i].secs : 1e-9;
	}
	free(load);
}

static int parse_shard(const char *spec, int *shard, int *n)
{
	char *end;
	long i, m;

	errno = 0;
	i = strtol(spec, &end, 10);
	if (end == spec || *end != '/' || errno)
		return -1;
	spec = end + 1;
	m = strtol(spec, &end, 10);
	if (end == spec || *end || errno || m < 1 || m > SHARDS_MAX ||
	    i < 1 || i > m)
		return -1;
	*shard = i;
	*n = m;
	return 0;
}

/*
 * A job's timeout in minutes: the table's margin times its cold cost, at
 * least 30; or as set.
 */
static long timeout_minutes(const struct job *j, const struct ci_jobs *ci)
{
	long m;

	if (ci->timeout)
		return ci->timeout;
	if (!j->known)
		return CI_TIMEOUT_UNKNOWN;
	m = (long)(ci->margin * j->secs / 60) + 1;
	return m < CI_TIMEOUT_MIN ? CI_TIMEOUT_MIN : m;
}

static void github_matrix(const struct job *jobs, size_t nr, int shard,
			  const struct ci_jobs *ci)
{
	const char *sep = "";
	size_t i;

	printf("{\"include\": [");
	for (i = 0; i < nr; i++) {
		if (jobs[i].shard != shard)
			continue;
		printf("%s{\"kernel\": \"%s\", \"image\": \"%s\", \"timeout_minutes\": %ld, \"cache_key\": \"kverify-%s\"}",
		       sep, jobs[i].name, ci->image ? ci->image : CI_IMAGE,
		       timeout_minutes(&jobs[i], ci), jobs[i].name);
		sep = ", ";
	}
	printf("]}\n");
}

/* A YAML flow sequence of the comma-separated @list, each item quoted. */
static void yaml_list(const char *list)
{
	const char *p = list, *e;

	printf("[");
	while (*p) {
		e = strchrnul(p, ',');
		printf("%s\"%.*s\"", p == list ? "" : ", ", (int)(e - p), p);
		p = *e ? e + 1 : e;
	}
	printf("]");
}

/*
 * A GitLab job's keys but its command and artifacts: image, tags, timeout,
 * the retry of an ERROR (exit 3), the cache under @key, and the script's
 * first lines: the runner's check (.ci/runner-check: the namespaces
 * bubblewrap needs, else exit 3 saying what to change), make, then what
 * the project needs.  The cache keeps the store ($KVERIFY_SOURCES:
 * Debian's sources, packages and apt state, toolchains), what a job
 * fetches; not $KVERIFY_CACHE, whose trees and builds (GBs a target) cost
 * more to upload and unpack than to make again.
 */
static void gitlab_job(const char *job, const char *stage, long timeout,
		       const char *key, const char *target,
		       const struct ci_jobs *ci)
{
	printf("\n\"%s\":\n  stage: %s\n", job, stage);
	printf("  image: \"%s\"\n  tags: ", ci->image ? ci->image : CI_IMAGE);
	yaml_list(ci->tags ? ci->tags : CI_TAGS);
	printf("\n  timeout: %ld minutes\n", timeout);
	printf("  retry:\n    max: 2\n    exit_codes: [%d]\n", EXIT_TOOL);
	printf("  variables:\n    KVERIFY_CACHE: .kverify-cache\n"
	       "    KVERIFY_SOURCES: .kverify-sources\n");
	if (target)
		printf("    KVERIFY_TARGETS: \"%s\"\n", target);
	printf("  cache:\n    key: \"%s\"\n    paths:\n"
	       "      - .kverify-sources/\n    when: always\n", key);
	printf("  script:\n"
	       "    - sh .ci/runner-check\n"
	       "    - command -v make > /dev/null || { apt-get update -q && apt-get install -y -q --no-install-recommends make; }\n"
	       "    - make deps-verify all\n");
}

#define GITLAB_HEADER(what)						\
	"# Generated by kverify matrix " what ".\n"			\
	"# Each job exits as build/kverify does: 0 PASS, 1 FAIL (the patch),\n" \
	"# 2 bad usage, 3 ERROR (a tool, the mirror or the machine): only 3 is\n" \
	"# retried.  $KVERIFY_SOURCES (what a job fetches) is cached per job\n" \
	"# (key kverify-...); .ci/runner-check runs first (docs/lab.md).\n"

static void gitlab_pipeline(const struct job *jobs, size_t nr, int shard,
			    const struct ci_jobs *ci)
{
	const char *list = ci->list ? ci->list : "kernels.list";
	size_t i;

	printf(GITLAB_HEADER("--ci gitlab: one job per kernel")
	       "stages:\n  - verify\n");
	for (i = 0; i < nr; i++) {
		const char *t = jobs[i].name;
		char *job, *key;

		if (jobs[i].shard != shard)
			continue;
		job = xstrfmt("verify %s", t);
		key = xstrfmt("kverify-%s", t);
		gitlab_job(job, "verify", timeout_minutes(&jobs[i], ci), key, t,
			   ci);
		printf("    - build/kverify --list %s verify --env\n", list);
		printf("  artifacts:\n    when: always\n    paths:\n      - results/%s/\n"
		       "    reports:\n      junit: results/%s/junit.xml\n", t, t);
		free(key);
		free(job);
	}
}

int cmd_matrix(const struct target_list *l, const char *format,
	       const char *shard_spec, const struct ci_jobs *given)
{
	struct job *jobs = calloc(l->nr + 1, sizeof(*jobs));
	struct costs costs = { .names = STRVEC_INIT };
	struct ci_jobs ci_copy = *given, *ci = &ci_copy;
	int shard = 1, n = 1, ret = EXIT_USAGE;
	size_t i, nr = 0;

	if (!jobs)
		abort();
	if (format && strcmp(format, "github") && strcmp(format, "gitlab")) {
		error("--ci is github or gitlab, not '%s'", format);
		goto out;
	}
	if (shard_spec && parse_shard(shard_spec, &shard, &n)) {
		error("--shard wants I/N with 1 <= I <= N <= %d, not '%s'", SHARDS_MAX, shard_spec);
		goto out;
	}
	if (costs_load(&costs, ci->costs ? ci->costs : CI_COSTS))
		goto out;
	ci->margin = costs.margin;
	for (i = 0; i < l->nr; i++) {
		if (!applicable(&l->v[i]))
			continue;
		jobs[nr].name = l->v[i].name;
		jobs[nr].secs = table_seconds(&costs, l->v[i].name);
		nr++;
	}
	if (!nr) {
		error("matrix: no target of %s applies: nothing to run",
		      l->file ? l->file : "kernels.list");
		goto out;
	}
	if ((size_t)n > nr) {
		note("matrix: note: %d shards asked for %zu targets: %zu shards, one target each",
		     n, nr, nr);
		if ((size_t)shard > nr) {
			error("matrix: shard %d/%d would be empty; use --shard I/%zu",
			      shard, n, nr);
			goto out;
		}
		n = nr;
	}
	balance(jobs, nr, n);
	if (!format) {
		for (i = 0; i < nr; i++)
			if (jobs[i].shard == shard)
				printf("%s\n", jobs[i].name);
	} else if (!strcmp(format, "github")) {
		github_matrix(jobs, nr, shard, ci);
	} else {
		gitlab_pipeline(jobs, nr, shard, ci);
	}
	ret = 0;
out:
	strvec_clear(&costs.names);
	free(costs.secs);
	free(jobs);
	return ret;
}

/*
 * matrix --sweep: one job per linux-source version of make sweep, each
 * "linux-source-X.Y=VERSION@SUITE" (tools/sweep_list.c lists them).
 */
int cmd_matrix_sweep(const struct strvec *jobs, const char *format,
		     const struct ci_jobs *ci)
{
	struct job unknown = { .known = 0 };
	long timeout = timeout_minutes(&unknown, ci);
	size_t i;

	if (!format || !strcmp(format, "github")) {
		printf("{\"include\": [");
		for (i = 0; i < jobs->nr; i++)
			printf("%s{\"sweep\": \"%s\", \"image\": \"%s\", \"timeout_minutes\": %ld, \"cache_key\": \"kverify-sweep-%s\"}",
			       i ? ", " : "", jobs->v[i],
			       ci->image ? ci->image : CI_IMAGE, timeout,
			       jobs->v[i]);
		printf("]}\n");
	} else if (!strcmp(format, "gitlab")) {
		printf(GITLAB_HEADER("--sweep --ci gitlab: one job per version")
		       "stages:\n  - sweep\n");
		for (i = 0; i < jobs->nr; i++) {
			char *job = xstrfmt("sweep %s", jobs->v[i]);
			char *key = xstrfmt("kverify-sweep-%s", jobs->v[i]);

			gitlab_job(job, "sweep", timeout, key, NULL, ci);
			printf("    - build/kverify sweep --only %s\n"
			       "  artifacts:\n"
			       "    when: always\n    paths:\n      - results/sweep/\n"
			       "    reports:\n      junit: results/sweep/sweep-*/junit.xml\n",
			       jobs->v[i]);
			free(key);
			free(job);
		}
	} else {
		error("--ci is github or gitlab, not '%s'", format);
		return EXIT_USAGE;
	}
	return 0;
}
