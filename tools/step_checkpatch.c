// SPDX-License-Identifier: GPL-2.0
/*
 * checkpatch: the target's own scripts/checkpatch.pl --strict on each
 * patch, from the pristine source and run there, as a patch is checked
 * before it is applied: a series that edits scripts/checkpatch.pl cannot
 * write its own verdict.  Errors fail; a warning or check fails unless its
 * type is listed, with the reason it must stay, in checkpatch.allow at the
 * top of this repository.
 */
#include <stdlib.h>
#include <string.h>

#include "checkpatch.h"
#include "memo.h"
#include "series.h"
#include "steps.h"
#include "toolout.h"

static int check_one(const struct verify_ctx *ctx, struct step_result *r,
		     const char *patch, const char *allow,
		     struct checkpatch_counts *n)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int ret = 0;

	checkpatch_child(&c, ctx->fetch.source.src, patch);
	c.out = &out;
	c.log = ctx->log;
	c.timeout = ctx->timeout;
	run_child(&c);
	if (c.spawn_errno || c.timed_out || c.interrupted ||
	    (c.status != 0 && c.status != 1)) {
		child_describe_failure(&c, &r->reason);
		ret = -1;
	} else {
		checkpatch_count(out.buf, allow, n, &r->detail,
			     patch_name(patch));
	}
	child_clear(&c);
	strbuf_release(&out);
	return ret;
}

enum step_status run_checkpatch(const struct verify_ctx *ctx, struct step_result *r)
{
	struct checkpatch_counts n = CHECKPATCH_COUNTS_INIT;
	struct strbuf allow = STRBUF_INIT;
	char *allow_file = xstrfmt("%s/checkpatch.allow", ctx->repo);
	char *script = xstrfmt("%s/scripts/checkpatch.pl",
			       ctx->fetch.source.src);
	enum step_status st = STEP_FAIL;
	struct memo memo;
	size_t i;

	memo_init(&memo, ctx, "checkpatch");
	memo_add_file(&memo, script);
	memo_add_file(&memo, allow_file);
	memo_add_tool(&memo, "perl");
	if (memo_reuse(&memo, r)) {
		st = STEP_PASS;
		goto out;
	}
	strbuf_read_file(&allow, allow_file, 1 << 20);
	for (i = 0; i < series_of(ctx)->patches.nr; i++)
		if (check_one(ctx, r, series_of(ctx)->patches.v[i], allow.buf,
			      &n))
			goto out;
	strbuf_addf(&r->reason, "%zu patches: %d errors, %d warnings, %d checks",
		    series_of(ctx)->patches.nr, n.errors, n.warnings, n.checks);
	if (n.allowed)
		strbuf_addf(&r->reason, "; allowed by checkpatch.allow:%s",
			    n.allowed_types.buf);
	if (!n.errors && !n.warnings && !n.checks)
		st = STEP_PASS;
	memo_keep(&memo, st, r);
out:
	memo_clear(&memo);
	strbuf_release(&n.allowed_types);
	strbuf_release(&allow);
	free(allow_file);
	free(script);
	return st;
}
