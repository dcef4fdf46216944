// SPDX-License-Identifier: GPL-2.0
/*
 * A target's pristine source in the cache, fetched once: Debian's source
 * package (apt), a git commit, a tarball, or a directory read in place.  A
 * tree is extracted into a temporary directory and renamed into place when
 * whole, so an interrupted download or extraction never leaves a tree that
 * a later run trusts; its manifest is checked on every use.
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
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cache.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/lock.h"
#include "lib/result.h"
#include "lib/sandbox.h"
#include "lib/tree.h"
#include "lib/usage.h"
#include "sources/apt.h"
#include "sources/manifest.h"
#include "sources/source.h"

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

static int apt_update(const struct source_req *req, struct step_result *r,
		      struct apt_suite *as)
{
	struct child c = CHILD_INIT;
	int ret;

	if (apt_lists_fresh(as))
		return 0;
	apt_suite_args(as, &c, "apt-get");
	strvec_push(&c.args, "update");
	ret = run_tool(req->log, req->timeout, r, &c);
	child_clear(&c);
	if (!ret)
		apt_lists_touch(as);
	return ret;
}

/* The version apt would download: =VERSION if given, else the candidate. */
static char *deb_version(const struct source_req *req, struct step_result *r,
			 struct apt_suite *as)
{
	const struct target *t = req->t;
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *v = NULL;

	apt_show_args(as, &c, t->deb_package, t->deb_version);
	c.out = &out;
	if (!run_tool(req->log, req->timeout, r, &c))
		v = deb822_field(out.buf, NULL, "Version");
	if (!v && !r->reason.len) {
		struct strbuf have = STRBUF_INIT;

		strbuf_addf(&r->reason, "%s%s%s is not in %s",
			    t->deb_package, t->deb_version ? "=" : "",
			    t->deb_version ? t->deb_version : "",
			    t->deb_suite);
		if (apt_versions(as, t->deb_package, &have))
			strbuf_addf(&r->reason, "; it has %s (%s:%d: name one of them, or none for the newest)",
				    have.buf, req->opt->list, t->line);
		else if (t->deb_version)
			strbuf_addf(&r->reason, "; it lists no version of %s",
				    t->deb_package);
		strbuf_release(&have);
	}
	child_clear(&c);
	strbuf_release(&out);
	return v;
}

/*
 * make sweep (tools/sweep.c): only the paths opt->extract_only names (a
 * file, or a directory and what is under it) of the source's one top-level
 * directory, under a key of their own, so that a full verify never gets
 * such a partial tree.
 */
static void extract_only_members(const struct source_req *req,
				 struct strvec *args)
{
	const struct strvec *m = req->opt->extract_only;
	size_t i;

	if (!m)
		return;
	strvec_pushl(args, "--wildcards", "--no-wildcards-match-slash", "--",
		     NULL);
	for (i = 0; i < m->nr; i++)
		strvec_pushf(args, "*/%s", m->v[i]);
}

static char *extract_only_key(const struct source_req *req, char *key)
{
	const struct strvec *m = req->opt->extract_only;
	uint64_t h = HASH_INIT;
	char *partial;
	size_t i;

	if (!m || req->t->kind == SRC_GIT)	/* unpack_git takes all */
		return key;
	for (i = 0; i < m->nr; i++)
		h = hash_bytes(h, m->v[i], strlen(m->v[i]) + 1);
	partial = xstrfmt("%s-partial-%016llx", key, (unsigned long long)h);
	free(key);
	return partial;
}

static int extract_deb(const struct source_req *req, struct step_result *r,
		       const char *deb, const char *tmp)
{
	struct child cs[4] = { CHILD_INIT, CHILD_INIT, CHILD_INIT, CHILD_INIT };
	int i, ret;

	strvec_pushl(&cs[0].args, "dpkg-deb", "--fsys-tarfile", deb, NULL);
	strvec_pushl(&cs[1].args, "tar", "-xO", "-f", "-", NULL);
	strvec_pushf(&cs[1].args, "./usr/src/%s.tar.xz", req->t->deb_package);
	/* Debian's tarballs are xz of many blocks: one thread a core. */
	strvec_pushl(&cs[2].args, "xz", "-dc", "-T0", NULL);
	strvec_pushl(&cs[3].args, "tar", "-x", "-f", "-", "-C", tmp, NULL);
	extract_only_members(req, &cs[3].args);
	for (i = 0; i < 4; i++) {
		cs[i].log = req->log;
		cs[i].timeout = req->timeout;
	}
	ret = run_pipeline(cs, 4);
	if (ret) {
		pipeline_describe_failure(cs, 4, &r->reason);
		step_fail_tail(r, req->log, 20);
		note_enospc(r);
	}
	for (i = 0; i < 4; i++)
		child_clear(&cs[i]);
	return ret;
}

