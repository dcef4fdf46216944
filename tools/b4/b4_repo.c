// SPDX-License-Identifier: GPL-2.0
/*
 * b4's cache repository and the programs run in it: git with kverify's own
 * configuration, the operator's identity, the Debian or git: tree imported
 * once, the series applied as a b4 prep branch (with its cover letter),
 * branches of older revisions and their range-diff, and b4 itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "b4/b4_int.h"
#include "lib/fsutil.h"
#include "lib/json.h"
#include "lib/usage.h"

/*
 * git commit and git am start "git gc --auto" once the repository holds
 * more loose objects than gc.auto, and the import of a kernel tree makes
 * ~80,000: a daemon, out of the run's process group, timeout and lock,
 * that packs the cache's repository for minutes after the run.  Off for
 * every git here and every git b4 runs.
 */
static const char *const no_auto_gc[] = {
	"gc.auto", "0",
	"maintenance.auto", "false",
};

/*
 * @cfg (key, value, ...) and no_auto_gc as the git configuration of @c and
 * of every git it runs (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, ..._VALUE_n).
 * Clears @cfg.
 */
static void git_config_env(struct child *c, struct strvec *cfg)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(no_auto_gc); i++)
		strvec_push(cfg, no_auto_gc[i]);
	strvec_pushf(&c->env, "GIT_CONFIG_COUNT=%zu", cfg->nr / 2);
	for (i = 0; i < cfg->nr; i += 2) {
		strvec_pushf(&c->env, "GIT_CONFIG_KEY_%zu=%s", i / 2, cfg->v[i]);
		strvec_pushf(&c->env, "GIT_CONFIG_VALUE_%zu=%s", i / 2,
			     cfg->v[i + 1]);
	}
	strvec_clear(cfg);
}

/*
 * What git commits in the cache repository is the sender's, whatever
 * GIT_AUTHOR_* or GIT_COMMITTER_* say (git am keeps each patch's author).
 */
static void ident_env(struct b4 *b, struct child *c)
{
	strvec_pushf(&c->env, "GIT_AUTHOR_NAME=%s", b->id.name);
	strvec_pushf(&c->env, "GIT_AUTHOR_EMAIL=%s", b->id.email);
	strvec_pushf(&c->env, "GIT_COMMITTER_NAME=%s", b->id.name);
	strvec_pushf(&c->env, "GIT_COMMITTER_EMAIL=%s", b->id.email);
}

int b4_git(struct b4 *b, struct strbuf *out, ...)
{
	struct child c = CHILD_INIT;
	struct strvec cfg = STRVEC_INIT;
	const char *arg;
	va_list ap;

	strvec_pushl(&cfg, "user.name", b->id.name,
		     "user.email", b->id.email, NULL);
	git_config_env(&c, &cfg);
	ident_env(b, &c);
	if (b->isolated)
		strvec_pushl(&c.env, "GIT_CONFIG_NOSYSTEM=1",
			     "GIT_CONFIG_GLOBAL=/dev/null", NULL);
	strvec_pushl(&c.args, "git", "-C", b->repo, NULL);
	va_start(ap, out);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&c.args, arg);
	va_end(ap);
	c.out = out;
	return run_logged(b, &c);
}

/*
 * make send signs with the sender's identity and refuses a placeholder; am,
 * trailers and range-diff only commit in the cache repository, which
 * nobody else sees, and go on without one: the stand-in they commit with
 * there is taken off what they write into series/ (unstamp_dir()).
 */
