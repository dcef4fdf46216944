// SPDX-License-Identifier: GPL-2.0
/*
 * make sweep's reports of its rows (sweep_report.h): the headline (the
 * first failing version, or the counts), the version x step table in
 * Markdown for stdout and for docs/sweep.md between its markers, and
 * results/sweep/sweep.json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/json.h"
#include "lib/usage.h"
#include "sweep_report.h"

/* The steps a sweep runs: sweep.c fills them from the engine's table. */
const char *sweep_steps[MAX_SWEEP_STEPS];
size_t nr_sweep_steps;

int sweep_bad_status(const char *status)
{
	return status && strcmp(status, "PASS") && strcmp(status, "SKIP") &&
	       strcmp(status, "N-A");
}

const struct sweep_version *sweep_first_failure(const struct sweep *sw,
						int *nr_failed)
{
	const struct sweep_version *first = NULL;
	size_t i;

	*nr_failed = 0;
	for (i = 0; i < sw->nr; i++)
		if (!sw->v[i].have_row || sw->v[i].failed) {
			if (!first)
				first = &sw->v[i];
			(*nr_failed)++;
		}
	return first;
}

static const char *failed_step(const struct sweep_version *v, size_t *i)
{
	for (*i = 0; *i < nr_sweep_steps; (*i)++)
		if (sweep_bad_status(v->status[*i]))
			return sweep_steps[*i];
	return NULL;
}

void sweep_headline(const struct sweep *sw, struct strbuf *sb)
{
	int nr_failed, na = 0, gone = 0;
	const struct sweep_version *f = sweep_first_failure(sw, &nr_failed);
	size_t i;

	if (f) {
		const char *step = failed_step(f, &i);

		strbuf_addf(sb, "FAIL: %s %s (%s): ", f->package, f->version,
			    f->suites.v[0]);
		if (step)
			strbuf_addf(sb, "%s: %s", step, f->reason[i]);
		else
			strbuf_addstr(sb, "not checked (interrupted, or the pipeline could not start)");
		if (nr_failed > 1)
			strbuf_addf(sb, "; %d more versions fail", nr_failed - 1);
		return;
	}
	for (i = 0; i < sw->nr; i++) {
		na += !sw->v[i].gone && !strcmp(sw->v[i].variant, "n/a");
		gone += sw->v[i].gone;
	}
	strbuf_addf(sb, "PASS: %zu versions (%zu pass, %d n/a",
		    sw->nr, sw->nr - na - gone, na);
	if (gone)
		strbuf_addf(sb, ", %d listed but not on the mirror", gone);
	strbuf_addf(sb, "); %d checked, %d unchanged and reused",
		    sw->checked - gone, sw->reused);
	if (!sw->nr)
		strbuf_addstr(sb, "; the archive offered no linux-source version");
}

static void human_size(struct strbuf *sb, long long bytes)
{
	if (bytes < 0)
		strbuf_addstr(sb, "?");
	else
		strbuf_addf(sb, "%.1f MB", bytes / 1e6);
}

