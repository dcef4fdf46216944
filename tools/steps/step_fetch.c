// SPDX-License-Identifier: GPL-2.0
/*
 * fetch: the target's pristine source (source.c), then for SERIES auto the
 * variant its shape needs (probe.c).  A source that cannot be had is an
 * ERROR; no variant that applies is the series' FAIL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/probe.h"
#include "core/series.h"
#include "kernels/kernel.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "sources/source.h"
#include "steps/steps.h"

/*
 * The kernel's packages (kernel_ops->prefetch: Debian's image and headers)
 * are fetched in a process of its own while the source unpacks: xz and tar
 * keep one core busy, apt and dpkg-deb take the other.  Its tools write a
 * log of their own, added to the step's when it ends.  The config step
 * finds the packages in the cache, or fetches them itself and says why.
 */
struct prefetch {
	const struct verify_ctx *ctx;
	pid_t pid;
	char *log;
};

static void prefetch_start(const struct source_req *req)
{
	struct prefetch *pf = req->data;
	const struct verify_ctx *ctx = pf->ctx;
	struct step_result r = STEP_RESULT_INIT("fetch");
	struct verify_ctx copy = *ctx;
	int ret;

	if (!ctx->kernel_ops->prefetch || !ctx->fetch.source.deb_version ||
	    pf->pid ||
	    step_skipped(ctx->opt, STEP_IDX_config))
		return;
	pf->log = xstrfmt("%s.packages", ctx->log);
	pf->pid = run_fork();
	if (pf->pid < 0)
		pf->pid = 0;
	if (pf->pid)
		return;
	run_set_tick(NULL, NULL);	/* the step's progress is the engine's */
	copy.log = pf->log;
	ret = ctx->kernel_ops->prefetch(&copy, &r);
	if (ret < 0) {
		FILE *f = fopen(pf->log, "a");

		if (f) {
			fprintf(f, "%s\n", r.reason.buf);
			fclose(f);
		}
	}
	_exit(ret < 0 ? EXIT_TOOL : ret);
}

/* Wait for it; an interrupt of the engine is passed on. */
static void prefetch_join(const struct verify_ctx *ctx, struct prefetch *pf,
			  struct fetch_out *out, struct step_result *r)
{
	struct strbuf text = STRBUF_INIT;
	int ws;

	if (!pf->pid)
		return;
	ws = run_join(pf->pid);
	strbuf_addstr(&text, "== the kernel's packages, fetched beside the source ==\n");
	if (!strbuf_read_file(&text, pf->log, 64 << 20))
		append_log(ctx->log, &text);
	unlink(pf->log);
	strbuf_release(&text);
	free(pf->log);
	out->packages_fetched = WIFEXITED(ws) && !WEXITSTATUS(ws);
	if (out->packages_fetched)
		strbuf_addstr(&r->reason, "; the kernel's packages fetched beside it");
}

static enum step_status fetch_source(const struct verify_ctx *ctx,
				     struct fetch_out *out, struct step_result *r)
{
	struct prefetch pf = { .ctx = ctx };
	const struct source_req req = {
		.t = ctx->t, .opt = ctx->opt, .cache = sources_dir(ctx->opt),
		.log = ctx->log, .timeout = ctx->timeout,
		.unpacking = prefetch_start, .data = &pf,
		.debian_config = ctx->kernel_ops->debian_config,
	};
	int ret = source_get(&req, &out->source, &r->reason, &r->detail);

	prefetch_join(ctx, &pf, out, r);
	if (ret)
		return STEP_ERROR;
	if (ctx->t->auto_series)
		return probe_series(ctx, out, r);
	return STEP_PASS;
}

static void fetch_clear(void *out)
{
	struct fetch_out *f = out;

	source_clear(&f->source);
	series_clear(&f->probed);
}

static enum step_status fetch_step_run(const struct verify_ctx *ctx, void *out,
				       struct step_result *r)
{
	return fetch_source(ctx, out, r);
}

const struct step fetch_step = {
	.name = "fetch",
	.run = fetch_step_run,
	.timeout = SOURCE_TIMEOUT,
	.flags = STEP_RUNS_WHEN_NA | STEP_SOURCE_ONLY,
	STEP_OUTPUT(fetch),
	.clear_out = fetch_clear,
};
