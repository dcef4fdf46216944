// SPDX-License-Identifier: GPL-2.0
/*
 * make sweep: every linux-source-X.Y version the Debian suites offer,
 * through the verify pipeline's steps that need no kernel build (fetch,
 * tree, apply, sim, checkpatch, cocci) with SERIES "auto".  Each version is
 * a synthetic target, "deb:linux-source-X.Y=VERSION@SUITE auto", run by
 * verify_target() with the other steps skipped; its source is unpacked
 * only in part (sweep_members(): what these steps read) under a cache key
 * of its own.  A version checked before with the same series/,
 * backports/, cocci/ and checkpatch.allow is not checked again: its
 * recorded row is reused, and the table says so.
 *
 * The versions come from the archive (sources/archive.c); this file runs
 * them and keeps their rows.  Output (sweep_report.c): a headline (the
 * first failing version, or the count), a version x step table on stdout
 * and in docs/sweep.md (between markers), and results/sweep/sweep.json.
 * Exit 1 when a version fails, 2 on bad input; a suite the mirror lacks is
 * reported, not fatal.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cocci.h"
#include "core/step.h"
#include "debian/debversion.h"
#include "lib/cache.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/jobserver.h"
#include "lib/tree.h"
#include "lib/usage.h"
#include "matrix.h"
#include "sim.h"
#include "sources/archive.h"
#include "sources/targets.h"
#include "steps/steps.h"
#include "sweep.h"
#include "sweep_report.h"
#include "test-hooks.h"
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

/*
 * What checkpatch reads besides the patches: scripts/ (checkpatch.pl,
 * spelling.txt, const_structs.checkpatch, get_maintainer.pl), and the
 * entries of its top_of_kernel_tree() test, a small file standing for each
 * directory there ("arch" comes with the KVM files).  Makefile also gives
 * the version (tree_version()).
 */
static const char *const checkpatch_reads[] = {
	"COPYING", "CREDITS", "Kbuild", "MAINTAINERS", "Makefile", "README",
	"scripts", "Documentation/Makefile", "drivers/Makefile",
	"fs/Makefile", "init/Makefile", "ipc/Makefile", "kernel/Makefile",
	"lib/Makefile", "include/linux/kvm_host.h",
};

/* --- the paths a sweep unpacks --- */

/*
 * The directory of a file the steps read or a variant touches, at most
 * four levels deep: tar fails on a name it does not find, and a file of
 * one variant (Makefile.kvm, x86/ or x86_64/) is absent from another
 * version, while its directory is not.
 */
static void add_dir_of(struct strvec *sv, const char *file)
{
	const char *p = file, *slash = NULL;
	int depth = 0;

	while ((p = strchr(p, '/')) && depth < 4) {
		slash = p++;
		depth++;
	}
	if (!slash)
		return;
	if (!strchr(slash + 1, '/') || depth == 4) {
		char *dir = xstrfmt("%.*s", (int)(slash - file), file);

		if (!strvec_has(sv, dir))
			strvec_push(sv, dir);
		free(dir);
	}
}

/* "+++ b/FILE" lines of a patch. */
static void patch_files(const char *path, struct strvec *files)
{
	struct strbuf sb = STRBUF_INIT;
	struct line l;

	if (strbuf_read_file(&sb, path, 16 << 20) < 0)
		return;
	for_each_line(l, sb.buf) {
		size_t n = strcspn(l.s, "\t\n");
		const char *name;
		char *f;

		if (!skip_prefix(l.s, "+++ b/", &name) || l.s + n <= name)
			continue;
		f = xstrfmt("%.*s", (int)(l.s + n - name), name);
		if (!strvec_has(files, f))
			strvec_push(files, f);
		free(f);
	}
	strbuf_release(&sb);
}

