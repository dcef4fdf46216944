// SPDX-License-Identifier: GPL-2.0
/*
 * What kverify debian-patches takes from series/ and from the record of
 * what was posted: a patch's name as Debian's linux package names it, the
 * newest posted revision and each patch's own message in it, and the
 * trailers make trailers collected into series/.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/series.h"
#include "debian/debpatches_meta.h"
#include "lib/fsutil.h"
#include "lib/usage.h"

static int isalnum_ascii(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/*
 * The value of header @key of the mail header of @text (up to its first
 * blank line), continuation lines unfolded; NULL: none.
 */
char *mail_header(const char *text, const char *key)
{
	struct strbuf v = STRBUF_INIT;
	size_t klen = strlen(key);
	const char *p = text;
	int in = 0, found = 0;

	while (*p && *p != '\n' && !(*p == '\r' && p[1] == '\n')) {
		size_t len = strcspn(p, "\n");
		size_t n = len && p[len - 1] == '\r' ? len - 1 : len;

		if (in && (*p == ' ' || *p == '\t')) {
			strbuf_addch(&v, ' ');
			strbuf_add(&v, p + strspn(p, " \t"), n - strspn(p, " \t"));
		} else {
			in = !found && n > klen && p[klen] == ':' &&
			     !strncasecmp(p, key, klen);
			if (in) {
				found = 1;
				strbuf_add(&v, p + klen + 1, n - klen - 1);
			}
		}
		p += len + (p[len] == '\n');
	}
	if (!found) {
		strbuf_release(&v);
		return NULL;
	}
	return xstrdup(v.buf + strspn(v.buf, " \t"));
}

/* @s without its "[PATCH ...]" prefixes and the blanks after them. */
const char *plain_subject(const char *s)
{
	while (*s == '[' && strchr(s, ']')) {
		s = strchr(s, ']') + 1;
		s += strspn(s, " \t");
	}
	return s;
}

/*
 * The name Debian's linux package gives the patch of subject @subject:
 * its words (letters and digits) in lower case, joined by '-', as many
 * whole words as fit in DEBIAN_NAME_MAX characters, then ".patch".  It
 * depends on the subject alone: not on the patch's number, nor on the
 * revision.  NULL: the subject has no word.
 */
char *debian_patch_name(const char *subject)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = plain_subject(subject);

	while (*p) {
		size_t n, i;

		while (*p && !isalnum_ascii(*p))
			p++;
		for (n = 0; isalnum_ascii(p[n]); n++)
			;
		if (!n)
			break;
		if (sb.len && sb.len + 1 + n > DEBIAN_NAME_MAX)
			break;
		if (sb.len)
			strbuf_addch(&sb, '-');
		for (i = 0; i < n && sb.len < DEBIAN_NAME_MAX; i++)
			strbuf_addch(&sb, p[i] >= 'A' && p[i] <= 'Z' ?
				     p[i] - 'A' + 'a' : p[i]);
		p += n;
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;	/* no word to name it by */
	}
	strbuf_addstr(&sb, ".patch");
	return strbuf_detach(&sb, NULL);
}

/* The Debian name of the patch file @path (by its Subject:), or NULL. */
char *debian_name_of(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *subject = NULL, *name = NULL;
	const char *p;

	if (strbuf_read_file(&sb, path, 64 << 20) < 0)
		return NULL;
	p = sb.buf;
	if (starts_with(p, "From ") && strchr(p, '\n'))
		p = strchr(p, '\n') + 1;	/* the mbox line */
	subject = mail_header(p, "Subject");
	if (subject)
		name = debian_patch_name(subject);
	free(subject);
	strbuf_release(&sb);
	return name;
}

/* @id without <> when it is a message-id, else NULL. */
static char *clean_msgid(const char *id)
{
	size_t n;

	id += strspn(id, " \t<");
	n = strcspn(id, ">");
	if (!n || id[n + strspn(id + n, "> \t\r")] || !memchr(id, '@', n) ||
	    strcspn(id, " \t\"<") < n)
		return NULL;
	return xstrfmt("%.*s", (int)n, id);
}

/* "[PATCH vN 0/M]": a cover letter's subject. */
static int cover_subject(const char *s)
{
	const char *end = *s == '[' ? strchr(s, ']') : NULL;
	const char *z = end ? strstr(s, " 0/") : NULL;

	return z && z < end;
}

