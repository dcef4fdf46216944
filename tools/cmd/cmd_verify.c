// SPDX-License-Identifier: GPL-2.0
/* kverify verify, kverify bundle: the pipeline on targets (verify.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundle.h"
#include "cmd/cmd.h"
#include "core/flavour.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/run.h"
#include "lib/usage.h"
#include "steps/steps.h"
#include "verify.h"

static const char usage_bundle[] =
"usage: kverify [options] bundle TARGET...\n"
"       kverify [options] bundle --env\n"
"\n"
"kverify verify --bundle: run the pipeline for each TARGET and write\n"
"results/<target>/bundle/ (the kernel verify booted, the initramfs with\n"
"the runner and the tests, LAVA jobs) for a lab with PMU hardware\n"
"(docs/lab.md).  --boot as verify's: a deb: source bundles Debian's\n"
"image with the patched modules, --boot own our QEMU guest's bzImage.\n"
"Takes verify's options:\n";

static const char usage_verify[] =
"usage: kverify [options] verify TARGET...\n"
"       kverify [options] verify --env\n"
"\n"
"Run the pipeline (fetch, tree, apply, sim, checkpatch, cocci, config,\n"
"build, kabi, selftests, boot) for each TARGET, a name of kernels.list or\n"
"a unique prefix of one.  Writes results/<target>/report.json, junit.xml and\n"
"logs/.  Exit 0 when every step passed, was skipped or n/a; 1 on a FAIL;\n"
"3 on an ERROR (a tool, the source or the machine, not the patch) with no\n"
"FAIL; 2 on bad usage or input; 130 when interrupted.\n";

static struct verify_args {
	int env;
	const char *format;	/* kcidb */
	const char *require, *artifacts, *flavours;
} verify_args;

static int check_skip(struct options *opt, const char *skip)
{
	char *copy = xstrdup(skip), *s, *save = NULL;
	int i, bad = 0;

	for (s = strtok_r(copy, ",", &save); s && !bad;
	     s = strtok_r(NULL, ",", &save)) {
		struct strbuf why = STRBUF_INIT;

		i = verify_step_index(s);
		if (i >= 0) {
			opt->skip_steps |= NEEDS(i);
			continue;
		}
		strbuf_addf(&why, "no step named '%s'; the steps are", s);
		for (i = 0; i < nr_verify_steps; i++)
			strbuf_addf(&why, "%s%s", i ? ", " : " ",
				    verify_step_name(i));
		bad = bad_value("--skip", skip, why.buf);
		strbuf_release(&why);
	}
	free(copy);
	return bad;
}

/* --config, CONFIG=: a fragment of this repository, as in kernels.list. */
static int check_config(const char *config)
{
	const char *why = repo_path_problem(config);

	char *msg;
	int ret;

	if (!why)
		return 0;
	msg = xstrfmt("%s: give configs/<name>.config, or distro", why);
	ret = bad_value("--config", config, msg);
	free(msg);
	return ret;
}

/*
 * --flavours (FLAVOURS=): Debian's amd64 flavours, amd64 first (the rows
 * config, build, kabi and boot are its), each once.
 */
static int check_flavours(struct options *opt, const char *list)
{
	const struct flavour *known;
	char *copy = xstrdup(list), *f, *save = NULL;
	struct strvec seen = STRVEC_INIT;
	int ret = 0;

	for (f = strtok_r(copy, ",", &save); f && !ret;
	     f = strtok_r(NULL, ",", &save)) {
		char *why = NULL;

		known = flavour_find(f);
		if (!known)
			why = xstrfmt("'%s' is not a flavour Debian builds for amd64: amd64, cloud-amd64 or rt-amd64",
				      f);
		else if (strvec_has(&seen, f))
			why = xstrfmt("%s named twice", f);
		else if (!seen.nr && !known->pipeline)
			why = xstrfmt("the list must start with amd64, the flavour of the config, build, kabi and boot rows, not '%s': e.g. amd64,rt-amd64",
				      f);
		if (why)
			ret = bad_value("--flavours", list, why);
		free(why);
		strvec_push(&seen, f);
	}
	if (!ret && !seen.nr)
		ret = bad_value("--flavours", list,
				"names no flavour: amd64, cloud-amd64 or rt-amd64, e.g. amd64,rt-amd64");
	if (!ret)
		opt->flavours = list;
	strvec_clear(&seen);
	free(copy);
	return ret;
}

