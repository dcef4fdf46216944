/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_CMD_H
#define KVERIFY_CMD_H

/*
 * A command of kverify: a file of tools/cmd/ defines its struct command
 * (its usage, its table of options, what runs it), and a COMMAND(name)
 * line of commands.h names it.  kverify.c parses the options the
 * command's table and common_options[] give, reads make's variables as
 * those options (--env, options_from_env()), and runs it in its cache.
 */
#include <stdio.h>

#include "lib/options.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "sources/targets.h"

enum command_flags {
	RUNS_TOOLS = 1 << 0,	/* gets a $TMPDIR in the cache */
	OWN_OPTIONS = 1 << 1,	/* kverify sim|latency ... alone */
	TAKES_ARGS = 1 << 2,	/* names after its options: targets, packages */
};

struct command {
	const char *name;
	int (*run)(struct options *opt, int argc, char **argv);
	const char *usage;		/* before the options' help */
	const struct option *options;	/* besides common_options[] */
	int (*check)(struct options *opt);	/* after the options */
	int *env;	/* its --env: make's variables are read */
	unsigned int flags;		/* enum command_flags */
};

/* Each command's, defined in its tools/cmd/cmd_<name>.c. */
extern const struct command
#define COMMAND(name) command_##name,
#include "cmd/commands.h"
#undef COMMAND
	commands_end;	/* never defined: it only ends the list */

/* The options every command's values go into (cmd.c). */
extern struct options the_options;

#define OPT_PATH(l, v, a, h) OPT_STRING_F(0, l, v, a, h, PARSE_OPT_NONEMPTY)
#define OPT_JOBS() \
	OPT_CALLBACK('j', NULL, &the_options, "N", \
		     "parallel jobs (default: make's jobserver, or nproc)", \
		     parse_jobs)
#define OPT_NO_WAIT() \
	OPT_BOOL(0, "no-wait", &the_options.no_wait, \
		 "exit instead of waiting for another run's lock")
#define OPT_QUIET() \
	OPT_BOOL('q', "quiet", &the_options.quiet, \
		 "no step or progress lines, only the report")
#define OPT_ENV(v, h) OPT_BOOL(0, "env", v, h)

/**
 * parse_jobs() - -j N into the struct options @opt->value points to.
 * @opt: The option.
 * @arg: Its value: 1 to JOBS_MAX.
 *
 * Return: 0, or -1 after saying what is wrong.
 */
int parse_jobs(const struct option *opt, const char *arg);

/**
 * env() - An environment variable that is set and not empty.
 * @name: Its name.
 *
 * Return: Its value, or NULL.
 */
const char *env(const char *name);

/* make's values that are no option of a command (variables.c). */
struct make_values {
	const char *targets;	/* KERNEL=: names or prefixes, blank-separated */
	const char *bug_debian;	/* BUG=: Debian's bug number */
	const char *to, *cc;	/* send's recipients */
	const char *mbox;	/* am, trailers: a local mbox */
	const char *msgid;	/* am: a message-id */
	const char *from;	/* range-diff: vN */
	int send, reflect, resend;	/* SEND=1, REFLECT=1, RESEND=1 */
	const char *cache, *sources;	/* --cache's, --sources' defaults */
};
extern struct make_values the_make_values;

/**
 * read_make_variables() - Every value row of make_vars[] that is set.
 * @opt: The options: the switches and knobs, $MAKEFLAGS, the test hooks.
 *
 * Each $KVERIFY_* variable that stands for no option of a command goes
 * into @opt or the_make_values; the options' are options_from_env()'s.
 *
 * Return: 0, or EXIT_USAGE after one line naming the variable.
 */
int read_make_variables(struct options *opt);

/**
 * print_make_variables() - make_vars[], for kverify --help.
 * @out: Where.
 */
void print_make_variables(FILE *out);

/* The options every command takes: --list, --results, --cache, ... */
extern const struct option common_options[];

/**
 * command_usage_error() - error(@fmt, @arg), then @c's usage and options.
 * @c: The command.
 * @fmt: The message's format, with one %s.
 * @arg: Its argument.
 *
 * Return: EXIT_USAGE.
 */
int command_usage_error(const struct command *c, const char *fmt,
			const char *arg);

/**
 * options_from_env() - make's variables of @cmd, parsed as options.
 * @cmd: The command, run with --env.
 * @options: What it parses: common_options[] and its own.
 *
 * Each option row of make_vars[] that is set is parsed as its command line is;
 * the values stay the environment's own strings.
 *
 * Return: 0, or EXIT_USAGE after one line naming what is wrong.
 */
int options_from_env(const struct command *cmd,
		     const struct option *options);

/**
 * bad_value() - A bad value of an option or make variable, in one line.
 * @option: The option, "--skip".
 * @val: Its value, as given (an environment string when make gave it).
 * @why: What is wrong.
 *
 * The value is named as the user wrote it: "SKIP=x" when it came from
 * make, else "--skip x".
 *
 * Return: EXIT_USAGE.
 */
int bad_value(const char *option, const char *val, const char *why);

/* make's KERNEL= named the targets: errors name KERNEL= too. */
extern int targets_from_make;

/**
 * no_such_target() - targets_find()'s error, and how to add a kernel.
 * @name: The name given.
 * @err: targets_find()'s error.
 */
void no_such_target(const char *name, const struct strbuf *err);

/**
 * load_targets() - kernels.list (--list), or its errors on stderr.
 * @opt: The options.
 * @list: Filled; targets_clear() it.
 *
 * Return: 0, or nonzero when the list cannot be read.
 */
int load_targets(const struct options *opt, struct target_list *list);

#endif
