// SPDX-License-Identifier: GPL-2.0
/*
 * kverify: keep one kernel patch series verified on every kernel in
 * kernels.list.  The exit status is an enum exit_code (exitcode.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "b4/b4.h"
#include "b4/regen.h"
#include "backport.h"
#include "bundle.h"
#include "debian/debpatches.h"
#include "debian/flavour.h"
#include "latency.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/lock.h"
#include "lib/parse-options.h"
#include "lib/run.h"
#include "lib/usage.h"
#include "matrix.h"
#include "sim.h"
#include "sweep.h"
#include "summary.h"
#include "test-hooks.h"
#include "verify.h"
#include "version.h"

static const char usage[] =
"usage: kverify [options] verify TARGET...\n"
"       kverify [options] verify --env\n"
"       kverify [options] list [--names]\n"
"       kverify [options] bundle TARGET...   (verify --bundle; make bundle)\n"
"       kverify backport --tree PATH --name X.Y\n"
"       kverify debian-patches --dest DIR [TARGET...]\n"
"       kverify sim --pristine DIR --patched DIR [--seed N] [--traces N] ...\n"
"       kverify latency [--lava] [TOLERANCE=]TRACE...   (docs/lab.md)\n"
"       kverify matrix [--format github|gitlab] [--shard I/N]\n"
"       kverify sweep [--only linux-source-X.Y=VERSION[@SUITE]] [--md FILE]\n"
"                     [--json FILE] [--members] [--env]   (make sweep)\n"
"       kverify matrix --sweep [--format github|gitlab]\n"
"       kverify send|am|trailers|range-diff|reroll|regenerate|edit|series --env\n"
"\n"
"TARGET is a name from kernels.list or a unique prefix of one.  With --env\n"
"the targets come from $KVERIFY_TARGETS, and $KVERIFY_BUILD, $KVERIFY_SKIP,\n"
"$KVERIFY_CONFIG and $KVERIFY_BOOT stand for the options (how make passes\n"
"them).\n"
"\n"
"  --list FILE          the target list (default kernels.list)\n"
"  --results DIR        where reports go (default results)\n"
"  --cache DIR          sources, trees and builds (default $KVERIFY_CACHE,\n"
"                       else $XDG_CACHE_HOME/kverify if it is absolute,\n"
"                       else ~/.cache/kverify)\n"
"  --sources DIR        what is fetched: sources, Debian's packages, the apt\n"
"                       state and toolchains, which several caches may share\n"
"                       (default $KVERIFY_SOURCES, else the cache)\n"
"  --build MODE         kernel (bzImage, default) or objects (arch/x86/kvm/)\n"
"  --config FRAGMENT    config fragment instead of the target's\n"
"  --boot MODE          auto (default), distro or own.  distro: Debian's\n"
"                       own kernel image of a deb: source's version, the\n"
"                       patched KVM modules built against its headers, and\n"
"                       the kabi step.  own: our allnoconfig bzImage.  auto:\n"
"                       distro for deb: sources when Debian's compiler is\n"
"                       installed and no --config, --build objects or\n"
"                       --bundle asks for our own kernel; else own\n"
"  --skip STEP[,STEP]   steps not to run\n"
"  -j N                 parallel jobs (default: make's jobserver, or nproc)\n"
"  --no-wait            exit instead of waiting for another run's lock\n"
"  --bundle             also write results/<target>/bundle/ for labs\n"
"  --artifacts URL      the bundle's LAVA jobs fetch its files from URL\n"
"                       (http, https or file; default: the bundle's own\n"
"                       directory as file://; also $KVERIFY_ARTIFACTS)\n"
"  --format kcidb       verify: also write results/<target>/kcidb.json\n"
"                       (also $KVERIFY_FORMAT=kcidb, make's FORMAT=kcidb)\n"
"  --require pmu        a guest PMU test that SKIPs (no PMU, no forced\n"
"                       emulation) FAILs the boot step: for a lab with PMU\n"
"                       hardware (also $KVERIFY_REQUIRE=pmu)\n"
"  --flavours LIST      Debian's flavours to build and kABI-check the\n"
"                       modules against, with BOOT=distro: amd64 (the\n"
"                       default) and any of cloud-amd64, rt-amd64, e.g.\n"
"                       amd64,rt-amd64 (also $KVERIFY_FLAVOURS)\n"
"  -k, --keep-going     after a failure, still run every step that does not\n"
"                       depend on the failed one (also $KVERIFY_KEEP_GOING=1)\n"
"  -q, --quiet          no step or progress lines, only the report\n"
"  --version            kverify's version\n"
"  -h, --help           this text; 'kverify COMMAND --help' for one command\n"
"\n"
"Exit status: 0 pass; 1 the patch failed a step; 2 bad usage or input\n"
"(nothing run); 3 a tool, the source or the machine failed (an ERROR, not\n"
"the patch); 130 interrupted.\n";

/* "kverify COMMAND --help": that command's usage alone. */
static const char usage_bundle[] =
"usage: kverify [options] bundle TARGET...\n"
"       kverify [options] bundle --env\n"
"\n"
"kverify verify --bundle: run the pipeline for each TARGET and write\n"
"results/<target>/bundle/ (our own kernel, the initramfs with the runner\n"
"and the tests, LAVA jobs) for a lab with PMU hardware (docs/lab.md).\n"
"Takes verify's options ('kverify verify --help'), and:\n"
"\n"
"  --artifacts URL      the bundle's LAVA jobs fetch its files from URL\n"
"                       (http, https or file; default: the bundle's own\n"
"                       directory as file://; also $KVERIFY_ARTIFACTS)\n";

