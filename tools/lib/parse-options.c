// SPDX-License-Identifier: GPL-2.0
/*
 * Options from a table (parse-options.h), after git's parse-options: one
 * parser for every command of kverify.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse-options.h"
#include "lib/usage.h"

/* Where an option's help starts in usage_with_options(). */
#define USAGE_HELP_COLUMN 23

const char *option_name(const struct option *opt, char buf[OPTION_NAME_MAX])
{
	if (opt->long_name)
		snprintf(buf, OPTION_NAME_MAX, "--%s", opt->long_name);
	else
		snprintf(buf, OPTION_NAME_MAX, "-%c", opt->short_name);
	return buf;
}

size_t parse_options_count(const struct option *opts)
{
	size_t n = 0;

	while (opts[n].type != OPTION_END)
		n++;
	return n;
}

struct option *parse_options_concat(const struct option *a,
				    const struct option *b)
{
	size_t na = parse_options_count(a), nb = parse_options_count(b);
	struct option *all = xmalloc((na + nb + 1) * sizeof(*all));

	memcpy(all, a, na * sizeof(*all));
	memcpy(all + na, b, (nb + 1) * sizeof(*all));
	return all;
}

static int takes_value(const struct option *opt)
{
	switch (opt->type) {
	case OPTION_STRING:
	case OPTION_INTEGER:
		return 1;
	case OPTION_CALLBACK:
		return !(opt->flags & PARSE_OPT_NOARG);
	default:
		return 0;
	}
}

/* The outcome of looking an option up, for the messages. */
enum lookup {
	FOUND,
	UNKNOWN,
	AMBIGUOUS,
};

/*
 * The long option @name (@len characters): the one of that name, else
 * the one it is the unique prefix of.  Several entries of one name (a
 * table concatenated from others) count as one, the first.
 */
static enum lookup find_long(const struct option *opts, const char *name,
			     size_t len, const struct option **found)
{
	const struct option *o, *prefix = NULL;
	int ambiguous = 0;

	*found = NULL;
	for (o = opts; o->type != OPTION_END; o++) {
		if (!o->long_name || strncmp(o->long_name, name, len))
			continue;
		if (!o->long_name[len]) {
			*found = o;
			return FOUND;
		}
		if (!prefix)
			prefix = o;
		else if (strcmp(prefix->long_name, o->long_name))
			ambiguous = 1;
	}
	if (ambiguous)
		return AMBIGUOUS;
	*found = prefix;
	return prefix ? FOUND : UNKNOWN;
}

