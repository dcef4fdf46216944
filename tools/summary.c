// SPDX-License-Identifier: GPL-2.0
/*
 * kverify summary: results/summary.md and results/index.html from the
 * reports already written (results/<target>/report.json): targets by steps
 * with status and time, each reason cut short with a link to its step's
 * log, and the sim's figures (reprograms and perf reads per million
 * emulated instructions against the tolerance) as an SVG plot; the sweep's
 * matrix and kverify latency's table (results/latency/table.txt) where
 * there is one.  Every string of a report, and the table, is untrusted: escaped for HTML and Markdown, and a
 * log is linked only when its path stays in the target's directory.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/escape.h"
#include "lib/json.h"
#include "lib/usage.h"
#include "report_read.h"
#include "summary.h"

#define REASON_CHARS 80

/* What one report.json holds that the summary shows. */
struct sum_target {
	char *dir;			/* results/<dir>/report.json */
	char *error;			/* the report could not be read */
	struct report_view v;
};

/* The rows of a table: report.json's targets, or the sweep's versions. */
struct sum_set {
	struct sum_target *t;
	size_t n, alloc;
	struct strvec cols;	/* the step names, in the order they first come */
	const char *what;	/* "target", "version" */
};

/* Read results/<t->dir>/report.json: 0, or -1 with t->error set. */
static int target_read(struct sum_target *t, const char *results)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s/report.json", results, t->dir);
	ret = report_read(&t->v, path.buf, &err);
	if (ret)
		t->error = strbuf_detach(&err, NULL);
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

static struct sum_target *set_add(struct sum_set *set)
{
	if (set->n == set->alloc) {
		set->alloc = set->alloc ? 2 * set->alloc : 16;
		set->t = xrealloc(set->t, set->alloc * sizeof(*set->t));
	}
	set->t[set->n] = (struct sum_target){ .v = REPORT_VIEW_INIT };
	return &set->t[set->n++];
}

/* One version of the sweep, read into a row: "package version". */
struct sweep_row {
	struct sum_target *t;
	char *package, *version;
};

static int version_member(struct json_parser *ps, const char *key,
			  void *data)
{
	struct sweep_row *r = data;

	if (!strcmp(key, "package"))
		return json_string(ps, &r->package);
	if (!strcmp(key, "version"))
		return json_string(ps, &r->version);
	if (!strcmp(key, "steps"))
		return report_steps(ps, &r->t->v);
	return json_skip(ps);
}

static int version_element(struct json_parser *ps, void *data)
{
	struct sweep_row r = { set_add(data), NULL, NULL };
	int ret = json_object(ps, version_member, &r);

	if (!ret && (!r.package || !r.version))
		ret = json_fail(ps, "a version without its package or version");
	if (!ret)
		r.t->dir = xstrfmt("%s %s", r.package, r.version);
	free(r.package);
	free(r.version);
	return ret;
}

static int sweep_member(struct json_parser *ps, const char *key, void *data)
{
	if (!strcmp(key, "versions"))
		return json_array(ps, version_element, data);
	return json_skip(ps);
}

static void set_clear(struct sum_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		report_view_clear(&set->t[i].v);
		free(set->t[i].dir);
		free(set->t[i].error);
	}
	free(set->t);
	set->t = NULL;
	set->n = set->alloc = 0;
	strvec_clear(&set->cols);
}

/* @results/sweep/sweep.json, if there is one: 0, or -1 (it says why). */
static int sweep_read(struct sum_set *set, const char *results)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&path, "%s/sweep/sweep.json", results);
	if (!access(path.buf, F_OK) &&
	    json_read_object(path.buf, sweep_member, set, &err)) {
		error("%s", err.buf);
		set_clear(set);
		ret = -1;
	}
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

/*
 * @results/latency/table.txt, kverify latency's table, into @table if
 * there is one: 0, or -1 (it says why).
 */