static char *find_deb(const char *dir)
{
	struct dirent *de;
	char *found = NULL;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d)))
		if (!found && strlen(de->d_name) > 4 &&
		    !strcmp(de->d_name + strlen(de->d_name) - 4, ".deb"))
			found = xstrfmt("%s/%s", dir, de->d_name);
	if (d)
		closedir(d);
	return found;
}

/* The source package's .deb, downloaded into @tmp: its path, or NULL. */
static char *download_deb(const struct source_req *req, struct step_result *r,
			  struct apt_suite *as, const char *version,
			  const char *tmp)
{
	struct child c = CHILD_INIT;
	char *deb = NULL;
	int ret;

	apt_suite_args(as, &c, "apt-get");
	strvec_push(&c.args, "download");
	strvec_pushf(&c.args, "%s=%s", req->t->deb_package, version);
	c.dir = tmp;
	ret = run_tool(req->log, req->timeout, r, &c);
	child_clear(&c);
	if (!ret) {
		deb = find_deb(tmp);
		if (!deb)
			strbuf_addstr(&r->reason, "apt-get download left no .deb");
	}
	return deb;
}

/*
 * CONFIG=distro: Debian's linux-config-X.Y of the same version, its amd64
 * config unpacked next to the source tree (written whole, then renamed).
 */
static enum step_status fetch_distro_config(const struct source_req *req,
					    struct step_result *r,
					    struct apt_suite *as,
					    const char *key, const char *version)
{
	const char *xy = req->t->deb_package + strlen("linux-source-");
	char *dest = xstrfmt("%s/src/%s.config-amd64", req->cache, key);
	char *tmp = xstrfmt("%s/src/.tmp-config-%s", req->cache, key);
	char *file = xstrfmt("%s.partial", dest), *deb = NULL;
	struct child cs[3] = { CHILD_INIT, CHILD_INIT, CHILD_INIT };
	struct child c = CHILD_INIT;
	enum step_status st = STEP_FAIL;
	int i, lockfd = -1;

	/* The lock owns @tmp and @file: what it finds there is abandoned. */
	if (lock_in_cache(req->cache, 1, &lockfd, &r->reason, "config-%s.lock",
			  key))
		goto out;
	if (is_file(dest)) {
		st = STEP_PASS;
		goto out;
	}
	lock_inherit(lockfd);
	rm_rf(tmp);
	mkdir_p(tmp);
	apt_suite_args(as, &c, "apt-get");
	strvec_push(&c.args, "download");
	strvec_pushf(&c.args, "linux-config-%s=%s", xy, version);
	c.dir = tmp;
	if (run_tool(req->log, req->timeout, r, &c))
		goto out;
	deb = find_deb(tmp);
	if (!deb)
		goto out;
	strvec_pushl(&cs[0].args, "dpkg-deb", "--fsys-tarfile", deb, NULL);
	strvec_pushl(&cs[1].args, "tar", "-xO", "-f", "-", NULL);
	strvec_pushf(&cs[1].args, "./usr/src/linux-config-%s/config.amd64_none_amd64.xz",
		     xy);
	strvec_pushl(&cs[2].args, "xz", "-dc", NULL);
	cs[2].out_file = file;
	for (i = 0; i < 3; i++)
		cs[i].log = req->log;
	if (run_pipeline(cs, 3)) {
		pipeline_describe_failure(cs, 3, &r->reason);
		goto out;
	}
	if (!rename(file, dest))
		st = STEP_PASS;
out:
	for (i = 0; i < 3; i++)
		child_clear(&cs[i]);
	child_clear(&c);
	if (lockfd >= 0) {
		unlink(file);
		rm_rf(tmp);
	}
	unlock_file(lockfd);
	free(deb);
	free(file);
	free(tmp);
	free(dest);
	return st;
}

