// SPDX-License-Identifier: GPL-2.0
/*
 * build: the kernel image (bzImage) in the O= directory, or only the
 * arch/x86/kvm objects with --build=objects.  A compiler warning in a file
 * the series touches fails the step: the patch must build clean.
 */
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "verify.h"

/* "path:line:col: warning:" lines for files the series touches. */
static int new_warnings(struct verify_ctx *ctx, struct step_result *r)
{
	struct strvec files = STRVEC_INIT;
	struct strbuf log = STRBUF_INIT;
	const char *p;
	size_t i;
	int n = 0;

	series_files(ctx, &files, 0);
	strbuf_read_file(&log, ctx->log, 64 << 20);
	for (p = strbuf_str(&log); *p; ) {
		size_t len = strcspn(p, "\n");

		for (i = 0; i < files.nr; i++) {
			size_t fl = strlen(files.v[i]);
			const char *at = strstr(p, files.v[i]);

			if (at && at < p + len && at[fl] == ':' &&
			    strstr(at, ": warning:") &&
			    strstr(at, ": warning:") < p + len) {
				strbuf_addf(&r->detail, "%.*s\n", (int)len, p);
				n++;
				break;
			}
		}
		p += len + !!p[len];
	}
	strvec_clear(&files);
	strbuf_release(&log);
	return n;
}

/* ccache's hit and miss counters (all builds of this machine). */
static int ccache_counts(long *hits, long *misses)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	const char *p;

	*hits = *misses = 0;
	strvec_pushl(&c.args, "ccache", "--print-stats", NULL);
	c.out = &out;
	c.log = "/dev/null";
	if (run_child(&c)) {
		child_clear(&c);
		strbuf_release(&out);
		return -1;
	}
	for (p = strbuf_str(&out); *p; p += strcspn(p, "\n") + !!p[strcspn(p, "\n")]) {
		if (!strncmp(p, "direct_cache_hit\t", 17) ||
		    !strncmp(p, "preprocessed_cache_hit\t", 23))
			*hits += atol(strchr(p, '\t') + 1);
		else if (!strncmp(p, "cache_miss\t", 11))
			*misses += atol(strchr(p, '\t') + 1);
	}
	child_clear(&c);
	strbuf_release(&out);
	return 0;
}

enum step_status build_kernel(struct verify_ctx *ctx, struct step_result *r)
{
	int objects = ctx->opt->mode == BUILD_OBJECTS ||
		      distro_config(ctx->opt);
	struct child c = CHILD_INIT;
	long h0 = 0, m0 = 0, h1, m1;
	int ret, warnings, ccache;

	ccache = make_args(ctx, &c) && !ccache_counts(&h0, &m0);
	strvec_push(&c.args, objects ? "arch/x86/kvm/" : "bzImage");
	ret = step_run(ctx, r, &c);
	child_clear(&c);
	ctx->ccache_hits = ctx->ccache_misses = -1;
	if (ccache && !ccache_counts(&h1, &m1)) {
		ctx->ccache_hits = h1 - h0;
		ctx->ccache_misses = m1 - m0;
	}
	if (ret)
		return STEP_FAIL;
	warnings = new_warnings(ctx, r);
	if (warnings) {
		strbuf_addf(&r->reason, "%d compiler warning(s) in files the series touches",
			    warnings);
		return STEP_FAIL;
	}
	ctx->kernel_built = !objects;
	strbuf_addstr(&r->reason, objects ? "arch/x86/kvm/ objects built" :
			"bzImage built");
	if (ctx->ccache_hits >= 0)
		strbuf_addf(&r->reason, "; ccache %ld hits, %ld misses",
			    ctx->ccache_hits, ctx->ccache_misses);
	return STEP_PASS;
}
