// SPDX-License-Identifier: GPL-2.0
/*
 * dir: a target's source is a directory read in place, never written and
 * never in the cache; only its manifest is, to notice an edit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/tree.h"
#include "sources/manifest.h"
#include "sources/source_int.h"

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

static enum step_status use_dir(const struct source_req *req,
				struct source *out, struct step_result *r,
				char **key, char **what, char **commit)
{
	struct strbuf why = STRBUF_INIT;
	char *mk;
	int ok;

	(void)key;	/* out->src_key: it is used in place */
	(void)what;
	(void)commit;
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

const struct source_ops dir_source = {
	.fetch = use_dir,
	.check = check_dir,
};
