// SPDX-License-Identifier: GPL-2.0
/*
 * b4's string functions (tools/b4/b4_text.c): the checks of change-ids,
 * message-ids and revisions, a posting's revision, a cover's changelog, a
 * folded From: joined, and a mail without what a send sets anew.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/b4/b4_int.h"

static void change_id(void **state)
{
	char long_id[130];

	(void)state;
	assert_true(valid_change_id("20261203-kvm-pmu-tolerance-0123abcd"));
	assert_true(valid_change_id("a.b_c-d"));
	assert_false(valid_change_id(""));
	assert_false(valid_change_id("a/b"));
	assert_false(valid_change_id("a b"));
	assert_false(valid_change_id("a\"b"));
	memset(long_id, 'a', 129);
	long_id[129] = '\0';
	assert_false(valid_change_id(long_id));
	long_id[128] = '\0';
	assert_true(valid_change_id(long_id));
}

static void msgid(void **state)
{
	(void)state;
	assert_true(valid_msgid("<20261203-x@kernel.org>"));
	assert_true(valid_msgid("20261203-x@kernel.org"));
	assert_true(valid_msgid("https://lore.kernel.org/r/x@y"));
	assert_false(valid_msgid(""));
	assert_false(valid_msgid("-x@y"));	/* an option, to b4 */
	assert_false(valid_msgid("x y@z"));
	assert_false(valid_msgid("x\t@z"));
	assert_false(valid_msgid("x\x7f@z"));
	assert_false(valid_msgid("no-at-sign"));
}

static void revision(void **state)
{
	(void)state;
	assert_int_equal(parse_revision("v3"), 3);
	assert_int_equal(parse_revision("3"), 3);
	assert_int_equal(parse_revision("v999"), 999);
	assert_int_equal(parse_revision("v1000"), 0);
	assert_int_equal(parse_revision("v0"), 0);
	assert_int_equal(parse_revision("v"), 0);
	assert_int_equal(parse_revision("v3x"), 0);
	assert_int_equal(parse_revision("+3"), 0);
	assert_int_equal(parse_revision("v-3"), 0);
	assert_int_equal(parse_revision("v99999999999999999999999"), 0);
}

static void posting_revision(void **state)
{
	(void)state;
	assert_int_equal(revision_of("Subject: [PATCH v4 1/6] KVM: x"), 4);
	assert_int_equal(revision_of("Subject: [PATCH 1/6] KVM: x"), 1);
	assert_int_equal(revision_of("no subject at all"), 1);
	assert_int_equal(revision_of("Subject: [PATCH v0 1/6] x"), 0);
	assert_int_equal(revision_of("Subject: [PATCH v99999999999 1/6]"), 0);
	/* the first one counts */
	assert_int_equal(revision_of("[PATCH v2 0/1]\n[PATCH v5 1/1]"), 2);
}

static void changelog(void **state)
{
	(void)state;
	assert_true(has_changelog("Cover.\n\nChanges in v2:\n- x\n", 2));
	assert_true(has_changelog("Cover.\n\nChanges since v1:\n- x\n", 2));
	assert_true(has_changelog("Changes in v3:  \r\n- x\n", 3));
	assert_false(has_changelog("Changes in v2:\n- x\n", 3));
	assert_false(has_changelog("Changes in v2:\n\n- x\n", 2));
	assert_false(has_changelog("Changes in v2:\n", 2));
	assert_false(has_changelog("The Changes in v2: are these\n- x\n", 2));
}

static const char *unfolded(const char *in)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	strbuf_addstr(&sb, in);
	unfold_from(&sb);
	return sb.buf;
}

static void from_unfolded(void **state)
{
	const char *plain = "From 0 Mon Sep 17 00:00:00 2001\nFrom: A <a@b.org>\nSubject: x\n\nbody\n";

	(void)state;
	assert_string_equal(unfolded("From 0 Mon Sep 17 00:00:00 2001\nFrom: A Long Name\n <a@b.org>\nSubject: x\n\nbody\n"),
			    "From 0 Mon Sep 17 00:00:00 2001\nFrom: A Long Name <a@b.org>\nSubject: x\n\nbody\n");
	assert_string_equal(unfolded(plain), plain);
	/* a folded Subject: stays folded: only From: is joined */
	assert_string_equal(unfolded("From 0\nFrom: A <a@b.org>\nSubject: x\n y\n\nb\n"),
			    "From 0\nFrom: A <a@b.org>\nSubject: x\n y\n\nb\n");
	assert_string_equal(unfolded("no headers"), "no headers");
}

static const char *sent(const char *in)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	sendable(in, &sb);
	return sb.buf;
}

static void sendable_mail(void **state)
{
	(void)state;
	assert_string_equal(sent("From: a\r\nDate: now\r\nMessage-Id:\r\n <x@y>\r\nSubject: s\r\n\r\nDate: in the body\r\n"),
			    "From: a\nSubject: s\n\nDate: in the body\n");
	assert_string_equal(sent("References: <a@b>\n\t<c@d>\nX-B4-Tracking: v=1\nTo: t\n\nx"),
			    "To: t\n\nx\n");
	assert_string_equal(sent("message-id: <x@y>\nTo: t\n\n"), "To: t\n\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(change_id),
		cmocka_unit_test(msgid),
		cmocka_unit_test(revision),
		cmocka_unit_test(posting_revision),
		cmocka_unit_test(changelog),
		cmocka_unit_test(from_unfolded),
		cmocka_unit_test(sendable_mail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