static int latency_read(struct strbuf *table, const char *results)
{
	char *path = xstrfmt("%s/latency/table.txt", results);
	int ret = 0;

	if (access(path, F_OK)) {
		/* none: nothing to show */
	} else if (strbuf_read_file(table, path, 1 << 20) < 0) {
		error("%s: cannot read it", path);
		ret = -1;
	} else if (strlen(table->buf) != table->len) {
		error("%s: byte %zu: a NUL byte", path, strlen(table->buf));
		ret = -1;
	}
	if (ret)
		strbuf_reset(table);
	free(path);
	return ret;
}

/* A name kept as it is in a link: letters, digits, ._- and '/', no "..". */
static int link_safe(const char *s, int slash)
{
	const char *p;

	if (!*s || *s == '/' || *s == '.' || strstr(s, ".."))
		return 0;
	for (p = s; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && !strchr("._-", *p) &&
		    !(slash && *p == '/'))
			return 0;
	return 1;
}

/* The reason's first REASON_CHARS characters (not bytes), "…" if cut. */
static char *reason_short(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	size_t chars = 0;

	for (; s && *s; s++) {
		if (!((unsigned char)*s & 0x80) || ((unsigned char)*s & 0x40))
			if (chars++ == REASON_CHARS) {
				strbuf_addstr(&sb, "\xe2\x80\xa6");
				break;
			}
		strbuf_addch(&sb, *s == '\n' || *s == '\t' ? ' ' : *s);
	}
	return strbuf_detach(&sb, NULL);
}

/* Markdown text: ASCII punctuation that is markup behind a backslash. */
static void md_escape(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\r' || *s == '\n')
			strbuf_addch(sb, ' ');
		else if (*s == '&')
			strbuf_addstr(sb, "&amp;");
		else if (strchr("\\`*_[]<>|#!()~", *s))
			strbuf_addf(sb, "\\%c", *s);
		else
			strbuf_addch(sb, *s);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directories of @results that hold a report.json, sorted. */
static size_t list_targets(const char *results, struct sum_target **out)
{
	struct strbuf path = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;
	struct dirent *de;
	DIR *d = opendir(results);
	size_t i;

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/report.json", results, de->d_name);
		if (!access(path.buf, F_OK))
			strvec_push(&names, de->d_name);
	}
	if (d)
		closedir(d);
	qsort(names.v, names.nr, sizeof(*names.v), cmp_str);
	*out = xmalloc((names.nr + 1) * sizeof(**out));
	for (i = 0; i < names.nr; i++)
		(*out)[i] = (struct sum_target){ .dir = xstrdup(names.v[i]),
						 .v = REPORT_VIEW_INIT };
	strbuf_release(&path);
	i = names.nr;
	strvec_clear(&names);
	return i;
}

/* The step names of every report, in the order they first come. */
static void step_columns(const struct sum_target *t, size_t n,
			 struct strvec *cols)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < t[i].v.nr; j++)
			if (!strvec_has(cols, t[i].v.steps[j].name))
				strvec_push(cols, t[i].v.steps[j].name);
}

static void md_cell(struct strbuf *md, const struct sum_target *t,
		    const struct report_step *s)
{
	strbuf_addstr(md, " ");
	if (!s) {
		strbuf_addstr(md, "|");
		return;
	}
	if (link_safe(t->dir, 0) && s->log && link_safe(s->log, 1))
		strbuf_addstr(md, "[");
	md_escape(md, s->status);
	if (s->seconds >= 0)
		strbuf_addf(md, " %.1fs", s->seconds);
	if (link_safe(t->dir, 0) && s->log && link_safe(s->log, 1))
		strbuf_addf(md, "](%s/%s)", t->dir, s->log);
	strbuf_addstr(md, " |");
}

