/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_OPTIONS_H
#define KVERIFY_OPTIONS_H

#include <string.h>

struct strvec;

/*
 * The test hooks: values a test gives the driver, through
 * $KVERIFY_TEST_*, so that it can stand in for what it cannot have here
 * (tests/README, "Test hooks").  tools/kverify.c reads them once, and
 * struct options points to them (opt->test, NULL: none); a field 0 or
 * NULL is unset.  Nothing but the test suite sets them.
 */
struct test_hooks {
	/* KVERIFY_TEST_BOOT_TIMEOUT: seconds QEMU may run (step_boot.c) */
	long boot_timeout;
	/* KVERIFY_TEST_PROGRESS_SECONDS: between progress lines (verify.c) */
	long progress_seconds;
	/* KVERIFY_TEST_APT_MAX_AGE: the apt lists' age in seconds; -1 unset */
	long apt_max_age;
	/* KVERIFY_TEST_SWEEP_LIST: the archive's versions from a file */
	const char *sweep_list;
};

enum build_mode { BUILD_KERNEL, BUILD_OBJECTS };

/*
 * What boots: our own build, or Debian's image with the patched modules.
 * BOOT_AUTO (the default) is Debian's for a deb: source whose compiler is
 * installed here, else our own, saying why.
 */
enum boot_mode { BOOT_AUTO, BOOT_OWN, BOOT_DISTRO };

/* The command line and make's variables (kverify.c), read-only after. */
struct options {
	const char *list;	/* kernels.list */
	const char *results;	/* results directory */
	const char *cache;	/* cache directory, absolute */
	/*
	 * What is fetched (sources, Debian's packages, the apt state, the
	 * toolchains): the cache, or a store several caches share; absolute
	 */
	const char *sources;
	const char *tmp;	/* $TMPDIR: in <cache>/tmp, or NULL */
	const char *skip;	/* --skip as given: comma-separated steps */
	unsigned int skip_steps;	/* the steps it names, as NEEDS() bits */
	const char *config;	/* "distro", or a fragment overriding the list */
	enum build_mode mode;
	enum boot_mode boot;
	int jobs;		/* 0: nproc, unless make's jobserver is ours */
	int make_jobserver;	/* make -jN shares its jobs ($MAKEFLAGS) */
	const char *makeflags;	/* $MAKEFLAGS, for the jobserver it names */
	int no_wait;
	int bundle;		/* write results/<target>/bundle/ */
	const char *artifacts;	/* --artifacts (ARTIFACTS=): the bundle's URL */
	int verbose;
	int keep_going;		/* run what does not depend on a failed step */
	int quiet;		/* no step or progress lines */
	int kcidb;		/* also write results/<target>/kcidb.json */
	int require_pmu;	/* --require pmu: a PMU test that SKIPs fails */
	/*
	 * --flavours (FLAVOURS=): Debian's flavours whose headers the KVM
	 * modules are built against and kABI-checked, "amd64" first; NULL:
	 * amd64 alone.
	 */
	const char *flavours;
	/* make's KCC=, KHOSTCC=, CCACHE=1, VERIFY_CACHE=1, FORCE=1 */
	const char *kernel_cc;	/* the kernel's compiler (distcc, icecream) */
	const char *kernel_hostcc;
	int ccache;		/* ccache in front of gcc: -1 where installed */
	int verify_cache;	/* hash every file of the cached source */
	int force;		/* FORCE=1: run the steps that keep a PASS */
	const char *busybox;	/* the guest's static busybox ($KVERIFY_BUSYBOX) */
	/* $KVERIFY_DEBIAN_MIRROR, $KVERIFY_SECURITY_MIRROR: not apt's sources' */
	const char *debian_mirror, *security_mirror;
	/* $KVERIFY_SIM_SEED (-1: 1), _TRACES, _SECONDS (0: the step's), _DEBUG */
	long sim_seed, sim_traces, sim_seconds;
	int sim_debug;
	/* kverify matrix's jobs: $KVERIFY_CI_IMAGE, _TAGS, _TIMEOUT (minutes) */
	const char *ci_image, *ci_tags;
	long ci_timeout;
	const struct test_hooks *test;	/* $KVERIFY_TEST_*, above */
	/* make sweep (tools/sweep.c): */
	const struct strvec *extract_only;	/* unpack only these paths */
};

#define JOBS_MAX 4096
#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)

/**
 * distro_config() - CONFIG=distro: Debian's own config, KVM objects only.
 * @opt: The options.
 *
 * Return: 1 when CONFIG=distro was asked for.
 */
static inline int distro_config(const struct options *opt)
{
	return opt->config && !strcmp(opt->config, "distro");
}

/**
 * sources_dir() - Where fetched things live.
 * @opt: The options.
 *
 * Return: opt->sources, or the cache itself.
 */
static inline const char *sources_dir(const struct options *opt)
{
	return opt->sources ? opt->sources : opt->cache;
}

#endif
