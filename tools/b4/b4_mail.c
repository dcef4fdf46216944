// SPDX-License-Identifier: GPL-2.0
/*
 * What b4's workflows read in files and mail: series/revision; a mail's
 * Subject:, Message-Id:, message and trailers, and whether a mailbox holds
 * a patch, as git reads them (git mailinfo, interpret-trailers --parse,
 * mailsplit); the patch files of a directory and their installation into
 * series/, and the record of a posted revision.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "b4/b4_int.h"
#include "core/series.h"
#include "lib/fsutil.h"
#include "lib/usage.h"

char *read_trim(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_trim_trailing(&sb);
	return strbuf_detach(&sb, NULL);
}

/*
 * The revision series/revision holds; 0 when it holds none, after an error
 * that ends in "write the number of the revision @what".
 */
int series_revision(const char *what)
{
	char *s = read_trim("series/revision");
	int n = s ? parse_revision(s) : 0;

	if (!s)
		error("series/revision: cannot read it: write the number of the revision %s there",
		      what);
	else if (!n)
		error("series/revision:1: '%s' is not a revision (1 to %d): write the number of the revision %s",
		      s, MAX_REVISION, what);
	free(s);
	return n;
}

int list_dir(const char *dir, const char *suffix, struct strvec *out)
{
	struct dirent **names;
	int i, n = scandir(dir, &names, NULL, alphasort);

	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > strlen(suffix) &&
		    !strcmp(names[i]->d_name + len - strlen(suffix), suffix))
			strvec_pushf(out, "%s/%s", dir, names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return n < 0 ? -1 : 0;
}

/* "N" in @out/message-id: this revision was posted (a real send). */
char *b4_posted(const char *out)
{
	char *path = xstrfmt("%s/message-id", out), *id = read_trim(path);

	free(path);
	return id;
}

/*
 * A git that reads a mail goes by git's defaults alone: no trailer.* or
 * mailinfo.* of the operator's nor of a repository's changes what it
 * reads.  It runs as b4_git() runs git in b4's repository (argv, no shell).
 */
static void mail_env(struct child *c)
{
	strvec_pushl(&c->env, "GIT_CONFIG_NOSYSTEM=1",
		     "GIT_CONFIG_GLOBAL=/dev/null", "GIT_DIR=/dev/null",
		     "GIT_CONFIG_COUNT=0", NULL);
}

/* Run @c with the b4 log; say why it failed on stderr. */
int run_logged(struct b4 *b, struct child *c)
{
	int ret;

	c->log = b->log;
	ret = run_child(c);
	if (ret) {
		struct strbuf why = STRBUF_INIT;

		child_describe_failure(c, &why);
		error("%s (log: %s)", why.buf, b->log);
		strbuf_release(&why);
	}
	child_clear(c);
	return ret;
}

/* git of the mail tools: 0, or -1 after saying why on stderr. */
static int mail_git(struct b4 *b, struct child *c)
{
	mail_env(c);
	return run_logged(b, c) ? -1 : 0;
}

/*
 * git mailinfo -k (the Subject as it is, "[PATCH vN]" and all) on the
 * first mail of @path: the headers it prints (Author, Email, Subject, Date,
 * each unfolded and RFC 2047 decoded) into @info, the message into @msg
 * (after an in-body From: or Subject:, the patch left out), with @msgid
 * the Message-Id: appended to it (mailinfo -m).  Either may be NULL.
 */
static int git_mailinfo(struct b4 *b, const char *path, int msgid,
			struct strbuf *info, struct strbuf *msg)
{
	struct child c = CHILD_INIT;
	char *m = xstrfmt("%s/mailinfo.msg", b->a->work);
	char *p = xstrfmt("%s/mailinfo.patch", b->a->work);
	struct strbuf out = STRBUF_INIT;
	int ret;

