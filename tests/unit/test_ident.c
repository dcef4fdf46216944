// SPDX-License-Identifier: GPL-2.0
/*
 * Placeholder identities, in "Name <email>", in the operator's git
 * identity and in a patch's headers; the operator's From:, Signed-off-by:
 * and Co-developed-by: stamped on a patch and taken off again.
 *
 * Which identities these tests use: the ones that must be refused are
 * placeholders by construction (reserved domains, "Patch Author").  The
 * ones that must pass are no person's: the operator is made at run time
 * from this account and this machine (getpwuid(), uname(); a host name
 * without a dot as its name on its own link, NAME.local, RFC 6762), an
 * address the account running the test owns, and nothing of it is
 * committed; the near misses of the reserved domains (myexample.com,
 * test.com, ...) are bare addresses checked by a pure function, never a
 * name that signs.  The only real person is the author of the series'
 * patch 0005, Luka Absandze, as series/ names him.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pwd.h>
#include <sys/utsname.h>
#include <cmocka.h>

#include "../../tools/core/ident.h"
#include "../../tools/lib/fsutil.h"

/* This account at this machine, as git would guess it, made now. */
static void run_time_operator(struct ident *id)
{
	struct passwd *pw = getpwuid(getuid());
	struct utsname u;

	assert_non_null(pw);
	assert_int_equal(uname(&u), 0);
	id->name = xstrfmt("kverify unit test run by %s", pw->pw_name);
	/* a name without a dot: the machine's own on its link (RFC 6762) */
	id->email = xstrfmt("%s@%s%s", pw->pw_name, u.nodename,
			    strchr(u.nodename, '.') ? "" : ".local");
	id->full = xstrfmt("%s <%s>", id->name, id->email);
	id->origin = xstrdup("the test");
}

static void reserved_domains(void **state)
{
	static const char *const refused[] = {
		/* the reserved top-level domains, anywhere as the last label */
		"A Name <a@example>",
		"A Name <a@host.example>",
		"A Name <a@deep.sub.host.EXAMPLE>",
		"A Name <a@host.example.>",
		"A Name <a@test>",
		"A Name <a@kverify.test>",
		"A Name <a@invalid>",
		"A Name <a@example.invalid>",
		"A Name <a@localhost>",
		"A Name <a@box.localhost>",
		/* the reserved second-level domains and their subdomains */
		"A Name <a@example.com>",
		"A Name <a@mail.example.com>",
		"A Name <a@example.net>",
		"A Name <a@lists.example.net>",
		"A Name <a@example.org>",
		"A Name <a@mail.example.org>",
		/* what this repository carried, and git's own guesses */
		"Seed 35fed79b maintainers <maintainers@users.noreply.a-seed-35fed79b.example>",
		"A Name <a@box.(none)>",
		"A Name <a@box.localdomain>",
		/* a bare host name: no domain anybody else can write to */
		"A Name <a@vm>",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		const char *why = ident_placeholder(refused[i]);

		if (!why)
			fail_msg("%s: not refused", refused[i]);
		assert_non_null(strstr(why, "nobody") ? why :
				strstr(why, "no domain") ? why :
				strstr(why, "(none)") ? why :
				strstr(why, "this machine"));
	}
	assert_non_null(strstr(ident_placeholder("A <a@x.example>"),
			       "reserved top-level domain .example (RFC 2606"));
	assert_non_null(strstr(ident_placeholder("A <a@m.example.org>"),
			       "reserved domain example.org"));
}

