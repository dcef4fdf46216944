// SPDX-License-Identifier: GPL-2.0
/*
 * make send: the series as a b4 prep branch, its recipients, the .eml
 * files b4 writes and the checks they pass, and the real send (SEND=1)
 * with its record of what was posted.  The gate on make verify-all's
 * reports is b4_gate.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "b4/b4_int.h"
#include "core/checkpatch.h"
#include "core/series.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/usage.h"
#include "sources/source.h"

static int is_commit_id(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return (n == 40 || n == 64) && strspn(s, "0123456789abcdef") == n;
}

/*
 * What the cover says in place of b4's base-commit: for a git: source the
 * commit its ref resolved to when it was fetched (a commit id, a branch, a
 * tag or HEAD alike), which is upstream's own; else the upstream release
 * and where the tree came from, and no base-commit.
 */
static void describe_base(struct b4 *b)
{
	const struct target *t = b->t;
	char *rel = kernel_release(b->source.src, 1);
	const char *r = rel ? rel : "(unknown release)";

	if (t->kind == SRC_GIT && is_commit_id(b->source.git_commit)) {
		b->base_commit = xstrdup(b->source.git_commit);
		b->base = xstrfmt("base-commit: %s", b->base_commit);
	} else if (t->kind == SRC_DEB) {
		b->base = xstrfmt("Made on Linux %s as packaged by Debian (%s %s);\nthat tree is no upstream commit, so there is no base-commit.",
				  r, t->deb_package,
				  b->source.deb_version ? b->source.deb_version : b->source.src_key);
	} else if (t->kind == SRC_GIT) {
		b->base = xstrfmt("Made on Linux %s from %s%s%s; no commit id is\nrecorded for it, so there is no base-commit.",
				  r, t->value, t->git_ref ? " " : "",
				  t->git_ref ? t->git_ref : "");
	} else {
		b->base = xstrfmt("Made on Linux %s (a %s tree, no upstream commit),\nso there is no base-commit.",
				  r, source_kind_name(t->kind));
	}
	free(rel);
}

/*
 * The recipients get_maintainer.pl of the target's tree names for the
 * series, as b4 prep --auto-to-cc asks it: people To, lists Cc.
 */
static int maintainers_of(struct b4 *b, const char *which, struct strvec *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *gm = xstrfmt("%s/scripts/get_maintainer.pl", b->source.src);
	struct line l;
	size_t i;
	int ret = -1;

	if (!is_file(gm)) {
		error("%s is missing: give the recipients with TO= and CC=", gm);
		goto out;
	}
	strvec_pushl(&c.args, "perl", gm, "--nogit", "--nogit-fallback",
		     "--nogit-chief-penguins", "--norolestats", which, NULL);
	for (i = 0; i < b->patches.nr; i++) {
		char *abs = abspath(b->patches.v[i]);

		strvec_push(&c.args, abs);
		free(abs);
	}
	c.dir = b->source.src;
	c.out = &sb;
	c.log = b->log;
	if (run_child(&c)) {
		error("%s failed (log: %s): give the recipients with TO= and CC=", gm, b->log);
		goto out;
	}
	for_each_line(l, sb.buf)
		if (l.len && *l.s != '-')
			strvec_pushf(out, "%.*s", (int)l.len, l.s);
	ret = 0;
out:
	child_clear(&c);
	strbuf_release(&sb);
	free(gm);
	return ret;
}

/* TO=/CC= as given, else get_maintainer.pl's; printed before the send. */
static int recipients(struct b4 *b, struct strvec *to, struct strvec *cc)
{
	size_t i;

	if (b->a->to ? (strvec_push(to, b->a->to), 0) :
		       maintainers_of(b, "--nol", to))
		return -1;
	if (b->a->cc ? (strvec_push(cc, b->a->cc), 0) :
		       maintainers_of(b, "--nom", cc))
		return -1;
	if (!to->nr) {
		error("nobody to send to: give TO=");
		return -1;
	}
	for (i = 0; i < cc->nr; ) {	/* b4 sends To first, so does the list */
		size_t j;

		for (j = 0; j < to->nr && strcmp(to->v[j], cc->v[i]); j++)
			;
		if (j == to->nr) {
			i++;
			continue;
		}
		free(cc->v[i]);
		memmove(cc->v + i, cc->v + i + 1, (cc->nr - i) * sizeof(*cc->v));
		cc->nr--;
	}
	for (i = 0; i < to->nr; i++)
		printf("%s %s\n", i ? "   " : "To:", to->v[i]);
	for (i = 0; i < cc->nr; i++)
		printf("%s %s\n", i ? "   " : "Cc:", cc->v[i]);
	printf("(%s; TO=/CC= override them)\n",
	       b->a->to && b->a->cc ? "as given" :
	       "from the tree's scripts/get_maintainer.pl");
	fflush(stdout);
	return 0;
}