int identities(struct b4 *b, int need)
{
	struct strbuf err = STRBUF_INIT;

	b->sender_ok = !ident_sender(&b->id, &err);
	if (!b->sender_ok && need) {
		strbuf_trim_trailing(&err);
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	if (!b->sender_ok) {
		ident_clear(&b->id);
		b->id.name = xstrdup("kverify");
		b->id.email = xstrdup("kverify@localhost");
		b->id.full = xstrdup("kverify <kverify@localhost>");
	}
	strbuf_release(&err);
	return 0;
}

/*
 * A git: tree's own commit, in the import at b->repo: its commit object
 * (read from the source repository) written as it is, over the tree just
 * committed, which is the same tree when git archive wrote every file of
 * it; the repository is then shallow at that commit, whose parents it
 * lacks.  The base is upstream's commit, so b4's base-commit, format-patch
 * --base and a make edit branch on it are true.  "HEAD" (the import
 * commit) when the trees differ (an export-ignore, say) or the object
 * does not hash to the commit's id.
 */
static const char *upstream_base(struct b4 *b)
{
	const char *obj = b->source.git_commit_object, *want = b->source.git_commit;
	char *path = xstrfmt("%s/commit.obj", b->a->work), *shallow;
	struct strbuf tree = STRBUF_INIT, id = STRBUF_INIT;
	const char *base = "HEAD";

	if (b->t->kind != SRC_GIT || !obj || !want ||
	    !starts_with(obj, "tree ") ||
	    b4_git(b, &tree, "rev-parse", "HEAD^{tree}", NULL) ||
	    strncmp(obj + 5, tree.buf, strcspn(obj + 5, "\n") + 1) ||
	    write_file(path, obj, strlen(obj)) ||
	    b4_git(b, &id, "hash-object", "-t", "commit", "-w", path, NULL))
		goto out;
	strbuf_trim_trailing(&id);
	if (strcmp(id.buf, want))
		goto out;
	shallow = xstrfmt("%s/.git/shallow", b->repo);
	strbuf_addch(&id, '\n');
	if (!write_file(shallow, id.buf, id.len))
		base = want;
	free(shallow);
out:
	if (base != want && b->t->kind == SRC_GIT)
		note("the import of %s is not its commit %s: the cache repository's base is its own import commit",
		     b->source.src, want ? want : "(none)");
	strbuf_release(&tree);
	strbuf_release(&id);
	free(path);
	return base;
}

/* Under the repository's lock (cmd_b4), which owns b4/.tmp-<key>. */
int import_tree(struct b4 *b)
{
	char *real = b->repo, *git_dir = xstrfmt("%s/.git", real);
	char *slash = strrchr(real, '/');
	char *tmp = xstrfmt("%.*s/.tmp-%s", (int)(slash - real), real,
			    slash + 1);
	struct child c = CHILD_INIT;
	int ret = 0;

	if (is_dir(git_dir))
		goto out;
	note("importing %s into git (once)", b->source.src);
	rm_rf(tmp);	/* abandoned by a killed run */
	*strrchr(tmp, '/') = '\0';
	mkdir_p(tmp);
	tmp[strlen(tmp)] = '/';
	strvec_pushl(&c.args, "cp", "-al", "--", b->source.src, tmp, NULL);
	c.log = b->log;
	ret = run_child(&c);
	child_clear(&c);
	if (ret) {
		/*
		 * Hard links refused: fs.protected_hardlinks and a source
		 * we do not own (another user's cache, a user namespace).
		 */
		struct child copy = CHILD_INIT;

		rm_rf(tmp);
		strvec_pushl(&copy.args, "cp", "-a", "--no-preserve=ownership",
			     "--reflink=auto", "--",
			     b->source.src, tmp, NULL);
		copy.log = b->log;
		ret = run_child(&copy);
		child_clear(&copy);
	}
	b->repo = tmp;
	ret = ret || b4_git(b, NULL, "init", "-q", NULL) ||
	      b4_git(b, NULL, "add", "-A", "--force", NULL) ||
	      b4_git(b, NULL, "commit", "-q", "-m", "Debian kernel source, as packaged", NULL) ||
	      b4_git(b, NULL, "tag", BASE_TAG, upstream_base(b), NULL);
	b->repo = real;
	if (!ret && rename(tmp, real) < 0)
		ret = -1;
	if (ret) {
		error("could not import the tree into %s", real);
		rm_rf(tmp);
	}
out:
	free(tmp);
	free(git_dir);
	return ret;
}

/* b4's cover template, with our base line in place of its base-commit. */
static char *cover_template(struct b4 *b)
{
	char *path = xstrfmt("%s/cover.tpl", b->a->work);
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	strbuf_addstr(&sb, "${cover}\n\n---\n${shortlog}\n\n${diffstat}\n---\n");
	for (p = b->base; *p; p++) {	/* string.Template: $ is $$ */
		if (*p == '$')
			strbuf_addch(&sb, '$');
		strbuf_addch(&sb, *p);
	}
	strbuf_addstr(&sb, "\nchange-id: ${change_id}\n\nBest regards,\n--");
	strbuf_addch(&sb, ' ');	/* the signature separator's blank */
	strbuf_addstr(&sb, "\n${signature}\n");
	if (write_file(path, sb.buf, sb.len)) {
		free(path);
		path = NULL;
	}
	strbuf_release(&sb);
	return path;
}

/*
 * The cover commit b4 prep would make: cover letter, then tracking data.
 * A cover that still says EDITME is refused unless @editme_ok (make edit
 * carries it into the branch, to be edited there).
 */
int cover_commit(struct b4 *b, int editme_ok)
{
	char *cover = read_trim("series/cover-letter");
	char *id = read_trim("series/change-id");
	char *msg_path = xstrfmt("%s/cover.msg", b->a->work);
	struct strbuf msg = STRBUF_INIT;
	int ret = -1, n;

	if (!cover || !id) {
		error("series/cover-letter and series/change-id are needed");
		goto out;
	}
	if (!editme_ok && strstr(cover, "EDITME")) {
		error("series/cover-letter still says EDITME: write the cover letter first");
		goto out;
	}
	n = series_revision("to send");
	if (!n)
		goto out;
	/* It goes into b4's JSON as it is: only what b4 itself makes. */
	if (!valid_change_id(id)) {
		error("series/change-id:1: '%s' is not a change-id (letters, digits, '.', '_' and '-' only): write the one b4 made for the series",
		      id);
		goto out;
	}
	if (strstr(cover, "\nbase-commit:")) {
		error("series/cover-letter: a base-commit: line of its own: remove it (make send writes the base, or none)");
		goto out;
	}
	strbuf_addstr(&msg, cover);
	strbuf_addf(&msg, "\n\n%s\n# This section is used internally by b4 prep for tracking purposes.\n{\n  \"series\": {\n    \"revision\": %d",
		    MAGIC, n);
	json_field(&msg, "\n    ", "change-id", id);
	json_field(&msg, "\n    ", "base-branch", BASE_TAG);
	strbuf_addstr(&msg, ",\n    \"prefixes\": []\n  }\n}\n");
	if (write_file(msg_path, msg.buf, msg.len))
		goto out;
	ret = b4_git(b, NULL, "commit", "-q", "--allow-empty", "-F", msg_path,
		  NULL);
out:
	strbuf_release(&msg);
	free(cover);
	free(id);
	free(msg_path);
	return ret;
}

int load_patches(struct b4 *b)
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

/*
 * A half-applied "git am" (a posting that does not apply, a killed run)
 * would make every later git am in the cache repository fail: abort it.
 */
void am_abort(struct b4 *b)
{
	char *ra = xstrfmt("%s/.git/rebase-apply", b->repo);

	if (is_dir(ra)) {
		struct child c = CHILD_INIT;

		strvec_pushl(&c.args, "git", "-C", b->repo, "am", "--abort",
			     NULL);
		c.log = b->log;
		run_child(&c);
		child_clear(&c);
		if (is_dir(ra))
			rm_rf(ra);
		note("aborted the half-applied git am in %s", b->repo);
	}
	free(ra);
}

static int git_am(struct b4 *b, const char *file, const char *what)
{
	if (!b4_git(b, NULL, "am", "-q", "--keep-cr", file, NULL))
		return 0;
	error("%s does not apply to the tree of %s (see the log); nothing was changed",
	      what, b->t->name);
	am_abort(b);
	return -1;
}

/*
 * Is @patch listed in series/co-developed?  0 or 1; -1 (after an error
 * naming the line) when the list is not one.
 */
int co_developed(const char *patch)
{
	struct strbuf err = STRBUF_INIT;
	int ret = ident_co_developed(CO_DEVELOPED, patch, &err);

	if (ret < 0) {
		strbuf_trim_trailing(&err);
		error("%s", err.buf);
	}
	strbuf_release(&err);
	return ret;
}

/*
 * @patch as the sender sends it, in @work/am.patch: their From: if it has
 * none and, with @signoff, their Signed-off-by (and Co-developed-by: for
 * a patch series/co-developed lists).  The path, or NULL after an error.
 */
static char *stamped_copy(struct b4 *b, const char *patch, int signoff)
{
	char *tmp = xstrfmt("%s/am.patch", b->a->work);
	struct strbuf err = STRBUF_INIT;
	unsigned int flags = 0;
	int codev = signoff ? co_developed(patch) : 0;

	if (signoff)
		flags = STAMP_SIGNOFF | (codev > 0 ? STAMP_CODEV : 0);
	if (codev < 0 || ident_stamp(patch, tmp, &b->id, flags, &err)) {
		strbuf_trim_trailing(&err);
		if (err.len)
			error("%s", err.buf);
		free(tmp);
		tmp = NULL;
	}
	strbuf_release(&err);
	return tmp;
}

/* git am each patch of series/, stamped (stamped_copy()). */
int am_series(struct b4 *b, int signoff)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < b->patches.nr && !ret; i++) {
		char *tmp = stamped_copy(b, b->patches.v[i], signoff);

		ret = !tmp || git_am(b, tmp, b->patches.v[i]);
		free(tmp);
	}
	return ret;
}

