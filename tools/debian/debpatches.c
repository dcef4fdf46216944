// SPDX-License-Identifier: GPL-2.0
/*
 * kverify debian-patches --dest DIR [TARGET...]: each target's series as
 * Debian's kernel team carries patches in the linux package:
 * DIR/<target>/bugfix/x86/<name>.patch, DIR/<target>/series (the lines to
 * add to debian/patches/series) and DIR/<target>/changelog (the
 * debian/changelog entry); or, when DIR is a checkout of the linux
 * package (debian/changelog and debian/patches/series), the patches into
 * its debian/patches/bugfix/x86/, the lines into its series file after
 * its last bugfix/x86/ line, and the entry into its changelog with dch.
 *
 * <name> is the subject's words in lower case (debpatches_meta.c): the
 * same in every revision that keeps the subject.
 *
 * A patch starts at From: (no mbox "From <sha>" line), with Date:, a
 * plain Subject: (no "[PATCH 6.12.y 1/6]") and the DEP-3 fields in the
 * same header paragraph (DEP-3, https://dep-team.pages.debian.net/deps/dep3/),
 * from the newest posted revision (series/message-id, else the newest
 * series/old/vN/message-id), not from the working one:
 *
 *  - Origin: the upstream commit when series/merged names one for the
 *    patch ("upstream, URL" for series/, "backport, URL" for a variant of
 *    backports/), else the lore link of the patch's own message in the
 *    posting (series/message-ids, which make am writes from the thread,
 *    or make send's record of the mails sent), else of the posting's
 *    cover; none when the posting has no patch of that name
 *    (From: is the author, which DEP-3 takes instead of an Origin);
 *  - Forwarded: that lore link, "no" when the patch was not posted,
 *    "not-needed" when it is upstream without a posting on record;
 *  - Applied-Upstream: "commit:SHA" once merged;
 *  - Bug-Debian: from BUG=;
 *  - Last-Update: today.
 *
 * The series target exports the posted revision's patches (series/old/vN/
 * when series/ works on an unposted one); the series file says which.
 * Trailers collected into series/ (make trailers) that a patch lacks are
 * added to it.  The operator's identity is stamped as make send stamps
 * it: a patch without From: gets theirs, and every patch their
 * Signed-off-by:.  A patch that touches only tools/testing/ (the
 * selftest) is not carried: Debian's linux builds no selftests; the
 * series file says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/ident.h"
#include "core/series.h"
#include "debian/debpatches.h"
#include "debian/debpatches_meta.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/run.h"
#include "lib/usage.h"
#include "sources/targets.h"

#define LINUS "https://git.kernel.org/linus/"
#define DEBIAN_DIR "bugfix/x86"

/* series/ facts every target's patches share. */
struct posting {
	struct posted po;	/* the newest posted revision */
	int working;		/* series/revision */
	char *change_id;	/* series/change-id */
	struct strvec merged;	/* series/merged: "NAME SHA" pairs */
	char *bug;		/* the Debian bug number, or NULL */
	const char *dest;	/* DEST= */
	int tree;		/* DEST is a checkout of the linux package */
};

static void posting_clear(struct posting *p)
{
	posted_clear(&p->po);
	free(p->change_id);
	strvec_clear(&p->merged);
	free(p->bug);
}

static int is_file_in(const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);
	int ret = is_file(path);

	free(path);
	return ret;
}

static int all_of(const char *s, const char *set)
{
	return *s && s[strspn(s, set)] == '\0';
}

#define DIGITS "0123456789"

static int read_posting(struct posting *p, const char *bug,
			const char *results)
{
	char *rev = read_first_line("series/revision");
	const char *n;

	p->change_id = read_first_line("series/change-id");
	if (!rev || !all_of(rev, DIGITS) || !p->change_id) {
		error("series/revision and series/change-id are needed: the revision the patches are");
		free(rev);
		return -1;
	}
	p->working = atoi(rev);
	free(rev);
	if (posted_load(&p->po, p->working, results))
		return -1;
	if (series_merged_load("series/merged", &p->merged))
		return -1;
	if (!bug || !*bug)
		return 0;
	if (!skip_prefix(bug, "https://bugs.debian.org/", &n) &&
	    !skip_prefix(bug, "#", &n))
		n = bug;
	if (!all_of(n, DIGITS) || strlen(n) > 9) {
		error("BUG='%s' is not a Debian bug: give its number, e.g. BUG=1234567",
		      bug);
		return -1;
	}
	p->bug = xstrdup(n);
	return 0;
}

