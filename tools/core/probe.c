// SPDX-License-Identifier: GPL-2.0
/*
 * SERIES "auto" in kernels.list (for a vendor tree, say): the semantic patch
 * tells the shape of kvm_pmu_incr_counter() in the pristine source; of the
 * variants made for that shape (series/ and backports/<X.Y>/, whose file
 * "variant" says "shape:" and "kernel: X.Y"), the one made for the nearest
 * kernel version that applies with --fuzz=0 is picked.  The fetch step
 * reports what was tried and why.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/cocci.h"
#include "core/probe.h"
#include "core/series.h"
#include "core/step.h"
#include "core/toolout.h"
#include "lib/fsutil.h"
#include "lib/run.h"
#include "lib/sandbox.h"
#include "sources/source.h"

struct variant {
	char *rel;		/* "series" or "backports/X.Y" */
	char *shape;
	char *kernel;		/* "X.Y" it was made for */
	long distance;		/* from the probed tree's version */
};

/* "X.Y" as X * 1000 + Y, or -1. */
static long version_number(const char *s)
{
	char *end;
	long major = strtol(s, &end, 10), minor;

	if (end == s || *end != '.' || major < 2 || major > 99)
		return -1;
	s = end + 1;
	minor = strtol(s, &end, 10);
	if (end == s || minor < 0 || minor > 999)
		return -1;
	return major * 1000 + minor;
}

long tree_version(const char *src)
{
	char *branch = kernel_release(src, 0);
	long ret = branch ? version_number(branch) : -1;

	free(branch);
	return ret;
}

/* The "shape:" and "kernel:" lines of @rel/variant; -1 without them. */
static int read_variant(const char *repo, const char *rel, struct variant *v)
{
	struct strbuf sb = STRBUF_INIT;
	char *file = xstrfmt("%s/%s/variant", repo, rel), *line, *save = NULL;

	memset(v, 0, sizeof(*v));
	if (strbuf_read_file(&sb, file, 1 << 20) < 0)
		goto out;
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *val;

		if (skip_prefix(line, "shape: ", &val) && !v->shape)
			v->shape = xstrdup(val);
		else if (skip_prefix(line, "kernel: ", &val) && !v->kernel)
			v->kernel = xstrdup(val);
	}
out:
	free(file);
	strbuf_release(&sb);
	if (v->shape && v->kernel && version_number(v->kernel) > 0) {
		v->rel = xstrdup(rel);
		return 0;
	}
	free(v->shape);
	free(v->kernel);
	return -1;
}

static int by_distance(const void *a, const void *b)
{
	const struct variant *x = a, *y = b;

	if (x->distance != y->distance)
		return x->distance < y->distance ? -1 : 1;
	/* Equally far: the newer kernel's variant first. */
	return version_number(y->kernel) > version_number(x->kernel) ? 1 : -1;
}

/* Variants for @shape, nearest to @version first; *@nr of them. */
static struct variant *variants_for(const char *repo, const char *shape,
				    long version, size_t *nr,
				    struct strbuf *notes)
{
	char *dir = xstrfmt("%s/backports", repo);
	struct variant *vs = NULL, v;
	struct strvec rels = STRVEC_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);
	size_t i;

	strvec_push(&rels, "series");
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			strvec_pushf(&rels, "backports/%s", de->d_name);
	if (d)
		closedir(d);
	*nr = 0;
	for (i = 0; i < rels.nr; i++) {
		if (read_variant(repo, rels.v[i], &v)) {
			strbuf_addf(notes, "; %s/variant has no \"shape:\" and \"kernel: X.Y\" lines, not a candidate",
				    rels.v[i]);
			continue;
		}
		if (strcmp(v.shape, shape)) {
			free(v.rel);
			free(v.shape);
			free(v.kernel);
			continue;
		}
		v.distance = labs(version_number(v.kernel) - version);
		vs = xrealloc(vs, (*nr + 1) * sizeof(*vs));
		vs[(*nr)++] = v;
	}
	qsort(vs, *nr, sizeof(*vs), by_distance);
	strvec_clear(&rels);
	free(dir);
	return vs;
}

