// SPDX-License-Identifier: GPL-2.0
/* Escaping for JSON, XML and the terminal; invalid UTF-8 as U+FFFD. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../tools/lib/escape.h"

#define FFFD UTF8_REPLACEMENT

static const char *esc(void (*fn)(struct strbuf *, const char *),
		       const char *s)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	fn(&sb, s);
	return sb.buf;
}

static void json(void **state)
{
	(void)state;
	assert_string_equal(esc(json_escape, "a\"\\\n\t\x1b\x7f"),
			    "\"a\\\"\\\\\\n\\t\\u001b\\u007f\"");
	assert_string_equal(esc(json_escape, "\xff"), "\"\\ufffd\"");
	assert_string_equal(esc(json_escape, "\xc3\xa9"), "\"\xc3\xa9\"");
}

static void invalid_utf8(void **state)
{
	(void)state;
	/* overlong '/', a surrogate, beyond U+10FFFF, truncated, lone continuation */
	assert_string_equal(esc(xml_escape, "\xc0\xaf"), FFFD FFFD);
	assert_string_equal(esc(xml_escape, "\xed\xa0\x80"), FFFD FFFD FFFD);
	assert_string_equal(esc(xml_escape, "\xf4\x90\x80\x80"),
			    FFFD FFFD FFFD FFFD);
	assert_string_equal(esc(xml_escape, "x\xe2\x82"), "x" FFFD FFFD);
	assert_string_equal(esc(xml_escape, "\x80"), FFFD);
	assert_string_equal(esc(xml_escape, "\xf0\x9f\x90\xa7"),
			    "\xf0\x9f\x90\xa7");
}

static void xml(void **state)
{
	(void)state;
	assert_string_equal(esc(xml_escape, "<a href=\"x\">&'\n\r\x01"),
			    "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&#10;&#13;" FFFD);
	assert_string_equal(esc(xml_escape, "\xef\xbf\xbe"), FFFD);
}

static void terminal(void **state)
{
	(void)state;
	assert_string_equal(esc(term_escape, "\x1b[31mred\n\t\xff\xc2\x9b"),
			    "\\x1b[31mred\n\t" FFFD "\\u009b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json),
		cmocka_unit_test(invalid_utf8),
		cmocka_unit_test(xml),
		cmocka_unit_test(terminal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
