// SPDX-License-Identifier: GPL-2.0
/*
 * The upstream series through b4: send (series/ -> a b4 prep branch on the
 * target's tree -> .eml files), am (a posted revision -> series/, the
 * previous one kept in series/old/vN/), trailers (review replies -> the
 * right patches of series/) and range-diff.
 *
 * A Debian tree is imported once into a git repository in the cache (a
 * hard-linked work tree, git writes new files, never into the links).  The
 * placeholder identity of series/IDENTITY becomes the sender's git
 * identity on the branch, and the placeholder again in series/.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "b4.h"
#include "fsutil.h"
#include "verify.h"

#define BRANCH "b4/kvm-pmu-tolerance"
#define BASE_TAG "kverify-base"
#define MAGIC "--- b4-submit-tracking ---"
#define DEFAULT_TO "kvm@vger.kernel.org"
#define DEFAULT_CC "Sean Christopherson <seanjc@google.com>"

struct b4 {
	const struct b4_args *a;
	char *repo;		/* cache/b4/<source key> */
	char *src;
	char *log;
	char *placeholder;	/* series/IDENTITY */
	char *sender;		/* the sender's git identity, or placeholder */
	char *name, *email;
	struct strvec patches;
};

/* Run @c with the b4 log; say why it failed on stderr. */
static int run_logged(struct b4 *b, struct child *c)
{
	int ret;

	c->log = b->log;
	ret = run_child(c);
	if (ret) {
		struct strbuf why = STRBUF_INIT;

		child_describe_failure(c, &why);
		fprintf(stderr, "kverify: %s (log: %s)\n", why.buf, b->log);
		strbuf_release(&why);
	}
	child_clear(c);
	return ret;
}

static int git(struct b4 *b, struct strbuf *out, ...)
{
	struct child c = CHILD_INIT;
	const char *arg;
	va_list ap;

	strvec_pushl(&c.args, "git", "-C", b->repo, "-c", NULL);
	strvec_pushf(&c.args, "user.name=%s", b->name);
	strvec_push(&c.args, "-c");
	strvec_pushf(&c.args, "user.email=%s", b->email);
	va_start(ap, out);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&c.args, arg);
	va_end(ap);
	c.out = out;
	return run_logged(b, &c);
}

static char *git_config(const char *key)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "git", "config", "--get", key, NULL);
	c.out = &out;
	c.log = "/dev/null";
	if (run_child(&c) || !out.len) {
		child_clear(&c);
		strbuf_release(&out);
		return NULL;
	}
	child_clear(&c);
	strbuf_trim_trailing(&out);
	return out.buf;
}

/* "Name <email>" into its parts. */
static void split_ident(const char *ident, char **name, char **email)
{
	const char *lt = strchr(ident, '<'), *gt = strchr(ident, '>');

	*name = xstrfmt("%.*s", lt ? (int)(lt - ident - (lt > ident)) : 0,
			ident);
	*email = lt && gt ? xstrfmt("%.*s", (int)(gt - lt - 1), lt + 1) :
			    xstrdup("");
}

static int identities(struct b4 *b)
{
	char *n = git_config("user.name"), *e = git_config("user.email");

	b->placeholder = read_first_line("series/IDENTITY");
	if (!b->placeholder) {
		fprintf(stderr, "kverify: series/IDENTITY is missing\n");
		return -1;
	}
	if (n && e) {
		b->sender = xstrfmt("%s <%s>", n, e);
	} else {
		fprintf(stderr, "kverify: no git user.name/user.email: the placeholder %s stays\n",
			b->placeholder);
		b->sender = xstrdup(b->placeholder);
	}
	split_ident(b->sender, &b->name, &b->email);
	free(n);
	free(e);
	return 0;
}

/* Every @from in @sb becomes @to. */
static void replace_all(struct strbuf *sb, const char *from, const char *to)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = strbuf_str(sb), *hit;
	size_t n = strlen(from);

	while ((hit = strstr(p, from))) {
		strbuf_add(&out, p, hit - p);
		strbuf_addstr(&out, to);
		p = hit + n;
	}
	strbuf_addstr(&out, p);
	strbuf_release(sb);
	*sb = out;
}

