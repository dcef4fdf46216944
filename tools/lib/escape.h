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

/* The code point at @s (@n bytes left) in *@len bytes, or -1 (1 byte). */
long utf8_decode(const unsigned char *s, size_t n, size_t *len);

void json_escape(struct strbuf *sb, const char *s);	/* with the quotes */
void xml_escape(struct strbuf *sb, const char *s);	/* text or attribute */
void term_escape(struct strbuf *sb, const char *s);	/* \n and \t kept */

#endif
