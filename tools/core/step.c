// SPDX-License-Identifier: GPL-2.0
/* What every step may use: cache paths, its log and timeout, make, stamps. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/series.h"
#include "core/step.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/lock.h"
#include "lib/run.h"
#include "lib/sandbox.h"
#include "lib/tree.h"
#include "lib/usage.h"

char *cache_path(const struct verify_ctx *ctx, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s/", ctx->cache);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

/* @fmt below what is fetched: the cache, or the store it shares. */
char *sources_path(const struct verify_ctx *ctx, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s/", sources_dir(ctx->opt));
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

/* Where the fetch step keeps Debian's amd64 config of this source. */
void *step_output(const struct verify_ctx *ctx, const void *step)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ctx->outs) && ctx->outs[i].step; i++)
		if (ctx->outs[i].step == step)
			return ctx->outs[i].out;
	return NULL;
}

char *distro_config_path(const struct verify_ctx *ctx)
{
	return sources_path(ctx, "src/%s.config-amd64",
			    ctx->fetch.source.src_key);
}

int append_log(const char *log, const struct strbuf *out)
{
	ssize_t n;
	int fd;

	if (!log || !out->len)
		return 0;
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	n = write(fd, out->buf, out->len);
	close(fd);
	return n == (ssize_t)out->len ? 0 : -1;
}

void claim_for_source(const struct verify_ctx *ctx, const char *dir)
{
	char *owner = xstrfmt("%s/.kverify-source", dir);
	char *had = read_first_line(owner);
	const char *key = ctx->fetch.source.src_key;

	if (!had || strcmp(had, key)) {
		rm_rf(dir);
		mkdir_p(dir);
		write_file_atomic(owner, key, strlen(key));
	}
	free(had);
	free(owner);
}

int step_run(const struct verify_ctx *ctx, struct step_result *r,
	     struct child *c)
{
	return run_tool(ctx->log, ctx->timeout, r, c);
}

/*
 * What a step's sandbox reads: the cache, this repository, the store of
 * fetched things and the target's results (--results may be elsewhere).
 */
void step_sandbox_reads(const struct verify_ctx *ctx, struct sandbox *sb)
{
	strvec_pushl(&sb->ro, ctx->cache, ctx->repo, NULL);
	if (!path_under(sources_dir(ctx->opt), ctx->cache))
		strvec_push(&sb->ro, sources_dir(ctx->opt));
	/* What kverify wrote for it there (the initramfs list, say). */
	if (ctx->results && !path_under(ctx->results, ctx->repo) &&
	    !path_under(ctx->results, ctx->cache) && is_dir(ctx->results))
		strvec_push(&sb->ro, ctx->results);
}

/*
 * Run code that came with the tree (its Makefiles, scripts, compilers'
 * plugins) in the sandbox: it reads the cache, this repository and the
 * target's results (--results may be elsewhere), writes
 * only the directories in @rw (NULL-terminated), and a chroot in @c->root
 * becomes the sandbox's root.  @c is as it was when this returns, so the
 * caller's stamps see the command, not the sandbox around it.
 */
int step_run_sandboxed(const struct verify_ctx *ctx, struct step_result *r,
		       struct child *c, const char *const *rw)
{
	struct sandbox sb = SANDBOX_INIT;
	struct strvec cmd = c->args;
	const char *root = c->root, *bind = c->bind;
	size_t i;
	int ret = -1;

	c->args = (struct strvec)STRVEC_INIT;
	for (i = 0; i < cmd.nr; i++)
		strvec_push(&c->args, cmd.v[i]);
	step_sandbox_reads(ctx, &sb);
	for (; rw && *rw; rw++) {
		if (mkdir_p(*rw) < 0) {
			strbuf_addf(&r->reason, "cannot make %s: %s", *rw,
				    strerror(errno));
			goto out;
		}
		strvec_push(&sb.rw, *rw);
	}
	sb.root = root;
	c->root = NULL;
	c->bind = NULL;
	/* No sandbox (a tool missing): as if the tool could not be run. */
	if (sandbox_child(c, &sb, &r->reason)) {
		c->spawn_errno = ENOENT;
		blame_machine(r);
		goto out;
	}
	ret = step_run(ctx, r, c);
out:
	strvec_clear(&c->args);
	c->args = cmd;
	c->root = root;
	c->bind = bind;
	sandbox_clear(&sb);
	return ret;
}