static void md_reasons(struct strbuf *md, const struct sum_target *t)
{
	const struct report_step *s;
	size_t i;
	char *r;

	for (i = 0; i < t->v.nr; i++) {
		s = &t->v.steps[i];
		strbuf_addstr(md, "- ");
		md_escape(md, t->dir);
		strbuf_addstr(md, " ");
		md_escape(md, s->name);
		strbuf_addstr(md, " ");
		md_escape(md, s->status);
		strbuf_addstr(md, ": ");
		r = reason_short(s->reason);
		md_escape(md, r);
		free(r);
		if (link_safe(t->dir, 0) && s->log && link_safe(s->log, 1))
			strbuf_addf(md, " ([log](%s/%s))", t->dir, s->log);
		strbuf_addstr(md, "\n");
	}
}

static void md_table(struct strbuf *md, const struct sum_set *set)
{
	const struct strvec *cols = &set->cols;
	const struct sum_target *t = set->t;
	size_t i, j, n = set->n;

	strbuf_addf(md, "| %s |", set->what);
	for (j = 0; j < cols->nr; j++) {
		strbuf_addstr(md, " ");
		md_escape(md, cols->v[j]);
		strbuf_addstr(md, " |");
	}
	strbuf_addstr(md, "\n|---|");
	for (j = 0; j < cols->nr; j++)
		strbuf_addstr(md, "---|");
	for (i = 0; i < n; i++) {
		strbuf_addstr(md, "\n| ");
		md_escape(md, t[i].dir);
		strbuf_addstr(md, " |");
		if (t[i].error) {
			strbuf_addstr(md, " unreadable: ");
			md_escape(md, t[i].error);
			strbuf_addstr(md, " |");
			continue;
		}
		for (j = 0; j < cols->nr; j++)
			md_cell(md, &t[i], report_step(&t[i].v, cols->v[j]));
	}
	strbuf_addstr(md, "\n");
}

/* The latency table as it is, in a code block: each line indented. */
static void md_latency(struct strbuf *md, const char *table)
{
	struct line l;
	size_t i;

	strbuf_addstr(md, "\n## The latency table ([latency/table.txt](latency/table.txt), kverify latency, docs/lab.md)\n\n");
	for_each_line(l, table) {
		strbuf_addstr(md, "    ");
		for (i = 0; i < l.len; i++)
			strbuf_addch(md, (unsigned char)l.s[i] < ' ' ||
					 l.s[i] == 0x7f ? ' ' : l.s[i]);
		strbuf_addch(md, '\n');
	}
}

static void write_md(struct strbuf *md, const struct sum_set *set,
		     const struct sum_set *sweep, const char *latency)
{
	size_t i;

	strbuf_addstr(md, "# kverify results\n\nFull reasons: each target's report.json; a status links to its step's log.\n\n");
	md_table(md, set);
	strbuf_addstr(md, "\n## Reasons\n\n");
	for (i = 0; i < set->n; i++)
		md_reasons(md, &set->t[i]);
	if (*latency)
		md_latency(md, latency);
	if (!sweep->n)
		return;
	strbuf_addstr(md, "\n## The sweep (results/sweep/sweep.json)\n\n");
	md_table(md, sweep);
}

/* A CSS class for a status: the statuses kverify writes, else "other". */
static const char *status_class(const char *status)
{
	static const char *const known[] = { "PASS", "FAIL", "ERROR", "SKIP" };
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (!strcmp(status, known[i]))
			return known[i];
	return "other";
}

static void html_cell(struct strbuf *h, const struct sum_target *t,
		      const struct report_step *s)
{
	int link;
	char *r;

	if (!s) {
		strbuf_addstr(h, "<td></td>");
		return;
	}
	link = link_safe(t->dir, 0) && s->log && link_safe(s->log, 1);
	strbuf_addf(h, "<td class=\"%s\">", status_class(s->status));
	if (link)
		strbuf_addf(h, "<a href=\"%s/%s\">", t->dir, s->log);
	strbuf_addstr(h, "<b class=\"status\">");
	xml_escape(h, s->status);
	strbuf_addstr(h, "</b>");
	if (link)
		strbuf_addstr(h, "</a>");
	if (s->seconds >= 0)
		strbuf_addf(h, " %.1fs", s->seconds);
	strbuf_addstr(h, "<br><span class=\"reason\">");
	r = reason_short(s->reason);
	xml_escape(h, r);
	free(r);
	strbuf_addstr(h, "</span></td>");
}

