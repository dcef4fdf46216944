/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_PARSE_OPTIONS_H
#define KVERIFY_PARSE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Each command's options as a table (after git's parse-options.h, a
 * small subset written for kverify):
 *
 *	static const struct option options[] = {
 *		OPT_STRING(0, "dest", &dest, "DIR", "where the patches go"),
 *		OPT_BOOL('k', "keep-going", &keep_going, "go on after a failure"),
 *		OPT_CALLBACK('j', NULL, &jobs, "N", "parallel jobs", parse_jobs),
 *		OPT_END()
 *	};
 *	argc = parse_options(argc, argv, options, usage, 0);
 *
 * A long option takes its value as --name=VALUE or --name VALUE and may
 * be given as a unique prefix of its name; a short one as -jVALUE or -j
 * VALUE, and short flags bundle (-kq).  "--" ends the options.  -h and
 * --help, unless the table has them, print the usage on stdout, and each
 * option's help after it: an option without help, unless PARSE_OPT_HIDDEN,
 * is a bug of the table, and parse_options() aborts on it.
 */

enum parse_opt_type {
	OPTION_END,
	OPTION_STRING,		/* const char *, kept as given */
	OPTION_BOOL,		/* int, set to 1; takes no value */
	OPTION_INTEGER,		/* int, a decimal number */
	OPTION_CALLBACK,	/* ->callback(opt, value) */
};

/* An option's flags (struct option's .flags). */
enum parse_opt_option_flags {
	PARSE_OPT_NONEMPTY = 1 << 0,	/* a string option refuses "" */
	PARSE_OPT_NOARG = 1 << 1,	/* a callback that takes no value */
	PARSE_OPT_HIDDEN = 1 << 2,	/* not in the usage; needs no help */
};

/* parse_options()'s flags. */
enum parse_opt_flags {
	/* Stop at the first argument that is not an option. */
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,
	/* A refused value is the error's one line: no usage after it. */
	PARSE_OPT_NO_USAGE = 1 << 1,
};

/* parse_options()'s return besides the count: -h or --help was given. */
#define PARSE_OPT_HELP (-2)

struct option;

/*
 * Called with the option's value (NULL with PARSE_OPT_NOARG).  It says
 * what is wrong with error() and returns nonzero to refuse the value;
 * parse_options() then prints the usage and fails.
 */
typedef int parse_opt_cb(const struct option *opt, const char *arg);

struct option {
	enum parse_opt_type type;
	int short_name;		/* its letter, or 0 */
	const char *long_name;	/* its name without "--", or NULL */
	void *value;		/* where it goes (the callback's own) */
	const char *argh;	/* its value's name in the usage: "DIR" */
	const char *help;	/* for usage_with_options(); "\n" between lines */
	int flags;		/* enum parse_opt_option_flags */
	parse_opt_cb *callback;
	intptr_t defval;	/* the callback's own */
};

#define OPT_END()	{ .type = OPTION_END }
#define OPT_STRING_F(s, l, v, a, h, f) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .flags = (f) }
#define OPT_STRING(s, l, v, a, h)	OPT_STRING_F(s, l, v, a, h, 0)
#define OPT_BOOL(s, l, v, h) \
	{ .type = OPTION_BOOL, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h) }
#define OPT_INTEGER(s, l, v, h) \
	{ .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = "N", .help = (h) }
#define OPT_CALLBACK_F(s, l, v, a, h, f, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .flags = (f), \
	  .callback = (cb) }
#define OPT_CALLBACK(s, l, v, a, h, cb)	OPT_CALLBACK_F(s, l, v, a, h, 0, cb)

/**
 * parse_options() - Parse a command line against a table of options.
 * @argc: The number of arguments, argv[0] (the command) included.
 * @argv: The arguments; argv[1..argc) are parsed, and the ones that are
 *	not options are moved to argv[0..n), in their order, with argv[n]
 *	set to NULL.
 * @opts: The table, ended by OPT_END(); each option's value is set in
 *	the order the options are given.
 * @usagestr: The usage, NULL-terminated; each string is printed as it is.
 * @flags: enum parse_opt_flags.
 *
 * An unknown or malformed option, or a value a callback refuses, is said
 * with error(), followed by the usage on stderr (not with
 * PARSE_OPT_NO_USAGE).  -h or --help, when @opts has neither, prints the
 * usage on stdout.
 *
 * Return: n, the number of arguments left in @argv; -1 on an error;
 * PARSE_OPT_HELP after -h or --help.
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usagestr, int flags);

/**
 * parse_options_first_arg() - Find the first argument that is no option.
 * @argc: The number of arguments, argv[0] included.
 * @argv: The arguments; argv[1..argc) are looked at.
 * @opts: The table; -h and --help are options of every table.
 *
 * Nothing is set, called or printed: this is for a command's name among
 * options that come before it.
 *
 * Return: The index of the first argument that is neither an option of
 * @opts nor an option's value; @argc when there is none; -1 at an option
 * @opts does not know, or a malformed one.
 */
int parse_options_first_arg(int argc, const char *const *argv,
			    const struct option *opts);

/**
 * usage_with_options() - Print a usage and the options' help.
 * @f: Where to: stdout for --help, stderr after an error.
 * @usagestr: The usage, NULL-terminated; each string printed as it is.
 * @opts: The table: a line for each option that has a help, with its
 *	value's name (@argh, else "VALUE") when it takes one.
 */
void usage_with_options(FILE *f, const char *const *usagestr,
			const struct option *opts);

/**
 * parse_options_concat() - Join two tables of options.
 * @a: The first table.
 * @b: The second, whose OPT_END() ends the result.
 *
 * Return: The options of @a then @b, allocated: the caller's to free().
 */
struct option *parse_options_concat(const struct option *a,
				    const struct option *b);

/**
 * parse_options_count() - Count a table's options.
 * @opts: The table.
 *
 * Return: How many options @opts has, OPT_END() not counted.
 */
size_t parse_options_count(const struct option *opts);

#define OPTION_NAME_MAX 64

/**
 * option_name() - An option's name as a user writes it, for messages.
 * @opt: The option.
 * @buf: Where the name is written.
 *
 * Return: @buf, holding "--name", or "-c" for an option with no long name.
 */
const char *option_name(const struct option *opt, char buf[OPTION_NAME_MAX]);

#endif