/*
 * The kernel's make and what it runs: they write the build directory, and
 * ccache its own directory in the cache (CCACHE_DIR in @c's environment).
 */
int step_run_in_build(const struct verify_ctx *ctx, struct step_result *r,
		      struct child *c)
{
	const char *rw[3] = { NULL };

	rw[0] = build_dir(ctx);
	rw[1] = ccache_dir(c);
	return step_run_sandboxed(ctx, r, c, rw);
}

/* The CCACHE_DIR= of @c's environment (ccache_env()), or NULL. */
const char *ccache_dir(const struct child *c)
{
	size_t i;

	for (i = 0; i < c->env.nr; i++)
		if (starts_with(c->env.v[i], "CCACHE_DIR="))
			return c->env.v[i] + strlen("CCACHE_DIR=");
	return NULL;
}

/* -jN, unless make's jobserver reached us: then the sub-make shares it. */
void make_jobs(const struct verify_ctx *ctx, struct child *c)
{
	long n = ctx->opt->jobs ? ctx->opt->jobs : sysconf(_SC_NPROCESSORS_ONLN);

	if (!ctx->opt->make_jobserver || ctx->opt->jobs)
		strvec_pushf(&c->args, "-j%ld", n > 0 ? n : 1);
}

/*
 * The kernel's compilers: make's KCC=/KHOSTCC= (distcc, icecream), else
 * ccache in front of gcc when @ccache (it is installed, CCACHE is not 0,
 * and the run has its store).  kbuild records the compiler command:
 * switching an existing O= directory to or from ccache rebuilds it all,
 * once.
 */
static int kernel_compilers(const struct options *opt, struct child *c,
			    int ccache)
{
	if (opt->kernel_cc)
		strvec_pushf(&c->args, "CC=%s", opt->kernel_cc);
	else if (ccache)
		strvec_push(&c->args, "CC=ccache gcc");
	if (opt->kernel_hostcc)
		strvec_pushf(&c->args, "HOSTCC=%s", opt->kernel_hostcc);
	else if (ccache)
		strvec_push(&c->args, "HOSTCC=ccache gcc");
	return ccache && !opt->kernel_cc;
}

/*
 * "make -C <tree> O=<build> -jN" with a reproducible build identity;
 * returns whether ccache compiles.
 */
int make_args(const struct verify_ctx *ctx, struct child *c)
{
	return make_args_in(ctx, build_dir(ctx), c);
}

int make_args_in(const struct verify_ctx *ctx, const char *objtree,
		 struct child *c)
{
	int ccache = ctx->opt->ccache && path_has("ccache") &&
		     ccache_env(ctx, &c->env);

	strvec_pushl(&c->args, "make", "-C", ctx->tree, NULL);
	strvec_pushf(&c->args, "O=%s", objtree);
	make_jobs(ctx, c);
	strvec_push(&c->env, "KBUILD_BUILD_TIMESTAMP=2026-01-01");
	strvec_push(&c->env, "KBUILD_BUILD_USER=kverify");
	strvec_push(&c->env, "KBUILD_BUILD_HOST=kverify");
	return kernel_compilers(ctx->opt, c, ccache);
}

/*
 * The code a tree is: its source and every patch of the series, by name and
 * bytes (not path: two checkouts of one series share the tree).
 */
static uint64_t code_hash(const struct verify_ctx *ctx)
{
	const char *key = ctx->fetch.source.src_key;
	uint64_t h = hash_bytes(HASH_INIT, key, strlen(key));
	size_t i;

	for (i = 0; i < series_of(ctx)->patches.nr; i++) {
		const char *name = patch_name(series_of(ctx)->patches.v[i]);

		h = hash_bytes(h, name, strlen(name) + 1);
		if (hash_file(&h, series_of(ctx)->patches.v[i]))
			h = hash_bytes(h, "missing", 7);
	}
	return h;
}

/* A real directory, or a regular file, of kverify's user. */
static int own_entry(const char *path, mode_t type)
{
	struct stat st;

	return !lstat(path, &st) && (st.st_mode & S_IFMT) == type &&
	       st.st_uid == geteuid();
}

