// SPDX-License-Identifier: GPL-2.0
/*
 * checkpatch: the target's own scripts/checkpatch.pl --strict on each
 * patch, from the pristine source and run there, as a patch is checked
 * before it is applied: a series that edits scripts/checkpatch.pl cannot
 * write its own verdict.  Errors fail; a warning or check fails unless its
 * type is listed, with the reason it must stay, in checkpatch.allow at the
 * top of this repository.
 *
 * Each patch is checked as it would be sent: the patches this project
 * writes carry no From: and no Signed-off-by: in the repository, and get
 * the operator's when they leave (ident_stamp(), as make send does), so
 * with a valid git identity the step checks a copy stamped with it (From:
 * where there is none, the Signed-off-by, Co-developed-by: for a patch
 * series/co-developed lists).  A machine whose identity is refused (a
 * placeholder) cannot make that copy; there a patch without From: is
 * checked as it is, and its MISSING_SIGN_OFF is allowed only if
 * checkpatch.allow lists it, which the step's reason says, with why the
 * identity was refused.  A patch with a From: and no sign-off still fails:
 * its author's sign-off is the repository's to carry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/checkpatch.h"
#include "core/ident.h"
#include "core/series.h"
#include "core/toolout.h"
#include "lib/fsutil.h"
#include "steps/memo.h"
#include "steps/steps.h"

#define UNSIGNED_TYPE "MISSING_SIGN_OFF"

/* Is @type a line "TYPE reason" of checkpatch.allow @allow? */
static int allow_lists(const char *allow, const char *type)
{
	struct line l;
	size_t n = strlen(type);

	for_each_line(l, allow)
		if (l.len > n && !strncmp(l.s, type, n) &&
		    (l.s[n] == ' ' || l.s[n] == '\t'))
			return 1;
	return 0;
}

/* @out without its "ERROR:MISSING_SIGN_OFF:" lines; how many it had. */
static int drop_unsigned(struct strbuf *out)
{
	struct strbuf keep = STRBUF_INIT;
	struct line l;
	int n = 0;

	for_each_line(l, out->buf) {
		if (starts_with(l.s, "ERROR:" UNSIGNED_TYPE ":")) {
			n++;
			continue;
		}
		strbuf_add(&keep, l.s, l.len);
		strbuf_addch(&keep, '\n');
	}
	strbuf_release(out);
	*out = keep;
	return n;
}

/*
 * What checkpatch.pl says of one patch follows from the bytes checked (the
 * copy as sent), the pristine source (its key: checkpatch.pl, its spelling
 * and const_structs lists come with it), perl and git: kept under their
 * hash, so that one patch edited runs checkpatch on that patch alone.
 */
static void patch_memo(const struct verify_ctx *ctx, struct memo *m,
		       const char *checked, const char *name)
{
	const char *src = ctx->fetch.source.src;
	static const char *const lists[] = {
		"scripts/checkpatch.pl", "scripts/spelling.txt",
		"scripts/const_structs.checkpatch",
	};
	char *step = xstrfmt("checkpatch.%s", name);
	size_t i;

	memo_init_bare(m, ctx, step);
	memo_add_string(m, ctx->fetch.source.src_key);
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		char *path = xstrfmt("%s/%s", src, lists[i]);

		memo_add_optional_file(m, path);
		free(path);
	}
	memo_add_file(m, checked);
	memo_add_tool(m, "perl");
	memo_add_tool(m, "git");
	free(step);
}

static int check_one(const struct verify_ctx *ctx, struct step_result *r,
		     const char *patch, const char *name, const char *allow,
		     int unsigned_ok, struct checkpatch_counts *n)
{
	struct step_result kept = STEP_RESULT_INIT("checkpatch");
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	struct memo m;
	int ret = 0;

	patch_memo(ctx, &m, patch, name);
	c.out = &out;
	c.log = ctx->log;
	c.timeout = ctx->timeout;
	if (!memo_reuse_data(&m, &kept, &out))
		checkpatch_run(&c, ctx->fetch.source.src, patch, &r->reason);
	if (c.spawn_errno || c.timed_out || c.interrupted ||
	    (c.status != 0 && c.status != 1)) {
		child_describe_failure(&c, &r->reason);
		ret = -1;
	} else {
		if (c.args.nr) {
			strbuf_addf(&kept.reason, "checkpatch.pl on %s", name);
			memo_keep_data(&m, STEP_PASS, &kept, &out);
		}
		if (unsigned_ok && drop_unsigned(&out)) {
			n->allowed++;
			if (!strstr(n->allowed_types.buf, " " UNSIGNED_TYPE))
				strbuf_addstr(&n->allowed_types,
					      " " UNSIGNED_TYPE);
		}
		checkpatch_count(out.buf, allow, n, &r->detail, name);
	}
	child_clear(&c);
	strbuf_release(&out);
	strbuf_release(&kept.reason);
	strbuf_release(&kept.detail);
	memo_clear(&m);
	return ret;
}