static void html_table(struct strbuf *h, const struct sum_set *set)
{
	const struct strvec *cols = &set->cols;
	const struct sum_target *t = set->t;
	size_t i, j, n = set->n;

	strbuf_addf(h, "<table id=\"%ss\">\n<tr><th>%s</th>", set->what,
		    set->what);
	for (j = 0; j < cols->nr; j++) {
		strbuf_addstr(h, "<th>");
		xml_escape(h, cols->v[j]);
		strbuf_addstr(h, "</th>");
	}
	strbuf_addstr(h, "</tr>\n");
	for (i = 0; i < n; i++) {
		strbuf_addf(h, "<tr class=\"%s\"><th>", set->what);
		xml_escape(h, t[i].dir);
		strbuf_addstr(h, "</th>");
		if (t[i].error) {
			strbuf_addf(h, "<td class=\"ERROR\" colspan=\"%zu\">unreadable: ",
				    cols->nr ? cols->nr : 1);
			xml_escape(h, t[i].error);
			strbuf_addstr(h, "</td>");
		}
		for (j = 0; !t[i].error && j < cols->nr; j++)
			html_cell(h, &t[i], report_step(&t[i].v, cols->v[j]));
		strbuf_addstr(h, "</tr>\n");
	}
	strbuf_addstr(h, "</table>\n");
}

#define PLOT_W 640
#define PLOT_H 360
#define PLOT_L 70
#define PLOT_B 40
#define PLOT_T 20
#define PLOT_R 150

struct plot_axes {
	double xmax, ymax;	/* decades: log10(value + 1) */
};

/* log10(x + 1) for x >= 0, without libm: decades, then atanh's series. */
static double lg1(double x)
{
	double m = x + 1, z, z2, term, sum = 0;
	int k = 0, i;

	while (m >= 10) {
		m /= 10;
		k++;
	}
	z = (m - 1) / (m + 1);
	z2 = z * z;
	term = z;
	for (i = 1; i < 60; i += 2) {
		sum += term / i;
		term *= z2;
	}
	return k + 2 * sum / 2.302585092994046;
}

/* The fewest decades d with 10^d >= x + 1. */
static double decades(double x)
{
	double p = 1;
	int d = 0;

	while (p < x + 1 && d < 400) {
		p *= 10;
		d++;
	}
	return d;
}

/* 10^k - 1: where decade k is on an axis. */
static double decade_at(int k)
{
	double p = 1;

	while (k-- > 0)
		p *= 10;
	return p - 1;
}

static double px(const struct plot_axes *a, double t)
{
	return PLOT_L + lg1(t) / a->xmax * (PLOT_W - PLOT_L - PLOT_R);
}

static double py(const struct plot_axes *a, double v)
{
	return PLOT_H - PLOT_B - lg1(v) / a->ymax *
		(PLOT_H - PLOT_B - PLOT_T);
}

static void plot_frame(struct strbuf *h, const struct plot_axes *a)
{
	int k;

	strbuf_addf(h, "<path class=\"axis\" d=\"M%d %d V%d H%d\" stroke=\"black\" fill=\"none\"/>\n",
		    PLOT_L, PLOT_T, PLOT_H - PLOT_B, PLOT_W - PLOT_R);
	for (k = 0; k <= (int)a->ymax; k++)
		strbuf_addf(h, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%s%d</text>\n",
			    PLOT_L - 4, py(a, decade_at(k)) + 4,
			    k ? "1e" : "", k);
	for (k = 0; k <= (int)a->xmax; k++)
		strbuf_addf(h, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%s%d</text>\n",
			    px(a, decade_at(k)), PLOT_H - PLOT_B + 14,
			    k ? "1e" : "", k);
	strbuf_addf(h, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">tolerance (log scale, 0 at the left)</text>\n",
		    (PLOT_W - PLOT_R + PLOT_L) / 2, PLOT_H - 6);
	strbuf_addf(h, "<text x=\"12\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">per million emulated (log)</text>\n",
		    PLOT_H / 2, PLOT_H / 2);
}

