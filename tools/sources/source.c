// SPDX-License-Identifier: GPL-2.0
/*
 * A target's pristine source in the cache, fetched once: Debian's source
 * package (apt), a git commit, a tarball, or a directory read in place,
 * each kind a struct source_ops (source_int.h) of its own file:
 * source_deb.c, source_git.c, source_tar.c, source_dir.c.  Here is what
 * they share.  A tree is extracted into a temporary directory and renamed
 * into place when whole, so an interrupted download or extraction never
 * leaves a tree that a later run trusts; its manifest is checked on every
 * use.
 *
 * The functions below fill a struct step_result, as the tools' failures
 * (step_fail_tail(), note_enospc()) are said the same way for every step;
 * source_get() hands the caller its reason and detail.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/lock.h"
#include "lib/result.h"
#include "lib/tree.h"
#include "lib/usage.h"
#include "sources/manifest.h"
#include "sources/source_int.h"

/* The operations of each kind of source, by its enum source_kind. */
static const struct source_ops *const source_kinds[] = {
	[SRC_DEB] = &deb_source,
	[SRC_GIT] = &git_source,
	[SRC_TAR] = &tar_source,
	[SRC_DIR] = &dir_source,
};

static const struct source_ops *source_ops_of(const struct source_req *req)
{
	return source_kinds[req->t->kind];
}

/* The one directory inside @tmp, moved to @dest. */
static int install_tree(const char *tmp, const char *dest,
			struct step_result *r)
{
	struct strbuf why = STRBUF_INIT;
	struct dirent *de;
	char *top = NULL, *man = NULL;
	int n = 0, ret = -1;
	DIR *d = opendir(tmp);

	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		free(top);
		top = xstrfmt("%s/%s", tmp, de->d_name);
		n++;
	}
	if (d)
		closedir(d);
	if (n != 1 || !is_dir(top)) {
		strbuf_addf(&r->reason, "the source unpacked into %d top-level entries, expected one directory",
			    n);
		goto out;
	}
	if (!is_real_dir(top)) {
		strbuf_addf(&r->reason, "the source unpacked into a symlink (%s), expected one directory: refusing it",
			    top + strlen(tmp) + 1);
		goto out;
	}
	if (tree_confined(top, &why)) {
		strbuf_addf(&r->reason, "refusing the source: %s (the cached tree may only hold files, directories and symlinks that stay inside it)",
			    why.buf);
		goto out;
	}
	if (tree_normalize(top, &why)) {
		strbuf_addf(&r->reason, "%s", why.buf);
		goto out;
	}
	/* The manifest first: a tree in place always has one. */
	man = xstrfmt("%s.manifest", dest);
	strbuf_reset(&why);
	if (manifest_record(top, man, &why)) {
		strbuf_addf(&r->reason, "cannot record the manifest: %s",
			    why.buf);
		goto out;
	}
	if (rename(top, dest) < 0) {
		strbuf_addf(&r->reason, "rename %s: %s", dest, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&why);
	free(man);
	free(top);
	return ret;
}

/* make sweep's partial tree (extract_only_members()): @key, or its own */
static char *extract_only_key(const struct source_req *req, char *key)
{
	const struct strvec *m = req->opt->extract_only;
	uint64_t h = HASH_INIT;
	char *partial;
	size_t i;

	if (!m || source_ops_of(req)->whole)
		return key;
	for (i = 0; i < m->nr; i++)
		h = hash_bytes(h, m->v[i], strlen(m->v[i]) + 1);
	partial = xstrfmt("%s-partial-%016llx", key, (unsigned long long)h);
	free(key);
	return partial;
}

/*
 * A temporary directory belongs to the lock of what it is made for: whoever
 * holds locks/src-<key>.lock owns src/.tmp-<key>, so one left there is
 * abandoned (its run died) and is removed by that exact name, never by a
 * pattern that could match another source's extraction in progress.  The
 * unpacking tools hold the lock too: if the driver is killed, the next run
 * waits until they are gone.
 *
 * @what: the deb version, or the git repository and @commit.
 */
static enum step_status unpack_into_cache(const struct source_req *req,
					  const struct source *out,
					  struct step_result *r,
					  const char *what,
					  const char *commit)
{
	char *tmp = xstrfmt("%s/src/.tmp-%s", req->cache, out->src_key);
	int lockfd, ret;

	ret = lock_in_cache(req->cache, 1, &lockfd, &r->reason, "src-%s.lock",
			    out->src_key);
	if (ret)
		goto out;
	if (is_dir(out->src))
		goto unlock;
	lock_inherit(lockfd);
	rm_rf(tmp);
	mkdir_p(tmp);
	ret = source_ops_of(req)->unpack(req, r, what, commit, tmp);
	if (!ret)
		ret = install_tree(tmp, out->src, r);
	rm_rf(tmp);
unlock:
	unlock_file(lockfd);
out:
	free(tmp);
	return ret ? STEP_FAIL : STEP_PASS;
}

static enum step_status fetch_tree(const struct source_req *req,
				   struct source *out,
				   struct step_result *r);

