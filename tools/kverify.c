// SPDX-License-Identifier: GPL-2.0
/*
 * kverify: keep one kernel patch series verified on every kernel in
 * kernels.list.  The exit status is an enum exit_code (exitcode.h).  This
 * file is the command line: the options every command takes, make's
 * variables, and commands[], each command of a file of tools/cmd/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/cache.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/lock.h"
#include "lib/parse-options.h"
#include "lib/run.h"
#include "lib/usage.h"
#include "version.h"

static const char usage[] =
"usage: kverify [options] verify TARGET...\n"
"       kverify [options] verify --env\n"
"       kverify [options] list [--names]\n"
"       kverify [options] bundle TARGET...   (verify --bundle; make bundle)\n"
"       kverify backport --tree PATH --name X.Y\n"
"       kverify debian-patches --dest DIR [TARGET...]\n"
"       kverify sim --pristine DIR --patched DIR [--seed N] [--traces N] ...\n"
"       kverify latency [--lava] [--results DIR] [TOLERANCE=]TRACE...\n"
"       kverify matrix [--ci github|gitlab] [--shard I/N]\n"
"       kverify sweep [--only linux-source-X.Y=VERSION[@SUITE]] [--md FILE]\n"
"                     [--json FILE] [--members] [--env]   (make sweep)\n"
"       kverify matrix --sweep [--ci github|gitlab]\n"
"       kverify send|am|trailers|range-diff|reroll|regenerate|edit|series --env\n"
"\n"
"TARGET is a name from kernels.list or a unique prefix of one.  With --env\n"
"the targets come from $KVERIFY_TARGETS, and the options from make's\n"
"variables, each named below.  'kverify COMMAND --help' gives one\n"
"command's usage and options; -h, --help this text.\n"
"\n"
"Exit status: 0 pass; 1 the patch failed a step; 2 bad usage or input\n"
"(nothing run); 3 a tool, the source or the machine failed (an ERROR, not\n"
"the patch); 130 interrupted.\n"
"\n"
"The options of every command, and verify's:\n";

static struct option *command_options(const struct command *c);

/* After an error: a blank line and the global usage, exit 2. */
static int usage_tail(void)
{
	static const char *const global_usage[] = { usage, NULL };
	struct option *all = command_options(NULL);

	fputs("\n", stderr);
	usage_with_options(stderr, global_usage, all);
	free(all);
	return EXIT_USAGE;
}

static int usage_error(const char *fmt, const char *arg)
{
	error(fmt, arg);
	return usage_tail();
}

/*
 * --cache, else $KVERIFY_CACHE, else the XDG cache: absolute, so that
 * every command can take opt->cache as it is.  A relative $XDG_CACHE_HOME
 * is invalid and ignored, as the XDG base directory spec says.
 */
static char *cache_dir(const char *given)
{
	const char *xdg = env("XDG_CACHE_HOME"), *home = env("HOME");
	char *dir, *abs;

	if (given || the_make_values.cache)
		return abspath(given ? given : the_make_values.cache);
	if (xdg && xdg[0] == '/')
		return xstrfmt("%s/kverify", xdg);
	dir = xstrfmt("%s/.cache/kverify", home ? home : "/tmp");
	abs = abspath(dir);
	free(dir);
	return abs;
}

/* The commands, each of a file of tools/cmd/ (cmd/commands.h). */
static const struct command *const commands[] = {
#define COMMAND(name) (&command_##name),
#include "cmd/commands.h"
#undef COMMAND
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i]->name))
			return commands[i];
	return NULL;
}

/*
 * An option another command takes, given to this one (opt->value): its
 * value checked as that command checks it (opt->defval), then refused.
 */
static int refuse_option(const struct option *opt, const char *arg)
{
	const struct command *c = opt->value;
	const struct option *theirs = (const struct option *)opt->defval;
	char name[OPTION_NAME_MAX];

	if (theirs->type == OPTION_CALLBACK &&
	    !(theirs->flags & PARSE_OPT_NOARG) && theirs->callback(theirs, arg))
		return -1;
	if ((theirs->flags & PARSE_OPT_NONEMPTY) && arg && !*arg)
		return error("%s wants a value, not an empty string",
			     option_name(opt, name));
	return error("%s takes no %s", c->name, option_name(opt, name));
}

static int has_option(const struct option *opts, const struct option *o)
{
	for (; opts && opts->type != OPTION_END; opts++)
		if (o->long_name ? opts->long_name &&
				   !strcmp(o->long_name, opts->long_name) :
				   opts->short_name == o->short_name)
			return 1;
	return 0;
}

/*
 * The options @c parses: common_options[], its own, then every other
 * command's, refused with "@c takes no --x" (@c NULL: verify's are its
 * own, and the others are taken, to find the command among them); only
 * the first two have their help in @c's usage; free() it.
 */
