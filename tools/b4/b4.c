// SPDX-License-Identifier: GPL-2.0
/*
 * The upstream series through b4: send (series/ -> a b4 prep branch on the
 * target's tree -> .eml files), am (a posted revision -> series/, the
 * previous one kept in series/old/vN/), trailers (review replies -> the
 * right patches of series/) and range-diff.
 *
 * A Debian tree is imported once into a git repository in the cache (a
 * hard-linked work tree, git writes new files, never into the links).  Its
 * import commit exists nowhere else, so no mail names it: the cover says
 * which upstream release and Debian version the series was made on
 * instead of a base-commit.  A git: tree's import stands on its upstream
 * commit itself (upstream_base()), which the cover names as base-commit.
 * The sender is the operator's git identity;
 * a patch of series/ without From: (the project's own) gets theirs, every
 * patch their Signed-off-by (once, placed by git interpret-trailers), one
 * that series/co-developed lists their Co-developed-by: before it, and a
 * placeholder identity is refused.  What make am and make trailers bring
 * back into series/ has the operator's From:, Co-developed-by: and
 * Signed-off-by: taken off again, and no placeholder identity.
 *
 * Everything from mail (change-id, revision, message-id, the patches) is
 * checked before it goes into series/, into b4's tracking data or onto a
 * command line; a posting that does not apply is aborted, so the cache
 * repository is left clean; one b4 workflow runs at a time.
 *
 * This file has the workflows' table (b4.h), takes the lock, fetches the
 * tree and runs the workflow asked for: send (b4_send.c, with its gate on
 * make verify-all's reports in b4_gate.c), am and trailers (b4_am.c),
 * range-diff and reroll (b4_reroll.c), edit and series (b4_edit.c).
 * They share the cache repository, git and b4 (b4_repo.c), the checks of
 * mail-borne values and series/'s files (b4_mail.c), and one struct b4
 * (b4_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "b4/b4.h"
#include "b4/b4_int.h"
#include "core/series.h"
#include "core/sim.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/lock.h"
#include "lib/usage.h"

/*
 * The series as make verify reads it, before anything runs: every patch
 * listed is there and names no file outside the tree.
 */
static int check_series(const struct target *t, const struct options *opt)
{
	struct series s = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *where = xstrfmt("%s:%d", opt->list, t->line);
	int ret = 0;

	if (t->series && series_load(&s, ".", t->series, where, &err)) {
		strbuf_trim_trailing(&err);
		ret = error("%s", err.buf);
	}
	series_clear(&s);
	strbuf_release(&err);
	free(where);
	return ret;
}

/* The source the series is based on, fetched as make verify fetches it. */
static int fetch_base(struct b4 *b, const struct options *opt)
{
	char *log = xstrfmt("%s/fetch.log", b->a->work);
	const struct source_req req = {
		.t = b->t, .opt = opt, .cache = sources_dir(opt), .log = log,
		.timeout = SOURCE_TIMEOUT,
	};
	struct strbuf why = STRBUF_INIT, detail = STRBUF_INIT;
	int ret;

	unlink(log);	/* this run's, not every earlier one's */
	ret = source_get(&req, &b->source, &why, &detail);
	if (ret) {
		error("%s: fetch: %s (log: %s)", b->t->name, why.buf, log);
		fputs(detail.buf, stderr);
	}
	strbuf_release(&why);
	strbuf_release(&detail);
	free(log);
	return ret;
}

/*
 * The workflows: what runs each and whether it needs the operator's
 * identity (identities()): send signs with it, edit and series commit
 * with it, the branch's commits and what comes off them.
 */
const struct b4_cmd b4_send = { do_send, B4_SENDER };
const struct b4_cmd b4_am = { do_am, 0 };
const struct b4_cmd b4_trailers = { do_trailers, 0 };
const struct b4_cmd b4_range_diff = { do_range_diff, 0 };
const struct b4_cmd b4_reroll = { do_reroll, 0 };
const struct b4_cmd b4_edit = { do_edit, B4_SENDER };
const struct b4_cmd b4_series = { do_series, B4_SENDER };

int cmd_b4(const struct b4_cmd *cmd, const struct target *t,
	   const struct options *opt, const struct b4_args *a)
{
	struct b4 b = {
		.a = a, .t = t, .force = opt->force,
		.sim_traces = opt->sim_traces ? opt->sim_traces : SIM_TRACES,
	};
	struct strbuf why = STRBUF_INIT;
	int ret = EXIT_USAGE, lockfd = -1;

	if (!path_has("b4")) {
		missing_tool(&why, "b4", NULL);
		error("%s", why.buf);
		ret = EXIT_TOOL;
		goto out;
	}
	if (identities(&b, cmd->flags & B4_SENDER))
		goto out;
	if (check_series(t, opt)) {
		ret = EXIT_USAGE;
		goto out;
	}
	/*
	 * One b4 workflow at a time, from before the fetch to the end:
	 * series/, <results>/b4 and the cache repository are shared.  Not
	 * inherited: git detaches "gc --auto" into the background, which
	 * would hold the lock for minutes after the workflow ended.
	 */
	if (lock_in_cache(a->cache, 1, &lockfd, &why, "b4.lock")) {
		error("%s", why.buf);
		ret = EXIT_TOOL;
		goto out;
	}
	mkdir_p(a->work);
	if (fetch_base(&b, opt)) {
		ret = run_interrupted() ? EXIT_INTERRUPTED : EXIT_TOOL;
		goto out;
	}
	ret = 1;
	b.log = xstrfmt("%s/b4.log", a->work);
	b.b4_out = xstrfmt("%s/b4-output.log", a->work);
	b.repo = xstrfmt("%s/b4/%s", a->cache, b.source.src_key);
	ret = cmd->run(&b);
out:
	unlock_file(lockfd);
	strbuf_release(&why);
	source_clear(&b.source);
	free(b.repo);
	free(b.log);
	free(b.b4_out);
	free(b.base);
	free(b.base_commit);
	ident_clear(&b.id);
	strvec_clear(&b.patches);
	return ret;
}