/*
 * The local import's commit id, cut to 12 digits: no mail may name it,
 * even abbreviated; NULL when the base is the upstream commit itself.
 */
static char *local_base(struct b4 *b)
{
	struct strbuf out = STRBUF_INIT;

	if (b4_git(b, &out, "rev-parse", BASE_TAG "^{commit}", NULL)) {
		strbuf_release(&out);
		return NULL;
	}
	strbuf_trim_trailing(&out);
	/* A git: tree's base is upstream's own commit (upstream_base()). */
	if (b->base_commit && !strcmp(out.buf, b->base_commit)) {
		strbuf_release(&out);
		return NULL;
	}
	if (out.len > 12)
		strbuf_setlen(&out, 12);
	return strbuf_detach(&out, NULL);
}

/*
 * A mail of a patch by someone else carries its author as the body's first
 * line, "From: ...", which checkpatch reads as a commit message line (a
 * long identity is a COMMIT_LOG_LONG_LINE); it takes the author from the
 * header as git am would.  The copy checkpatch reads is written in @work.
 */
static char *checkpatch_copy(struct b4 *b, const char *eml)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	char *path = xstrfmt("%s/checkpatch.eml", b->a->work);
	const char *body, *from, *hdr;
	size_t n;

	if (strbuf_read_file(&sb, eml, 16 << 20) < 0)
		goto fail;
	body = strstr(sb.buf, "\n\n");
	hdr = starts_with(sb.buf, "From: ") ? sb.buf : strstr(sb.buf, "\nFrom: ");
	if (!body || !hdr || !starts_with(body + 2, "From: ")) {
		strbuf_release(&sb);
		free(path);
		return xstrdup(eml);
	}
	hdr += *hdr == '\n';
	from = body + 2;
	n = strcspn(from, "\n");
	strbuf_add(&out, sb.buf, hdr - sb.buf);
	strbuf_add(&out, from, n);
	hdr += strcspn(hdr, "\n");
	while (hdr[0] == '\n' && hdr[1] == ' ')	/* a folded From: */
		hdr += 1 + strcspn(hdr + 1, "\n");
	strbuf_add(&out, hdr, body + 2 - hdr);
	from += n + (from[n] == '\n');
	from += *from == '\n';	/* and the blank line after it */
	strbuf_addstr(&out, from);
	if (write_file(path, out.buf, out.len))
		goto fail;
	strbuf_release(&sb);
	strbuf_release(&out);
	return path;
fail:
	strbuf_release(&sb);
	strbuf_release(&out);
	free(path);
	return NULL;
}

/*
 * Of the trailers of the mail @eml (git interpret-trailers --parse):
 * 1 when one is "Signed-off-by: @ident", 2 when "Co-developed-by: @ident"
 * and "Signed-off-by: @ident" are also the last two, the submitting
 * co-developer's pair; else 0.
 */
static int sender_trailers(struct b4 *b, const char *eml, const char *ident)
{
	char *sob = xstrfmt("Signed-off-by: %s", ident);
	char *cdb = xstrfmt("Co-developed-by: %s", ident);
	struct strvec t = STRVEC_INIT;
	int ret = 0;

	if (!mail_trailers(b, eml, &t) && strvec_has(&t, sob))
		ret = 1 + (t.nr >= 2 && !strcmp(t.v[t.nr - 1], sob) &&
			   !strcmp(t.v[t.nr - 2], cdb));
	strvec_clear(&t);
	free(sob);
	free(cdb);
	return ret;
}

