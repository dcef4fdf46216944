// SPDX-License-Identifier: GPL-2.0
/*
 * The upstream series through b4: send (series/ -> a b4 prep branch on the
 * target's tree -> .eml files), am (a posted revision -> series/, the
 * previous one kept in series/old/vN/), trailers (review replies -> the
 * right patches of series/) and range-diff.
 *
 * A Debian tree is imported once into a git repository in the cache (a
 * hard-linked work tree, git writes new files, never into the links).  Its
 * import commit exists nowhere else, so no mail names it: the cover says
 * which upstream release and Debian version the series was made on
 * instead of a base-commit.  A git: tree's import stands on its upstream
 * commit itself (upstream_base()), which the cover names as base-commit.
 * The sender is the operator's git identity;
 * a patch of series/ without From: (the project's own) gets theirs, every
 * patch their Signed-off-by (once, placed by git interpret-trailers), one
 * that series/co-developed lists their Co-developed-by: before it, and a
 * placeholder identity is refused.  What make am and make trailers bring
 * back into series/ has the operator's From:, Co-developed-by: and
 * Signed-off-by: taken off again, and no placeholder identity.
 *
 * Everything from mail (change-id, revision, message-id, the patches) is
 * checked before it goes into series/, into b4's tracking data or onto a
 * command line; a posting that does not apply is aborted, so the cache
 * repository is left clean; one b4 workflow runs at a time.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "b4.h"
#include "exitcode.h"
#include "fsutil.h"
#include "checkpatch.h"
#include "ident.h"
#include "run.h"
#include "series.h"
#include "source.h"
#include "targets.h"
#include "usage.h"

#define BRANCH "b4/kvm-pmu-tolerance"
#define BASE_TAG "kverify-base"
#define MAGIC "--- b4-submit-tracking ---"
#define MAX_REVISION 999
#define LORE "https://lore.kernel.org/r/"
#define CO_DEVELOPED "series/co-developed"
#define COCCI_INPUT "cocci/emulated_counter_reprogram_tolerance.cocci"

struct b4 {
	const struct b4_args *a;
	char *repo;		/* cache/b4/<source key> */
	struct source source;	/* the pristine tree and its cache key */
	char *log;
	char *b4_out;		/* b4's own output, last run */
	char *base;		/* the cover's base line (describe_base()) */
	char *base_commit;	/* an upstream commit id, or NULL */
	const struct target *t;
	struct ident id;	/* the sender; a local one for am/range-diff */
	int sender_ok;		/* id is the operator's real identity */
	struct strvec patches;
	const char *smtp;	/* sendemail.smtpserver for a real send */
	int real;		/* the b4 run that really sends */
	int crashed;		/* b4's last run ended in a Python traceback */
	int isolated;		/* git without the user's or the system's config */
	int force;		/* FORCE=1 */
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
		error("%s (log: %s)", why.buf, b->log);
		strbuf_release(&why);
	}
	child_clear(c);
	return ret;
}

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

static int git(struct b4 *b, struct strbuf *out, ...)
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
static int identities(struct b4 *b, int need)
{
	struct strbuf err = STRBUF_INIT;

	b->sender_ok = !ident_sender(&b->id, &err);
	if (!b->sender_ok && need) {
		fprintf(stderr, "kverify: %s", err.buf);
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

/* 1 when @s is a change-id b4 could have made: letters, digits, ._- */
static int valid_change_id(const char *s)
{
	return plain_name(s) && strlen(s) <= 128;
}

/*
 * A message-id as given on the command line: what b4 takes as a value,
 * never an option; "<...>" or a lore link allowed.
 */
static int valid_msgid(const char *s)
{
	const char *p;

	if (!*s || *s == '-')
		return 0;
	for (p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return 0;
	return !!strchr(s, '@');
}

/* "vN" or "N" with 1 <= N <= MAX_REVISION: N, else 0. */
static int parse_revision(const char *s)
{
	char *end;
	long n;

	if (*s == 'v')
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || *end || n < 1 || n > MAX_REVISION)
		return 0;
	return n;
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
	    git(b, &tree, "rev-parse", "HEAD^{tree}", NULL) ||
	    strncmp(obj + 5, tree.buf, strcspn(obj + 5, "\n") + 1) ||
	    write_file(path, obj, strlen(obj)) ||
	    git(b, &id, "hash-object", "-t", "commit", "-w", path, NULL))
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
	note("importing %s into git (once)", b->source.src);
	rm_rf(tmp);	/* abandoned by a killed run */
	*strrchr(tmp, '/') = '\0';
	mkdir_p(tmp);
	tmp[strlen(tmp)] = '/';
	strvec_pushl(&c.args, "cp", "-al", "--", b->source.src, tmp, NULL);
	c.log = b->log;
	ret = run_child(&c);
	child_clear(&c);
	b->repo = tmp;
	ret = ret || git(b, NULL, "init", "-q", NULL) ||
	      git(b, NULL, "add", "-A", "--force", NULL) ||
	      git(b, NULL, "commit", "-q", "-m", "Debian kernel source, as packaged", NULL) ||
	      git(b, NULL, "tag", BASE_TAG, upstream_base(b), NULL);
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

static char *read_trim(const char *path)
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
static int series_revision(const char *what)
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
static int cover_commit(struct b4 *b, int editme_ok)
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
	strbuf_addf(&msg, "\n\n%s\n# This section is used internally by b4 prep for tracking purposes.\n{\n  \"series\": {\n    \"revision\": %d,\n    \"change-id\": \"%s\",\n    \"base-branch\": \"%s\",\n    \"prefixes\": []\n  }\n}\n",
		    MAGIC, n, id, BASE_TAG);
	if (write_file(msg_path, msg.buf, msg.len))
		goto out;
	ret = git(b, NULL, "commit", "-q", "--allow-empty", "-F", msg_path,
		  NULL);
out:
	strbuf_release(&msg);
	free(cover);
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

/*
 * A half-applied "git am" (a posting that does not apply, a killed run)
 * would make every later git am in the cache repository fail: abort it.
 */
static void am_abort(struct b4 *b)
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
	if (!git(b, NULL, "am", "-q", "--keep-cr", file, NULL))
		return 0;
	error("%s does not apply to the tree of %s (see the log); nothing was changed",
	      what, b->t->name);
	am_abort(b);
	return -1;
}

/* A line "Signed-off-by: @ident" in @text, before @end unless NULL? */
static int has_signoff(const char *text, const char *end, const char *ident)
{
	const char *p, *v;

	for (p = text; (p = strchr(p, '\n')) && (!end || p < end); p++)
		if (skip_prefix(p, "\nSigned-off-by: ", &v) &&
		    starts_with(v, ident) && v[strlen(ident)] == '\n')
			return 1;
	return 0;
}

/*
 * Is @patch listed in series/co-developed?  0 or 1; -1 (after an error
 * naming the line) when the list is not one.
 */
static int co_developed(const char *patch)
{
	struct strbuf err = STRBUF_INIT;
	int ret = ident_co_developed(CO_DEVELOPED, patch, &err);

	if (ret < 0)
		fprintf(stderr, "kverify: %s", err.buf);
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
		if (err.len)
			fprintf(stderr, "kverify: %s", err.buf);
		free(tmp);
		tmp = NULL;
	}
	strbuf_release(&err);
	return tmp;
}

/* git am each patch of series/, stamped (stamped_copy()). */
static int am_series(struct b4 *b, int signoff)
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

static int build_branch(struct b4 *b, int signoff)
{
	if (import_tree(b) || (!b->patches.nr && load_patches(b)))
		return -1;
	am_abort(b);
	return git(b, NULL, "checkout", "-q", "-f", "-B", BRANCH, BASE_TAG,
		   NULL) ||
	       git(b, NULL, "config", "branch." BRANCH ".b4-prep-cover-strategy",
		   "commit", NULL) ||
	       git(b, NULL, "config", "user.name", b->id.name, NULL) ||
	       git(b, NULL, "config", "user.email", b->id.email, NULL) ||
	       cover_commit(b, 0) || am_series(b, signoff);
}