/*
 * The DEP-3 fields of the patch file @file of a series of @rel, Debian
 * name @name.
 */
static void dep3_fields(const struct posting *p, const char *rel,
			const char *file, const char *name, struct strbuf *out)
{
	const char *sha = series_merged_sha(&p->merged, file);
	const char *bp = starts_with(rel, "backports/") ? "backport, " : "";
	const char *id = NULL;
	char day[16];
	time_t now = time(NULL);

	if (p->po.rev && strvec_has(&p->po.names, name)) {
		id = posted_patch_id(&p->po, name);
		if (!id)
			id = p->po.msgid;
	}
	if (sha)
		strbuf_addf(out, "Origin: %s, " LINUS "%s\n",
			    *bp ? "backport" : "upstream", sha);
	else if (id)
		strbuf_addf(out, "Origin: %s" LORE "%s\n", bp, id);
	if (id)
		strbuf_addf(out, "Forwarded: " LORE "%s\n", id);
	else
		strbuf_addstr(out, sha ? "Forwarded: not-needed\n" :
			      "Forwarded: no\n");
	if (sha)
		strbuf_addf(out, "Applied-Upstream: commit:%s\n", sha);
	if (p->bug)
		strbuf_addf(out, "Bug-Debian: https://bugs.debian.org/%s\n",
			    p->bug);
	strftime(day, sizeof(day), "%Y-%m-%d", gmtime(&now));
	strbuf_addf(out, "Last-Update: %s\n", day);
}

/* 1 when every file the diff @d touches is under tools/testing/. */
static int selftest_only(const char *d)
{
	const char *p = d;
	int files = 0;

	while ((p = strstr(p, "\ndiff --git a/"))) {
		p += strlen("\ndiff --git a/");
		if (!starts_with(p, "tools/testing/"))
			return 0;
		files++;
	}
	return files > 0;
}

/*
 * git format-patch's "-- " line before its version: a char array, as the
 * blank is the point.
 */
static const char signature[] = { '\n', '-', '-', ' ', '\n', '\0' };

/*
 * "Subject: @s" folded at blanks into lines of at most 77 characters, as
 * gbp pq export writes it (scripts/common/pq.py, write_patch_file():
 * Compat32(max_line_length=77)), so that its round trip keeps the line.
 * Python folds a subject with ';' or ',' there first: such a subject may
 * come back folded elsewhere.
 */
static void fold_subject(const char *s, struct strbuf *out)
{
	size_t col = strlen("Subject:");

	strbuf_addstr(out, "Subject:");
	while (*s) {
		size_t n = strcspn(s, " ");

		if (col > strlen("Subject:") + 1 && col + 1 + n > 77) {
			strbuf_addch(out, '\n');
			col = 0;
		}
		strbuf_addch(out, ' ');
		strbuf_add(out, s, n);
		col += 1 + n;
		s += n;
		s += strspn(s, " ");
	}
	strbuf_addch(out, '\n');
}

/*
 * The stamped git format-patch text @text as Debian carries it, into
 * @out; @fields are the DEP-3 lines.  -1 with why in @err.
 */
static int reshape(const char *text, const char *fields, struct strbuf *out,
		   struct strbuf *err)
{
	struct strbuf from = STRBUF_INIT, date = STRBUF_INIT,
		      subject = STRBUF_INIT;
	struct strbuf *cur = NULL;
	const char *p = text, *end_hdr, *sep, *sig;
	struct line l;
	int ret = -1;

