// SPDX-License-Identifier: GPL-2.0
/*
 * The KCIDB report: results/<target>/kcidb.json, the run as KernelCI's
 * common database takes it (make verify FORMAT=kcidb, docs/report.md).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/series.h"
#include "kernels/kernel.h"
#include "lib/json.h"
#include "report.h"
#include "report_int.h"
#include "steps/step_boot.h"
#include "version.h"

/* KCIDB wants RFC 3339 with a zone: "2026-11-30T15:50:00+00:00". */
static void kcidb_time(struct strbuf *sb, const char *key, time_t t)
{
	char buf[40];
	struct tm tm;

	if (!t || !gmtime_r(&t, &tm))
		return;
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
	strbuf_addf(sb, ", \"%s\": \"%s\"", key, buf);
}

/* A log excerpt within KCIDB's 16384 characters, cut at a line start. */
static void kcidb_excerpt(struct strbuf *sb, const char *detail)
{
	size_t n = strlen(detail), max = 16000;
	char *cut;

	if (!n)
		return;
	if (n > max) {
		detail += n - max;
		while (*detail && *detail != '\n')
			detail++;
	}
	cut = xstrdup(detail);
	json_field(sb, " ", "log_excerpt", cut);
	free(cut);
}

/* A test path component: KCIDB allows [.a-zA-Z0-9_-], dots separate. */
static void kcidb_path(struct strbuf *sb, const char *name)
{
	int under = 0;

	for (; *name; name++) {
		unsigned char c = *name;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-') {
			strbuf_addch(sb, c);
			under = 0;
		} else if (!under) {
			strbuf_addch(sb, '_');
			under = 1;
		}
	}
}

static const char *kcidb_status(int status)
{
	return status == STEP_PASS ? "PASS" : status == STEP_FAIL ? "FAIL" :
	       status == STEP_ERROR ? "ERROR" : "SKIP";
}

/*
 * A step that found its work done before ("up to date: ..."): it ran
 * nothing, so its seconds are no build's or check's duration.  KCIDB has
 * no status for it: it keeps its PASS (what the kept result says), and
 * reports no duration (KCIDB: an omitted property is "data is missing"),
 * the reason as its comment and misc.up_to_date.
 */
static int up_to_date(const char *reason)
{
	return reason && starts_with(reason, "up to date");
}

/* One test: path "kverify.<step>" or "kverify.guest.<name>". */
static void kcidb_test(struct strbuf *sb, const char *build_id, int i,
		       const char *prefix, const char *name, int status,
		       double secs,
		       const char *reason, const char *detail,
		       const struct verify_ctx *ctx)
{
	strbuf_addf(sb, "%s\n    {\"id\": \"%s:%d\", \"origin\": \"kverify\", \"build_id\": \"%s\", \"path\": \"",
		    i ? "," : "", build_id, i, build_id);
	strbuf_addstr(sb, prefix);
	kcidb_path(sb, name);
	strbuf_addf(sb, "\", \"status\": \"%s\"", kcidb_status(status));
	if (!up_to_date(reason))
		strbuf_addf(sb, ", \"duration\": %.3f", secs);
	kcidb_time(sb, "start_time", ctx->started);
	if (reason && *reason)
		json_field(sb, " ", "comment", reason);
	if (detail)
		kcidb_excerpt(sb, detail);
	if (boot_of(ctx)->accel && *boot_of(ctx)->accel) {
		strbuf_addstr(sb, ", \"environment\": {\"comment\": ");
		json_escape(sb, boot_of(ctx)->accel);
		strbuf_addstr(sb, "}");
	}
	if (up_to_date(reason))
		strbuf_addstr(sb, ", \"misc\": {\"up_to_date\": true}");
	strbuf_addstr(sb, "}");
}

/* The checkout: the source at its version with the series (@id). */
static void kcidb_checkout(struct strbuf *sb, const struct verify_ctx *ctx,
			   const char *id, const char *psh,
			   const struct step_result *apply)
{
	const struct series *ser = series_of(ctx);

	strbuf_addstr(sb, "\n    {\"id\": ");
	json_escape(sb, id);
	strbuf_addstr(sb, ", \"origin\": \"kverify\", \"tree_name\": ");
	json_escape(sb, ctx->t->name);
	json_field(sb, " ", "comment", ctx->t->source);
	if (psh)
		json_field(sb, " ", "patchset_hash", psh);
	if (ser->message_id)
		json_field(sb, " ", "message_id", ser->message_id);
	kcidb_time(sb, "start_time", ctx->started);
	if (apply && (apply->status == STEP_PASS || apply->status == STEP_FAIL))
		strbuf_addf(sb, ", \"valid\": %s",
			    apply->status == STEP_PASS ? "true" : "false");
	strbuf_addstr(sb, ", \"misc\": {\"series\": ");
	json_escape(sb, ser->rel ? ser->rel : "");
	if (ser->revision)
		strbuf_addf(sb, ", \"series_revision\": %d", ser->revision);
	if (ser->change_id)
		json_field(sb, " ", "change_id", ser->change_id);
	json_field(sb, " ", "source_key", ctx->fetch.source.src_key);
	if (ctx->fetch.source.deb_version)
		json_field(sb, " ", "source_version",
			   ctx->fetch.source.deb_version);
	strbuf_addstr(sb, "}}");
}