/* Every variant directory: series/ and backports/<X.Y>/. */
static void variant_dirs(const char *repo, struct strvec *rels)
{
	struct dirent **names;
	char *dir = xstrfmt("%s/backports", repo);
	int n, i;

	strvec_push(rels, "series");
	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.')
			strvec_pushf(rels, "backports/%s", names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	free(dir);
}

/* The files the patches of every variant touch. */
static void variant_files(const char *repo, struct strvec *files)
{
	struct strvec rels = STRVEC_INIT;
	size_t i;

	variant_dirs(repo, &rels);
	for (i = 0; i < rels.nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *series = xstrfmt("%s/%s/series", repo, rels.v[i]);
		char *line, *save = NULL;

		if (strbuf_read_file(&sb, series, 1 << 20) < 0)
			goto next;
		for (line = strtok_r(sb.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *patch;

			line[strcspn(line, " \t")] = '\0';
			if (!*line || *line == '#' || strstr(line, ".."))
				continue;
			patch = xstrfmt("%s/%s/%s", repo, rels.v[i], line);
			patch_files(patch, files);
			free(patch);
		}
next:
		strbuf_release(&sb);
		free(series);
	}
	strvec_clear(&rels);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The one list of what a sweep unpacks of a source: what checkpatch reads,
 * and the directories of the sim's files, the semantic patch's inputs and
 * every file a variant touches; sorted, none under another.
 */
static void sweep_members(const char *repo, struct strvec *out)
{
	struct strvec all = STRVEC_INIT, files = STRVEC_INIT;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(checkpatch_reads); i++)
		strvec_push(&all, checkpatch_reads[i]);
	for (i = 0; i < nr_sim_files; i++)
		add_dir_of(&all, sim_files[i] + (sim_files[i][0] == '?'));
	for (i = 0; i < nr_cocci_inputs; i++)
		add_dir_of(&all, cocci_inputs[i]);
	variant_files(repo, &files);
	for (i = 0; i < files.nr; i++)
		add_dir_of(&all, files.v[i]);
	qsort(all.v, all.nr, sizeof(*all.v), by_name);
	for (i = 0; i < all.nr; i++) {
		for (j = 0; j < all.nr; j++)
			if (j != i && path_under(all.v[i], all.v[j]) &&
			    strcmp(all.v[i], all.v[j]))
				break;
		if (j == all.nr && !strvec_has(out, all.v[i]))
			strvec_push(out, all.v[i]);
	}
	strvec_clear(&files);
	strvec_clear(&all);
}

/* --- what the rows depend on --- */

static void hash_tree(uint64_t *h, const char *root, const char *rel)
{
	char *path = xstrfmt("%s/%s", root, rel);
	struct dirent **names;
	struct stat st;
	int n, i;

	if (lstat(path, &st))
		goto out;
	*h = hash_bytes(*h, rel, strlen(rel) + 1);
	if (S_ISREG(st.st_mode)) {
		if (hash_file(h, path))
			*h = hash_bytes(*h, "unreadable", 10);
		goto out;
	}
	if (!S_ISDIR(st.st_mode))
		goto out;
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") &&
		    strcmp(names[i]->d_name, "..")) {
			char *sub = xstrfmt("%s/%s", rel, names[i]->d_name);

			hash_tree(h, root, sub);
			free(sub);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
out:
	free(path);
}

static char *content_hash(const char *repo)
{
	static const char *const inputs[] = {
		"series", "backports", "cocci", "checkpatch.allow",
	};
	uint64_t h = HASH_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(inputs); i++)
		hash_tree(&h, repo, inputs[i]);
	return xstrfmt("%016llx", (unsigned long long)h);
}

static int by_version(const void *x, const void *y)
{
	const struct sweep_version *a = x, *b = y;
	int c = debversion_cmp(a->package + 13, b->package + 13);

	return c ? c : debversion_cmp(a->version, b->version);
}

/* --- the versions the archive offers (sources/archive.c lists them) --- */

static struct sweep_version *find_version(struct sweep *sw, const char *pkg,
					  const char *version)
{
	size_t i;

	for (i = 0; i < sw->nr; i++)
		if (!strcmp(sw->v[i].package, pkg) &&
		    !strcmp(sw->v[i].version, version))
			return &sw->v[i];
	return NULL;
}

static int wanted(const struct sweep *sw, const char *pkg,
		  const char *version, const char *suite)
{
	const char *only = sw->a->only;
	size_t n;

	if (!only)
		return 1;
	n = strcspn(only, "=");
	if (strlen(pkg) != n || strncmp(only, pkg, n) || !only[n])
		return 0;
	only += n + 1;
	n = strcspn(only, "@");
	if (strlen(version) != n || strncmp(only, version, n))
		return 0;
	return !only[n] || !strcmp(only + n + 1, suite);
}

/* archive_list()'s callback: a version of a suite, into the rows. */
static void add_version(void *data, const char *suite, const char *pkg,
			const char *version, const char *source)
{
	struct sweep *sw = data;
	struct sweep_version *v;

	if (!wanted(sw, pkg, version, suite))
		return;
	if (!plain_chars(version, ".+~:-") || !isalnum(*version)) {
		error("sweep: %s: %s version '%s' is not a Debian version, left out",
		      suite, pkg, version);
		return;
	}
	v = find_version(sw, pkg, version);
	if (!v) {
		sw->v = xrealloc(sw->v, (sw->nr + 1) * sizeof(*sw->v));
		v = &sw->v[sw->nr++];
		memset(v, 0, sizeof(*v));
		v->package = xstrdup(pkg);
		v->version = xstrdup(version);
		v->source = source ? xstrdup(source) : NULL;
	}
	if (!strvec_has(&v->suites, suite))
		strvec_push(&v->suites, suite);
}

static int list_versions(struct sweep *sw)
{
	const char *only_suite = sw->a->only ? strchr(sw->a->only, '@') : NULL;
	struct archive_query q = {
		.opt = sw->opt,
		.suite = only_suite ? only_suite + 1 : NULL,
		.log_dir = sw->results,
		.list_file = sw->opt->test ? sw->opt->test->sweep_list : NULL,
		.add = add_version,
		.data = sw,
		.suites = &sw->suites,
		.missing = &sw->missing,
	};

	if (archive_list(&q))
		return 2;
	qsort(sw->v, sw->nr, sizeof(*sw->v), by_version);
	return 0;
}

/* --- rows --- */

static void one_line(char *s)
{
	for (; s && *s; s++)
		if (*s == '\n' || *s == '\t')
			*s = ' ';
}

static char *row_path(const struct sweep *sw, const struct sweep_version *v)
{
	char *name = xstrfmt("%s_%s", v->package, v->version), *p;

	cache_name(name);
	p = xstrfmt("%s/sweep/rows/%s", sw->cache, name);
	free(name);
	return p;
}

static int step_index(const char *name)
{
	size_t i;

	for (i = 0; i < nr_sweep_steps; i++)
		if (!strcmp(sweep_steps[i], name))
			return i;
	return -1;
}

/* "key value" lines; "step NAME STATUS SECONDS REASON". */
static int read_row_file(const char *path, struct sweep_version *v)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	int ret = -1;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0)
		goto out;
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *val = strchr(line, ' ');

		if (!val)
			continue;
		*val++ = '\0';
		if (!strcmp(line, "hash"))
			v->hash = xstrdup(val);
		else if (!strcmp(line, "checked"))
			v->checked = xstrdup(val);
		else if (!strcmp(line, "variant"))
			v->variant = xstrdup(val);
		else if (!strcmp(line, "na"))
			v->na_reason = xstrdup(val);
		else if (!strcmp(line, "src_key"))
			v->src_key = xstrdup(val);
		else if (!strcmp(line, "kept"))
			v->kept = atoll(val);
		else if (!strcmp(line, "gone"))
			v->gone = !strcmp(val, "1");
		else if (!strcmp(line, "step")) {
			char name[32], status[8];
			double secs;
			int n = 0, i;

			if (sscanf(val, "%31s %7s %lf %n", name, status, &secs,
				   &n) < 3)
				continue;
			i = step_index(name);
			if (i < 0)
				continue;
			free(v->status[i]);
			free(v->reason[i]);
			v->status[i] = xstrdup(status);
			v->seconds[i] = secs;
			v->reason[i] = xstrdup(val + n);
		}
	}
	ret = v->hash && v->status[0] ? 0 : -1;