/*
 * b4's output goes to the user as b4 wrote it, and into the log; a Python
 * traceback only into the log: the user gets its last line, the
 * exception, as one kverify error (b4v()).
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
		fwrite(sb.buf, 1, tb - sb.buf, stderr);
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
	fputs(sb.buf, stderr);
out:
	strbuf_release(&sb);
}

static int b4v(struct b4 *b, const char *in, const struct strvec *args)
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

static int b4(struct b4 *b, const char *in, ...)
{
	struct strvec args = STRVEC_INIT;
	const char *arg;
	va_list ap;
	int ret;

	va_start(ap, in);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&args, arg);
	va_end(ap);
	ret = b4v(b, in, &args);
	strvec_clear(&args);
	return ret;
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

	if (git(b, &out, "rev-parse", BASE_TAG "^{commit}", NULL)) {
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
 * "Co-developed-by: @ident", then "Signed-off-by: @ident", right before
 * the "---" of mail @text: the submitting co-developer's pair, last.
 */
static int codev_pair_last(const char *text, const char *ident)
{
	char *want = xstrfmt("\nCo-developed-by: %s\nSigned-off-by: %s\n---\n",
			     ident, ident);
	const char *end = strstr(text, "\n---\n");
	const char *hit = strstr(text, want);
	int ok = hit && end && hit + strlen(want) - 5 == end;

	free(want);
	return ok;
}

/*
 * A changelog section of revision @rev in the cover @text: a line of its
 * own "Changes in vN:" or "Changes since vN-1:", as b4 and the lists write
 * it, followed by at least one line of text (not the words anywhere).
 */
static int has_changelog(const char *text, int rev)
{
	char *in = xstrfmt("Changes in v%d:", rev);
	char *since = xstrfmt("Changes since v%d:", rev - 1);
	struct line l;
	int found = 0, want_text = 0;

	for_each_line(l, text) {
		size_t n = l.len;

		while (n && (l.s[n - 1] == ' ' || l.s[n - 1] == '\r'))
			n--;
		if (want_text) {
			found = n > 0;
			break;
		}
		if ((n == strlen(in) && !strncmp(l.s, in, n)) ||
		    (n == strlen(since) && !strncmp(l.s, since, n)))
			want_text = 1;
	}
	free(in);
	free(since);
	return found;
}

static int check_emls(struct b4 *b, const struct strvec *emls, int rev)
{
	int i, n = emls->nr - 1, bad = 0;
	char *allow = read_trim("checkpatch.allow"), *local = local_base(b);
	struct strbuf err = STRBUF_INIT;

	for (i = 0; i <= n; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *want = xstrfmt("[PATCH v%d %d/%d]", rev, i, n);

		strbuf_read_file(&sb, emls->v[i], 16 << 20);
		if (!strstr(sb.buf, want)) {
			fprintf(stderr, "check: %s lacks %s\n", emls->v[i], want);
			bad++;
		}
		if (!i && (!strstr(sb.buf, "\nchange-id: ") ||
			   !strstr(sb.buf, b->base))) {
			fprintf(stderr, "check: the cover lacks change-id: or its base (%s)\n",
				b->base);
			bad++;
		}
		if (!i && rev > 1 && !has_changelog(sb.buf, rev)) {
			fprintf(stderr, "check: the cover has no changelog section: a line 'Changes in v%d:' (or 'Changes since v%d:') heading what changed; make reroll writes one\n",
				rev, rev - 1);
			bad++;
		}
		if (!b->base_commit && strstr(sb.buf, "\nbase-commit:")) {
			fprintf(stderr, "check: %s has a base-commit: that exists nowhere upstream\n",
				emls->v[i]);
			bad++;
		}
		if (local && strstr(sb.buf, local)) {
			fprintf(stderr, "check: %s names the local import commit %s\n",
				emls->v[i], local);
			bad++;
		}
		if (i && !has_signoff(sb.buf, NULL, b->id.full)) {
			fprintf(stderr, "check: %s lacks the sender's Signed-off-by: %s\n",
				emls->v[i], b->id.full);
			bad++;
		}
		if (i && (size_t)i <= b->patches.nr &&
		    co_developed(b->patches.v[i - 1]) > 0 &&
		    !codev_pair_last(sb.buf, b->id.full)) {
			fprintf(stderr, "check: %s lacks the sender's Co-developed-by: and Signed-off-by: as the last two trailers (series/co-developed lists %s)\n",
				emls->v[i], patch_name(b->patches.v[i - 1]));
			bad++;
		}
		bad += ident_check_patch(emls->v[i], &err);
		if (i) {
			char *cp = checkpatch_copy(b, emls->v[i]);

			if (!cp || checkpatch_file(b->source.src, cp, allow, b->log,
						   NULL)) {
				fprintf(stderr, "check: checkpatch --strict complains about %s\n",
					emls->v[i]);
				bad++;
			}
			free(cp);
		}
		strbuf_release(&sb);
		free(want);
	}
	if (err.len)
		fprintf(stderr, "check: placeholder identities:\n%s", err.buf);
	strbuf_release(&err);
	free(local);
	free(allow);
	return bad;
}

static char *header(const char *msg, const char *name);

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
 * @text without \r, and without the headers a send sets anew (Date,
 * Message-Id, In-Reply-To, References) and patatt adds.
 */
static void sendable(const char *text, struct strbuf *out)
{
	static const char *const volatile_hdr[] = {
		"Date:", "Message-Id:", "In-Reply-To:", "References:",
		"X-Developer-Signature:", "X-Developer-Key:",
		"X-B4-Tracking:",	/* gzip, with the time in it */
	};
	const char *p = text;
	int in_header = 1, skip = 0;

	while (*p) {
		size_t len = strcspn(p, "\n");
		size_t n = len;
		size_t i;

		if (n && p[n - 1] == '\r')
			n--;
		if (in_header && !n) {
			in_header = 0;
		} else if (in_header && (*p == ' ' || *p == '\t')) {
			/* a folded line goes with its header */
		} else if (in_header) {
			skip = 0;
			for (i = 0; i < ARRAY_SIZE(volatile_hdr); i++)
				if (!strncasecmp(p, volatile_hdr[i],
						 strlen(volatile_hdr[i])))
					skip = 1;
		}
		if (!in_header || !skip) {
			strbuf_add(out, p, n);
			strbuf_addch(out, '\n');
		}
		p += len + !!p[len];
	}
}

/*
 * The mails recorded in @dir are the checked ones of @emls, but for what
 * a send sets anew: 0, else the number that differ (named on stderr).
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
		struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;

		strbuf_read_file(&a, emls->v[i], 16 << 20);
		strbuf_read_file(&b, sent->v[i], 16 << 20);
		sendable(a.buf, &x);
		sendable(b.buf, &y);
		/* a real send adds To:/Cc: b4 -o also writes: compare all */
		if (strcmp(x.buf, y.buf)) {
			error("%s went out other than %s, which was checked",
			      sent->v[i], emls->v[i]);
			bad++;
		}
		strbuf_release(&a);
		strbuf_release(&b);
		strbuf_release(&x);
		strbuf_release(&y);
	}
	return bad;
}