static enum step_status fetch_deb(const struct source_req *req,
				  struct source *out,
				  struct step_result *r, char **key,
				  char **version)
{
	enum step_status st = STEP_FAIL;
	struct apt_suite as;

	if (apt_suite_init(&as, req->opt, req->t->deb_suite, &r->reason) ||
	    apt_suite_lock(&as, &r->reason))
		goto out;
	if (apt_update(req, r, &as))
		goto out;
	*version = deb_version(req, r, &as);
	if (!*version)
		goto out;
	free(out->deb_version);
	out->deb_version = xstrdup(*version);
	*key = xstrfmt("deb-%s-%s", req->t->deb_package, *version);
	cache_name(*key);
	st = STEP_PASS;
	if (req->debian_config)
		st = fetch_distro_config(req, r, &as, *key, *version);
out:
	apt_suite_clear(&as);
	return st;
}

static int unpack_deb(const struct source_req *req, struct step_result *r,
		      const char *version, const char *tmp)
{
	struct apt_suite as;
	char *deb = NULL;
	int ret;

	if (!apt_suite_init(&as, req->opt, req->t->deb_suite, &r->reason) &&
	    !apt_suite_lock(&as, &r->reason))
		deb = download_deb(req, r, &as, version, tmp);
	apt_suite_clear(&as);	/* apt is free while it unpacks */
	if (!deb)
		return -1;
	if (req->unpacking)
		req->unpacking(req);
	ret = extract_deb(req, r, deb, tmp);
	unlink(deb);
	free(deb);
	return ret;
}

static int unpack_tar(const struct source_req *req, struct step_result *r,
		      const char *tmp)
{
	struct child c = CHILD_INIT;
	char *path = abspath(req->t->value);
	int ret;

	strvec_pushl(&c.args, "tar", "-x", "-f", path, "-C", tmp, NULL);
	extract_only_members(req, &c.args);
	ret = run_tool(req->log, req->timeout, r, &c);
	child_clear(&c);
	free(path);
	return ret;
}

/*
 * "git ARGS" in @repo for @c, whose args are ARGS: the repository's own
 * configuration and attributes can run commands (a smudge filter, say), so
 * in a sandbox that reads @repo and writes nothing.  The repository is not
 * the sandbox user's, hence safe.directory.
 */
static int git_args_in(struct child *c, const char *repo, struct strbuf *why)
{
	struct strvec args = STRVEC_INIT;
	struct sandbox sb = SANDBOX_INIT;
	size_t i;
	int ret;

	strvec_pushl(&args, "git", "-c", NULL);
	strvec_pushf(&args, "safe.directory=%s", repo);
	strvec_pushl(&args, "-C", repo, NULL);
	for (i = 0; i < c->args.nr; i++)
		strvec_push(&args, c->args.v[i]);
	strvec_clear(&c->args);
	c->args = args;
	strvec_push(&sb.ro, repo);
	ret = sandbox_child(c, &sb, why);
	sandbox_clear(&sb);
	return ret;
}

static int unpack_git(const struct source_req *req, struct step_result *r,
		      const char *tmp, const char *repo, const char *commit)
{
	struct child cs[2] = { CHILD_INIT, CHILD_INIT };
	char *sub = xstrfmt("%s/linux", tmp);
	int ret;

	mkdir_p(sub);
	strvec_pushl(&cs[0].args, "archive", "--format=tar", commit, NULL);
	strvec_pushl(&cs[1].args, "tar", "-x", "-f", "-", "-C", sub, NULL);
	cs[0].log = cs[1].log = req->log;
	ret = git_args_in(&cs[0], repo, &r->reason);
	if (!ret && run_pipeline(cs, 2)) {
		pipeline_describe_failure(cs, 2, &r->reason);
		ret = -1;
	}
	child_clear(&cs[0]);
	child_clear(&cs[1]);
	free(sub);
	return ret;
}

/*
 * git: a local repository is read in place; a URL is cloned bare once,
 * under locks/git-<hash>.lock, which owns git/.tmp-<hash>.
 */