out:
	strbuf_release(&sb);
	return ret;
}

static int read_row(const struct sweep *sw, struct sweep_version *v)
{
	char *path = row_path(sw, v);
	int ret = read_row_file(path, v);

	free(path);
	return ret;
}

static void clear_row(struct sweep_version *v)
{
	size_t i;

	free(v->hash);
	free(v->checked);
	free(v->variant);
	free(v->na_reason);
	free(v->src_key);
	for (i = 0; i < nr_sweep_steps; i++) {
		free(v->status[i]);
		free(v->reason[i]);
	}
	v->hash = v->checked = v->variant = v->na_reason = v->src_key = NULL;
	memset(v->status, 0, sizeof(v->status));
	memset(v->reason, 0, sizeof(v->reason));
	v->have_row = v->gone = 0;
}

static int write_row_file(const char *path, const struct sweep_version *v)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret;

	strbuf_addf(&sb, "hash %s\npackage %s\nversion %s\nchecked %s\n",
		    v->hash, v->package, v->version, v->checked);
	strbuf_addf(&sb, "variant %s\nsrc_key %s\nkept %lld\n", v->variant,
		    v->src_key ? v->src_key : "-", v->kept);
	if (v->na_reason)
		strbuf_addf(&sb, "na %s\n", v->na_reason);
	if (v->gone)
		strbuf_addstr(&sb, "gone 1\n");
	for (i = 0; i < nr_sweep_steps; i++)
		strbuf_addf(&sb, "step %s %s %.1f %s\n", sweep_steps[i],
			    v->status[i], v->seconds[i], v->reason[i]);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