static int check_emls(struct b4 *b, const struct strvec *emls, int rev)
{
	int i, n = emls->nr - 1, bad = 0, signed_off;
	char *allow = read_trim("checkpatch.allow"), *local = local_base(b);
	struct strbuf err = STRBUF_INIT;

	for (i = 0; i <= n; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *want = xstrfmt("[PATCH v%d %d/%d]", rev, i, n);

		strbuf_read_file(&sb, emls->v[i], 16 << 20);
		if (!strstr(sb.buf, want)) {
			error("check: %s lacks %s", emls->v[i], want);
			bad++;
		}
		if (!i && (!strstr(sb.buf, "\nchange-id: ") ||
			   !strstr(sb.buf, b->base))) {
			error("check: the cover lacks change-id: or its base (%s)",
			      b->base);
			bad++;
		}
		if (!i && rev > 1 && !has_changelog(sb.buf, rev)) {
			error("check: the cover has no changelog section: a line 'Changes in v%d:' (or 'Changes since v%d:') heading what changed; make reroll writes one",
			      rev, rev - 1);
			bad++;
		}
		if (!b->base_commit && strstr(sb.buf, "\nbase-commit:")) {
			error("check: %s has a base-commit: that exists nowhere upstream",
			      emls->v[i]);
			bad++;
		}
		if (local && strstr(sb.buf, local)) {
			error("check: %s names the local import commit %s",
			      emls->v[i], local);
			bad++;
		}
		signed_off = i ? sender_trailers(b, emls->v[i], b->id.full) : 0;
		if (i && !signed_off) {
			error("check: %s lacks the sender's Signed-off-by: %s",
			      emls->v[i], b->id.full);
			bad++;
		}
		if (i && (size_t)i <= b->patches.nr &&
		    co_developed(b->patches.v[i - 1]) > 0 &&
		    signed_off != 2) {
			error("check: %s lacks the sender's Co-developed-by: and Signed-off-by: as the last two trailers (series/co-developed lists %s)",
			      emls->v[i], patch_name(b->patches.v[i - 1]));
			bad++;
		}
		bad += ident_check_patch(emls->v[i], &err);
		if (i) {
			char *cp = checkpatch_copy(b, emls->v[i]);

			if (!cp || checkpatch_file(b->source.src, cp, allow, b->log,
						   NULL)) {
				error("check: checkpatch --strict complains about %s",
				      emls->v[i]);
				bad++;
			}
			free(cp);
		}
		strbuf_release(&sb);
		free(want);
	}
	strbuf_trim_trailing(&err);
	if (err.len)
		error("check: placeholder identities:\n%s", err.buf);
	strbuf_release(&err);
	free(local);
	free(allow);
	return bad;
}

/* git config --get @key as the operator's git sees it, trimmed, or NULL. */
static char *config_get(const char *key)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	int ret;

	strvec_pushl(&c.args, "git", "config", "--get", key, NULL);
	c.out = &out;
	ret = run_child(&c);
	child_clear(&c);
	strbuf_trim_trailing(&out);
	if (ret || !out.len) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, NULL);
}

/*
 * Does the sender sign with patatt?  Only when it is installed and a key
 * is configured (patatt.signingkey, or user.signingkey for PGP), as b4
 * needs it; b4's own b4.send-no-patatt-sign still wins.
 */
static int patatt_configured(void)
{
	char *key = config_get("patatt.signingkey");
	struct child c = CHILD_INIT;
	int ret;

	if (!key)
		key = config_get("user.signingkey");
	if (!key)
		return 0;
	free(key);
	strvec_pushl(&c.args, "python3", "-c", "import patatt", NULL);
	ret = run_child(&c);
	child_clear(&c);
	if (ret)
		note("a signing key is configured but patatt is not installed: the mails go unsigned (--no-sign)");
	return !ret;
}

/* @s in single quotes for sh. */
static void sh_quote(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '\'');
}

/*
 * A sendmail command that keeps each mail b4 hands it in @dir (0000.eml,
 * 0001.eml, ... in the order b4 sends them) and passes it on to @real,
 * the operator's sendemail.smtpserver command, which sh reads as b4
 * would (words, ~ and $VARS expanded).  Its path, or NULL.
 */
static char *recorder(struct b4 *b, const char *dir, const char *real)
{
	char *path = xstrfmt("%s/sendmail-keep", b->a->work);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "#!/bin/sh\n# written by kverify send: keep the mail, then pass it on\ndir=");
	sh_quote(&sb, dir);
	strbuf_addstr(&sb, "\nreal=");
	sh_quote(&sb, real);
	strbuf_addstr(&sb, "\nn=$(ls \"$dir\" | wc -l)\nf=$(printf '%s/%04d.eml' \"$dir\" \"$n\")\ncat > \"$f\" || exit 75\neval \"exec $real \\\"\\$@\\\"\" < \"$f\"\n");
	if (strchr(path, ' ') || strchr(path, '\t')) {
		error("%s: b4 splits sendemail.smtpserver at blanks: give --results a path without any",
		      path);
		goto fail;
	}
	if (write_file(path, sb.buf, sb.len) || chmod(path, 0755) < 0)
		goto fail;
	strbuf_release(&sb);
	return path;
