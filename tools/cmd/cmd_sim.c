// SPDX-License-Identifier: GPL-2.0
/*
 * kverify sim: the sim step on any pair of trees (core/sim.c), with its
 * own options and --help.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/sim.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/parse-options.h"
#include "lib/usage.h"

static const char sim_usage_text[] =
	"usage: kverify sim --pristine DIR --patched DIR [--baseline DIR]\n"
	"                   [--seed N] [--traces N]\n"
	"                   [--tolerance T] [--vendor intel|amd] [--work DIR]\n"
	"                   [--shrink-seconds S] [--max-seconds S]\n"
	"                   [--without OP,...] [--min-period N]\n"
	"                   [--trace FILE] [--coverage] [--fixes-only]\n";

static const char *const sim_usage_str[] = {
	sim_usage_text,
	"\nThe sim step on any pair of trees: PASS (exit 0) or the shortest\n"
	"counterexample (exit 1, also when the patched code does not build or\n"
	"run to its end); exit 2 on bad input; 3 when a tool, the sandbox or\n"
	"the machine fails.  docs/sim.md.\n",
	NULL
};

__printf(1, 2) static int sim_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("kverify sim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n\n%s", sim_usage_text);
	return EXIT_USAGE;
}

/* An option of kverify sim that takes a number: its range and its field. */
struct number_option {
	const char *what;
	long long min, max;
	unsigned long long *u;
	long *l;
	double *d;
};

/* --seed N and the other numbers (opt->value, a struct number_option). */
static int parse_number(const struct option *opt, const char *arg)
{
	const struct number_option *n = opt->value;
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 0);
	if (errno || !*arg || *end || v < n->min || v > n->max)
		return error("sim: --%s wants %s, not '%s'", opt->long_name,
			     n->what, arg);
	if (n->u)
		*n->u = v;
	else if (n->l)
		*n->l = v;
	else
		*n->d = v;
	return 0;
}

static int parse_vendor(const struct option *opt, const char *arg)
{
	if (strcmp(arg, "intel") && strcmp(arg, "amd"))
		return error("sim: --vendor is intel or amd, not '%s'", arg);
	*(const char **)opt->value = arg;
	return 0;
}

/* OPT_NUMBER(name, argh, help, what, min, max, .field = &where) */
#define OPT_NUMBER(l, a, h, ...) \
	{ .type = OPTION_CALLBACK, .long_name = (l), .argh = (a), \
	  .value = &(struct number_option){ __VA_ARGS__ }, .help = (h), \
	  .callback = parse_number }

