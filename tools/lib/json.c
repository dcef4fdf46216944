// SPDX-License-Identifier: GPL-2.0
/*
 * JSON for the reports and for b4's tracking data (lib/json.h): a writer
 * over json_escape(), and a parser (RFC 8259) just large enough to read
 * back what kverify and b4 write: each member or element goes to the
 * caller's callback, the rest is stepped over.  Text cut short, or
 * anything else that is not JSON, is an error, never a partial value.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

void json_field(struct strbuf *sb, const char *sep, const char *key,
		const char *value)
{
	strbuf_addf(sb, ",%s\"%s\": ", sep, key);
	json_escape(sb, value ? value : "");
}

void json_strings(struct strbuf *sb, const struct strvec *v)
{
	size_t i;

	strbuf_addch(sb, '[');
	for (i = 0; i < v->nr; i++) {
		strbuf_addstr(sb, i ? ", " : "");
		json_escape(sb, v->v[i]);
	}
	strbuf_addch(sb, ']');
}

#define MAX_DEPTH 64

int json_fail(struct json_parser *ps, const char *what)
{
	strbuf_addf(ps->err, "byte %td: %s", ps->p - ps->start, what);
	return -1;
}

void json_skip_ws(struct json_parser *ps)
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
static int unicode_escape(struct json_parser *ps, struct strbuf *out)
{
	unsigned long cp, lo;

	if (hex4(ps->p, &cp))
		return json_fail(ps, "\\u without four hex digits");
	ps->p += 4;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->p[0] != '\\' || ps->p[1] != 'u' ||
		    hex4(ps->p + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return json_fail(ps, "a high surrogate without its low one");
		ps->p += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xdc00 && cp <= 0xdfff) {
		return json_fail(ps, "a low surrogate alone");
	} else if (!cp) {
		return json_fail(ps, "\\u0000 in a string");
	}
	if (out)
		add_utf8(out, cp);
	return 0;
}

/* The string at ps->p, unescaped into @out (NULL: stepped over). */
static int parse_string(struct json_parser *ps, struct strbuf *out)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	const char *e;

	if (*ps->p != '"')
		return json_fail(ps, "a string expected");
	ps->p++;
	for (;;) {
		unsigned char c = *ps->p;

		if (!c)
			return json_fail(ps, "the string does not end");
		if (c < 0x20)
			return json_fail(ps, "a control character in a string");
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
			return json_fail(ps, "an escape JSON does not have");
		ps->p++;
		if (out)
			strbuf_addch(out, e[1]);
	}
}

int json_number(struct json_parser *ps, double *out)
{
	const char *s = ps->p;
	char *end;
	double d;

	if (*s == '-')
		s++;
	if (*s == '0' && is_digit(s[1]))
		return json_fail(ps, "a number with a leading zero");
	if (*s == '0')
		s++;
	else if (is_digit(*s))
		while (is_digit(*s))
			s++;
	else
		return json_fail(ps, "a value expected");
	if (*s == '.') {
		if (!is_digit(*++s))
			return json_fail(ps, "no digit after a decimal point");
		while (is_digit(*s))
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!is_digit(*s))
			return json_fail(ps, "no digit in an exponent");
		while (is_digit(*s))
			s++;
	}
	d = strtod(ps->p, &end);
	if (end != s)
		return json_fail(ps, "a number strtod reads otherwise");
	ps->p = s;
	if (out)
		*out = d;
	return 0;
}

static int parse_literal(struct json_parser *ps, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(ps->p, word, n))
		return json_fail(ps, "a value expected");
	ps->p += n;
	return 0;
}

/*
 * Into the object or array @open at ps->p, one level deeper: 1 to read
 * its members, 0 when @close follows at once (then out again), -1.
 */
static int enter(struct json_parser *ps, char open, char close, const char *what)
{
	if (*ps->p != open)
		return json_fail(ps, what);
	if (ps->depth >= MAX_DEPTH)
		return json_fail(ps, "nested too deep");
	ps->depth++;
	ps->p++;
	json_skip_ws(ps);
	if (*ps->p != close)
		return 1;
	ps->p++;
	ps->depth--;
	return 0;
}

int json_object(struct json_parser *ps, json_member_fn fn, void *data)
{
	struct strbuf key = STRBUF_INIT;
	int ret = enter(ps, '{', '}', "an object expected");

	if (ret <= 0)
		return ret;
	ret = -1;
	for (;;) {
		strbuf_reset(&key);
		json_skip_ws(ps);
		if (parse_string(ps, &key))
			goto out;
		json_skip_ws(ps);
		if (*ps->p != ':') {
			json_fail(ps, "':' expected after a key");
			goto out;
		}
		ps->p++;
		json_skip_ws(ps);
		if (fn ? fn(ps, key.buf, data) : json_skip(ps))
			goto out;
		json_skip_ws(ps);
		if (*ps->p == '}') {
			ps->p++;
			ret = 0;
			goto out;
		}
		if (*ps->p != ',') {
			json_fail(ps, "',' or '}' expected");
			goto out;
		}
		ps->p++;
	}
out:
	ps->depth--;
	strbuf_release(&key);
	return ret;
}

int json_array(struct json_parser *ps, json_element_fn fn, void *data)
{
	int ret = enter(ps, '[', ']', "an array expected");

	if (ret <= 0)
		return ret;
	ret = -1;
	for (;;) {
		json_skip_ws(ps);
		if (fn ? fn(ps, data) : json_skip(ps))
			goto out;
		json_skip_ws(ps);
		if (*ps->p == ']') {
			ps->p++;
			ret = 0;
			goto out;
		}
		if (*ps->p != ',') {
			json_fail(ps, "',' or ']' expected");
			goto out;
		}
		ps->p++;
	}
out:
	ps->depth--;
	return ret;
}

int json_skip(struct json_parser *ps)
{
	switch (*ps->p) {
	case '{':
		return json_object(ps, NULL, NULL);
	case '[':
		return json_array(ps, NULL, NULL);
	case '"':
		return parse_string(ps, NULL);
	case 't':
		return parse_literal(ps, "true");
	case 'f':
		return parse_literal(ps, "false");
	case 'n':
		return parse_literal(ps, "null");
	default:
		return json_number(ps, NULL);
	}
}

int json_string(struct json_parser *ps, char **out)
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

int json_parse_object(const char *text, json_member_fn fn, void *data,
		      struct strbuf *err)
{
	struct json_parser ps = JSON_PARSER_INIT(text, err);

	json_skip_ws(&ps);
	if (json_object(&ps, fn, data))
		return -1;
	json_skip_ws(&ps);
	if (*ps.p)
		return json_fail(&ps, "more after the object");
	return 0;
}

int json_read_object(const char *path, json_member_fn fn, void *data,
		     struct strbuf *err)
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
		ret = json_parse_object(sb.buf, fn, data, err);
		if (!ret)
			strbuf_setlen(err, had);
	}
	strbuf_release(&sb);
	return ret;
}