	if (starts_with(p, "From ") && strchr(p, '\n'))
		p = strchr(p, '\n') + 1;	/* the mbox line */
	end_hdr = strstr(p, "\n\n");
	sep = end_hdr ? strstr(end_hdr, "\n---\n") : NULL;
	if (!sep) {
		strbuf_addstr(err, "no headers, message and \"---\" before the diff");
		goto out;
	}
	for_each_line(l, p) {
		const char *v;

		if (l.s > end_hdr)
			break;
		if (cur && (*l.s == ' ' || *l.s == '\t')) {
			strbuf_addch(cur, ' ');
			strbuf_add(cur, l.s + strspn(l.s, " \t"),
				   l.len - strspn(l.s, " \t"));
			continue;
		}
		cur = NULL;
		if (skip_prefix(l.s, "From: ", &v))
			cur = &from;
		else if (skip_prefix(l.s, "Date: ", &v))
			cur = &date;
		else if (skip_prefix(l.s, "Subject: ", &v))
			cur = &subject;
		else
			continue;	/* DEP-3 fields: written anew */
		strbuf_reset(cur);
		strbuf_add(cur, v, l.len - (v - l.s));
	}
	if (!from.len || !subject.len) {
		strbuf_addstr(err, "no From: or no Subject: header");
		goto out;
	}
	strbuf_addf(out, "From: %s\n", from.buf);
	if (date.len)
		strbuf_addf(out, "Date: %s\n", date.buf);
	fold_subject(plain_subject(subject.buf), out);
	strbuf_addf(out, "%s\n", fields);
	/* The message, the "---", the diff; not git's "-- " signature. */
	sig = strstr(sep, signature);
	while (sig && strstr(sig + 1, signature))
		sig = strstr(sig + 1, signature);
	if (sig && strchr(sig + 5, '\n') && strchr(strchr(sig + 5, '\n') + 1,
						   '\n'))
		sig = NULL;	/* more than a line after it: part of the diff */
	strbuf_add(out, end_hdr + 2, (sig ? sig + 1 : text + strlen(text)) -
		   (end_hdr + 2));
	ret = 0;
out:
	strbuf_release(&from);
	strbuf_release(&date);
	strbuf_release(&subject);
	return ret;
}

/* One target's export, before anything is written. */
struct export {
	struct strvec names;	/* Debian names, series order */
	struct strvec texts;	/* their text */
	struct strvec entries;	/* the debian/changelog entries, for dch */
	struct strbuf notes;	/* "# ..." lines of the series file */
};

#define EXPORT_INIT { STRVEC_INIT, STRVEC_INIT, STRVEC_INIT, STRBUF_INIT }

static void export_clear(struct export *e)
{
	strvec_clear(&e->names);
	strvec_clear(&e->texts);
	strvec_clear(&e->entries);
	strbuf_release(&e->notes);
}

/* @path's text with the trailers collected for it, stamped, into @text. */
static int stamped_text(const char *path, const char *name,
			const struct ident *me, const char *tmp,
			struct strbuf *text, int *trailers, struct strbuf *err)
{
	const char *file = patch_name(path);
	char *raw = xstrfmt("%s/raw-%s", tmp, file);
	char *stamped = xstrfmt("%s/%s", tmp, file);
	int codev = ident_co_developed("series/co-developed", file, err);
	int bad = codev < 0 || strbuf_read_file(text, path, 64 << 20) < 0;

	if (!bad) {
		*trailers = add_collected_trailers(text, name);
		bad = write_file(raw, text->buf, text->len) ||
		      ident_stamp(raw, stamped, me, STAMP_SIGNOFF |
				  (codev > 0 ? STAMP_CODEV : 0), err);
	}
	strbuf_reset(text);
	bad = bad || strbuf_read_file(text, stamped, 64 << 20) < 0;
	unlink(raw);
	unlink(stamped);
	free(raw);
	free(stamped);
	return bad ? -1 : 0;
}

/*
 * The patch @path of a series of @rel into @e: 0, or EXIT_USAGE (the
 * patch cannot be named: no subject, or another patch's name) or
 * EXIT_TOOL with why in @err.
 */
static int one_patch(const struct posting *p, const char *rel,
		     const struct ident *me, const char *tmp,
		     const char *path, struct export *e, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT,
		      fields = STRBUF_INIT;
	char *name = debian_name_of(path), *subject = NULL;
	int bad = 0, trailers = 0;

	if (!name) {
		strbuf_addstr(err, "no Subject: with a word (letters or digits) to name it by");
		bad = EXIT_USAGE;
		goto out;
	}
	if (stamped_text(path, name, me, tmp, &text, &trailers, err)) {
		bad = EXIT_TOOL;
		goto out;
	}
	if (selftest_only(text.buf)) {
		strbuf_addf(&e->notes, "# not carried: %s (tools/testing/ only: Debian's linux builds no selftests)\n",
			    patch_name(path));
		goto out;
	}
	if (strvec_has(&e->names, name)) {
		strbuf_addf(err, "its name %s is another patch's too: give one of them another subject",
			    name);
		bad = EXIT_USAGE;
		goto out;
	}
	if (trailers)
		strbuf_addf(&e->notes, "# %s: %d trailer%s collected into series/ (make trailers) added\n",
			    name, trailers, trailers == 1 ? "" : "s");
	dep3_fields(p, rel, patch_name(path), name, &fields);
	if (reshape(text.buf, fields.buf, &out, err)) {
		bad = EXIT_USAGE;
		goto out;
	}
	subject = mail_header(out.buf, "Subject");
	strvec_push(&e->names, name);
	strvec_push(&e->texts, out.buf);
	if (p->bug && !e->entries.nr)
		strvec_pushf(&e->entries, "[x86] %s (Closes: #%s)", subject,
			     p->bug);
	else
		strvec_pushf(&e->entries, "[x86] %s", subject);
out:
	free(name);
	free(subject);
	strbuf_release(&text);
	strbuf_release(&out);
	strbuf_release(&fields);
	return bad;
}

