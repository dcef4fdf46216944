// SPDX-License-Identifier: GPL-2.0
/*
 * report.json read back, through lib/json.c's parser: it keeps what
 * struct report_view holds and steps over the rest, so a key added to the
 * report (docs/report.md) changes nothing here.  A report cut short, or
 * anything else that is not JSON, is an error, never a partial view.
 */
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

static int sim_member(struct json_parser *ps, const char *key, void *data)
{
	struct report_view *v = data;
	long *to;
	double d;

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
		return json_array(ps, step_element, v);
	if (!strcmp(key, "sim"))
		return json_object(ps, sim_member, v);
	if (!strcmp(key, "seconds"))
		return json_number(ps, &v->seconds);
	if (!strcmp(key, "cold_seconds"))
		return json_number(ps, &v->cold_seconds);
	return json_skip(ps);
}

int report_parse(struct report_view *v, const char *json, struct strbuf *err)
{
	struct json_parser ps = { .p = json, .start = json, .err = err };

	json_skip_ws(&ps);
	if (json_object(&ps, top_member, v))
		goto bad;
	json_skip_ws(&ps);
	if (*ps.p) {
		json_fail(&ps, "more after the report's object");
		goto bad;
	}
	return 0;
bad:
	report_view_clear(v);
	return -1;
}

int report_read(struct report_view *v, const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t had = err->len;
	int ret = -1;

	if (strbuf_read_file(&sb, path, 16 << 20) < 0) {
		strbuf_addf(err, "%s: cannot read it", path);
	} else if (strlen(sb.buf) != sb.len) {
		strbuf_addf(err, "%s: byte %zu: a NUL byte", path,
			    strlen(sb.buf));
	} else {
		strbuf_addf(err, "%s: ", path);
		ret = report_parse(v, sb.buf, err);
		if (!ret)
			strbuf_setlen(err, had);
	}
	strbuf_release(&sb);
	return ret;
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
	}
	free(v->steps);
	*v = (struct report_view)REPORT_VIEW_INIT;
}
