// SPDX-License-Identifier: GPL-2.0
/*
 * Opening below a directory that a sandboxed step could write.
 *
 * The tree's code runs as nobody and writes its directories (the tree while
 * quilt applies, the build directory, the module directories, the sim's
 * work directory).  What it leaves there may be a symlink to any file of
 * the machine; kverify, as root, then reads, writes, copies and renames
 * there.  Every such directory is guarded (fs_guard(), by
 * step_run_sandboxed() and before a step writes one), and below it
 * open_guarded() resolves a path with openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS): a symlink anywhere below the guarded directory
 * makes the open fail with ELOOP, and no path leaves it.  A kernel without
 * openat2() (before 5.6) gets the same from a walk of O_NOFOLLOW opens.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/guard.h"

static char **guarded;
static int nr_guarded;

static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (!path[n] || path[n] == '/');
}

void fs_guard(const char *dir)
{
	size_t n = strlen(dir);
	char **more;
	int i;

	if (dir[0] != '/')
		return;
	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (i = 0; i < nr_guarded; i++)
		if (strlen(guarded[i]) == n && !strncmp(guarded[i], dir, n))
			return;
	more = realloc(guarded, (nr_guarded + 1) * sizeof(*guarded));
	if (!more)
		abort();	/* nothing may be opened unguarded */
	guarded = more;
	guarded[nr_guarded] = strndup(dir, n);
	if (!guarded[nr_guarded])
		abort();
	nr_guarded++;
}

void fs_unguard_all(void)
{
	while (nr_guarded)
		free(guarded[--nr_guarded]);
}

/* The outermost guarded directory @path is below (not itself), or NULL. */
const char *fs_guarded_root(const char *path)
{
	const char *best = NULL;
	int i;

	for (i = 0; i < nr_guarded; i++)
		if (under(path, guarded[i]) && strcmp(path, guarded[i]) &&
		    (!best || strlen(guarded[i]) < strlen(best)))
			best = guarded[i];
	return best;
}

/* openat(@fd, @name) with O_NOFOLLOW; a symlink there is ELOOP, as openat2 says. */
static int openat_nofollow(int fd, const char *name, int flags, mode_t mode)
{
	struct stat st;
	int ret = openat(fd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);

	if (ret < 0 && errno == ENOTDIR &&
	    !fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
		errno = ELOOP;
	return ret;
}

/* @rel below @dirfd, no component a symlink, without openat2(). */
static int walk_nofollow(int dirfd, const char *rel, int flags, mode_t mode)
{
	char name[PATH_MAX];
	const char *p = rel, *slash;
	int fd = dup(dirfd), next;

	while (fd >= 0 && (slash = strchr(p, '/'))) {
		size_t n = slash - p;

		if (!n || n >= sizeof(name) || (n <= 2 && !strncmp(p, "..", n))) {
			close(fd);
			errno = EXDEV;
			return -1;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		next = openat_nofollow(fd, name, O_PATH | O_DIRECTORY, 0);
		close(fd);
		fd = next;
		p = slash + 1;
	}
	if (fd < 0)
		return -1;
	if (!strcmp(p, "..") || !strcmp(p, ".")) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	next = openat_nofollow(fd, p, flags, mode);
	close(fd);
	return next;
}

/* Does this kernel have openat2() (5.6)?  Asked once, of "/". */
static int have_openat2(void)
{
	static int known = -1;
	struct open_how how = { .flags = O_PATH | O_CLOEXEC };
	int fd;

	if (known < 0) {
		fd = syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));
		known = fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	return known;
}

int open_guarded(const char *path, int flags, mode_t mode)
{
	const char *root = fs_guarded_root(path);
	struct open_how how = {
		.flags = flags | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};
	int dirfd, fd, e;

	if (!root)
		return open(path, flags | O_CLOEXEC, mode);
	if (flags & O_CREAT)
		how.mode = mode;
	dirfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -1;
	path += strlen(root) + 1;
	if (have_openat2())
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	else
		fd = walk_nofollow(dirfd, path, flags, mode);
	e = errno;
	close(dirfd);
	errno = e;
	return fd;
}

/*
 * The directory that holds @path, opened guarded (O_PATH), and @path's last
 * name in @name: for renameat(), unlinkat() and linkat() below it.
 */
int open_guarded_parent(const char *path, char *name, size_t size)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	size_t n;

	if (!slash || strlen(slash + 1) >= size || !slash[1]) {
		errno = EINVAL;
		return -1;
	}
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dir, path, n);
	dir[n] = '\0';
	memcpy(name, slash + 1, strlen(slash + 1) + 1);
	return open_guarded(dir, O_PATH | O_DIRECTORY, 0);
}