/* The table: Markdown, for stdout and docs/sweep.md alike. */
void sweep_table(const struct sweep *sw, struct strbuf *sb)
{
	size_t i, j;
	int any_note = 0, na_said = 0;

	strbuf_addf(sb, "%zu versions of linux-source in %zu suites; series/, backports/, cocci/ and checkpatch.allow hash %s.\n\n",
		    sw->nr, sw->suites.nr, sw->hash);
	strbuf_addstr(sb, "| version | suites | variant |");
	for (j = 0; j < nr_sweep_steps; j++)
		strbuf_addf(sb, " %s |", sweep_steps[j]);
	strbuf_addstr(sb, " kept | row |\n|---|---|---|");
	for (j = 0; j < nr_sweep_steps; j++)
		strbuf_addstr(sb, "---|");
	strbuf_addstr(sb, "---|---|\n");
	for (i = 0; i < sw->nr; i++) {
		const struct sweep_version *v = &sw->v[i];

		strbuf_addf(sb, "| %s %s | ", v->package + 13, v->version);
		for (j = 0; j < v->suites.nr; j++)
			strbuf_addf(sb, "%s%s", j ? ", " : "", v->suites.v[j]);
		if (!v->have_row) {
			strbuf_addstr(sb, " | - |");
			for (j = 0; j < nr_sweep_steps; j++)
				strbuf_addstr(sb, " - |");
			strbuf_addstr(sb, " - | not checked |\n");
			continue;
		}
		if (v->gone) {
			strbuf_addstr(sb, " | - | 404 |");
			for (j = 1; j < nr_sweep_steps; j++)
				strbuf_addstr(sb, " - |");
			strbuf_addstr(sb, " - | not on the mirror |\n");
			continue;
		}
		strbuf_addf(sb, " | %s |", v->variant);
		for (j = 0; j < nr_sweep_steps; j++)
			strbuf_addf(sb, " %s |", v->status[j] ? v->status[j] : "-");
		strbuf_addch(sb, ' ');
		human_size(sb, v->kept);
		strbuf_addf(sb, " | %s %s |\n", v->reused ? "reused, checked" :
			    "checked", v->checked);
	}
	for (i = 0; i < sw->nr; i++) {
		const struct sweep_version *v = &sw->v[i];
		const char *step = v->have_row ? failed_step(v, &j) : NULL;

		if (v->gone || (!step && (!v->na_reason || na_said)))
			continue;
		if (!any_note++)
			strbuf_addch(sb, '\n');
		if (step) {
			strbuf_addf(sb, "- %s %s: %s %s: %s\n", v->package,
				    v->version, step, v->status[j], v->reason[j]);
		} else {
			strbuf_addf(sb, "- n/a: %s\n", v->na_reason);
			na_said = 1;
		}
	}
	if (sw->missing.nr)
		strbuf_addch(sb, '\n');
	for (i = 0; i < sw->nr; i++)
		if (sw->v[i].gone)
			strbuf_addf(sb, "%s- %s %s: %s's index lists it, the mirror has no .deb (404): not checked\n",
				    any_note++ ? "" : "\n", sw->v[i].package,
				    sw->v[i].version, sw->v[i].suites.v[0]);
	for (i = 0; i < sw->missing.nr; i++)
		strbuf_addf(sb, "- suite %s\n", sw->missing.v[i]);
}

static void json_version(struct strbuf *sb, const struct sweep_version *v)
{
	size_t j;

	strbuf_addstr(sb, "{\"package\": ");
	json_escape(sb, v->package);
	strbuf_addstr(sb, ", \"version\": ");
	json_escape(sb, v->version);
	strbuf_addstr(sb, ", \"suites\": ");
	json_strings(sb, &v->suites);
	strbuf_addf(sb, ", \"on_mirror\": %s, \"checked\": %s",
		    v->gone ? "false" : "true",
		    v->have_row && !v->gone ? "true" : "false");
	if (!v->have_row) {
		strbuf_addstr(sb, ", \"passed\": false}");
		return;
	}
	strbuf_addf(sb, ", \"passed\": %s, \"reused\": %s, \"checked_at\": ",
		    v->passed ? "true" : "false", v->reused ? "true" : "false");
	json_escape(sb, v->checked);
	strbuf_addstr(sb, ", \"hash\": ");
	json_escape(sb, v->hash);
	strbuf_addstr(sb, ", \"variant\": ");
	if (strcmp(v->variant, "n/a"))
		json_escape(sb, v->variant);
	else
		strbuf_addstr(sb, "null");
	strbuf_addstr(sb, ", \"na_reason\": ");
	if (v->na_reason)
		json_escape(sb, v->na_reason);
	else
		strbuf_addstr(sb, "null");
	strbuf_addstr(sb, ", \"source_key\": ");
	json_escape(sb, v->src_key);
	strbuf_addf(sb, ", \"kept_bytes\": %lld, \"steps\": [", v->kept);
	for (j = 0; j < nr_sweep_steps; j++) {
		strbuf_addstr(sb, j ? ",\n      {\"name\": " :
				  "\n      {\"name\": ");
		json_escape(sb, sweep_steps[j]);
		strbuf_addstr(sb, ", \"status\": ");
		json_escape(sb, v->status[j] ? v->status[j] : "SKIP");
		strbuf_addf(sb, ", \"seconds\": %.1f, \"reason\": ",
			    v->seconds[j]);
		json_escape(sb, v->reason[j]);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "]}");
}