static int write_row(const struct sweep *sw, const struct sweep_version *v)
{
	char *path = row_path(sw, v), *dir = xstrdup(path);
	int ret;

	*strrchr(dir, '/') = '\0';
	mkdir_p(dir);
	ret = write_row_file(path, v);
	free(dir);
	free(path);
	return ret;
}

static long long tree_bytes;

static int add_bytes(const char *path, const struct stat *st, int flag,
		     struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	tree_bytes += (long long)st->st_blocks * 512;
	return 0;
}

/* Disk used by @dir (hard links counted once per walk, as du does not). */
static long long disk_usage(const char *dir)
{
	tree_bytes = 0;
	if (nftw(dir, add_bytes, 32, FTW_PHYS))
		return -1;
	return tree_bytes;
}

/* verify_target()'s results, as the version's row. */
static void record(const struct verify_ctx *ctx, const struct step_result *res,
		   int n, void *data)
{
	struct sweep_version *v = data;
	char stamp[32];
	time_t now = time(NULL);
	int i, j;

	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%MZ", gmtime(&now));
	v->checked = xstrdup(stamp);
	v->variant = xstrdup(series_of(ctx)->rel ? series_of(ctx)->rel : "n/a");
	v->na_reason = series_of(ctx)->rel || !series_of(ctx)->na_reason ? NULL :
		       xstrdup(series_of(ctx)->na_reason);
	one_line(v->na_reason);
	v->src_key = ctx->fetch.source.src_key ? xstrdup(ctx->fetch.source.src_key) : NULL;
	v->kept = ctx->fetch.source.src && is_dir(ctx->fetch.source.src) ? disk_usage(ctx->fetch.source.src) : 0;
	/* apt's "Failed to fetch URI  404  Not Found" */
	v->gone = res[0].status != STEP_PASS &&
		  strstr(res[0].detail.buf, "Failed to fetch") &&
		  strstr(res[0].detail.buf, " 404 ");
	for (i = 0; i < n; i++) {
		j = step_index(res[i].name);
		if (j < 0)
			continue;
		v->status[j] = xstrdup(step_status_name(res[i].status));
		v->reason[j] = xstrdup(res[i].reason.buf);
		one_line(v->reason[j]);
		v->seconds[j] = res[i].seconds;
	}
	v->have_row = 1;
}

static char *target_name(const struct sweep_version *v)
{
	char *name = xstrfmt("sweep-%s", v->version);

	cache_name(name);
	return name;
}

/* Run the pipeline on one version: 0, or -1 if it could not run. */
static int check_version(struct sweep *sw, struct sweep_version *v)
{
	struct options o = *sw->opt;
	struct target_list list = { 0 };
	struct strbuf line = STRBUF_INIT, err = STRBUF_INIT;
	static const char *const tree_files[] = { "", ".stamp", ".mtimes" };
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
	o.on_result = record;
	o.on_result_data = v;
	clear_row(v);
	verify_target(&list.v[0], &o);
	if (!v->have_row)
		goto out;
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
		if (v->kept > 0 && !run_interrupted() && write_row(sw, v))
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
	if (ok && write_row_file(row, v))
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

	clear_row(v);
	if (ok && read_row_file(row, v))
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

		if (!read_row(sw, v) && !strcmp(v->hash, sw->hash)) {
			v->have_row = v->reused = 1;
			sw->reused++;
			note("sweep: %s %s: unchanged since %s, row reused",
			     v->package, v->version, v->checked);
			judge(v);
			continue;
		}
		clear_row(v);
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
		clear_row(&sw->v[i]);
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
	struct sweep sw = { .opt = opt, .a = a, .md = a->md, .json = a->json };

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
	sw.hash = content_hash(sw.repo);
	if (list_versions(&sw))
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