/* kverify sim's options, into sim_args, which cmd_sim() then takes. */
static struct sim_opts sim_args;
static const struct option sim_options[] = {
	OPT_STRING(0, "pristine", &sim_args.pristine, "DIR",
		   "the tree as it is, without the series"),
	OPT_STRING(0, "patched", &sim_args.patched, "DIR",
		   "the tree with the whole series"),
	OPT_STRING(0, "baseline", &sim_args.baseline, "DIR",
		   "pristine plus the series' Fixes: patches\n"
		   "(default: the pristine tree)"),
	OPT_STRING(0, "work", &sim_args.work, "DIR",
		   "keep the generated files there (default: a\n"
		   "scratch directory in the cache, removed after)"),
	OPT_STRING(0, "without", &sim_args.without, "OP,...",
		   "leave these op types out of the traces (names\n"
		   "as traces print them); kvm-run: every KVM_RUN\n"
		   "returns from vcpu_run(), none by the tree's\n"
		   "early returns"),
	OPT_STRING(0, "trace", &sim_args.trace, "FILE",
		   "run the one trace of FILE (a counterexample)"),
	OPT_CALLBACK(0, "vendor", &sim_args.vendor, "intel|amd",
		     "one vendor's PMU only", parse_vendor),
	OPT_NUMBER("seed", "N", "the traces' seed (default 1)",
		   "a number", 0, 1LL << 62, .u = &sim_args.seed),
	OPT_NUMBER("traces", "N", "how many traces (default 20000)",
		   "a positive number", 1, 100000000, .l = &sim_args.traces),
	OPT_NUMBER("tolerance", "T",
		   "every trace and its runtime changes at T\n"
		   "(default: drawn from the sim's set per trace)",
		   "0 to 4294967295", 0, 4294967295LL,
		   .l = &sim_args.tolerance),
	OPT_NUMBER("min-period", "N",
		   "perf's minimum period for every trace\n"
		   "(default: 0, 32 or 128, drawn per trace)",
		   "0 to 4096", 0, 4096, .l = &sim_args.min_period),
	OPT_NUMBER("shrink-seconds", "S",
		   "time to shrink a counterexample (default 8)",
		   "0 to 3600", 0, 3600, .d = &sim_args.shrink_seconds),
	OPT_NUMBER("max-seconds", "S", "start no trace after S seconds",
		   "0 to 86400", 0, 86400, .d = &sim_args.max_seconds),
	OPT_BOOL(0, "coverage", &sim_args.coverage,
		 "gcov's lines and branches of the tree's functions"),
	OPT_BOOL(0, "fixes-only", &sim_args.fixes_only,
		 "the patched tree is pristine plus fixes, no\n"
		 "parameter; no tree excuses a spurious overflow\n"
		 "of it (invariant iv)"),
	OPT_END()
};

static int run_sim(struct options *opt, int argc, char **argv)
{
	struct sim_opts o = {
		.seed = 1, .traces = SIM_TRACES, .tolerance = -1,
		.min_period = -1, .shrink_seconds = 8, .timeout = 600, .debug = opt->sim_debug,
	};
	struct sim_result r = SIM_RESULT_INIT;
	char *work = NULL, *objects;
	int ret;

	sim_args = o;
	argc = parse_options(argc, (const char **)argv, sim_options,
			     sim_usage_str, 0);
	o = sim_args;
	if (argc == PARSE_OPT_HELP)
		return EXIT_PASS;
	if (argc < 0)
		return EXIT_USAGE;
	if (argc)
		return sim_usage("unexpected argument '%s': every value follows its option",
				 argv[0]);
	if (!o.pristine || !o.patched)
		return sim_usage("%s", "--pristine and --patched are required");
	if (!is_dir(o.pristine) || !is_dir(o.patched))
		return sim_usage("no such directory: %s",
				 is_dir(o.pristine) ? o.patched : o.pristine);
	if (o.baseline && !is_dir(o.baseline))
		return sim_usage("no such directory: %s", o.baseline);
	if (o.trace && !is_file(o.trace))
		return sim_usage("--trace: no such file: %s", o.trace);
	if (!o.work) {
		work = xstrfmt("%s/sim/standalone-%ld", opt->cache,
			       (long)getpid());
		o.work = work;
	}
	objects = xstrfmt("%s/%s", opt->cache, SIM_OBJECTS);
	o.objects = objects;
	ret = sim_run(&o, &r);
	fputs(r.output.buf, stdout);
	fputs(r.coverage.buf, stdout);
	if (ret) {
		fprintf(stderr, "kverify sim: %s\n", r.reason.buf);
		ret = r.bad_input ? EXIT_USAGE : r.cannot_run ? EXIT_TOOL : EXIT_FAIL;
	} else {
		printf("kverify sim: %s (%s era): %s\n",
		       r.passed ? "PASS" : "FAIL", sim_era_name(r.era),
		       r.reason.buf);
		ret = r.passed ? 0 : 1;
	}
	if (work)
		rm_rf(work);
	free(work);
	free(objects);
	sim_result_clear(&r);
	return ret;
}

/* sim parses its own options and prints its own --help. */
const struct command command_sim = {
	.name = "sim", .run = run_sim, .flags = RUNS_TOOLS | OWN_OPTIONS,
};