static const char usage_verify[] =
"usage: kverify [options] verify TARGET...\n"
"       kverify [options] verify --env\n"
"\n"
"Run the pipeline (fetch, tree, apply, sim, checkpatch, cocci, config,\n"
"build, kabi, selftests, boot) for each TARGET, a name of kernels.list or\n"
"a unique prefix of one.  Writes results/<target>/report.json, junit.xml and\n"
"logs/.  Exit 0 when every step passed, was skipped or n/a; 1 on a FAIL;\n"
"3 on an ERROR (a tool, the source or the machine, not the patch) with no\n"
"FAIL; 2 on bad usage or input; 130 when interrupted.\n"
"\n"
"  --list FILE, --results DIR, --cache DIR, --build kernel|objects,\n"
"  --boot auto|distro|own, --config FRAGMENT, --skip STEP[,STEP], -j N,\n"
"  --no-wait, --bundle, -k/--keep-going, -q/--quiet: see 'kverify --help'.\n"
"  --format kcidb       also write results/<target>/kcidb.json, the run as\n"
"                       KernelCI KCIDB I/O schema v4.3 data (origin kverify)\n"
"  --require pmu        a guest PMU test that SKIPs FAILs the boot step\n"
"  --flavours LIST      amd64 and more of Debian's flavours (cloud-amd64,\n"
"                       rt-amd64): config, build, kabi and boot rows each\n"
"  --env                targets from $KVERIFY_TARGETS, options from\n"
"                       $KVERIFY_BUILD, $KVERIFY_SKIP, $KVERIFY_CONFIG,\n"
"                       $KVERIFY_BOOT, $KVERIFY_REQUIRE,\n"
"                       $KVERIFY_FLAVOURS, $KVERIFY_FORMAT\n";

static const char usage_summary[] =
"usage: kverify [--results DIR] summary\n"
"\n"
"Write DIR/summary.md and DIR/index.html (default results/) from the\n"
"reports there (DIR/<target>/report.json): targets by steps with status\n"
"and time, each reason cut to 80 characters with a link to its step's log,\n"
"and the sim's figures as an SVG plot.  make verify and verify-all run it\n"
"after their targets.  Exit 2 when a report cannot be read (the others\n"
"are still shown).\n";

static const char usage_list[] =
"usage: kverify [--list FILE] list [--names]\n"
"\n"
"Print the targets of kernels.list: name, source and series (or the n/a\n"
"reason); with --names only the names, one a line.\n";

static const char usage_matrix[] =
"usage: kverify [--list FILE] matrix [--format github|gitlab] [--shard I/N]\n"
"                                    [--costs FILE]\n"
"\n"
"Fan the applicable targets out over CI: --format github prints JSON for\n"
"strategy.matrix (kernel, image, timeout_minutes, cache_key), --format\n"
"gitlab a child pipeline: one job per target calling build/kverify (its\n"
"exit status kept: 1 FAIL, 3 ERROR, retried), with image, tags, timeout,\n"
"a cache of $KVERIFY_CACHE per target and its JUnit report; no --format\n"
"the names, one a line.  --shard I/N keeps the I-th of N shards, balanced\n"
"on each target's cold cost from the committed table .ci/cold-seconds\n"
"(--costs FILE; never a local run's results: the same commit gives the\n"
"same CI), else by name.  No shard is ever empty: with\n"
"fewer targets than N, there are as many shards as targets (a note says so\n"
"on stderr) and a shard I beyond them is refused with exit 2.\n"
"$KVERIFY_CI_IMAGE (default debian:bookworm), $KVERIFY_CI_TAGS (runner tags\n"
"a,b; default kvm), $KVERIFY_CI_TIMEOUT (minutes; default the table's\n"
"margin times the cold cost, at least 30, 180 when unknown) shape the jobs.\n"
"  --sweep              one job per Debian linux-source version instead\n"
"                       (see 'kverify sweep --help'); no --shard\n";

static const char usage_sweep[] =
"usage: kverify sweep [--only linux-source-X.Y=VERSION[@SUITE]] [--md FILE]\n"
"                     [--json FILE] [--members] [--env]   (make sweep)\n"
"\n"
"Every linux-source-X.Y version of the Debian suites the archive offers,\n"
"through fetch, tree, apply, sim, checkpatch and cocci with SERIES auto,\n"
"unpacking only what those steps read (--members prints it).  A version\n"
"checked before with the same series/, backports/, cocci/ and\n"
"checkpatch.allow is not checked again.  The table goes to stdout and\n"
"--md (docs/sweep.md), the rows to --json (results/sweep/sweep.json).\n"
"Exit 1 when a version fails (it is the first line), 2 on bad input, 3 when\n"
"the table cannot be written.  -j N, --no-wait and -q/--quiet are as for\n"
"verify.\n";