	strvec_pushl(&c.args, "git", "mailinfo", "-k", NULL);
	if (msgid)
		strvec_push(&c.args, "-m");
	strvec_pushl(&c.args, m, p, NULL);
	c.in = path;
	c.out = info ? info : &out;
	ret = mail_git(b, &c);
	if (!ret && msg && strbuf_read_file(msg, m, 64 << 20) < 0)
		ret = error("%s: cannot read what git mailinfo wrote", m);
	unlink(m);
	unlink(p);
	strbuf_release(&out);
	free(m);
	free(p);
	return ret;
}

/*
 * The Subject: of the mail @path as git mailinfo reads it (unfolded,
 * decoded), or NULL.
 */
char *mail_subject(struct b4 *b, const char *path)
{
	struct strbuf info = STRBUF_INIT;
	char *s = NULL;
	struct line l;

	if (!git_mailinfo(b, path, 0, &info, NULL))
		for_each_line(l, info.buf)
			if (l.len >= 9 && !strncmp(l.s, "Subject: ", 9)) {
				s = xstrfmt("%.*s", (int)l.len - 9, l.s + 9);
				break;
			}
	strbuf_release(&info);
	return s;
}

/* The message of the mail @path as git mailinfo reads it, into @msg. */
int mail_message(struct b4 *b, const char *path, struct strbuf *msg)
{
	return git_mailinfo(b, path, 0, NULL, msg);
}

/*
 * The Message-Id: of the mail @path, unfolded, as git mailinfo -m reads
 * it, or NULL: what -m appends to the message it reads without.
 */
char *mail_msgid(struct b4 *b, const char *path)
{
	struct strbuf with = STRBUF_INIT, without = STRBUF_INIT;
	const char *v;
	char *id = NULL;

	if (git_mailinfo(b, path, 0, NULL, &without) ||
	    git_mailinfo(b, path, 1, NULL, &with) || with.len <= without.len ||
	    memcmp(with.buf, without.buf, without.len))
		goto out;
	v = with.buf + without.len;
	v = strchr(v, ':');
	if (!v)
		goto out;
	v += 1 + strspn(v + 1, " \t");
	id = xstrfmt("%.*s", (int)strcspn(v, "\n"), v);
out:
	strbuf_release(&with);
	strbuf_release(&without);
	return id;
}

/*
 * The trailers of the mail (or format-patch file) @path, "Key: value" one
 * each, as git interpret-trailers --parse reads the message git mailinfo
 * takes out of it: the last paragraph before the "---", when git holds it
 * for trailers, folded lines joined.  0, or -1 after an error.
 */
int mail_trailers(struct b4 *b, const char *path, struct strvec *out)
{
	struct child c = CHILD_INIT;
	struct strbuf msg = STRBUF_INIT, sb = STRBUF_INIT;
	char *m = xstrfmt("%s/trailers.msg", b->a->work);
	struct line l;
	int ret = git_mailinfo(b, path, 0, NULL, &msg);

	if (!ret && write_file(m, msg.buf, msg.len))
		ret = error("%s: cannot write it", m);
	if (!ret) {
		strvec_pushl(&c.args, "git", "interpret-trailers", "--parse",
			     m, NULL);
		c.out = &sb;
		ret = mail_git(b, &c);
	} else {
		child_clear(&c);
	}
	if (!ret)
		for_each_line(l, sb.buf)
			if (l.len)
				strvec_pushf(out, "%.*s", (int)l.len, l.s);
	unlink(m);
	strbuf_release(&msg);
	strbuf_release(&sb);
	free(m);
	return ret;
}

/*
 * git mailsplit cuts the mailbox @path into @dir/0001, 0002... (a file
 * without a "From " line is one mail).  How many mails; 0 for an empty
 * or unreadable mailbox.
 */
static int mbox_split(struct b4 *b, const char *path, const char *dir)
{
	char *opt = xstrfmt("-o%s", dir);
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	int n = 0;

	rm_rf(dir);
	mkdir_p(dir);
	/* -b: a file without a "From " line is one mail; it says how many */
	strvec_pushl(&c.args, "git", "mailsplit", "-b", "-d4", opt, "--",
		     path, NULL);
	mail_env(&c);
	c.out = &out;
	c.log = b->log;
	if (!run_child(&c))
		n = atoi(out.buf);
	child_clear(&c);
	strbuf_release(&out);
	free(opt);
	return n;
}

