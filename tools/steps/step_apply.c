// SPDX-License-Identifier: GPL-2.0
/*
 * apply: quilt push -a --fuzz=0 with the series directory of this
 * repository.  When a patch does not apply, say which patch and hunk, and
 * show the rejects; the tree is then remade by the next run.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/series.h"
#include "core/toolout.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "steps/steps.h"

static void quilt_args(const struct verify_ctx *ctx, struct child *c)
{
	strvec_pushl(&c->args, "quilt", "--quiltrc", "/dev/null", NULL);
	strvec_pushf(&c->env, "QUILT_PATCHES=%s", series_of(ctx)->dir);
	strvec_push(&c->env, "QUILT_SERIES=series");
	strvec_push(&c->env, "QUILT_PC=.pc");
	c->dir = ctx->tree;
}

/* The first "Applying patch X" whose hunks failed, and the hunk lines. */
static void describe_failure(const char *log, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, log, 16 << 20) >= 0)
		quilt_failure(sb.buf, why);
	strbuf_release(&sb);
}

static void collect_rejects(const struct verify_ctx *ctx, struct step_result *r)
{
	struct strvec files = STRVEC_INIT;
	size_t i;

	series_files(series_of(ctx), &files, 0);
	strbuf_reset(&r->detail);
	for (i = 0; i < files.nr; i++) {
		char *rej = xstrfmt("%s/%s.rej", ctx->tree, files.v[i]);
		struct strbuf sb = STRBUF_INIT;

		/* a .rej the series made a symlink or FIFO is not read */
		if (!strbuf_read_regular(&sb, rej, 1 << 20) && sb.len)
			strbuf_addf(&r->detail, "--- reject: %s.rej\n%s",
				    files.v[i], sb.buf);
		strbuf_release(&sb);
		free(rej);
	}
	strvec_clear(&files);
}

/*
 * A file the last series patched and this one does not is pristine again,
 * with the pristine (older) mtime: give it a fresh inode and mtime, or
 * make would keep the objects built from the patched version.
 */
static void refresh_unpatched(const struct verify_ctx *ctx, const char *old,
			      const struct strvec *files)
{
	char *copy = xstrdup(old), *line, *save = NULL;
	size_t i;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct strbuf sb = STRBUF_INIT;
		char *sp = strchr(line, ' '), *path;

		if (!sp)
			continue;
		*sp = '\0';
		for (i = 0; i < files->nr && strcmp(files->v[i], line); i++)
			;
		if (i < files->nr)
			continue;
		path = xstrfmt("%s/%s", ctx->tree, line);
		if (!strbuf_read_file(&sb, path, 64 << 20))
			write_file_atomic(path, sb.buf, sb.len);
		strbuf_release(&sb);
		free(path);
	}
	free(copy);
}

/* Keep the mtime of patched files whose content did not change. */
static void keep_mtimes(const struct verify_ctx *ctx)
{
	char *manifest = cache_path(ctx, "trees/%s.mtimes", ctx->t->name);
	struct strbuf old = STRBUF_INIT, out = STRBUF_INIT;
	struct strvec files = STRVEC_INIT;
	size_t i;

	strbuf_read_file(&old, manifest, 1 << 20);
	series_files(series_of(ctx), &files, 0);
	refresh_unpatched(ctx, old.buf, &files);
	for (i = 0; i < files.nr; i++) {
		char *path = xstrfmt("%s/%s", ctx->tree, files.v[i]);
		uint64_t h = HASH_INIT;
		struct timespec ts[2];
		struct stat st;
		char *key, *hit;

		/* Only a regular file's: never through a link to outside. */
		if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
		    hash_file(&h, path)) {
			free(path);
			continue;
		}
		key = xstrfmt("%s %016llx ", files.v[i], (unsigned long long)h);
		hit = strstr(old.buf, key);
		if (hit && (hit == old.buf || hit[-1] == '\n') &&
		    sscanf(hit + strlen(key), "%ld.%ld", &ts[1].tv_sec,
			   &ts[1].tv_nsec) == 2) {
			ts[0] = ts[1];
			utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW);
		} else {
			ts[1] = st.st_mtim;
		}
		strbuf_addf(&out, "%s%ld.%09ld\n", key, (long)ts[1].tv_sec,
			    ts[1].tv_nsec);
		free(key);
		free(path);
	}
	write_file_atomic(manifest, out.buf, out.len);
	strvec_clear(&files);
	strbuf_release(&old);
	strbuf_release(&out);
	free(manifest);
}