/*
 * <cache>/ccache/ holds a store per source and series: made anew, under a
 * lock, when it is not kverify's own directory with CCACHE_LAYOUT in it
 * (an older cache's one store, which the sandbox wrote, or a directory
 * somebody else made).
 */
static int ccache_layout(const struct verify_ctx *ctx, struct strbuf *why)
{
	char *top = cache_path(ctx, "ccache");
	char *mark = cache_path(ctx, "ccache/" CCACHE_LAYOUT);
	static const char text[] = "a ccache store per source and series: <hash>/\n";
	int fd = -1, ret = 0;

	if (own_entry(top, S_IFDIR) && own_entry(mark, S_IFREG))
		goto out;
	ret = lock_in_cache(ctx->cache, 1, &fd, why, "ccache.lock");
	if (!ret && !(own_entry(top, S_IFDIR) && own_entry(mark, S_IFREG)) &&
	    (rm_rf(top) || mkdir(top, 0755) < 0 ||
	     write_file_atomic(mark, text, strlen(text)))) {
		strbuf_addf(why, "cannot make %s anew: %s", top,
			    strerror(errno));
		ret = -1;
	}
	unlock_file(fd);
out:
	free(mark);
	free(top);
	return ret;
}

/*
 * The lock of store @name, locks/ccache-<name> (kverify's, out of the
 * sandbox's reach): its mtime is the store's last use.
 */
static int store_lock(const struct verify_ctx *ctx, const char *name,
		      struct strbuf *why)
{
	char *dir = cache_path(ctx, "locks");
	char *path = cache_path(ctx, "locks/ccache-%s", name);
	int fd = mkdir_p(dir) < 0 ? -1 :
		 open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);

	if (fd < 0)
		strbuf_addf(why, "%s: %s", path, strerror(errno));
	free(path);
	free(dir);
	return fd;
}

/*
 * The stores this process uses: each held with a shared flock of its lock
 * until the process ends, so that no run prunes a store a build of
 * another still writes.  Waits while a prune removes it.
 */
static int hold_store(const struct verify_ctx *ctx, const char *name,
		      struct strbuf *why)
{
	static struct strvec held = STRVEC_INIT;
	int fd;

	if (strvec_has(&held, name))
		return 0;
	fd = store_lock(ctx, name, why);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_SH) < 0) {
		if (errno != EINTR || run_interrupted()) {
			strbuf_addf(why, "flock: %s", strerror(errno));
			close(fd);
			return -1;
		}
	}
	futimens(fd, NULL);
	strvec_push(&held, name);
	return 0;	/* @fd stays open: the lock lasts as long as we do */
}

struct store_age {
	char *name;
	struct timespec used;
};

static int newest_first(const void *a, const void *b)
{
	const struct timespec *x = &((const struct store_age *)a)->used;
	const struct timespec *y = &((const struct store_age *)b)->used;

	if (x->tv_sec != y->tv_sec)
		return x->tv_sec < y->tv_sec ? 1 : -1;
	return x->tv_nsec < y->tv_nsec ? 1 : x->tv_nsec > y->tv_nsec ? -1 : 0;
}

/*
 * A store no run holds, renamed out of the way and removed: nothing of the
 * sandbox's runs in it any more.
 */
static void remove_store(const struct verify_ctx *ctx, const char *name)
{
	struct strbuf why = STRBUF_INIT;
	char *path = cache_path(ctx, "ccache/%s", name);
	char *gone = cache_path(ctx, "ccache/.gone-%s-%ld", name,
				(long)getpid());
	int fd = store_lock(ctx, name, &why);

	if (fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB) && !rename(path, gone))
		rm_rf(gone);
	if (fd >= 0)
		close(fd);
	strbuf_release(&why);
	free(gone);
	free(path);
}

/*
 * The stores of <cache>/ccache/ but @keep and the newest others,
 * CCACHE_STORES_KEPT in all, by the mtimes of their locks; one that a run
 * holds stays.
 */