/*
 * Does the mailbox @path hold a patch, a mail whose Subject: (as git
 * mailinfo reads it) starts "[PATCH", not only replies?  An empty or
 * unreadable mailbox holds none.
 */
int mbox_has_patch(struct b4 *b, const char *path)
{
	char *dir = xstrfmt("%s/mailsplit", b->a->work);
	int i, n = mbox_split(b, path, dir), found = 0;

	for (i = 1; i <= n && !found; i++) {
		char *mail = xstrfmt("%s/%04d", dir, i);
		char *s = mail_subject(b, mail);

		found = s && starts_with(s, "[PATCH");
		free(s);
		free(mail);
	}
	rm_rf(dir);
	free(dir);
	return found;
}

/*
 * The Message-Id of each mail of the mailbox @path, in its order, as git
 * mailinfo -m reads it, without <>: into @ids.  0, or -1 when a mail has
 * none that is a message-id (@ids then holds those before it).
 */
int mbox_msgids(struct b4 *b, const char *path, struct strvec *ids)
{
	char *dir = xstrfmt("%s/mailsplit", b->a->work);
	int i, n = mbox_split(b, path, dir), ret = n ? 0 : -1;

	for (i = 1; i <= n && !ret; i++) {
		char *mail = xstrfmt("%s/%04d", dir, i);
		char *m = mail_msgid(b, mail);
		const char *s = m ? m + (*m == '<') : NULL;
		char *id = s ? xstrfmt("%.*s", (int)strcspn(s, ">"), s) : NULL;

		if (id && valid_msgid(id) && !strpbrk(id, "\"\\<>()[],; \t"))
			strvec_push(ids, id);
		else
			ret = -1;
		free(id);
		free(m);
		free(mail);
	}
	rm_rf(dir);
	free(dir);
	return ret;
}

/* Patches of @dir (format-patch output) into series/; how many. */
int install_patches(const char *dir)
{
	struct strvec files = STRVEC_INIT;
	struct strbuf series = STRBUF_INIT;
	size_t i;
	int ret = list_dir(dir, ".patch", &files);

	for (i = 0; i < files.nr && !ret; i++) {
		char *to = xstrfmt("series/%s", patch_name(files.v[i]));
		struct strbuf sb = STRBUF_INIT;

		ret = strbuf_read_file(&sb, files.v[i], 16 << 20);
		unfold_from(&sb);
		ret = ret || write_file(to, sb.buf, sb.len);
		strbuf_addf(&series, "%s\n", patch_name(files.v[i]));
		strbuf_release(&sb);
		free(to);
	}
	if (!ret)
		ret = write_file("series/series", series.buf, series.len);
	ret = ret ? -1 : (int)files.nr;
	strvec_clear(&files);
	strbuf_release(&series);
	return ret;
}

/*
 * What format-patch wrote in @dir, as series/ keeps it: a folded From:
 * joined, the sender's From:, Co-developed-by: and Signed-off-by: taken
 * off (the project's patches carry none in the repository: make send
 * stamps them), and no identity nobody owns.  0, or -1 after saying which
 * patch names one (nothing is imported then).
 */
int unstamp_dir(struct b4 *b, const char *dir)
{
	struct strvec files = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int ret = list_dir(dir, ".patch", &files), bad = 0;

	for (i = 0; i < files.nr && !ret; i++) {
		struct strbuf sb = STRBUF_INIT;

		ret = strbuf_read_file(&sb, files.v[i], 16 << 20) < 0;
		unfold_from(&sb);
		ident_unstamp(&sb, b->id.email);
		ret = ret || write_file(files.v[i], sb.buf, sb.len);
		bad += ident_check_patch(files.v[i], &err);
		strbuf_release(&sb);
	}
	if (bad) {
		fputs(err.buf, stderr);
		error("the posting names %d identit%s nobody owns (above): nothing was imported; series/ keeps no such identity",
		      bad, bad == 1 ? "y" : "ies");
	}
	strvec_clear(&files);
	strbuf_release(&err);
	return ret || bad ? -1 : 0;
}
