// SPDX-License-Identifier: GPL-2.0
/* kernels.list parsing: good lines, and each kind of bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/sources/targets.h"

static int parse(const char *text, size_t len, struct target_list *l,
		 struct strbuf *err)
{
	memset(l, 0, sizeof(*l));
	strbuf_reset(err);
	return targets_parse("k.list", text, len, l, err);
}

static void expect_error(const char *text, size_t len, const char *what)
{
	struct strbuf err = STRBUF_INIT;
	struct target_list l;

	assert_int_equal(parse(text, len, &l, &err), -1);
	if (!strstr(err.buf, what))
		fail_msg("error \"%s\" does not say \"%s\"", err.buf,
			 what);
	targets_clear(&l);
	strbuf_release(&err);
}

#define EXPECT_ERROR(text, what) expect_error(text, sizeof(text) - 1, what)

static void good_lines(void **state)
{
	static const char text[] =
		"# comment\n\n"
		"6.12 deb:linux-source-6.12@bookworm-security backports/6.12\n"
		"7.3\tdeb:linux-source-7.3=7.3.4-1~bpo13+1@trixie-backports\tseries\tconfigs/x.config\n"
		"5.10 deb:linux-source-5.10@bullseye-security n/a: too old, really\n"
		"m git:https://example.invalid/linux.git#v7.3 series\n"
		"d dir:/usr/src/linux series\n"
		"v dir:/usr/src/vendor auto\n";
	struct strbuf err = STRBUF_INIT;
	struct target_list l;

	(void)state;
	assert_int_equal(parse(text, sizeof(text) - 1, &l, &err), 0);
	assert_int_equal(l.nr, 6);
	assert_string_equal(l.v[0].name, "6.12");
	assert_int_equal(l.v[0].kind, SRC_DEB);
	assert_string_equal(l.v[0].deb_package, "linux-source-6.12");
	assert_string_equal(l.v[0].deb_suite, "bookworm-security");
	assert_null(l.v[0].deb_version);
	assert_string_equal(l.v[0].series, "backports/6.12");
	assert_int_equal(l.v[0].line, 3);
	assert_string_equal(l.v[1].deb_version, "7.3.4-1~bpo13+1");
	assert_string_equal(l.v[1].config, "configs/x.config");
	assert_null(l.v[2].series);
	assert_string_equal(l.v[2].na_reason, "too old, really");
	assert_int_equal(l.v[3].kind, SRC_GIT);
	assert_string_equal(l.v[3].value, "https://example.invalid/linux.git");
	assert_string_equal(l.v[3].git_ref, "v7.3");
	assert_int_equal(l.v[4].kind, SRC_DIR);
	assert_null(l.v[5].series);
	assert_true(l.v[5].auto_series);
	assert_null(l.v[5].na_reason);
	targets_clear(&l);
	strbuf_release(&err);
}

static void bad_input(void **state)
{
	char big[70000];

	(void)state;
	EXPECT_ERROR("a deb:linux-source-6.1@bookworm\n", "k.list:1: missing SERIES");
	EXPECT_ERROR("\n\na\n", "k.list:3: missing SOURCE");
	EXPECT_ERROR("a svn:x series\n", "unknown source kind 'svn:'");
	EXPECT_ERROR("a deb:linux-source-6.1@b s\na deb:linux-source-6.1@b s\n",
		     "k.list:2: duplicate target name 'a' (first defined at line 1)");
	EXPECT_ERROR("a deb:linux-source-6.1@b series\r\n", "CRLF");
	EXPECT_ERROR("a deb:linux-source-6.1@b\tseries\n", "both tabs and spaces");
	EXPECT_ERROR("a deb:linux-source-6.1@b se\0ries\n", "NUL byte at column 28");
	EXPECT_ERROR("a deb:linux-source-6.1@b s\xff\n", "invalid UTF-8 at column 27");
	EXPECT_ERROR("a deb:linux-source-6.1@b s\xc3\n", "invalid UTF-8");
	EXPECT_ERROR("a deb:linux-source-6.1 series\n", "names no suite");
	EXPECT_ERROR("a deb:bash@sid series\n", "not a linux-source-X.Y");
	EXPECT_ERROR("a deb:linux-source-6.1@sid ../etc\n", "must not contain '..'");
	EXPECT_ERROR("a deb:linux-source-6.1@sid /etc\n", "relative path");
	EXPECT_ERROR("a deb:linux-source-6.1@sid s;touch\n", "relative path");
	EXPECT_ERROR("a git:-oProxyCommand=x series\n", "does not start with '-'");
	EXPECT_ERROR("a git:u#$(x) series\n", "not a plain ref name");
	EXPECT_ERROR("$(x) dir:/ series\n", "target name");
	EXPECT_ERROR("a dir:/ n/a:\n", "n/a needs a reason");
	EXPECT_ERROR("a dir:/ s c extra\n", "unexpected field 'extra'");
	EXPECT_ERROR("a git:fd::0 series\n", "git remote helper");
	EXPECT_ERROR("a git:ext::sh%-c%touch%x series\n", "git remote helper");
	EXPECT_ERROR("a git:https::x series\n", "git remote helper");
	EXPECT_ERROR("a git:http://example.invalid/l.git series\n",
		     "git transport 'http' is not allowed");
	EXPECT_ERROR("a git:foo://x series\n", "git transport 'foo'");
	EXPECT_ERROR("a git:a$b:x series\n", "neither a path nor a URL");
	memset(big, 'x', sizeof(big));
	expect_error(big, sizeof(big), "at most 4096");
}

static void good_utf8_in_reason(void **state)
{
	static const char text[] = "a dir:/ n/a: pas de \xc3\xa9t\xc3\xa9\n";
	struct strbuf err = STRBUF_INIT;
	struct target_list l;

	(void)state;
	assert_int_equal(parse(text, sizeof(text) - 1, &l, &err), 0);
	assert_string_equal(l.v[0].na_reason, "pas de \xc3\xa9t\xc3\xa9");
	targets_clear(&l);
	strbuf_release(&err);
}

static void git_transports(void **state)
{
	static const char text[] =
		"a git:/srv/linux series\n"
		"b git:../linux#v7.3 series\n"
		"c git:file:///srv/linux.git series\n"
		"d git:https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git series\n"
		"e git:git://git.kernel.org/linux.git series\n"
		"f git:ssh://git@example.org/linux.git series\n"
		"g git:git@example.org:linux.git series\n"
		"h git:kernel_ci@build-01.example.org:linux series\n";
	struct strbuf err = STRBUF_INIT;
	struct target_list l;

	(void)state;
	assert_int_equal(parse(text, sizeof(text) - 1, &l, &err), 0);
	assert_int_equal(l.nr, 8);
	assert_string_equal(l.v[1].value, "../linux");
	assert_string_equal(l.v[6].value, "git@example.org:linux.git");
	targets_clear(&l);
	strbuf_release(&err);
}

/* Many names (t0040 times 100,000): the duplicate names its first line. */
static void many_targets(void **state)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct target_list l;
	int i;

	(void)state;
	for (i = 0; i < 20000; i++)
		strbuf_addf(&text, "t%d dir:/ n/a: x\n", i);
	assert_int_equal(parse(text.buf, text.len, &l, &err), 0);
	assert_int_equal(l.nr, 20000);
	assert_string_equal(targets_find(&l, "t19999", &err)->name, "t19999");
	targets_clear(&l);
	strbuf_addstr(&text, "t4711 dir:/ n/a: x\n");
	assert_int_equal(parse(text.buf, text.len, &l, &err), -1);
	assert_non_null(strstr(err.buf,
			       "k.list:20001: duplicate target name 't4711' (first defined at line 4712)"));
	targets_clear(&l);
	strbuf_release(&text);
	strbuf_release(&err);
}