static void ccache_prune(const struct verify_ctx *ctx, const char *keep)
{
	char *top = cache_path(ctx, "ccache");
	struct store_age *old = NULL;
	size_t nr = 0, i;
	struct dirent *e;
	DIR *d = opendir(top);

	while (d && (e = readdir(d))) {
		char *lock;
		struct stat st;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, keep))
			continue;
		lock = cache_path(ctx, "locks/ccache-%s", e->d_name);
		old = xrealloc(old, (nr + 1) * sizeof(*old));
		old[nr].name = xstrdup(e->d_name);
		old[nr].used = lstat(lock, &st) ? (struct timespec){ 0 } :
			       st.st_mtim;
		nr++;
		free(lock);
	}
	if (d)
		closedir(d);
	if (nr)
		qsort(old, nr, sizeof(*old), newest_first);
	for (i = 0; i < nr; i++) {
		if (i >= CCACHE_STORES_KEPT - 1)
			remove_store(ctx, old[i].name);
		free(old[i].name);
	}
	free(old);
	free(top);
}

/*
 * ccache's store for this run's code: <cache>/ccache/<code hash>, held
 * (hold_store()) and made here; the selftests may start before the build.
 * The tree's own make writes it (in the sandbox), so only a build of the
 * same source and series reads it: what one tree's code leaves there is
 * never taken for another series' compilation, nor for another source's.
 * The cache keeps the CCACHE_STORES_KEPT used last.
 */
static char *ccache_store(const struct verify_ctx *ctx)
{
	struct strbuf why = STRBUF_INIT;
	char *name = xstrfmt("%016llx", (unsigned long long)code_hash(ctx));
	char *store = cache_path(ctx, "ccache/%s", name);

	int ok = !ccache_layout(ctx, &why) && !hold_store(ctx, name, &why);

	if (ok && mkdir(store, 0755) < 0 && errno != EEXIST) {
		strbuf_addf(&why, "%s: %s", store, strerror(errno));
		ok = 0;
	}
	if (!ok) {
		warning("no ccache for this build: %s", why.buf);
		free(store);
		store = NULL;
	} else {
		ccache_prune(ctx, name);
	}
	strbuf_release(&why);
	free(name);
	return store;
}

/*
 * ccache's store is the cache's own (not ~/.cache/ccache, which other builds
 * share and fill), one per source and series (ccache_store()), and it knows
 * a compiler by its bytes, not its mtime: a new gcc (a toolchain upgrade)
 * misses.  Its depend mode reads the headers from the .d file kbuild's
 * -Wp,-MMD has gcc write; the default mode runs the preprocessor again for
 * each object it misses (a third of a cold compile's CPU time), for hits
 * on equal preprocessed text, which line markers naming another tree's
 * path never give.  0, and nothing in @env, when the run has no store.
 */
int ccache_env(const struct verify_ctx *ctx, struct strvec *env)
{
	char *store = ccache_store(ctx);

	if (!store)
		return 0;
	strvec_pushf(env, "CCACHE_DIR=%s", store);
	strvec_push(env, "CCACHE_COMPILERCHECK=content");
	strvec_push(env, "CCACHE_DEPEND=1");
	free(store);
	return 1;
}

/*
 * ccache's hit and miss counters of the run's store, read in the sandbox:
 * the sandbox wrote the store (its configuration, its counters), so
 * kverify's own user reads nothing of it.
 */
int ccache_counts(const struct verify_ctx *ctx, long *hits,
			 long *misses)
{
	struct sandbox sb = SANDBOX_INIT;
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	struct child c = CHILD_INIT;
	struct line l;
	int ret = -1;

	*hits = *misses = 0;
	strvec_pushl(&c.args, "ccache", "--print-stats", NULL);
	c.out = &out;
	c.log = "/dev/null";
	step_sandbox_reads(ctx, &sb);
	if (!ccache_env(ctx, &c.env) || sandbox_child(&c, &sb, &why) ||
	    run_child(&c))
		goto out;
	for_each_line(l, out.buf) {
		if (starts_with(l.s, "direct_cache_hit\t") ||
		    starts_with(l.s, "preprocessed_cache_hit\t"))
			*hits += atol(strchr(l.s, '\t') + 1);
		else if (starts_with(l.s, "cache_miss\t"))
			*misses += atol(strchr(l.s, '\t') + 1);
	}
	ret = 0;
out:
	child_clear(&c);
	sandbox_clear(&sb);
	strbuf_release(&why);
	strbuf_release(&out);
	return ret;
}