/*
 * Each patch's own message-id, from the mails as they were sent
 * (the .eml files of @results/send/vN/sent/, kept by make send SEND=1), by the Debian
 * name of their subject: "name\tmsgid" into @po->ids.
 */
static void sent_ids(struct posted *po, const char *results)
{
	char *dir = xstrfmt("%s/send/v%d/sent", results, po->rev);
	struct dirent **d;
	int i, n = scandir(dir, &d, NULL, alphasort);

	for (i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *path = xstrfmt("%s/%s", dir, d[i]->d_name);
		char *subj = NULL, *id = NULL, *raw = NULL, *name;

		if (ends_with(d[i]->d_name, ".eml") &&
		    strbuf_read_file(&sb, path, 16 << 20) >= 0) {
			subj = mail_header(sb.buf, "Subject");
			raw = mail_header(sb.buf, "Message-Id");
			id = raw ? clean_msgid(raw) : NULL;
		}
		if (subj && id && !cover_subject(subj)) {
			name = debian_patch_name(subj);
			strvec_pushf(&po->ids, "%s\t%s", name, id);
			free(name);
		}
		free(subj);
		free(raw);
		free(id);
		free(path);
		strbuf_release(&sb);
		free(d[i]);
	}
	if (n >= 0)
		free(d);
	free(dir);
}

/*
 * Each patch's own message-id as make am recorded it from the thread:
 * @po->dir/message-ids, "NNNN-name.patch <message-id>" a line, into
 * @po->ids by the patch's Debian name.  0 (also when there is none), or
 * -1 after saying which line is wrong.
 */
static int recorded_ids(struct posted *po)
{
	char *path = xstrfmt("%s/message-ids", po->dir);
	struct strbuf sb = STRBUF_INIT;
	struct line l;
	int ln = 0, ret = 0;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0)
		goto out;
	for_each_line(l, sb.buf) {
		size_t f = 0;
		char *rest, *file, *id, *name = NULL;

		while (f < l.len && l.s[f] != ' ')
			f++;
		rest = xstrfmt("%.*s", (int)(l.len - f), l.s + f);
		file = xstrfmt("%s/%.*s", po->dir, (int)f, l.s);
		id = clean_msgid(rest);
		ln++;
		if (id && f && !memchr(l.s, '/', f))
			name = debian_name_of(file);
		if (!id || !f || memchr(l.s, '/', f))
			ret = error("%s:%d: '%.*s' is not '<patch file> <message-id>'",
				    path, ln, (int)l.len, l.s);
		else if (!name)
			ret = error("%s:%d: %s: no patch with a Subject: of that name",
				    path, ln, file);
		else
			strvec_pushf(&po->ids, "%s\t%s", name, id);
		free(rest);
		free(file);
		free(id);
		free(name);
		if (ret)
			break;
	}
out:
	strbuf_release(&sb);
	free(path);
	return ret;
}

/* The highest N of series/old/vN/ that has a message-id: posted. */
static int newest_old_posted(void)
{
	struct dirent **d;
	int i, best = 0, n = scandir("series/old", &d, NULL, alphasort);

	for (i = 0; i < n; i++) {
		const char *s = d[i]->d_name;
		char *mp = xstrfmt("series/old/%s/message-id", s);
		int r = s[0] == 'v' ? atoi(s + 1) : 0;

		if (r > best && s[1 + strspn(s + 1, "0123456789")] == '\0' &&
		    is_file(mp))
			best = r;
		free(mp);
		free(d[i]);
	}
	if (n >= 0)
		free(d);
	return best;
}

/* The names of @po->dir's patches, in @po->names. */
static int posted_names(struct posted *po)
{
	struct series s = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *repo = abspath(".");
	size_t i;
	int ret = series_load(&s, repo, po->dir, po->dir, &err);

	if (ret)
		fputs(err.buf, stderr);
	for (i = 0; !ret && i < s.patches.nr; i++) {
		char *name = debian_name_of(s.patches.v[i]);

		strvec_push(&po->names, name ? name : "");
		free(name);
	}
	series_clear(&s);
	strbuf_release(&err);
	free(repo);
	return ret;
}

/*
 * The newest posted revision: series/ when series/message-id says it is
 * posted, else the newest of series/old/vN/ with a message-id (make
 * reroll and make am keep the posted one there).  @working: series/revision.
 * 0 (po->rev 0: nothing posted) or -1 after saying why.
 */