static struct option *command_options(const struct command *c)
{
	static const struct option none[] = { OPT_END() };
	struct option *all = parse_options_concat(common_options,
						  !c ? command_verify.options :
						  c->options ? c->options :
						  none);
	size_t i, n = parse_options_count(all);
	const struct option *o;

	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		for (o = commands[i]->options; o && o->type != OPTION_END; o++) {
			if (has_option(all, o))
				continue;
			all = xrealloc(all, (n + 2) * sizeof(*all));
			all[n] = *o;
			all[n].flags |= PARSE_OPT_HIDDEN;
			if (c) {
				all[n].type = OPTION_CALLBACK;
				all[n].flags = PARSE_OPT_HIDDEN |
					       (o->type == OPTION_BOOL ||
						(o->flags & PARSE_OPT_NOARG) ?
						PARSE_OPT_NOARG : 0);
				all[n].value = (void *)c;
				all[n].callback = refuse_option;
				all[n].defval = (intptr_t)o;
			}
			all[++n] = (struct option)OPT_END();
		}
	}
	return all;
}

/* @cmd in its cache, with a $TMPDIR of its own there if it runs tools. */
static int run_in_cache(const struct command *cmd, struct options *opt,
			int argc, char **argv)
{
	struct tmpdir tmp = { .path = NULL, .lockfd = -1 };
	struct strbuf why = STRBUF_INIT;
	char *cache = cache_dir(opt->cache), *sources = NULL;
	int ret;

	opt->cache = cache;
	if (opt->sources || the_make_values.sources)
		sources = abspath(opt->sources ? opt->sources :
				  the_make_values.sources);
	opt->sources = sources;
	if ((cmd->flags & RUNS_TOOLS) && (cache_check(cache, &why) ||
	    (sources && cache_check(sources, &why)))) {
		strbuf_trim_trailing(&why);
		error("the cache is not kverify's user's alone:\n%s", why.buf);
		strbuf_release(&why);
		free(cache);
		free(sources);
		return EXIT_USAGE;
	}
	if ((cmd->flags & RUNS_TOOLS) && tmpdir_enter(&tmp, cache))
		warning("cannot make a temporary directory in %s/tmp: the tools write theirs to $TMPDIR or /tmp",
			cache);
	opt->tmp = tmp.path;
	ret = cmd->run(opt, argc, argv);
	tmpdir_leave(&tmp);
	free(cache);
	free(sources);
	return ret;
}

/*
 * No command, or one kverify does not have: the options are parsed all
 * the same, for --help and --version, and then that is said.
 */
static int no_command(int argc, char **argv, int at)
{
	static const char *const global_usage[] = { usage, NULL };
	struct option *all = command_options(NULL);
	const char *name = at < argc ? argv[at] : NULL;
	int n;

	n = parse_options(argc, (const char **)argv, all, global_usage, 0);
	free(all);
	if (n == PARSE_OPT_HELP) {
		print_make_variables(stdout);
		return EXIT_PASS;
	}
	if (n < 0)
		return EXIT_USAGE;
	if (name)
		return usage_error("unknown command '%s'", name);
	return usage_error("%s", "no command: verify or list");
}

/*
 * kverify [options] COMMAND [options] [ARG...]: the command's name is the
 * first argument that is no option nor an option's value; the options on
 * both sides of it are the command's.
 */
int main(int argc, char **argv)
{
	struct options *opt = &the_options;
	const struct command *cmd;
	struct option *options, *all;
	const char *usagestr[2] = { NULL, NULL };
	char **args;
	int at, n, ret;

	if (read_make_variables(opt))
		return EXIT_USAGE;
	cmd = argc > 1 ? find_command(argv[1]) : NULL;
	if (cmd && (cmd->flags & OWN_OPTIONS))
		return run_in_cache(cmd, opt, argc - 1, argv + 1);
	all = command_options(NULL);
	at = parse_options_first_arg(argc, (const char **)argv, all);
	free(all);
	cmd = at > 0 && at < argc ? find_command(argv[at]) : NULL;
	if (cmd && (cmd->flags & OWN_OPTIONS)) {
		error("%s takes its options after its name alone: kverify %s [options]",
		      cmd->name, cmd->name);
		return usage_tail();
	}
	if (!cmd)
		return no_command(argc, argv, at < 0 ? argc : at);

	/* argv without the command's name, which stands in argv[0] */
	args = xmalloc((argc + 1) * sizeof(*args));
	args[0] = argv[at];
	memcpy(args + 1, argv + 1, (at - 1) * sizeof(*args));
	memcpy(args + at, argv + at + 1, (argc - at) * sizeof(*args));
	options = command_options(cmd);
	usagestr[0] = cmd->usage;
	n = parse_options(argc - 1, (const char **)args, options, usagestr, 0);
	if (n >= 0 && cmd->env && *cmd->env && options_from_env(cmd, options))
		n = -1;
	free(options);
	if (n < 0) {
		free(args);
		return n == PARSE_OPT_HELP ? EXIT_PASS : EXIT_USAGE;
	}
	if (n > 0 && !(cmd->flags & TAKES_ARGS)) {
		error("%s takes no arguments, only options: '%s'", cmd->name,
		      args[0]);
		free(args);
		return usage_tail();
	}
	/* the arguments after the command's name, as it expects them */
	memmove(args + 1, args, (n + 1) * sizeof(*args));
	args[0] = argv[at];
	if (cmd->check && cmd->check(opt)) {
		free(args);
		return EXIT_USAGE;
	}
	ret = run_in_cache(cmd, opt, n + 1, args);
	free(args);
	return ret;
}