/* A tree-relative path that stays inside the tree. */
static int inside(const char *path)
{
	const char *p = path;

	if (!*p || *p == '/')
		return 0;
	while (*p) {
		size_t n = strcspn(p, "/");

		if ((n == 2 && starts_with(p, "..")) || n == 0)
			return 0;
		p += n;
		if (*p)
			p++;
	}
	return 1;
}

/* "file: Hunk #N FAILED at L" from patch's output, or its last line. */
static void first_failure(const char *out, struct strbuf *why)
{
	const char *file = NULL, *p = out, *last = out;
	int file_len = 0;

	while (p && *p) {
		const char *e = strchr(p, '\n');
		int n = e ? (int)(e - p) : (int)strlen(p);

		if (skip_prefix(p, "patching file ", &file)) {
			file_len = n - (file - p);
		} else if (strstr(p, "FAILED") && strstr(p, "FAILED") < p + n &&
			   starts_with(p, "Hunk #")) {
			if (n && p[n - 1] == '.')
				n--;
			strbuf_addf(why, "%.*s: %.*s", file_len, file ? file : "",
				    n, p);
			return;
		}
		if (n)
			last = p;
		p = e ? e + 1 : NULL;
	}
	strbuf_add(why, last, strcspn(last, "\n"));
}

/* What applies() found. */
enum { APPLIES = 0, DOES_NOT_APPLY = -1, CANNOT_TRY = -2 };

/*
 * Apply the loaded series with --fuzz=0 to copies of the files it touches,
 * in @work: APPLIES, else why not, and DOES_NOT_APPLY, or CANNOT_TRY when
 * patch(1) or its sandbox cannot run here.
 */
static int applies(const struct verify_ctx *ctx, const struct series *sr,
		   const char *work, struct strbuf *why)
{
	struct strvec files = STRVEC_INIT;
	size_t i;
	int ret = APPLIES;

	rm_rf(work);
	mkdir_p(work);
	series_files(sr, &files, 0);
	for (i = 0; i < files.nr && !ret; i++) {
		char *from = xstrfmt("%s/%s", ctx->fetch.source.src, files.v[i]);
		char *to = xstrfmt("%s/%s", work, files.v[i]);

		if (!inside(files.v[i])) {
			strbuf_addf(why, "names %s, outside the tree",
				    files.v[i]);
			ret = DOES_NOT_APPLY;
		} else if (is_file(from) && copy_file(from, to)) {
			strbuf_addf(why, "cannot copy %s", files.v[i]);
			ret = DOES_NOT_APPLY;
		}
		free(from);
		free(to);
	}
	for (i = 0; i < sr->patches.nr && !ret; i++) {
		struct sandbox sb = SANDBOX_INIT;
		struct child c = CHILD_INIT;
		struct strbuf out = STRBUF_INIT;

		strvec_pushl(&c.args, "patch", "-p1", "--fuzz=0", "--forward",
			     "--batch", "--no-backup-if-mismatch",
			     "--reject-file=-", "-i", sr->patches.v[i], NULL);
		c.dir = work;
		c.out = &out;
		c.log = ctx->log;
		c.timeout = ctx->timeout;
		/* patch(1) on the tree's files: it writes only @work. */
		strvec_push(&sb.ro, ctx->repo);
		strvec_push(&sb.rw, work);
		if (sandbox_child(&c, &sb, why)) {
			ret = CANNOT_TRY;
		} else if (run_child(&c)) {
			strbuf_addf(why, "%s: ", patch_name(sr->patches.v[i]));
			if (c.spawn_errno || c.timed_out || c.interrupted)
				child_describe_failure(&c, why);
			else
				first_failure(out.buf, why);
			ret = c.spawn_errno ? CANNOT_TRY : DOES_NOT_APPLY;
		}
		child_clear(&c);
		sandbox_clear(&sb);
		strbuf_release(&out);
	}
	strvec_clear(&files);
	rm_rf(work);
	return ret;
}

