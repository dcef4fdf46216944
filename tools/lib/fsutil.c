// SPDX-License-Identifier: GPL-2.0
/*
 * Files and directories: made (under a guarded directory without following
 * a symlink), removed, written whole or atomically, copied, read.  Names
 * in the cache and its own check are lib/cache.c, hashes lib/hash.c, locks
 * and the process's $TMPDIR lib/lock.c, trees lib/tree.c.
 */
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
