/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_STEP_H
#define KVERIFY_STEP_H

/*
 * What a step of the pipeline is given and what it gives back.  The engine
 * (verify.c) passes every step the run's context read-only, and the one
 * structure below that is that step's own to write: a step's output is
 * declared here, next to the others, and nothing but that step writes it.
 * Which outputs a step reads is the `needs` column of the engine's table.
 */
#include <stdint.h>
#include <time.h>

#include "core/flavour.h"
#include "core/ktap.h"
#include "core/series.h"
#include "lib/run.h"
#include "lib/strbuf.h"
#include "options.h"
#include "result.h"
#include "sources/source.h"
#include "sources/targets.h"

/* fetch: the pristine source, and for SERIES auto the variant it needs. */
struct fetch_out {
	struct source source;	/* the pristine tree, never written */
	struct series probed;	/* SERIES auto: the variant that applies */
	int packages_fetched;	/* the kernel's prefetch fetched them */
};

/* sim: the tree's own vPMU code against a simulated perf PMU. */
struct sim_out {
	char *era;		/* what ran, or NULL */
	long traces;		/* ran: fewer than asked when time ran out */
	long traces_asked;	/* KVERIFY_SIM_TRACES, or SIM_TRACES */
	unsigned long long seed;
	struct strbuf figures;	/* "T=0:1000000 T=1:500000 ..." */
	struct strbuf reads;	/* perf_event_read_value() calls, the same */
};

struct kernel_ops;	/* kernel.h */

/* config: what boots, and where it is built. */
struct config_out {
	/* the kernel the later steps use: the engine's, or its fallback */
	const struct kernel_ops *kernel_ops;
	char *boot_why;		/* why BOOT=auto boots our own kernel after all */
	char *build;		/* O= directory, when not the one wanted */
	/* Debian's built kernel of the source's version: */
	char *deb_abi;		/* 6.12.117+deb12 */
	char *deb_release;	/* its flavour's uname -r: 6.12.117+deb12-amd64 */
	char *deb_root;		/* the packages unpacked: usr/, lib/, boot/ */
	char *deb_image;	/* the image package's name */
	char *kbuild;		/* objtree: Debian's headers, our srctree */
	char *toolchain;	/* Debian's compiler's release, or NULL (host) */
	char *kernel;		/* the vmlinuz that boots, NULL: our bzImage */
	int deb_fetched;	/* downloaded by this run */
};

/* build: the kernel or the modules. */
struct build_out {
	int kernel_built;
	long ccache_hits, ccache_misses;	/* -1: no ccache */
};

/* selftests: the static KVM selftests the guest runs. */
struct selftests_out {
	char *arch;		/* "x86" or "x86_64" */
	struct strvec bins;	/* built, absolute paths */
	struct strvec new_tests;	/* tests the series adds */
};

/* boot: the guest's run of the tests. */
enum accel {
	ACCEL_TCG,		/* QEMU's emulation */
	ACCEL_KVM,		/* the host's KVM, after a probe booted */
};

struct boot_out {
	enum accel kind;	/* the accelerator the guest booted with */
	char *accel;		/* it, and why: "tcg (no usable /dev/kvm)" */
	char *kernel_release;	/* uname -r of the booted kernel, or NULL */
	struct ktap_result tests;
};

/* One verify run of one target. */
struct verify_ctx {
	/* Set up by the engine before the first step. */
	const struct target *t;
	const struct options *opt;
	char *repo;		/* this repository, absolute */
	const char *cache;	/* cache root, absolute: opt->cache */
	char *results;		/* results/<target> */
	char *tree;		/* this run's tree: hard links to src */
	/*
	 * Debian's flavour the config, build, kabi and boot steps run for
	 * (amd64, rt-amd64), and where its modules build (M=): the tree
	 * for amd64, a copy of the tree's module directories for the others.
	 */
	const struct flavour *flavour;
	char *kvm_tree;
	char *build;		/* O= directory of the boot mode wanted */
	/* the kernel BOOT= and the options ask for (kernel.h) */
	const struct kernel_ops *kernel_ops;
	struct series listed;	/* kernels.list's series (not for auto) */
	time_t started, finished;	/* wall clock of the run */
	/*
	 * The run was interrupted: its reports go beside the last complete
	 * run's (report.interrupted.json), never over them.
	 */
	int interrupted;
	/* The running step's. */
	const char *log;
	unsigned int timeout;	/* seconds, for each tool it runs */

