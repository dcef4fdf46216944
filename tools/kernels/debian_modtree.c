// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's kernel: the module tree the patched KVM modules are built in
 * (debian_modules.c).  What kbuild wrote there is kept between runs and
 * put back into a fresh tree; another flavour's copy of the sources is
 * kept in step with the tree; what a build killed halfway wrote is
 * removed, to be made again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/series.h"
#include "core/step.h"
#include "kernels/debian.h"
#include "kernels/debian_int.h"
#include "lib/fsutil.h"

/*
 * kbuild writes an M= build's objects into the tree, and the tree step makes
 * a fresh tree when a patch changes: without them, kbuild would compile
 * every object again.  After a good build, what is neither in the pristine
 * source nor a file the series names (kbuild's objects, .cmd files,
 * modules, generated headers) is copied to <build>/kvm-objects; before a
 * build, what a fresh tree lacks is copied back, with its mtime, and
 * kbuild rebuilds only what changed.
 */
const char *const module_dirs[NR_MODULE_DIRS] = { KVM_DIR, "virt/kvm" };

/*
 * A copy of its own, with its mtime: the sandboxed build writes into
 * kbuild's files (.cmd) in place, and a link would let it write the kept
 * copy (and the sandbox may write no file with a second link: sandbox.c).
 */
static void copy_keeping_mtime(const char *from, const char *to)
{
	struct timespec ts[2];
	struct stat st;

	if (stat(from, &st) || copy_file(from, to))
		return;
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	utimensat(AT_FDCWD, to, ts, AT_SYMLINK_NOFOLLOW);
}

/*
 * @rel (tree-relative) is the build's: not in the pristine source (@pristine
 * its path there, NULL: not asked) and no file the series names.
 */
static int build_output(const char *pristine, const struct strvec *series,
			const char *rel)
{
	struct stat st;

	return (!pristine || lstat(pristine, &st)) && !strvec_has(series, rel);
}

static void copy_objects(const char *from, const char *to, const char *pristine,
			 const char *rel, const struct strvec *series)
{
	struct dirent *de;
	DIR *d = opendir(from);

	while (d && (de = readdir(d))) {
		char *f, *t, *p = NULL, *sub;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		f = xstrfmt("%s/%s", from, de->d_name);
		t = xstrfmt("%s/%s", to, de->d_name);
		sub = xstrfmt("%s/%s", rel, de->d_name);
		if (pristine)
			p = xstrfmt("%s/%s", pristine, de->d_name);
		if (lstat(f, &st)) {
			/* gone meanwhile */
		} else if (S_ISDIR(st.st_mode)) {
			copy_objects(f, t, p, sub, series);
		} else if (S_ISREG(st.st_mode) && build_output(p, series, sub) &&
			   lstat(t, &st)) {
			copy_keeping_mtime(f, t);
		}
		free(f);
		free(t);
		free(sub);
		free(p);
	}
	if (d)
		closedir(d);
}

/* Copy what is kbuild's from <from>/DIR to <to>/DIR, for each module dir. */
static void copy_module_dirs(const struct verify_ctx *ctx, const char *from,
			     const char *to, const char *pristine)
{
	struct strvec dirs = STRVEC_INIT, series = STRVEC_INIT;
	struct strbuf list = STRBUF_INIT;
	char *path = xstrfmt("%s/%s", ctx->config.kbuild, KABI_DIRS);
	size_t i;

	/* a file of the series is the tree's: the next series may not have it */
	series_names(series_of(ctx), &series);

	for (i = 0; i < ARRAY_SIZE(module_dirs); i++)
		strvec_push(&dirs, module_dirs[i]);
	/* and the last build's other dirs that include KVM's headers */
	strbuf_read_file(&list, path, 1 << 20);
	kabi_module_dirs(list.buf, &dirs);
	for (i = 0; i < dirs.nr; i++) {
		char *f = xstrfmt("%s/%s", from, dirs.v[i]);
		char *t = xstrfmt("%s/%s", to, dirs.v[i]);
		char *p = pristine ? xstrfmt("%s/%s", pristine, dirs.v[i]) :
				     NULL;

		copy_objects(f, t, p, dirs.v[i], &series);
		free(f);
		free(t);
		free(p);
	}
	strvec_clear(&series);
	strvec_clear(&dirs);
	strbuf_release(&list);
	free(path);
}

char *kept_objects_dir(const struct verify_ctx *ctx)
{
	return xstrfmt("%s/kvm-objects", build_dir(ctx));
}

void restore_objects(const struct verify_ctx *ctx)
{
	char *kept = kept_objects_dir(ctx);

	copy_module_dirs(ctx, kept, ctx->kvm_tree, NULL);
	free(kept);
}

void keep_objects(const struct verify_ctx *ctx)
{
	char *kept = kept_objects_dir(ctx);
	char *tmp = xstrfmt("%s.tmp", kept);

	rm_rf(tmp);
	copy_module_dirs(ctx, ctx->kvm_tree, tmp, ctx->fetch.source.src);
	rm_rf(kept);
	rename(tmp, kept);
	free(kept);
	free(tmp);
}