/*
 * The cached source changed since it was fetched: under its lock, move it
 * to the temporary name the lock owns, remove it, and fetch it again.
 */
static enum step_status refetch(const struct source_req *req,
				struct source *out, struct step_result *r)
{
	char *tmp = xstrfmt("%s/src/.tmp-%s", req->cache, out->src_key);
	char *man = xstrfmt("%s/src/%s.manifest", req->cache, out->src_key);
	enum step_status st = STEP_FAIL;
	int lockfd;

	if (lock_in_cache(req->cache, 1, &lockfd, &r->reason, "src-%s.lock",
			  out->src_key))
		goto out;
	rm_rf(tmp);
	if (rename(out->src, tmp) < 0 && errno != ENOENT) {
		strbuf_addf(&r->reason, "cannot move %s aside: %s", out->src,
			    strerror(errno));
		unlock_file(lockfd);
		goto out;
	}
	unlink(man);
	rm_rf(tmp);
	unlock_file(lockfd);
	free(out->src);
	free(out->src_key);
	free(out->git_commit);
	free(out->git_commit_object);
	out->src = out->src_key = NULL;
	out->git_commit = out->git_commit_object = NULL;
	st = fetch_tree(req, out, r);
	out->refetched = st == STEP_PASS;
out:
	free(man);
	free(tmp);
	return st;
}

/*
 * The pristine source is what this step recorded when it fetched it: sizes
 * and mtimes each run, every file's hash with VERIFY_CACHE=1.  A source
 * that changed is an ERROR naming the files, and is fetched again; then
 * nothing built from it is trusted (the tree step links the tree again
 * and empties O=).
 */
static enum step_status check_source(const struct source_req *req,
				     struct source *out,
				     struct step_result *r)
{
	char *man = xstrfmt("%s/src/%s.manifest", req->cache, out->src_key);
	struct strbuf bad = STRBUF_INIT, err = STRBUF_INIT;
	enum step_status st = STEP_PASS;

	switch (manifest_check(out->src, man, req->opt->verify_cache, &bad,
			       &err)) {
	case MANIFEST_OK:
		break;
	case MANIFEST_NONE:
		/* A cache from before manifests: record what is there. */
		if (manifest_record(out->src, man, &err)) {
			strbuf_addf(&r->reason, "; %s", err.buf);
			st = STEP_FAIL;
		} else {
			strbuf_addstr(&r->reason, "; recorded its manifest");
		}
		break;
	case MANIFEST_CHANGED:
		error("%s: ERROR: the cached source %s changed since it was fetched: %s; fetching it again",
		      req->t->name, out->src, bad.buf);
		strbuf_reset(&r->reason);
		strbuf_addf(&r->reason, "ERROR: the cached source %s changed since it was fetched: %s; fetched again: ",
			    out->src_key, bad.buf);
		st = refetch(req, out, r);
		break;
	default:
		strbuf_addf(&r->reason, "; cannot check the cached source: %s",
			    err.buf);
		st = STEP_FAIL;
	}
	strbuf_release(&bad);
	strbuf_release(&err);
	free(man);
	return st;
}

static enum step_status fetch_tree(const struct source_req *req,
				   struct source *out,
				   struct step_result *r)
{
	const struct source_ops *ops = source_ops_of(req);
	char *key = NULL, *what = NULL, *commit = NULL;
	enum step_status st;

	st = ops->fetch(req, out, r, &key, &what, &commit);
	if (st != STEP_PASS || !ops->unpack)	/* used in place */
		goto out;
	key = extract_only_key(req, key);
	out->src_key = key;
	out->src = xstrfmt("%s/src/%s", req->cache, key);
	if (is_dir(out->src)) {
		strbuf_addf(&r->reason, "cached %s", key);
		goto out;
	}
	/* it makes src/.tmp-<key>, and so src/ */
	st = unpack_into_cache(req, out, r, what, commit);
	if (st == STEP_PASS)
		strbuf_addf(&r->reason, "fetched and unpacked %s", key);
out:
	if (!out->src_key)
		free(key);
	free(what);
	free(commit);
	return st;
}

int source_get(const struct source_req *req, struct source *out,
	       struct strbuf *reason, struct strbuf *detail)
{
	const struct source_ops *ops = source_ops_of(req);
	struct step_result r = STEP_RESULT_INIT("fetch");
	enum step_status st = fetch_tree(req, out, &r);

	if (st == STEP_PASS && ops->check)
		st = ops->check(req, out, &r);
	else if (st == STEP_PASS)
		st = check_source(req, out, &r);
	strbuf_addstr(reason, r.reason.buf);
	strbuf_addstr(detail, r.detail.buf);
	strbuf_release(&r.reason);
	strbuf_release(&r.detail);
	return st == STEP_PASS ? 0 : -1;
}

void source_clear(struct source *s)
{
	free(s->src);
	free(s->src_key);
	free(s->deb_version);
	free(s->git_commit);
	free(s->git_commit_object);
	memset(s, 0, sizeof(*s));
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