static void literal_placeholders(void **state)
{
	(void)state;
	assert_non_null(ident_placeholder("Patch Author <patch.author@example.invalid>"));
	assert_non_null(ident_placeholder("Patch Author <pa@kernel.org>"));
	assert_non_null(ident_placeholder("A Name <patch.author@kernel.org>"));
	assert_non_null(ident_placeholder("EDITME <a@kernel.org>"));
	assert_non_null(ident_placeholder("Your Name <a@kernel.org>"));
	/* the example of ident_sender()'s own message, copied as it is */
	assert_non_null(ident_placeholder("A Name <you@your-domain>"));
	assert_non_null(ident_placeholder("A Name <not-an-address>"));
	assert_non_null(ident_placeholder("A Name <a@b@c>"));
	assert_non_null(ident_placeholder(" <>"));
	assert_non_null(ident_placeholder("no brackets"));
}

static void real_looking_pass(void **state)
{
	/* near misses: no reserved label, no reserved domain */
	static const char *const pass[] = {
		"A Name <a@myexample.com>",
		"A Name <a@example.com.au>",
		"A Name <a@examples.org>",
		"A Name <a@test.com>",
		"A Name <a@testing.dev>",
		"A Name <a@invalid.de>",
		"A Name <a@localhost.de>",
		"A Name <a@my-example.net>",
		"A Name <example@kernel.org>",
		"Luka Absandze <absandze@amazon.de>",
	};
	struct ident op = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(pass); i++)
		if (ident_placeholder(pass[i]))
			fail_msg("%s: refused: %s", pass[i],
				 ident_placeholder(pass[i]));
	run_time_operator(&op);
	/* a machine named "localhost" would make it a placeholder rightly */
	if (!strstr(op.email, "localhost") && !strstr(op.email, "localdomain"))
		assert_null(ident_placeholder(op.full));
	ident_clear(&op);
}