/* Under the repository's lock (cmd_b4), which owns b4/.tmp-<key>. */
static int import_tree(struct b4 *b)
{
	char *real = b->repo, *git_dir = xstrfmt("%s/.git", real);
	char *slash = strrchr(real, '/');
	char *tmp = xstrfmt("%.*s/.tmp-%s", (int)(slash - real), real,
			    slash + 1);
	struct child c = CHILD_INIT;
	int ret = 0;

	if (is_dir(git_dir))
		goto out;
	fprintf(stderr, "kverify: importing %s into git (once)\n", b->src);
	rm_rf(tmp);	/* abandoned by a killed run */
	*strrchr(tmp, '/') = '\0';
	mkdir_p(tmp);
	tmp[strlen(tmp)] = '/';
	strvec_pushl(&c.args, "cp", "-al", "--", b->src, tmp, NULL);
	c.log = b->log;
	ret = run_child(&c);
	child_clear(&c);
	b->repo = tmp;
	ret = ret || git(b, NULL, "init", "-q", NULL) ||
	      git(b, NULL, "add", "-A", "--force", NULL) ||
	      git(b, NULL, "commit", "-q", "-m", "Debian kernel source, as packaged", NULL) ||
	      git(b, NULL, "tag", BASE_TAG, NULL);
	b->repo = real;
	if (!ret && rename(tmp, real) < 0)
		ret = -1;
	if (ret) {
		fprintf(stderr, "kverify: could not import the tree into %s\n",
			real);
		rm_rf(tmp);
	}
out:
	free(tmp);
	free(git_dir);
	return ret;
}

static char *read_trim(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0)
		return NULL;
	strbuf_trim_trailing(&sb);
	return sb.buf ? sb.buf : xstrdup("");
}

/* The cover commit b4 prep would make: cover letter, then tracking data. */
static int cover_commit(struct b4 *b)
{
	char *cover = read_trim("series/cover-letter");
	char *rev = read_trim("series/revision"), *id = read_trim("series/change-id");
	char *msg_path = xstrfmt("%s/cover.msg", b->a->work);
	struct strbuf msg = STRBUF_INIT;
	const char *bc;
	int ret = -1;

	if (!cover || !rev || !id) {
		fprintf(stderr, "kverify: series/cover-letter, series/revision and series/change-id are needed\n");
		goto out;
	}
	if (strstr(cover, "EDITME")) {
		fprintf(stderr, "kverify: series/cover-letter still says EDITME: write the cover letter first\n");
		goto out;
	}
	bc = strstr(cover, "\nbase-commit:");
	strbuf_add(&msg, cover, bc ? (size_t)(bc - cover) : strlen(cover));
	strbuf_addf(&msg, "\n\n%s\n# This section is used internally by b4 prep for tracking purposes.\n{\n  \"series\": {\n    \"revision\": %d,\n    \"change-id\": \"%s\",\n    \"base-branch\": \"%s\",\n    \"prefixes\": []\n  }\n}\n",
		    MAGIC, atoi(rev), id, BASE_TAG);
	replace_all(&msg, b->placeholder, b->sender);
	if (write_file(msg_path, msg.buf, msg.len))
		goto out;
	ret = git(b, NULL, "commit", "-q", "--allow-empty", "-F", msg_path,
		  NULL);
out:
	strbuf_release(&msg);
	free(cover);
	free(rev);
	free(id);
	free(msg_path);
	return ret;
}