/* The cover's Message-Id (without <>) in mail @path, or NULL. */
static char *msgid_of(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *m, *id = NULL;

	if (strbuf_read_file(&sb, path, 16 << 20) < 0)
		return NULL;
	m = header(sb.buf, "Message-Id");
	if (m) {
		const char *s = m + strspn(m, " <");

		id = xstrfmt("%.*s", (int)strcspn(s, ">\r\n "), s);
		free(m);
	}
	strbuf_release(&sb);
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

	p = git(b, &out, "log", "--format=%B", BASE_TAG ".." BRANCH, NULL) ?
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

/* "N" in @out/message-id: this revision was posted (a real send). */
static char *posted(const char *out)
{
	char *path = xstrfmt("%s/message-id", out), *id = read_trim(path);

	free(path);
	return id;
}

/*
 * A posted revision's record stays: RESEND=1 moves it (with @move) to
 * @out.K (the first free K) before the revision is sent again; without
 * it, 2.
 */
static int keep_posted(struct b4 *b, const char *out, int rev, int move)
{
	char *id = posted(out), *to = NULL;
	int k, ret = 0;

	if (!id)
		return 0;
	if (!b->a->resend) {
		error("v%d was posted as <%s> (%s/message-id); nothing was changed: 'make reroll' starts v%d, RESEND=1 sends v%d again",
		      rev, id, out, rev + 1, rev);
		free(id);
		return 2;
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

/*
 * The steps make verify-all must have run, not skipped, for make send:
 * the series applies, its logic passes the sim, checkpatch is clean and
 * every variant is what the semantic patch writes (the cocci step).  The
 * others (config, build, kabi, selftests, boot) may be skipped: they
 * take a kernel build each.
 */
static const char *const gate_steps[] = {
	"fetch", "tree", "apply", "sim", "checkpatch", "cocci",
};

/* Newer than @t: the file @path, 1 when it is (or is missing: -1). */
static int newer_than(const char *path, const struct timespec *t)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	return st.st_mtim.tv_sec > t->tv_sec ||
	       (st.st_mtim.tv_sec == t->tv_sec &&
		st.st_mtim.tv_nsec > t->tv_nsec);
}

/*
 * One target's report.json against the gate: 0, or 1 after a "send:"
 * line saying what is wrong.  @stale_inputs: the files that, changed
 * after the report, make it stale.
 */
static int gate_target(struct b4 *b, const struct target *t)
{
	char *path = xstrfmt("%s/%s/report.json", b->a->results, t->name);
	char *where = xstrfmt("kernels.list:%d", t->line);
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct strvec inputs = STRVEC_INIT;
	struct series s = { 0 };
	struct stat st;
	const char *p;
	size_t i;
	int bad = 0;

	if (stat(path, &st) < 0 || strbuf_read_file(&sb, path, 16 << 20) < 0) {
		fprintf(stderr, "send: %s: no result of make verify (%s)\n",
			t->name, path);
		bad = 1;
		goto out;
	}
	strvec_pushl(&inputs, "kernels.list", COCCI_INPUT, NULL);
	if (t->series && !series_load(&s, ".", t->series, where, &err)) {
		char *sf = xstrfmt("%s/series", t->series);

		strvec_push(&inputs, sf);
		free(sf);
		for (i = 0; i < s.patches.nr; i++)
			strvec_push(&inputs, s.patches.v[i]);
	}
	for (i = 0; i < inputs.nr && !bad; i++)
		if (newer_than(inputs.v[i], &st.st_mtim) > 0) {
			fprintf(stderr, "send: %s: %s changed after its last make verify (%s)\n",
				t->name, inputs.v[i], path);
			bad = 1;
		}
	/* report.c writes one step a line: {"name": "X", "status": "Y", */
	for (p = sb.buf; !bad && (p = strstr(p, "{\"name\": \"")); p++) {
		const char *name = p + 10, *st_at = strstr(p, "\"status\": \"");
		size_t nl = strcspn(name, "\"");
		const char *status;
		size_t sl, j;

		if (!st_at || memchr(p, '\n', st_at - p))
			continue;
		status = st_at + 11;
		sl = strcspn(status, "\"");
		for (j = 0; j < ARRAY_SIZE(gate_steps); j++)
			if (strlen(gate_steps[j]) == nl &&
			    !strncmp(gate_steps[j], name, nl))
				break;
		if ((sl == 4 && !strncmp(status, "FAIL", 4)) ||
		    (sl == 5 && !strncmp(status, "ERROR", 5)) ||
		    (j < ARRAY_SIZE(gate_steps) &&
		     !(sl == 4 && !strncmp(status, "PASS", 4)) &&
		     !(sl == 3 && !strncmp(status, "N-A", 3)))) {
			const char *r = strstr(st_at, "\"reason\": \"");

			fprintf(stderr, "send: %s: %.*s %.*s%s%.*s\n", t->name,
				(int)nl, name, (int)sl, status,
				r ? ": " : "", r ? (int)strcspn(r + 11, "\"") : 0,
				r ? r + 11 : "");
			bad = 1;
		}
	}
out:
	series_clear(&s);
	strvec_clear(&inputs);
	strbuf_release(&sb);
	strbuf_release(&err);
	free(path);
	free(where);
	return bad;
}

/*
 * make send is for a series that make verify-all passed as it is now:
 * every target of kernels.list has a report newer than its series, the
 * semantic patch and kernels.list, without a FAIL or ERROR, and with the
 * gate's steps run (PASS or N-A).  0, or 2 after what to do.
 */
static int gate(struct b4 *b)
{
	size_t i;
	int bad = 0;

	if (!b->a->list)
		return 0;
	for (i = 0; i < b->a->list->nr; i++)
		bad += gate_target(b, &b->a->list->v[i]);
	if (!bad)
		return 0;
	error("%d target%s of kernels.list %s no passing make verify-all of this series (above)%s: run 'make verify-all' (SKIP=config,build,kabi,selftests,boot is enough for this check; not fetch, tree, apply, sim, checkpatch or cocci), fix what fails ('make regenerate' rewrites a variant the semantic patch covers), then make send",
	      bad, bad == 1 ? "" : "s", bad == 1 ? "has" : "have",
	      b->a->send ? "; nothing was sent" : "");
	return 2;
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
	int sign = patatt_configured(), ret = 2;
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
	b->smtp = rec;
	ret = b4v(b, enter, &args);
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
		id = sent.nr ? msgid_of(sent.v[0]) : NULL;
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

static int do_send(struct b4 *b)
{
	int rev = series_revision("to send");
	char *rel = xstrfmt("%s/send/v%d", b->a->results, rev), *out = abspath(rel);
	struct strvec emls = STRVEC_INIT, to = STRVEC_INIT, cc = STRVEC_INIT;
	struct child c = CHILD_INIT;
	size_t i;
	int ret = 2;

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
	ret = 2;
	describe_base(b);
	if (recipients(b, &to, &cc))
		goto out;
	if (placeholder_recipients(&to, "TO") + placeholder_recipients(&cc, "CC"))
		goto out;
	if (gate(b)) {
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
	ret = b4v(b, NULL, &c.args);
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

/*
 * Build branch @name from @patches on the base; 0 or -1.  With @stamp,
 * a patch without From: gets the sender's (git am needs an author).
 */
static int branch_from(struct b4 *b, const char *name,
		       const struct strvec *patches, int stamp)
{
	size_t i;

	if (git(b, NULL, "checkout", "-q", "-f", "-B", name, BASE_TAG, NULL))
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

static int range_diff(struct b4 *b, const char *old, const char *new)
{
	struct strbuf out = STRBUF_INIT;
	char *path = xstrfmt("%s/range-diff.txt", b->a->work);
	int ret = git(b, &out, "range-diff", "--no-color", BASE_TAG, old, new,
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

/* "[PATCH vN ..." in @text: N, 1 without one, 0 when out of range. */
static int revision_of(const char *text)
{
	const char *p = strstr(text, "[PATCH v");
	char *n;
	int rev;

	if (!p)
		return 1;
	p += 8;
	n = xstrfmt("%.*s", (int)strspn(p, "0123456789"), p);
	rev = parse_revision(n);
	free(n);
	return rev;
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
			return strbuf_detach(&sb, NULL);
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

/* series/cover-letter from b4's .cover: subject and text, no base. */
static int write_cover(const char *cover_mail)
{
	struct strbuf sb = STRBUF_INIT, mail = STRBUF_INIT;
	char *subject, *body_end;
	const char *body;
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
		"series", "cover-letter", "revision", "change-id", "message-id",
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
			ret = write_file(to, sb.buf, sb.len);
		else
			unlink(to);
		strbuf_release(&sb);
		free(from);
		free(to);
	}
	if (!ret)
		printf("previous revision kept in %s/\n", dir);
	free(dir);
	return ret;
}

/* Patches of @dir (format-patch output) into series/; how many. */
/* Join a folded From: header, as git folds a long identity. */
static void unfold_from(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = sb->buf, *from = strstr(p, "\nFrom: ");
	const char *nl = from ? strchr(from + 1, '\n') : NULL;

	if (!nl || nl[1] != ' ')
		return;
	strbuf_add(&out, p, nl - p);
	strbuf_addstr(&out, nl + 1);
	strbuf_release(sb);
	*sb = out;
}

static int install_patches(const char *dir)
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
static int unstamp_dir(struct b4 *b, const char *dir)
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
	if (bad)
		fprintf(stderr, "%skverify: the posting names %d identit%s nobody owns (above): nothing was imported; series/ keeps no such identity\n",
			err.buf, bad, bad == 1 ? "y" : "ies");
	strvec_clear(&files);
	strbuf_release(&err);
	return ret || bad ? -1 : 0;
}

/* The trailers ("Xxx-by: ...", "Link: ...") of a patch, "N<TAB>line". */
static void trailers_of(const char *path, int n, struct strvec *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *end;

	if (strbuf_read_file(&sb, path, 16 << 20) < 0)
		return;
	p = strstr(sb.buf, "\n\n");
	end = p ? strstr(p, "\n---\n") : NULL;
	for (; p && p < end; p = strchr(p + 1, '\n')) {
		const char *l = p + 1, *colon = strchr(l, ':');
		size_t len = strcspn(l, "\n");

		if (colon && colon < l + len && colon[1] == ' ' &&
		    colon - l > 3 && starts_with(colon - 3, "-by") &&
		    !memchr(l, ' ', colon - l))
			strvec_pushf(out, "%d\t%.*s", n, (int)len, l);
	}
	strbuf_release(&sb);
}


/* Each trailer series/ gained, on which patch; how many. */
static int print_new_trailers(const struct strvec *before)
{
	struct strvec now = STRVEC_INIT;
	char *series = read_trim("series/series"), *line, *save = NULL;
	int n = 0, added = 0;
	size_t i;

	for (line = series ? strtok_r(series, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *path = xstrfmt("series/%s", line);

		trailers_of(path, ++n, &now);
		free(path);
	}
	for (i = 0; i < now.nr; i++) {
		if (strvec_has(before, now.v[i]))
			continue;
		printf("  patch %.*s: + %s\n", (int)strcspn(now.v[i], "\t"),
		       now.v[i], strchr(now.v[i], '\t') + 1);
		added++;
	}
	printf("%d trailer%s added\n", added, added == 1 ? "" : "s");
	strvec_clear(&now);
	free(series);
	return added;
}

static void trailers_of_series(const struct strvec *patches, struct strvec *out)
{
	size_t i;

	for (i = 0; i < patches->nr; i++)
		trailers_of(patches->v[i], i + 1, out);
}

static int format_patches(struct b4 *b, const char *range, const char *dir)
{
	rm_rf(dir);
	return git(b, NULL, "format-patch", "-q", "--no-signature",
		   "--abbrev=12", "-o", dir, range, NULL);
}

/* The range-diff between series/old/v@old_rev/ and series/. */
static int show_range_diff(struct b4 *b, int old_rev, int new_rev)
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
	write_file(out, mbox.buf, mbox.len);
	strvec_clear(&emls);
	strbuf_release(&mbox);
	return out;
}

/* What a cover (or first patch) of the posting says, checked. */
struct posting {
	int rev;
	char *change_id;	/* NULL: none */
	char *msgid;		/* without <>, NULL: none */
};

/*
 * series/change-id, message-id and revision after an import: a file that
 * cannot be written stops it, or series/ would hold vN's patches under
 * the old revision's number.
 */
static int write_series_meta(const struct posting *po)
{
	const char *name[3] = {
		"series/change-id", "series/message-id", "series/revision",
	};
	char *v[3] = { NULL };
	int i, ret = 0;

	v[0] = po->change_id ? xstrfmt("%s\n", po->change_id) : NULL;
	v[1] = po->msgid ? xstrfmt("%s\n", po->msgid) : NULL;
	v[2] = xstrfmt("%d\n", po->rev);
	if (!po->msgid)
		unlink(name[1]);
	for (i = 0; i < 3 && !ret; i++) {
		if (v[i] && write_file(name[i], v[i], strlen(v[i]))) {
			error("%s: cannot write it (%s): the patches of v%d are in series/, but series/ does not say so yet; make it writable and run make am again",
			      name[i], strerror(errno), po->rev);
			ret = -1;
		}
	}
	for (i = 0; i < 3; i++)
		free(v[i]);
	return ret;
}

static int read_posting(const char *cover, const char *mbx,
			struct posting *po)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	char *m;
	int ret = -1;

	if (strbuf_read_file(&sb, mbx, 64 << 20) < 0)
		goto out;
	po->rev = revision_of(sb.buf);
	if (!po->rev) {
		p = strstr(sb.buf, "[PATCH v");
		error("the posting says '[PATCH v%.*s': not a revision (1 to %d); nothing was imported",
		      (int)strspn(p + 8, "0123456789"), p + 8, MAX_REVISION);
		goto out;
	}
	if (cover) {
		strbuf_release(&sb);
		if (strbuf_read_file(&sb, cover, 16 << 20) < 0)
			goto out;
	}
	p = strstr(sb.buf, "\nchange-id: ");
	if (cover && p) {
		p += 12;
		po->change_id = xstrfmt("%.*s", (int)strcspn(p, "\n"), p);
		if (!valid_change_id(po->change_id)) {
			error("the posting's cover has change-id: '%s': not a change-id (letters, digits, '.', '_' and '-'); nothing was imported",
			      po->change_id);
			goto out;
		}
	}
	m = header(sb.buf, "Message-Id");
	if (m) {
		const char *s = m + (*m == '<');
		size_t n = strcspn(s, ">");

		po->msgid = xstrfmt("%.*s", (int)n, s);
		free(m);
		if (!valid_msgid(po->msgid) || strpbrk(po->msgid, "\"\\<>()[],;")) {
			error("the posting's Message-Id <%s> is not one: nothing was imported",
			      po->msgid);
			goto out;
		}
	}
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

static int do_am(struct b4 *b)
{
	char *dir = xstrfmt("%s/am", b->a->work), *out = xstrfmt("%s/am-patches", b->a->work);
	struct strvec mbx = STRVEC_INIT, cover = STRVEC_INIT, before = STRVEC_INIT;
	struct posting po = { 0 };
	char *mbox = NULL;
	int ret = 1, old_rev, n;

	if (!b->a->mbox && !b->a->msgid) {
		error("am needs MBOX=<file> or MSGID=<message-id>");
		ret = 2;
		goto out;
	}
	if (b->a->msgid && !valid_msgid(b->a->msgid)) {
		error("MSGID='%s' is not a message-id (like <id@host> or a lore link, never an option): nothing was run",
		      b->a->msgid);
		ret = 2;
		goto out;
	}
	old_rev = series_revision("series/ holds");
	if (!old_rev) {
		ret = 2;
		goto out;
	}
	if (import_tree(b) || load_patches(b))
		goto out;
	am_abort(b);
	rm_rf(dir);
	mkdir_p(dir);
	/*
	 * -t: trailers given on the cover letter go onto every patch.  b4
	 * 0.12 crashes on a folded Subject with -m FILE; stdin works.
	 */
	mbox = b->a->mbox ? mbox_from(b, b->a->mbox) : NULL;
	if (b->a->msgid ? b4(b, NULL, "am", "-t", "-o", dir, "--", b->a->msgid,
			     NULL) :
			  b4(b, mbox, "--offline-mode", "am", "-t", "-m", "-",
			     "-o", dir, NULL))
		goto out;
	list_dir(dir, ".mbx", &mbx);
	list_dir(dir, ".cover", &cover);
	if (mbx.nr != 1) {
		error("b4 am wrote no series mbox in %s", dir);
		goto out;
	}
	if (read_posting(cover.nr ? cover.v[0] : NULL, mbx.v[0], &po)) {
		ret = 2;
		goto out;
	}
	if (branch_from(b, "kverify-am", &mbx, 0) ||
	    format_patches(b, BASE_TAG "..kverify-am", out))
		goto out;
	if (unstamp_dir(b, out)) {
		ret = 2;
		goto out;
	}
	trailers_of_series(&b->patches, &before);
	if (archive_series(b, old_rev))
		goto out;
	n = install_patches(out);
	if (n < 0 || (cover.nr && write_cover(cover.v[0])))
		goto out;
	if (write_series_meta(&po)) {
		ret = EXIT_TOOL;
		goto out;
	}
	printf("imported v%d into series/ (%d patch%s)%s%s\n", po.rev, n,
	       n == 1 ? "" : "es", po.msgid ? ", posted as " LORE : "",
	       po.msgid ? po.msgid : "");
	print_new_trailers(&before);
	ret = show_range_diff(b, old_rev, po.rev);
out:
	strvec_clear(&mbx);
	strvec_clear(&cover);
	strvec_clear(&before);
	free(po.change_id);
	free(po.msgid);
	free(mbox);
	free(dir);
	free(out);
	return ret;
}

/* 1 when the mailbox @path holds a patch, not only replies. */
static int mbox_has_patch(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int found = 0;

	if (strbuf_read_file(&sb, path, 256 << 20) < 0)
		return 0;
	for (p = sb.buf; p && !found; p = strstr(p + 1, "\nSubject: ")) {
		const char *v;

		if (!skip_prefix(p + (p != sb.buf), "Subject: ", &v))
			continue;
		v += strspn(v, " ");
		found = starts_with(v, "[PATCH");
	}
	strbuf_release(&sb);
	return found;
}

static int do_trailers(struct b4 *b)
{
	char *out = xstrfmt("%s/trailer-patches", b->a->work), *range;
	struct strvec before = STRVEC_INIT;
	int ret = 1;

	if (!b->a->mbox) {
		error("trailers needs MBOX=<file with the review replies>");
		return 2;
	}
	if (!mbox_has_patch(b->a->mbox)) {
		error("MBOX=%s holds no patch, only replies: b4 finds a reply's patch in the same mailbox, so give the whole thread (the posted messages, e.g. results/send/vN/*.eml or 'b4 mbox <message-id>', and the replies)",
		      b->a->mbox);
		ret = 2;
		goto out;
	}
	if (build_branch(b, 0) ||
	    b4(b, b->a->mbox, "--offline-mode", "trailers", "-u", "-m", "-",
	       NULL))
		goto out;
	trailers_of_series(&b->patches, &before);
	range = xstrfmt("%s~%zu..%s", BRANCH, b->patches.nr, BRANCH);
	ret = format_patches(b, range, out) || unstamp_dir(b, out) ||
	      install_patches(out) < 0;
	free(range);
	if (!ret) {
		printf("trailers collected into series/ (%zu patches)\n",
		       b->patches.nr);
		print_new_trailers(&before);
	}
out:
	strvec_clear(&before);
	free(out);
	return ret;
}

/* The revisions series/old/ keeps, highest first. */
static int old_revisions(int *revs, int max)
{
	struct dirent **names;
	int i, j, nr = 0, n = scandir("series/old", &names, NULL, alphasort);

	for (i = 0; i < n; i++) {
		int r = parse_revision(names[i]->d_name);

		if (r && names[i]->d_name[0] == 'v' && nr < max) {
			for (j = nr++; j > 0 && revs[j - 1] < r; j--)
				revs[j] = revs[j - 1];
			revs[j] = r;
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return nr;
}

static int do_range_diff(struct b4 *b)
{
	int rev = series_revision("series/ holds"), revs[64], nr, i, from = 0;
	struct strbuf kept = STRBUF_INIT;

	if (!rev)
		return 2;
	nr = old_revisions(revs, ARRAY_SIZE(revs));
	for (i = 0; i < nr; i++)
		strbuf_addf(&kept, " v%d", revs[i]);
	if (b->a->from) {
		from = parse_revision(b->a->from);
		if (!from) {
			error("FROM='%s' is not a revision (vN, 1 to %d)",
			      b->a->from, MAX_REVISION);
			strbuf_release(&kept);
			return 2;
		}
		for (i = 0; i < nr && revs[i] != from; i++)
			;
		if (i == nr)
			from = 0;
	} else {
		/* The previous revision; the same one after a re-import. */
		for (i = 0; i < nr && !from; i++)
			if (revs[i] < rev)
				from = revs[i];
		for (i = 0; i < nr && !from; i++)
			if (revs[i] == rev)
				from = revs[i];
	}
	if (!from) {
		if (nr)
			error("series/old/%s%s does not exist; series/old/ keeps%s: give FROM=vN",
			      b->a->from ? "v" : "",
			      b->a->from ? b->a->from + (b->a->from[0] == 'v') :
			      "(a revision before this one)", kept.buf);
		else
			error("nothing to compare series/ (v%d) with: series/old/ keeps no revision (make am keeps the previous one there when it imports a posting)",
			      rev);
		strbuf_release(&kept);
		return 1;
	}
	strbuf_release(&kept);
	if (import_tree(b))
		return 1;
	am_abort(b);
	return show_range_diff(b, from, rev) ? 1 : 0;
}

/*
 * The mails of @sent (cover first) without the cover and with LF line
 * ends (as a mail server delivers them), into @dir; 0 or -1.
 */
static int sent_patches(const char *sent, const char *dir,
			struct strvec *out)
{
	struct strvec emls = STRVEC_INIT;
	size_t i;
	int ret = list_dir(sent, ".eml", &emls);

	rm_rf(dir);
	mkdir_p(dir);
	for (i = 1; i < emls.nr && !ret; i++) {
		struct strbuf sb = STRBUF_INIT, lf = STRBUF_INIT;
		char *to = xstrfmt("%s/%04zu.eml", dir, i);
		size_t j;

		ret = strbuf_read_file(&sb, emls.v[i], 16 << 20) < 0;
		for (j = 0; j < sb.len; j++)
			if (sb.buf[j] != '\r')
				strbuf_addch(&lf, sb.buf[j]);
		ret = ret || write_file(to, lf.buf, lf.len);
		strvec_push(out, to);
		strbuf_release(&sb);
		strbuf_release(&lf);
		free(to);
	}
	if (!ret && emls.nr < 2)
		ret = -1;
	strvec_clear(&emls);
	return ret;
}

/*
 * series/old/v@rev/ as v@rev went out: the patches from the mails of
 * @sent, the sender's From:/Signed-off-by: taken off as make am does
 * (series/ keeps none), the cover letter, revision and change-id of
 * series/, and the posting's @msgid.
 */
static int keep_as_posted(struct b4 *b, const char *sent, int rev,
			  const char *msgid)
{
	char *lf = xstrfmt("%s/sent-lf", b->a->work);
	char *fmt = xstrfmt("%s/sent-patches", b->a->work);
	char *dir = xstrfmt("series/old/v%d", rev);
	struct strvec mails = STRVEC_INIT, files = STRVEC_INIT;
	struct strbuf series = STRBUF_INIT;
	static const char *const keep[] = {
		"cover-letter", "revision", "change-id",
	};
	size_t i;
	int ret;

	ret = sent_patches(sent, lf, &mails) ||
	      branch_from(b, "kverify-sent", &mails, 0) ||
	      format_patches(b, BASE_TAG "..kverify-sent", fmt) ||
	      unstamp_dir(b, fmt) || list_dir(fmt, ".patch", &files);
	if (ret) {
		error("cannot read back what %s holds as patches (log: %s)",
		      sent, b->log);
		goto out;
	}
	rm_rf(dir);
	ret = mkdir_p(dir);
	for (i = 0; i < files.nr && !ret; i++) {
		char *to = xstrfmt("%s/%s", dir, patch_name(files.v[i]));

		ret = copy_file(files.v[i], to);
		strbuf_addf(&series, "%s\n", patch_name(files.v[i]));
		free(to);
	}
	for (i = 0; i < ARRAY_SIZE(keep) && !ret; i++) {
		char *from = xstrfmt("series/%s", keep[i]);
		char *to = xstrfmt("%s/%s", dir, keep[i]);

		ret = copy_file(from, to);
		free(from);
		free(to);
	}
	if (!ret) {
		char *path = xstrfmt("%s/series", dir);
		char *v = xstrfmt("%s\n", msgid);
		char *mp = xstrfmt("%s/message-id", dir);

		ret = write_file(path, series.buf, series.len) ||
		      write_file(mp, v, strlen(v));
		free(path);
		free(v);
		free(mp);
	}
	if (!ret)
		printf("v%d as posted kept in %s/ (from %s)\n", rev, dir, sent);
out:
	strvec_clear(&mails);
	strvec_clear(&files);
	strbuf_release(&series);
	free(lf);
	free(fmt);
	free(dir);
	return ret;
}

/*
 * The changelog lines of a range-diff: one per patch that changed, was
 * added or dropped, for the author to put into words (EDITME).
 */
static void changelog_from(const char *range_diff, struct strbuf *out)
{
	struct line l;

	for_each_line(l, range_diff) {
		char *s = xstrfmt("%.*s", (int)l.len, l.s), *p = s;
		char mark = 0;
		int new_n = 0;

		/* "N:  abc ! N:  def Subject" */
		p += strspn(p, " ");
		p += strcspn(p, " ");	/* "N:" or "-:" */
		p += strspn(p, " ");
		p += strcspn(p, " ");	/* the commit, or dashes */
		if (p[0] == ' ' && strchr("=!<>", p[1]) && p[1] && p[2] == ' ') {
			mark = p[1];
			p += 3;
			new_n = atoi(p);
			p += strcspn(p, " ");
			p += strspn(p, " ");
			p += strcspn(p, " ");
			p += strspn(p, " ");
		}
		if (mark == '!')
			strbuf_addf(out, "- Patch %d, %s: EDITME: say what changed (the range-diff shows it)\n",
				    new_n, p);
		else if (mark == '>')
			strbuf_addf(out, "- New patch %d, %s: EDITME: say why\n",
				    new_n, p);
		else if (mark == '<')
			strbuf_addf(out, "- Dropped %s: EDITME: say why\n", p);
		free(s);
	}
	if (!out->len)
		strbuf_addstr(out, "- EDITME: no patch changed: say why there is a new revision\n");
}

/*
 * series/cover-letter with the section "Changes in v@rev:" (@changes, then
 * the link to the previous posting) before the first changelog section it
 * has, or at its end.
 */
static int add_changelog(int rev, const char *changes, const char *link)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT, sec = STRBUF_INIT;
	const char *at = NULL;
	struct line l;
	int ret;

	if (strbuf_read_file(&sb, "series/cover-letter", 1 << 20) < 0)
		return -1;
	strbuf_addf(&sec, "Changes in v%d:\n%s- Link to v%d: %s\n", rev,
		    changes, rev - 1, link);
	for_each_line(l, sb.buf)
		if (!at && (starts_with(l.s, "Changes in v") ||
			    starts_with(l.s, "Changes since v")))
			at = l.s;
	if (at) {
		strbuf_add(&out, sb.buf, at - sb.buf);
		strbuf_addf(&out, "%s\n%s", sec.buf, at);
	} else {
		strbuf_addstr(&out, sb.buf);
		strbuf_trim_trailing(&out);
		strbuf_addf(&out, "\n\n%s", sec.buf);
	}
	ret = write_file("series/cover-letter", out.buf, out.len);
	strbuf_release(&sb);
	strbuf_release(&out);
	strbuf_release(&sec);
	return ret;
}

/*
 * make reroll: the next revision, as b4 send's reroll starts it.  The
 * posted one (results/send/vN/message-id, written by a real send) is kept
 * as it went out in series/old/vN/; the cover gets "Changes in vN+1:",
 * a line per patch the range-diff finds changed (EDITME: the author says
 * how) and "Link to vN:"; series/revision says N+1, series/message-id
 * goes (N+1 is not posted).
 */
static int do_reroll(struct b4 *b)
{
	int rev = series_revision("series/ holds"), next = rev + 1, ret = 2;
	char *rel = xstrfmt("%s/send/v%d", b->a->results, rev);
	char *nrel = xstrfmt("%s/send/v%d", b->a->results, next);
	char *out = abspath(rel), *nout = abspath(nrel);
	char *sent = xstrfmt("%s/sent", out), *id = NULL, *nid = NULL;
	char *rd = xstrfmt("%s/range-diff.txt", b->a->work), *v;
	struct strbuf diff = STRBUF_INIT, changes = STRBUF_INIT;

	if (!rev)
		goto out;
	id = posted(out);
	if (!id) {
		error("v%d is not posted (no %s/message-id): 'make send SEND=1' posts it; nothing was changed",
		      rev, rel);
		goto out;
	}
	nid = posted(nout);
	if (nid && !b->a->resend) {
		error("v%d was posted already as <%s> (%s/message-id); nothing was changed: series/revision says %d, set it to the revision you work on",
		      next, nid, nrel, rev);
		goto out;
	}
	if (next > MAX_REVISION) {
		error("v%d is the last revision kverify counts to", rev);
		goto out;
	}
	ret = 1;
	if (!is_dir(sent))	/* sent through SMTP: the checked set */
		sent[strlen(out)] = '\0';
	if (import_tree(b) || load_patches(b))
		goto out;
	am_abort(b);
	if (keep_as_posted(b, sent, rev, id) ||
	    show_range_diff(b, rev, next) ||
	    strbuf_read_file(&diff, rd, 16 << 20) < 0)
		goto out;
	changelog_from(diff.buf, &changes);
	v = xstrfmt(LORE "%s", id);
	ret = add_changelog(next, changes.buf, v);
	free(v);
	if (ret)
		goto out;
	v = xstrfmt("%d\n", next);
	ret = write_file("series/revision", v, strlen(v));
	free(v);
	unlink("series/message-id");
	if (!ret)
		printf("series/ is v%d now; series/cover-letter has 'Changes in v%d:' with the link to v%d: edit its EDITME lines, then make verify-all and make send\n",
		       next, next, rev);
out:
	strbuf_release(&diff);
	strbuf_release(&changes);
	free(rel);
	free(nrel);
	free(out);
	free(nout);
	free(sent);
	free(id);
	free(nid);
	free(rd);
	return ret;
}

/*
 * make edit, make series: series/ as a b4 prep branch (BRANCH, the cover
 * strategy "commit": an empty commit after the base holds the cover letter
 * and b4's tracking data, then one commit a patch) in a repository of the
 * cache, cache/edit/<source key>, for git commit --amend and git rebase -i;
 * make series writes series/ back from it, one way.
 *
 * The repository is a clone of the b4 repository (its objects hard linked,
 * which git never writes into), checked out sparse: the directories the
 * series touches and scripts/, as real files, none a link into the
 * pristine tree that an editor could write through.  kverify's own git
 * runs there without the user's and the system's configuration
 * (b->isolated): its config is kverify's, it has no hooks, and a tree's
 * .gitattributes names drivers only configuration defines, so nothing in
 * the tree runs.
 *
 * EDIT_STATE in its .git records series/ as the branch was made from it or
 * written to it ("file hash" lines), EDIT_TIP the branch's commit then:
 * make series refuses to write over a series/ changed since, make edit
 * rebuilds the branch from a changed series/ only while the branch has not
 * moved (FORCE=1: even then, its old tip kept as EDIT_BACKUP).
 */
#define EDIT_STATE "kverify-series"
#define EDIT_TIP "kverify-tip"
#define EDIT_BACKUP "refs/kverify/before-resync"

/* "name hash" for each file of series/ that make series writes. */
static void series_state(struct strbuf *out)
{
	static const char *const meta[] = {
		"series/series", "series/cover-letter", "series/revision",
		"series/change-id",
	};
	struct strvec files = STRVEC_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(meta); i++)
		strvec_push(&files, meta[i]);
	list_dir("series", ".patch", &files);
	for (i = 0; i < files.nr; i++) {
		uint64_t h = HASH_INIT;

		if (hash_file(&h, files.v[i]) < 0)
			strbuf_addf(out, "%s missing\n", files.v[i]);
		else
			strbuf_addf(out, "%s %016llx\n", files.v[i],
				    (unsigned long long)h);
	}
	strvec_clear(&files);
}

/* The names of the lines of @a that @b lacks, and of @b that @a lacks. */
static void state_diff(const char *a, const char *b, struct strbuf *names)
{
	const char *x[2] = { a, b }, *y[2] = { b, a };
	int k;

	for (k = 0; k < 2; k++) {
		struct line l;

		for_each_line(l, x[k]) {
			char *one = xstrfmt("%.*s\n", (int)l.len, l.s);
			size_t n = strcspn(one, " ");

			if (l.len && !strstr(y[k], one) &&
			    !memmem(names->buf, names->len, one, n)) {
				strbuf_addf(names, "%s%.*s",
					    names->len ? ", " : "", (int)n, one);
			}
			free(one);
		}
	}
}

static char *edit_file(struct b4 *b, const char *name)
{
	return xstrfmt("%s/.git/%s", b->repo, name);
}

static char *branch_tip(struct b4 *b)
{
	struct strbuf out = STRBUF_INIT;

	if (git(b, &out, "rev-parse", "--verify", "-q", BRANCH "^{commit}",
		NULL)) {
		strbuf_release(&out);
		return NULL;
	}
	strbuf_trim_trailing(&out);
	return strbuf_detach(&out, NULL);
}

/* Record series/ and the branch's tip: they agree now. */
static int edit_record(struct b4 *b)
{
	struct strbuf st = STRBUF_INIT;
	char *tip = branch_tip(b), *sp = edit_file(b, EDIT_STATE);
	char *tp = edit_file(b, EDIT_TIP);
	int ret;

	series_state(&st);
	ret = !tip || write_file(sp, st.buf, st.len) ||
	      write_file(tp, tip, strlen(tip));
	strbuf_release(&st);
	free(tip);
	free(sp);
	free(tp);
	return ret ? -1 : 0;
}

/*
 * What changed since edit_record(): the names of series/'s files that
 * differ into @series, 1 into *@moved when the branch has commits since.
 * -1 when nothing was recorded.
 */
static int edit_changes(struct b4 *b, struct strbuf *series, int *moved)
{
	char *sp = edit_file(b, EDIT_STATE), *tp = edit_file(b, EDIT_TIP);
	char *was = read_trim(tp), *tip = branch_tip(b);
	struct strbuf old = STRBUF_INIT, now = STRBUF_INIT;
	int ret = -1;

	if (was && strbuf_read_file(&old, sp, 1 << 20) >= 0) {
		series_state(&now);
		state_diff(old.buf, now.buf, series);
		*moved = !tip || strcmp(tip, was);
		ret = 0;
	}
	strbuf_release(&old);
	strbuf_release(&now);
	free(was);
	free(tip);
	free(sp);
	free(tp);
	return ret;
}

/* 0 when the work tree has no uncommitted change and no rebase or am runs. */
static int edit_clean(struct b4 *b, const char *what)
{
	struct strbuf out = STRBUF_INIT;
	char *rm = edit_file(b, "rebase-merge"), *ra = edit_file(b, "rebase-apply");
	int ret = 0;

	if (is_dir(rm) || is_dir(ra)) {
		error("%s: a git rebase or git am is in progress there: finish it (git rebase --continue) or abort it (git rebase --abort), then %s",
		      b->repo, what);
		ret = -1;
	} else if (git(b, &out, "status", "--porcelain", "--untracked-files=no",
		       NULL) || out.len) {
		error("%s has changes not committed:\n%s  commit them (git commit -a --amend, or --fixup) or drop them (git checkout -- .), then %s",
		      b->repo, out.buf, what);
		ret = -1;
	}
	strbuf_release(&out);
	free(rm);
	free(ra);
	return ret;
}

/* The directories the patches of series/ touch, for the sparse checkout. */
static void touched_dirs(struct b4 *b, struct strvec *dirs)
{
	size_t i;

	strvec_pushl(dirs, "scripts", "arch/x86/kvm",
		     "tools/testing/selftests/kvm", NULL);
	for (i = 0; i < b->patches.nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *p, *v;

		if (strbuf_read_file(&sb, b->patches.v[i], 16 << 20) < 0)
			continue;
		for (p = sb.buf; (p = strstr(p, "\n+++ b/")); p++) {
			char *d;

			v = p + strlen("\n+++ b/");
			d = xstrfmt("%.*s", (int)strcspn(v, "\n"), v);
			if (strrchr(d, '/'))
				*strrchr(d, '/') = '\0';
			else
				*d = '\0';
			if (*d && !strvec_has(dirs, d))
				strvec_push(dirs, d);
			free(d);
		}
		strbuf_release(&sb);
	}
}

/* cache/edit/<key>, cloned from the b4 repository @b4repo; 0 or -1. */
static int edit_clone(struct b4 *b, const char *b4repo, const char *edit)
{
	char *tmp = xstrfmt("%s.tmp", edit);
	struct strvec args = STRVEC_INIT, dirs = STRVEC_INIT;
	size_t i;
	int ret;

	rm_rf(tmp);
	*strrchr(tmp, '/') = '\0';
	mkdir_p(tmp);
	tmp[strlen(tmp)] = '/';
	note("making %s, a sparse clone of %s (once)", edit, b4repo);
	b->repo = (char *)b4repo;
	ret = git(b, NULL, "clone", "-q", "--local", "--no-checkout", ".", tmp,
		  NULL);
	b->repo = tmp;
	touched_dirs(b, &dirs);
	strvec_pushl(&args, "sparse-checkout", "set", "--cone", NULL);
	for (i = 0; i < dirs.nr; i++)
		strvec_push(&args, dirs.v[i]);
	ret = ret || git(b, NULL, "remote", "remove", "origin", NULL) ||
	      git(b, NULL, "config", "branch." BRANCH ".b4-prep-cover-strategy",
		  "commit", NULL);
	if (!ret) {
		struct child c = CHILD_INIT;

		strvec_pushl(&c.args, "git", "-C", tmp, NULL);
		for (i = 0; i < args.nr; i++)
			strvec_push(&c.args, args.v[i]);
		strvec_pushl(&c.env, "GIT_CONFIG_NOSYSTEM=1",
			     "GIT_CONFIG_GLOBAL=/dev/null", NULL);
		ret = run_logged(b, &c);
	}
	if (!ret && rename(tmp, edit) < 0)
		ret = -1;
	if (ret) {
		error("could not make %s (log: %s)", edit, b->log);
		rm_rf(tmp);
	}
	b->repo = (char *)edit;
	strvec_clear(&args);
	strvec_clear(&dirs);
	free(tmp);
	return ret;
}

static int do_edit(struct b4 *b)
{
	char *b4repo = b->repo;
	char *edit = xstrfmt("%s/edit/%s", b->a->cache, b->source.src_key);
	char *git_dir = xstrfmt("%s/.git", edit);
	struct strbuf changed = STRBUF_INIT;
	int ret = 1, moved = 0, fresh = !is_dir(git_dir);

	if (!series_revision("the branch is made for") || load_patches(b) ||
	    ident_refuse_patches(&b->patches, b->t->name))
		return 2;
	if (import_tree(b))
		goto out;
	b->isolated = 1;
	if (fresh && edit_clone(b, b4repo, edit))
		goto out;
	b->repo = edit;
	if (!fresh) {
		if (edit_changes(b, &changed, &moved) < 0) {
			error("%s has no record of the series/ it was made from: remove it (rm -rf %s), then make edit",
			      edit, edit);
			ret = 2;
			goto out;
		}
		if (!changed.len) {
			printf("%s: branch %s is series/ as it is (v%d, %zu patches)%s\n",
			       edit, BRANCH, series_revision(""), b->patches.nr,
			       moved ? "; it has commits of yours since: make series writes them into series/" : "");
			ret = 0;
			goto out;
		}
		if (moved && !b->force) {
			error("series/ changed (%s) since make edit made branch %s of %s, and the branch has commits since: nothing is overwritten.  Keep the branch's: undo the change of series/ (git checkout -- series/), then make series.  Keep series/'s: make edit FORCE=1 (the branch's tip stays as %s)",
			      changed.buf, BRANCH, edit, EDIT_BACKUP);
			ret = 2;
			goto out;
		}
		if (edit_clean(b, "make edit"))
			goto out;
		if (moved) {
			char *tip = branch_tip(b);

			ret = !tip || git(b, NULL, "update-ref", EDIT_BACKUP,
					  tip, NULL);
			if (!ret)
				note("the branch's tip %.12s is kept as %s", tip,
				     EDIT_BACKUP);
			free(tip);
			ret = 1;
		}
		note("series/ changed (%s): branch %s made again from it",
		     changed.buf, BRANCH);
	}
	am_abort(b);
	if (git(b, NULL, "checkout", "-q", "-f", "-B", BRANCH, BASE_TAG, NULL) ||
	    cover_commit(b, 1) || am_series(b, 0) || edit_record(b))
		goto out;
	printf("%s: branch %s, a b4 prep branch (b4 prep --show-info there): the cover commit, then series/'s %zu patches on the target's tree\n"
	       "  edit there: git commit --amend, git rebase -i %s, b4 prep --edit-cover; then make series\n",
	       edit, BRANCH, b->patches.nr, BASE_TAG);
	ret = 0;
out:
	b->repo = b4repo;
	strbuf_release(&changed);
	free(git_dir);
	free(edit);
	return ret;
}

/* @key's value in b4's tracking JSON @json: a number or a string. */
static char *tracking_value(const char *json, const char *key)
{
	char *pat = xstrfmt("\"%s\": ", key);
	const char *p = strstr(json, pat);
	size_t n;

	free(pat);
	if (!p)
		return NULL;
	p = strchr(p, ':') + 2;
	if (*p == '"')
		return xstrfmt("%.*s", (int)strcspn(p + 1, "\""), p + 1);
	n = strspn(p, "0123456789");
	return n ? xstrfmt("%.*s", (int)n, p) : NULL;
}

static int do_series(struct b4 *b)
{
	char *b4repo = b->repo;
	char *edit = xstrfmt("%s/edit/%s", b->a->cache, b->source.src_key);
	char *git_dir = xstrfmt("%s/.git", edit);
	char *out = xstrfmt("%s/edit-patches", b->a->work), *range = NULL;
	struct strbuf changed = STRBUF_INIT, cover = STRBUF_INIT, head = STRBUF_INIT;
	struct strbuf list = STRBUF_INIT;
	char *first, *rev = NULL, *id = NULL, *magic;
	int ret = 2, moved = 0, n;
	size_t i;

	if (!is_dir(git_dir)) {
		error("no branch to write series/ from: make edit makes it (%s)",
		      edit);
		goto out;
	}
	b->isolated = 1;
	b->repo = edit;
	if (edit_changes(b, &changed, &moved) < 0) {
		error("%s has no record of the series/ it was made from: remove it (rm -rf %s), then make edit",
		      edit, edit);
		goto out;
	}
	if (changed.len) {
		error("series/ changed (%s) since make edit made branch %s of %s: writing the branch over it would lose that.  Keep series/'s: make edit%s.  Keep the branch's: undo the change of series/ (git checkout -- series/), then make series",
		      changed.buf, BRANCH, edit,
		      moved ? " FORCE=1 (the branch's tip stays as " EDIT_BACKUP ")" :
		      " (the branch has nothing new: it is made again from series/)");
		goto out;
	}
	if (edit_clean(b, "make series"))
		goto out;
	if (git(b, &head, "symbolic-ref", "--short", "-q", "HEAD", NULL) ||
	    strcmp(head.buf, BRANCH "\n")) {
		error("%s: the branch checked out is not %s: git checkout %s, then make series",
		      edit, BRANCH, BRANCH);
		goto out;
	}
	/* b4's cover commit: the first after the base, with the tracking. */
	if (git(b, &list, "rev-list", "--reverse", BASE_TAG ".." BRANCH, NULL) ||
	    !list.len) {
		error("%s: branch %s has no commit after %s: make edit FORCE=1 makes it again",
		      edit, BRANCH, BASE_TAG);
		goto out;
	}
	first = xstrfmt("%.*s", (int)strcspn(list.buf, "\n"), list.buf);
	ret = git(b, &cover, "log", "-1", "--format=%B", first, NULL);
	magic = ret ? NULL : strstr(cover.buf, "\n" MAGIC "\n");
	if (!magic) {
		error("%s: the first commit after %s, %.12s, is not b4's cover commit (no '%s'): keep it first (git rebase -i %s), or make edit FORCE=1",
		      edit, BASE_TAG, first, MAGIC, BASE_TAG);
		free(first);
		ret = 2;
		goto out;
	}
	/* A fixup squashed into it would leave series/ without its change. */
	strbuf_reset(&head);
	if (git(b, &head, "diff-tree", "--no-commit-id", "--name-only", "-r",
		first, NULL) || head.len) {
		error("%s: b4's cover commit %.12s carries changes (%s): a fixup squashed into it? (its subject may be a patch's: git commit --fixup=<id> matches the cover first; write -m 'fixup! <id>').  Move them into their patch (git rebase -i %s), then make series",
		      edit, first, head.len ? strtok(head.buf, "\n") : "?",
		      BASE_TAG);
		free(first);
		ret = 2;
		goto out;
	}
	rev = tracking_value(magic, "revision");
	id = tracking_value(magic, "change-id");
	if (!rev || !parse_revision(rev) || !id || !valid_change_id(id)) {
		error("%s: the cover commit's tracking data has no revision or change-id b4 could have written",
		      edit);
		free(first);
		ret = 2;
		goto out;
	}
	strbuf_setlen(&cover, magic - cover.buf);
	strbuf_trim_trailing(&cover);
	strbuf_addch(&cover, '\n');
	range = xstrfmt("%s.." BRANCH, first);
	free(first);
	ret = 1;
	rm_rf(out);
	if (git(b, NULL, "format-patch", "-q", "--zero-commit",
		"--no-signature", "--abbrev=12", "-o", out, range, NULL) ||
	    unstamp_dir(b, out))
		goto out;
	for (i = 0; i < b->patches.nr; i++)	/* the old names */
		unlink(b->patches.v[i]);
	n = install_patches(out);
	if (n < 0 || write_file("series/cover-letter", cover.buf, cover.len))
		goto out;
	strbuf_reset(&head);
	strbuf_addf(&head, "%d\n", parse_revision(rev));
	ret = write_file("series/revision", head.buf, head.len);
	strbuf_reset(&head);
	strbuf_addf(&head, "%s\n", id);
	ret = ret || write_file("series/change-id", head.buf, head.len) ||
	      edit_record(b);
	if (!ret)
		printf("series/ written from branch %s of %s: %d patches, v%d (git diff -- series/ shows what changed)\n",
		       BRANCH, edit, n, parse_revision(rev));
out:
	b->repo = b4repo;
	strbuf_release(&changed);
	strbuf_release(&cover);
	strbuf_release(&head);
	strbuf_release(&list);
	free(rev);
	free(id);
	free(range);
	free(out);
	free(git_dir);
	free(edit);
	return ret;
}

/*
 * The series as make verify reads it, before anything runs: every patch
 * listed is there and names no file outside the tree.
 */
static int check_series(const struct target *t, const struct options *opt)
{
	struct series s = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *where = xstrfmt("%s:%d", opt->list, t->line);
	int ret = 0;

	if (t->series && series_load(&s, ".", t->series, where, &err)) {
		fprintf(stderr, "kverify: %s", err.buf);
		ret = -1;
	}
	series_clear(&s);
	strbuf_release(&err);
	free(where);
	return ret;
}

/* The source the series is based on, fetched as make verify fetches it. */
static int fetch_base(struct b4 *b, const struct options *opt)
{
	char *log = xstrfmt("%s/fetch.log", b->a->work);
	const struct source_req req = {
		.t = b->t, .opt = opt, .cache = opt->cache, .log = log,
		.timeout = SOURCE_TIMEOUT,
	};
	struct strbuf why = STRBUF_INIT, detail = STRBUF_INIT;
	int ret;

	unlink(log);	/* this run's, not every earlier one's */
	ret = source_get(&req, &b->source, &why, &detail);
	if (ret)
		fprintf(stderr, "kverify: %s: fetch: %s (log: %s)\n%s",
			b->t->name, why.buf, log, detail.buf);
	strbuf_release(&why);
	strbuf_release(&detail);
	free(log);
	return ret;
}

int cmd_b4(const char *what, const struct target *t,
	   const struct options *opt, const struct b4_args *a)
{
	struct b4 b = { .a = a, .t = t, .force = opt->force };
	struct strbuf why = STRBUF_INIT;
	int ret = 2, lockfd = -1;

	if (!path_has("b4")) {
		missing_tool(&why, "b4", NULL);
		error("%s", why.buf);
		ret = EXIT_TOOL;
		goto out;
	}
	/* edit and series: the branch's commits and what comes off them. */
	if (identities(&b, !strcmp(what, "send") || !strcmp(what, "edit") ||
		       !strcmp(what, "series")))
		goto out;
	if (check_series(t, opt)) {
		ret = EXIT_USAGE;
		goto out;
	}
	/*
	 * One b4 workflow at a time, from before the fetch to the end:
	 * series/, <results>/b4 and the cache repository are shared.  Not
	 * inherited: git detaches "gc --auto" into the background, which
	 * would hold the lock for minutes after the workflow ended.
	 */
	if (lock_in_cache(a->cache, 1, &lockfd, &why, "b4.lock")) {
		error("%s", why.buf);
		ret = EXIT_TOOL;
		goto out;
	}
	mkdir_p(a->work);
	if (fetch_base(&b, opt)) {
		ret = run_interrupted() ? EXIT_INTERRUPTED : EXIT_TOOL;
		goto out;
	}
	ret = 1;
	b.log = xstrfmt("%s/b4.log", a->work);
	b.b4_out = xstrfmt("%s/b4-output.log", a->work);
	b.repo = xstrfmt("%s/b4/%s", a->cache, b.source.src_key);
	if (!strcmp(what, "send"))
		ret = do_send(&b);
	else if (!strcmp(what, "am"))
		ret = do_am(&b);
	else if (!strcmp(what, "trailers"))
		ret = do_trailers(&b);
	else if (!strcmp(what, "reroll"))
		ret = do_reroll(&b);
	else if (!strcmp(what, "edit"))
		ret = do_edit(&b);
	else if (!strcmp(what, "series"))
		ret = do_series(&b);
	else
		ret = do_range_diff(&b);
out:
	unlock_file(lockfd);
	strbuf_release(&why);
	source_clear(&b.source);
	free(b.repo);
	free(b.log);
	free(b.b4_out);
	free(b.base);
	free(b.base_commit);
	ident_clear(&b.id);
	strvec_clear(&b.patches);
	return ret;
}
