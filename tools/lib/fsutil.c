// SPDX-License-Identifier: GPL-2.0
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
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/guard.h"
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

/* Remove a tree; directories left read-only by a build are made writable. */
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

/* FNV-1a: stamps and cache keys, not security. */
uint64_t hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

#define MIX1 0x9e3779b185ebca87ULL
#define MIX2 0xc2b2ae3d27d4eb4fULL

/*
 * A content hash for large data (the cache's trees and tarballs): four
 * independent multiply-rotate lanes over 32-byte stripes, after xxHash64's
 * round, several GB/s.  It finds damage and different content, not an
 * attacker who writes the cache (who owns the run anyway).
 */
uint64_t hash_fast(uint64_t seed, const void *data, size_t len)
{
	const unsigned char *p = data, *end = p + len;
	uint64_t v[4] = { seed + MIX1 + MIX2, seed + MIX2, seed, seed - MIX1 };
	uint64_t h, w;
	int i;

	for (; end - p >= 32; p += 32)
		for (i = 0; i < 4; i++) {
			memcpy(&w, p + 8 * i, 8);
			v[i] = rotl64(v[i] + w * MIX2, 31) * MIX1;
		}
	h = rotl64(v[0], 1) + rotl64(v[1], 7) + rotl64(v[2], 12) +
	    rotl64(v[3], 18) + len;
	h = hash_bytes(h, p, end - p);
	h ^= h >> 33;
	h *= MIX2;
	h ^= h >> 29;
	h *= MIX1;
	return h ^ (h >> 32);
}

/*
 * hash_fast() of a file of any size, 1 MiB at a time: each block filled
 * whole (short reads do not change the result).
 */
int hash_file_fast(uint64_t *h, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	size_t size = 1 << 20, have = 0;
	char *buf;
	ssize_t n;

	if (fd < 0)
		return -1;
	buf = xmalloc(size);
	do {
		n = read(fd, buf + have, size - have);
		if (n > 0)
			have += n;
		if (have && (have == size || !n)) {
			*h = hash_fast(*h, buf, have);
			have = 0;
		}
	} while (n > 0 || (n < 0 && errno == EINTR));
	free(buf);
	close(fd);
	return n ? -1 : 0;
}

int hash_file(uint64_t *h, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path, (size_t)1 << 30);

	if (!ret)
		*h = hash_bytes(*h, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

/*
 * Who holds a lock: the kernel's /proc/locks names the process that took
 * the flock on this file (its children inherit the lock, not the entry);
 * its command line is /proc/PID/cmdline, and the holder writes "PID SINCE"
 * into the lock file once it has it, for the time.  A waiter names the
 * holder, or says that it has ended and what is left of it holds the lock.
 */
static void write_holder(int fd)
{
	char line[64], when[32];
	time_t now = time(NULL);
	int n;

	strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
	n = snprintf(line, sizeof(line), "%d %s\n", (int)getpid(), when);
	if (ftruncate(fd, 0) || pwrite(fd, line, n, 0) != n)
		return;		/* the waiter then names no time */
}

/* The pid of the flock on @fd's file in /proc/locks, or 0. */
static int flock_holder(int fd)
{
	unsigned int major, minor;
	unsigned long ino;
	char line[256], type[16];
	struct stat st;
	int pid = 0, p;
	FILE *f;

	if (fstat(fd, &st))
		return 0;
	f = fopen("/proc/locks", "re");
	while (f && !pid && fgets(line, sizeof(line), f))
		if (!strstr(line, "->") &&
		    sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%lu", type, &p,
			   &major, &minor, &ino) == 5 &&
		    !strcmp(type, "FLOCK") && ino == st.st_ino &&
		    major == major(st.st_dev) && minor == minor(st.st_dev))
			pid = p;
	if (f)
		fclose(f);
	return pid;
}

static void say_holder(int fd, const char *path)
{
	struct strbuf cmd = STRBUF_INIT;
	char buf[64], when[16] = "", *proc;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	int pid = flock_holder(fd), wrote = 0;
	size_t i;

	buf[n > 0 ? n : 0] = '\0';
	if (sscanf(buf, "%d %15s", &wrote, when) != 2 || wrote != pid)
		when[0] = '\0';	/* not a kverify's: no time */
	proc = xstrfmt("/proc/%d/cmdline", pid);
	if (pid > 0 && !strbuf_read_file(&cmd, proc, 4096) && cmd.len) {
		for (i = 0; i + 1 < cmd.len; i++)
			if ((unsigned char)cmd.buf[i] < ' ')
				cmd.buf[i] = ' ';
		note("waiting for pid %d (%.200s%s%s), which holds %s", pid,
		     cmd.buf, *when ? ", since " : "", when, path);
	} else if (pid > 0) {
		note("waiting for what is left of pid %d, which has ended, holding %s",
		     pid, path);
	} else {
		note("waiting for another run (or what is left of a killed one) holding %s",
		     path);
	}
	strbuf_release(&cmd);
	free(proc);
}

