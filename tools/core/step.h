/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_STEP_H
#define KVERIFY_STEP_H

/*
 * What a step of the pipeline is given and what it gives back.  The engine
 * (verify.c) passes every step the run's context read-only, and the one
 * structure that is that step's own to write: the outputs the kernels
 * read (fetch, config, build) are declared here; any other step's is a
 * type of its own header (steps/step_<name>.h), which the engine
 * allocates (step_output()).  Nothing but its step writes an output.
 * Which outputs a step reads is the `needs` column of the engine's table.
 */
#include <stdint.h>
#include <time.h>

#include "core/flavour.h"
#include "core/series.h"
#include "lib/options.h"
#include "lib/result.h"
#include "lib/run.h"
#include "lib/strbuf.h"
#include "sources/source.h"
#include "sources/targets.h"

/* fetch: the pristine source, and for SERIES auto the variant it needs. */
struct fetch_out {
	struct source source;	/* the pristine tree, never written */
	struct series probed;	/* SERIES auto: the variant that applies */
	int packages_fetched;	/* the kernel's prefetch fetched them */
};

struct kernel_ops;	/* kernel.h */
struct debian_state;	/* kernels/debian.h: Debian's kernel ops' own */

/* A built kernel a run boots (kernel_describe()): not our own bzImage. */
struct kernel_desc {
	const char *image;	/* the vmlinuz */
	const char *release;	/* its uname -r: 6.12.117+deb12-amd64 */
	const char *package;	/* the package it comes in */
	const char *version;	/* that package's version */
};

/* config: what boots, and where it is built. */
struct config_out {
	/* the kernel the later steps use: the engine's, or its fallback */
	const struct kernel_ops *kernel_ops;
	char *boot_why;		/* why BOOT=auto boots our own kernel after all */
	char *build;		/* O= directory, when not the one wanted */
	char *kbuild;		/* objtree: Debian's headers, our srctree */
	char *toolchain;	/* Debian's compiler's release, or NULL (host) */
	/* Debian's built kernel of the source's version, or NULL */
	struct debian_state *debian;
};

/* build: the kernel or the modules. */
struct build_out {
	int kernel_built;
	long ccache_hits, ccache_misses;	/* -1: no ccache */
};

/*
 * A step's output of its own type (steps/step_<name>.h): the engine
 * allocates it before the run and frees it at its end.
 */
struct step_output {
	const void *step;	/* its const struct step */
	void *out;
};

/* As many as a step table has lines (steps.h: NR_STEPS <= 32). */
#define STEP_OUTPUTS_MAX 32

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
	struct config_out config;
	struct build_out built;
	/* the other steps' outputs, each of its own type: step_output() */
	struct step_output outs[STEP_OUTPUTS_MAX];
};

/**
 * step_output() - A step's output of its own type, in a run.
 * @ctx: The run, set up by the engine.
 * @step: The step's const struct step.
 *
 * A step's header wraps it for the step's type (sim_of(), boot_of()).
 *
 * Return: The output, or NULL when the engine holds none for @step.
 */
void *step_output(const struct verify_ctx *ctx, const void *step);

/**
 * series_of() - The series a run verifies.
 * @ctx: The run.
 *
 * Return: For SERIES auto the variant the fetch step probed, else the
 * series kernels.list names.
 */
static inline const struct series *series_of(const struct verify_ctx *ctx)
{
	return ctx->t->auto_series ? &ctx->fetch.probed : &ctx->listed;
}

/**
 * build_dir() - Where a run builds the kernel or the modules.
 * @ctx: The run.
 *
 * Return: The O= directory the config step fell back to, if it did, else
 * the one of the boot mode wanted.
 */
static inline const char *build_dir(const struct verify_ctx *ctx)
{
	return ctx->config.build ? ctx->config.build : ctx->build;
}

/**
 * kernel_of() - The kernel a run boots.
 * @ctx: The run.
 *
 * Return: The config step's kernel (its fallback), if it set one, else
 * the one BOOT= and the options ask for.
 */
