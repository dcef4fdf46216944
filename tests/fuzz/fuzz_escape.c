// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: whatever bytes come from outside, what the report
 * writers make of them parses in its format.  JSON: one string literal of
 * strict UTF-8 with valid escapes; XML: strict UTF-8 of XML 1.0 characters,
 * '&' only as an entity and no '<'; the terminal: no C0 or C1 control but
 * newline and tab.  The checks are written here, not taken from escape.c.
 * The identity check of mail addresses must not crash on any string.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/escape.h"
#include "../../tools/core/ident.h"

/* The code point at @s, its length in *@len; -1 when not strict UTF-8. */
static long decode(const unsigned char *s, size_t n, size_t *len)
{
	long c;
	size_t i, want;

	if (s[0] < 0x80) {
		*len = 1;
		return s[0];
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		want = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		want = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		want = 4;
		c = s[0] & 0x07;
	} else {
		return -1;
	}
	if (n < want)
		return -1;
	for (i = 1; i < want; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((want == 3 && c < 0x800) || (want == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*len = want;
	return c;
}

static void utf8_only(const struct strbuf *sb)
{
	const unsigned char *s = (const unsigned char *)sb->buf;
	size_t i = 0, len;

	while (i < sb->len) {
		if (decode(s + i, sb->len - i, &len) < 0)
			abort();
		i += len;
	}
}

static void json_string(const struct strbuf *sb)
{
	const char *s = sb->buf;
	size_t i;

	utf8_only(sb);
	if (sb->len < 2 || s[0] != '"' || s[sb->len - 1] != '"')
		abort();
	for (i = 1; i < sb->len - 1; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c == '"')
			abort();
		if (c != '\\')
			continue;
		c = s[++i];
		if (c == 'u') {
			if (i + 4 >= sb->len - 1 ||
			    strspn(s + i + 1, "0123456789abcdefABCDEF") < 4)
				abort();
			i += 4;
		} else if (!c || !strchr("\"\\/bfnrt", c)) {
			abort();
		}
	}
}

static void xml_text(const struct strbuf *sb)
{
	static const char *const entities[] = {
		"&amp;", "&lt;", "&gt;", "&quot;", "&apos;",
	};
	const unsigned char *s = (const unsigned char *)sb->buf;
	size_t i = 0, k, len;

	utf8_only(sb);
	while (i < sb->len) {
		long c = decode(s + i, sb->len - i, &len);

		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
		    c == 0xfffe || c == 0xffff || c == '<')
			abort();
		if (c == '&') {
			for (k = 0; k < sizeof(entities) / sizeof(*entities); k++)
				if (!strncmp((const char *)s + i, entities[k],
					     strlen(entities[k])))
					break;
			if (k == sizeof(entities) / sizeof(*entities) &&
			    !(s[i + 1] == '#' && strchr((const char *)s + i, ';')))
				abort();
		}
		i += len;
	}
}

static void terminal_text(const struct strbuf *sb)
{
	const unsigned char *s = (const unsigned char *)sb->buf;
	size_t i = 0, len;

	utf8_only(sb);
	while (i < sb->len) {
		long c = decode(s + i, sb->len - i, &len);

		if ((c < 0x20 && c != '\n' && c != '\t') ||
		    (c >= 0x7f && c <= 0x9f))
			abort();
		i += len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	char *s = malloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	json_escape(&sb, s);
	json_string(&sb);
	strbuf_reset(&sb);
	xml_escape(&sb, s);
	xml_text(&sb);
	strbuf_reset(&sb);
	term_escape(&sb, s);
	terminal_text(&sb);
	strbuf_release(&sb);
	ident_placeholder(s);
	free(s);
	return 0;
}
