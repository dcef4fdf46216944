// SPDX-License-Identifier: GPL-2.0
/* Placeholder identities, in "Name <email>" and in a patch's headers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/fsutil.h"
#include "../../tools/ident.h"

static void placeholders(void **state)
{
	(void)state;
	assert_non_null(ident_placeholder("Patch Author <patch.author@example.invalid>"));
	assert_non_null(ident_placeholder("Patch Author <real@kernel.org>"));
	assert_non_null(ident_placeholder("A Name <a@example.com>"));
	assert_non_null(ident_placeholder("A Name <a@mail.example.org>"));
	assert_non_null(ident_placeholder("A Name <a@localhost>"));
	assert_non_null(ident_placeholder("A Name <not-an-address>"));
	assert_non_null(ident_placeholder(" <>"));
	assert_non_null(ident_placeholder("no brackets"));
	assert_null(ident_placeholder("Luka Absandze <absandze@amazon.de>"));
	assert_null(ident_placeholder("A Name <a@myexample.com>"));
	assert_null(ident_placeholder("Seed 35fed79b maintainers <maintainers@users.noreply.a-seed-35fed79b.example>"));
}

static void patch_headers(void **state)
{
	static const char patch[] =
		"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
		"From: A Very Long Name Indeed\n"
		" <patch.author@example.invalid>\n"
		"Subject: [PATCH] x\n"
		"\n"
		"Body.\n"
		"\n"
		"Reviewed-by: Real Person <real@kernel.org>\n"
		"Signed-off-by: Patch Author <patch.author@example.invalid>\n"
		"---\n"
		"+From: Patch Author <in the diff, not a header>\n";
	char path[] = "/tmp/test_ident.XXXXXX";
	struct strbuf err = STRBUF_INIT;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(write_file(path, patch, sizeof(patch) - 1), 0);
	assert_int_equal(ident_check_patch(path, &err), 2);
	assert_non_null(strstr(err.buf, ":2: From: A Very Long Name Indeed: a placeholder domain"));
	assert_non_null(strstr(err.buf, ":9: Signed-off-by: Patch Author"));
	strbuf_release(&err);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(placeholders),
		cmocka_unit_test(patch_headers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