/* flock(@path); with @wait, say so on stderr and block. */
static int lock_file(const char *path, int wait, int *fd, struct strbuf *err)
{
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0) {
		strbuf_addf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!flock(*fd, LOCK_EX | LOCK_NB))
		goto held;
	if (!wait) {
		strbuf_addf(err, "another run holds %s; not waiting (--no-wait)",
			    path);
		goto fail;
	}
	say_holder(*fd, path);
	while (flock(*fd, LOCK_EX) < 0) {
		if (errno != EINTR || run_interrupted()) {
			strbuf_addf(err, "flock %s: %s", path, strerror(errno));
			goto fail;
		}
	}
held:
	write_holder(*fd);
	return 0;
fail:
	close(*fd);
	*fd = -1;
	return -1;
}

/*
 * lock_file() of <@cache>/locks/<name>, @fmt making the name; locks/ is
 * made first when it is not there.
 */
int lock_in_cache(const char *cache, int wait, int *fd, struct strbuf *err,
		  const char *fmt, ...)
{
	struct strbuf path = STRBUF_INIT;
	va_list ap;
	int ret = -1;

	*fd = -1;
	strbuf_addf(&path, "%s/locks", cache);
	if (mkdir_p(path.buf)) {
		strbuf_addf(err, "cannot create %s: %s", path.buf,
			    strerror(errno));
		goto out;
	}
	strbuf_addch(&path, '/');
	va_start(ap, fmt);
	strbuf_vaddf(&path, fmt, ap);
	va_end(ap);
	ret = lock_file(path.buf, wait, fd, err);
out:
	strbuf_release(&path);
	return ret;
}

void unlock_file(int fd)
{
	if (fd >= 0)
		close(fd);
}

/*
 * The processes started from now on hold the lock too (the fd survives
 * exec): killed outright, the driver takes its direct children along, but
 * not their own children (quilt's push loop, make's compilers, tar behind
 * dpkg-deb), which go on writing until they finish; the next run waits.
 */
void lock_inherit(int fd)
{
	fcntl(fd, F_SETFD, 0);
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

/*
 * $TMPDIR for this process and every tool it runs (quilt, patch, gcc, ...
 * write there, and leave files behind when they are stopped): a directory
 * of its own under <cache>/tmp, locked while it lives, so that nothing is
 * written outside the cache.  A directory whose lock nobody holds is what
 * a process that is gone left, and is removed first (a lock, not a pid: a
 * cache may be shared by processes of other pid namespaces), as is one
 * without a lock file.  <cache>/tmp/lock keeps that sweep from a directory
 * made but not locked yet.
 */
int tmpdir_enter(struct tmpdir *td, const char *cache)
{
	char *base = xstrfmt("%s/tmp", cache), *lock;
	struct dirent *e;
	int sweep = -1;
	DIR *d;

	td->path = NULL;
	td->lockfd = -1;
	lock = xstrfmt("%s/lock", base);
	if (!mkdir_p(base))
		sweep = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (sweep < 0 || flock(sweep, LOCK_EX) < 0)
		goto out;
	d = opendir(base);
	while (d && (e = readdir(d))) {
		char *stale = xstrfmt("%s/%s", base, e->d_name);
		char *its = xstrfmt("%s/lock", stale);
		int fd = *e->d_name == '.' || !strcmp(e->d_name, "lock") ? -2 :
			 open(its, O_RDWR | O_CLOEXEC);

		/* no lock file: its process died before making it, or mid-rm_rf */
		if ((fd == -1 && errno == ENOENT) ||
		    (fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB)))
			rm_rf(stale);
		if (fd >= 0)
			close(fd);
		free(its);
		free(stale);
	}
	if (d)
		closedir(d);
	free(lock);
	td->path = xstrfmt("%s/XXXXXX", base);
	lock = NULL;
	if (!mkdtemp(td->path)) {
		free(td->path);
		td->path = NULL;
		goto out;
	}
	lock = xstrfmt("%s/lock", td->path);
	td->lockfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (td->lockfd < 0 || flock(td->lockfd, LOCK_EX) < 0 ||
	    setenv("TMPDIR", td->path, 1) < 0)
		goto fail;
	/* what outlives a killed kverify (make's compilers) holds it too */
	lock_inherit(td->lockfd);
out:
	unlock_file(sweep);
	free(lock);
	free(base);
	return td->path ? 0 : -1;
fail:
	tmpdir_leave(td);
	goto out;
}

void tmpdir_leave(struct tmpdir *td)
{
	if (td->path)
		rm_rf(td->path);
	unlock_file(td->lockfd);
	free(td->path);
	td->path = NULL;
	td->lockfd = -1;
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