/*
 * This run's build (@build_id): a build step that found its build up to
 * date ran no compiler, so it has no duration here, only "valid" (the kept
 * build's), the reason and misc.up_to_date.
 */
static void kcidb_build(struct strbuf *sb, const struct verify_ctx *ctx,
			const char *id, const char *build_id,
			const struct step_result *b, const char *cc)
{
	char *cfg = kernel_of(ctx)->config_name(ctx);
	int kept = b && up_to_date(b->reason.buf);

	strbuf_addstr(sb, "\n    {\"id\": ");
	json_escape(sb, build_id);
	strbuf_addstr(sb, ", \"origin\": \"kverify\", \"checkout_id\": ");
	json_escape(sb, id);
	strbuf_addstr(sb, ", \"architecture\": \"x86_64\", \"config_name\": ");
	json_escape(sb, cfg);
	if (cc)
		json_field(sb, " ", "compiler", cc);
	kcidb_time(sb, "start_time", ctx->started);
	if (b && (b->status == STEP_PASS || b->status == STEP_FAIL)) {
		if (!kept)
			strbuf_addf(sb, ", \"duration\": %.3f", b->seconds);
		strbuf_addf(sb, ", \"valid\": %s",
			    b->status == STEP_PASS ? "true" : "false");
		if (kept)
			json_field(sb, " ", "comment", b->reason.buf);
		kcidb_excerpt(sb, b->detail.buf);
	}
	strbuf_addstr(sb, ", \"misc\": {\"kverify_version\": ");
	json_escape(sb, kverify_version);
	if (kept)
		strbuf_addstr(sb, ", \"up_to_date\": true");
	strbuf_addstr(sb, "}}");
	free(cfg);
}

/* The checkout's id: the same for every run of the same source and series. */
static void kcidb_checkout_id(struct strbuf *id, const struct verify_ctx *ctx,
			      const char *psh)
{
	strbuf_addstr(id, "kverify:");
	if (ctx->t->kind == SRC_DEB && ctx->fetch.source.deb_version)
		strbuf_addf(id, "%s=%s", ctx->t->deb_package,
			    ctx->fetch.source.deb_version);
	else
		strbuf_addstr(id, ctx->fetch.source.src_key ?
			      ctx->fetch.source.src_key : ctx->t->name);
	if (psh && *psh)
		strbuf_addf(id, "+%.16s", psh);
}

/*
 * results/<target>/kcidb.json: the run as KCIDB I/O schema v4.3 data
 * (KernelCI's common database): one checkout (the source with the series),
 * one build, one test per step ("kverify.<step>") and per guest test
 * ("kverify.guest.<name>"), origin "kverify".
 */
int report_kcidb(const struct verify_ctx *ctx, const struct step_result *res,
		 int n, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT, id = STRBUF_INIT;
	char *path = xstrfmt("%s/kcidb%s.json", ctx->results,
			     interrupted_infix(ctx));
	char *build_id, *cc = report_compiler(ctx, res, n), *psh;
	int s, b = -1, a = -1, ret, i = 0;
	size_t t;

	for (s = 0; s < n; s++) {
		if (!strcmp(res[s].name, "build"))
			b = s;
		else if (!strcmp(res[s].name, "apply"))
			a = s;
	}
	/*
	 * The checkout is the source at its version and the patches: the
	 * same id for every run of the same pair.  A build is a run's.
	 */
	psh = series_patchset_hash(series_of(ctx));
	kcidb_checkout_id(&id, ctx, psh);
	build_id = xstrfmt("%s:build:%s-%lld", id.buf, ctx->t->name,
			   (long long)ctx->started);
	strbuf_addstr(&sb, "{\"version\": {\"major\": 4, \"minor\": 3},\n \"checkouts\": [");
	kcidb_checkout(&sb, ctx, id.buf, psh, a >= 0 ? &res[a] : NULL);
	strbuf_addstr(&sb, "\n ],\n \"builds\": [");
	kcidb_build(&sb, ctx, id.buf, build_id, b >= 0 ? &res[b] : NULL, cc);
	strbuf_addstr(&sb, "\n ],\n \"tests\": [");
	for (s = 0; s < n; s++)
		kcidb_test(&sb, build_id, i++, "kverify.", res[s].name,
			   res[s].status, res[s].seconds,
			   res[s].reason.buf, res[s].detail.buf,
			   ctx);
	for (t = 0; t < boot_of(ctx)->tests.nr; t++) {
		const struct test_case *tc = &boot_of(ctx)->tests.v[t];

		kcidb_test(&sb, build_id, i++, "kverify.guest.", tc->name,
			   test_to_step(tc->status), tc->seconds, tc->reason,
			   tc->output, ctx);
	}
	strbuf_addstr(&sb, "\n ]\n}\n");
	ret = write_report(path, &sb, err);
	strbuf_release(&id);
	free(build_id);
	free(psh);
	free(cc);
	free(path);
	return ret;
}