int build_branch(struct b4 *b, int signoff)
{
	if (import_tree(b) || (!b->patches.nr && load_patches(b)))
		return -1;
	am_abort(b);
	return b4_git(b, NULL, "checkout", "-q", "-f", "-B", BRANCH, BASE_TAG,
		   NULL) ||
	       b4_git(b, NULL, "config", "branch." BRANCH ".b4-prep-cover-strategy",
		   "commit", NULL) ||
	       b4_git(b, NULL, "config", "user.name", b->id.name, NULL) ||
	       b4_git(b, NULL, "config", "user.email", b->id.email, NULL) ||
	       cover_commit(b, 0) || am_series(b, signoff);
}

/*
 * After a real send b4 rerolls its prep branch: "Created new revision
 * vN" and the cover's new changelog.  That branch is kverify's working
 * copy, made again from series/ before each b4 run, so those lines are
 * not the user's state (series/revision stays the revision posted): they
 * go into the log only, and real_send() says what they mean.
 */
static void show_b4_lines(struct b4 *b, const char *text, size_t len)
{
	struct line l;
	int n;

	if (!b->real) {
		fwrite(text, 1, len, stderr);
		return;
	}
	for_each_line(l, text) {
		if (l.s >= text + len)
			break;
		if (sscanf(l.s, "Created new revision v%d", &n) == 1) {
			b->b4_rerolled = n;
			continue;
		}
		if (starts_with(l.s, "Updating cover letter with templated changelog entries."))
			continue;
		fwrite(l.s, 1, l.len, stderr);
		if (l.s[l.len] == '\n')
			fputc('\n', stderr);
	}
}