/* --require pmu (REQUIRE=pmu): the one thing a run can require today. */
static int check_require(struct options *opt, const char *what)
{
	if (strcmp(what, "pmu"))
		return bad_value("--require", what,
				 "the one thing a run can require is pmu (a guest PMU test that SKIPs is then a FAIL)");
	opt->require_pmu = 1;
	return 0;
}
/* --artifacts (ARTIFACTS=): where a lab serves the bundle's files. */
static int check_artifacts(struct options *opt, const char *url)
{
	struct strbuf why = STRBUF_INIT;

	if (bundle_check_artifacts(url, &why)) {
		error("ARTIFACTS='%s': %s", url, why.buf);
		fputs("  give the base URL the lab serves the bundle's files from:\n"
		      "  make bundle KERNEL=6.12 ARTIFACTS=https://HOST/PATH (http, https or file:///PATH)\n",
		      stderr);
		strbuf_release(&why);
		return EXIT_USAGE;
	}
	opt->artifacts = url;
	return 0;
}

/* The options whose value is one of a few names, in their enum's order. */
enum { MODE_BUILD, MODE_BOOT };
static const struct {
	const char *const names[4];	/* NULL after the last */
	const char *option;
	const char *bad;		/* the error, for the value given */
} mode_options[] = {
	[MODE_BUILD] = { { "kernel", "objects" }, "--build",
			 "not a build: kernel or objects" },
	[MODE_BOOT] = { { "auto", "own", "distro" }, "--boot",
			"not a kernel to boot: auto, own or distro" },
};

static int set_mode(struct options *opt, int which, const char *val)
{
	const char *const *names = mode_options[which].names;
	int i;

	for (i = 0; names[i]; i++) {
		if (strcmp(val, names[i]))
			continue;
		if (which == MODE_BUILD)
			opt->mode = i;
		else
			opt->boot = i;
		return 0;
	}
	return bad_value(mode_options[which].option, val,
			 mode_options[which].bad);
}

/* --build MODE, --boot MODE: opt->defval says which. */
static int parse_mode(const struct option *opt, const char *arg)
{
	return set_mode(opt->value, opt->defval, arg);
}

static const struct option verify_options[] = {
	{ .type = OPTION_CALLBACK, .long_name = "build",
	  .value = &the_options, .argh = "MODE", .callback = parse_mode,
	  .defval = MODE_BUILD,
	  .help = "kernel (bzImage, default) or objects (arch/x86/kvm/)\n"
		  "(make's BUILD=)" },
	{ .type = OPTION_CALLBACK, .long_name = "boot",
	  .value = &the_options, .argh = "MODE", .callback = parse_mode,
	  .defval = MODE_BOOT,
	  .help = "auto (default), distro or own.  distro: Debian's\n"
		  "own kernel image of a deb: source's version, the\n"
		  "patched KVM modules built against its headers, and\n"
		  "the kabi step.  own: our allnoconfig bzImage.  auto:\n"
		  "distro for deb: sources when Debian's compiler is\n"
		  "installed and no --config or --build objects\n"
		  "asks for our own kernel; else own (make's BOOT=)" },
	OPT_PATH("config", &the_options.config, "FRAGMENT",
		 "config fragment instead of the target's, or distro\n"
		 "(make's CONFIG=)"),
	OPT_PATH("skip", &the_options.skip, "STEP[,STEP]",
		 "steps not to run (make's SKIP=)"),
	OPT_JOBS(),
	OPT_NO_WAIT(),
	OPT_BOOL(0, "bundle", &the_options.bundle,
		 "also write results/<target>/bundle/ for labs"),
	OPT_PATH("format", &verify_args.format, "kcidb",
		 "also write results/<target>/kcidb.json, the run as\n"
		 "KernelCI KCIDB I/O schema v4.3 data (origin kverify;\n"
		 "make's FORMAT=)"),
	OPT_BOOL('k', "keep-going", &the_options.keep_going,
		 "after a failure, still run every step that does not\n"
		 "depend on the failed one (make's KEEP_GOING=1)"),
	OPT_QUIET(),
	OPT_ENV(&verify_args.env,
		"targets from $KVERIFY_TARGETS (make's KERNEL=), the\n"
		"options from make's variables"),
	OPT_PATH("require", &verify_args.require, "pmu",
		 "a guest PMU test that SKIPs (no PMU, no forced\n"
		 "emulation) FAILs the boot step: for a lab with PMU\n"
		 "hardware (make's REQUIRE=pmu)"),
	OPT_PATH("artifacts", &verify_args.artifacts, "URL",
		 "the bundle's LAVA jobs fetch its files from URL\n"
		 "(http, https or file; default: the bundle's own\n"
		 "directory as file://; make's ARTIFACTS=)"),
	OPT_PATH("flavours", &verify_args.flavours, "LIST",
		 "Debian's flavours to build and kABI-check the\n"
		 "modules against, with BOOT=distro: amd64 (the\n"
		 "default) and any of cloud-amd64, rt-amd64, e.g.\n"
		 "amd64,rt-amd64: config, build, kabi and boot rows\n"
		 "each (make's FLAVOURS=)"),
	OPT_END()
};