static int load_patches(struct b4 *b)
{
	char *series = read_trim("series/series"), *line, *save = NULL;

	if (!series)
		return -1;
	for (line = strtok_r(series, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (*line && *line != '#')
			strvec_pushf(&b->patches, "series/%s", line);
	free(series);
	return b->patches.nr ? 0 : -1;
}

/* git am each patch of series/, the placeholder made the sender. */
static int am_series(struct b4 *b)
{
	char *tmp = xstrfmt("%s/am.patch", b->a->work);
	size_t i;
	int ret = 0;

	for (i = 0; i < b->patches.nr && !ret; i++) {
		struct strbuf sb = STRBUF_INIT;

		ret = strbuf_read_file(&sb, b->patches.v[i], 16 << 20);
		replace_all(&sb, b->placeholder, b->sender);
		ret = ret || write_file(tmp, sb.buf, sb.len) ||
		      git(b, NULL, "am", "-q", "--keep-cr", tmp, NULL);
		strbuf_release(&sb);
	}
	free(tmp);
	return ret;
}

static int build_branch(struct b4 *b)
{
	if (import_tree(b) || load_patches(b))
		return -1;
	return git(b, NULL, "checkout", "-q", "-f", "-B", BRANCH, BASE_TAG,
		   NULL) ||
	       git(b, NULL, "config", "branch." BRANCH ".b4-prep-cover-strategy",
		   "commit", NULL) ||
	       git(b, NULL, "config", "user.name", b->name, NULL) ||
	       git(b, NULL, "config", "user.email", b->email, NULL) ||
	       cover_commit(b) || am_series(b);
}

static int b4(struct b4 *b, const char *in, ...)
{
	struct child c = CHILD_INIT;
	const char *arg;
	va_list ap;

	/*
	 * In a kernel tree b4 0.12 picks its web endpoint, which insists on
	 * signing even for "send -o".  Only a real send (SEND=1) goes by the
	 * sender's own configuration.
	 */
	if (!b->a->send) {
		strvec_push(&c.env, "GIT_CONFIG_COUNT=1");
		strvec_push(&c.env, "GIT_CONFIG_KEY_0=sendemail.smtpserver");
		strvec_push(&c.env, "GIT_CONFIG_VALUE_0=/bin/false");
	}
	strvec_push(&c.args, "b4");
	va_start(ap, in);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&c.args, arg);
	va_end(ap);
	c.dir = b->repo;
	c.in = in;
	return run_logged(b, &c);
}

static int list_dir(const char *dir, const char *suffix, struct strvec *out)
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

static int check_emls(struct b4 *b, const struct strvec *emls, int rev)
{
	int i, n = emls->nr - 1, bad = 0;
	char *cp = xstrfmt("%s/scripts/checkpatch.pl", b->src);
	char *allow = read_trim("checkpatch.allow");

	for (i = 0; i <= n; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *want = xstrfmt("[PATCH v%d %d/%d]", rev, i, n);

		strbuf_read_file(&sb, emls->v[i], 16 << 20);
		if (!strstr(strbuf_str(&sb), want)) {
			fprintf(stderr, "check: %s lacks %s\n", emls->v[i], want);
			bad++;
		}
		if (!i && (!strstr(sb.buf, "\nbase-commit: ") ||
			   !strstr(sb.buf, "\nchange-id: ") ||
			   !strstr(sb.buf, "Changes since v"))) {
			fprintf(stderr, "check: the cover lacks base-commit:, change-id: or 'Changes since'\n");
			bad++;
		}
		if (i && checkpatch_file(b->src, emls->v[i], allow, b->log,
					 NULL)) {
			fprintf(stderr, "check: checkpatch --strict complains about %s\n",
				emls->v[i]);
			bad++;
		}
		strbuf_release(&sb);
		free(want);
	}
	free(cp);
	free(allow);
	return bad;
}

static int do_send(struct b4 *b)
{
	char *rev_s = read_trim("series/revision");
	int rev = rev_s ? atoi(rev_s) : 1;
	char *rel = xstrfmt("results/send/v%d", rev), *out = abspath(rel);
	struct strvec emls = STRVEC_INIT;
	size_t i;
	int ret;

	if (build_branch(b))
		return 1;
	rm_rf(out);
	mkdir_p(out);
	if (b->a->send)
		ret = b4(b, NULL, "send", "--no-sign", "--to",
			 b->a->to ? b->a->to : DEFAULT_TO, "--cc",
			 b->a->cc ? b->a->cc : DEFAULT_CC, NULL);
	else
		ret = b4(b, NULL, "send", "--no-sign", "-o", out,
			 "--to", b->a->to ? b->a->to : DEFAULT_TO, "--cc",
			 b->a->cc ? b->a->cc : DEFAULT_CC, NULL);
	if (ret || b->a->send)
		goto out;
	list_dir(out, ".eml", &emls);
	for (i = 0; i < emls.nr; i++)
		printf("%s\n", emls.v[i]);
	ret = emls.nr != b->patches.nr + 1 || check_emls(b, &emls, rev);
	printf("%s: %zu messages, v%d: %s\n", out, emls.nr, rev,
	       ret ? "CHECKS FAILED" : "numbering, base-commit, change-id, changelog and checkpatch checked");
out:
	strvec_clear(&emls);
	free(rev_s);
	free(rel);
	free(out);
	return ret ? 1 : 0;
}

/* Build branch @name from @patches on the base; 0 or -1. */
static int branch_from(struct b4 *b, const char *name,
		       const struct strvec *patches)
{
	size_t i;

	if (git(b, NULL, "checkout", "-q", "-f", "-B", name, BASE_TAG, NULL))
		return -1;
	for (i = 0; i < patches->nr; i++) {
		char *abs = abspath(patches->v[i]);
		int ret = git(b, NULL, "am", "-q", "--keep-cr", abs, NULL);

		free(abs);
		if (ret)
			return -1;
	}
	return 0;
}

static int range_diff(struct b4 *b, const char *old, const char *new)
{
	struct strbuf out = STRBUF_INIT;
	char *a = xstrfmt("%s..%s", BASE_TAG, old);
	char *n = xstrfmt("%s..%s", BASE_TAG, new);
	char *path = xstrfmt("%s/range-diff.txt", b->a->work);
	int ret = git(b, &out, "range-diff", "--no-color", a, n, NULL);

	if (!ret) {
		fputs(strbuf_str(&out), stdout);
		write_file(path, strbuf_str(&out), out.len);
		fprintf(stderr, "kverify: range-diff saved in %s\n", path);
	}
	strbuf_release(&out);
	free(a);
	free(n);
	free(path);
	return ret;
}

/* "[PATCH vN ..." in @text: N, or 1. */
static int revision_of(const char *text)
{
	const char *p = strstr(text, "[PATCH v");

	return p ? atoi(p + 8) : 1;
}

static char *header(const char *msg, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(name);
	const char *p = msg;

	while (p && *p && *p != '\n') {
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			const char *v = p + n + 1;

			while (*v == ' ')
				v++;
			for (;;) {
				size_t len = strcspn(v, "\n");

				strbuf_add(&sb, v, len);
				v += len + !!v[len];
				if (*v != ' ' && *v != '\t')
					break;
			}
			return sb.buf;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

/* series/cover-letter from b4's .cover, keeping our base-commit line. */
static int write_cover(const char *cover_mail, const char *old_cover)
{
	struct strbuf sb = STRBUF_INIT, mail = STRBUF_INIT;
	char *subject, *body_end;
	const char *body, *bc = old_cover ? strstr(old_cover, "\nbase-commit:") : NULL;
	int ret;

	if (strbuf_read_file(&mail, cover_mail, 1 << 20) < 0)
		return -1;
	subject = header(mail.buf, "Subject");
	body = strstr(mail.buf, "\n\n");
	if (!subject || !body) {
		strbuf_release(&mail);
		free(subject);
		return -1;
	}
	body += 2;
	body_end = strstr(body, "\n---\n");
	strbuf_addf(&sb, "%s\n\n", strchr(subject, ']') ? strchr(subject, ']') + 2 : subject);
	strbuf_add(&sb, body, body_end ? (size_t)(body_end - body) : strlen(body));
	strbuf_trim_trailing(&sb);
	strbuf_addch(&sb, '\n');
	if (bc)
		strbuf_addf(&sb, "%s\n", bc);
	ret = write_file("series/cover-letter", sb.buf, sb.len);
	strbuf_release(&sb);
	strbuf_release(&mail);
	free(subject);
	return ret;
}

static int archive_series(struct b4 *b, int old_rev)
{
	char *dir = xstrfmt("series/old/v%d", old_rev);
	static const char *const keep[] = {
		"series", "cover-letter", "revision", "change-id",
	};
	size_t i;
	int ret;

	rm_rf(dir);
	ret = mkdir_p(dir);
	for (i = 0; i < b->patches.nr && !ret; i++) {
		char *to = xstrfmt("%s/%s", dir, patch_name(b->patches.v[i]));

		ret = rename(b->patches.v[i], to);
		free(to);
	}
	for (i = 0; i < ARRAY_SIZE(keep) && !ret; i++) {
		char *from = xstrfmt("series/%s", keep[i]);
		char *to = xstrfmt("%s/%s", dir, keep[i]);
		struct strbuf sb = STRBUF_INIT;

		if (!strbuf_read_file(&sb, from, 1 << 20))
			ret = write_file(to, strbuf_str(&sb), sb.len);
		strbuf_release(&sb);
		free(from);
		free(to);
	}
	if (!ret)
		printf("previous revision kept in %s/\n", dir);
	free(dir);
	return ret;
}

/* Join a folded From: header, as git folds a long sender identity. */
static void unfold_from(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = strbuf_str(sb), *from = strstr(p, "\nFrom: ");
	const char *nl = from ? strchr(from + 1, '\n') : NULL;

	if (!nl || nl[1] != ' ')
		return;
	strbuf_add(&out, p, nl - p);
	strbuf_addstr(&out, nl + 1);
	strbuf_release(sb);
	*sb = out;
}

/* Patches of @dir (format-patch output) into series/, placeholder back. */
static int install_patches(struct b4 *b, const char *dir)
{
	struct strvec files = STRVEC_INIT;
	struct strbuf series = STRBUF_INIT;
	size_t i;
	int ret = list_dir(dir, ".patch", &files);

	for (i = 0; i < files.nr && !ret; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *to = xstrfmt("series/%s", patch_name(files.v[i]));

		ret = strbuf_read_file(&sb, files.v[i], 16 << 20);
		if (strcmp(b->sender, b->placeholder)) {
			unfold_from(&sb);
			replace_all(&sb, b->sender, b->placeholder);
		}
		ret = ret || write_file(to, sb.buf, sb.len);
		strbuf_addf(&series, "%s\n", patch_name(files.v[i]));
		strbuf_release(&sb);
		free(to);
	}
	if (!ret)
		ret = write_file("series/series", series.buf, series.len);
	strvec_clear(&files);
	strbuf_release(&series);
	return ret;
}

static int format_patches(struct b4 *b, const char *range, const char *dir)
{
	rm_rf(dir);
	return git(b, NULL, "format-patch", "-q", "--no-signature",
		   "--abbrev=12", "-o", dir, range, NULL);
}

/* The range-diff between series/old/v@old_rev/ and series/. */
static int show_range_diff(struct b4 *b, int old_rev)
{
	struct strvec old = STRVEC_INIT, new = STRVEC_INIT;
	char *dir = xstrfmt("series/old/v%d", old_rev);
	int ret = list_dir(dir, ".patch", &old) ||
		  list_dir("series", ".patch", &new) ||
		  branch_from(b, "kverify-old", &old) ||
		  branch_from(b, "kverify-new", &new) ||
		  range_diff(b, "kverify-old", "kverify-new");

	strvec_clear(&old);
	strvec_clear(&new);
	free(dir);
	return ret;
}

/* A directory of .eml files (what send -o writes) as one mbox. */
static char *mbox_from(struct b4 *b, const char *path)
{
	struct strvec emls = STRVEC_INIT;
	struct strbuf mbox = STRBUF_INIT;
	char *out;
	size_t i;

	if (!is_dir(path))
		return xstrdup(path);
	list_dir(path, ".eml", &emls);
	for (i = 0; i < emls.nr; i++) {
		strbuf_addstr(&mbox, "From kverify Mon Sep 17 00:00:00 2001\n");
		strbuf_read_file(&mbox, emls.v[i], 16 << 20);
		strbuf_addch(&mbox, '\n');
	}
	out = xstrfmt("%s/in.mbox", b->a->work);
	write_file(out, strbuf_str(&mbox), mbox.len);
	strvec_clear(&emls);
	strbuf_release(&mbox);
	return out;
}

static int do_am(struct b4 *b)
{
	char *dir = xstrfmt("%s/am", b->a->work), *out = xstrfmt("%s/am-patches", b->a->work);
	char *old_cover = read_trim("series/cover-letter"), *rev_s = read_trim("series/revision");
	struct strvec mbx = STRVEC_INIT, cover = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;
	char *id = NULL, *line, *mbox = NULL;
	int ret = 1, rev, old_rev;

	if (!b->a->mbox && !b->a->msgid) {
		fprintf(stderr, "kverify: am needs MBOX=<file> or MSGID=<message-id>\n");
		ret = 2;
		goto out;
	}
	if (import_tree(b) || load_patches(b))
		goto out;
	rm_rf(dir);
	mkdir_p(dir);
	/* b4 0.12 crashes on a folded Subject with -m FILE; stdin works. */
	mbox = b->a->mbox ? mbox_from(b, b->a->mbox) : NULL;
	if (b->a->msgid ? b4(b, NULL, "am", "-o", dir, b->a->msgid, NULL) :
			  b4(b, mbox, "--offline-mode", "am", "-m", "-", "-o", dir,
			     NULL))
		goto out;
	list_dir(dir, ".mbx", &mbx);
	list_dir(dir, ".cover", &cover);
	if (mbx.nr != 1 || strbuf_read_file(&text, mbx.v[0], 64 << 20)) {
		fprintf(stderr, "kverify: b4 am wrote no series mbox in %s\n", dir);
		goto out;
	}
	rev = revision_of(text.buf);
	if (branch_from(b, "kverify-am", &mbx) ||
	    format_patches(b, BASE_TAG "..kverify-am", out))
		goto out;
	old_rev = rev_s ? atoi(rev_s) : 1;
	if (archive_series(b, old_rev) || install_patches(b, out))
		goto out;
	if (cover.nr && write_cover(cover.v[0], old_cover))
		goto out;
	line = cover.nr ? read_trim(cover.v[0]) : NULL;
	if (line && strstr(line, "\nchange-id: ")) {
		char *p = strstr(line, "\nchange-id: ") + 12;

		id = xstrfmt("%.*s\n", (int)strcspn(p, "\n"), p);
		write_file("series/change-id", id, strlen(id));
	}
	free(line);
	free(rev_s);
	rev_s = xstrfmt("%d\n", rev);
	write_file("series/revision", rev_s, strlen(rev_s));
	printf("imported v%d into series/ (%zu patches)\n", rev,
	       b->patches.nr);
	ret = show_range_diff(b, old_rev);
out:
	strvec_clear(&mbx);
	strvec_clear(&cover);
	strbuf_release(&text);
	free(mbox);
	free(id);
	free(dir);
	free(out);
	free(old_cover);
	free(rev_s);
	return ret;
}

static int do_trailers(struct b4 *b)
{
	char *out = xstrfmt("%s/trailer-patches", b->a->work), *range;
	struct strvec names = STRVEC_INIT;
	int ret = 1;

	if (!b->a->mbox) {
		fprintf(stderr, "kverify: trailers needs MBOX=<file with the review replies>\n");
		return 2;
	}
	if (build_branch(b) ||
	    b4(b, b->a->mbox, "--offline-mode", "trailers", "-u", "-m", "-",
	       NULL))
		goto out;
	range = xstrfmt("%s~%zu..%s", BRANCH, b->patches.nr, BRANCH);
	ret = format_patches(b, range, out) || install_patches(b, out);
	free(range);
	if (!ret)
		printf("trailers collected into series/ (%zu patches)\n",
		       b->patches.nr);
out:
	strvec_clear(&names);
	free(out);
	return ret;
}

static int do_range_diff(struct b4 *b)
{
	char *rev = read_trim("series/revision");
	int from = b->a->from ? atoi(b->a->from + (b->a->from[0] == 'v')) :
		   (rev ? atoi(rev) : 1);

	free(rev);
	if (import_tree(b))
		return 1;
	return show_range_diff(b, from) ? 1 : 0;
}

int cmd_b4(const char *what, const struct target *t,
	   const struct options *opt, const struct b4_args *a)
{
	struct b4 b = { .a = a };
	struct strbuf why = STRBUF_INIT;
	char *key = NULL, *lock = NULL;
	int ret = 2, lockfd = -1;

	if (!path_has("b4")) {
		struct strbuf why = STRBUF_INIT;

		missing_tool(&why, "b4", NULL);
		fprintf(stderr, "kverify: %s\n", why.buf);
		strbuf_release(&why);
		ret = 1;
		goto out;
	}
	if (identities(&b) || fetch_only(t, opt, &b.src, &key))
		goto out;
	mkdir_p(a->work);
	b.log = xstrfmt("%s/b4.log", a->work);
	b.repo = xstrfmt("%s/b4/%s", a->cache, key);
	lock = xstrfmt("%s/locks/b4-%s.lock", a->cache, key);
	if (lock_file(lock, 1, &lockfd, &why)) {
		fprintf(stderr, "kverify: %s\n", strbuf_str(&why));
		goto out;
	}
	/*
	 * Not inherited: git detaches "gc --auto" into the background, which
	 * would hold the lock for minutes after the workflow ended.
	 */
	if (!strcmp(what, "send"))
		ret = do_send(&b);
	else if (!strcmp(what, "am"))
		ret = do_am(&b);
	else if (!strcmp(what, "trailers"))
		ret = do_trailers(&b);
	else
		ret = do_range_diff(&b);
out:
	unlock_file(lockfd);
	strbuf_release(&why);
	free(lock);
	free(key);
	free(b.repo);
	free(b.src);
	free(b.log);
	free(b.placeholder);
	free(b.sender);
	free(b.name);
	free(b.email);
	strvec_clear(&b.patches);
	return ret;
}