/*
 * "path:line:col: warning:" lines for files the series touches, into the
 * step's detail; their count, which is also the step's reason, or 0.
 */
int new_warnings(const struct verify_ctx *ctx, struct step_result *r)
{
	struct strvec files = STRVEC_INIT;
	struct strbuf log = STRBUF_INIT;
	struct line l;
	size_t i;
	int n = 0;

	series_files(series_of(ctx), &files, 0);
	strbuf_read_file(&log, ctx->log, 64 << 20);
	for_each_line(l, log.buf) {
		for (i = 0; i < files.nr; i++) {
			size_t fl = strlen(files.v[i]);
			const char *at = strstr(l.s, files.v[i]);

			if (at && at < l.s + l.len && at[fl] == ':' &&
			    strstr(at, ": warning:") &&
			    strstr(at, ": warning:") < l.s + l.len) {
				strbuf_addf(&r->detail, "%.*s\n", (int)l.len,
					    l.s);
				n++;
				break;
			}
		}
	}
	if (n)
		strbuf_addf(&r->reason, "%d compiler warning(s) in files the series touches",
			    n);
	strvec_clear(&files);
	strbuf_release(&log);
	return n;
}

/*
 * @h and the mtimes of the files the series touches, in the tree: what make
 * compares with the objects.  The apply step gives a file back its mtime
 * while its content is what it applied last; a series applied in between
 * and never built leaves a new one, and make would compile again what a
 * stamp of the content alone calls built.
 */
uint64_t hash_patched_mtimes(const struct verify_ctx *ctx, uint64_t h)
{
	struct strvec files = STRVEC_INIT;
	size_t i;

	series_files(series_of(ctx), &files, 0);
	for (i = 0; i < files.nr; i++) {
		char *path = xstrfmt("%s/%s", ctx->tree, files.v[i]);
		struct stat st;

		if (!stat(path, &st))
			h = hash_bytes(h, &st.st_mtim, sizeof(st.st_mtim));
		free(path);
	}
	strvec_clear(&files);
	return h;
}

/* What the tree was made from: its code, and which fetch of the source. */
char *tree_stamp(const struct verify_ctx *ctx)
{
	struct strvec files = STRVEC_INIT;
	struct stat st;
	uint64_t h;
	size_t i;

	if (!ctx->fetch.source.src_key)	/* the fetch step did not run */
		return xstrdup("");
	h = code_hash(ctx);
	/*
	 * And the pristine contents of the files the series touches (a few):
	 * an edit that keeps a file's size and mtime is still seen.
	 */
	series_files(series_of(ctx), &files, 0);
	for (i = 0; i < files.nr; i++) {
		char *path = xstrfmt("%s/%s", ctx->fetch.source.src, files.v[i]);

		h = hash_bytes(h, files.v[i], strlen(files.v[i]) + 1);
		if (hash_file(&h, path))
			h = hash_bytes(h, "new", 3);
		free(path);
	}
	strvec_clear(&files);
	/*
	 * And which fetch of it: a source fetched again, by this cache or by
	 * another one sharing its store, is another directory, renamed into
	 * place (a new inode, a new ctime), and a tree linked to the old one
	 * must not be reused.  Linking trees to it, or checking it, changes
	 * neither.
	 */
	if (!stat(ctx->fetch.source.src, &st)) {
		h = hash_bytes(h, &st.st_dev, sizeof(st.st_dev));
		h = hash_bytes(h, &st.st_ino, sizeof(st.st_ino));
		h = hash_bytes(h, &st.st_ctim, sizeof(st.st_ctim));
	}
	return xstrfmt("%016llx %s\n", (unsigned long long)h, ctx->fetch.source.src_key);
}

char *tree_stamp_path(const struct verify_ctx *ctx)
{
	return xstrfmt("%s/trees/%s.stamp", ctx->cache, ctx->t->name);
}

/*
 * The files the series touches are as the apply step left them: each a
 * regular file (no symlink the sandbox could have left), with the content
 * whose hash the apply step wrote in trees/<target>.mtimes (which only
 * kverify writes: the sandbox writes the tree, not trees/).
 */
