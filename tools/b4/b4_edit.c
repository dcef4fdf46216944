// SPDX-License-Identifier: GPL-2.0
/*
 * make edit and make series: series/ as a b4 prep branch in a clone of the
 * cache repository for the contributor to edit, and the branch's commits
 * back into series/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "b4/b4_int.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/json.h"
#include "lib/usage.h"

/*
 * make edit, make series: series/ as a b4 prep branch (BRANCH, the cover
 * strategy "commit": an empty commit after the base holds the cover letter
 * and b4's tracking data, then one commit a patch) in a repository of the
 * cache, cache/edit/<source key>-<checkout>, for git commit --amend and
 * git rebase -i; make series writes series/ back from it, one way.  It
 * belongs to the checkout that made it (<checkout>: a hash of its absolute
 * path, which EDIT_CHECKOUT in its .git names in full): two clones that
 * share a cache each edit their own series/.
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
#define EDIT_CHECKOUT "kverify-checkout"

/* cache/edit/<source key>-<checkout>: this checkout's edit repository. */
static char *edit_dir(struct b4 *b)
{
	char *here = getcwd(NULL, 0);
	uint64_t h = hash_bytes(HASH_INIT, here ? here : "", here ? strlen(here) : 0);
	char *dir = xstrfmt("%s/edit/%s-%012llx", b->a->cache, b->source.src_key,
			    (unsigned long long)(h & 0xffffffffffffULL));

	free(here);
	return dir;
}

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

	if (b4_git(b, &out, "rev-parse", "--verify", "-q", BRANCH "^{commit}",
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
	} else if (b4_git(b, &out, "status", "--porcelain", "--untracked-files=no",
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

/*
 * cache/edit/<key>-<checkout>, cloned from the b4 repository @b4repo, with
 * the checkout's path in EDIT_CHECKOUT; 0 or -1.
 */
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
	ret = b4_git(b, NULL, "clone", "-q", "--local", "--no-checkout", ".", tmp,
		  NULL);
	b->repo = tmp;
	touched_dirs(b, &dirs);
	strvec_pushl(&args, "sparse-checkout", "set", "--cone", NULL);
	for (i = 0; i < dirs.nr; i++)
		strvec_push(&args, dirs.v[i]);
	ret = ret || b4_git(b, NULL, "remote", "remove", "origin", NULL) ||
	      b4_git(b, NULL, "config", "branch." BRANCH ".b4-prep-cover-strategy",
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
	if (!ret) {
		char *here = getcwd(NULL, 0), *path = edit_file(b, EDIT_CHECKOUT);
		char *line = xstrfmt("%s\n", here ? here : "");

		ret = !here || write_file(path, line, strlen(line));
		free(here);
		free(path);
		free(line);
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

int do_edit(struct b4 *b)
{
	char *b4repo = b->repo;
	char *edit = edit_dir(b);
	char *git_dir = xstrfmt("%s/.git", edit);
	struct strbuf changed = STRBUF_INIT;
	int ret = 1, moved = 0, fresh = !is_dir(git_dir);

	if (!series_revision("the branch is made for") || load_patches(b) ||
	    ident_refuse_patches(&b->patches, b->t->name))
		return EXIT_USAGE;
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
			ret = EXIT_USAGE;
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
			ret = EXIT_USAGE;
			goto out;
		}
		if (edit_clean(b, "make edit"))
			goto out;
		if (moved) {
			char *tip = branch_tip(b);

			ret = !tip || b4_git(b, NULL, "update-ref", EDIT_BACKUP,
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
	if (b4_git(b, NULL, "checkout", "-q", "-f", "-B", BRANCH, BASE_TAG, NULL) ||
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

/* The revision and change-id of b4's tracking data, as text. */
struct tracking {
	char *rev, *id;
};

/* A revision: a whole number (as b4 writes it) or a string, as text. */
static int tracking_rev(struct json_parser *ps, char **rev)
{
	double d;

	if (*ps->p == '"')
		return json_string(ps, rev);
	if (json_number(ps, &d))
		return -1;
	free(*rev);
	*rev = d >= 0 && d < 1e9 && d == (long)d ? xstrfmt("%ld", (long)d) :
						   NULL;
	return 0;
}

static int tracking_series(struct json_parser *ps, const char *key,
			   void *data)
{
	struct tracking *t = data;

	if (!strcmp(key, "revision"))
		return tracking_rev(ps, &t->rev);
	if (!strcmp(key, "change-id"))
		return json_string(ps, &t->id);
	return json_skip(ps);
}

static int tracking_top(struct json_parser *ps, const char *key, void *data)
{
	if (!strcmp(key, "series"))
		return json_object(ps, tracking_series, data);
	return json_skip(ps);
}

/*
 * The revision and change-id in b4's tracking data, the JSON object after
 * the line @magic of the cover commit: 0, or -1 with *@rev or *@id NULL
 * (the JSON broken, or either missing).
 */
static int tracking_read(const char *magic, char **rev, char **id)
{
	struct tracking t = { NULL, NULL };
	struct strbuf err = STRBUF_INIT;
	const char *json = strchr(magic, '{');
	struct json_parser ps = JSON_PARSER_INIT(json, &err);

	if (!json || json_object(&ps, tracking_top, &t)) {
		free(t.rev);
		free(t.id);
		t.rev = t.id = NULL;
	}
	strbuf_release(&err);
	*rev = t.rev;
	*id = t.id;
	return t.rev && t.id ? 0 : -1;
}

/*
 * The commits of @range that git rebase --autosquash folds into another
 * (subject "fixup! ", "squash! ", "amend! "): make series writes none as
 * a patch of its own unless FORCE=1.  0, else EXIT_USAGE after naming
 * them and what to do, or 1 when git failed.
 */
static int leftover_fixups(struct b4 *b, const char *edit, const char *range)
{
	static const char *const folded[] = { "fixup! ", "squash! ", "amend! " };
	struct strbuf log = STRBUF_INIT, found = STRBUF_INIT;
	struct line l;
	size_t i;
	int ret = 0;

	if (b4_git(b, &log, "log", "--reverse", "--format=%h %s", range, NULL)) {
		strbuf_release(&log);
		return 1;
	}
	for_each_line(l, log.buf) {
		const char *s = memchr(l.s, ' ', l.len);

		for (i = 0; s && i < ARRAY_SIZE(folded); i++)
			if (starts_with(s + 1, folded[i])) {
				strbuf_addf(&found, "%s'%.*s'",
					    found.len ? ", " : "", (int)l.len,
					    l.s);
				break;
			}
	}
	if (found.len && !b->force) {
		error("%s: branch %s has commits git rebase --autosquash would fold into a patch, not yet folded: %s.  Fold them (git rebase -i --autosquash %s), then make series; FORCE=1 writes each as a patch of its own",
		      edit, BRANCH, found.buf, BASE_TAG);
		ret = EXIT_USAGE;
	} else if (found.len) {
		note("FORCE=1: written as patches of their own: %s", found.buf);
	}
	strbuf_release(&log);
	strbuf_release(&found);
	return ret;
}

int do_series(struct b4 *b)
{
	char *b4repo = b->repo;
	char *edit = edit_dir(b);
	char *git_dir = xstrfmt("%s/.git", edit);
	char *out = xstrfmt("%s/edit-patches", b->a->work), *range = NULL;
	struct strbuf changed = STRBUF_INIT, cover = STRBUF_INIT, head = STRBUF_INIT;
	struct strbuf list = STRBUF_INIT;
	char *first, *rev = NULL, *id = NULL, *magic;
	int ret = EXIT_USAGE, moved = 0, n;
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
	if (b4_git(b, &head, "symbolic-ref", "--short", "-q", "HEAD", NULL) ||
	    strcmp(head.buf, BRANCH "\n")) {
		error("%s: the branch checked out is not %s: git checkout %s, then make series",
		      edit, BRANCH, BRANCH);
		goto out;
	}
	/* b4's cover commit: the first after the base, with the tracking. */
	if (b4_git(b, &list, "rev-list", "--reverse", BASE_TAG ".." BRANCH, NULL) ||
	    !list.len) {
		error("%s: branch %s has no commit after %s: make edit FORCE=1 makes it again",
		      edit, BRANCH, BASE_TAG);
		goto out;
	}
	first = xstrfmt("%.*s", (int)strcspn(list.buf, "\n"), list.buf);
	ret = b4_git(b, &cover, "log", "-1", "--format=%B", first, NULL);
	magic = ret ? NULL : strstr(cover.buf, "\n" MAGIC "\n");
	if (!magic) {
		error("%s: the first commit after %s, %.12s, is not b4's cover commit (no '%s'): keep it first (git rebase -i %s), or make edit FORCE=1",
		      edit, BASE_TAG, first, MAGIC, BASE_TAG);
		free(first);
		ret = EXIT_USAGE;
		goto out;
	}
	/* A fixup squashed into it would leave series/ without its change. */
	strbuf_reset(&head);
	if (b4_git(b, &head, "diff-tree", "--no-commit-id", "--name-only", "-r",
		first, NULL) || head.len) {
		error("%s: b4's cover commit %.12s carries changes (%s): a fixup squashed into it? (its subject may be a patch's: git commit --fixup=<id> matches the cover first; write -m 'fixup! <id>').  Move them into their patch (git rebase -i %s), then make series",
		      edit, first, head.len ? strtok(head.buf, "\n") : "?",
		      BASE_TAG);
		free(first);
		ret = EXIT_USAGE;
		goto out;
	}
	tracking_read(magic, &rev, &id);
	if (!rev || !parse_revision(rev) || !id || !valid_change_id(id)) {
		error("%s: the cover commit's tracking data has no revision or change-id b4 could have written",
		      edit);
		free(first);
		ret = EXIT_USAGE;
		goto out;
	}
	strbuf_setlen(&cover, magic - cover.buf);
	strbuf_trim_trailing(&cover);
	strbuf_addch(&cover, '\n');
	range = xstrfmt("%s.." BRANCH, first);
	free(first);
	ret = leftover_fixups(b, edit, range);
	if (ret)
		goto out;
	ret = 1;
	rm_rf(out);
	if (b4_git(b, NULL, "format-patch", "-q", "--zero-commit",
		"--no-signature", "--abbrev=12", "-o", out, range, NULL) ||
	    unstamp_dir(b, out))
		goto out;
	/* the old names: a patch the branch no longer has goes too */
	if (!b->patches.nr)
		load_patches(b);
	for (i = 0; i < b->patches.nr; i++)
		if (!strchr(b->patches.v[i] + strlen("series/"), '/'))
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