static const char usage_backport[] =
"usage: kverify backport --tree PATH --name X.Y\n"
"       kverify backport --env   ($KVERIFY_BACKPORT_TREE, $KVERIFY_BACKPORT_NAME)\n"
"\n"
"Run the semantic patch on copies of the tree's arch/x86/kvm/ files and\n"
"write backports/X.Y/ with the series it generates.\n";

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

static const char usage_send[] =
"usage: kverify send --env   (make send [KERNEL=] [TO=] [CC=] [SEND=1\n"
"                            [REFLECT=1]] [RESEND=1])\n"
"\n"
"series/ through b4 send -o into <results>/send/vN/, checked against the\n"
"verify-all reports (the gate), signed with your git identity.\n"
"\n"
"  KERNEL=NAME   the target whose tree b4 and get_maintainer.pl read\n"
"  TO=, CC=      the recipients, instead of get_maintainer.pl's\n"
"  SEND=1        mail them (b4 send); what went out is compared with what\n"
"                was checked, and series/message-id records the posting\n"
"  REFLECT=1     with SEND=1: b4 send --reflect, to yourself only\n"
"  RESEND=1      send a revision that was posted already again\n"
"(docs/workflow.md)\n";

static const char usage_am[] =
"usage: kverify am --env   (make am MBOX=<file> | MSGID=<id>)\n"
"\n"
"A posted revision into series/, the old one into series/old/vN/.\n";

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

/* After an error: a blank line and the global usage, exit 2. */
static int usage_tail(void)
{
	fputs("\n", stderr);
	fputs(usage, stderr);
	return EXIT_USAGE;
}

static int usage_error(const char *fmt, const char *arg)
{
	error(fmt, arg);
	return usage_tail();
}

static char *as_written(const char *option, const char *val,
			const char **name);

/*
 * A bad value of an option or make variable: "@what: @why", @what as the
 * user wrote it (as_written()), one line; EXIT_USAGE.
 */
static int bad_value(const char *option, const char *val, const char *why)
{
	char *w = as_written(option, val, NULL);

	error("%s: %s", w, why);
	free(w);
	return EXIT_USAGE;
}

