// SPDX-License-Identifier: GPL-2.0
/*
 * report.json read back, through lib/json.c's parser: it keeps what
 * struct report_view holds and steps over the rest, so a key added to the
 * report (docs/report.md) changes nothing here.  A report cut short, or
 * anything else that is not JSON, is an error, never a partial view.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "report_read.h"

static int step_member(struct json_parser *ps, const char *key, void *data)
{
	struct report_step *s = data;

	if (!strcmp(key, "name"))
		return json_string(ps, &s->name);
	if (!strcmp(key, "status"))
		return json_string(ps, &s->status);
	if (!strcmp(key, "reason"))
		return json_string(ps, &s->reason);
	if (!strcmp(key, "log"))
		return json_string(ps, &s->log);
	if (!strcmp(key, "seconds"))
		return json_number(ps, &s->seconds);
	return json_skip(ps);
}

static int step_element(struct json_parser *ps, void *data)
{
	struct report_view *v = data;
	struct report_step *s;

	if (v->nr == v->alloc) {
		v->alloc = v->alloc ? 2 * v->alloc : 16;
		v->steps = xrealloc(v->steps, v->alloc * sizeof(*v->steps));
	}
	s = &v->steps[v->nr++];
	memset(s, 0, sizeof(*s));
	s->seconds = -1;
	if (json_object(ps, step_member, s))
		return -1;
	if (!s->name || !s->status)
		return json_fail(ps, "a step without its name or status");
	return 0;
}

int report_steps(struct json_parser *ps, struct report_view *v)
{
	return json_array(ps, step_element, v);
}

/* "tolerance": figure, both numbers >= 0, the tolerance written as a key. */
static int fig_member(struct json_parser *ps, const char *key, void *data)
{
	struct report_figs *f = data;
	char *end;
	double t = strtod(key, &end), d;

	if (json_number(ps, &d))
		return -1;
	if (!*key || *end || !isfinite(t) || t < 0 || !isfinite(d) || d < 0)
		return json_fail(ps, "a figure that is no tolerance -> count");
	if (f->nr == f->alloc) {
		f->alloc = f->alloc ? 2 * f->alloc : 8;
		f->v = xrealloc(f->v, f->alloc * sizeof(*f->v));
	}
	f->v[f->nr].tolerance = t;
	f->v[f->nr++].value = d;
	return 0;
}

static int sim_figs(struct json_parser *ps, struct report_figs *f)
{
	f->nr = 0;	/* a key given twice: its last value */
	return json_object(ps, fig_member, f);
}

static int sim_member(struct json_parser *ps, const char *key, void *data)
{
	struct report_view *v = data;
	long *to;
	double d;

	if (!strcmp(key, "reprograms_per_million_emulated"))
		return sim_figs(ps, &v->reprograms);
	if (!strcmp(key, "reads_per_million_emulated"))
		return sim_figs(ps, &v->reads);
	if (!strcmp(key, "traces"))
		to = &v->sim_traces;
	else if (!strcmp(key, "traces_asked"))
		to = &v->sim_traces_asked;
	else
		return json_skip(ps);
	if (json_number(ps, &d))
		return -1;
	if (d < 0 || d > 1e15 || d != (long)d)
		return json_fail(ps, "a trace count that is no count");
	*to = (long)d;
	return 0;
}

static int top_member(struct json_parser *ps, const char *key, void *data)
{
	struct report_view *v = data;

	if (!strcmp(key, "steps"))
		return report_steps(ps, v);
	if (!strcmp(key, "sim")) {
		json_skip_ws(ps);
		if (*ps->p == 'n')	/* null: as if there were none */
			return json_skip(ps);
		return json_object(ps, sim_member, v);
	}
	if (!strcmp(key, "seconds"))
		return json_number(ps, &v->seconds);
	if (!strcmp(key, "cold_seconds"))
		return json_number(ps, &v->cold_seconds);
	return json_skip(ps);
}

int report_parse(struct report_view *v, const char *json, struct strbuf *err)
{
	if (!json_parse_object(json, top_member, v, err))
		return 0;
	report_view_clear(v);
	return -1;
}

int report_read(struct report_view *v, const char *path, struct strbuf *err)
{
	if (!json_read_object(path, top_member, v, err))
		return 0;
	report_view_clear(v);
	return -1;
}

const struct report_step *report_step(const struct report_view *v,
				      const char *name)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		if (!strcmp(v->steps[i].name, name))
			return &v->steps[i];
	return NULL;
}

void report_view_clear(struct report_view *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++) {
		free(v->steps[i].name);
		free(v->steps[i].status);
		free(v->steps[i].reason);
		free(v->steps[i].log);
	}
	free(v->steps);
	free(v->reprograms.v);
	free(v->reads.v);
	*v = (struct report_view)REPORT_VIEW_INIT;
}
