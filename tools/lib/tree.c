// SPDX-License-Identifier: GPL-2.0
/*
 * Trees in the cache: a path below a directory, a tree from outside
 * confined to itself, a tree of hard links made equal to its source again,
 * and what was unpacked made ours alone.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/tree.h"

/* Is @path @dir or below it?  As strings: resolve both first if need be. */
int path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (!path[n] || path[n] == '/');
}

/*
 * Where the symlink @link (inside @root) leads stays inside @root.  Its
 * target is followed a name at a time from the link's own directory: a name
 * that exists is resolved (symlinks and all), one that does not (a partial
 * tree, a dangling link) is taken as written, and ".." after it takes it
 * back; ".." of a resolved directory is its real parent.
 */
static int link_confined(const char *root, const char *link,
			 struct strbuf *why)
{
	char target[PATH_MAX], *dir, *cur, *name, *save = NULL;
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	int missing = 0, inside;

	if (n < 0) {
		strbuf_addf(why, "cannot read the symlink: %s", strerror(errno));
		return -1;
	}
	target[n] = '\0';
	if (target[0] == '/') {
		strbuf_addf(why, "a symlink to the absolute path %s", target);
		return -1;
	}
	dir = xstrfmt("%.*s", (int)(strrchr(link, '/') - link), link);
	cur = realpath(dir, NULL);
	free(dir);
	if (!cur)
		goto outside;
	dir = xstrdup(target);
	for (name = strtok_r(dir, "/", &save); name && cur;
	     name = strtok_r(NULL, "/", &save)) {
		char *next;

		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			char *slash = strrchr(cur, '/');

			if (missing)
				missing--;
			if (slash && slash != cur)
				*slash = '\0';
			else
				cur[1] = '\0';	/* the root */
			continue;
		}
		next = xstrfmt("%s/%s", strcmp(cur, "/") ? cur : "", name);
		free(cur);
		cur = missing ? NULL : realpath(next, NULL);
		if (cur) {
			free(next);
		} else {
			cur = next;
			missing++;
		}
	}
	free(dir);
outside:
	inside = cur && path_under(cur, root);
	free(cur);
	if (inside)
		return 0;
	strbuf_addf(why, "a symlink to %s, which leads outside the tree",
		    target);
	return -1;
}

static const char *confine_root;
static struct strbuf *confine_err;

static int confine_one(const char *path, const struct stat *st, int type,
		       struct FTW *ftw)
{
	struct strbuf why = STRBUF_INIT;

	(void)ftw;
	if (type == FTW_SL)
		link_confined(confine_root, path, &why);
	else if (type == FTW_NS || type == FTW_DNR)
		strbuf_addf(&why, "cannot be read: %s", strerror(errno));
	else if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		strbuf_addstr(&why, "neither a file, a directory nor a symlink");
	if (why.len)
		strbuf_addf(confine_err, "%s: %s",
			    path + strlen(confine_root) + 1, why.buf);
	strbuf_release(&why);
	return confine_err->len ? 1 : 0;
}

/*
 * A tree from outside (a tarball, a package, a repository) holds files,
 * directories and symlinks that stay inside it, nothing else: quilt and
 * the build write through what the tree holds.
 */
int tree_confined(const char *root, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	char *real = realpath(root, NULL);
	int ret;

	if (!real || !is_real_dir(root)) {
		strbuf_addf(err, "%s is not a directory", root);
		free(real);
		return -1;
	}
	confine_root = real;
	confine_err = &why;
	ret = nftw(real, confine_one, 64, FTW_PHYS);
	if (ret < 0)
		strbuf_addf(err, "cannot walk %s: %s", root, strerror(errno));
	strbuf_addstr(err, why.buf);
	strbuf_release(&why);
	free(real);
	return ret ? -1 : 0;
}

/*
 * tree_relink(): nftw has no closure.  @relink_from is the tree walked,
 * @relink_to the other one; an entry's peer is its path in the other.
 */
