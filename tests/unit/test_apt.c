// SPDX-License-Identifier: GPL-2.0
/* deb822 fields, as apt-cache show and apt's sources print them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/sources/apt.h"

static const char show[] =
	"Package: linux-source-6.12\n"
	"Version-Extra: not this\n"
	"version:\t6.12.117-1~deb12u1\n"
	"Depends: binutils, bzip2\n"
	"\n"
	"Package: linux-headers-6.12.117+deb12-amd64\n"
	"Depends: linux-headers-6.12.117+deb12-common, gcc-12";

static void field_value(void **state)
{
	char *v;

	(void)state;
	/* names are not case-sensitive; a longer name is another field */
	v = deb822_field(show, NULL, "Version");
	assert_non_null(v);
	assert_string_equal(v, "6.12.117-1~deb12u1");
	free(v);
	v = deb822_field(show, NULL, "Depends");
	assert_string_equal(v, "binutils, bzip2");
	free(v);
	assert_null(deb822_field(show, NULL, "Maintainer"));
	assert_null(deb822_field(show, NULL, "Versio"));
}

static void paragraph_bounds(void **state)
{
	const char *second = strstr(show, "\n\n") + 2;
	char *v;

	(void)state;
	/* the first paragraph only: the second's Depends is not seen */
	assert_null(deb822_field(show, second - 1, "Maintainer"));
	v = deb822_field(second, NULL, "Depends");
	assert_string_equal(v, "linux-headers-6.12.117+deb12-common, gcc-12");
	free(v);
	/* a line cut by the end is not read past it */
	assert_null(deb822_field(show, show + 5, "Package"));
	v = deb822_field(show, show + 14, "Package");
	assert_string_equal(v, "linux");
	free(v);
}

/* apt-cache madison: each version once, in its order; other lines ignored. */
static void madison_versions(void **state)
{
	struct strbuf out = STRBUF_INIT;
	int n = 0;

	(void)state;
	apt_madison_parse(" linux-source-6.12 | 6.12.118-1~deb12u1 | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages\n"
			  " linux-source-6.12 | 6.12.117-1~deb12u1 | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages\n"
			  " linux-source-6.12 | 6.12.118-1~deb12u1 | http://deb.debian.org/debian-security bookworm-security/main Sources\n"
			  "N: no bar here\n"
			  " linux-source-6.12 | 6.12.11-1 | x\n"
			  " linux-source-6.12 |  | empty\n",
			  &out, &n);
	assert_int_equal(n, 3);
	assert_string_equal(out.buf, "6.12.118-1~deb12u1, 6.12.117-1~deb12u1, 6.12.11-1");
	strbuf_release(&out);
	n = 0;
	apt_madison_parse("", &out, &n);
	assert_int_equal(n, 0);
	assert_string_equal(out.buf, "");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(field_value),
		cmocka_unit_test(paragraph_bounds),
		cmocka_unit_test(madison_versions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
