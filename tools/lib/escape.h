/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_ESCAPE_H
#define KVERIFY_ESCAPE_H

#include "lib/strbuf.h"

/*
 * Strings from outside (logs, compiler output, guest console, mail) on
 * their way into a format: each function escapes for its format, and a
 * byte sequence that is not UTF-8 becomes U+FFFD, never passed through.
 */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/**
 * utf8_decode() - Decode one UTF-8 sequence.
 * @s: The bytes.
 * @n: How many are left at @s, at least 1.
 * @len: Set to how many bytes the sequence takes: 1 for one that is not
 *	UTF-8.
 *
 * An overlong form, a surrogate, a code point above U+10FFFF or a
 * truncated sequence is not UTF-8.
 *
 * Return: The code point, or -1 for a sequence that is not UTF-8.
 */
long utf8_decode(const unsigned char *s, size_t n, size_t *len);

/**
 * json_escape() - Append a string as a JSON string, with its quotes.
 * @sb: The buffer.
 * @s: The string.  Quotes and backslashes are escaped, newlines and tabs
 *	are written as their two-character escapes, other control characters
 *	as a \u escape, and invalid UTF-8 as the escape of U+FFFD.
 */
void json_escape(struct strbuf *sb, const char *s);

/**
 * xml_escape() - Append a string as XML text or an attribute's value.
 * @sb: The buffer.
 * @s: The string.  The five markup characters become entities; newline,
 *	tab and carriage return become character references (which an
 *	attribute keeps); a C0 or C1 control, U+FFFE, U+FFFF or invalid
 *	UTF-8, which XML 1.0 does not allow, becomes U+FFFD.
 */
void xml_escape(struct strbuf *sb, const char *s);

/**
 * term_escape() - Append a string for a terminal.
 * @sb: The buffer.
 * @s: The string.  Newlines and tabs are kept; other control characters
 *	(ESC above all) are written as a visible hexadecimal escape, C1
 *	controls as a \u escape, and invalid UTF-8 as U+FFFD.
 */
void term_escape(struct strbuf *sb, const char *s);

#endif
