// SPDX-License-Identifier: GPL-2.0
/*
 * Reports: a table on stdout, results/<target>/report.json, and
 * results/<target>/junit.xml (one testcase per step and per guest test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "core/series.h"
#include "core/toolout.h"
#include "kernels/kernel.h"
#include "lib/fsutil.h"
#include "lib/json.h"
#include "report.h"
#include "report_int.h"
#include "steps/step_boot.h"
#include "steps/step_sim.h"
#include "version.h"

/* report.json's layout version (docs/report.md); 1 had no "schema". */
#define REPORT_SCHEMA 2

#define TAIL_LINES 15

/*
 * An interrupted run's reports go beside the last complete run's,
 * report.interrupted.json beside report.json: "" or ".interrupted".
 */
const char *interrupted_infix(const struct verify_ctx *ctx)
{
	return ctx->interrupted ? ".interrupted" : "";
}

static const char *const test_status_names[] = {
	[TEST_PASS] = "PASS", [TEST_FAIL] = "FAIL", [TEST_SKIP] = "SKIP",
};

/* @s as the terminal may show it: no ESC, no invalid UTF-8. */
static const char *term(struct strbuf *sb, const char *s)
{
	strbuf_reset(sb);
	term_escape(sb, s);
	return sb->buf;
}

static void print_tail(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = text + strlen(text);
	struct line l;
	int n = 0;

	while (p > text && n <= TAIL_LINES)
		if (*--p == '\n')
			n++;
	if (p != text)
		p++;
	for_each_line(l, p) {
		char *line = xstrfmt("%.*s", (int)l.len, l.s);

		printf("      | %s\n", term(&sb, line));
		free(line);
	}
	strbuf_release(&sb);
}

/*
 * The columns a reason has on a terminal: what is left of its width after
 * "  STEP STATUS TIME  " (@w: the step column); 0, uncut, when stdout is
 * no terminal (a file or a pipe keeps the whole reason, as report.json).
 */
static size_t reason_columns(int w)
{
	struct winsize ws;
	int used = 2 + w + 1 + 5 + 1 + 8 + 2;

	if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) ||
	    !ws.ws_col)
		return 0;
	return ws.ws_col > used + 20 ? ws.ws_col - used : 20;
}

/* @sb cut to @cols characters, its last one "…", when it is longer. */
static const char *cut_to(struct strbuf *sb, size_t cols)
{
	size_t chars = 0, i, last = 0;

	if (!cols)
		return sb->buf;
	for (i = 0; i < sb->len; i++) {
		if (((unsigned char)sb->buf[i] & 0xc0) == 0x80)
			continue;
		if (chars++ == cols) {
			strbuf_setlen(sb, last);
			strbuf_addstr(sb, "\xe2\x80\xa6");
			break;
		}
		last = i;
	}
	return sb->buf;
}

void report_text(const struct verify_ctx *ctx,
		 const struct step_result *res, int n)
{
	struct strbuf sb = STRBUF_INIT;
	struct kernel_desc kd;
	size_t i, cols;
	int s, w = 11;

	printf("\n%s (%s)\n", ctx->t->name, ctx->t->source);
	if (!kernel_describe(ctx, &kd) && ctx->built.kernel_built)
		printf("  kernel: Debian's %s (%s %s), patched KVM modules\n",
		       kd.release, kd.package, kd.version);
	/* 11: "checkpatch"; wider for --flavours' "config:cloud-amd64" */
	for (s = 0; s < n; s++)
		if ((int)strlen(res[s].name) > w)
			w = strlen(res[s].name);
	cols = reason_columns(w);
	printf("  %-*s %-5s %8s  %s\n", w, "STEP", "STATUS", "TIME", "REASON");
	for (s = 0; s < n; s++) {
		const struct step_result *r = &res[s];

		term(&sb, r->reason.buf);
		printf("  %-*s %-5s %7.1fs  %s\n", w, res[s].name,
		       step_status_name(r->status), r->seconds,
		       cut_to(&sb, cols));
		if (r->status != STEP_FAIL && r->status != STEP_ERROR)
			continue;
		printf("      log: %s\n", r->log);
		if (r->detail.len)
			print_tail(r->detail.buf);
	}
	for (i = 0; i < boot_of(ctx)->tests.nr; i++) {
		const struct test_case *tc = &boot_of(ctx)->tests.v[i];

		if (!i)
			printf("  guest tests (%s):\n", boot_of(ctx)->accel);
		printf("    %-4s %s", test_status_names[tc->status],
		       term(&sb, tc->name));
		printf("%s%s\n", tc->reason ? ": " : "",
		       tc->reason ? term(&sb, tc->reason) : "");
	}
	printf("  report: %s/report%s.json, %s/junit%s.xml%s\n", ctx->results,
	       interrupted_infix(ctx), ctx->results, interrupted_infix(ctx),
	       ctx->interrupted ? " (interrupted; report.json stays the last complete run's)" : "");
	strbuf_release(&sb);
}

