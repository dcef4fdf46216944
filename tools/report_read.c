// SPDX-License-Identifier: GPL-2.0
/*
 * report.json read back.  A JSON parser (RFC 8259: objects, arrays,
 * strings with every escape, numbers, true, false, null) just large enough
 * for that: it keeps what struct report_view holds and steps over the
 * rest, so a key added to the report (docs/report.md) changes nothing
 * here.  A report cut short, or anything else that is not JSON, is an
 * error, never a partial view.
 */
#include <stdlib.h>
#include <string.h>

#include "report_read.h"

#define MAX_DEPTH 64

struct parser {
	const char *p, *start;
	struct strbuf *err;
	int depth;
};

typedef int (*member_fn)(struct parser *ps, const char *key, void *data);
typedef int (*element_fn)(struct parser *ps, void *data);

static int skip_value(struct parser *ps);

static int fail(struct parser *ps, const char *what)
{
	strbuf_addf(ps->err, "byte %td: %s", ps->p - ps->start, what);
	return -1;
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
	       *ps->p == '\r')
		ps->p++;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex4(const char *s, unsigned long *cp)
{
	int i;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		char c = s[i];

		*cp <<= 4;
		if (is_digit(c))
			*cp |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*cp |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*cp |= c - 'A' + 10;
		else
			return -1;
	}
	return 0;
}

static void add_utf8(struct strbuf *sb, unsigned long cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, 0xc0 | (cp >> 6));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, 0xe0 | (cp >> 12));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3f));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	} else {
		strbuf_addch(sb, 0xf0 | (cp >> 18));
		strbuf_addch(sb, 0x80 | ((cp >> 12) & 0x3f));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3f));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	}
}

/* \uXXXX, a surrogate pair as one code point; none is U+0000. */
static int unicode_escape(struct parser *ps, struct strbuf *out)
{
	unsigned long cp, lo;

	if (hex4(ps->p, &cp))
		return fail(ps, "\\u without four hex digits");
	ps->p += 4;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->p[0] != '\\' || ps->p[1] != 'u' ||
		    hex4(ps->p + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return fail(ps, "a high surrogate without its low one");
		ps->p += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xdc00 && cp <= 0xdfff) {
		return fail(ps, "a low surrogate alone");
	} else if (!cp) {
		return fail(ps, "\\u0000 in a string");
	}
	if (out)
		add_utf8(out, cp);
	return 0;
}

/* The string at ps->p, unescaped into @out (NULL: stepped over). */
static int parse_string(struct parser *ps, struct strbuf *out)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	const char *e;

	if (*ps->p != '"')
		return fail(ps, "a string expected");
	ps->p++;
	for (;;) {
		unsigned char c = *ps->p;

		if (!c)
			return fail(ps, "the string does not end");
		if (c < 0x20)
			return fail(ps, "a control character in a string");
		ps->p++;
		if (c == '"')
			return 0;
		if (c != '\\') {
			if (out)
				strbuf_addch(out, c);
			continue;
		}
		c = *ps->p;
		if (c == 'u') {
			ps->p++;
			if (unicode_escape(ps, out))
				return -1;
			continue;
		}
		for (e = esc; *e && *e != c; e += 2)
			;
		if (!c || !*e)
			return fail(ps, "an escape JSON does not have");
		ps->p++;
		if (out)
			strbuf_addch(out, e[1]);
	}
}

static int parse_number(struct parser *ps, double *out)
{
	const char *s = ps->p;
	char *end;
	double d;

	if (*s == '-')
		s++;
	if (*s == '0' && is_digit(s[1]))
		return fail(ps, "a number with a leading zero");
	if (*s == '0')
		s++;
	else if (is_digit(*s))
		while (is_digit(*s))
			s++;
	else
		return fail(ps, "a value expected");
	if (*s == '.') {
		if (!is_digit(*++s))
			return fail(ps, "no digit after a decimal point");
		while (is_digit(*s))
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!is_digit(*s))
			return fail(ps, "no digit in an exponent");
		while (is_digit(*s))
			s++;
	}
	d = strtod(ps->p, &end);
	if (end != s)
		return fail(ps, "a number strtod reads otherwise");
	ps->p = s;
	if (out)
		*out = d;
	return 0;
}

static int parse_literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(ps->p, word, n))
		return fail(ps, "a value expected");
	ps->p += n;
	return 0;
}

/*
 * Into the object or array @open at ps->p, one level deeper: 1 to read
 * its members, 0 when @close follows at once (then out again), -1.
 */
static int enter(struct parser *ps, char open, char close, const char *what)
{
	if (*ps->p != open)
		return fail(ps, what);
	if (ps->depth >= MAX_DEPTH)
		return fail(ps, "nested too deep");
	ps->depth++;
	ps->p++;
	skip_ws(ps);
	if (*ps->p != close)
		return 1;
	ps->p++;
	ps->depth--;
	return 0;
}