fail:
	strbuf_release(&sb);
	free(path);
	return NULL;
}

/*
 * The mails recorded in @dir are the checked ones of @emls, read as mail
 * (mail_compare(): the headers a send sets anew aside, To:/Cc: as sets,
 * line ends alike, the body byte for byte): 0, else the number that
 * differ, each named on stderr with what differs.
 */
static int sent_as_checked(const struct strvec *emls, const char *dir,
			   struct strvec *sent)
{
	size_t i;
	int bad = 0;

	list_dir(dir, ".eml", sent);
	if (sent->nr != emls->nr) {
		error("%zu mails went out, %zu were checked: see %s", sent->nr,
		      emls->nr, dir);
		return 1;
	}
	for (i = 0; i < emls->nr; i++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		struct strbuf why = STRBUF_INIT;

		if (strbuf_read_file(&a, emls->v[i], 16 << 20) < 0 ||
		    strbuf_read_file(&b, sent->v[i], 16 << 20) < 0) {
			error("cannot read %s or %s to compare them",
			      emls->v[i], sent->v[i]);
			bad++;
		} else if (mail_compare(a.buf, b.buf, &why)) {
			strbuf_trim_trailing(&why);
			error("%s went out other than %s, which was checked:\n%s",
			      sent->v[i], emls->v[i], why.buf);
			bad++;
		}
		strbuf_release(&a);
		strbuf_release(&b);
		strbuf_release(&why);
	}
	return bad;
}

/* The cover's Message-Id (without <>) in mail @path, or NULL. */
static char *msgid_of(struct b4 *b, const char *path)
{
	char *m = mail_msgid(b, path), *id = NULL;

	if (m) {
		const char *s = m + strspn(m, " <");

		id = xstrfmt("%.*s", (int)strcspn(s, ">\r\n "), s);
		free(m);
	}
	return id;
}

/*
 * What b4 recorded of the cover it sent, when the mails went to an SMTP
 * server or the web endpoint (nothing to record them on the way): the
 * revision's message-id in the tracking data of the branch's cover commit.
 */
static char *tracked_msgid(struct b4 *b, int rev)
{
	struct strbuf out = STRBUF_INIT;
	char *want = xstrfmt("\"v%d\": [", rev), *id = NULL;
	const char *p;

	p = b4_git(b, &out, "log", "--format=%B", BASE_TAG ".." BRANCH, NULL) ?
	    NULL : strstr(out.buf, want);
	if (p) {
		p += strlen(want);
		p = strchr(p, '"');
		if (p) {
			p++;
			p += *p == '<';
			id = xstrfmt("%.*s", (int)strcspn(p, "\">"), p);
		}
	}
	free(want);
	strbuf_release(&out);
	return id;
}

/*
 * A posted revision's record stays: RESEND=1 moves it (with @move) to
 * @out.K (the first free K) before the revision is sent again; without
 * it, EXIT_USAGE.
 */
static int keep_posted(struct b4 *b, const char *out, int rev, int move)
{
	char *id = b4_posted(out), *to = NULL;
	int k, ret = 0;

	if (!id)
		return 0;
	if (!b->a->resend) {
		error("v%d was posted as <%s> (%s/message-id); nothing was changed: 'make reroll' starts v%d, RESEND=1 sends v%d again",
		      rev, id, out, rev + 1, rev);
		free(id);
		return EXIT_USAGE;
	}
	if (!move) {
		free(id);
		return 0;
	}
	for (k = 1; !to; k++) {
		to = xstrfmt("%s.%d", out, k);
		if (is_dir(to)) {
			free(to);
			to = NULL;
		}
	}
	if (rename(out, to) < 0) {
		error("cannot keep %s as %s: %s", out, to, strerror(errno));
		ret = 1;
	} else {
		note("RESEND=1: the record of v%d as posted <%s> moved to %s",
		     rev, id, to);
	}
	free(to);
	free(id);
	return ret;
}

