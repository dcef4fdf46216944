// SPDX-License-Identifier: GPL-2.0
/*
 * b4's string functions (tools/b4/b4_text.c): the checks of change-ids,
 * message-ids and revisions, a posting's revision, a cover's changelog, a
 * folded From: joined, and a mail as sent against the one checked.
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

static const char *differs(const char *checked, const char *sent)
{
	static struct strbuf why = STRBUF_INIT;

	strbuf_reset(&why);
	return mail_compare(checked, sent, &why) ? why.buf : NULL;
}

static void mail_as_checked(void **state)
{
	const char *a = "From: A <a@b.org>\nTo: R <r@b.org>, T <t@b.org>\nCc: l@b.org,\n m@b.org\nSubject: [PATCH] x\nDate: then\n\nbody\n";

	(void)state;
	/* what a send sets anew, CRLF, folding, header and address order */
	assert_null(differs(a, "Subject: [PATCH]\r\n  x\r\nDate: now\r\nMessage-Id:\r\n <x@y>\r\nCC: m@b.org, l@b.org\r\nto: T <t@b.org>,\r\n\tR <r@b.org>\r\nFrom: A <a@b.org>\r\nX-B4-Tracking: v=1\r\n\r\nbody\r\n"));
	assert_null(differs("From x Mon Sep 17 00:00:00 2001\nTo: \"B, A\" <a@b.org>, c@d.org\n\nx", "To: c@d.org, \"B, A\" <a@b.org>\n\nx"));
	/* a recipient more, less or moved, another subject, another body */
	assert_string_equal(differs(a, "From: A <a@b.org>\nTo: R <r@b.org>\nCc: l@b.org, m@b.org, T <t@b.org>\nSubject: [PATCH] x\n\nbody\n"),
			    "  sent, not checked: header 'Cc: T <t@b.org>, l@b.org, m@b.org'\n"
			    "  checked, not sent: header 'Cc: l@b.org, m@b.org'\n"
			    "  sent, not checked: header 'To: R <r@b.org>'\n"
			    "  checked, not sent: header 'To: R <r@b.org>, T <t@b.org>'\n");
	assert_string_equal(differs("Subject: x\n\none\ntwo\n", "Subject: x\n\none\r\nTwo\r\n"),
			    "  body line 2:\n    checked 'two'\n    sent    'Two'\n");
	assert_string_equal(differs("Subject: x\n\none\n", "Subject: x\n\none\nmore\n"),
			    "  body line 2:\n    checked: the body ends before it\n    sent    'more'\n");
	assert_string_equal(differs("Subject: x\n\n", "Subject: y\n\n"),
			    "  checked, not sent: header 'Subject: x'\n"
			    "  sent, not checked: header 'Subject: y'\n");
	/* a header line of the body is body, a line end in it is not \r\n */
	assert_non_null(differs("Subject: x\n\nDate: 1\n", "Subject: x\n\nDate: 2\n"));
	assert_non_null(differs("Subject: x\n\na\rb\n", "Subject: x\n\na\nb\n"));
}

/*
 * A range-diff as git 2.39 prints it: trailers, a reworded message, code.
 * BLANK is its context line of an empty message line: five spaces.
 */
#define BLANK "\x20\x20\x20\x20\x20\n"
static const char range_diff_text[] =
	"1:  7209175 ! 1:  0dc4c4f KVM: one\n"
	"    @@ Commit message\n"
	BLANK
	"         body\n"
	BLANK
	"    +    Reviewed-by: A Reviewer <a@kernel.org>\n"
	"    +    Tested-by: A Tester <t@kernel.org>\n"
	"    +\n"
	"      ## f ##\n"
	"     @@\n"
	"      a\n"
	"2:  c45406d ! 2:  fefd633 KVM: two\n"
	"    @@ Commit message\n"
	"    -    the old word\n"
	"    +    the new word\n"
	BLANK
	"    +    Reviewed-by: A Reviewer <a@kernel.org>\n"
	"3:  1111111 ! 3:  2222222 KVM: three\n"
	"    @@ Commit message\n"
	"    +    Reviewed-by: A Reviewer <a@kernel.org>\n"
	"    @@ arch/x86/kvm/pmu.c: static void f(void)\n"
	"    -+\tx = 1;\n"
	"    ++\tx = 2;\n"
	"4:  3333333 = 4:  4444444 KVM: four\n"
	"5:  5555555 ! 5:  6666666 KVM: five\n"
	"    @@ Commit message\n"
	"    +    Link: https://lore.kernel.org/r/x@y\n";