/* Does the patch @path have a From: header? */
static int has_from(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path, 64 << 20) >= 0 &&
		  ident_has_from(sb.buf);

	strbuf_release(&sb);
	return ret;
}

static enum step_status run_checkpatch(const struct verify_ctx *ctx, struct step_result *r)
{
	struct checkpatch_counts n = CHECKPATCH_COUNTS_INIT;
	struct strbuf allow = STRBUF_INIT, iderr = STRBUF_INIT;
	char *allow_file = xstrfmt("%s/checkpatch.allow", ctx->repo);
	char *codev = xstrfmt("%s/series/co-developed", ctx->repo);
	char *script = xstrfmt("%s/scripts/checkpatch.pl",
			       ctx->fetch.source.src);
	const char *tmpdir = getenv("TMPDIR");
	const struct strvec *patches = &series_of(ctx)->patches;
	enum step_status st = STEP_FAIL;
	struct ident op = { 0 };
	int signer = !ident_sender(&op, &iderr), unsigned_nr = 0;
	struct memo memo;
	size_t i;

	memo_init(&memo, ctx, "checkpatch");
	memo_add_file(&memo, script);
	memo_add_file(&memo, allow_file);
	if (is_file(codev))
		memo_add_file(&memo, codev);
	memo_add_string(&memo, signer ? op.full : "(no valid git identity)");
	memo_add_tool(&memo, "perl");
	memo_add_tool(&memo, "git");
	if (memo_reuse(&memo, r)) {
		st = STEP_PASS;
		goto out;
	}
	strbuf_read_file(&allow, allow_file, 1 << 20);
	for (i = 0; i < patches->nr; i++) {
		const char *patch = patches->v[i];
		char *copy = NULL;
		int ret, unsigned_ok = 0;

		if (signer) {
			struct strbuf err = STRBUF_INIT;
			int cd = ident_co_developed(codev, patch, &err);

			copy = xstrfmt("%s/checkpatch.%s.%s",
				       tmpdir ? tmpdir : "/tmp", ctx->t->name,
				       patch_name(patch));
			if (cd < 0 ||
			    ident_stamp(patch, copy, &op, STAMP_SIGNOFF |
					(cd > 0 ? STAMP_CODEV : 0), &err)) {
				strbuf_addf(&r->reason, "cannot make the copy of %s as it would be sent: %s",
					    patch_name(patch), err.buf);
				strbuf_trim_trailing(&r->reason);
				strbuf_release(&err);
				unlink(copy);
				free(copy);
				st = cd < 0 ? STEP_FAIL : STEP_ERROR;
				goto out;
			}
			strbuf_release(&err);
		} else if (!has_from(patch) &&
			   allow_lists(allow.buf, UNSIGNED_TYPE)) {
			unsigned_ok = 1;
			unsigned_nr++;
		}
		ret = check_one(ctx, r, copy ? copy : patch, patch_name(patch),
				allow.buf, unsigned_ok, &n);
		if (copy)
			unlink(copy);
		free(copy);
		if (ret) {
			st = STEP_ERROR;
			goto out;
		}
	}
	strbuf_addf(&r->reason, "%zu patches: %d errors, %d warnings, %d checks",
		    patches->nr, n.errors, n.warnings, n.checks);
	if (n.allowed)
		strbuf_addf(&r->reason, "; allowed by checkpatch.allow:%s",
			    n.allowed_types.buf);
	if (n.stable_line)
		strbuf_addf(&r->reason, "; %d about stable's \"commit SHA upstream.\" line, not counted",
			    n.stable_line);
	if (signer)
		strbuf_addf(&r->reason, "; checked as sent, signed by %s",
			    op.full);
	else if (unsigned_nr)
		strbuf_addf(&r->reason, "; %d without From: checked unsigned: your git identity \"%s\" is refused, so no copy as sent could be made (make send signs them)",
			    unsigned_nr, op.full);
	if (!n.errors && !n.warnings && !n.checks)
		st = STEP_PASS;
	memo_keep(&memo, st, r);
out:
	memo_clear(&memo);
	strbuf_release(&n.allowed_types);
	strbuf_release(&allow);
	strbuf_release(&iderr);
	ident_clear(&op);
	free(allow_file);
	free(codev);
	free(script);
	return st;
}

static enum step_status checkpatch_step_run(const struct verify_ctx *ctx, void *out,
					    struct step_result *r)
{
	(void)out;	/* it has none */
	return run_checkpatch(ctx, r);
}

const struct step checkpatch_step = {
	.name = "checkpatch",
	.run = checkpatch_step_run,
	.timeout = 600,
	.flags = STEP_SOURCE_ONLY,
	.needs = NEEDS(STEP_IDX_apply),
};