/* The one rule for names (targets, backport variants, b4's change-ids). */
static void plain_names(void **state)
{
	static const char *const good[] = { "6.12", "a", "sweep-7.2_1", "X.Y" };
	static const char *const bad[] = {
		"", ".hidden", "-opt", "6 12", "a/b", "..", "x;y", "n\xc3\xa9",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++)
		if (!plain_name(good[i]))
			fail_msg("'%s' refused as a name", good[i]);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (plain_name(bad[i]))
			fail_msg("'%s' taken as a name", bad[i]);
	assert_true(plain_chars("7.3.4-1~bpo13+1", ".+~:-"));
	assert_true(plain_chars("", "-"));
	assert_false(plain_chars("1:2", ".+~-"));
}

static void find_by_prefix(void **state)
{
	static const char text[] = "6.1 dir:/ s\n6.12 dir:/ s\n7.3 dir:/ s\n";
	struct strbuf err = STRBUF_INIT;
	struct target_list l;

	(void)state;
	assert_int_equal(parse(text, sizeof(text) - 1, &l, &err), 0);
	assert_string_equal(targets_find(&l, "6.1", &err)->name, "6.1");
	assert_string_equal(targets_find(&l, "7", &err)->name, "7.3");
	assert_null(targets_find(&l, "6", &err));
	assert_non_null(strstr(err.buf, "ambiguous target '6'"));
	strbuf_reset(&err);
	assert_null(targets_find(&l, "9.9", &err));
	assert_non_null(strstr(err.buf,
			       "unknown target '9.9'; known targets: 6.1 6.12 7.3"));
	targets_clear(&l);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_lines),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(good_utf8_in_reason),
		cmocka_unit_test(plain_names),
		cmocka_unit_test(find_by_prefix),
		cmocka_unit_test(git_transports),
		cmocka_unit_test(many_targets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