/*
 * b4's output goes to the user as b4 wrote it (show_b4_lines()), and into
 * the log; a Python traceback only into the log: the user gets its last
 * line, the exception, as one kverify error (b4_runv()).
 */
static void show_b4_output(struct b4 *b)
{
	struct strbuf sb = STRBUF_INIT;
	const char *tb;
	FILE *f;

	b->crashed = 0;
	if (strbuf_read_file(&sb, b->b4_out, 16 << 20) < 0 || !sb.len)
		goto out;
	f = fopen(b->log, "a");
	if (f) {
		fputs(sb.buf, f);
		fclose(f);
	}
	tb = strstr(sb.buf, "Traceback (most recent call last):");
	if (tb) {
		const char *end = sb.buf + sb.len, *last;

		b->crashed = 1;
		show_b4_lines(b, sb.buf, tb - sb.buf);
		while (end > tb && end[-1] == '\n')
			end--;
		for (last = end; last > tb && last[-1] != '\n'; last--)
			;
		if (memmem(last, end - last, "ConnectionError", 15))
			error("b4 could not reach the network (%.*s): MSGID= needs lore.kernel.org; offline, give MBOX=<the thread as an mbox> (the traceback is in %s)",
			      (int)(end - last > 160 ? 160 : end - last), last,
			      b->log);
		else
			error("b4 crashed: %.*s (the traceback is in %s)",
			      (int)(end - last), last, b->log);
		goto out;
	}
	show_b4_lines(b, sb.buf, sb.len);
out:
	strbuf_release(&sb);
}

