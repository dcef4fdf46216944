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

enum step_status build_kernel(struct verify_ctx *ctx, struct step_result *r)
{
	int objects = ctx->opt->mode == BUILD_OBJECTS;
	struct child c = CHILD_INIT;
	int ret, warnings;

	make_args(ctx, &c);
	strvec_push(&c.args, objects ? "arch/x86/kvm/" : "bzImage");
	ret = step_run(ctx, r, &c);
	child_clear(&c);
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
	return STEP_PASS;
}
