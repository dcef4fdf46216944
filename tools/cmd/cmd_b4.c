// SPDX-License-Identifier: GPL-2.0
/* kverify send, am, trailers, ... and regenerate: b4's workflows. */
#include <stdlib.h>
#include <string.h>

#include "b4/b4.h"
#include "b4/regen.h"
#include "cmd/cmd.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/lock.h"
#include "lib/run.h"
#include "lib/usage.h"

static const char usage_send[] =
"usage: kverify send --env   (make send [KERNEL=] [TO=] [CC=] [SEND=1\n"
"                            [REFLECT=1]] [RESEND=1])\n"
"\n"
"series/ through b4 send -o into <results>/send/vN/, checked against the\n"
"verify-all reports (the gate), signed with your git identity\n"
"(docs/workflow.md).  make's values:\n"
"\n"
"  KERNEL=NAME   the target whose tree b4 and get_maintainer.pl read\n"
"  TO=, CC=      the recipients, instead of get_maintainer.pl's\n"
"  SEND=1        mail them (b4 send); what went out is compared with what\n"
"                was checked, and series/message-id records the posting\n"
"  REFLECT=1     with SEND=1: b4 send --reflect, to yourself only\n"
"  RESEND=1      send a revision that was posted already again\n";

static const char usage_am[] =
"usage: kverify am --env   (make am MBOX=<file> | MSGID=<id>)\n"
"\n"
"A posted revision into series/, the old one into series/old/vN/;\n"
"series/message-id records the cover's Message-Id, series/message-ids\n"
"each patch's (\"NNNN-name.patch <message-id>\" a line).\n";

static const char usage_trailers[] =
"usage: kverify trailers --env   (make trailers MBOX=<replies>)\n"
"\n"
"Reviewed-by/Tested-by trailers from replies onto the right patches.\n";

static const char usage_reroll[] =
"usage: kverify reroll --env   (make reroll [RESEND=1])\n"
"\n"
"The next revision: the posted one kept as sent in series/old/vN/, the\n"
"cover's changelog and link started.\n";

static const char usage_regenerate[] =
"usage: kverify regenerate --env   (make regenerate)\n"
"\n"
"Every curated variant's code rewritten from the semantic patch where it\n"
"covers the change; a variant it cannot rewrite is named.\n";

static const char usage_edit[] =
"usage: kverify edit --env   (make edit [KERNEL=] [FORCE=1])\n"
"\n"
"series/ as a b4 prep branch in a git repository of the cache, to edit\n"
"with git commit --amend and git rebase -i; FORCE=1 makes it again from\n"
"series/ even when it has commits since.\n";

static const char usage_series[] =
"usage: kverify series --env   (make series [KERNEL=])\n"
"\n"
"series/ written back from make edit's branch; refused when series/\n"
"changed since the branch was made.\n";

static const char usage_range_diff[] =
"usage: kverify range-diff --env   (make range-diff [FROM=vN])\n"
"\n"
"series/old/vN against series/.\n";

static struct { int env; } b4_args;

/* send, am, trailers, ... and regenerate: make's values alone. */
static const struct option b4_options[] = {
	OPT_ENV(&b4_args.env, "the values from make's variables (above)"),
	OPT_END()
};

/*
 * make send/am/trailers/range-diff: the series is based on KERNEL= (a
 * name or prefix), by default the last target that takes series/.
 */
static int cmd_b4_env(const struct options *opt, const struct b4_cmd *cmd)
{
	struct target_list list = { 0 };
	const struct make_values *mv = &the_make_values;
	struct b4_args a = {
		.to = mv->to, .cc = mv->cc, .mbox = mv->mbox,
		.msgid = mv->msgid, .from = mv->from, .send = mv->send,
		.reflect = mv->reflect, .resend = mv->resend,
	};
	const struct target *t = NULL;
	struct strbuf err = STRBUF_INIT;
	char *results, *work;
	size_t i;
	int ret = EXIT_USAGE;

	if (load_targets(opt, &list))
		return EXIT_USAGE;
	if (mv->targets)
		t = targets_find(&list, mv->targets, &err);
	else
		for (i = 0; i < list.nr; i++)
			if (list.v[i].series && !strcmp(list.v[i].series, "series"))
				t = &list.v[i];
	if (!t) {
		if (err.len) {
			targets_from_make = 1;
			no_such_target(mv->targets, &err);
		} else {
			error("no target in kernels.list takes series/");
		}
		goto out;
	}
	run_install_signal_handlers();
	results = abspath(opt->results);
	work = xstrfmt("%s/b4", results);
	a.results = results;
	a.cache = opt->cache;
	a.work = work;
	a.list = &list;
	ret = cmd_b4(cmd, t, opt, &a);
	free(work);
	free(results);
out:
	strbuf_release(&err);
	targets_clear(&list);
	return ret;
}

/* make regenerate: one b4 workflow at a time, series/ is shared. */
static int run_regenerate(struct options *opt, int argc, char **argv)
{
	struct target_list list = { 0 };
	struct strbuf why = STRBUF_INIT;
	char *results;
	int ret, lockfd = -1;

	(void)argc;
	(void)argv;
	if (load_targets(opt, &list))
		return EXIT_USAGE;
	run_install_signal_handlers();
	if (lock_in_cache(opt->cache, 1, &lockfd, &why, "b4.lock")) {
		error("%s", why.buf);
		strbuf_release(&why);
		targets_clear(&list);
		return EXIT_TOOL;
	}
	results = abspath(opt->results);
	ret = cmd_regenerate(&list, opt, results);
	unlock_file(lockfd);
	free(results);
	targets_clear(&list);
	return ret;
}

/* a b4 workflow: b4_<wf> (b4.h), usage_<wf>, b4's options and --env */
#define B4_COMMAND(cmd, wf) \
static int run_##wf(struct options *opt, int argc, char **argv) \
{ \
	(void)argc; \
	(void)argv; \
	return cmd_b4_env(opt, &b4_##wf); \
} \
const struct command command_##wf = { \
	.name = cmd, .run = run_##wf, .usage = usage_##wf, \
	.options = b4_options, .env = &b4_args.env, .flags = RUNS_TOOLS, \
}

B4_COMMAND("send", send);
B4_COMMAND("am", am);
B4_COMMAND("trailers", trailers);
B4_COMMAND("range-diff", range_diff);
B4_COMMAND("reroll", reroll);
B4_COMMAND("edit", edit);
B4_COMMAND("series", series);

const struct command command_regenerate = {
	.name = "regenerate", .run = run_regenerate, .usage = usage_regenerate,
	.options = b4_options, .env = &b4_args.env, .flags = RUNS_TOOLS,
};