static const char *relink_from, *relink_to;
static size_t relink_changed;

static char *relink_peer(const char *path)
{
	return xstrfmt("%s%s", relink_to, path + strlen(relink_from));
}

/* Remove what is not, at the same path, the source's own inode. */
static int relink_remove(const char *path, const struct stat *st, int type,
			 struct FTW *ftw)
{
	char *peer;
	struct stat ps;
	int same, ret;

	if (!ftw->level)
		return 0;
	if (type != FTW_F && type != FTW_SL && type != FTW_DP)
		return -1;	/* unreadable: the caller links afresh */
	peer = relink_peer(path);
	if (lstat(peer, &ps) < 0)
		same = 0;
	else if (type == FTW_DP)
		same = S_ISDIR(ps.st_mode);
	else
		same = ps.st_ino == st->st_ino && ps.st_dev == st->st_dev;
	free(peer);
	if (same)
		return 0;
	relink_changed++;
	ret = type == FTW_DP ? rmdir(path) : unlink(path);
	return ret < 0 ? -1 : 0;
}

/* Link in what the source has and the tree lacks. */
static int relink_add(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	char *peer;
	struct stat ts;
	int ret = 0;

	if (!ftw->level)
		return 0;
	peer = relink_peer(path);
	if (!lstat(peer, &ts)) {
		free(peer);
		return 0;
	}
	if (errno != ENOENT)
		ret = -1;
	else if (type == FTW_D)
		ret = mkdir(peer, st->st_mode & 07777);
	else if (type == FTW_F || type == FTW_SL)
		ret = link(path, peer);
	else
		ret = -1;
	if (!ret)
		relink_changed++;
	free(peer);
	return ret < 0 ? -1 : 0;
}

/*
 * @tree, made of hard links to @src by cp -al, made so again: whatever in
 * it is not @src's own inode at the same path (what a patch, quilt or
 * anyone else wrote since) is removed, and what @src has and @tree lacks
 * is linked in.  Two walks of lstat()s instead of a new tree of 90,000
 * links.  On failure @tree is half done: the caller removes it.
 * @changed: how many entries were removed or added.
 */
int tree_relink(const char *tree, const char *src, size_t *changed,
		struct strbuf *err)
{
	int ret;

	relink_changed = 0;
	relink_from = tree;
	relink_to = src;
	ret = nftw(tree, relink_remove, 64, FTW_DEPTH | FTW_PHYS);
	if (!ret) {
		relink_from = src;
		relink_to = tree;
		ret = nftw(src, relink_add, 64, FTW_PHYS);
	}
	if (ret)
		strbuf_addf(err, "cannot link %s to %s again: %s", tree, src,
			    errno ? strerror(errno) : "an entry it cannot read");
	*changed = relink_changed;
	relink_from = relink_to = NULL;
	return ret ? -1 : 0;
}

static int normalize_one(const char *path, const struct stat *st, int type,
			 struct FTW *ftw)
{
	mode_t want = st->st_mode & 0755;

	(void)ftw;
	if (st->st_uid != geteuid() || st->st_gid != getegid())
		if (lchown(path, geteuid(), getegid()) < 0)
			return -1;
	if (type == FTW_SL)
		return 0;
	if (type == FTW_D || type == FTW_DP)
		want |= 0700;
	else
		want |= 0600;
	if ((st->st_mode & 07777) != want && chmod(path, want) < 0)
		return -1;
	return 0;
}

/*
 * What a tarball or package unpacked into the cache is ours alone: owned
 * by us, no setuid, setgid or sticky bit, nothing others may write (so no
 * other user changes a file and restores its mtime behind the manifest).
 */
int tree_normalize(const char *root, struct strbuf *err)
{
	if (nftw(root, normalize_one, 64, FTW_PHYS) < 0) {
		strbuf_addf(err, "cannot normalize the modes of %s: %s", root,
			    strerror(errno));
		return -1;
	}
	return 0;
}