static enum step_status pick(const struct verify_ctx *ctx,
			     struct series *probed, struct step_result *r,
			     const char *shape)
{
	char *work = xstrfmt("%s/probe-apply", ctx->results);
	long version = tree_version(ctx->fetch.source.src);
	char *where = xstrfmt("%s:%d", ctx->opt->list, ctx->t->line);
	struct strbuf notes = STRBUF_INIT;
	struct variant *vs;
	size_t i, nr;
	enum step_status st = STEP_FAIL;

	if (version < 0) {
		strbuf_addf(&r->reason, "; %s/Makefile has no VERSION and PATCHLEVEL: cannot tell which variant is nearest",
			    ctx->fetch.source.src);
		free(where);
		free(work);
		return STEP_FAIL;
	}
	vs = variants_for(ctx->repo, shape, version, &nr, &notes);
	strbuf_addf(&r->reason, "; probed shape %s on %ld.%ld", shape,
		    version / 1000, version % 1000);
	for (i = 0; i < nr && st == STEP_FAIL; i++) {
		struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
		int tried;

		if (series_load(probed, ctx->repo, vs[i].rel, where, &err)) {
			strbuf_addf(&r->reason, "; %s: %s", vs[i].rel, err.buf);
			strbuf_trim_trailing(&r->reason);
			series_clear(probed);
			strbuf_release(&err);
			continue;
		}
		tried = applies(ctx, probed, work, &why);
		if (tried == APPLIES) {
			strbuf_addf(&r->reason, "; picked %s (made for %s, applies with --fuzz=0)",
				    vs[i].rel, vs[i].kernel);
			st = STEP_PASS;
		} else {
			strbuf_addf(&r->reason, "; tried %s (made for %s): %s",
				    vs[i].rel, vs[i].kernel, why.buf);
			if (tried == CANNOT_TRY)
				st = STEP_ERROR;
		}
		if (st != STEP_PASS)
			series_clear(probed);
		strbuf_release(&err);
		strbuf_release(&why);
	}
	if (st == STEP_FAIL)
		strbuf_addf(&r->reason, "; %s: generate one with make backport TREE=%s NAME=<X.Y>",
			    nr ? "no variant of this shape applies" :
			    "no variant is made for this shape", ctx->fetch.source.src);
	strbuf_addstr(&r->reason, notes.buf);
	for (i = 0; i < nr; i++) {
		free(vs[i].rel);
		free(vs[i].shape);
		free(vs[i].kernel);
	}
	free(vs);
	strbuf_release(&notes);
	free(where);
	free(work);
	return st;
}

enum step_status probe_series(const struct verify_ctx *ctx,
			      struct fetch_out *out, struct step_result *r)
{
	char *work = xstrfmt("%s/probe", ctx->results), *outcome = NULL;
	enum cocci_outcome kind;
	const char *rest;
	struct strbuf why = STRBUF_INIT;
	enum step_status st = STEP_FAIL;
	int ret;

	rm_rf(work);
	ret = cocci_run(ctx->repo, ctx->fetch.source.src, work, 0, ctx->log,
			ctx->timeout, &outcome, &why);
	if (ret) {
		strbuf_addf(&r->reason, "; probe: %s", why.buf);
		if (ret == COCCI_CANNOT_RUN)
			st = STEP_ERROR;
		goto out;
	}
	kind = cocci_outcome(outcome, &rest);
	if (kind == COCCI_APPLIED) {
		st = pick(ctx, &out->probed, r, rest);
	} else if (kind == COCCI_NOT_APPLICABLE) {
		out->probed.na_reason = xstrdup(rest);
		strbuf_addf(&r->reason, "; probed: n/a, %s", out->probed.na_reason);
		st = STEP_PASS;
	} else if (kind == COCCI_ALREADY) {
		out->probed.na_reason = xstrdup("the tree already carries emulated_counter_reprogram_tolerance");
		strbuf_addf(&r->reason, "; probed: n/a, %s", out->probed.na_reason);
		st = STEP_PASS;
	} else {
		/* "UNKNOWN <shape> ..." already says which hunk is missing. */
		strbuf_addf(&r->reason, "; probe: %s%s", outcome,
			    strcmp(outcome, "UNKNOWN") ? "" :
			    ": kvm_pmu_incr_counter() has a shape no rule knows");
	}
out:
	rm_rf(work);
	strbuf_release(&why);
	free(outcome);
	free(work);
	return st;
}
