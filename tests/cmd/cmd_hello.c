// SPDX-License-Identifier: GPL-2.0
/*
 * kverify hello: a command of tests/t0181-add-command.t, added to a copy
 * of the repository as tools/cmd/cmd_hello.c with "COMMAND(hello)" in
 * tools/cmd/commands.h, and nothing else; then make's WHO= as its --who.
 */
#include <stdio.h>

#include "cmd/cmd.h"

static const char usage_hello[] =
"usage: kverify hello [--who NAME]\n"
"\n"
"Greet NAME, and name the target list.\n";

static struct { const char *who; int env; } hello_args = { .who = "world" };

static const struct option hello_options[] = {
	OPT_PATH("who", &hello_args.who, "NAME", "whom to greet (default world)"),
	OPT_ENV(&hello_args.env, "the options from make's variables"),
	OPT_END()
};

static int run_hello(struct options *opt, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("hello, %s, from %s\n", hello_args.who, opt->list);
	return 0;
}

const struct command command_hello = {
	.name = "hello", .run = run_hello, .usage = usage_hello,
	.options = hello_options, .env = &hello_args.env,
};