static int patched_files_intact(const struct verify_ctx *ctx)
{
	char *manifest = cache_path(ctx, "trees/%s.mtimes", ctx->t->name);
	struct strbuf old = STRBUF_INIT;
	struct strvec files = STRVEC_INIT;
	size_t i;
	int ok = !strbuf_read_file(&old, manifest, 1 << 20);

	series_files(series_of(ctx), &files, 0);
	for (i = 0; ok && i < files.nr; i++) {
		char *path = xstrfmt("%s/%s", ctx->tree, files.v[i]);
		char *key = xstrfmt("%s ", files.v[i]), *hit = old.buf;
		uint64_t h = HASH_INIT;
		unsigned long long want;
		struct stat st;

		while ((hit = strstr(hit, key)) && hit != old.buf && hit[-1] != '\n')
			hit += strlen(key);
		if (lstat(path, &st))	/* a file the series deletes */
			ok = !hit;
		else
			ok = hit && S_ISREG(st.st_mode) && !hash_file(&h, path) &&
			     sscanf(hit + strlen(key), "%llx", &want) == 1 &&
			     want == h;
		free(path);
		free(key);
	}
	strvec_clear(&files);
	strbuf_release(&old);
	free(manifest);
	return ok;
}

int tree_is_current(const struct verify_ctx *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = tree_stamp_path(ctx), *want = tree_stamp(ctx);
	int ok;

	ok = is_dir(ctx->tree) && !strbuf_read_file(&sb, path, 4096) &&
	     !strcmp(sb.buf, want) && patched_files_intact(ctx);
	strbuf_release(&sb);
	free(path);
	free(want);
	return ok;
}

uint64_t hash_stat(uint64_t h, const char *path)
{
	struct stat st;

	if (!path || stat(path, &st))
		return hash_bytes(h, "none", 4);
	h = hash_bytes(h, path, strlen(path));
	h = hash_bytes(h, &st.st_ino, sizeof(st.st_ino));
	h = hash_bytes(h, &st.st_size, sizeof(st.st_size));
	return hash_bytes(h, &st.st_mtim, sizeof(st.st_mtim));
}

/* The compiler binary a CC=/HOSTCC= value (or plain gcc) runs. */
static uint64_t hash_compiler(uint64_t h, const char *arg)
{
	const char *word = strrchr(arg, ' ');
	char *found, *path;

	word = word ? word + 1 : arg;
	found = path_lookup(word);
	/* gcc is a chain of links (alternatives); the file at its end counts. */
	path = found ? realpath(found, NULL) : NULL;
	h = hash_stat(h, path);
	free(found);
	free(path);
	return h;
}

/*
 * The tree (source and series, and the patched files' mtimes), the .config,
 * the make command without its -j, the compilers' binaries and the output
 * as the last build left it.
 */
char *make_stamp(const struct verify_ctx *ctx, const struct child *c,
		 const char *output)
{
	return make_stamp_in(ctx, build_dir(ctx), c, output);
}

char *make_stamp_in(const struct verify_ctx *ctx, const char *objtree,
		    const struct child *c, const char *output)
{
	char *tree = tree_stamp(ctx), *config = xstrfmt("%s/.config", objtree);
	uint64_t h = hash_bytes(HASH_INIT, tree, strlen(tree));
	int cc = 0;
	size_t i;

	h = hash_patched_mtimes(ctx, h);
	if (hash_file(&h, config))
		h = hash_bytes(h, "no config", 9);
	for (i = 0; i < c->args.nr; i++) {
		const char *a = c->args.v[i];

		if (starts_with(a, "-j"))
			continue;
		h = hash_bytes(h, a, strlen(a) + 1);
		if (starts_with(a, "CC=") || starts_with(a, "HOSTCC=")) {
			h = hash_compiler(h, strchr(a, '=') + 1);
			cc |= a[0] == 'C' ? 1 : 2;
		}
	}
	for (i = 0; i < c->env.nr; i++)
		h = hash_bytes(h, c->env.v[i], strlen(c->env.v[i]) + 1);
	if (cc != 3)
		h = hash_compiler(h, "gcc");
	h = hash_stat(h, output);
	free(tree);
	free(config);
	return xstrfmt("%016llx", (unsigned long long)h);
}