int b4_runv(struct b4 *b, const char *in, const struct strvec *args)
{
	struct child c = CHILD_INIT;
	struct strvec cfg = STRVEC_INIT;
	size_t i;
	int ret;

	/* Our cover template: no base-commit of the local import. */
	if (b->base) {
		char *tpl = cover_template(b);

		if (!tpl)
			return -1;
		strvec_pushl(&cfg, "b4.prep-cover-template", tpl, NULL);
		free(tpl);
	}
	/*
	 * In a kernel tree b4 0.12 picks its web endpoint, which insists on
	 * signing even for "send -o".  Only a real send (SEND=1) goes by the
	 * sender's own configuration.
	 */
	if (b->smtp)
		strvec_pushl(&cfg, "sendemail.smtpserver", b->smtp, NULL);
	else if (!b->real)
		strvec_pushl(&cfg, "sendemail.smtpserver", "/bin/false", NULL);
	git_config_env(&c, &cfg);
	ident_env(b, &c);
	strvec_push(&c.args, "b4");
	for (i = 0; i < args->nr; i++)
		strvec_push(&c.args, args->v[i]);
	c.dir = b->repo;
	c.in = in;
	unlink(b->b4_out);
	c.log = b->b4_out;
	ret = run_child(&c);
	show_b4_output(b);
	if (ret) {
		struct strbuf why = STRBUF_INIT;

		child_describe_failure(&c, &why);
		if (!b->crashed)
			error("%s (b4's messages above; log: %s)", why.buf,
			      b->log);
		strbuf_release(&why);
	}
	child_clear(&c);
	return ret;
}

int b4_run(struct b4 *b, const char *in, ...)
{
	struct strvec args = STRVEC_INIT;
	const char *arg;
	va_list ap;
	int ret;

	va_start(ap, in);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&args, arg);
	va_end(ap);
	ret = b4_runv(b, in, &args);
	strvec_clear(&args);
	return ret;
}

/*
 * Build branch @name from @patches on the base; 0 or -1.  With @stamp,
 * a patch without From: gets the sender's (git am needs an author).
 */
int branch_from(struct b4 *b, const char *name,
		       const struct strvec *patches, int stamp)
{
	size_t i;

	if (b4_git(b, NULL, "checkout", "-q", "-f", "-B", name, BASE_TAG, NULL))
		return -1;
	for (i = 0; i < patches->nr; i++) {
		char *abs = stamp ? stamped_copy(b, patches->v[i], 0) :
			    abspath(patches->v[i]);
		int ret = !abs || git_am(b, abs, patches->v[i]);

		free(abs);
		if (ret)
			return -1;
	}
	return 0;
}

int range_diff(struct b4 *b, const char *old, const char *new)
{
	struct strbuf out = STRBUF_INIT;
	char *path = xstrfmt("%s/range-diff.txt", b->a->work);
	int ret = b4_git(b, &out, "range-diff", "--no-color", BASE_TAG, old, new,
		      NULL);

	if (!ret) {
		fputs(out.buf, stdout);
		write_file(path, out.buf, out.len);
		note("range-diff saved in %s", path);
	}
	strbuf_release(&out);
	free(path);
	return ret;
}

int format_patches(struct b4 *b, const char *range, const char *dir)
{
	rm_rf(dir);
	return b4_git(b, NULL, "format-patch", "-q", "--no-signature",
		   "--abbrev=12", "-o", dir, range, NULL);
}

/* The range-diff between series/old/v@old_rev/ and series/. */
int show_range_diff(struct b4 *b, int old_rev, int new_rev)
{
	struct strvec old = STRVEC_INIT, new = STRVEC_INIT;
	char *dir = xstrfmt("series/old/v%d", old_rev);
	int ret;

	printf("range-diff: %s/ (v%d) against series/ (v%d)\n", dir, old_rev,
	       new_rev);
	fflush(stdout);
	ret = list_dir(dir, ".patch", &old) ||
	      list_dir("series", ".patch", &new) ||
	      branch_from(b, "kverify-old", &old, 1) ||
	      branch_from(b, "kverify-new", &new, 1) ||
	      range_diff(b, "kverify-old", "kverify-new");
	strvec_clear(&old);
	strvec_clear(&new);
	free(dir);
	return ret;
}