/* ident_sender(): which identity, where it came from, what to do. */
static void sender_sources(void **state)
{
	static const char gitconfig[] =
		"[user]\n\tname = Seed 35fed79b maintainers\n"
		"\temail = maintainers@users.noreply.a-seed-35fed79b.example\n";
	char home[] = "/tmp/test_ident_home.XXXXXX";
	struct strbuf err = STRBUF_INIT;
	struct ident id = { 0 }, op = { 0 };
	char *cfg;

	(void)state;
	assert_non_null(mkdtemp(home));
	cfg = xstrfmt("%s/.gitconfig", home);
	assert_int_equal(write_file(cfg, gitconfig, strlen(gitconfig)), 0);
	setenv("HOME", home, 1);
	setenv("XDG_CONFIG_HOME", home, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	unsetenv("GIT_CONFIG_GLOBAL");
	unsetenv("GIT_COMMITTER_NAME");
	unsetenv("GIT_COMMITTER_EMAIL");
	unsetenv("GIT_AUTHOR_NAME");
	unsetenv("GIT_AUTHOR_EMAIL");
	unsetenv("EMAIL");
	assert_true(chdir(home) == 0);

	/* the placeholder of ~/.gitconfig: refused, named, located, fixed */
	assert_int_equal(ident_sender(&id, &err), -1);
	assert_non_null(strstr(err.buf, "your git identity \"Seed 35fed79b maintainers <maintainers@users.noreply.a-seed-35fed79b.example>\" is an address in the reserved top-level domain .example"));
	assert_non_null(strstr(err.buf, "git config user.email (file:"));
	assert_non_null(strstr(err.buf, cfg));
	assert_non_null(strstr(err.buf, "git config --global user.email you@your-domain"));
	ident_clear(&id);
	strbuf_reset(&err);

	/* GIT_AUTHOR_EMAIL names the address when it is what was used */
	setenv("GIT_AUTHOR_EMAIL", "me@host.test", 1);
	assert_int_equal(ident_sender(&id, &err), -1);
	assert_non_null(strstr(err.buf, "GIT_AUTHOR_EMAIL=me@host.test in the environment"));
	assert_non_null(strstr(err.buf, ".test (RFC 2606"));
	ident_clear(&id);
	strbuf_reset(&err);

	/* GIT_COMMITTER_* go before GIT_AUTHOR_* and the configuration */
	run_time_operator(&op);
	setenv("GIT_COMMITTER_NAME", op.name, 1);
	setenv("GIT_COMMITTER_EMAIL", op.email, 1);
	if (!ident_placeholder(op.full)) {
		assert_int_equal(ident_sender(&id, &err), 0);
		assert_string_equal(id.full, op.full);
		ident_clear(&id);
	}
	strbuf_reset(&err);

	/* none at all */
	unlink(cfg);
	unsetenv("GIT_COMMITTER_NAME");
	unsetenv("GIT_COMMITTER_EMAIL");
	unsetenv("GIT_AUTHOR_EMAIL");
	assert_int_equal(ident_sender(&id, &err), -1);
	assert_non_null(strstr(err.buf, "your git identity \" <>\" is no name"));
	assert_non_null(strstr(err.buf, "neither git config user.name nor"));
	ident_clear(&id);
	ident_clear(&op);
	strbuf_release(&err);
	rmdir(home);
	free(cfg);
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
		"Reviewed-by: A Reviewer <rev@kernel.org>\n"
		"Signed-off-by: Patch Author <patch.author@example.invalid>\n"
		"Tested-by: A Tester <tester@lab.test>\n"
		"---\n"
		"+From: Patch Author <in the diff, not a header>\n";
	char path[] = "/tmp/test_ident.XXXXXX";
	struct strbuf err = STRBUF_INIT;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(write_file(path, patch, sizeof(patch) - 1), 0);
	assert_int_equal(ident_check_patch(path, &err), 3);
	assert_non_null(strstr(err.buf, ":2: From: A Very Long Name Indeed: an address in the reserved top-level domain .invalid"));
	assert_non_null(strstr(err.buf, ":9: Signed-off-by: Patch Author"));
	assert_non_null(strstr(err.buf, ":10: Tested-by: A Tester <tester@lab.test>: an address in the reserved top-level domain .test"));
	strbuf_release(&err);
	unlink(path);
}

#define HEAD "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
#define SUBJ "Date: Sun, 29 Nov 2026 12:00:01 +0000\nSubject: [PATCH 1/2] KVM: x86: A change\n\nWhy.\n\n"
#define DIFF "---\n a | 1 +\n\ndiff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -0,0 +1 @@\n+x\n"

static char *stamped(const char *text, const struct ident *op,
		     unsigned int flags)
{
	char path[] = "/tmp/test_ident_stamp.XXXXXX";
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(write_file(path, text, strlen(text)), 0);
	if (ident_stamp(path, path, op, flags, &err))
		fail_msg("%s", err.buf);
	assert_true(strbuf_read_file(&sb, path, 1 << 20) >= 0);
	unlink(path);
	strbuf_release(&err);
	return strbuf_detach(&sb, NULL);
}

static void stamp_and_unstamp(void **state)
{
	static const char fromless[] = HEAD SUBJ
		"Fixes: 0123456789ab (\"KVM: x86: The old change\")\n"
		"Cc: stable@vger.kernel.org\n" DIFF;
	static const char luka[] = HEAD
		"From: Luka Absandze <absandze@amazon.de>\n" SUBJ
		"Suggested-by: A Reviewer <rev@kernel.org>\n"
		"Signed-off-by: Luka Absandze <absandze@amazon.de>\n" DIFF;
	struct ident op = { 0 };
	struct strbuf want = STRBUF_INIT, sb = STRBUF_INIT;
	char *s, *t;

	(void)state;
	run_time_operator(&op);

	/* no From:: the operator's, and their sign-off after the trailers */
	s = stamped(fromless, &op, STAMP_SIGNOFF | STAMP_CODEV);
	strbuf_addf(&want, HEAD "From: %s\n" SUBJ
		    "Fixes: 0123456789ab (\"KVM: x86: The old change\")\n"
		    "Cc: stable@vger.kernel.org\n"
		    "Signed-off-by: %s\n" DIFF, op.full, op.full);
	assert_string_equal(s, want.buf);
	/* once: a second stamp adds nothing */
	t = stamped(s, &op, STAMP_SIGNOFF);
	assert_string_equal(t, want.buf);
	free(t);
	/* and make am's import takes it all off again */
	strbuf_addstr(&sb, s);
	ident_unstamp(&sb, op.email);
	assert_string_equal(sb.buf, fromless);
	strbuf_release(&sb);
	free(s);

	/* From: only (the cache repository's git am needs an author) */
	s = stamped(fromless, &op, 0);
	assert_non_null(strstr(s, "\nFrom: "));
	assert_null(strstr(s, "Signed-off-by:"));
	free(s);

	/* someone else's patch: the sender's sign-off after the author's */
	strbuf_reset(&want);
	s = stamped(luka, &op, STAMP_SIGNOFF);
	strbuf_addf(&want, HEAD "From: Luka Absandze <absandze@amazon.de>\n"
		    SUBJ "Suggested-by: A Reviewer <rev@kernel.org>\n"
		    "Signed-off-by: Luka Absandze <absandze@amazon.de>\n"
		    "Signed-off-by: %s\n" DIFF, op.full);
	assert_string_equal(s, want.buf);
	free(s);

	/*
	 * co-developed: the pair last, Co-developed-by: right before its
	 * Signed-off-by:, after the author's (submitting-patches.rst,
	 * "Example of a patch submitted by a Co-developed-by: author")
	 */
	strbuf_reset(&want);
	s = stamped(luka, &op, STAMP_SIGNOFF | STAMP_CODEV);
	strbuf_addf(&want, HEAD "From: Luka Absandze <absandze@amazon.de>\n"
		    SUBJ "Suggested-by: A Reviewer <rev@kernel.org>\n"
		    "Signed-off-by: Luka Absandze <absandze@amazon.de>\n"
		    "Co-developed-by: %s\n"
		    "Signed-off-by: %s\n" DIFF, op.full, op.full);
	assert_string_equal(s, want.buf);
	t = stamped(s, &op, STAMP_SIGNOFF | STAMP_CODEV);
	assert_string_equal(t, want.buf);
	free(t);
	strbuf_addstr(&sb, s);
	ident_unstamp(&sb, op.email);
	assert_string_equal(sb.buf, luka);
	strbuf_release(&sb);
	free(s);

	strbuf_release(&want);
	ident_clear(&op);
}

static void co_developed_list(void **state)
{
	char path[] = "/tmp/test_ident_codev.XXXXXX";
	struct strbuf err = STRBUF_INIT;
	static const char list[] =
		"# patches the sender co-developed\n"
		"\n"
		"0005-KVM-x86-pmu-Batch.patch\n";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(write_file(path, list, sizeof(list) - 1), 0);
	assert_int_equal(ident_co_developed(path, "series/0005-KVM-x86-pmu-Batch.patch", &err), 1);
	assert_int_equal(ident_co_developed(path, "backports/6.12/0005-KVM-x86-pmu-Batch.patch", &err), 1);
	assert_int_equal(ident_co_developed(path, "series/0001-KVM-x86-pmu-Other.patch", &err), 0);
	assert_int_equal(ident_co_developed("/nonexistent/co-developed", "x.patch", &err), 0);
	assert_int_equal(err.len, 0);
	assert_int_equal(write_file(path, "0005-a.patch\n../x.patch\n", 24), 0);
	assert_int_equal(ident_co_developed(path, "0005-a.patch", &err), -1);
	assert_non_null(strstr(err.buf, ":2: '../x.patch' is not a patch file name"));
	strbuf_release(&err);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reserved_domains),
		cmocka_unit_test(literal_placeholders),
		cmocka_unit_test(real_looking_pass),
		cmocka_unit_test(patch_headers),
		cmocka_unit_test(stamp_and_unstamp),
		cmocka_unit_test(co_developed_list),
		cmocka_unit_test(sender_sources),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
