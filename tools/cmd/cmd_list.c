// SPDX-License-Identifier: GPL-2.0
/* kverify list: the targets of kernels.list. */
#include <stdio.h>

#include "cmd/cmd.h"
#include "lib/exitcode.h"

static const char usage_list[] =
"usage: kverify [--list FILE] list [--names]\n"
"\n"
"Print the targets of kernels.list: name, source and series (or the n/a\n"
"reason); with --names only the names, one a line.\n";

static struct { int names; } list_args;

static const struct option list_options[] = {
	OPT_BOOL(0, "names", &list_args.names, "only the names, one a line"),
	OPT_END()
};

static int cmd_list(const struct options *opt)
{
	struct target_list list = { 0 };
	size_t i;

	if (load_targets(opt, &list))
		return EXIT_USAGE;
	for (i = 0; i < list.nr; i++) {
		const struct target *t = &list.v[i];

		if (list_args.names)
			printf("%s\n", t->name);
		else
			printf("%-8s %-50s %s%s\n", t->name, t->source,
			       t->series ? t->series :
			       t->auto_series ? "auto" : "n/a: ",
			       t->series || t->auto_series ? "" :
			       t->na_reason);
	}
	targets_clear(&list);
	return 0;
}

static int run_list(struct options *opt, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_list(opt);
}

const struct command command_list = {
	.name = "list", .run = run_list, .usage = usage_list,
	.options = list_options,
};
