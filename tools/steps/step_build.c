// SPDX-License-Identifier: GPL-2.0
/*
 * build: the kernel image (bzImage) in the O= directory, or only the
 * arch/x86/kvm objects with --build=objects.  A compiler warning in a file
 * the series touches fails the step: the patch must build clean.
 *
 * A finished build leaves a stamp of what it was made from; while that is
 * unchanged, make is not run again (kbuild would spend ~8 s walking the
 * tree to find nothing to do).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "debian/debian.h"
#include "lib/fsutil.h"
#include "series.h"
#include "steps/kernel.h"
#include "steps/steps.h"

static uint64_t hash_stat(uint64_t h, const char *path)
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
static char *build_stamp(const struct verify_ctx *ctx, const struct child *c,
			 const char *output)
{
	char *tree = tree_stamp(ctx), *config = xstrfmt("%s/.config", build_dir(ctx));
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

static int build_is_current(const struct verify_ctx *ctx, const char *stamp)
{
	char *path = xstrfmt("%s/.kverify-build", build_dir(ctx));
	char *had = read_first_line(path);
	int ok = had && !strcmp(had, stamp);

	free(had);
	free(path);
	return ok;
}

static void write_build_stamp(const struct verify_ctx *ctx, const char *stamp)
{
	char *path = xstrfmt("%s/.kverify-build", build_dir(ctx));

	if (stamp)
		write_file_atomic(path, stamp, strlen(stamp));
	else
		unlink(path);
	free(path);
}

enum step_status build_own_kernel(const struct verify_ctx *ctx,
				  struct build_out *out, struct step_result *r)
{
	int objects = ctx->opt->mode == BUILD_OBJECTS ||
		      distro_config(ctx->opt);
	char *output = xstrfmt("%s/%s", build_dir(ctx), objects ?
			       "arch/x86/kvm/built-in.a" : "arch/x86/boot/bzImage");
	enum step_status st = STEP_FAIL;
	struct child c = CHILD_INIT;
	long h0 = 0, m0 = 0, h1, m1;
	int ret, ccache;
	char *stamp = NULL;

	ccache = make_args(ctx, &c) && !ccache_counts(ctx, &h0, &m0);
	strvec_push(&c.args, objects ? "arch/x86/kvm/" : "bzImage");
	out->ccache_hits = out->ccache_misses = -1;
	stamp = build_stamp(ctx, &c, output);
	if (build_is_current(ctx, stamp)) {
		strbuf_addstr(&r->reason, "up to date: tree, .config, make command and compiler unchanged since the last build");
		out->kernel_built = !objects;
		st = STEP_PASS;
		goto out;
	}
	write_build_stamp(ctx, NULL);
	ret = step_run_in_build(ctx, r, &c);
	if (ccache && !ccache_counts(ctx, &h1, &m1)) {
		out->ccache_hits = h1 - h0;
		out->ccache_misses = m1 - m0;
	}
	if (ret)
		goto out;
	if (new_warnings(ctx, r))
		goto out;
	out->kernel_built = !objects;
	strbuf_addstr(&r->reason, objects ? "arch/x86/kvm/ objects built" :
			"bzImage built");
	if (out->ccache_hits >= 0)
		strbuf_addf(&r->reason, "; ccache %ld hits, %ld misses",
			    out->ccache_hits, out->ccache_misses);
	free(stamp);
	stamp = build_stamp(ctx, &c, output);
	write_build_stamp(ctx, stamp);
	st = STEP_PASS;
out:
	child_clear(&c);
	free(output);
	free(stamp);
	return st;
}

/* Nothing built yet, and no ccache. */
static void build_init(void *out)
{
	struct build_out *b = out;

	b->ccache_hits = -1;
	b->ccache_misses = -1;
}

static enum step_status build_step_run(const struct verify_ctx *ctx, void *out,
				       struct step_result *r)
{
	return kernel_of(ctx)->build(ctx, out, r);
}

const struct step build_step = {
	.name = "build",
	.run = build_step_run,
	.timeout = 5400,
	.flags = STEP_COUNTS_OBJECTS,
	.needs = NEEDS(STEP_IDX_config),
	STEP_OUTPUT(built),
	.init_out = build_init,
};