/* { "key": value, ... }: @fn takes each value (NULL: stepped over). */
static int parse_object(struct parser *ps, member_fn fn, void *data)
{
	struct strbuf key = STRBUF_INIT;
	int ret = enter(ps, '{', '}', "an object expected");

	if (ret <= 0)
		return ret;
	ret = -1;
	for (;;) {
		strbuf_reset(&key);
		skip_ws(ps);
		if (parse_string(ps, &key))
			goto out;
		skip_ws(ps);
		if (*ps->p != ':') {
			fail(ps, "':' expected after a key");
			goto out;
		}
		ps->p++;
		skip_ws(ps);
		if (fn ? fn(ps, key.buf, data) : skip_value(ps))
			goto out;
		skip_ws(ps);
		if (*ps->p == '}') {
			ps->p++;
			ret = 0;
			goto out;
		}
		if (*ps->p != ',') {
			fail(ps, "',' or '}' expected");
			goto out;
		}
		ps->p++;
	}
out:
	ps->depth--;
	strbuf_release(&key);
	return ret;
}

/* [ value, ... ]: @fn takes each value (NULL: stepped over). */
static int parse_array(struct parser *ps, element_fn fn, void *data)
{
	int ret = enter(ps, '[', ']', "an array expected");

	if (ret <= 0)
		return ret;
	ret = -1;
	for (;;) {
		skip_ws(ps);
		if (fn ? fn(ps, data) : skip_value(ps))
			goto out;
		skip_ws(ps);
		if (*ps->p == ']') {
			ps->p++;
			ret = 0;
			goto out;
		}
		if (*ps->p != ',') {
			fail(ps, "',' or ']' expected");
			goto out;
		}
		ps->p++;
	}
out:
	ps->depth--;
	return ret;
}

static int skip_value(struct parser *ps)
{
	switch (*ps->p) {
	case '{':
		return parse_object(ps, NULL, NULL);
	case '[':
		return parse_array(ps, NULL, NULL);
	case '"':
		return parse_string(ps, NULL);
	case 't':
		return parse_literal(ps, "true");
	case 'f':
		return parse_literal(ps, "false");
	case 'n':
		return parse_literal(ps, "null");
	default:
		return parse_number(ps, NULL);
	}
}

/* A string value into *@out (a key given twice: the last one). */
static int string_value(struct parser *ps, char **out)
{
	struct strbuf sb = STRBUF_INIT;

	if (parse_string(ps, &sb)) {
		strbuf_release(&sb);
		return -1;
	}
	free(*out);
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

static int step_member(struct parser *ps, const char *key, void *data)
{
	struct report_step *s = data;

	if (!strcmp(key, "name"))
		return string_value(ps, &s->name);
	if (!strcmp(key, "status"))
		return string_value(ps, &s->status);
	if (!strcmp(key, "reason"))
		return string_value(ps, &s->reason);
	if (!strcmp(key, "seconds"))
		return parse_number(ps, &s->seconds);
	return skip_value(ps);
}

static int step_element(struct parser *ps, void *data)
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
	if (parse_object(ps, step_member, s))
		return -1;
	if (!s->name || !s->status)
		return fail(ps, "a step without its name or status");
	return 0;
}

static int sim_member(struct parser *ps, const char *key, void *data)
{
	struct report_view *v = data;
	long *to;
	double d;

	if (!strcmp(key, "traces"))
		to = &v->sim_traces;
	else if (!strcmp(key, "traces_asked"))
		to = &v->sim_traces_asked;
	else
		return skip_value(ps);
	if (parse_number(ps, &d))
		return -1;
	if (d < 0 || d > 1e15 || d != (long)d)
		return fail(ps, "a trace count that is no count");
	*to = (long)d;
	return 0;
}

static int top_member(struct parser *ps, const char *key, void *data)
{
	struct report_view *v = data;

	if (!strcmp(key, "steps"))
		return parse_array(ps, step_element, v);
	if (!strcmp(key, "sim"))
		return parse_object(ps, sim_member, v);
	if (!strcmp(key, "seconds"))
		return parse_number(ps, &v->seconds);
	if (!strcmp(key, "cold_seconds"))
		return parse_number(ps, &v->cold_seconds);
	return skip_value(ps);
}

int report_parse(struct report_view *v, const char *json, struct strbuf *err)
{
	struct parser ps = { .p = json, .start = json, .err = err };

	skip_ws(&ps);
	if (parse_object(&ps, top_member, v))
		goto bad;
	skip_ws(&ps);
	if (*ps.p) {
		fail(&ps, "more after the report's object");
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