static char *git_repo(const struct source_req *req, struct step_result *r)
{
	const char *url = req->t->value;
	struct child c = CHILD_INIT;
	char *repo, *tmp;
	int lockfd = -1;
	uint64_t h;

	if (is_dir(url))
		return abspath(url);
	h = hash_bytes(HASH_INIT, url, strlen(url));
	repo = xstrfmt("%s/git/%016llx.git", req->cache, (unsigned long long)h);
	tmp = xstrfmt("%s/git/.tmp-%016llx", req->cache, (unsigned long long)h);
	if (lock_in_cache(req->cache, 1, &lockfd, &r->reason, "git-%016llx.lock",
			  (unsigned long long)h)) {
		free(repo);
		repo = NULL;
		goto out;
	}
	if (is_dir(repo))
		goto out;
	lock_inherit(lockfd);
	rm_rf(tmp);
	strvec_pushl(&c.args, "git", "clone", "--bare", "--quiet", "--", url,
		     tmp, NULL);
	/* What kernels.list allows (targets.c), and no other transport. */
	strvec_push(&c.env, "GIT_ALLOW_PROTOCOL=file:https:git:ssh");
	if (run_tool(req->log, req->timeout, r, &c) || rename(tmp, repo) < 0) {
		rm_rf(tmp);
		free(repo);
		repo = NULL;
	}
out:
	unlock_file(lockfd);
	child_clear(&c);
	free(tmp);
	return repo;
}

static char *git_commit(const struct source_req *req, struct step_result *r,
			const char *repo)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *commit = NULL;

	strvec_pushl(&c.args, "rev-parse", "--verify", "--quiet", NULL);
	strvec_pushf(&c.args, "%s^{commit}",
		     req->t->git_ref ? req->t->git_ref : "HEAD");
	c.out = &out;
	if (!git_args_in(&c, repo, &r->reason) &&
	    !run_tool(req->log, req->timeout, r, &c)) {
		strbuf_trim_trailing(&out);
		commit = xstrdup(out.buf);
	}
	child_clear(&c);
	strbuf_release(&out);
	return commit;
}

/*
 * The commit object @commit of @repo as git stores it ("tree ...",
 * "parent ...", ...), read in the sandbox; NULL when it cannot be read.
 */
static char *git_commit_object(const struct source_req *req,
			       struct step_result *r, const char *repo,
			       const char *commit)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "cat-file", "commit", commit, NULL);
	c.out = &out;
	if (git_args_in(&c, repo, &why) ||
	    run_tool(req->log, req->timeout, r, &c))
		strbuf_release(&out);
	child_clear(&c);
	strbuf_release(&why);
	return out.len ? strbuf_detach(&out, NULL) : NULL;
}

static enum step_status fetch_git(const struct source_req *req,
				  struct step_result *r, char **key,
				  char **repo, char **commit)
{
	*repo = git_repo(req, r);
	if (!*repo)
		return STEP_FAIL;
	*commit = git_commit(req, r, *repo);
	if (!*commit) {
		strbuf_reset(&r->reason);
		strbuf_addf(&r->reason, "ref '%s' is not a commit in %s",
			    req->t->git_ref ? req->t->git_ref : "HEAD",
			    req->t->value);
		return STEP_FAIL;
	}
	*key = xstrfmt("git-%.16s", *commit);
	return STEP_PASS;
}

static char *file_key(const char *prefix, const char *path)
{
	char *abs = abspath(path);
	uint64_t h = hash_bytes(HASH_INIT, abs, strlen(abs));
	struct stat st;

	if (!stat(abs, &st)) {
		h = hash_bytes(h, &st.st_size, sizeof(st.st_size));
		h = hash_bytes(h, &st.st_mtime, sizeof(st.st_mtime));
	}
	free(abs);
	return xstrfmt("%s-%016llx", prefix, (unsigned long long)h);
}

/*
 * A tarball is known by its content: another tarball at the same path,
 * with the same size and mtime, is another tree.  Hashing reads it once
 * per run (~0.1 s for 150 MB from the page cache).
 */
static char *tar_key(struct step_result *r, const char *path)
{
	uint64_t h = HASH_INIT;

	if (hash_file_fast(&h, path)) {
		strbuf_addf(&r->reason, "cannot read the tarball %s: %s", path,
			    strerror(errno));
		return NULL;
	}
	return xstrfmt("tar-%016llx", (unsigned long long)h);
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
	if (req->t->kind == SRC_DEB)
		ret = unpack_deb(req, r, what, tmp);
	else if (req->t->kind == SRC_TAR)
		ret = unpack_tar(req, r, tmp);
	else
		ret = unpack_git(req, r, tmp, what, commit);
	if (!ret)
		ret = install_tree(tmp, out->src, r);
	rm_rf(tmp);
unlock:
	unlock_file(lockfd);
out:
	free(tmp);
	return ret ? STEP_FAIL : STEP_PASS;
}

