// SPDX-License-Identifier: GPL-2.0
/*
 * kverify debian-patches --dest DIR [TARGET...]: each target's series as
 * Debian's kernel team carries patches in the linux package:
 * DIR/<target>/bugfix/x86/<name>.patch and DIR/<target>/series, the lines
 * to add to debian/patches/series.
 *
 * A patch starts at From: (no mbox "From <sha>" line), with Date:, a
 * plain Subject: (no "[PATCH 6.12.y 1/6]") and the DEP-3 fields in the
 * same header paragraph (DEP-3, https://dep-team.pages.debian.net/deps/dep3/):
 *
 *  - Origin: the upstream commit when series/merged names one for the
 *    patch ("upstream, URL" for series/, "backport, URL" for a variant of
 *    backports/), else the posting's lore link when series/message-id
 *    records it; none before the series is posted (From: is the author,
 *    which DEP-3 takes instead of an Origin);
 *  - Forwarded: the lore link once posted and not merged, "no" before,
 *    none once merged (an upstream patch is not forwarded);
 *  - Bug-Debian: from BUG=;
 *  - Last-Update: today.
 *
 * The operator's identity is stamped as make send stamps it: a patch
 * without From: gets theirs, and every patch their Signed-off-by:.  A
 * patch that touches only tools/testing/ (the selftest) is not carried:
 * Debian's linux builds no selftests; the series file says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "b4/ident.h"
#include "debian/debpatches.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/usage.h"
#include "series.h"
#include "sources/targets.h"

#define LORE "https://lore.kernel.org/r/"
#define LINUS "https://git.kernel.org/linus/"
#define DEBIAN_DIR "bugfix/x86"

/* series/ facts every target's patches share. */
struct posting {
	char *msgid;		/* series/message-id, or NULL: not posted */
	char *revision;		/* series/revision */
	char *change_id;	/* series/change-id */
	struct strvec merged;	/* series/merged: "NAME SHA" pairs */
	char *bug;		/* the Debian bug number, or NULL */
};

static void posting_clear(struct posting *p)
{
	free(p->msgid);
	free(p->revision);
	free(p->change_id);
	strvec_clear(&p->merged);
	free(p->bug);
}

static int all_of(const char *s, const char *set)
{
	return *s && s[strspn(s, set)] == '\0';
}

#define HEX "0123456789abcdef"
#define DIGITS "0123456789"

/* series/merged: "NNNN-name.patch SHA" a line, # comments; 0 or -1. */
static int read_merged(const char *path, struct strvec *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct line l;
	int n = 0, ret = 0;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0)
		return 0;	/* nothing merged yet */
	for_each_line(l, sb.buf) {
		char name[256], sha[64], extra;

		n++;
		if (!l.len || *l.s == '#')
			continue;
		if (sscanf(l.s, "%255s %63s %c", name, sha, &extra) != 2 ||
		    !ends_with(name, ".patch") || strchr(name, '/') ||
		    strlen(sha) < 12 || strlen(sha) > 40 || !all_of(sha, HEX)) {
			error("%s:%d: '%.*s' is not 'NNNN-name.patch SHA' (the upstream commit, 12 to 40 lowercase hex digits)",
			      path, n, (int)l.len, l.s);
			ret = -1;
			continue;
		}
		strvec_push(out, name);
		strvec_push(out, sha);
	}
	strbuf_release(&sb);
	return ret;
}