/* Is @path's content that of @other? */
static int same_bytes(const char *path, const char *other)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int same;

	same = !strbuf_read_file(&a, path, 64 << 20) &&
	       !strbuf_read_file(&b, other, 64 << 20) &&
	       a.len == b.len && !memcmp(a.buf, b.buf, a.len);
	strbuf_release(&a);
	strbuf_release(&b);
	return same;
}

/*
 * Another flavour's module tree: the sources of @rel (a module dir, or one
 * below it) in the tree, those of the pristine source and those the series
 * adds, never kbuild's objects of the amd64 build there.  A file whose
 * bytes changed is written anew, newer than its objects, and kbuild
 * compiles it again; the others keep their mtime, and their objects.
 */
int sync_sources(const struct verify_ctx *ctx, const char *rel,
			const struct strvec *added, struct step_result *r)
{
	char *from = xstrfmt("%s/%s", ctx->tree, rel);
	struct dirent *de;
	DIR *d = opendir(from);
	int ret = 0;

	if (!d) {
		strbuf_addf(&r->reason, "%s: %s", from, strerror(errno));
		free(from);
		return -1;
	}
	while ((de = readdir(d)) && !ret) {
		char *sub, *f, *t, *p;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		sub = xstrfmt("%s/%s", rel, de->d_name);
		f = xstrfmt("%s/%s", ctx->tree, sub);
		t = xstrfmt("%s/%s", ctx->kvm_tree, sub);
		p = xstrfmt("%s/%s", ctx->fetch.source.src, sub);
		if (lstat(f, &st)) {
			/* gone meanwhile */
		} else if (S_ISDIR(st.st_mode)) {
			ret = sync_sources(ctx, sub, added, r);
		} else if (S_ISREG(st.st_mode) &&
			   (is_file(p) || strvec_has(added, sub)) &&
			   !same_bytes(f, t)) {
			unlink(t);
			ret = copy_file(f, t);
			if (ret)
				strbuf_addf(&r->reason, "cannot copy %s to %s: %s",
					    f, t, strerror(errno));
		}
		free(sub);
		free(f);
		free(t);
		free(p);
	}
	closedir(d);
	free(from);
	return ret;
}

int sync_kvm_tree(const struct verify_ctx *ctx, struct step_result *r)
{
	struct strvec files = STRVEC_INIT;
	size_t i;
	int ret = 0;

	if (default_flavour(ctx))
		return 0;
	series_files(series_of(ctx), &files, 0);
	for (i = 0; i < ARRAY_SIZE(module_dirs) && !ret; i++)
		ret = sync_sources(ctx, module_dirs[i], &files, r);
	strvec_clear(&files);
	return ret;
}

/*
 * A make killed outright (SIGKILL, the machine gone) leaves objects that
 * look finished and are not: kbuild appends an object's CRCs (#SYMVER) to
 * its .cmd after writing both, so one killed in between has an object
 * newer than its source and no CRC, and the next make keeps it.  A file
 * in <objtree> (MODULES_BUILDING) marks a module build from its start
 * (before the kept objects are put back) to its end; when a build finds
 * it, what was written in the module tree since, neither the source's
 * nor a file the series names, is removed, to be made again.
 */
static void drop_outputs_since(const struct verify_ctx *ctx, const char *rel,
			       const struct strvec *series,
			       const struct timespec *since)
{
	char *dir = xstrfmt("%s/%s", ctx->kvm_tree, rel);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *sub, *path, *pristine;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = xstrfmt("%s/%s", rel, de->d_name);
		path = xstrfmt("%s/%s", ctx->kvm_tree, sub);
		pristine = xstrfmt("%s/%s", ctx->fetch.source.src, sub);
		if (lstat(path, &st)) {
			/* gone meanwhile */
		} else if (S_ISDIR(st.st_mode)) {
			drop_outputs_since(ctx, sub, series, since);
		} else if ((st.st_mtim.tv_sec > since->tv_sec ||
			    (st.st_mtim.tv_sec == since->tv_sec &&
			     st.st_mtim.tv_nsec >= since->tv_nsec)) &&
			   build_output(pristine, series, sub)) {
			unlink(path);
		}
		free(sub);
		free(path);
		free(pristine);
	}
	if (d)
		closedir(d);
	free(dir);
}

/* The marker of an unfinished build: what it wrote removed; 1 if there was one. */
int drop_unfinished_build(const struct verify_ctx *ctx, const char *marker)
{
	/* arch/x86/kvm, virt/kvm, and where the kabi dirs may be */
	static const char *const dirs[] = { "arch/x86", "virt/kvm", "drivers" };
	struct strvec series = STRVEC_INIT;
	struct stat st;
	size_t i;

	if (stat(marker, &st))
		return 0;
	series_names(series_of(ctx), &series);
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		drop_outputs_since(ctx, dirs[i], &series, &st.st_mtim);
	strvec_clear(&series);
	unlink(marker);
	return 1;
}

int mark_building(const char *marker, struct step_result *r)
{
	if (!write_file(marker, "", 0))
		return 0;
	strbuf_addf(&r->reason, "cannot write %s: %s", marker, strerror(errno));
	return -1;
}