/*
 * "T=0:1000000 T=1:500000": one of the sim step's figures (@p), one
 * callback each, with @key ("reprograms", "reads").
 */
static void sim_figures(const char *p, const char *key,
			void (*fn)(struct strbuf *, const char *, const char *,
				   const char *, int),
			struct strbuf *sb)
{
	int i = 0;

	while (*p) {
		char t[32], v[32];
		int n = 0;

		if (sscanf(p, "T=%31[0-9]:%31[0-9.]%n", t, v, &n) != 2 || !n)
			break;
		fn(sb, key, t, v, i++);
		p += n;
		while (*p == ' ')
			p++;
	}
}

static void json_figure(struct strbuf *sb, const char *key, const char *t,
			const char *v, int i)
{
	(void)key;
	strbuf_addf(sb, "%s\"%s\": %s", i ? ", " : "", t, v);
}

/* What the sim step ran and its figure, for dashboards. */
static void json_sim(struct strbuf *sb, const struct verify_ctx *ctx)
{
	if (!sim_of(ctx)->era)
		return;
	strbuf_addstr(sb, ",\n  \"sim\": {\"era\": ");
	json_escape(sb, sim_of(ctx)->era);
	strbuf_addf(sb, ", \"traces\": %ld, \"traces_asked\": %ld, \"seed\": %llu, \"reprograms_per_million_emulated\": {",
		    sim_of(ctx)->traces, sim_of(ctx)->traces_asked, sim_of(ctx)->seed);
	sim_figures(sim_of(ctx)->figures.buf, "reprograms", json_figure, sb);
	strbuf_addstr(sb, "}, \"reads_per_million_emulated\": {");
	sim_figures(sim_of(ctx)->reads.buf, "reads", json_figure, sb);
	strbuf_addstr(sb, "}}");
}

