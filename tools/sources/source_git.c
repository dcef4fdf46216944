// SPDX-License-Identifier: GPL-2.0
/*
 * git: a target's source from a git commit of a local repository or a
 * clone of a URL, all git reads in the sandbox: the commit id is the cache
 * key, and git archive unpacks the commit's tree into the cache (source.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/lock.h"
#include "lib/result.h"
#include "lib/sandbox.h"
#include "sources/source_int.h"

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
		      const char *repo, const char *commit, const char *tmp)
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
				  struct source *out,
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
	out->git_commit = xstrdup(*commit);
	out->git_commit_object = git_commit_object(req, r, *repo, *commit);
	return STEP_PASS;
}

const struct source_ops git_source = {
	.fetch = fetch_git,
	.unpack = unpack_git,
	.whole = 1,	/* unpack_git takes all */
};