/*
 * An interrupted sweep's report goes beside the last complete one's, as a
 * verify's does (report.c): sweep.interrupted.json beside sweep.json.
 */
static char *interrupted_path(const char *json)
{
	size_t n = strlen(json);

	if (n > 5 && !strcmp(json + n - 5, ".json"))
		n -= 5;
	return xstrfmt("%.*s.interrupted.json", (int)n, json);
}

int sweep_write_json(const struct sweep *sw, const char *head, double secs,
		     int interrupted)
{
	struct strbuf sb = STRBUF_INIT;
	char *aside = interrupted_path(sw->json);
	const char *path = interrupted ? aside : sw->json;
	int nr_failed, ret;
	size_t i;

	sweep_first_failure(sw, &nr_failed);
	strbuf_addstr(&sb, "{\n  \"headline\": ");
	json_escape(&sb, head);
	strbuf_addf(&sb, ",\n  \"passed\": %s,\n  \"hash\": ",
		    nr_failed ? "false" : "true");
	json_escape(&sb, sw->hash);
	strbuf_addf(&sb, ",\n  \"seconds\": %.1f,\n  \"checked\": %d,\n  \"reused\": %d,\n  \"suites\": ",
		    secs, sw->checked, sw->reused);
	json_strings(&sb, &sw->suites);
	strbuf_addstr(&sb, ",\n  \"missing_suites\": ");
	json_strings(&sb, &sw->missing);
	strbuf_addstr(&sb, ",\n  \"unpacked\": ");
	json_strings(&sb, &sw->members);
	strbuf_addstr(&sb, ",\n  \"versions\": [");
	for (i = 0; i < sw->nr; i++) {
		strbuf_addstr(&sb, i ? ",\n    " : "\n    ");
		json_version(&sb, &sw->v[i]);
	}
	strbuf_addstr(&sb, "\n  ]\n}\n");
	ret = write_file_atomic(path, sb.buf, sb.len);
	if (ret)
		error("cannot write %s: %s", path, strerror(errno));
	else if (!interrupted)
		unlink(aside);
	strbuf_release(&sb);
	free(aside);
	return ret;
}

#define MD_BEGIN "<!-- sweep table: written by make sweep, do not edit -->\n"
#define MD_END "<!-- end of sweep table -->\n"

/* The table between the markers of docs/sweep.md; the rest is kept. */
int sweep_write_md(const struct sweep *sw, const char *head,
		   const char *body)
{
	struct strbuf old = STRBUF_INIT, sb = STRBUF_INIT;
	const char *b = NULL, *e = NULL;
	int ret;

	if (strbuf_read_file(&old, sw->md, 1 << 20) >= 0) {
		b = strstr(old.buf, MD_BEGIN);
		e = b ? strstr(b, MD_END) : NULL;
	}
	if (b && e)
		strbuf_add(&sb, old.buf, b - old.buf);
	else
		strbuf_addstr(&sb, "# make sweep\n\n");
	strbuf_addf(&sb, "%s\n**%s**\n\n%s\n%s", MD_BEGIN, head, body, MD_END);
	if (b && e)
		strbuf_addstr(&sb, e + strlen(MD_END));
	ret = write_file_atomic(sw->md, sb.buf, sb.len);
	if (ret)
		error("cannot write %s: %s", sw->md, strerror(errno));
	strbuf_release(&old);
	strbuf_release(&sb);
	return ret;
}
