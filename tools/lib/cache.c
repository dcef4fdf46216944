// SPDX-License-Identifier: GPL-2.0
/*
 * kverify's cache: a name in it, and the check that it is kverify's
 * user's alone before anything in it is read or written.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cache.h"
#include "lib/sandbox.h"
#include "lib/strbuf.h"

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