/* Every address of @list that nobody owns, on stderr; how many. */
static int placeholder_recipients(const struct strvec *list, const char *what)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < list->nr; i++) {
		char *copy = xstrdup(list->v[i]), *tok, *save = NULL;

		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			const char *lt = strchr(tok, '<');
			char *addr = lt ? xstrfmt("r %s", lt) :
				     xstrfmt("r <%s>", tok + strspn(tok, " "));
			const char *why;

			addr[strcspn(addr, ">") + 1] = '\0';
			why = ident_placeholder(addr);
			if (why) {
				error("%s %s: %s: give the real address with %s=",
				      what, tok + strspn(tok, " "), why, what);
				bad++;
			}
			free(addr);
		}
		free(copy);
	}
	return bad;
}

/*
 * SEND=1, after the checks passed on the same set: b4 sends it for real
 * (patatt-signed when the sender has it set up, to the sender alone with
 * REFLECT=1), kverify answering b4's "Press Enter" prompt once the
 * operator confirmed (on a terminal) or SEND=1 did (off one).  Through a
 * local sendmail command the mails are recorded on their way out
 * (@out/sent/, @out/reflected/) and compared with the checked ones; the
 * cover's message-id goes into @out/message-id and series/message-id:
 * the revision is posted.
 */
static int real_send(struct b4 *b, const char *out, int rev,
		     const struct strvec *to, const struct strvec *cc,
		     const struct strvec *emls)
{
	char *smtp = config_get("sendemail.smtpserver");
	char *dir = xstrfmt("%s/%s", out, b->a->reflect ? "reflected" : "sent");
	char *enter = xstrfmt("%s/enter", b->a->work), *rec = NULL;
	char *id = NULL;
	struct strvec args = STRVEC_INIT, sent = STRVEC_INIT;
	int sign = patatt_configured(), ret = EXIT_USAGE;
	size_t i;

	if (!smtp && !sign) {
		error("SEND=1: git has no sendemail.smtpserver, and in a kernel tree b4 then sends through kernel.org's web endpoint, which needs patatt signing; nothing was sent: 'git config --global sendemail.smtpserver /usr/bin/msmtp' (a sendmail-like command, or an SMTP host with sendemail.smtpuser...), or set up patatt and 'b4 send --web-auth-new'");
		goto out;
	}
	ret = 1;
	if (smtp && strchr(smtp, '/')) {
		rm_rf(dir);
		mkdir_p(dir);
		rec = recorder(b, dir, smtp);
		if (!rec)
			goto out;
	}
	if (isatty(STDIN_FILENO)) {
		char line[64];

		printf("Send these %zu messages of v%d%s? Enter sends, Ctrl-C aborts: ",
		       emls->nr, rev, b->a->reflect ? " to yourself only (REFLECT=1)" : "");
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin)) {
			error("not confirmed: nothing was sent");
			goto out;
		}
	}
	if (write_file(enter, "\n", 1))
		goto out;
	strvec_push(&args, "send");
	if (!sign)
		strvec_push(&args, "--no-sign");
	if (b->a->reflect)
		strvec_push(&args, "--reflect");
	strvec_push(&args, "--to");
	for (i = 0; i < to->nr; i++)
		strvec_push(&args, to->v[i]);
	if (cc->nr)
		strvec_push(&args, "--cc");
	for (i = 0; i < cc->nr; i++)
		strvec_push(&args, cc->v[i]);
	printf("sending v%d (%zu messages)%s%s through %s\n", rev, emls->nr,
	       sign ? ", patatt-signed" : ", unsigned (no patatt key)",
	       b->a->reflect ? ", to yourself only" : "",
	       smtp ? smtp : "b4's web endpoint");
	fflush(stdout);
	b->real = 1;
	b->b4_rerolled = 0;
	b->smtp = rec;
	ret = b4_runv(b, enter, &args);
	b->real = 0;
	b->smtp = NULL;
	if (ret) {
		error("b4 send failed (above): what went out, if anything, is in %s",
		      rec ? dir : "your mail server's log");
		ret = 1;
		goto out;
	}
	if (rec) {
		ret = sent_as_checked(emls, dir, &sent) ? 1 : 0;
		id = sent.nr ? msgid_of(b, sent.v[0]) : NULL;
	} else if (!b->a->reflect) {
		id = tracked_msgid(b, rev);
	}
	if (b->a->reflect) {
		printf("reflected v%d to %s only%s%s: not posted, series/ unchanged\n",
		       rev, b->id.email, rec ? "; the mails are in " : "",
		       rec ? dir : "");
		goto out;
	}
	if (!id || !valid_msgid(id)) {
		error("sent, but the cover's Message-Id is unknown: write it into series/message-id and %s/message-id",
		      out);
		ret = 1;
		goto out;
	} else {
		char *v = xstrfmt("%s\n", id), *path = xstrfmt("%s/message-id", out);

		if (write_file(path, v, strlen(v)) ||
		    write_file("series/message-id", v, strlen(v)))
			ret = 1;
		free(v);
		free(path);
	}
	printf("posted v%d: " LORE "%s%s%s\n", rev, id,
	       rec ? "; the mails as sent are in " : "", rec ? dir : "");
	if (b->b4_rerolled)
		printf("series/revision stays %d, the revision posted; b4 began v%d in kverify's working branch, as it does after a send: make reroll makes v%d of series/\n",
		       rev, b->b4_rerolled, rev + 1);
