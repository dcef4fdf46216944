// SPDX-License-Identifier: GPL-2.0
/*
 * manifest: what a pristine tree in the cache holds, recorded when it is
 * fetched (src/<key>.manifest), so that a tree that changed since (a
 * truncated file, a file edited through a hard link, a disk error) is
 * noticed instead of verified.  One line per entry, sorted by path:
 *
 *   d MTIME PATH             a directory (its mtime moves when an entry
 *                            is added, removed or renamed)
 *   f SIZE MTIME HASH PATH   a regular file and its content hash
 *   l HASH PATH              a symlink and the hash of its target
 *
 * The cheap check compares sizes and mtimes (one fstatat() per entry);
 * the full one hashes every file again and walks the tree for entries
 * that are new.  The full one runs when asked (VERIFY_CACHE=1) and when
 * the cheap one finds anything off, and decides.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/hash.h"
#include "sources/manifest.h"

#define MANIFEST_HEAD "kverify-manifest 1\n"

struct entry {
	char type;		/* 'd', 'f' or 'l' */
	long long size;
	long long sec, nsec;
	uint64_t hash;
	char *path;
};

struct entries {
	struct entry *v;
	size_t nr, alloc;
};

static struct entry *add_entry(struct entries *es)
{
	if (es->nr == es->alloc) {
		es->alloc = es->alloc ? 2 * es->alloc : 4096;
		es->v = xrealloc(es->v, es->alloc * sizeof(*es->v));
	}
	memset(&es->v[es->nr], 0, sizeof(*es->v));
	return &es->v[es->nr++];
}

static void entries_clear(struct entries *es)
{
	size_t i;

	for (i = 0; i < es->nr; i++)
		free(es->v[i].path);
	free(es->v);
	memset(es, 0, sizeof(*es));
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
		      ((const struct entry *)b)->path);
}

/* The tree as it is now, every file hashed (nftw has no closure). */
static struct {
	const char *root;
	struct entries *es;
	struct strbuf *err;
} walk;

static int walk_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	const char *rel = path + strlen(walk.root);
	struct entry *e;
	char target[PATH_MAX];
	ssize_t n;

	(void)ftw;
	rel = *rel ? rel + 1 : ".";
	if (strchr(rel, '\n')) {
		strbuf_addf(walk.err, "a file name with a newline: %s", rel);
		return 1;
	}
	e = add_entry(walk.es);
	e->path = xstrdup(rel);
	e->sec = st->st_mtim.tv_sec;
	e->nsec = st->st_mtim.tv_nsec;
	if (type == FTW_D) {
		e->type = 'd';
	} else if (type == FTW_F && S_ISREG(st->st_mode)) {
		e->type = 'f';
		e->size = st->st_size;
		e->hash = HASH_INIT;
		if (hash_file_fast(&e->hash, path)) {
			strbuf_addf(walk.err, "cannot read %s: %s", rel,
				    strerror(errno));
			return 1;
		}
	} else if (type == FTW_SL) {
		e->type = 'l';
		n = readlink(path, target, sizeof(target));
		if (n < 0) {
			strbuf_addf(walk.err, "cannot read the symlink %s: %s",
				    rel, strerror(errno));
			return 1;
		}
		e->hash = hash_fast(HASH_INIT, target, n);
	} else {
		strbuf_addf(walk.err, "%s is neither a file, a directory nor a symlink",
			    rel);
		return 1;
	}
	return 0;
}

static int scan_tree(const char *root, struct entries *es, struct strbuf *err)
{
	int ret;

	walk.root = root;
	walk.es = es;
	walk.err = err;
	ret = nftw(root, walk_one, 64, FTW_PHYS);
	if (ret < 0)
		strbuf_addf(err, "cannot walk %s: %s", root, strerror(errno));
	if (!ret)
		qsort(es->v, es->nr, sizeof(*es->v), by_path);
	return ret ? -1 : 0;
}

static int write_entries(const char *file, const struct entries *es,
			 struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret;

	strbuf_addstr(&sb, MANIFEST_HEAD);
	for (i = 0; i < es->nr; i++) {
		const struct entry *e = &es->v[i];

		if (e->type == 'd')
			strbuf_addf(&sb, "d %lld.%09lld %s\n", e->sec, e->nsec,
				    e->path);
		else if (e->type == 'f')
			strbuf_addf(&sb, "f %lld %lld.%09lld %016" PRIx64 " %s\n",
				    e->size, e->sec, e->nsec, e->hash, e->path);
		else
			strbuf_addf(&sb, "l %016" PRIx64 " %s\n", e->hash,
				    e->path);
	}
	ret = write_file_atomic(file, sb.buf, sb.len);
	if (ret)
		strbuf_addf(err, "cannot write %s: %s", file, strerror(errno));
	strbuf_release(&sb);
	return ret;
}

/* Hash every file of @root into @file (written whole, then renamed). */
int manifest_record(const char *root, const char *file, struct strbuf *err)
{
	struct entries es = { 0 };
	int ret = scan_tree(root, &es, err);

	if (!ret)
		ret = write_entries(file, &es, err);
	entries_clear(&es);
	return ret;
}

