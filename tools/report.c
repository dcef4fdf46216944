// SPDX-License-Identifier: GPL-2.0
/*
 * Reports: a table on stdout, results/<target>/report.json, and
 * results/<target>/junit.xml (one testcase per step and per guest test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "verify.h"

#define TAIL_LINES 15

static const char *const test_status_names[] = {
	[TEST_PASS] = "PASS", [TEST_FAIL] = "FAIL", [TEST_SKIP] = "SKIP",
};

static void print_tail(const char *text)
{
	const char *p = text + strlen(text);
	int n = 0;

	while (p > text && n <= TAIL_LINES)
		if (*--p == '\n')
			n++;
	if (p != text)
		p++;
	for (; *p; ) {
		size_t len = strcspn(p, "\n");

		printf("      | %.*s\n", (int)len, p);
		p += len + !!p[len];
	}
}

void report_text(const struct verify_ctx *ctx,
		 const struct step_result *res, int n)
{
	size_t i;
	int s;

	printf("\n%s (%s)\n", ctx->t->name, ctx->t->source);
	if (ctx->kernel)
		printf("  kernel: Debian's %s-amd64 (%s %s), patched KVM modules\n",
		       ctx->deb_abi, ctx->deb_image, ctx->deb_version);
	printf("  %-11s %-5s %8s  %s\n", "STEP", "STATUS", "TIME", "REASON");
	for (s = 0; s < n; s++) {
		const struct step_result *r = &res[s];

		printf("  %-11s %-5s %7.1fs  %s\n", verify_steps[s].name,
		       step_status_name(r->status), r->seconds,
		       strbuf_str(&r->reason));
		if (r->status != STEP_FAIL)
			continue;
		printf("      log: %s\n", r->log);
		if (r->detail.len)
			print_tail(r->detail.buf);
	}
	for (i = 0; i < ctx->tests.nr; i++) {
		const struct test_case *tc = &ctx->tests.v[i];

		if (!i)
			printf("  guest tests (%s):\n", ctx->accel);
		printf("    %-4s %s%s%s\n", test_status_names[tc->status],
		       tc->name, tc->reason ? ": " : "",
		       tc->reason ? tc->reason : "");
	}
	printf("  report: %s/report.json, %s/junit.xml\n", ctx->results,
	       ctx->results);
}

static void json_str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c == '\n')
			strbuf_addstr(sb, "\\n");
		else if (c == '\t')
			strbuf_addstr(sb, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\u%04x", c);
		else
			strbuf_addch(sb, c);
	}
	strbuf_addch(sb, '"');
}

static void json_tests(struct strbuf *sb, const struct ktap_result *k)
{
	size_t i;

	strbuf_addstr(sb, ",\n  \"tests\": [");
	for (i = 0; i < k->nr; i++) {
		strbuf_addstr(sb, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
		json_str(sb, k->v[i].name);
		strbuf_addstr(sb, ", \"status\": ");
		json_str(sb, test_status_names[k->v[i].status]);
		strbuf_addstr(sb, ", \"reason\": ");
		json_str(sb, k->v[i].reason ? k->v[i].reason : "");
		strbuf_addstr(sb, "}");
	}
	strbuf_addstr(sb, k->nr ? "\n  ]" : "]");
}

static int overall(const struct step_result *res, int n)
{
	int s;

	for (s = 0; s < n; s++)
		if (res[s].status == STEP_FAIL)
			return 0;
	return 1;
}

int report_json(const struct verify_ctx *ctx, const struct step_result *res,
		int n, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/report.json", ctx->results);
	int s, ret;

	strbuf_addstr(&sb, "{\n  \"target\": ");
	json_str(&sb, ctx->t->name);
	strbuf_addstr(&sb, ",\n  \"source\": ");
	json_str(&sb, ctx->t->source);
	strbuf_addstr(&sb, ",\n  \"series\": ");
	json_str(&sb, ctx->series_rel ? ctx->series_rel : "");
	strbuf_addstr(&sb, ",\n  \"na_reason\": ");
	json_str(&sb, ctx->na_reason ? ctx->na_reason : "");
	strbuf_addstr(&sb, ",\n  \"source_key\": ");
	json_str(&sb, ctx->src_key ? ctx->src_key : "");
	strbuf_addstr(&sb, ",\n  \"boot\": ");
	json_str(&sb, distro_boot(ctx) ? "distro" : "own");
	if (ctx->kernel) {
		strbuf_addf(&sb, ",\n  \"kernel\": \"%s-amd64\"", ctx->deb_abi);
		strbuf_addstr(&sb, ",\n  \"image\": ");
		json_str(&sb, ctx->deb_image);
		strbuf_addstr(&sb, ",\n  \"image_version\": ");
		json_str(&sb, ctx->deb_version);
	}
	strbuf_addstr(&sb, ",\n  \"accel\": ");
	json_str(&sb, ctx->accel ? ctx->accel : "");
	strbuf_addf(&sb, ",\n  \"ccache\": {\"hits\": %ld, \"misses\": %ld}",
		    ctx->ccache_hits, ctx->ccache_misses);
	strbuf_addf(&sb, ",\n  \"interrupted\": %s,\n  \"passed\": %s",
		    run_interrupted() ? "true" : "false",
		    overall(res, n) ? "true" : "false");
	strbuf_addstr(&sb, ",\n  \"steps\": [");
	for (s = 0; s < n; s++) {
		strbuf_addstr(&sb, s ? ",\n    {\"name\": " : "\n    {\"name\": ");
		json_str(&sb, verify_steps[s].name);
		strbuf_addstr(&sb, ", \"status\": ");
		json_str(&sb, step_status_name(res[s].status));
		strbuf_addf(&sb, ", \"seconds\": %.3f, \"reason\": ",
			    res[s].seconds);
		json_str(&sb, strbuf_str(&res[s].reason));
		strbuf_addstr(&sb, ", \"log\": ");
		json_str(&sb, res[s].log);
		strbuf_addstr(&sb, ", \"detail\": ");
		json_str(&sb, strbuf_str(&res[s].detail));
		strbuf_addstr(&sb, "}");
	}
	strbuf_addstr(&sb, "\n  ]");
	json_tests(&sb, &ctx->tests);
	strbuf_addstr(&sb, "\n}\n");
	ret = write_file_atomic(path, sb.buf, sb.len);
	if (ret)
		strbuf_addf(err, "cannot write %s", path);
	strbuf_release(&sb);
	free(path);
	return ret;
}

static void xml_str(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '<')
			strbuf_addstr(sb, "&lt;");
		else if (c == '>')
			strbuf_addstr(sb, "&gt;");
		else if (c == '&')
			strbuf_addstr(sb, "&amp;");
		else if (c == '"')
			strbuf_addstr(sb, "&quot;");
		else if (c < 0x20 && c != '\n' && c != '\t')
			strbuf_addstr(sb, "?");
		else
			strbuf_addch(sb, c);
	}
}

static void junit_case(struct strbuf *sb, const char *cls, const char *name,
		       double secs, int status, const char *reason,
		       const char *detail)
{
	strbuf_addstr(sb, "    <testcase classname=\"");
	xml_str(sb, cls);
	strbuf_addstr(sb, "\" name=\"");
	xml_str(sb, name);
	strbuf_addf(sb, "\" time=\"%.3f\"", secs);
	if (status == STEP_PASS) {
		strbuf_addstr(sb, "/>\n");
		return;
	}
	strbuf_addstr(sb, ">\n      <");
	strbuf_addstr(sb, status == STEP_FAIL ? "failure" : "skipped");
	strbuf_addstr(sb, " message=\"");
	if (status == STEP_NA)
		strbuf_addstr(sb, "n/a: ");
	xml_str(sb, reason);
	strbuf_addstr(sb, "\">");
	xml_str(sb, detail);
	strbuf_addf(sb, "</%s>\n    </testcase>\n",
		    status == STEP_FAIL ? "failure" : "skipped");
}

static int test_to_step(enum test_status s)
{
	return s == TEST_PASS ? STEP_PASS : s == TEST_FAIL ? STEP_FAIL :
	       STEP_SKIP;
}

int report_junit(const struct verify_ctx *ctx, const struct step_result *res,
		 int n, struct strbuf *err)
{
	const struct ktap_result *k = &ctx->tests;
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/junit.xml", ctx->results);
	char *cls = xstrfmt("kverify.%s", ctx->t->name);
	int s, fails = 0, skips = 0, ret;
	size_t i;

	for (s = 0; s < n; s++) {
		fails += res[s].status == STEP_FAIL;
		skips += res[s].status == STEP_SKIP || res[s].status == STEP_NA;
	}
	fails += ktap_count(k, TEST_FAIL);
	skips += ktap_count(k, TEST_SKIP);
	strbuf_addstr(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"");
	xml_str(&sb, cls);
	strbuf_addf(&sb, "\" tests=\"%zu\" failures=\"%d\" skipped=\"%d\">\n",
		    n + k->nr, fails, skips);
	for (s = 0; s < n; s++)
		junit_case(&sb, cls, verify_steps[s].name, res[s].seconds,
			   res[s].status, strbuf_str(&res[s].reason),
			   strbuf_str(&res[s].detail));
	for (i = 0; i < k->nr; i++)
		junit_case(&sb, cls, k->v[i].name, 0,
			   test_to_step(k->v[i].status),
			   k->v[i].reason ? k->v[i].reason : "",
			   k->v[i].output ? k->v[i].output : "");
	strbuf_addstr(&sb, "  </testsuite>\n</testsuites>\n");
	ret = write_file_atomic(path, sb.buf, sb.len);
	if (ret)
		strbuf_addf(err, "cannot write %s", path);
	strbuf_release(&sb);
	free(path);
	free(cls);
	return ret;
}
