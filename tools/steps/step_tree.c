// SPDX-License-Identifier: GPL-2.0
/*
 * tree: this run's tree, made of hard links to the pristine source (no
 * second copy of ~1.8 GB).  A tree of an earlier series of the same source
 * is linked to it again where it differs, not made anew (tree_relink()).  patch(1) writes a new file and renames it over
 * the old name, so patching breaks the link and never touches the pristine
 * file.  A tree whose series applied completely and has not changed since
 * is reused as it is.  What fails here is the source (a symlink where the
 * series patches) or the machine (cp, the disk), never whether the patch
 * applies (the apply step's): an ERROR.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/series.h"
#include "lib/fsutil.h"
#include "lib/tree.h"
#include "sources/manifest.h"
#include "steps/steps.h"

static int link_tree(const struct verify_ctx *ctx, struct step_result *r,
		     const char *tmp)
{
	struct child c = CHILD_INIT;
	int ret;

	strvec_pushl(&c.args, "cp", "-al", "--", ctx->fetch.source.src, tmp, NULL);
	ret = step_run(ctx, r, &c);
	child_clear(&c);
	if (!ret)
		return 0;
	/* Another filesystem: no hard links, so a full copy. */
	rm_rf(tmp);
	strbuf_reset(&r->reason);
	strvec_pushl(&c.args, "cp", "-a", "--reflink=auto", "--", ctx->fetch.source.src,
		     tmp, NULL);
	ret = step_run(ctx, r, &c);
	child_clear(&c);
	return ret;
}

/*
 * Give every file the series touches its own inode before quilt runs:
 * quilt's backup and rollback move and touch files, and in a hard-linked
 * tree that would reach the pristine copy.  The mtime is kept.
 */
static int unshare_patched(const struct verify_ctx *ctx, struct step_result *r)
{
	struct strvec files = STRVEC_INIT;
	size_t i;
	int ret = 0;

	series_files(series_of(ctx), &files, 0);
	for (i = 0; i < files.nr && !ret; i++) {
		char *path = xstrfmt("%s/%s", ctx->tree, files.v[i]);
		struct strbuf sb = STRBUF_INIT;
		struct timespec ts[2];
		struct stat st;

		if (!lstat(path, &st) && S_ISREG(st.st_mode) && st.st_nlink > 1) {
			ts[0] = st.st_atim;
			ts[1] = st.st_mtim;
			ret = strbuf_read_file(&sb, path, 256 << 20) ||
			      write_file_atomic(path, sb.buf, sb.len) ||
			      utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW);
			if (ret)
				strbuf_addf(&r->reason, "cannot unshare %s: %m",
					    files.v[i]);
		}
		strbuf_release(&sb);
		free(path);
	}
	strvec_clear(&files);
	return ret;
}

/*
 * The tree was linked to this source (cp -al, then patched): its top-level
 * files are still the source's own inodes.  Any other tree is linked
 * afresh rather than relinked entry by entry.
 */
static int linked_to_source(const struct verify_ctx *ctx)
{
	static const char *const probes[] = { "COPYING", "Makefile" };
	size_t i;

	if (!is_real_dir(ctx->tree))
		return 0;
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		char *t = xstrfmt("%s/%s", ctx->tree, probes[i]);
		char *s = xstrfmt("%s/%s", ctx->fetch.source.src, probes[i]);
		struct stat ts, ss;
		int same = !lstat(t, &ts) && !lstat(s, &ss) &&
			   S_ISREG(ss.st_mode) && ts.st_ino == ss.st_ino &&
			   ts.st_dev == ss.st_dev;

		free(t);
		free(s);
		if (same)
			return 1;
	}
	return 0;
}

static enum step_status prepare_tree(const struct verify_ctx *ctx, struct step_result *r)
{
	char *stamp = tree_stamp_path(ctx), *dir = cache_path(ctx, "trees");
	/* The target's lock owns it (no target name starts with '.'). */
	char *tmp = cache_path(ctx, "trees/.tmp-%s", ctx->t->name);
	struct strbuf relink_err = STRBUF_INIT;
	enum step_status st = STEP_ERROR;
	int changed = ctx->fetch.source.refetched;

	/*
	 * Only the tree in the cache is ever written: the source is a real
	 * directory, and no name in the series leaves the tree or reaches
	 * through a symlink, before anything touches a file.
	 */
	if (!is_real_dir(ctx->fetch.source.src)) {
		strbuf_addf(&r->reason, "the source %s is not a directory (a symlink?): refusing to link a tree to it",
			    ctx->fetch.source.src);
		goto out;
	}
	if (series_check_tree(series_of(ctx), ctx->fetch.source.src, &r->reason))
		goto out;
	/* The source changed since it was fetched: nothing built from it. */
	if (changed)
		rm_rf(ctx->build);
	if (series_of(ctx)->dir && !changed && tree_is_current(ctx)) {
		strbuf_addstr(&r->reason, "reused: source and series unchanged");
		st = STEP_PASS;
		goto out;
	}
	unlink(stamp);
	mkdir_p(dir);
	rm_rf(tmp);	/* left by an interrupted run */
	if (!changed && linked_to_source(ctx)) {
		size_t n;

		if (!tree_relink(ctx->tree, ctx->fetch.source.src, &n,
				 &relink_err)) {
			if (unshare_patched(ctx, r))
				goto out;
			strbuf_addf(&r->reason, "fresh tree linked to %s (the old one relinked: %zu entries put back)",
				    ctx->fetch.source.src_key, n);
			st = STEP_PASS;
			goto out;
		}
	}
	if (rm_rf(ctx->tree) < 0) {
		strbuf_addf(&r->reason, "cannot remove the old tree %s: %s",
			    ctx->tree, strerror(errno));
		goto out;
	}
	if (link_tree(ctx, r, tmp))
		goto out;
	if (!is_real_dir(tmp)) {
		strbuf_addf(&r->reason, "cp -al made %s something other than a directory",
			    tmp);
		goto out;
	}
	if (rename(tmp, ctx->tree) < 0) {
		strbuf_addf(&r->reason, "rename %s: %s", ctx->tree,
			    strerror(errno));
		goto out;
	}
	if (unshare_patched(ctx, r))
		goto out;
	strbuf_addf(&r->reason, "fresh tree linked to %s", ctx->fetch.source.src_key);
	if (relink_err.len)
		strbuf_addf(&r->reason, " (%s)", relink_err.buf);
	st = STEP_PASS;
out:
	if (st != STEP_PASS)
		rm_rf(tmp);
	strbuf_release(&relink_err);
	free(tmp);
	free(dir);
	free(stamp);
	return st;
}

static enum step_status tree_step_run(const struct verify_ctx *ctx, void *out,
				      struct step_result *r)
{
	(void)out;	/* it has none */
	return prepare_tree(ctx, r);
}

const struct step tree_step = {
	.name = "tree",
	.run = tree_step_run,
	.timeout = 900,
	.flags = STEP_SOURCE_ONLY,
	.needs = NEEDS(STEP_IDX_fetch),
};