static const struct option *find_short(const struct option *opts, int c)
{
	const struct option *o;

	for (o = opts; o->type != OPTION_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

/* The table has its own -h/--help (kverify's global one does). */
static int own_help(const struct option *opts, const char *arg)
{
	const struct option *o;

	if (!strcmp(arg, "-h"))
		return !!find_short(opts, 'h');
	return find_long(opts, "help", 4, &o) == FOUND &&
	       !strcmp(o->long_name, "help");
}

/* @opt's value @arg (NULL for one that takes none) where it goes. */
static int set_value(const struct option *opt, const char *arg)
{
	char name[OPTION_NAME_MAX], *end;
	long n;

	switch (opt->type) {
	case OPTION_STRING:
		if ((opt->flags & PARSE_OPT_NONEMPTY) && !*arg)
			return error("%s wants a value, not an empty string",
				     option_name(opt, name));
		*(const char **)opt->value = arg;
		return 0;
	case OPTION_BOOL:
		*(int *)opt->value = 1;
		return 0;
	case OPTION_INTEGER:
		errno = 0;
		n = strtol(arg, &end, 10);
		if (errno || end == arg || *end || n < INT_MIN || n > INT_MAX)
			return error("%s wants a number, not '%s'",
				     option_name(opt, name), arg);
		*(int *)opt->value = n;
		return 0;
	case OPTION_CALLBACK:
		return opt->callback(opt, arg) ? -1 : 0;
	default:
		return error("%s: an option of no known type",
			     option_name(opt, name));
	}
}

/*
 * The option at argv[*i]: its value taken (from the argument, or the next
 * one, *i then moved on) and set, unless @dry.  0, or -1 after saying
 * what is wrong (not when @dry).
 */
static int parse_one(int argc, const char *const *argv, int *i,
		     const struct option *opts, int dry)
{
	const char *arg = argv[*i], *val = NULL;
	const struct option *opt;
	char name[OPTION_NAME_MAX];

	if (arg[1] == '-') {
		const char *eq = strchr(arg + 2, '=');
		size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);

		switch (len ? find_long(opts, arg + 2, len, &opt) : UNKNOWN) {
		case UNKNOWN:
			return dry ? -1 : error("unknown option '%.*s'",
						(int)len + 2, arg);
		case AMBIGUOUS:
			return dry ? -1 : error("option '%.*s' is ambiguous: give more of its name",
						(int)len + 2, arg);
		case FOUND:
			break;
		}
		if (eq && !takes_value(opt))
			return dry ? -1 : error("%s takes no value",
						option_name(opt, name));
		if (eq)
			val = eq + 1;
	} else {
		const char *c;

		/* -kq: flags bundled, until one that takes a value. */
		for (c = arg + 1; *c; c++) {
			opt = find_short(opts, *c);
			if (!opt)
				return dry ? -1 : error("unknown option '-%c'",
							*c);
			if (takes_value(opt)) {
				if (c[1])
					val = c + 1;
				break;
			}
			if (!dry && set_value(opt, NULL))
				return -1;
		}
		if (!*c)
			return 0;
	}
	if (takes_value(opt) && !val) {
		if (*i + 1 >= argc)
			return dry ? -1 : error("%s wants a value",
						option_name(opt, name));
		val = argv[++*i];
	}
	return dry ? 0 : set_value(opt, val);
}

static int is_option(const char *arg)
{
	return arg[0] == '-' && arg[1];
}

/* Every option says what it does in the usage, or is hidden from it. */
static void check_table(const struct option *opts)
{
	char name[OPTION_NAME_MAX];

	for (; opts->type != OPTION_END; opts++) {
		if (opts->help || (opts->flags & PARSE_OPT_HIDDEN))
			continue;
		error("BUG: option %s has no help: give it one, or PARSE_OPT_HIDDEN",
		      option_name(opts, name));
		abort();
	}
}

int parse_options_first_arg(int argc, const char *const *argv,
			    const struct option *opts)
{
	int i;

	check_table(opts);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return i + 1;
		if (!is_option(argv[i]))
			return i;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			continue;
		if (parse_one(argc, argv, &i, opts, 1))
			return -1;
	}
	return argc;
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usagestr, int flags)
{
	int i, nr = 0;

	check_table(opts);
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!is_option(arg)) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[nr++] = arg;
			continue;
		}
		if ((!strcmp(arg, "-h") || !strcmp(arg, "--help")) &&
		    !own_help(opts, arg)) {
			usage_with_options(stdout, usagestr, opts);
			return PARSE_OPT_HELP;
		}
		if (parse_one(argc, argv, &i, opts, 0)) {
			if (flags & PARSE_OPT_NO_USAGE)
				return -1;
			fputc('\n', stderr);
			usage_with_options(stderr, usagestr, opts);
			return -1;
		}
	}
	while (i < argc)
		argv[nr++] = argv[i++];
	argv[nr] = NULL;
	return nr;
}

/* A help of several lines: each under the first, at USAGE_HELP_COLUMN. */
static void print_help(FILE *f, const char *help)
{
	const char *nl;

	while ((nl = strchr(help, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - help), help,
			USAGE_HELP_COLUMN, "");
		help = nl + 1;
	}
	fprintf(f, "%s\n", help);
}

void usage_with_options(FILE *f, const char *const *usagestr,
			const struct option *opts)
{
	const struct option *o;
	int first = 1;

	for (; usagestr && *usagestr; usagestr++)
		fputs(*usagestr, f);
	for (o = opts; o->type != OPTION_END; o++) {
		char name[OPTION_NAME_MAX];
		int w;

		if (!o->help || (o->flags & PARSE_OPT_HIDDEN))
			continue;
		if (first)
			fputc('\n', f);
		first = 0;
		if (o->short_name && o->long_name)
			w = fprintf(f, "  -%c, --%s", o->short_name,
				    o->long_name);
		else
			w = fprintf(f, "  %s", option_name(o, name));
		if (takes_value(o))
			w += fprintf(f, " %s", o->argh ? o->argh : "VALUE");
		if (w >= USAGE_HELP_COLUMN - 1)
			w = fprintf(f, "\n") - 1;
		fprintf(f, "%*s", USAGE_HELP_COLUMN - w, "");
		print_help(f, o->help);
	}
}
