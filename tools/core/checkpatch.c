// SPDX-License-Identifier: GPL-2.0
/*
 * The target tree's own scripts/checkpatch.pl, as the checkpatch step and
 * b4's check run it.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/checkpatch.h"
#include "core/series.h"
#include "core/toolout.h"
#include "lib/sandbox.h"

static void checkpatch_args(struct child *c, const char *tree,
			    const char *patch)
{
	strvec_push(&c->args, "perl");
	strvec_pushf(&c->args, "%s/scripts/checkpatch.pl", tree);
	strvec_pushl(&c->args, "--strict", "--show-types", "--color=never",
		     "--no-summary", patch, NULL);
	c->dir = tree;
}

/*
 * In the sandbox, which reads the tree and the patch (a mail, say) and
 * writes nothing: neither can reach checkpatch.pl's regexes and its
 * spelling file with more than the patch's words.  The operator's
 * ~/.checkpatch.conf is not read: every run checks alike.  A sandbox that
 * cannot be made is a spawn failure (EPERM), @why saying why.
 */
int checkpatch_run(struct child *c, const char *tree, const char *patch,
		   struct strbuf *why)
{
	struct sandbox sb = SANDBOX_INIT;
	char *real = realpath(patch, NULL);
	int ret;

	checkpatch_args(c, tree, patch);
	strvec_pushl(&sb.ro, tree, real ? real : patch, NULL);
	ret = sandbox_child(c, &sb, why);
	sandbox_clear(&sb);
	free(real);
	if (ret) {
		c->spawn_errno = EPERM;
		c->status = -1;
		return -1;
	}
	return run_child(c);
}

int checkpatch_file(const char *tree, const char *patch, const char *allow,
		    const char *log, struct strbuf *detail)
{
	struct checkpatch_counts n = CHECKPATCH_COUNTS_INIT;
	struct strbuf out = STRBUF_INIT, sink = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int bad;

	c.out = &out;
	c.log = log;
	checkpatch_run(&c, tree, patch, detail ? detail : &sink);
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
