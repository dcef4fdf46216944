// SPDX-License-Identifier: GPL-2.0
/* kverify debian-patches: the series as Debian's linux package carries it. */
#include "cmd/cmd.h"
#include "debian/debpatches.h"
#include "lib/exitcode.h"

static const char usage_debian_patches[] =
"usage: kverify debian-patches --dest DIR [TARGET...]\n"
"       kverify debian-patches --env   (make debian-patches DEST=DIR [KERNEL=]\n"
"                                      [BUG=<Debian bug>])\n"
"\n"
"Write each target's series as Debian's linux package carries patches:\n"
"DIR/<target>/bugfix/x86/<name>.patch (<name>: the subject's words in\n"
"lower case; From:, Date:, a plain Subject: and the DEP-3 fields Origin:,\n"
"Forwarded:, Applied-Upstream:, Bug-Debian:, Last-Update: in one header;\n"
"your identity stamped as make send does), DIR/<target>/series (the lines\n"
"for debian/patches/series) and DIR/<target>/changelog (the entry, as dch\n"
"writes it).  A DIR that is a checkout of the linux package takes one\n"
"target, into its debian/ tree, the entry through dch.  The DEP-3 fields\n"
"are the newest posted revision's (series/message-id, else series/old/vN/):\n"
"before a posting there is no Origin:, and Forwarded: no.\n";

static struct { int env; const char *dest; } deb_args;

static const struct option debian_patches_options[] = {
	OPT_PATH("dest", &deb_args.dest, "DIR",
		 "where the patches go, or a checkout of Debian's\n"
		 "linux package (make's DEST=)"),
	OPT_ENV(&deb_args.env,
		"the options from make's variables, the target from\n"
		"KERNEL=, the Debian bug from BUG="),
	OPT_END()
};

static int run_debian_patches(struct options *opt, int argc, char **argv)
{
	struct target_list list = { 0 };
	const char *bug = NULL, *one[1];
	const char *const *names = (const char *const *)argv + 1;
	int nr = argc - 1, ret;

	if (deb_args.env) {
		bug = the_make_values.bug_debian;
		nr = 0;
		if (the_make_values.targets) {	/* make's KERNEL=: one name */
			one[0] = the_make_values.targets;
			names = one;
			nr = 1;
		}
	}
	if (load_targets(opt, &list))
		return EXIT_USAGE;
	ret = cmd_debian_patches(&list, deb_args.dest, bug, opt->tmp,
				 opt->results, names, nr);
	targets_clear(&list);
	return ret;
}

const struct command command_debian_patches = {
	.name = "debian-patches", .run = run_debian_patches,
	.usage = usage_debian_patches, .options = debian_patches_options,
	.env = &deb_args.env, .flags = RUNS_TOOLS | TAKES_ARGS,
};