static void reroll_lines(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	reroll_changelog(range_diff_text, &sb);
	assert_string_equal(sb.buf,
		"- Patch 2, KVM: two: commit message reworded, no code change\n"
		"- Patch 3, KVM: three: EDITME: say what changed (the range-diff shows it)\n"
		"- Collected trailers (patch 1, 5)\n");
	strbuf_reset(&sb);
	reroll_changelog("1:  7209175 ! 1:  0dc4c4f KVM: one\n"
			 "    @@ Commit message\n"
			 "    +    Acked-by: A Reviewer <a@kernel.org>\n"
			 "2:  c45406d < -:  ------- KVM: gone\n", &sb);
	assert_string_equal(sb.buf,
		"- Dropped KVM: gone: EDITME: say why\n"
		"- Collected trailers (patch 1)\n");
	strbuf_reset(&sb);
	reroll_changelog("1:  7209175 ! 1:  0dc4c4f KVM: one\n"
			 "    @@ Commit message\n"
			 "    +    Reviewed-by: A Reviewer <a@kernel.org>\n", &sb);
	assert_string_equal(sb.buf,
		"- Collected trailers (patch 1)\n"
		"- EDITME: no code changed: say why there is a new revision\n");
	strbuf_release(&sb);
}

static void carry_trailers(void **state)
{
	static const char upstream[] =
		"Subject: [PATCH 1/5] KVM: one\n\nWhy.\n\n"
		"Fixes: 75189d1de1b3 (\"KVM: x86/pmu: x\")\n"
		"Cc: stable@vger.kernel.org\n"
		"Reviewed-by: A Reviewer <a@kernel.org>\n"
		"Tested-by: A Tester <t@kernel.org>\n"
		"---\n arch/x86/kvm/pmu.c | 1 +\n";
	static const char backport[] =
		"Subject: [PATCH] KVM: one\n\nWhy.\n\n"
		"Fixes: 75189d1de1b3 (\"KVM: x86/pmu: x\")\n"
		"Cc: stable@vger.kernel.org\n"
		"Tested-by: A Tester <t@kernel.org>\n"
		"[ backport to 6.1.y: the handlers\n  differ. ]\n"
		"---\n arch/x86/kvm/pmu.h | 1 +\n";
	struct strbuf sb = STRBUF_INIT, again = STRBUF_INIT;

	(void)state;
	assert_int_equal(carry_review_trailers(upstream, backport, &sb), 1);
	assert_string_equal(sb.buf,
		"Subject: [PATCH] KVM: one\n\nWhy.\n\n"
		"Fixes: 75189d1de1b3 (\"KVM: x86/pmu: x\")\n"
		"Cc: stable@vger.kernel.org\n"
		"Tested-by: A Tester <t@kernel.org>\n"
		"Reviewed-by: A Reviewer <a@kernel.org>\n"
		"[ backport to 6.1.y: the handlers\n  differ. ]\n"
		"---\n arch/x86/kvm/pmu.h | 1 +\n");
	/* once carried, nothing more to add */
	assert_int_equal(carry_review_trailers(upstream, sb.buf, &again), 0);
	assert_string_equal(again.buf, sb.buf);
	strbuf_reset(&again);
	/* no note: before "---" */
	assert_int_equal(carry_review_trailers(upstream,
		"Subject: x\n\nWhy.\n\nCc: stable@vger.kernel.org\n---\n d\n",
		&again), 2);
	assert_string_equal(again.buf,
		"Subject: x\n\nWhy.\n\nCc: stable@vger.kernel.org\n"
		"Reviewed-by: A Reviewer <a@kernel.org>\n"
		"Tested-by: A Tester <t@kernel.org>\n---\n d\n");
	strbuf_reset(&again);
	assert_int_equal(carry_review_trailers(upstream, "no separator\n", &again), -1);
	strbuf_release(&sb);
	strbuf_release(&again);
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
		cmocka_unit_test(mail_as_checked),
		cmocka_unit_test(reroll_lines),
		cmocka_unit_test(carry_trailers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