static int parse_time(char **p, long long *sec, long long *nsec)
{
	*sec = strtoll(*p, p, 10);
	if (**p != '.')
		return -1;
	*nsec = strtoll(*p + 1, p, 10);
	return **p == ' ' ? 0 : -1;
}

/* @text (modified in place) into @es; -1 if it is not a manifest. */
static int parse_manifest(char *text, struct entries *es)
{
	char *p, *nl;

	if (!starts_with(text, MANIFEST_HEAD))
		return -1;
	for (p = text + strlen(MANIFEST_HEAD); *p; p = nl + 1) {
		struct entry *e = add_entry(es);

		nl = strchr(p, '\n');
		if (!nl)
			return -1;
		*nl = '\0';
		e->type = *p;
		p += 2;
		if (e->type == 'f') {
			e->size = strtoll(p, &p, 10);
			if (*p++ != ' ')
				return -1;
		}
		if ((e->type == 'f' || e->type == 'd') &&
		    parse_time(&p, &e->sec, &e->nsec))
			return -1;
		if (e->type == 'f' || e->type == 'l') {
			e->hash = strtoull(p + (*p == ' '), &p, 16);
			if (*p != ' ')
				return -1;
		} else if (e->type != 'd') {
			return -1;
		}
		e->path = xstrdup(p + 1);
	}
	return 0;
}

/* Sizes and mtimes as recorded: 0, or 1 on the first that is not. */
static int stat_differs(const char *root, const struct entries *es)
{
	int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t i;
	int ret = 0;

	if (dfd < 0)
		return 1;
	for (i = 0; i < es->nr && !ret; i++) {
		const struct entry *e = &es->v[i];
		struct stat st;

		if (fstatat(dfd, e->path, &st, AT_SYMLINK_NOFOLLOW) < 0)
			ret = 1;
		else if (e->type == 'd')
			ret = !S_ISDIR(st.st_mode) ||
			      st.st_mtim.tv_sec != e->sec ||
			      st.st_mtim.tv_nsec != e->nsec;
		else if (e->type == 'f')
			ret = !S_ISREG(st.st_mode) || st.st_size != e->size ||
			      st.st_mtim.tv_sec != e->sec ||
			      st.st_mtim.tv_nsec != e->nsec;
		else
			ret = !S_ISLNK(st.st_mode);
	}
	close(dfd);
	return ret;
}

/* What differs between the record @was and the tree @now, into @bad. */
static int compare(const struct entries *was, const struct entries *now,
		   struct strbuf *bad)
{
	size_t i = 0, j = 0;
	int n = 0;

	while (i < was->nr || j < now->nr) {
		const struct entry *a = i < was->nr ? &was->v[i] : NULL;
		const struct entry *b = j < now->nr ? &now->v[j] : NULL;
		int c = !a ? 1 : !b ? -1 : strcmp(a->path, b->path);
		const char *what = NULL;

		if (c < 0)
			what = "missing";
		else if (c > 0)
			what = "new";
		else if (a->type != b->type)
			what = "changed type";
		else if (a->type == 'f' && a->size != b->size)
			what = "changed size";
		else if (a->hash != b->hash)
			what = "changed content";
		if (what && n < 20)
			strbuf_addf(bad, "%s%s (%s", n ? ", " : "",
				    c > 0 ? b->path : a->path, what);
		if (what && n < 20 && !c && a->type == 'f' && b->type == 'f' &&
		    a->size != b->size)
			strbuf_addf(bad, ": %lld bytes, %lld recorded",
				    b->size, a->size);
		if (what && n < 20)
			strbuf_addch(bad, ')');
		n += !!what;
		i += c <= 0;
		j += c >= 0;
	}
	if (n > 20)
		strbuf_addf(bad, " and %d more", n - 20);
	return n;
}

/*
 * Does @root still hold what @file recorded?  With @full, or when a size
 * or mtime differs, every file is hashed again: only content decides, and
 * a record whose sizes and mtimes moved but whose content did not is
 * rewritten, so that the next cheap check passes.
 */
enum manifest_state manifest_check(const char *root, const char *file,
				   int full, struct strbuf *bad,
				   struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct entries was = { 0 }, now = { 0 };
	enum manifest_state ret = MANIFEST_ERROR;

	if (strbuf_read_file(&sb, file, (size_t)1 << 30) < 0) {
		ret = errno == ENOENT ? MANIFEST_NONE : MANIFEST_ERROR;
		if (ret == MANIFEST_ERROR)
			strbuf_addf(err, "cannot read %s: %s", file,
				    strerror(errno));
		goto out;
	}
	if (parse_manifest(sb.buf, &was)) {
		strbuf_addf(err, "%s is not a manifest kverify wrote: remove it, and the next run records it again",
			    file);
		goto out;
	}
	if (!full && !stat_differs(root, &was)) {
		ret = MANIFEST_OK;
		goto out;
	}
	if (scan_tree(root, &now, err))
		goto out;
	if (compare(&was, &now, bad)) {
		ret = MANIFEST_CHANGED;
		goto out;
	}
	ret = write_entries(file, &now, err) ? MANIFEST_ERROR : MANIFEST_OK;
out:
	entries_clear(&was);
	entries_clear(&now);
	strbuf_release(&sb);
	return ret;
}
