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

#include "core/series.h"
#include "debian/debian.h"
#include "lib/fsutil.h"
#include "steps/kernel.h"
#include "steps/steps.h"

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
	stamp = make_stamp(ctx, &c, output);
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
	stamp = make_stamp(ctx, &c, output);
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
