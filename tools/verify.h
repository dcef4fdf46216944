/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_VERIFY_H
#define KVERIFY_VERIFY_H

#include <time.h>

#include "ktap.h"
#include "run.h"
#include "strbuf.h"
#include "targets.h"

/* ERROR: the tool or the machine failed (disk, tool, interrupt), not the patch. */
enum step_status { STEP_PASS, STEP_FAIL, STEP_SKIP, STEP_NA, STEP_ERROR };

enum build_mode { BUILD_KERNEL, BUILD_OBJECTS };

struct verify_ctx;
struct step_result;
/*
 * What boots: our own build, or Debian's image with the patched modules.
 * BOOT_AUTO (the default) is Debian's for a deb: source whose compiler is
 * installed here, else our own, saying why.
 */
enum boot_mode { BOOT_AUTO, BOOT_OWN, BOOT_DISTRO };

struct options {
	const char *list;	/* kernels.list */
	const char *results;	/* results directory */
	const char *cache;	/* cache directory */
	const char *skip;	/* comma-separated steps to skip */
	const char *config;	/* "distro", or a fragment overriding the list */
	enum build_mode mode;
	enum boot_mode boot;
	int jobs;		/* 0: nproc, unless make's jobserver is ours */
	int no_wait;
	int bundle;		/* write results/<target>/bundle/ */
	int verbose;
	int keep_going;		/* run what does not depend on a failed step */
	int quiet;		/* no step or progress lines */
	int kcidb;		/* also write results/<target>/kcidb.json */
	/* make's KCC=, KHOSTCC=, CCACHE=1, VERIFY_CACHE=1 (options_from_make) */
	const char *kernel_cc;	/* the kernel's compiler (distcc, icecream) */
	const char *kernel_hostcc;
	int ccache;		/* ccache in front of gcc */
	int verify_cache;	/* hash every file of the cached source */
	const char *busybox;	/* the guest's static busybox ($KVERIFY_BUSYBOX) */
	/* make sweep (tools/sweep.c): */
	const struct strvec *extract_only;	/* unpack only these paths */
	void (*on_result)(const struct verify_ctx *ctx,
			  const struct step_result *res, int n, void *data);
	void *on_result_data;	/* on_result's; then no text report */
};

#define JOBS_MAX 4096
#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)

struct step_result {
	enum step_status status;
	struct strbuf reason;	/* one line */
	struct strbuf detail;	/* shown on failure: log tail, diff, ... */
	double seconds;
	char *log;
};

/* Everything one verify run of one target knows. */
struct verify_ctx {
	const struct target *t;
	const struct options *opt;
	char *repo;		/* this repository, absolute */
	char *cache;		/* cache root, absolute */
	char *src;		/* pristine tree */
	char *src_key;
	char *tree;		/* this run's tree: hard links to src */
	char *build;		/* O= directory */
	char *results;		/* results/<target> */
	char *series;		/* absolute series directory, or NULL */
	char *series_rel;	/* as kernels.list names it, or as probed */
	char *na_reason;	/* why the series does not apply, or NULL */
	struct strvec patches;	/* absolute patch paths, series order */
	char *log;		/* the running step's log */
	const struct step *step;

	char *selftest_arch;	/* "x86" or "x86_64" */
	struct strvec selftests;	/* built, absolute paths */
	struct strvec new_tests;	/* tests the series adds */
	char *accel;		/* how the guest booted */
	struct ktap_result tests;
	int kernel_built;
	char *sim_era;		/* what the sim step ran, or NULL */
	long sim_traces;
	unsigned long long sim_seed;
	struct strbuf sim_figures;	/* "T=0:1000000 T=1:500000 ..." */
	long ccache_hits, ccache_misses;	/* -1: no ccache */
	char *kernel_release;	/* uname -r of the booted kernel, or NULL */
	time_t started, finished;	/* wall clock of the run */

	/* BOOT=distro: Debian's built kernel of the source's version. */
	char *deb_version;	/* the source's version, from the fetch step */
	char *deb_abi;		/* 6.12.117+deb12 */
	char *deb_root;		/* the packages unpacked: usr/, lib/, boot/ */
	char *deb_image;	/* the image package's name */
	char *kbuild;		/* objtree: Debian's headers, our srctree */
	char *toolchain;	/* Debian's compiler's release, or NULL (host) */
	char *kernel;		/* the vmlinuz that boots, NULL: our bzImage */
	int boot_distro;	/* the mode this run resolved to */
	char *boot_why;		/* why BOOT=auto booted our own kernel */
	int deb_fetched;	/* downloaded by this run */
};