static inline const struct kernel_ops *kernel_of(const struct verify_ctx *ctx)
{
	return ctx->config.kernel_ops ? ctx->config.kernel_ops :
	       ctx->kernel_ops;
}

/**
 * distro_config_path() - Where the fetch step keeps Debian's config.
 * @ctx: The run; its source is fetched.
 *
 * Return: The path of Debian's amd64 config of the run's source, in the
 * store of fetched things (sources_path()), to be freed.
 */
char *distro_config_path(const struct verify_ctx *ctx);

/**
 * default_flavour() - Does a run build and boot the pipeline's flavour?
 * @ctx: The run.
 *
 * Return: Nonzero for amd64, the flavour of the pipeline's own rows; 0
 * for one of the others --flavours adds.
 */
static inline int default_flavour(const struct verify_ctx *ctx)
{
	return ctx->flavour->pipeline;
}

/* Helpers for steps. */

/**
 * append_log() - Add a tool's output at the end of a step's log.
 * @log: The log, created if need be; NULL: nothing is written.
 * @out: The output; empty: nothing is written.
 *
 * Return: 0, or -1 when @log cannot be opened or is not written whole.
 */
int append_log(const char *log, const struct strbuf *out);

/**
 * claim_for_source() - Make a directory the run's source's.
 * @ctx: The run; its source is fetched.
 * @dir: The directory (a build directory, say).
 *
 * A directory that its .kverify-source says was made from another source,
 * or does not say, is emptied and marked as the run's: the files of
 * another source carry that tarball's mtimes, against which make would
 * take stale objects for current.  Errors are not reported.
 */
void claim_for_source(const struct verify_ctx *ctx, const char *dir);

/**
 * step_skipped() - Is a step one of those --skip names?
 * @opt: The options; @opt->skip_steps the steps' bits, set once by the
 *	command that read --skip.
 * @idx: The step's index in its table (enum step_idx for the pipeline).
 *
 * Return: 1 if --skip names it, else 0.
 */
static inline int step_skipped(const struct options *opt, int idx)
{
	return !!(opt->skip_steps & (1u << idx));
}

/**
 * step_run() - Run a step's tool with its log and timeout.
 * @ctx: The run; the running step's @ctx->log and @ctx->timeout apply
 *	unless @c has its own.
 * @r: The step's result: on failure its reason says why, its cause
 *	whose fault it is (a tool that could not start, a full disk: the
 *	machine's), its detail holds the log's tail.
 * @c: The child.
 *
 * Return: As run_child(): the exit code, 128 + a signal, or -1 when it
 * could not start.
 */
int step_run(const struct verify_ctx *ctx, struct step_result *r,
	     struct child *c);

struct sandbox;

/**
 * step_sandbox_reads() - What a step's sandbox may read.
 * @ctx: The run.
 * @sb: Appended to @sb->ro: the cache, this repository, the store of
 *	fetched things (when it is not in the cache) and the target's
 *	results (when they are elsewhere, --results, and exist).
 */
void step_sandbox_reads(const struct verify_ctx *ctx, struct sandbox *sb);

/**
 * step_run_sandboxed() - Run code that came with the tree, in a sandbox.
 * @ctx: The run.
 * @r: The step's result, as for step_run().
 * @c: The child: the tree's make, a script, a compiler's plugin; a chroot
 *	in @c->root becomes the sandbox's root.  It is as it was when this
 *	returns, so the caller's stamps see the command, not the sandbox
 *	around it.
 * @rw: The directories it may write, NULL-terminated, made if need be;
 *	NULL: none.
 *
 * The sandbox (sandbox_child()) reads what step_sandbox_reads() names.
 *
 * Return: As step_run(); -1 with @r's reason set when a directory of @rw
 * cannot be made or there is no sandbox (a tool missing, which is the
 * machine's fault).
 */
int step_run_sandboxed(const struct verify_ctx *ctx, struct step_result *r,
		       struct child *c, const char *const *rw);