/* verify's values that are checked as a whole, in this order. */
static int check_verify_options(struct options *opt)
{
	const struct verify_args *a = &verify_args;

	if (opt->config && check_config(opt->config))
		return EXIT_USAGE;
	if (a->require && check_require(opt, a->require))
		return EXIT_USAGE;
	if (a->artifacts && check_artifacts(opt, a->artifacts))
		return EXIT_USAGE;
	if (a->flavours && check_flavours(opt, a->flavours))
		return EXIT_USAGE;
	if (a->format && strcmp(a->format, "kcidb"))
		return bad_value("--format", a->format,
				 "the one format besides report.json and junit.xml is kcidb (KernelCI's KCIDB I/O data)");
	return opt->skip ? check_skip(opt, opt->skip) : 0;
}

/* Each of @names[0..@nr) verified in turn, until one is interrupted. */
static int verify_names(const struct options *opt, int nr,
			const char *const *names)
{
	struct target_list list = { 0 };
	const struct target **todo;
	struct strbuf err = STRBUF_INIT;
	int i, ret = EXIT_PASS;

	if (!nr)
		return command_usage_error(&command_verify, "%s",
					   "verify needs at least one TARGET");
	if (load_targets(opt, &list))
		return EXIT_USAGE;
	todo = xmalloc(nr * sizeof(*todo));
	for (i = 0; i < nr; i++) {
		todo[i] = targets_find(&list, names[i], &err);
		if (!todo[i]) {
			no_such_target(names[i], &err);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	run_install_signal_handlers();
	for (i = 0; i < nr && !run_interrupted(); i++)
		ret = exit_worse(ret, verify_target(todo[i], opt));
out:
	free(todo);
	strbuf_release(&err);
	targets_clear(&list);
	return ret;
}

/* Blank-separated names in $KVERIFY_TARGETS, as argv, without a shell. */
static int names_from_env(struct strvec *names)
{
	const char *v = the_make_values.targets;
	char *copy, *s, *save = NULL;

	if (!v)
		return command_usage_error(&command_verify, "%s",
					   "--env: KVERIFY_TARGETS (make's KERNEL=) is empty");
	copy = xstrdup(v);
	for (s = strtok_r(copy, " \t\n", &save); s;
	     s = strtok_r(NULL, " \t\n", &save))
		strvec_push(names, s);
	free(copy);
	targets_from_make = 1;
	return 0;
}

static int run_verify(struct options *opt, int argc, char **argv)
{
	opt->kcidb = !!verify_args.format;
	if (opt->require_pmu && (opt->mode == BUILD_OBJECTS ||
				 (opt->skip_steps & (NEEDS(STEP_IDX_config) |
						     NEEDS(STEP_IDX_build) |
						     NEEDS(STEP_IDX_selftests) |
						     NEEDS(STEP_IDX_boot)))))
		return command_usage_error(&command_verify, "%s",
					   "--require pmu needs the config, build, selftests and boot steps: not with --build objects or --skip of them");
	if (verify_args.env) {
		struct strvec names = STRVEC_INIT;
		int ret = names_from_env(&names);

		if (!ret)
			ret = verify_names(opt, names.nr,
					   (const char *const *)names.v);
		strvec_clear(&names);
		return ret;
	}
	return verify_names(opt, argc - 1, (const char *const *)argv + 1);
}

static int run_bundle(struct options *opt, int argc, char **argv)
{
	opt->bundle = 1;
	return run_verify(opt, argc, argv);
}

const struct command command_verify = {
	.name = "verify", .run = run_verify, .usage = usage_verify,
	.options = verify_options, .check = check_verify_options,
	.env = &verify_args.env, .flags = RUNS_TOOLS | TAKES_ARGS,
};

const struct command command_bundle = {
	.name = "bundle", .run = run_bundle, .usage = usage_bundle,
	.options = verify_options, .check = check_verify_options,
	.env = &verify_args.env, .flags = RUNS_TOOLS | TAKES_ARGS,
};