static const char *const plot_colours[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"
};

static int cmp_fig(const void *a, const void *b)
{
	const struct report_fig *x = a, *y = b;

	return (x->tolerance > y->tolerance) - (x->tolerance < y->tolerance);
}

/* The sim's reprograms (@which 0) or reads (1) of a report. */
static const struct report_figs *figs(const struct sum_target *t, int which)
{
	return which ? &t->v.reads : &t->v.reprograms;
}

static void plot_series(struct strbuf *h, const struct plot_axes *a,
			const struct sum_target *t, int which,
			const char *colour)
{
	static const char *const cls[2] = { "reprograms", "reads" };
	size_t i, n = figs(t, which)->nr;
	struct report_fig *f = xmalloc((n + 1) * sizeof(*f));

	memcpy(f, figs(t, which)->v, n * sizeof(*f));
	qsort(f, n, sizeof(*f), cmp_fig);
	strbuf_addf(h, "<polyline fill=\"none\" stroke=\"%s\"%s points=\"",
		    colour, which ? " stroke-dasharray=\"4 3\"" : "");
	for (i = 0; i < n; i++)
		strbuf_addf(h, "%s%.1f,%.1f", i ? " " : "", px(a, f[i].tolerance),
			    py(a, f[i].value));
	strbuf_addstr(h, "\"/>\n");
	for (i = 0; i < n; i++) {
		strbuf_addf(h, "<g class=\"point %s\">", cls[which]);
		if (which)
			strbuf_addf(h, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"%s\">",
				    px(a, f[i].tolerance) - 3.5, py(a, f[i].value) - 3.5,
				    colour);
		else
			strbuf_addf(h, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">",
				    px(a, f[i].tolerance), py(a, f[i].value), colour);
		strbuf_addstr(h, "<title>");
		xml_escape(h, t->dir);
		strbuf_addf(h, " tolerance %.0f: %s %.0f</title>%s</g>\n",
			    f[i].tolerance, cls[which], f[i].value,
			    which ? "</rect>" : "</circle>");
	}
	free(f);
}

static void plot_axes_fit(struct plot_axes *a, const struct sum_target *t,
			  size_t n)
{
	const struct report_fig *f;
	size_t i, j;
	int w;

	a->xmax = a->ymax = 1;
	for (i = 0; i < n; i++)
		for (w = 0; w < 2; w++)
			for (j = 0; j < figs(&t[i], w)->nr; j++) {
				f = &figs(&t[i], w)->v[j];
				if (decades(f->tolerance) > a->xmax)
					a->xmax = decades(f->tolerance);
				if (decades(f->value) > a->ymax)
					a->ymax = decades(f->value);
			}
}