/* Which revision @rel of target @t is, and where its DEP-3 fields come from. */
static void series_header(const struct posting *p, const struct target *t,
			  const char *rel, struct strbuf *sb)
{
	const struct posted *po = &p->po;

	strbuf_addf(sb, "# %s: %s", t->name, rel);
	if (po->rev && !strcmp(rel, po->dir))
		strbuf_addf(sb, ", v%d as posted, " LORE "%s", po->rev,
			    po->msgid);
	else
		strbuf_addf(sb, ", %sv%d", strcmp(rel, "series") ?
			    "made for " : "", p->working);
	strbuf_addf(sb, " of change-id %s (kverify debian-patches%s)\n",
		    p->change_id, strcmp(rel, "series") ? "" :
		    "; the revision series/ works on");
	if (po->rev && strcmp(rel, po->dir))
		strbuf_addf(sb, "# Origin:/Forwarded: from v%d as posted, " LORE "%s%s\n",
			    po->rev, po->msgid, po->rev == p->working ? "" :
			    "; series/ works on an unposted revision");
	if (!po->rev && !p->merged.nr)
		strbuf_addstr(sb, "# Not posted upstream yet (no series/message-id): Debian's kernel\n"
			      "# carries what upstream took, or at least what is posted for review.\n");
}

/*
 * @text as dch writes an entry: "  * ", then lines of at most 68
 * characters after 4 columns, cut after the last blank or '-' that fits
 * (debchange's format CHANGELOG, a ^<<< field of 68, and perl's default
 * $: of blank, newline and hyphen), so that the entry is the one dch writes.
 */
static void changelog_lines(const char *text, struct strbuf *out)
{
	const char *prefix = "  * ";

	while (*text) {
		size_t len = strlen(text), cut = len, i, next;

		if (len > 68) {
			for (cut = 0, i = 0; i <= 68; i++) {
				if (text[i] == ' ')
					cut = i;
				else if (text[i] == '-' && i < 68)
					cut = i + 1;
			}
			if (!cut)
				cut = 68;
		}
		next = cut + strspn(text + cut, " ");
		while (cut && text[cut - 1] == ' ')
			cut--;
		strbuf_addf(out, "%s%.*s\n", prefix, (int)cut, text);
		prefix = "    ";
		text += next;
	}
}

/* The lines to add to debian/patches/series, after @head's comments. */
static void series_lines(const struct export *e, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < e->names.nr; i++)
		strbuf_addf(sb, DEBIAN_DIR "/%s\n", e->names.v[i]);
}

/* Each exported patch into @sub; 0, or -1 having said which could not be. */
static int write_patches(const struct export *e, const char *sub)
{
	size_t i;

	for (i = 0; i < e->names.nr; i++) {
		char *path = xstrfmt("%s/%s", sub, e->names.v[i]);
		int bad = write_file(path, e->texts.v[i], strlen(e->texts.v[i]));

		if (bad)
			error("cannot write %s", path);
		free(path);
		if (bad)
			return -1;
	}
	return 0;
}

