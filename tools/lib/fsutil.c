// SPDX-License-Identifier: GPL-2.0
/*
 * Files and directories: made (under a guarded directory without following
 * a symlink), removed, written whole or atomically, copied, read; names in
 * the cache, and the cache's own check.  Hashes are lib/hash.c, locks and
 * the process's $TMPDIR lib/lock.c, trees lib/tree.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/guard.h"
#include "lib/lock.h"
#include "lib/run.h"
#include "lib/sandbox.h"
#include "lib/usage.h"

/*
 * Below a guarded directory (lib/guard.c), each level is made and entered
 * without following a symlink: a planted link makes it fail with ELOOP.
 */
static int mkdir_guarded(const char *root, const char *path)
{
	char *p = xstrdup(path), *s;
	int ret = 0, fd;

	for (s = p + strlen(root) + 1; ; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;

		*s = '\0';
		fd = open_guarded(p, O_PATH | O_DIRECTORY, 0);
		if (fd < 0 && errno == ENOENT)
			ret = mkdir(p, 0755) < 0 && errno != EEXIST ? -1 :
			      (fd = open_guarded(p, O_PATH | O_DIRECTORY, 0)) < 0;
		else if (fd < 0)
			ret = -1;
		if (fd >= 0)
			close(fd);
		*s = c;
		if (ret || !c)
			break;
	}
	free(p);
	return ret;
}

