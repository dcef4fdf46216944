// SPDX-License-Identifier: GPL-2.0
/*
 * Escaping for JSON, XML 1.0 and the terminal, with invalid UTF-8
 * (overlong forms, surrogates, beyond U+10FFFF, truncated sequences)
 * replaced by U+FFFD.
 */
#include <string.h>

#include "lib/escape.h"

long utf8_decode(const unsigned char *s, size_t n, size_t *len)
{
	static const long min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned char c = s[0];
	size_t i, need;
	long cp;

	*len = 1;
	if (c < 0x80)
		return c;
	if (c >= 0xc2 && c <= 0xdf) {
		need = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 4;
		cp = c & 0x07;
	} else {
		return -1;
	}
	if (n < need)
		return -1;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min[need] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = need;
	return cp;
}

/* Call @fn for each code point of @s; -1 for a byte that is not UTF-8. */
static void each_cp(struct strbuf *sb, const char *s,
		    void (*fn)(struct strbuf *, long, const char *, size_t))
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? strlen(s) : 0, len;

	while (n) {
		long cp = utf8_decode(p, n, &len);

		fn(sb, cp, (const char *)p, len);
		p += len;
		n -= len;
	}
}

static void json_cp(struct strbuf *sb, long cp, const char *raw, size_t len)
{
	if (cp < 0)
		strbuf_addstr(sb, "\\ufffd");
	else if (cp == '"' || cp == '\\')
		strbuf_addf(sb, "\\%c", (char)cp);
	else if (cp == '\n')
		strbuf_addstr(sb, "\\n");
	else if (cp == '\t')
		strbuf_addstr(sb, "\\t");
	else if (cp < 0x20 || cp == 0x7f)
		strbuf_addf(sb, "\\u%04lx", cp);
	else
		strbuf_add(sb, raw, len);
}

void json_escape(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	each_cp(sb, s, json_cp);
	strbuf_addch(sb, '"');
}

/* XML 1.0's Char production; \n and \t as references, for attributes too. */
static void xml_cp(struct strbuf *sb, long cp, const char *raw, size_t len)
{
	if (cp == '<')
		strbuf_addstr(sb, "&lt;");
	else if (cp == '>')
		strbuf_addstr(sb, "&gt;");
	else if (cp == '&')
		strbuf_addstr(sb, "&amp;");
	else if (cp == '"')
		strbuf_addstr(sb, "&quot;");
	else if (cp == '\'')
		strbuf_addstr(sb, "&apos;");
	else if (cp == '\n' || cp == '\t' || cp == '\r')
		strbuf_addf(sb, "&#%ld;", cp);
	else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
		 cp == 0xfffe || cp == 0xffff)
		strbuf_addstr(sb, UTF8_REPLACEMENT);
	else
		strbuf_add(sb, raw, len);
}

void xml_escape(struct strbuf *sb, const char *s)
{
	each_cp(sb, s, xml_cp);
}

/* Control characters (ESC above all) as visible \xNN, C1 controls too. */
static void term_cp(struct strbuf *sb, long cp, const char *raw, size_t len)
{
	if (cp < 0)
		strbuf_addstr(sb, UTF8_REPLACEMENT);
	else if (cp == '\n' || cp == '\t')
		strbuf_addch(sb, (char)cp);
	else if (cp < 0x20 || cp == 0x7f)
		strbuf_addf(sb, "\\x%02lx", cp);
	else if (cp >= 0x80 && cp <= 0x9f)
		strbuf_addf(sb, "\\u%04lx", cp);
	else
		strbuf_add(sb, raw, len);
}

void term_escape(struct strbuf *sb, const char *s)
{
	each_cp(sb, s, term_cp);
}