static int log_says_enospc(const char *log)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_read_file(&sb, log, 64 << 20);
	ret = !!strstr(sb.buf, "No space left on device");
	strbuf_release(&sb);
	return ret;
}

static enum step_status apply_series(const struct verify_ctx *ctx, struct step_result *r)
{
	/* patch(1) writes the tree (sandbox.c keeps the pristine inodes). */
	const char *tree_rw[2] = { NULL };
	struct step_result forced = STEP_RESULT_INIT("apply");
	char *stamp, *stamp_path, *after;
	struct child c = CHILD_INIT;
	int ret;

	tree_rw[0] = ctx->tree;
	if (!ctx->fetch.source.src_key || !is_dir(ctx->tree)) {
		strbuf_addstr(&r->reason, "no tree to apply the series to: the fetch and tree steps did not run");
		return STEP_SKIP;
	}
	if (tree_is_current(ctx)) {
		strbuf_addf(&r->reason, "%zu patches applied (tree reused)",
			    series_of(ctx)->patches.nr);
		return STEP_PASS;
	}
	/* What the tree will be stamped with: the series as quilt reads it. */
	stamp = tree_stamp(ctx);
	quilt_args(ctx, &c);
	strvec_pushl(&c.args, "push", "-a", "--fuzz=0", NULL);
	ret = step_run_sandboxed(ctx, r, &c, tree_rw);
	child_clear(&c);
	if (ret && !c.spawn_errno && !c.interrupted && !c.timed_out) {
		strbuf_reset(&r->reason);
		describe_failure(ctx->log, &r->reason);
		if (log_says_enospc(ctx->log)) {
			/* The disk, not the patch: an ERROR. */
			strbuf_addstr(&r->reason, "; no space left on device (cache or results)");
			free(stamp);
			return STEP_ERROR;
		}
		/* Force the failing patch in to show its rejects. */
		quilt_args(ctx, &c);
		strvec_pushl(&c.args, "push", "-f", "--fuzz=0", NULL);
		c.log = ctx->log;
		step_run_sandboxed(ctx, &forced, &c, tree_rw);
		strbuf_release(&forced.reason);
		strbuf_release(&forced.detail);
		child_clear(&c);
		collect_rejects(ctx, r);
		strbuf_addf(&r->detail, "(log: %s)\n", ctx->log);
	}
	if (ret) {
		free(stamp);
		return STEP_FAIL;
	}
	/*
	 * A series file replaced while quilt ran: which of the two is in the
	 * tree nobody knows, so the tree is never stamped, and the next run
	 * makes it again.
	 */
	after = tree_stamp(ctx);
	if (strcmp(stamp, after)) {
		strbuf_addstr(&r->reason, "the series changed while it was being applied: run again (the tree will be made afresh)");
		free(stamp);
		free(after);
		return STEP_FAIL;
	}
	free(after);
	keep_mtimes(ctx);
	stamp_path = tree_stamp_path(ctx);
	write_file_atomic(stamp_path, stamp, strlen(stamp));
	free(stamp);
	free(stamp_path);
	strbuf_addf(&r->reason, "%zu patches applied with --fuzz=0",
		    series_of(ctx)->patches.nr);
	return STEP_PASS;
}

static enum step_status apply_step_run(const struct verify_ctx *ctx, void *out,
				       struct step_result *r)
{
	(void)out;	/* it has none */
	return apply_series(ctx, r);
}

const struct step apply_step = {
	.name = "apply",
	.run = apply_step_run,
	.timeout = 300,
	.flags = STEP_SOURCE_ONLY,
	.needs = NEEDS(STEP_IDX_tree),
};