int mkdir_p(const char *path)
{
	const char *root = fs_guarded_root(path);
	char *p, *s;
	int ret = 0;

	if (root)
		return mkdir_p(root) || mkdir_guarded(root, path) ? -1 : 0;
	p = xstrdup(path);
	for (s = p + 1; ; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			ret = -1;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		return rmdir(path) < 0 && errno != ENOENT ? -1 : 0;
	return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* Remove a tree, depth first, following no symlink; no mode is changed. */
int rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	return nftw(path, rm_one, 64, FTW_DEPTH | FTW_PHYS);
}

int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* A directory itself, not a symlink to one. */
int is_real_dir(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISDIR(st.st_mode);
}

int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* All @len bytes of @data to @fd, through short writes and signals. */
static int write_all(int fd, const char *data, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(fd, data + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		done += n;
	}
	return 0;
}

int write_file(const char *path, const char *data, size_t len)
{
	int fd = open_guarded(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	if (write_all(fd, data, len)) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/* The file system that holds @dir, to disk (syncfs): what was written unsafely. */
int sync_tree(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret, e;

	if (fd < 0)
		return -1;
	ret = syncfs(fd);
	e = errno;
	close(fd);
	errno = e;
	return ret;
}

/* rename(@from, @to), @from a name in @to's directory; no symlink followed. */
static int rename_guarded(const char *from, const char *to)
{
	char name[NAME_MAX + 1];
	int fd, ret, e;

	if (!fs_guarded_root(to))
		return rename(from, to);
	fd = open_guarded_parent(to, name, sizeof(name));
	if (fd < 0)
		return -1;
	ret = renameat(fd, strrchr(from, '/') + 1, fd, name);
	e = errno;
	close(fd);
	errno = e;
	return ret;
}

/* Write to a temporary name, then rename: readers never see half a file. */
int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = xstrfmt("%s.tmp.%d", path, (int)getpid());
	int ret = write_file(tmp, data, len);

	if (!ret)
		ret = rename_guarded(tmp, path);
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

char *read_first_line(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *nl;

	if (strbuf_read_file(&sb, path, 4096) < 0 || !sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	nl = strchr(sb.buf, '\n');
	if (nl)
		*nl = '\0';
	return strbuf_detach(&sb, NULL);
}

char *abspath(const char *path)
{
	char buf[PATH_MAX];

	if (path[0] == '/')
		return xstrdup(path);
	if (!getcwd(buf, sizeof(buf)))
		return xstrdup(path);
	return xstrfmt("%s/%s", buf, path);
}

/*
 * A name in the cache (a source key, a sweep row): letters, digits, '.'
 * and '-' stay, anything else ('~', '+', ':', '/') becomes '_'.
 */
void cache_name(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '-'))
			*s = '_';
}

/*
 * @in to @out from where each stands to @in's end: in the kernel where the
 * file systems let it (copy_file_range(2): no pass through our memory),
 * then with read and write what is left, all of it where it cannot.
 */
static int copy_fd(int in, int out)
{
	char buf[1 << 16];
	ssize_t n;

	do
		n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);
	while (n > 0 || (n < 0 && errno == EINTR));
	/* and whatever it could not do (EXDEV, EINVAL...), the plain way */
	for (;;) {
		n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n;
		if (write_all(out, buf, n))
			return -1;
	}
}

/* Copy a file (at most 256 MiB), making the directories it goes in. */
int copy_file(const char *from, const char *to)
{
	char *dir = xstrdup(to), *slash = strrchr(dir, '/');
	int in, out = -1, ret = -1, e;
	struct stat st;

	if (slash && slash != dir) {
		*slash = '\0';
		mkdir_p(dir);
	}
	free(dir);
	in = open_guarded(from, O_RDONLY, 0);
	if (in < 0)
		return -1;
	if (fstat(in, &st))
		goto out;
	if (st.st_size > 256 << 20) {
		errno = EFBIG;
		goto out;
	}
	out = open_guarded(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		goto out;
	ret = copy_fd(in, out);
out:
	e = errno;
	if (out >= 0 && close(out) && !ret) {
		ret = -1;
		e = errno;
	}
	close(in);
	errno = e;
	return ret;
}

/*
 * The release of the kernel tree @src, from its Makefile: "X.Y" (the
 * stable branch), or with @full "X.Y.Z" and EXTRAVERSION; NULL if the
 * Makefile says none.
 */
char *kernel_release(const char *src, int full)
{
	static const char *const keys[] = {
		"VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION",
	};
	char *mk = xstrfmt("%s/Makefile", src), *val[4] = { 0 }, *ret = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct line l;
	size_t i;

	if (strbuf_read_file(&sb, mk, 1 << 20) < 0)
		goto out;
	for_each_line(l, sb.buf)
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			size_t n = strlen(keys[i]);
			const char *v = l.s + n;

			if (val[i] || strncmp(l.s, keys[i], n))
				continue;
			v += strspn(v, " \t");
			if (*v != '=')
				continue;
			v++;
			v += strspn(v, " \t");
			val[i] = xstrfmt("%.*s", (int)strcspn(v, " \t\n"), v);
		}
	if (val[0] && val[1] && *val[0] && *val[1] && !full)
		ret = xstrfmt("%s.%s", val[0], val[1]);
	else if (val[0] && val[1] && *val[0] && *val[1])
		ret = xstrfmt("%s.%s%s%s%s", val[0], val[1],
			      val[2] && *val[2] && strcmp(val[2], "0") ? "." : "",
			      val[2] && strcmp(val[2], "0") ? val[2] : "",
			      val[3] ? val[3] : "");
out:
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		free(val[i]);
	strbuf_release(&sb);
	free(mk);
	return ret;
}

/*
 * One directory of the cache's skeleton, @path: a real directory (not a
 * symlink), kverify's user's (or, if @sandbox_ok and kverify is root, the
 * sandbox's user's: it writes ccache/), writable by no one else.  Absent
 * is fine: kverify makes it, mode 755.  What is wrong, with what to do,
 * is added to @err.
 */
static void cache_dir_check(const char *path, int sandbox_ok,
			    struct strbuf *err)
{
	static const char fix[] = "or point KVERIFY_CACHE (--cache) at a directory of your own";
	uid_t uid = geteuid();
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (errno != ENOENT)
			strbuf_addf(err, "%s: %s: make it readable, %s\n",
				    path, strerror(errno), fix);
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		strbuf_addf(err, "%s is a symlink, where the cache has a directory: whoever can change where it leads chooses what is verified; remove it (kverify makes the directory), %s\n",
			    path, fix);
	} else if (!S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "%s is not a directory: remove it, %s\n",
			    path, fix);
	} else if (st.st_uid != uid &&
		   !(sandbox_ok && !uid && st.st_uid == SANDBOX_UID)) {
		strbuf_addf(err, "%s is owned by uid %u, not by kverify's user (uid %u), and its owner could change what is verified: chown -R %u it, remove it, %s\n",
			    path, (unsigned int)st.st_uid, (unsigned int)uid,
			    (unsigned int)uid, fix);
	} else if (st.st_mode & 022) {
		strbuf_addf(err, "%s is writable by others (mode %04o), who could change what is verified: chmod go-w it, %s\n",
			    path, (unsigned int)(st.st_mode & 07777), fix);
	}
}

/*
 * The cache and every directory at its top (src, trees, build, tmp,
 * locks, memo, ccache...) must be kverify's user's own, before anything
 * in it is read or written.  0, or -1 with @err saying what is wrong and
 * what to do.
 */
int cache_check(const char *cache, struct strbuf *err)
{
	char *top = xstrdup(cache);
	size_t n = strlen(top);
	struct dirent *e;
	DIR *d;

	while (n > 1 && top[n - 1] == '/')
		top[--n] = '\0';
	cache_dir_check(top, 0, err);
	d = err->len ? NULL : opendir(top);
	while (d && (e = readdir(d))) {
		struct stat st;
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = xstrfmt("%s/%s", top, e->d_name);
		if (!lstat(path, &st) &&
		    (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)))
			cache_dir_check(path, !strcmp(e->d_name, "ccache"),
					err);
		free(path);
	}
	if (d)
		closedir(d);
	free(top);
	return err->len ? -1 : 0;
}