	/* What the steps made, each written by its step only. */
	struct fetch_out fetch;
	struct sim_out sim;
	struct config_out config;
	struct build_out built;
	struct selftests_out selftests;
	struct boot_out boot;
};

/* The series this run verifies: the listed one, or the probed variant. */
static inline const struct series *series_of(const struct verify_ctx *ctx)
{
	return ctx->t->auto_series ? &ctx->fetch.probed : &ctx->listed;
}

/* Where the kernel or the modules are built (config may fall back). */
static inline const char *build_dir(const struct verify_ctx *ctx)
{
	return ctx->config.build ? ctx->config.build : ctx->build;
}

/* The kernel that boots: the config step's, else the one wanted. */
static inline const struct kernel_ops *kernel_of(const struct verify_ctx *ctx)
{
	return ctx->config.kernel_ops ? ctx->config.kernel_ops :
	       ctx->kernel_ops;
}

char *distro_config_path(const struct verify_ctx *ctx);

/* amd64, the flavour of the pipeline's own rows; or --flavours' others. */
static inline int default_flavour(const struct verify_ctx *ctx)
{
	return ctx->flavour->pipeline;
}

/* Helpers for steps. */
/* @out added at the end of the step's @log (none: nothing); 0, or -1. */
int append_log(const char *log, const struct strbuf *out);
/*
 * @dir is this source's: emptied when the source it was made from (its
 * .kverify-source) is another, its files' mtimes being the tarball's.
 */
void claim_for_source(const struct verify_ctx *ctx, const char *dir);
/* @name is one of the steps --skip names. */
int step_skipped(const struct options *opt, const char *name);
int step_run(const struct verify_ctx *ctx, struct step_result *r,
	     struct child *c);
struct sandbox;
void step_sandbox_reads(const struct verify_ctx *ctx, struct sandbox *sb);
int step_run_sandboxed(const struct verify_ctx *ctx, struct step_result *r,
		       struct child *c, const char *const *rw);
int step_run_in_build(const struct verify_ctx *ctx, struct step_result *r,
		      struct child *c);
__printf(2, 3) char *cache_path(const struct verify_ctx *ctx, const char *fmt,
			       ...);
__printf(2, 3) char *sources_path(const struct verify_ctx *ctx,
				  const char *fmt, ...);
int make_args(const struct verify_ctx *ctx, struct child *c);
/* make_args() with @objtree as O= instead of the run's build directory. */
int make_args_in(const struct verify_ctx *ctx, const char *objtree,
		 struct child *c);
/* The cache keeps this many ccache stores, the newest (ccache_env()). */
#define CCACHE_STORES_KEPT 8
/* In <cache>/ccache/ once it holds a store per source and series. */
#define CCACHE_LAYOUT ".kverify-stores"
/* CCACHE_DIR= and the rest into @env: 1, or 0 (nothing) without a store. */
int ccache_env(const struct verify_ctx *ctx, struct strvec *env);
const char *ccache_dir(const struct child *c);
int ccache_counts(const struct verify_ctx *ctx, long *hits, long *misses);
void make_jobs(const struct verify_ctx *ctx, struct child *c);
int new_warnings(const struct verify_ctx *ctx, struct step_result *r);
uint64_t hash_patched_mtimes(const struct verify_ctx *ctx, uint64_t h);
/* @path's inode, size and mtime (or that it is not there) into @h. */
uint64_t hash_stat(uint64_t h, const char *path);
/*
 * What a make of the tree was made from: the tree, the .config, @c's
 * command without its -j, its environment, the compilers' binaries, and
 * @output as that make left it.  While it is unchanged, make need not run.
 */
char *make_stamp(const struct verify_ctx *ctx, const struct child *c,
		 const char *output);
/* make_stamp() of a make whose objtree, and .config, is @objtree. */
char *make_stamp_in(const struct verify_ctx *ctx, const char *objtree,
		    const struct child *c, const char *output);

/* The tree made of the source and the series (the tree and apply steps). */
char *tree_stamp(const struct verify_ctx *ctx);
char *tree_stamp_path(const struct verify_ctx *ctx);
int tree_is_current(const struct verify_ctx *ctx);

#endif