/**
 * step_run_in_build() - Run the kernel's make in a sandbox.
 * @ctx: The run.
 * @r: The step's result, as for step_run().
 * @c: The make; its environment's CCACHE_DIR, if any (ccache_env()).
 *
 * step_run_sandboxed() with the build directory (build_dir()) and the
 * ccache store writable.
 *
 * Return: As step_run_sandboxed().
 */
int step_run_in_build(const struct verify_ctx *ctx, struct step_result *r,
		      struct child *c);

/**
 * cache_path() - A path in the cache.
 * @ctx: The run; @ctx->cache is the cache root.
 * @fmt: The path below the root, as for printf().
 * @...: Its arguments.
 *
 * Return: The path, to be freed.
 */
__printf(2, 3) char *cache_path(const struct verify_ctx *ctx, const char *fmt,
			       ...);

/**
 * sources_path() - A path in the store of fetched things.
 * @ctx: The run; the store is --sources (KVERIFY_SOURCES) or the cache.
 * @fmt: The path below the store, as for printf().
 * @...: Its arguments.
 *
 * Return: The path, to be freed.
 */
__printf(2, 3) char *sources_path(const struct verify_ctx *ctx,
				  const char *fmt, ...);

/**
 * make_args() - Start the kernel's make command.
 * @ctx: The run.
 * @c: Appended to: "make -C <tree> O=<build_dir()>", the -j of
 *	make_jobs(), CC= and HOSTCC= when KCC=, KHOSTCC= or ccache set them;
 *	and to its environment a reproducible build identity
 *	(KBUILD_BUILD_TIMESTAMP, _USER, _HOST) and ccache's (ccache_env()).
 *
 * ccache goes in front of gcc when CCACHE is on, ccache is installed and
 * the run has its store.
 *
 * Return: 1 when ccache compiles the kernel's C (KCC= not set), else 0.
 */
int make_args(const struct verify_ctx *ctx, struct child *c);

/**
 * make_args_in() - make_args() for another build directory.
 * @ctx: The run.
 * @objtree: The O= directory, instead of the run's build directory.
 * @c: As for make_args().
 *
 * Return: As make_args().
 */
int make_args_in(const struct verify_ctx *ctx, const char *objtree,
		 struct child *c);

/* The cache keeps this many ccache stores, the newest (ccache_env()). */
#define CCACHE_STORES_KEPT 8
/* In <cache>/ccache/ once it holds a store per source and series. */
#define CCACHE_LAYOUT ".kverify-stores"

/**
 * ccache_env() - Point ccache at the run's store.
 * @ctx: The run.
 * @env: Appended to: CCACHE_DIR= the store,
 *	CCACHE_COMPILERCHECK=content (a new compiler's bytes miss) and
 *	CCACHE_DEPEND=1 (headers from gcc's .d file, no preprocessor pass).
 *
 * The store is the cache's own, <cache>/ccache/<hash>, one per source and
 * series, so what one tree's code leaves there is never taken for
 * another's.  It is made if need be and held (a shared lock) until the
 * process ends; stores beyond the CCACHE_STORES_KEPT used last are
 * removed when no run holds them.
 *
 * Return: 1, or 0 with nothing appended and a warning printed when the
 * run can have no store.
 */
int ccache_env(const struct verify_ctx *ctx, struct strvec *env);

/**
 * ccache_dir() - The ccache store a child uses.
 * @c: The child.
 *
 * Return: The value of CCACHE_DIR= in @c's environment (ccache_env()),
 * pointing into it; NULL when there is none.
 */
const char *ccache_dir(const struct child *c);

/**
 * ccache_counts() - ccache's hits and misses in the run's store.
 * @ctx: The run.
 * @hits: Set to the direct and preprocessed hits; 0 when it fails.
 * @misses: Set to the misses; 0 when it fails.
 *
 * ccache --print-stats runs in the sandbox, which wrote the store: of it
 * kverify's own user reads nothing.
 *
 * Return: 0, or -1 when there is no store or sandbox, or ccache failed.
 */
int ccache_counts(const struct verify_ctx *ctx, long *hits, long *misses);