static enum step_status use_dir(const struct source_req *req,
				struct source *out, struct step_result *r)
{
	struct strbuf why = STRBUF_INIT;
	char *mk;
	int ok;

	/* /usr/src/linux -> linux-X.Y: the tree is where the link leads. */
	out->src = realpath(req->t->value, NULL);
	out->src_key = file_key("dir", req->t->value);
	if (!out->src) {
		strbuf_addf(&r->reason, "dir:%s: %s", req->t->value,
			    strerror(errno));
		return STEP_FAIL;
	}
	mk = xstrfmt("%s/Makefile", out->src);
	ok = is_file(mk);
	free(mk);
	if (!ok) {
		strbuf_addf(&r->reason, "%s is not a kernel tree (no Makefile)",
			    out->src);
		return STEP_FAIL;
	}
	/* The run's tree links to it: quilt and the build write through it. */
	if (tree_confined(out->src, &why)) {
		strbuf_addf(&r->reason, "refusing dir:%s: %s (the tree may only hold files, directories and symlinks that stay inside it: remove or replace them)",
			    req->t->value, why.buf);
		strbuf_release(&why);
		return STEP_FAIL;
	}
	strbuf_release(&why);
	strbuf_addf(&r->reason, "using %s in place (never modified)",
		    out->src);
	if (strcmp(out->src, req->t->value))
		strbuf_addf(&r->reason, ", where %s leads", req->t->value);
	return STEP_PASS;
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
	out->src = out->src_key = NULL;
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
	const struct target *t = req->t;
	char *key = NULL, *what = NULL, *commit = NULL;
	enum step_status st = STEP_PASS;

	if (t->kind == SRC_DIR)
		return use_dir(req, out, r);
	if (t->kind == SRC_DEB)
		st = fetch_deb(req, out, r, &key, &what);
	else if (t->kind == SRC_GIT)
		st = fetch_git(req, r, &key, &what, &commit);
	else
		st = (key = tar_key(r, t->value)) ? STEP_PASS : STEP_FAIL;
	if (st != STEP_PASS)
		goto out;
	if (commit) {
		out->git_commit = xstrdup(commit);
		out->git_commit_object = git_commit_object(req, r, what,
							   commit);
	}
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

/*
 * A dir: source is never written, but its owner may edit it: its manifest
 * (recorded at its first use, checked each run like a cached source's)
 * notices an edit anywhere below its top, and then nothing made from the
 * old contents is reused (the tree step links a fresh tree, O= is emptied).
 */
static enum step_status check_dir(const struct source_req *req,
				  struct source *out, struct step_result *r)
{
	char *dir = xstrfmt("%s/src", req->cache);
	char *man = xstrfmt("%s/%s.manifest", dir, out->src_key);
	struct strbuf bad = STRBUF_INIT, err = STRBUF_INIT;
	enum step_status st = STEP_PASS;
	enum manifest_state state;

	state = manifest_check(out->src, man, req->opt->verify_cache, &bad,
			       &err);
	if (state == MANIFEST_CHANGED) {
		strbuf_addf(&r->reason, "; it changed since its last run (%s): nothing made from it before is reused",
			    bad.buf);
		out->refetched = 1;
	}
	if (state == MANIFEST_ERROR) {
		strbuf_addf(&r->reason, "; cannot check it: %s", err.buf);
		st = STEP_FAIL;
	} else if (state != MANIFEST_OK &&
		   (mkdir_p(dir) || manifest_record(out->src, man, &err))) {
		/* what is there now is the baseline of the next run */
		strbuf_addf(&r->reason, "; cannot record its manifest: %s",
			    err.buf);
		st = STEP_FAIL;
	}
	strbuf_release(&bad);
	strbuf_release(&err);
	free(man);
	free(dir);
	return st;
}

int source_get(const struct source_req *req, struct source *out,
	       struct strbuf *reason, struct strbuf *detail)
{
	struct step_result r = STEP_RESULT_INIT("fetch");
	enum step_status st = fetch_tree(req, out, &r);

	if (st == STEP_PASS && req->t->kind == SRC_DIR)
		st = check_dir(req, out, &r);
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