/* DEST/<target>/: bugfix/x86/, series and changelog. */
static int write_plain(const struct posting *p, const struct target *t,
		       const struct export *e, struct strbuf *head)
{
	char *dir = xstrfmt("%s/%s", p->dest, t->name);
	char *sub = xstrfmt("%s/" DEBIAN_DIR, dir), *path = NULL;
	struct strbuf cl = STRBUF_INIT;
	size_t i;
	int ret = EXIT_USAGE;

	if (is_dir(dir)) {
		error("%s exists: remove it or pick another --dest", dir);
		goto out;
	}
	ret = EXIT_TOOL;
	if (mkdir_p(sub)) {
		error("cannot create %s", sub);
		goto out;
	}
	if (write_patches(e, sub))
		goto out;
	strbuf_addstr(head, "# debian/patches/series: after its last bugfix/x86/ line (\"# Arch bug fixes\")\n");
	series_lines(e, head);
	for (i = 0; i < e->entries.nr; i++)
		changelog_lines(e->entries.v[i], &cl);
	free(path);
	path = xstrfmt("%s/series", dir);
	if (write_file(path, head->buf, head->len)) {
		error("cannot write %s", path);
		goto out;
	}
	free(path);
	path = xstrfmt("%s/changelog", dir);
	if (write_file(path, cl.buf, cl.len)) {
		error("cannot write %s", path);
		goto out;
	}
	printf("wrote %s/series, %s/changelog and %s/" DEBIAN_DIR "/\n", dir,
	       dir, dir);
	ret = 0;
out:
	strbuf_release(&cl);
	free(path);
	free(sub);
	free(dir);
	return ret;
}

/*
 * @lines into the series file @sb: after its last bugfix/x86/ line, else
 * after the lines of its "# Arch bug fixes" section, else as that section
 * at its end.
 */
static void series_insert(struct strbuf *sb, const char *lines)
{
	struct strbuf out = STRBUF_INIT;
	const char *at = NULL, *sec = NULL, *p;
	struct line l;

	for_each_line(l, sb->buf) {
		p = l.s + l.len + (l.s[l.len] == '\n');
		if (starts_with(l.s, DEBIAN_DIR "/"))
			at = p;
		else if (l.len == 16 && starts_with(l.s, "# Arch bug fixes"))
			sec = p;
		else if (sec && !at && sec == l.s && l.len && *l.s != '#')
			sec = p;
	}
	if (!at)
		at = sec;
	if (!at) {
		strbuf_trim_trailing(sb);
		strbuf_addf(sb, "\n\n# Arch bug fixes\n%s", lines);
		return;
	}
	strbuf_add(&out, sb->buf, at - sb->buf);
	if (out.len && out.buf[out.len - 1] != '\n')
		strbuf_addch(&out, '\n');
	strbuf_addstr(&out, lines);
	strbuf_addstr(&out, at);
	strbuf_reset(sb);
	strbuf_add(sb, out.buf, out.len);
	strbuf_release(&out);
}

/* dch --append each entry of @e into @changelog, as @me. */
static int run_dch(const struct export *e, const char *changelog,
		   const struct ident *me)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < e->entries.nr && !ret; i++) {
		struct child c = CHILD_INIT;

		strvec_pushl(&c.args, "dch", "--changelog", changelog,
			     "--append", "--nomultimaint", "--",
			     e->entries.v[i], NULL);
		strvec_pushf(&c.env, "DEBFULLNAME=%s", me->name);
		strvec_pushf(&c.env, "DEBEMAIL=%s", me->email);
		ret = run_child(&c);
		if (ret) {
			struct strbuf why = STRBUF_INIT;

			child_describe_failure(&c, &why);
			error("dch --append on %s: %s", changelog, why.buf);
			strbuf_release(&why);
		}
		child_clear(&c);
	}
	return ret ? EXIT_TOOL : 0;
}

/* DEST, a checkout of the linux package: its debian/ tree, dch. */
static int write_tree(const struct posting *p, const struct target *t,
		      const struct export *e, const struct ident *me)
{
	char *sub = xstrfmt("%s/debian/patches/" DEBIAN_DIR, p->dest);
	char *series = xstrfmt("%s/debian/patches/series", p->dest);
	char *cl = xstrfmt("%s/debian/changelog", p->dest), *path = NULL;
	struct strbuf sb = STRBUF_INIT, lines = STRBUF_INIT;
	size_t i;
	int ret = EXIT_USAGE;

	for (i = 0; i < e->names.nr; i++) {
		free(path);
		path = xstrfmt("%s/%s", sub, e->names.v[i]);
		if (is_file(path)) {
			error("%s exists: the package carries it already; nothing was written",
			      path);
			goto out;
		}
	}
	ret = EXIT_TOOL;
	if (!path_has("dch")) {
		struct strbuf why = STRBUF_INIT;

		missing_tool(&why, "dch", NULL);
		error("%s: the changelog entry goes in through dch; nothing was written",
		      why.buf);
		strbuf_release(&why);
		goto out;
	}
	if (mkdir_p(sub) || strbuf_read_file(&sb, series, 1 << 20) < 0) {
		error("cannot create %s or read %s", sub, series);
		goto out;
	}
	if (write_patches(e, sub))
		goto out;
	series_lines(e, &lines);
	series_insert(&sb, lines.buf);
	if (write_file(series, sb.buf, sb.len)) {
		error("cannot write %s", series);
		goto out;
	}
	ret = run_dch(e, cl, me);
	if (!ret)
		printf("%s: %zu patches into %s/, their lines into %s, the entry into %s (dch)\n",
		       t->name, e->names.nr, sub, series, cl);
out:
	strbuf_release(&sb);
	strbuf_release(&lines);
	free(path);
	free(sub);
	free(series);
	free(cl);
	return ret;
}