out:
	strvec_clear(&args);
	strvec_clear(&sent);
	free(smtp);
	free(dir);
	free(enter);
	free(rec);
	free(id);
	return ret;
}

/* A line of @path that still says EDITME: 1 after naming it, else 0. */
static int editme(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct line l;
	int n = 0, found = 0;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0)
		return 0;
	for_each_line(l, sb.buf) {
		n++;
		if (memmem(l.s, l.len, "EDITME", 6)) {
			error("%s:%d still says EDITME: write it first (%.*s)",
			      path, n, (int)(l.len > 60 ? 60 : l.len), l.s);
			found = 1;
			break;
		}
	}
	strbuf_release(&sb);
	return found;
}

int do_send(struct b4 *b)
{
	int rev = series_revision("to send");
	char *rel = xstrfmt("%s/send/v%d", b->a->results, rev), *out = abspath(rel);
	struct strvec emls = STRVEC_INIT, to = STRVEC_INIT, cc = STRVEC_INIT;
	struct child c = CHILD_INIT;
	size_t i;
	int ret = EXIT_USAGE;

	if (!rev)
		goto out;
	if (b->a->reflect && !b->a->send) {
		error("REFLECT=1 goes with SEND=1 (the mails go to you alone)");
		goto out;
	}
	if (editme("series/cover-letter"))
		goto out;
	if (load_patches(b) || ident_refuse_patches(&b->patches, b->t->name) ||
	    co_developed(CO_DEVELOPED) < 0)
		goto out;
	ret = keep_posted(b, out, rev, 0);
	if (ret)
		goto out;
	ret = EXIT_USAGE;
	describe_base(b);
	if (recipients(b, &to, &cc))
		goto out;
	if (placeholder_recipients(&to, "TO") + placeholder_recipients(&cc, "CC"))
		goto out;
	if (b4_gate(b)) {
		if (b->a->send)
			goto out;
		note("only writing the mails: SEND=1 would be refused until make verify-all passes (above)");
	}
	if (keep_posted(b, out, rev, 1)) {
		ret = 1;
		goto out;
	}
	ret = 1;
	if (build_branch(b, 1))
		goto out;
	rm_rf(out);
	mkdir_p(out);
	strvec_pushl(&c.args, "send", "--no-sign", "-o", out, NULL);
	strvec_push(&c.args, "--to");
	for (i = 0; i < to.nr; i++)
		strvec_push(&c.args, to.v[i]);
	if (cc.nr)
		strvec_push(&c.args, "--cc");
	for (i = 0; i < cc.nr; i++)
		strvec_push(&c.args, cc.v[i]);
	ret = b4_runv(b, NULL, &c.args);
	if (ret)
		goto out;
	list_dir(out, ".eml", &emls);
	for (i = 0; i < emls.nr; i++)
		printf("%s\n", emls.v[i]);
	ret = emls.nr != b->patches.nr + 1 || check_emls(b, &emls, rev);
	printf("%s: %zu messages, v%d: %s\n", out, emls.nr, rev,
	       ret ? "CHECKS FAILED" : "numbering, base, change-id, changelog, identities, sign-offs and checkpatch checked");
	if (ret) {
		if (b->a->send)
			error("nothing was sent: the checks above failed");
		goto out;
	}
	if (b->a->send)
		ret = real_send(b, out, rev, &to, &cc, &emls);
	else
		printf("nothing was sent: SEND=1 sends this set (REFLECT=1: to you alone)\n");
out:
	child_clear(&c);
	strvec_clear(&emls);
	strvec_clear(&to);
	strvec_clear(&cc);
	free(rel);
	free(out);
	return ret;
}