static void html_plot(struct strbuf *h, const struct sum_target *t, size_t n)
{
	struct plot_axes a;
	size_t i, shown = 0;
	int w;

	plot_axes_fit(&a, t, n);
	for (i = 0; i < n; i++)
		shown += t[i].v.reprograms.nr + t[i].v.reads.nr;
	if (!shown)
		return;
	strbuf_addf(h, "<h2>The sim's figures</h2>\n<p>Reprograms (circles, solid) and perf reads (squares, dashed) per million emulated instructions against the tolerance.</p>\n<svg id=\"sim\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		    PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	plot_frame(h, &a);
	for (i = 0, shown = 0; i < n; i++) {
		const char *c = plot_colours[shown % 6];

		if (!t[i].v.reprograms.nr && !t[i].v.reads.nr)
			continue;
		for (w = 0; w < 2; w++)
			plot_series(h, &a, &t[i], w, c);
		strbuf_addf(h, "<text x=\"%d\" y=\"%zu\" fill=\"%s\" font-size=\"12\">",
			    PLOT_W - PLOT_R + 10, PLOT_T + 14 * ++shown, c);
		xml_escape(h, t[i].dir);
		strbuf_addstr(h, "</text>\n");
	}
	strbuf_addstr(h, "</svg>\n");
}

/* The latency table as it is, each line escaped, in a <pre>. */
static void html_latency(struct strbuf *h, const char *table)
{
	struct line l;
	char *s;

	strbuf_addstr(h, "<h2>The latency table</h2>\n<p>kverify latency's table of the latency job's passes (<a href=\"latency/table.txt\">latency/table.txt</a>, docs/lab.md).</p>\n<pre id=\"latency\">\n");
	for_each_line(l, table) {
		s = xstrfmt("%.*s", (int)l.len, l.s);
		xml_escape(h, s);
		strbuf_addch(h, '\n');
		free(s);
	}
	strbuf_addstr(h, "</pre>\n");
}

static void write_html(struct strbuf *h, const struct sum_set *set,
		       const struct sum_set *sweep, const char *latency)
{
	strbuf_addstr(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>kverify results</title>\n<style>\nbody { font-family: sans-serif; }\ntable { border-collapse: collapse; }\ntd, th { border: 1px solid #ccc; padding: 3px 6px; vertical-align: top; }\ntd .reason { font-size: 85%; color: #444; }\n.PASS { background: #dfd; } .FAIL, .ERROR { background: #fdd; }\n.SKIP { background: #eee; } .other { background: #ffd; }\n</style>\n</head>\n<body>\n<h1>kverify results</h1>\n<p>Each reason is cut short; report.json beside each target's logs has it in full.  A status links to its step's log.</p>\n");
	html_table(h, set);
	html_plot(h, set->t, set->n);
	if (*latency)
		html_latency(h, latency);
	if (sweep->n) {
		strbuf_addstr(h, "<h2>The sweep</h2>\n<p>Every linux-source version of the archive (results/sweep/sweep.json, docs/sweep.md).</p>\n");
		html_table(h, sweep);
	}
	strbuf_addstr(h, "</body>\n</html>\n");
}

static int write_out(const char *results, const char *name,
		     const struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", results, name);
	ret = write_file_atomic(path.buf, sb->buf, sb->len);
	if (ret)
		error("%s: cannot write it", path.buf);
	strbuf_release(&path);
	return ret;
}

int cmd_summary(const char *results)
{
	struct strbuf md = STRBUF_INIT, html = STRBUF_INIT, lat = STRBUF_INIT;
	struct sum_set set = { .cols = STRVEC_INIT, .what = "target" };
	struct sum_set sweep = { .cols = STRVEC_INIT, .what = "version" };
	size_t i;
	int bad = 0, ret = 0;

	if (!is_dir(results)) {
		error("%s: no such directory: no reports to sum up", results);
		return EXIT_USAGE;
	}
	set.n = set.alloc = list_targets(results, &set.t);
	for (i = 0; i < set.n; i++)
		if (target_read(&set.t[i], results)) {
			error("%s", set.t[i].error);
			bad = 1;
		}
	if (sweep_read(&sweep, results) || latency_read(&lat, results))
		bad = 1;
	step_columns(set.t, set.n, &set.cols);
	step_columns(sweep.t, sweep.n, &sweep.cols);
	write_md(&md, &set, &sweep, lat.buf);
	write_html(&html, &set, &sweep, lat.buf);
	if (write_out(results, "summary.md", &md) ||
	    write_out(results, "index.html", &html))
		ret = EXIT_TOOL;
	else
		note("summary: %s/summary.md, %s/index.html (%zu targets%s%s)",
		     results, results, set.n, sweep.n ? ", the sweep" : "",
		     lat.len ? ", the latency table" : "");
	set_clear(&set);
	set_clear(&sweep);
	strbuf_release(&md);
	strbuf_release(&html);
	strbuf_release(&lat);
	return ret ? ret : bad ? EXIT_USAGE : 0;
}