static int write_target(const struct target *t, const struct posting *p,
			const struct ident *me, const char *tmp)
{
	struct strbuf head = STRBUF_INIT, err = STRBUF_INIT;
	struct export e = EXPORT_INIT;
	char *where = xstrfmt("kernels.list:%d", t->line), *repo = abspath(".");
	const char *rel = t->series;
	struct series s = { 0 };
	size_t i;
	int ret = EXIT_USAGE;

	if (!strcmp(rel, "series") && p->po.rev && strcmp(p->po.dir, "series"))
		rel = p->po.dir;	/* the posted revision, not the working one */
	if (series_load(&s, repo, rel, where, &err)) {
		fputs(err.buf, stderr);
		goto out;
	}
	series_header(p, t, rel, &head);
	for (i = 0; i < s.patches.nr; i++) {
		ret = one_patch(p, rel, me, tmp, s.patches.v[i], &e, &err);
		if (ret) {
			error("%s: %s", s.patches.v[i], err.buf);
			goto out;
		}
	}
	strbuf_add(&head, e.notes.buf, e.notes.len);
	fputs(head.buf, stdout);	/* which revision, from where, what not */
	ret = p->tree ? write_tree(p, t, &e, me) :
			write_plain(p, t, &e, &head);
out:
	series_clear(&s);
	export_clear(&e);
	strbuf_release(&head);
	strbuf_release(&err);
	free(repo);
	free(where);
	return ret;
}

int cmd_debian_patches(const struct target_list *l, const char *dest,
		       const char *bug, const char *tmp, const char *results,
		       const char *const *names, int nr_names)
{
	struct posting p = { .merged = STRVEC_INIT, .dest = dest };
	struct strbuf err = STRBUF_INIT;
	struct ident me = { 0 };
	int ret = EXIT_USAGE, i, wrote = 0;
	size_t j;

	if (!dest || !*dest) {
		error("debian-patches needs DEST=<dir> (--dest): where the patches go");
		goto out;
	}
	if (!tmp) {
		error("debian-patches works in a temporary directory in the cache, and there is none");
		ret = EXIT_TOOL;
		goto out;
	}
	if (ident_sender(&me, &err)) {
		fprintf(stderr, "kverify: %s", err.buf);
		goto out;
	}
	if (read_posting(&p, bug, results))
		goto out;
	p.tree = is_file_in(dest, "debian/changelog") &&
		 is_file_in(dest, "debian/patches/series");
	if (p.tree && nr_names != 1) {
		error("%s is a checkout of the linux package: it takes one target's patches, name it (KERNEL=<name>)",
		      dest);
		goto out;
	}
	for (i = 0; i < nr_names; i++) {
		strbuf_reset(&err);
		if (!targets_find(l, names[i], &err)) {
			fputs(err.buf, stderr);
			goto out;
		}
	}
	for (j = 0; j < l->nr; j++) {
		const struct target *t = &l->v[j];
		int want = !nr_names;

		for (i = 0; i < nr_names; i++)
			want |= targets_find(l, names[i], &err) == t;
		if (!want)
			continue;
		if (!t->series) {
			if (nr_names)
				note("debian-patches: %s: %s", t->name,
				     t->na_reason ? t->na_reason :
				     "SERIES auto: verify it, then name its variant in kernels.list");
			continue;
		}
		ret = write_target(t, &p, &me, tmp);
		if (ret)
			goto out;
		wrote++;
	}
	if (!p.po.rev && !p.merged.nr && wrote)
		note("debian-patches: not posted upstream yet: Forwarded: no, and no Origin: (the From: is the author)");
	ret = 0;
out:
	posting_clear(&p);
	ident_clear(&me);
	strbuf_release(&err);
	return ret;
}
