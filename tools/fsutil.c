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
#include <unistd.h>

#include "fsutil.h"
#include "run.h"

int mkdir_p(const char *path)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

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

int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t done = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (done < len) {
		n = write(fd, data + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		done += n;
	}
	return close(fd);
}

/* Write to a temporary name, then rename: readers never see half a file. */
int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = xstrfmt("%s.tmp.%d", path, (int)getpid());
	int ret = write_file(tmp, data, len);

	if (!ret)
		ret = rename(tmp, path);
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
	return sb.buf;
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

int hash_file(uint64_t *h, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path, (size_t)1 << 30);

	if (!ret)
		*h = hash_bytes(*h, strbuf_str(&sb), sb.len);
	strbuf_release(&sb);
	return ret;
}

/* flock(@path); with @wait, say so on stderr and block. */
int lock_file(const char *path, int wait, int *fd, struct strbuf *err)
{
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0) {
		strbuf_addf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!flock(*fd, LOCK_EX | LOCK_NB))
		return 0;
	if (!wait) {
		strbuf_addf(err, "another run holds %s; not waiting (--no-wait)",
			    path);
		goto fail;
	}
	fprintf(stderr, "kverify: waiting for another run (or what is left of a killed one) holding %s\n",
		path);
	while (flock(*fd, LOCK_EX) < 0) {
		if (errno != EINTR || run_interrupted()) {
			strbuf_addf(err, "flock %s: %s", path, strerror(errno));
			goto fail;
		}
	}
	return 0;
fail:
	close(*fd);
	*fd = -1;
	return -1;
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

/* Copy a file (at most 256 MiB), making the directories it goes in. */
int copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	char *dir = xstrdup(to), *slash = strrchr(dir, '/');
	int ret;

	if (slash && slash != dir) {
		*slash = '\0';
		mkdir_p(dir);
	}
	ret = strbuf_read_file(&sb, from, 256 << 20);
	if (!ret)
		ret = write_file(to, strbuf_str(&sb), sb.len);
	strbuf_release(&sb);
	free(dir);
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
	const char *p;
	size_t i;

	if (strbuf_read_file(&sb, mk, 1 << 20) < 0)
		goto out;
	for (p = sb.buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			size_t n = strlen(keys[i]);
			const char *v = p + n;

			if (val[i] || strncmp(p, keys[i], n))
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