static int check_skip(const char *skip)
{
	char *copy = xstrdup(skip), *s, *save = NULL;
	int i, bad = 0;

	for (s = strtok_r(copy, ",", &save); s && !bad;
	     s = strtok_r(NULL, ",", &save)) {
		struct strbuf why = STRBUF_INIT;

		if (verify_step_index(s) >= 0)
			continue;
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

/* Whether @skip names a step the guest's tests need. */
static int skips_a_test_step(const char *skip)
{
	char *copy = xstrdup(skip), *s, *save = NULL;
	int found = 0;

	for (s = strtok_r(copy, ",", &save); s && !found;
	     s = strtok_r(NULL, ",", &save))
		found = !strcmp(s, "build") || !strcmp(s, "selftests") ||
			!strcmp(s, "boot") || !strcmp(s, "config");
	free(copy);
	return found;
}

/*
 * Each command's own options, as git's builtins keep theirs: a table of
 * them beside the command (below), their values here; the ones that go
 * into struct options are the main()'s.
 */
static struct verify_args {
	int env;
	const char *format;	/* kcidb */
	const char *require, *artifacts, *flavours;
} verify_args;
static struct { int names; } list_args;
static struct { int env; } b4_args;

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

static struct { int env; struct backport_args bp; } backport_args;
static struct { int env; const char *dest; } deb_args;
static struct { int env; struct sweep_args a; } sweep_args = {
	.a = { .md = "docs/sweep.md", .json = "results/sweep/sweep.json" },
};
static struct { const char *format, *shard, *costs; int sweep; } matrix_args;

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

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/* $@name as a number from @min to @max into @n; unset leaves @n. */
static int env_number(const char *name, long min, long max, long *n)
{
	const char *v = env(name);
	char *end;
	long x;

	if (!v)
		return 0;
	errno = 0;
	x = strtol(v, &end, 0);
	if (errno || *end || x < min || x > max) {
		error("%s is a number from %ld to %ld, not '%s'", name, min, max, v);
		return EXIT_USAGE;
	}
	*n = x;
	return 0;
}

/*
 * make's switch @make (KEEP_GOING=1), the Makefile's $KVERIFY_@make: 1 or
 * 0 into *@on, unset or empty leaves it; another value is one line and
 * EXIT_USAGE, never taken as 0.
 */
static int env_switch(const char *var, const char *make, int *on)
{
	const char *v = env(var);

	if (!v)
		return 0;
	if (strcmp(v, "0") && strcmp(v, "1")) {
		error("%s=%s: %s is 0 or 1", make, v, make);
		return EXIT_USAGE;
	}
	*on = *v == '1';
	return 0;
}

/*
 * The environment every command takes, whether or not --env: make's
 * KEEP_GOING=, KCC=, KHOSTCC=, CCACHE=, VERIFY_CACHE=, FORCE=, and
 * $KVERIFY_BUSYBOX, the mirrors, the sim step's knobs and the test hooks
 * (tests/README).
 * The only place that reads them.
 */
static int options_from_make(struct options *opt)
{
	static struct test_hooks hooks;
	const char *mf = env("MAKEFLAGS");
	const char *cc = env("KVERIFY_CCACHE");
	long boot_timeout = 0, progress = 0;

	if (env_switch("KVERIFY_KEEP_GOING", "KEEP_GOING", &opt->keep_going) ||
	    env_switch("KVERIFY_VERIFY_CACHE", "VERIFY_CACHE",
		       &opt->verify_cache) ||
	    env_switch("KVERIFY_FORCE", "FORCE", &opt->force))
		return EXIT_USAGE;
	opt->kernel_cc = env("KVERIFY_KERNEL_CC");
	opt->kernel_hostcc = env("KVERIFY_KERNEL_HOSTCC");
	if (cc && strcmp(cc, "") && strcmp(cc, "0") && strcmp(cc, "1")) {
		error("CCACHE=%s: CCACHE is 0 or 1", cc);
		return EXIT_USAGE;
	}
	opt->ccache = cc && *cc ? *cc == '1' : -1;
	opt->busybox = env("KVERIFY_BUSYBOX");
	opt->makeflags = mf;
	opt->make_jobserver = mf && (strstr(mf, "--jobserver-auth=") ||
				     strstr(mf, "--jobserver-fds="));
	opt->debian_mirror = env("KVERIFY_DEBIAN_MIRROR");
	opt->security_mirror = env("KVERIFY_SECURITY_MIRROR");
	opt->sim_seed = hooks.apt_max_age = -1;
	opt->sim_debug = !!env("KVERIFY_SIM_DEBUG");
	hooks.sweep_list = env("KVERIFY_TEST_SWEEP_LIST");
	opt->ci_image = env("KVERIFY_CI_IMAGE");
	opt->ci_tags = env("KVERIFY_CI_TAGS");
	if (env_number("KVERIFY_SIM_SEED", 0, 1L << 62, &opt->sim_seed) ||
	    env_number("KVERIFY_SIM_TRACES", 1, 100000000, &opt->sim_traces) ||
	    env_number("KVERIFY_SIM_SECONDS", 1, 3600, &opt->sim_seconds) ||
	    env_number("KVERIFY_CI_TIMEOUT", 1, 10080, &opt->ci_timeout) ||
	    env_number("KVERIFY_TEST_BOOT_TIMEOUT", 1, 86400, &boot_timeout) ||
	    env_number("KVERIFY_TEST_PROGRESS_SECONDS", 1, 3600, &progress) ||
	    env_number("KVERIFY_TEST_APT_MAX_AGE", 0, 1L << 40,
		       &hooks.apt_max_age))
		return EXIT_USAGE;
	hooks.boot_timeout = boot_timeout;
	hooks.progress_seconds = progress;
	opt->test = &hooks;
	return 0;
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

	if (given || env("KVERIFY_CACHE"))
		return abspath(given ? given : env("KVERIFY_CACHE"));
	if (xdg && xdg[0] == '/')
		return xstrfmt("%s/kverify", xdg);
	dir = xstrfmt("%s/.cache/kverify", home ? home : "/tmp");
	abs = abspath(dir);
	free(dir);
	return abs;
}

/* The options, each into the_options or its command's values above. */
static struct options the_options = {
	.list = "kernels.list", .results = "results", .mode = BUILD_KERNEL,
};

/* --build MODE, --boot MODE: opt->defval says which. */
static int parse_mode(const struct option *opt, const char *arg)
{
	return set_mode(opt->value, opt->defval, arg);
}

static int parse_jobs(const struct option *opt, const char *arg)
{
	struct options *o = opt->value;
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > JOBS_MAX)
		return error("-j wants a number from 1 to "
			     __stringify(JOBS_MAX) ", not '%s'", arg);
	o->jobs = n;
	return 0;
}

static int print_version(const struct option *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	printf("kverify %s\n", kverify_version);
	exit(0);
}

#define OPT_PATH(l, v, a) OPT_STRING_F(0, l, v, a, NULL, PARSE_OPT_NONEMPTY)
#define OPT_JOBS() \
	OPT_CALLBACK('j', NULL, &the_options, "N", NULL, parse_jobs)
#define OPT_ENV(v) OPT_BOOL(0, "env", v, NULL)

/* What every command takes. */
static const struct option common_options[] = {
	OPT_PATH("list", &the_options.list, "FILE"),
	OPT_PATH("results", &the_options.results, "DIR"),
	OPT_PATH("cache", &the_options.cache, "DIR"),
	OPT_PATH("sources", &the_options.sources, "DIR"),
	OPT_CALLBACK_F(0, "version", NULL, NULL, NULL, PARSE_OPT_NOARG,
		       print_version),
	OPT_END()
};

static const struct option verify_options[] = {
	{ .type = OPTION_CALLBACK, .long_name = "build",
	  .value = &the_options, .argh = "MODE", .callback = parse_mode,
	  .defval = MODE_BUILD },
	{ .type = OPTION_CALLBACK, .long_name = "boot",
	  .value = &the_options, .argh = "MODE", .callback = parse_mode,
	  .defval = MODE_BOOT },
	OPT_PATH("config", &the_options.config, "FRAGMENT"),
	OPT_PATH("skip", &the_options.skip, "STEP[,STEP]"),
	OPT_JOBS(),
	OPT_BOOL(0, "no-wait", &the_options.no_wait, NULL),
	OPT_BOOL(0, "bundle", &the_options.bundle, NULL),
	OPT_PATH("format", &verify_args.format, "kcidb"),
	OPT_BOOL('k', "keep-going", &the_options.keep_going, NULL),
	OPT_BOOL('q', "quiet", &the_options.quiet, NULL),
	OPT_ENV(&verify_args.env),
	OPT_PATH("require", &verify_args.require, "pmu"),
	OPT_PATH("artifacts", &verify_args.artifacts, "URL"),
	OPT_PATH("flavours", &verify_args.flavours, "LIST"),
	OPT_END()
};

static const struct option list_options[] = {
	OPT_BOOL(0, "names", &list_args.names, NULL),
	OPT_END()
};

static const struct option matrix_options[] = {
	OPT_PATH("format", &matrix_args.format, "github|gitlab"),
	OPT_PATH("shard", &matrix_args.shard, "I/N"),
	OPT_PATH("costs", &matrix_args.costs, "FILE"),
	OPT_BOOL(0, "sweep", &matrix_args.sweep, NULL),
	OPT_END()
};

static const struct option sweep_options[] = {
	OPT_PATH("only", &sweep_args.a.only, "linux-source-X.Y=VERSION"),
	OPT_PATH("md", &sweep_args.a.md, "FILE"),
	OPT_PATH("json", &sweep_args.a.json, "FILE"),
	OPT_BOOL(0, "members", &sweep_args.a.print_members, NULL),
	OPT_ENV(&sweep_args.env),
	OPT_JOBS(),
	OPT_BOOL(0, "no-wait", &the_options.no_wait, NULL),
	OPT_BOOL('q', "quiet", &the_options.quiet, NULL),
	OPT_END()
};

static const struct option backport_options[] = {
	OPT_PATH("tree", &backport_args.bp.tree, "PATH"),
	OPT_PATH("name", &backport_args.bp.name, "X.Y"),
	OPT_ENV(&backport_args.env),
	OPT_END()
};

static const struct option debian_patches_options[] = {
	OPT_PATH("dest", &deb_args.dest, "DIR"),
	OPT_ENV(&deb_args.env),
	OPT_END()
};

/* send, am, trailers, ... and regenerate: make's values alone. */
static const struct option b4_options[] = {
	OPT_ENV(&b4_args.env),
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
	return opt->skip ? check_skip(opt->skip) : 0;
}

static int verify_env(const struct options *opt);
static int targets_from_make;	/* make's KERNEL= named them */

/*
 * targets_find()'s error on stderr; for a name no target has, how to add
 * one, naming it as the user wrote it (KERNEL=, or the argument).
 */
static void no_such_target(const char *name, const struct strbuf *err)
{
	const char *n = plain_name(name) ? name : "<name>";

	fputs(err->buf, stderr);
	if (!strstr(err->buf, ": unknown target '"))
		return;
	error("%s%s: to add a kernel, give it a line in kernels.list, e.g. '%s deb:linux-source-X.Y@SUITE auto' (auto: the nearest variant of series/ and backports/ that applies), and for a kernel none applies to, write its variant with 'make backport TREE=<its tree> NAME=%s' (docs/backports.md)",
	      targets_from_make ? "KERNEL=" : "", name, n, n);
}

static int load(const struct options *opt, struct target_list *list)
{
	struct strbuf err = STRBUF_INIT;
	int ret = targets_load(opt->list, list, &err);

	if (ret)
		fprintf(stderr, "%s", err.buf);
	strbuf_release(&err);
	return ret;
}

static int cmd_list(const struct options *opt)
{
	struct target_list list = { 0 };
	size_t i;

	if (load(opt, &list))
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

static int cmd_verify(const struct options *opt, int argc, char **argv)
{
	struct target_list list = { 0 };
	const struct target **todo;
	struct strbuf err = STRBUF_INIT;
	int i, ret = EXIT_PASS, r;

	if (verify_args.env)
		return verify_env(opt);
	if (!argc)
		return usage_error("%s", "verify needs at least one TARGET");
	if (load(opt, &list))
		return EXIT_USAGE;
	todo = xmalloc(argc * sizeof(*todo));
	for (i = 0; i < argc; i++) {
		todo[i] = targets_find(&list, argv[i], &err);
		if (!todo[i]) {
			no_such_target(argv[i], &err);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	run_install_signal_handlers();
	for (i = 0; i < argc && !run_interrupted(); i++) {
		r = verify_target(todo[i], opt);
		ret = exit_worse(ret, r);
	}
out:
	free(todo);
	strbuf_release(&err);
	targets_clear(&list);
	return ret;
}

/* Blank-separated names in $KVERIFY_TARGETS, as argv, without a shell. */
static int verify_env(const struct options *opt)
{
	const char *v = env("KVERIFY_TARGETS");
	struct strvec names = STRVEC_INIT;
	char *copy, *s, *save = NULL;
	int ret;

	if (!v)
		return usage_error("%s", "--env: KVERIFY_TARGETS (make's KERNEL=) is empty");
	copy = xstrdup(v);
	for (s = strtok_r(copy, " \t\n", &save); s;
	     s = strtok_r(NULL, " \t\n", &save))
		strvec_push(&names, s);
	free(copy);
	verify_args.env = 0;
	targets_from_make = 1;
	ret = cmd_verify(opt, names.nr, names.v);
	strvec_clear(&names);
	return ret;
}

/*
 * make send/am/trailers/range-diff: the series is based on KERNEL= (a
 * name or prefix), by default the last target that takes series/.
 */
static int cmd_b4_env(const struct options *opt, const struct b4_cmd *cmd)
{
	struct target_list list = { 0 };
	struct b4_args a = {
		.to = env("KVERIFY_TO"), .cc = env("KVERIFY_CC"),
		.mbox = env("KVERIFY_MBOX"), .msgid = env("KVERIFY_MSGID"),
		.from = env("KVERIFY_FROM"),
	};
	const struct target *t = NULL;
	struct strbuf err = STRBUF_INIT;
	char *results, *work;
	size_t i;
	int ret = EXIT_USAGE;

	if (env_switch("KVERIFY_SEND", "SEND", &a.send) ||
	    env_switch("KVERIFY_REFLECT", "REFLECT", &a.reflect) ||
	    env_switch("KVERIFY_RESEND", "RESEND", &a.resend))
		return EXIT_USAGE;
	if (load(opt, &list))
		return EXIT_USAGE;
	if (env("KVERIFY_TARGETS"))
		t = targets_find(&list, env("KVERIFY_TARGETS"), &err);
	else
		for (i = 0; i < list.nr; i++)
			if (list.v[i].series && !strcmp(list.v[i].series, "series"))
				t = &list.v[i];
	if (!t) {
		if (err.len) {
			targets_from_make = 1;
			no_such_target(env("KVERIFY_TARGETS"), &err);
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

static int run_summary(struct options *opt, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_summary(opt->results);
}

static int run_list(struct options *opt, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_list(opt);
}

#define CI_NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"

static int run_matrix(struct options *opt, int argc, char **argv)
{
	struct target_list list = { 0 };
	struct ci_jobs ci = { 0 };
	int ret;

	(void)argc;
	(void)argv;
	/* They go into YAML and JSON as they are: no quote, no space. */
	if (opt->ci_image && opt->ci_image[strspn(opt->ci_image, CI_NAME_CHARS ":@/")])
		return usage_error("KVERIFY_CI_IMAGE is an image name ([A-Za-z0-9._-:@/]), not '%s'",
				   opt->ci_image);
	if (opt->ci_tags && (opt->ci_tags[strspn(opt->ci_tags, CI_NAME_CHARS ",")] ||
			     strstr(opt->ci_tags, ",,") || *opt->ci_tags == ',' ||
			     opt->ci_tags[strlen(opt->ci_tags) - 1] == ','))
		return usage_error("KVERIFY_CI_TAGS is runner tags, TAG[,TAG] of [A-Za-z0-9._-], not '%s'",
				   opt->ci_tags);
	if (matrix_args.sweep) {
		if (matrix_args.shard)
			return usage_error("%s", "matrix --sweep has one job per version: no --shard");
		sweep_args.a.matrix = matrix_args.format ? matrix_args.format :
				      "github";
		return cmd_sweep(opt, &sweep_args.a);
	}
	if (load(opt, &list))
		return EXIT_USAGE;
	ci.image = opt->ci_image;
	ci.tags = opt->ci_tags;
	ci.timeout = opt->ci_timeout;
	ci.list = strcmp(opt->list, "kernels.list") ? opt->list : NULL;
	ci.costs = matrix_args.costs;
	ret = cmd_matrix(&list, matrix_args.format, matrix_args.shard, &ci);
	targets_clear(&list);
	return ret;
}

static int run_backport(struct options *opt, int argc, char **argv)
{
	struct backport_args *bp = &backport_args.bp;

	(void)argc;
	(void)argv;
	if (backport_args.env)
		bp->bug = env("KVERIFY_BUG_DEBIAN");
	bp->tmp = opt->tmp;
	return cmd_backport(bp);
}

static int run_debian_patches(struct options *opt, int argc, char **argv)
{
	struct target_list list = { 0 };
	const char *bug = NULL, *one[1];
	const char *const *names = (const char *const *)argv + 1;
	int nr = argc - 1, ret;

	if (deb_args.env) {
		bug = env("KVERIFY_BUG_DEBIAN");
		nr = 0;
		if (env("KVERIFY_TARGETS")) {	/* make's KERNEL=: one name */
			one[0] = env("KVERIFY_TARGETS");
			names = one;
			nr = 1;
		}
	}
	if (load(opt, &list))
		return EXIT_USAGE;
	ret = cmd_debian_patches(&list, deb_args.dest, bug, opt->tmp,
				 opt->results, names, nr);
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
	if (load(opt, &list))
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

static int run_sweep(struct options *opt, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_sweep(opt, &sweep_args.a);
}

static int run_latency(struct options *opt, int argc, char **argv)
{
	return cmd_latency(argc, argv, opt->results);
}

static int run_sim(struct options *opt, int argc, char **argv)
{
	return cmd_sim(argc, argv, opt);
}

static int run_verify(struct options *opt, int argc, char **argv)
{
	opt->kcidb = !!verify_args.format;
	if (opt->require_pmu && (opt->mode == BUILD_OBJECTS ||
				 (opt->skip && skips_a_test_step(opt->skip))))
		return usage_error("%s", "--require pmu needs the config, build, selftests and boot steps: not with --build objects or --skip of them");
	return cmd_verify(opt, argc - 1, argv + 1);
}

static int run_bundle(struct options *opt, int argc, char **argv)
{
	opt->bundle = 1;
	return run_verify(opt, argc, argv);
}

/*
 * The commands: what runs each, its --help, its own options (besides
 * common_options[]), and whether it runs tools, which then get a $TMPDIR
 * in the cache.  sim and latency parse their own options and print their
 * own --help.
 */
enum command_flags {
	RUNS_TOOLS = 1 << 0,
	OWN_OPTIONS = 1 << 1,	/* kverify sim|latency ... alone */
	TAKES_ARGS = 1 << 2,	/* names after its options: targets, packages */
};

static const struct command {
	const char *name;
	int (*run)(struct options *opt, int argc, char **argv);
	const struct b4_cmd *b4;	/* or this b4 workflow (b4.h) */
	const char *usage;
	const struct option *options;
	int (*check)(struct options *opt);	/* after the options */
	int *env;	/* its --env: make_options[] are read */
	unsigned int flags;
} commands[] = {
	{ .name = "sim", .run = run_sim, .flags = RUNS_TOOLS | OWN_OPTIONS },
	{ .name = "latency", .run = run_latency, .flags = OWN_OPTIONS },
	{ .name = "verify", .run = run_verify, .usage = usage_verify,
	  .options = verify_options, .check = check_verify_options,
	  .env = &verify_args.env, .flags = RUNS_TOOLS | TAKES_ARGS },
	{ .name = "bundle", .run = run_bundle, .usage = usage_bundle,
	  .options = verify_options, .check = check_verify_options,
	  .env = &verify_args.env, .flags = RUNS_TOOLS | TAKES_ARGS },
	{ .name = "list", .run = run_list, .usage = usage_list,
	  .options = list_options },
	{ .name = "summary", .run = run_summary, .usage = usage_summary },
	{ .name = "matrix", .run = run_matrix, .usage = usage_matrix,
	  .options = matrix_options, .flags = RUNS_TOOLS },
	{ .name = "sweep", .run = run_sweep, .usage = usage_sweep,
	  .options = sweep_options, .env = &sweep_args.env,
	  .flags = RUNS_TOOLS },
	{ .name = "backport", .run = run_backport, .usage = usage_backport,
	  .options = backport_options, .env = &backport_args.env,
	  .flags = RUNS_TOOLS },
	{ .name = "debian-patches", .run = run_debian_patches,
	  .usage = usage_debian_patches, .options = debian_patches_options,
	  .env = &deb_args.env, .flags = RUNS_TOOLS | TAKES_ARGS },
	{ .name = "send", .b4 = &b4_send, .usage = usage_send,
	  .options = b4_options, .env = &b4_args.env, .flags = RUNS_TOOLS },
	{ .name = "am", .b4 = &b4_am, .usage = usage_am,
	  .options = b4_options, .env = &b4_args.env, .flags = RUNS_TOOLS },
	{ .name = "trailers", .b4 = &b4_trailers, .usage = usage_trailers,
	  .options = b4_options, .env = &b4_args.env, .flags = RUNS_TOOLS },
	{ .name = "range-diff", .b4 = &b4_range_diff,
	  .usage = usage_range_diff, .options = b4_options,
	  .env = &b4_args.env, .flags = RUNS_TOOLS },
	{ .name = "reroll", .b4 = &b4_reroll, .usage = usage_reroll,
	  .options = b4_options, .env = &b4_args.env, .flags = RUNS_TOOLS },
	{ .name = "edit", .b4 = &b4_edit, .usage = usage_edit,
	  .options = b4_options, .env = &b4_args.env, .flags = RUNS_TOOLS },
	{ .name = "series", .b4 = &b4_series, .usage = usage_series,
	  .options = b4_options, .env = &b4_args.env, .flags = RUNS_TOOLS },
	{ .name = "regenerate", .run = run_regenerate,
	  .usage = usage_regenerate, .options = b4_options,
	  .env = &b4_args.env, .flags = RUNS_TOOLS },
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
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
 * command's, refused with "@c takes no --x" (@c NULL: taken, to find the
 * command among them); free() it.
 */
static struct option *command_options(const struct command *c)
{
	static const struct option none[] = { OPT_END() };
	struct option *all = parse_options_concat(common_options,
						  c && c->options ?
						  c->options : none);
	size_t i, n = parse_options_count(all);
	const struct option *o;

	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		for (o = commands[i].options; o && o->type != OPTION_END; o++) {
			if (has_option(all, o))
				continue;
			all = xrealloc(all, (n + 2) * sizeof(*all));
			all[n] = *o;
			if (c) {
				all[n].type = OPTION_CALLBACK;
				all[n].flags = o->type == OPTION_BOOL ||
					       (o->flags & PARSE_OPT_NOARG) ?
					       PARSE_OPT_NOARG : 0;
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
	if (opt->sources || env("KVERIFY_SOURCES"))
		sources = abspath(opt->sources ? opt->sources :
				  env("KVERIFY_SOURCES"));
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
	ret = cmd->b4 ? cmd_b4_env(opt, cmd->b4) : cmd->run(opt, argc, argv);
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
	if (n == PARSE_OPT_HELP)
		return EXIT_PASS;
	if (n < 0)
		return EXIT_USAGE;
	if (name)
		return usage_error("unknown command '%s'", name);
	return usage_error("%s", "no command: verify or list");
}

/*
 * make's variables (the Makefile exports them as $KVERIFY_*) as the
 * options they stand for, read with --env: "make verify SKIP=x" is
 * "kverify verify --skip x", the same code and the same errors.  The
 * variables a command reads besides (KVERIFY_TARGETS, make's KERNEL=, and
 * b4's) are not options.
 */
static const struct make_option {
	const char *command, *var, *option, *make;
} make_options[] = {
	{ "verify", "KVERIFY_BUILD", "--build", "BUILD" },
	{ "verify", "KVERIFY_SKIP", "--skip", "SKIP" },
	{ "verify", "KVERIFY_CONFIG", "--config", "CONFIG" },
	{ "verify", "KVERIFY_BOOT", "--boot", "BOOT" },
	{ "verify", "KVERIFY_ARTIFACTS", "--artifacts", "ARTIFACTS" },
	{ "verify", "KVERIFY_REQUIRE", "--require", "REQUIRE" },
	{ "verify", "KVERIFY_FLAVOURS", "--flavours", "FLAVOURS" },
	{ "verify", "KVERIFY_FORMAT", "--format", "FORMAT" },
	{ "backport", "KVERIFY_BACKPORT_TREE", "--tree", "TREE" },
	{ "backport", "KVERIFY_BACKPORT_NAME", "--name", "NAME" },
	{ "debian-patches", "KVERIFY_DEST", "--dest", "DEST" },
	{ "sweep", "KVERIFY_SWEEP_ONLY", "--only", "ONLY" },
};

/*
 * The value @val of @option as the user wrote it: "SKIP=bot" when it came
 * from make (options_from_env() passes $KVERIFY_SKIP's own string), else
 * "--skip bot"; *@name, unless NULL, the variable or the option alone.
 */
static char *as_written(const char *option, const char *val,
			const char **name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(make_options); i++) {
		const struct make_option *m = &make_options[i];

		if (strcmp(m->option, option) || env(m->var) != val)
			continue;
		if (name)
			*name = m->make;
		return xstrfmt("%s=%s", m->make, val);
	}
	if (name)
		*name = option;
	return xstrfmt("%s %s", option, val);
}

/*
 * @cmd's make_options[] that are set, parsed as its command line is; the
 * values stay the environment's own strings.
 */
static int options_from_env(const struct command *cmd,
			    const struct option *options)
{
	const char *usagestr[2] = { cmd->usage, NULL };
	const char *argv[2 * ARRAY_SIZE(make_options) + 2] = { cmd->name };
	int argc = 1;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(make_options); i++) {
		const struct make_option *m = &make_options[i];

		if (strcmp(m->command, cmd->name) || !env(m->var))
			continue;
		argv[argc++] = m->option;
		argv[argc++] = env(m->var);
	}
	return parse_options(argc, argv, options, usagestr,
			     PARSE_OPT_NO_USAGE) ? EXIT_USAGE : 0;
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

	if (options_from_make(opt))
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
