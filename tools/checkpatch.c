// SPDX-License-Identifier: GPL-2.0
/*
 * The target tree's own scripts/checkpatch.pl, as the checkpatch step and
 * b4's check run it.
 */
#include "checkpatch.h"
#include "series.h"
#include "toolout.h"

void checkpatch_child(struct child *c, const char *tree, const char *patch)
{
	strvec_push(&c->args, "perl");
	strvec_pushf(&c->args, "%s/scripts/checkpatch.pl", tree);
	strvec_pushl(&c->args, "--strict", "--show-types", "--color=never",
		     "--no-summary", patch, NULL);
	c->dir = tree;
}

int checkpatch_file(const char *tree, const char *patch, const char *allow,
		    const char *log, struct strbuf *detail)
{
	struct checkpatch_counts n = CHECKPATCH_COUNTS_INIT;
	struct strbuf out = STRBUF_INIT, sink = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int bad;

	checkpatch_child(&c, tree, patch);
	c.out = &out;
	c.log = log;
	run_child(&c);
	checkpatch_count(out.buf, allow ? allow : "", &n,
		     detail ? detail : &sink, patch_name(patch));
	bad = c.spawn_errno || c.status > 1 ? -1 :
	      n.errors + n.warnings + n.checks;
	child_clear(&c);
	strbuf_release(&out);
	strbuf_release(&sink);
	strbuf_release(&n.allowed_types);
	return bad;
}