struct step {
	const char *name;
	enum step_status (*run)(struct verify_ctx *ctx, struct step_result *r);
	unsigned int timeout;	/* seconds, for each tool the step runs */
	int runs_when_na;	/* also for targets whose series is n/a */
	int independent;	/* its failure does not stop the later steps */
	unsigned int needs;	/* bit i: uses what verify_steps[i] made */
};

extern const struct step verify_steps[];
extern const int nr_verify_steps;

int verify_target(const struct target *t, const struct options *opt);
int write_bundle(const struct verify_ctx *ctx);
int checkpatch_file(const char *tree, const char *patch, const char *allow,
		    const char *log, struct strbuf *detail);
char *cache_dir(const struct options *opt);
int distro_config(const struct options *opt);
int distro_boot(const struct verify_ctx *ctx);
void boot_own_instead(struct verify_ctx *ctx, const char *why);
char *distro_config_path(const struct verify_ctx *ctx);
int load_series(struct verify_ctx *ctx, const char *rel, struct strbuf *err);
void note_enospc(struct step_result *r);
enum step_status probe_series(struct verify_ctx *ctx, struct step_result *r);
enum step_status refetch_source(struct verify_ctx *ctx, struct step_result *r);
int fetch_only(const struct target *t, const struct options *opt,
	       char **src, char **key);

/* Helpers for steps. */
int step_run(struct verify_ctx *ctx, struct step_result *r,
	     struct child *c);
void step_fail_tail(struct step_result *r, const char *log, int lines);
__printf(2, 3) char *cache_path(const struct verify_ctx *ctx, const char *fmt,
			       ...);
int make_args(const struct verify_ctx *ctx, struct child *c);
void make_jobs(const struct verify_ctx *ctx, struct child *c);
int new_warnings(struct verify_ctx *ctx, struct step_result *r);

/* The series and the tree made from it. */
void series_files(const struct verify_ctx *ctx, struct strvec *files,
		  int new_only);
const char *patch_name(const char *path);
int series_check_names(const char *patch, struct strbuf *err);
int series_check_tree(const struct verify_ctx *ctx, const char *root,
		      struct strbuf *err);
char *tree_stamp(const struct verify_ctx *ctx);
char *tree_stamp_path(const struct verify_ctx *ctx);
int tree_is_current(const struct verify_ctx *ctx);

/* The steps, one file each. */
enum step_status fetch_source(struct verify_ctx *ctx, struct step_result *r);
enum step_status prepare_tree(struct verify_ctx *ctx, struct step_result *r);
enum step_status apply_series(struct verify_ctx *ctx, struct step_result *r);
enum step_status run_checkpatch(struct verify_ctx *ctx,
				struct step_result *r);
enum step_status check_cocci(struct verify_ctx *ctx, struct step_result *r);
enum step_status configure_kernel(struct verify_ctx *ctx,
				  struct step_result *r);
enum step_status build_kernel(struct verify_ctx *ctx, struct step_result *r);
enum step_status build_selftests(struct verify_ctx *ctx,
				 struct step_result *r);
enum step_status boot_and_test(struct verify_ctx *ctx, struct step_result *r);
enum step_status run_sim(struct verify_ctx *ctx, struct step_result *r);

/* BOOT=distro: Debian's kernel, the patched modules, the kABI. */
enum step_status configure_debian(struct verify_ctx *ctx,
				  struct step_result *r);
enum step_status build_debian_modules(struct verify_ctx *ctx,
				      struct step_result *r);
enum step_status check_kabi(struct verify_ctx *ctx, struct step_result *r);
int debian_initramfs(struct verify_ctx *ctx, struct step_result *r,
		     const char *dir, struct strbuf *list);

/* Reports. */
void report_text(const struct verify_ctx *ctx,
		 const struct step_result *res, int n);
int report_json(const struct verify_ctx *ctx,
		const struct step_result *res, int n, struct strbuf *err);
int report_junit(const struct verify_ctx *ctx,
		 const struct step_result *res, int n, struct strbuf *err);
int report_kcidb(const struct verify_ctx *ctx,
		 const struct step_result *res, int n, struct strbuf *err);
const char *step_status_name(enum step_status s);

#endif