/**
 * make_jobs() - Add make's -j.
 * @ctx: The run.
 * @c: Appended to: -jN, N from -j (the options) or else the online
 *	CPUs; nothing when make's jobserver reached kverify and -j is not
 *	given, so that the sub-make shares it.
 */
void make_jobs(const struct verify_ctx *ctx, struct child *c);

/**
 * new_warnings() - The compiler's warnings in the files a series touches.
 * @ctx: The run; the running step's log (@ctx->log) is read.
 * @r: The step's result: each "path:line:col: warning:" line of the log
 *	for a file of series_files() goes to its detail, and when there is
 *	one, "N compiler warning(s) in files the series touches" to its
 *	reason.
 *
 * Return: The number of such lines, 0 for none.
 */
int new_warnings(const struct verify_ctx *ctx, struct step_result *r);

/**
 * hash_patched_mtimes() - Add the mtimes of the files a series patched.
 * @ctx: The run; of its tree the files of series_files() are stat()ed.
 * @h: The hash so far.
 *
 * make compares these mtimes with the objects.  The apply step gives a
 * file back its mtime while its content is what it applied last; a
 * series applied in between and never built leaves a new one, and make
 * would compile again what a stamp of the content alone calls built.
 *
 * Return: @h with each mtime added; a file not there adds nothing.
 */
uint64_t hash_patched_mtimes(const struct verify_ctx *ctx, uint64_t h);

/**
 * hash_stat() - Add a file's identity and age to a hash.
 * @h: The hash so far.
 * @path: The file (a symlink is followed), or NULL.
 *
 * Return: @h with @path, its inode, size and mtime added; or with "none"
 * when @path is NULL or cannot be stat()ed.
 */
uint64_t hash_stat(uint64_t h, const char *path);

/**
 * make_stamp() - What a make of the tree was made from.
 * @ctx: The run; its build directory (build_dir()) holds the .config.
 * @c: The make: its command without its -j, and its environment, count.
 * @output: A file the make leaves; its hash_stat() counts.
 *
 * The tree (tree_stamp() and hash_patched_mtimes()), the .config, @c,
 * the compilers' binaries (CC=, HOSTCC=, else gcc) and @output as that
 * make left it: while the stamp is unchanged, make need not run.
 *
 * Return: The stamp, 16 hex digits, to be freed.
 */
char *make_stamp(const struct verify_ctx *ctx, const struct child *c,
		 const char *output);

/**
 * make_stamp_in() - make_stamp() of a make in another build directory.
 * @ctx: The run.
 * @objtree: The make's objtree, which holds its .config.
 * @c: As for make_stamp().
 * @output: As for make_stamp().
 *
 * Return: As make_stamp().
 */
char *make_stamp_in(const struct verify_ctx *ctx, const char *objtree,
		    const struct child *c, const char *output);

/**
 * tree_stamp() - What the run's tree is made of (the tree and apply steps).
 * @ctx: The run.
 *
 * The source and every patch of the series, by name and bytes; the
 * pristine contents of the files the series touches; and which fetch of
 * the source it is (its directory's device, inode and ctime), so that a
 * tree linked to a source fetched since is not reused.
 *
 * Return: The hash in hex, a blank, the source's key and a newline; ""
 * when the fetch step did not run.  To be freed.
 */
char *tree_stamp(const struct verify_ctx *ctx);

/**
 * tree_stamp_path() - Where the tree step keeps the tree's stamp.
 * @ctx: The run.
 *
 * Return: <cache>/trees/<target>.stamp, to be freed.
 */
char *tree_stamp_path(const struct verify_ctx *ctx);

/**
 * tree_is_current() - Can the run's tree be used as it is?
 * @ctx: The run.
 *
 * Its stamp file must hold tree_stamp(), and each file the series touches
 * must be as the apply step left it: a regular file (no symlink the
 * sandbox could have left) with the content whose hash the apply step
 * wrote in trees/<target>.mtimes, or not there if the series deletes it.
 *
 * Return: 1 if the tree is there and current, else 0.
 */
int tree_is_current(const struct verify_ctx *ctx);

#endif