int posted_load(struct posted *po, int working, const char *results)
{
	char *path, *raw;

	if (is_file("series/message-id")) {
		po->rev = working;
		po->dir = xstrdup("series");
	} else {
		po->rev = newest_old_posted();
		if (!po->rev)
			return 0;
		po->dir = xstrfmt("series/old/v%d", po->rev);
	}
	path = xstrfmt("%s/message-id", po->dir);
	raw = read_first_line(path);
	po->msgid = raw ? clean_msgid(raw) : NULL;
	if (!po->msgid) {
		error("%s:1: '%s' is not a message-id: write the posting's, without <>",
		      path, raw ? raw : "");
		free(raw);
		free(path);
		return -1;
	}
	free(raw);
	free(path);
	if (recorded_ids(po))
		return -1;
	sent_ids(po, results);
	return posted_names(po);
}

void posted_clear(struct posted *po)
{
	free(po->dir);
	free(po->msgid);
	strvec_clear(&po->names);
	strvec_clear(&po->ids);
}

/* The patch @name's own message-id in the posting, or NULL. */
const char *posted_patch_id(const struct posted *po, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < po->ids.nr; i++)
		if (!strncmp(po->ids.v[i], name, n) && po->ids.v[i][n] == '\t')
			return po->ids.v[i] + n + 1;
	return NULL;
}

/* A trailer a reviewer gives: "Xxx-by: " but not the author's own. */
static int collected_trailer(const char *s, size_t len)
{
	size_t k = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-");

	if (k < 4 || k + 2 > len || s[k] != ':' || s[k + 1] != ' ' ||
	    strncmp(s + k - 3, "-by", 3))
		return 0;
	return strncasecmp(s, "Signed-off-by:", 14) &&
	       strncasecmp(s, "Co-developed-by:", 16);
}

/* The series/ patch whose Subject: gives Debian name @name, or NULL. */
static char *series_patch_named(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	struct line l;
	char *found = NULL;

	if (strbuf_read_file(&sb, "series/series", 1 << 20) < 0)
		return NULL;
	for_each_line(l, sb.buf) {
		char *path, *n;

		if (!l.len || *l.s == '#' || found)
			continue;
		path = xstrfmt("series/%.*s", (int)l.len, l.s);
		n = debian_name_of(path);
		if (n && !strcmp(n, name))
			found = path;
		else
			free(path);
		free(n);
	}
	strbuf_release(&sb);
	return found;
}

/*
 * The trailers make trailers collected into series/ for the patch named
 * @name (Reviewed-by:, Tested-by:, Acked-by:...) that @text lacks, into
 * @text: before the backport note ("[ backport to ...") of its message's
 * last paragraph, else at the message's end.  How many.
 */
int add_collected_trailers(struct strbuf *text, const char *name)
{
	char *path = series_patch_named(name);
	struct strbuf sb = STRBUF_INIT, add = STRBUF_INIT, out = STRBUF_INIT;
	const char *sep, *end, *para, *at;
	struct line l;
	int n = 0;

	if (!path || strbuf_read_file(&sb, path, 64 << 20) < 0)
		goto out;
	end = strstr(sb.buf, "\n---\n");
	for_each_line(l, sb.buf) {
		struct strbuf want = STRBUF_INIT;

		if (end && l.s > end)
			break;
		strbuf_addf(&want, "\n%.*s\n", (int)l.len, l.s);
		if (collected_trailer(l.s, l.len) && !strstr(text->buf, want.buf)) {
			strbuf_add(&add, want.buf + 1, want.len - 1);
			n++;
		}
		strbuf_release(&want);
	}
	sep = strstr(text->buf, "\n---\n");
	if (!n || !sep)
		goto out;
	for (para = sep; para > text->buf && strncmp(para, "\n\n", 2); para--)
		;
	for (at = para; at < sep && strncmp(at, "\n[", 2); at = strchr(at + 1, '\n'))
		;
	strbuf_add(&out, text->buf, at + 1 - text->buf);
	strbuf_add(&out, add.buf, add.len);
	strbuf_addstr(&out, at + 1);
	strbuf_reset(text);
	strbuf_add(text, out.buf, out.len);
out:
	free(path);
	strbuf_release(&sb);
	strbuf_release(&add);
	strbuf_release(&out);
	return n;
}