static void json_tests(struct strbuf *sb, const struct ktap_result *k)
{
	size_t i;

	strbuf_addstr(sb, ",\n  \"tests\": [");
	for (i = 0; i < k->nr; i++) {
		strbuf_addstr(sb, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
		json_escape(sb, k->v[i].name);
		json_field(sb, " ", "status", test_status_names[k->v[i].status]);
		strbuf_addf(sb, ", \"seconds\": %.2f, \"reason\": ",
			    k->v[i].seconds);
		json_escape(sb, k->v[i].reason ? k->v[i].reason : "");
		strbuf_addstr(sb, "}");
	}
	strbuf_addstr(sb, k->nr ? "\n  ]" : "]");
}

static int overall(const struct step_result *res, int n)
{
	int s;

	for (s = 0; s < n; s++)
		if (res[s].status == STEP_FAIL || res[s].status == STEP_ERROR)
			return 0;
	return 1;
}

/* "2026-11-30T15:50:00Z", or "" for an unset time. */
static void iso_time(char *buf, size_t len, time_t t)
{
	struct tm tm;

	buf[0] = '\0';
	if (t && gmtime_r(&t, &tm))
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The first line of "TOOL ARG" (its version), or NULL. */
static char *tool_version(const char *tool, const char *arg)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	char *line = NULL;

	if (!path_has(tool))
		return NULL;
	strvec_pushl(&c.args, tool, arg, NULL);
	c.out = &out;
	c.timeout = 10;
	if (!run_child(&c) && out.len)
		line = xstrfmt("%.*s", (int)strcspn(out.buf, "\n"), out.buf);
	child_clear(&c);
	strbuf_release(&out);
	return line;
}

static void json_tool(struct strbuf *sb, const char *key, const char *tool,
		      const char *arg, int first)
{
	char *v = tool_version(tool, arg);

	strbuf_addf(sb, "%s\"%s\": ", first ? "" : ", ", key);
	if (v)
		json_escape(sb, v);
	else
		strbuf_addstr(sb, "null");
	free(v);
}

/* Debian source package and version of a deb: source, else null. */
static void json_package(struct strbuf *sb, const struct verify_ctx *ctx)
{
	strbuf_addstr(sb, ",\n  \"package\": ");
	if (ctx->t->kind != SRC_DEB || !ctx->fetch.source.deb_version) {
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addstr(sb, "{\"name\": ");
	json_escape(sb, ctx->t->deb_package);
	json_field(sb, " ", "version", ctx->fetch.source.deb_version);
	strbuf_addstr(sb, "}");
}

/* @path below @dir as a relative path; anything else as given. */
static void json_rel(struct strbuf *sb, const char *dir, const char *path)
{
	size_t n = strlen(dir);

	if (path && !strncmp(path, dir, n) && path[n] == '/')
		path += n + 1;
	json_escape(sb, path);
}

/* Write SB to PATH whole or not at all, and release it. */
int write_report(const char *path, struct strbuf *sb, struct strbuf *err)
{
	int ret = write_file_atomic(path, sb->buf, sb->len);

	if (ret)
		strbuf_addf(err, "cannot write %s", path);
	strbuf_release(sb);
	return ret;
}

/*
 * The compiler that built this run's objects, as the objects say it
 * (their ELF .comment): for BOOT=distro the modules built against
 * Debian's headers, maybe in a chroot of the kernel's own release with
 * its gcc-14; else vmlinux or the arch/x86/kvm objects.  NULL when the
 * build step did not build (then the compiler it would run is named).
 */
static char *built_compiler(const struct verify_ctx *ctx,
			    const struct step_result *res, int n)
{
	static const char *const objects[] = {
		"vmlinux", "arch/x86/kvm/kvm.ko", "arch/x86/kvm/pmu.o",
	};
	char *path, *cc = NULL;
	size_t i;
	int s;

	for (s = 0; s < n; s++)
		if (!strcmp(res[s].name, "build") &&
		    res[s].status != STEP_PASS && res[s].status != STEP_FAIL)
			return NULL;
	if (kernel_of(ctx)->prebuilt) {
		path = xstrfmt("%s/arch/x86/kvm/kvm.ko", ctx->tree);
		cc = elf_compiler(path);
		free(path);
		return cc;
	}
	for (i = 0; !cc && i < ARRAY_SIZE(objects); i++) {
		path = xstrfmt("%s/%s", build_dir(ctx), objects[i]);
		cc = elf_compiler(path);
		free(path);
	}
	return cc;
}

/* The compiler: the one that built the objects, else the one make runs. */
char *report_compiler(const struct verify_ctx *ctx,
		      const struct step_result *res, int n)
{
	const char *kcc = ctx->opt->kernel_cc;
	char *cc = built_compiler(ctx, res, n);

	return cc ? cc : tool_version(kcc && *kcc ? kcc : "gcc", "--version");
}

/*
 * What a run of this target costs on an empty cache: the longest each step
 * has taken here, summed.  $cache/costs/<target> keeps that maximum, a
 * "STEP SECONDS" line per step, raised by every run: a warm run's build is
 * "up to date" in a second and its fetch "cached", so its own seconds say
 * nothing of what a CI job with a cold cache pays.  A cold run's is what
 * .ci/cold-seconds, kverify matrix's committed table, is measured from.
 * A step that never ran on this cache counts 0.
 */
static double cold_seconds(const struct verify_ctx *ctx,
			   const struct step_result *res, int n)
{
	char *path = cache_path(ctx, "costs/%s", ctx->t->name), *dir;
	double *most = calloc(n ? n : 1, sizeof(*most)), sum = 0;
	struct strbuf sb = STRBUF_INIT;
	int s, changed = 0;
	struct line l;

	if (!most)
		abort();
	if (strbuf_read_file(&sb, path, 1 << 16) >= 0) {
		for_each_line(l, sb.buf) {
			char name[64];
			double secs;

			if (sscanf(l.s, "%63s %lf", name, &secs) != 2)
				continue;
			for (s = 0; s < n; s++)
				if (!strcmp(name, res[s].name) && secs > most[s])
					most[s] = secs;
		}
	}
	strbuf_reset(&sb);
	for (s = 0; s < n; s++) {
		if ((res[s].status == STEP_PASS || res[s].status == STEP_FAIL) &&
		    res[s].seconds > most[s]) {
			most[s] = res[s].seconds;
			changed = 1;
		}
		sum += most[s];
		if (most[s] > 0)
			strbuf_addf(&sb, "%s %.3f\n", res[s].name, most[s]);
	}
	dir = cache_path(ctx, "costs");
	if (changed && !run_interrupted() && !mkdir_p(dir))
		write_file_atomic(path, sb.buf, sb.len);
	free(dir);
	strbuf_release(&sb);
	free(most);
	free(path);
	return sum;
}

/* "tools": kverify's version, the compiler @cc, make, quilt, spatch, qemu. */
static void json_tools(struct strbuf *sb, const char *cc)
{
	strbuf_addstr(sb, ",\n  \"tools\": {\"kverify\": ");
	json_escape(sb, kverify_version);
	strbuf_addstr(sb, ", \"compiler\": ");
	if (cc)
		json_escape(sb, cc);
	else
		strbuf_addstr(sb, "null");
	json_tool(sb, "make", "make", "--version", 0);
	json_tool(sb, "quilt", "quilt", "--version", 0);
	json_tool(sb, "spatch", "spatch", "--version", 0);
	json_tool(sb, "qemu", "qemu-system-x86_64", "--version", 0);
	strbuf_addstr(sb, "}");
}

/* ",\n  "@key": @value", null for NULL. */
static void json_field_or_null(struct strbuf *sb, const char *key,
			       const char *value)
{
	if (value)
		json_field(sb, "\n  ", key, value);
	else
		strbuf_addf(sb, ",\n  \"%s\": null", key);
}

/*
 * What names the series as posted (struct series): "series_revision",
 * "change_id", "message_id" (null when absent) and KCIDB's
 * "patchset_hash".
 */
static void json_posting(struct strbuf *sb, const struct series *ser)
{
	char *psh = ser->dir ? series_patchset_hash(ser) : NULL;

	strbuf_addstr(sb, ",\n  \"series_revision\": ");
	if (ser->revision)
		strbuf_addf(sb, "%d", ser->revision);
	else
		strbuf_addstr(sb, "null");
	json_field_or_null(sb, "change_id", ser->change_id);
	json_field_or_null(sb, "message_id", ser->message_id);
	json_field_or_null(sb, "patchset_hash", psh);
	free(psh);
}

int report_json(const struct verify_ctx *ctx, const struct step_result *res,
		int n, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/report%s.json", ctx->results,
			     interrupted_infix(ctx));
	char *cc = report_compiler(ctx, res, n);
	char *console = xstrfmt("%s/console.log", ctx->results);
	struct kernel_desc kd;
	char t0[32], t1[32];
	int s, ret;

	iso_time(t0, sizeof(t0), ctx->started);
	iso_time(t1, sizeof(t1), ctx->finished);
	strbuf_addf(&sb, "{\n  \"schema\": %d,\n  \"target\": ", REPORT_SCHEMA);
	json_escape(&sb, ctx->t->name);
	json_field(&sb, "\n  ", "source", ctx->t->source);
	json_package(&sb, ctx);
	json_field(&sb, "\n  ", "series", series_of(ctx)->rel);
	json_posting(&sb, series_of(ctx));
	json_field(&sb, "\n  ", "na_reason", series_of(ctx)->na_reason);
	json_field(&sb, "\n  ", "source_key", ctx->fetch.source.src_key);
	json_field(&sb, "\n  ", "started", t0);
	json_field(&sb, "\n  ", "finished", t1);
	strbuf_addf(&sb, ",\n  \"seconds\": %ld",
		    ctx->finished && ctx->started ?
		    (long)(ctx->finished - ctx->started) : 0L);
	strbuf_addf(&sb, ",\n  \"cold_seconds\": %.0f",
		    cold_seconds(ctx, res, n));
	strbuf_addstr(&sb, ",\n  \"kernel_release\": ");
	if (boot_of(ctx)->kernel_release)
		json_escape(&sb, boot_of(ctx)->kernel_release);
	else
		strbuf_addstr(&sb, "null");
	json_field(&sb, "\n  ", "boot", kernel_of(ctx)->boot);
	if (ctx->config.boot_why)
		json_field(&sb, "\n  ", "boot_why", ctx->config.boot_why);
	if (!kernel_describe(ctx, &kd) && ctx->built.kernel_built) {
		json_field(&sb, "\n  ", "kernel", kd.release);
		json_field(&sb, "\n  ", "image", kd.package);
		json_field(&sb, "\n  ", "image_version", kd.version);
	}
	json_field(&sb, "\n  ", "accel", boot_of(ctx)->accel);
	strbuf_addstr(&sb, ",\n  \"console\": ");
	if (is_file(console))
		json_escape(&sb, "console.log");
	else
		strbuf_addstr(&sb, "null");
	json_tools(&sb, cc);
	strbuf_addf(&sb, ",\n  \"ccache\": {\"hits\": %ld, \"misses\": %ld}",
		    ctx->built.ccache_hits, ctx->built.ccache_misses);
	strbuf_addf(&sb, ",\n  \"interrupted\": %s,\n  \"passed\": %s",
		    ctx->interrupted ? "true" : "false",
		    overall(res, n) ? "true" : "false");
	strbuf_addstr(&sb, ",\n  \"steps\": [");
	for (s = 0; s < n; s++) {
		strbuf_addstr(&sb, s ? ",\n    {\"name\": " : "\n    {\"name\": ");
		json_escape(&sb, res[s].name);
		json_field(&sb, " ", "status", step_status_name(res[s].status));
		strbuf_addf(&sb, ", \"seconds\": %.3f, \"cpu_seconds\": %.3f, \"reason\": ",
			    res[s].seconds, res[s].cpu_seconds);
		json_escape(&sb, res[s].reason.buf);
		strbuf_addstr(&sb, ", \"log\": ");
		json_rel(&sb, ctx->results, res[s].log);
		json_field(&sb, " ", "detail", res[s].detail.buf);
		strbuf_addstr(&sb, "}");
	}
	strbuf_addstr(&sb, "\n  ]");
	json_sim(&sb, ctx);
	json_tests(&sb, &boot_of(ctx)->tests);
	strbuf_addstr(&sb, "\n}\n");
	ret = write_report(path, &sb, err);
	free(cc);
	free(console);
	free(path);
	return ret;
}

static void xml_figure(struct strbuf *sb, const char *key, const char *t,
		       const char *v, int i)
{
	(void)i;
	strbuf_addf(sb, "      <property name=\"sim.%s_per_million_emulated.tolerance_%s\" value=\"%s\"/>\n",
		    key, t, v);
}

static void xml_str(struct strbuf *sb, const char *s)
{
	xml_escape(sb, s);
}

/* One testcase; @status is a step status (a guest test's, mapped). */
static void junit_case(struct strbuf *sb, const char *cls, const char *name,
		       double secs, int status, const char *reason,
		       const char *detail)
{
	static const char *const elem[] = {
		[STEP_FAIL] = "failure", [STEP_ERROR] = "error",
		[STEP_SKIP] = "skipped", [STEP_NA] = "skipped",
	};

	strbuf_addstr(sb, "    <testcase classname=\"");
	xml_str(sb, cls);
	strbuf_addstr(sb, "\" name=\"");
	xml_str(sb, name);
	strbuf_addf(sb, "\" time=\"%.3f\"", secs);
	if (status == STEP_PASS) {
		strbuf_addstr(sb, "/>\n");
		return;
	}
	strbuf_addf(sb, ">\n      <%s", elem[status]);
	if (status == STEP_FAIL || status == STEP_ERROR)
		strbuf_addf(sb, " type=\"%s\"", step_status_name(status));
	strbuf_addstr(sb, " message=\"");
	if (status == STEP_NA)
		strbuf_addstr(sb, "n/a: ");
	xml_str(sb, reason);
	strbuf_addstr(sb, "\">");
	xml_str(sb, detail);
	strbuf_addf(sb, "</%s>\n    </testcase>\n", elem[status]);
}

int test_to_step(enum test_status s)
{
	return s == TEST_PASS ? STEP_PASS : s == TEST_FAIL ? STEP_FAIL :
	       STEP_SKIP;
}

int report_junit(const struct verify_ctx *ctx, const struct step_result *res,
		 int n, struct strbuf *err)
{
	const struct ktap_result *k = &boot_of(ctx)->tests;
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/junit%s.xml", ctx->results,
			     interrupted_infix(ctx));
	char *cls = xstrfmt("kverify.%s", ctx->t->name);
	int s, fails = 0, errors = 0, skips = 0, ret;
	double total = 0;
	char stamp[32], host[256] = "";
	size_t i;

	for (s = 0; s < n; s++) {
		fails += res[s].status == STEP_FAIL;
		errors += res[s].status == STEP_ERROR;
		skips += res[s].status == STEP_SKIP || res[s].status == STEP_NA;
		total += res[s].seconds;
	}
	fails += ktap_count(k, TEST_FAIL);
	skips += ktap_count(k, TEST_SKIP);
	iso_time(stamp, sizeof(stamp), ctx->started);
	if (stamp[0])
		stamp[strlen(stamp) - 1] = '\0';	/* xs:dateTime, no zone */
	gethostname(host, sizeof(host) - 1);
	strbuf_addf(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"%zu\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n  <testsuite name=\"",
		    n + k->nr, fails, errors, total);
	xml_str(&sb, cls);
	strbuf_addf(&sb, "\" tests=\"%zu\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\"",
		    n + k->nr, fails, errors, skips, total);
	if (stamp[0])
		strbuf_addf(&sb, " timestamp=\"%s\"", stamp);
	strbuf_addstr(&sb, " hostname=\"");
	xml_str(&sb, host);
	strbuf_addstr(&sb, "\">\n");
	if (sim_of(ctx)->era) {
		strbuf_addstr(&sb, "    <properties>\n      <property name=\"sim.era\" value=\"");
		xml_str(&sb, sim_of(ctx)->era);
		strbuf_addf(&sb, "\"/>\n      <property name=\"sim.traces\" value=\"%ld\"/>\n",
			    sim_of(ctx)->traces);
		strbuf_addstr(&sb, "  ");
		sim_figures(sim_of(ctx)->figures.buf, "reprograms", xml_figure, &sb);
		sim_figures(sim_of(ctx)->reads.buf, "reads", xml_figure, &sb);
		strbuf_addstr(&sb, "    </properties>\n");
	}
	for (s = 0; s < n; s++)
		junit_case(&sb, cls, res[s].name, res[s].seconds,
			   res[s].status, res[s].reason.buf,
			   res[s].detail.buf);
	for (i = 0; i < k->nr; i++)
		junit_case(&sb, cls, k->v[i].name, k->v[i].seconds,
			   test_to_step(k->v[i].status),
			   k->v[i].reason ? k->v[i].reason : "",
			   k->v[i].output ? k->v[i].output : "");
	strbuf_addstr(&sb, "  </testsuite>\n</testsuites>\n");
	ret = write_report(path, &sb, err);
	free(path);
	free(cls);
	return ret;
}