static int read_posting(struct posting *p, const char *bug)
{
	const char *n;

	p->msgid = read_first_line("series/message-id");
	p->revision = read_first_line("series/revision");
	p->change_id = read_first_line("series/change-id");
	if (p->msgid && (!*p->msgid || strpbrk(p->msgid, " \t<>\"") ||
			 !strchr(p->msgid, '@'))) {
		error("series/message-id:1: '%s' is not a message-id: write the posting's, without <>",
		      p->msgid);
		return -1;
	}
	if (!p->revision || !all_of(p->revision, DIGITS) || !p->change_id) {
		error("series/revision and series/change-id are needed: the revision the patches are");
		return -1;
	}
	if (read_merged("series/merged", &p->merged))
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

static const char *merged_sha(const struct posting *p, const char *name)
{
	size_t i;

	for (i = 0; i + 1 < p->merged.nr; i += 2)
		if (!strcmp(p->merged.v[i], name))
			return p->merged.v[i + 1];
	return NULL;
}

/* The DEP-3 fields of patch @name of a series of @rel. */
static void dep3_fields(const struct posting *p, const char *rel,
			const char *name, struct strbuf *out)
{
	const char *sha = merged_sha(p, name);
	const char *kind = starts_with(rel, "backports/") ? "backport" :
			   "upstream";
	char day[16];
	time_t now = time(NULL);

	if (sha)
		strbuf_addf(out, "Origin: %s, " LINUS "%s\n", kind, sha);
	else if (p->msgid)
		strbuf_addf(out, "Origin: %s" LORE "%s\nForwarded: " LORE "%s\n",
			    starts_with(rel, "backports/") ? "backport, " : "",
			    p->msgid, p->msgid);
	else
		strbuf_addstr(out, "Forwarded: no\n");
	if (p->bug)
		strbuf_addf(out, "Bug-Debian: https://bugs.debian.org/%s\n",
			    p->bug);
	strftime(day, sizeof(day), "%Y-%m-%d", gmtime(&now));
	strbuf_addf(out, "Last-Update: %s\n", day);
}

/* Drop "[...]" prefixes (git's "[PATCH 6.12.y 1/6]") and the blanks after. */
static const char *plain_subject(const char *s)
{
	while (*s == '[' && strchr(s, ']')) {
		s = strchr(s, ']') + 1;
		s += strspn(s, " \t");
	}
	return s;
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
	strbuf_addf(out, "Subject: %s\n%s\n", plain_subject(subject.buf),
		    fields);
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

/* "0005-KVM-x86-...patch" without its number: Debian's names have none. */
static const char *debian_name(const char *name)
{
	size_t n = strspn(name, DIGITS);

	return n && name[n] == '-' && name[n + 1] ? name + n + 1 : name;
}

static int write_target(const struct target *t, const struct posting *p,
			const struct ident *me, const char *dest,
			const char *tmp)
{
	struct strbuf series = STRBUF_INIT, err = STRBUF_INIT;
	char *dir = xstrfmt("%s/%s", dest, t->name);
	char *where = xstrfmt("kernels.list:%d", t->line);
	char *sub = xstrfmt("%s/" DEBIAN_DIR, dir), *repo = abspath(".");
	struct series s = { 0 };
	size_t i;
	int ret = EXIT_USAGE;

	if (series_load(&s, repo, t->series, where, &err)) {
		fputs(err.buf, stderr);
		goto out;
	}
	if (is_dir(dir)) {
		error("%s exists: remove it or pick another --dest", dir);
		goto out;
	}
	ret = EXIT_TOOL;
	if (mkdir_p(sub)) {
		error("cannot create %s", sub);
		goto out;
	}
	strbuf_addf(&series, "# %s: %s, v%s of change-id %s (kverify debian-patches)\n",
		    t->name, t->series, p->revision, p->change_id);
	if (!p->msgid && !p->merged.nr)
		strbuf_addstr(&series, "# Not posted upstream yet (no series/message-id): Debian's kernel\n"
			      "# carries what upstream took, or at least what is posted for review.\n");
	for (i = 0; i < s.patches.nr; i++) {
		const char *name = patch_name(s.patches.v[i]);
		struct strbuf text = STRBUF_INIT, out = STRBUF_INIT,
			      fields = STRBUF_INIT;
		char *stamped = xstrfmt("%s/%s", tmp, name), *path;
		int codev = ident_co_developed("series/co-developed", name,
					       &err);
		int bad;

		bad = codev < 0 ||
		      ident_stamp(s.patches.v[i], stamped, me, STAMP_SIGNOFF |
				  (codev > 0 ? STAMP_CODEV : 0), &err) ||
		      strbuf_read_file(&text, stamped, 64 << 20) < 0;
		unlink(stamped);
		free(stamped);
		if (!bad && selftest_only(text.buf)) {
			strbuf_addf(&series, "# not carried: %s (tools/testing/ only: Debian's linux builds no selftests)\n",
				    name);
			strbuf_release(&text);
			continue;
		}
		dep3_fields(p, t->series, name, &fields);
		if (!bad && reshape(text.buf, fields.buf, &out, &err))
			bad = 1;
		path = xstrfmt("%s/%s", sub, debian_name(name));
		if (!bad && write_file(path, out.buf, out.len)) {
			strbuf_addf(&err, "cannot write %s", path);
			bad = 1;
		}
		if (!bad)
			strbuf_addf(&series, DEBIAN_DIR "/%s\n",
				    debian_name(name));
		free(path);
		strbuf_release(&text);
		strbuf_release(&out);
		strbuf_release(&fields);
		if (bad) {
			error("%s: %s", s.patches.v[i], err.buf);
			goto out;
		}
	}
	free(sub);
	sub = xstrfmt("%s/series", dir);
	if (write_file(sub, series.buf, series.len)) {
		error("cannot write %s", sub);
		goto out;
	}
	printf("wrote %s/series and %s/" DEBIAN_DIR "/\n", dir, dir);
	ret = 0;
out:
	series_clear(&s);
	strbuf_release(&series);
	strbuf_release(&err);
	free(repo);
	free(sub);
	free(where);
	free(dir);
	return ret;
}

int cmd_debian_patches(const struct target_list *l, const char *dest,
		       const char *bug, const char *tmp,
		       const char *const *names, int nr_names)
{
	struct posting p = { .merged = STRVEC_INIT };
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
	if (read_posting(&p, bug))
		goto out;
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
		ret = write_target(t, &p, &me, dest, tmp);
		if (ret)
			goto out;
		wrote++;
	}
	if (!p.msgid && !p.merged.nr && wrote)
		note("debian-patches: not posted upstream yet: Forwarded: no, and no Origin: (the From: is the author)");
	ret = 0;
out:
	posting_clear(&p);
	ident_clear(&me);
	strbuf_release(&err);
	return ret;
}
