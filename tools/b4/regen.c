// SPDX-License-Identifier: GPL-2.0
/*
 * kverify regenerate (make regenerate): the semantic patch is the source
 * of every curated variant's code.  For each kernels.list target with a
 * series directory of its own (series/, backports/X.Y), it runs the
 * semantic patch on copies of the target's pristine tree and folds what
 * it writes differently from the variant into the variant's patches:
 *
 *  - a small git repository in <results>/regen/<target>/ holds the files
 *    the variant touches, from the pristine tree, and the variant's
 *    patches, one commit each;
 *  - the files the semantic patch writes go on top; each hunk of that
 *    difference belongs to the patch that last wrote its lines (git
 *    blame); when they all belong to one patch, a fixup commit and
 *    git rebase --autosquash move the change into it, and every patch
 *    whose diff then differs is rewritten: its message stays as it is,
 *    its diffstat and diff are git format-patch's;
 *  - otherwise (lines of several patches, or of none, or a rebase that
 *    conflicts, or a semantic patch that says anything but APPLIED) the
 *    variant is left as it is and named: it needs a hand;
 *  - a series of fixes only (every patch has Fixes:, backports/6.1) is
 *    kept as it is: the semantic patch writes the knob, not the fixes.
 *
 * The Origin: and Forwarded: lines of every backports/ patch follow
 * series/revision and series/message-id (series_origin()), as make
 * backport writes them, and its message gets the review trailers
 * (Reviewed-by:, Acked-by:, Tested-by:) that series/'s patch of the same
 * name has, the fixes-only series too.  Once series/merged names the
 * upstream commit of series/'s patch, the variant's patch of that name
 * begins "commit SHA upstream.", as stable wants a backport.  The
 * pristine trees are read, never written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "b4/b4_int.h"
#include "b4/regen.h"
#include "core/cocci.h"
#include "core/ident.h"
#include "core/series.h"
#include "core/toolout.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/run.h"
#include "lib/usage.h"
#include "sources/source.h"

#define BASE "kverify-regen-base"

struct regen {
	const struct target *t;
	const struct options *opt;
	char *work;		/* <results>/regen/<target> */
	char *repo;		/* work/git */
	char *log;
	struct source source;
	struct series s;
};

static int git_env(struct regen *r, struct strbuf *out, const char *editor,
		   ...)
{
	struct child c = CHILD_INIT;
	const char *arg;
	va_list ap;
	int ret;

	strvec_pushl(&c.env, "GIT_AUTHOR_NAME=kverify",
		     "GIT_AUTHOR_EMAIL=kverify@localhost",
		     "GIT_COMMITTER_NAME=kverify",
		     "GIT_COMMITTER_EMAIL=kverify@localhost",
		     "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		     NULL);
	if (editor)
		strvec_pushf(&c.env, "GIT_SEQUENCE_EDITOR=%s", editor);
	strvec_pushl(&c.args, "git", "-C", r->repo, NULL);
	va_start(ap, editor);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&c.args, arg);
	va_end(ap);
	c.out = out;
	c.log = r->log;
	ret = run_child(&c);
	child_clear(&c);
	return ret;
}

#define git(r, out, ...) git_env(r, out, NULL, __VA_ARGS__)

/* The pristine copies of what the variant touches, and its patches. */
static int build_repo(struct regen *r)
{
	struct strvec files = STRVEC_INIT;
	char *tmp = xstrfmt("%s/am.patch", r->work);
	size_t i;
	int ret = 0;

	series_files(&r->s, &files, 0);
	for (i = 0; i < nr_cocci_inputs; i++)
		if (!strvec_has(&files, cocci_inputs[i]))
			strvec_push(&files, cocci_inputs[i]);
	rm_rf(r->repo);
	mkdir_p(r->repo);
	for (i = 0; i < files.nr && !ret; i++) {
		char *from = xstrfmt("%s/%s", r->source.src, files.v[i]);
		char *to = xstrfmt("%s/%s", r->repo, files.v[i]);
		char *slash;

		if (is_file(from)) {
			slash = strrchr(to, '/');
			*slash = '\0';
			mkdir_p(to);
			*slash = '/';
			ret = copy_file(from, to);
		}
		free(from);
		free(to);
	}
	ret = ret || git(r, NULL, "init", "-q", NULL) ||
	      git(r, NULL, "add", "-A", NULL) ||
	      git(r, NULL, "commit", "-q", "-m", "pristine", NULL) ||
	      git(r, NULL, "tag", BASE, NULL);
	for (i = 0; i < r->s.patches.nr && !ret; i++) {
		struct strbuf sb = STRBUF_INIT, in = STRBUF_INIT;
		const char *nl;

		ret = strbuf_read_file(&sb, r->s.patches.v[i], 16 << 20) < 0;
		/* git am needs an author: the project's patches have none */
		nl = strchr(sb.buf, '\n');
		if (!ret && !ident_has_from(sb.buf) && nl &&
		    starts_with(sb.buf, "From ")) {
			strbuf_add(&in, sb.buf, nl + 1 - sb.buf);
			strbuf_addstr(&in, "From: kverify <kverify@localhost>\n");
			strbuf_addstr(&in, nl + 1);
		} else {
			strbuf_addstr(&in, sb.buf);
		}
		ret = ret || write_file(tmp, in.buf, in.len) ||
		      git(r, NULL, "am", "-q", "--keep-cr", tmp, NULL);
		if (ret)
			error("%s: %s does not apply to the pristine tree (log: %s)",
			      r->t->name, r->s.patches.v[i], r->log);
		strbuf_release(&sb);
		strbuf_release(&in);
	}
	strvec_clear(&files);
	free(tmp);
	return ret;
}

/* The commits of the variant, in order. */
static int commits(struct regen *r, struct strvec *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct line l;
	int ret = git(r, &sb, "rev-list", "--reverse", BASE "..HEAD", NULL);

	for_each_line(l, sb.buf)
		if (l.len)
			strvec_pushf(out, "%.*s", (int)l.len, l.s);
	strbuf_release(&sb);
	return ret;
}

/* The commits that wrote lines @from..@from+@n-1 of @file at HEAD. */
static int blame(struct regen *r, const char *file, long from, long n,
		 struct strvec *out)
{
	struct strbuf sb = STRBUF_INIT;
	char *range = xstrfmt("%ld,+%ld", from, n);
	struct line l;
	int ret = git(r, &sb, "blame", "--porcelain", "-L", range, "HEAD",
		      "--", file, NULL);

	for_each_line(l, sb.buf)
		if (l.len > 41 && l.s[40] == ' ' &&
		    strspn(l.s, "0123456789abcdef") == 40) {
			char *c = xstrfmt("%.40s", l.s);

			if (!strvec_has(out, c))
				strvec_push(out, c);
			free(c);
		}
	strbuf_release(&sb);
	free(range);
	return ret;
}

/*
 * The commits whose lines the working tree's change (git diff -U0)
 * touches: for a change or removal the old lines, for an insertion the
 * lines either side of it.
 */
static int owners(struct regen *r, struct strvec *out)
{
	struct strbuf diff = STRBUF_INIT;
	char *file = NULL;
	struct line l;
	int ret = git(r, &diff, "diff", "-U0", "--no-color", NULL);

	for_each_line(l, diff.buf) {
		long a, b = 1;
		const char *p;

		if (!ret && l.len > 6 && starts_with(l.s, "+++ b/")) {
			free(file);
			file = xstrfmt("%.*s", (int)l.len - 6, l.s + 6);
			continue;
		}
		if (ret || !file || !starts_with(l.s, "@@ -"))
			continue;
		a = strtol(l.s + 4, (char **)&p, 10);
		if (*p == ',')
			b = strtol(p + 1, NULL, 10);
		if (b)
			ret = blame(r, file, a, b, out);
		else
			ret = (a >= 1 && blame(r, file, a, 1, out)) ||
			      blame(r, file, a + 1, 1, out);
	}
	free(file);
	strbuf_release(&diff);
	return ret;
}

/* The diff of a patch text, without its index lines. */
static void diff_part(const char *text, struct strbuf *out)
{
	const char *p = strstr(text, "\ndiff --git ");
	struct line l;

	if (!p)
		return;
	for_each_line(l, p + 1)
		if (!starts_with(l.s, "index ") &&
		    !(l.len == 3 && starts_with(l.s, "-- "))) {
			strbuf_add(out, l.s, l.len);
			strbuf_addch(out, '\n');
		}
	while (out->len > 1 && out->buf[out->len - 1] == '\n' &&
	       out->buf[out->len - 2] == '\n')
		strbuf_setlen(out, out->len - 1);
}

/*
 * Patch @path with the diffstat and diff of @commit, its message kept;
 * 1 when it changed, 0 when not, -1 on error.
 */
static int rewrite_patch(struct regen *r, const char *path,
			 const char *commit)
{
	struct strbuf old = STRBUF_INIT, new = STRBUF_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, out = STRBUF_INIT;
	const char *cut_old, *cut_new;
	int ret = -1;

	if (strbuf_read_file(&old, path, 16 << 20) < 0 ||
	    git(r, &new, "format-patch", "-1", "--stdout", "--no-signature",
		"--abbrev=12", commit, NULL))
		goto out;
	diff_part(old.buf, &a);
	diff_part(new.buf, &b);
	if (!strcmp(a.buf, b.buf)) {
		ret = 0;
		goto out;
	}
	cut_old = strstr(old.buf, "\n---\n");
	cut_new = strstr(new.buf, "\n---\n");
	if (!cut_old || !cut_new) {
		error("%s: no '---' line after the message", path);
		goto out;
	}
	strbuf_add(&out, old.buf, cut_old - old.buf);
	strbuf_addstr(&out, cut_new);
	ret = write_file(path, out.buf, out.len) ? -1 : 1;
out:
	strbuf_release(&old);
	strbuf_release(&new);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&out);
	return ret;
}

/* The Origin:/Forwarded: header lines of @path as @origin says. */
static int follow_origin(const char *path, const char *origin)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	const char *end;
	struct line l;
	int done = 0, ret = 0;

	if (strbuf_read_file(&sb, path, 16 << 20) < 0)
		return -1;
	end = strstr(sb.buf, "\n\n");
	for_each_line(l, sb.buf) {
		int hdr = end && l.s < end;

		if (hdr && (starts_with(l.s, "Origin:") ||
			    starts_with(l.s, "Forwarded:"))) {
			if (!done)
				strbuf_addstr(&out, origin);
			done = 1;
			continue;
		}
		strbuf_add(&out, l.s, l.len);
		if (l.s[l.len] == '\n')
			strbuf_addch(&out, '\n');
	}
	if (done && strcmp(out.buf, sb.buf))
		ret = write_file(path, out.buf, out.len) ? -1 : 1;
	strbuf_release(&sb);
	strbuf_release(&out);
	return ret;
}

/* What every variant's patch follows of series/ (regen_target()). */
struct upstream {
	struct series s;	/* series/ */
	struct strvec merged;	/* series/merged: name and SHA pairs */
	struct strbuf origin;	/* Origin: and Forwarded: lines */
};

/* series/'s patch of the same name as @path (its number aside), or NULL. */
static const char *upstream_patch(const char *path, const struct series *s)
{
	const char *name = patch_name(path), *dash = strchr(name, '-');
	size_t i;

	for (i = 0; dash && i < s->patches.nr; i++) {
		const char *un = patch_name(s->patches.v[i]);
		const char *ud = strchr(un, '-');

		if (ud && !strcmp(ud, dash))
			return s->patches.v[i];
	}
	return NULL;
}

/*
 * The review trailers of series/'s patch of the same name (its number
 * aside) that the variant's patch @path lacks, added: 1 when it was
 * rewritten, 0 when there was nothing to add, -1 on an error.
 */
static int follow_trailers(const char *path, const struct upstream *u)
{
	const char *up = upstream_patch(path, &u->s);
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT, out = STRBUF_INIT;
	int ret = 0, n;

	if (!up)
		return 0;
	if (strbuf_read_file(&from, up, 16 << 20) < 0 ||
	    strbuf_read_file(&to, path, 16 << 20) < 0) {
		ret = -1;
		goto out;
	}
	n = carry_review_trailers(from.buf, to.buf, &out);
	if (n < 0)
		error("%s: no '---' line after the message", path);
	else if (n > 0)
		ret = write_file(path, out.buf, out.len) ? -1 : 1;
	ret = n < 0 ? -1 : ret;
out:
	strbuf_release(&from);
	strbuf_release(&to);
	strbuf_release(&out);
	return ret;
}

/*
 * Once series/merged names the upstream commit of series/'s patch of the
 * same name, the message of @path begins "commit SHA upstream.", as a
 * stable backport must (Documentation/process/stable-kernel-rules.rst),
 * a line another SHA wrote replaced.  1 when it was rewritten, 0 when
 * not, -1 on an error.
 */
static int follow_upstream_commit(const char *path, const struct upstream *u)
{
	const char *up = upstream_patch(path, &u->s);
	const char *sha = up ? series_merged_sha(&u->merged, patch_name(up)) :
			  NULL;
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	const char *body, *rest;
	int ret = 0;

	if (!sha)
		return 0;
	if (strbuf_read_file(&sb, path, 16 << 20) < 0)
		return -1;
	body = strstr(sb.buf, "\n\n");
	if (!body) {
		error("%s: no message after its header", path);
		ret = -1;
		goto out;
	}
	body += 2;
	rest = skip_stable_upstream_line(body);
	rest = rest && *rest == '\n' ? rest + 1 : NULL;	/* and its blank line */
	strbuf_add(&out, sb.buf, body - sb.buf);
	strbuf_addf(&out, "commit %s upstream.\n\n%s", sha, rest ? rest : body);
	if (strcmp(out.buf, sb.buf))
		ret = write_file(path, out.buf, out.len) ? -1 : 1;
out:
	strbuf_release(&sb);
	strbuf_release(&out);
	return ret;
}

/*
 * One variant: 0 (rewritten or already what the semantic patch writes),
 * 1 (needs a hand: said why), -1 (an error).
 */
static int regen_one(struct regen *r)
{
	char *cwork = xstrfmt("%s/cocci", r->work), *repo = abspath(".");
	char *outcome = NULL;
	struct strbuf why = STRBUF_INIT, st = STRBUF_INIT;
	struct strvec own = STRVEC_INIT, list = STRVEC_INIT;
	size_t i, j;
	int ret = -1, changed = 0, k = -1;

	if (build_repo(r))
		goto out;
	rm_rf(cwork);
	if (cocci_run(repo, r->source.src, cwork, 0, r->log, 600, &outcome,
		      &why)) {
		error("%s: %s", r->t->name, why.buf);
		goto out;
	}
	if (!starts_with(outcome, "APPLIED")) {
		printf("%s (%s): needs a hand: the semantic patch says %s\n",
		       r->t->name, r->t->series, outcome);
		ret = 1;
		goto out;
	}
	for (i = 0; i < nr_cocci_inputs; i++) {
		char *from = xstrfmt("%s/b/%s", cwork, cocci_inputs[i]);
		char *to = xstrfmt("%s/%s", r->repo, cocci_inputs[i]);

		if (is_file(from) && copy_file(from, to)) {
			free(from);
			free(to);
			goto out;
		}
		free(from);
		free(to);
	}
	if (git(r, &st, "status", "--porcelain", "--untracked-files=no",
		NULL))
		goto out;
	if (!st.len) {
		printf("%s (%s): what the semantic patch writes (%s)\n",
		       r->t->name, r->t->series, outcome);
		ret = 0;
		goto out;
	}
	if (owners(r, &own) || commits(r, &list))
		goto out;
	for (i = 0; i < own.nr; i++) {
		for (j = 0; j < list.nr && strcmp(own.v[i], list.v[j]); j++)
			;
		if (j == list.nr) {
			k = -2;	/* a line of the pristine tree */
			break;
		}
		if (k == -1)
			k = j;
		else if (k != (int)j)
			k = -3;	/* lines of two patches */
	}
	if (k < 0) {
		printf("%s (%s): needs a hand: the semantic patch changes %s; see git -C %s diff\n",
		       r->t->name, r->t->series,
		       k == -3 ? "lines of more than one patch" :
		       "lines no patch of the variant wrote", r->repo);
		ret = 1;
		goto out;
	}
	if (git(r, NULL, "commit", "-q", "-a", "--fixup", list.v[k], NULL))
		goto out;
	if (git_env(r, NULL, "true", "rebase", "-q", "-i", "--autosquash",
		    BASE, NULL)) {
		git(r, NULL, "rebase", "--abort", NULL);
		printf("%s (%s): needs a hand: the change to %s does not carry through the later patches (git rebase conflicts)\n",
		       r->t->name, r->t->series, patch_name(r->s.patches.v[k]));
		ret = 1;
		goto out;
	}
	strvec_clear(&list);
	if (commits(r, &list) || list.nr != r->s.patches.nr)
		goto out;
	for (i = 0; i < list.nr; i++) {
		int w = rewrite_patch(r, r->s.patches.v[i], list.v[i]);

		if (w < 0)
			goto out;
		if (w) {
			printf("%s (%s): rewrote %s from the semantic patch\n",
			       r->t->name, r->t->series,
			       patch_name(r->s.patches.v[i]));
			changed++;
		}
	}
	ret = 0;
out:
	strbuf_release(&why);
	strbuf_release(&st);
	strvec_clear(&own);
	strvec_clear(&list);
	free(outcome);
	free(cwork);
	free(repo);
	return ret;
}

/*
 * One target's variant: regenerated (or kept, fixes only), then its
 * Origin:/Forwarded:, review trailers and upstream commit follow
 * series/.  0, 1 (needs a hand), -1 (an error) or -2 (bad input).
 */
static int regen_target(const struct target *t, const struct options *opt,
			const char *results, const struct upstream *u)
{
	struct regen r = { .t = t, .opt = opt };
	char *where = xstrfmt("%s:%d", opt->list, t->line);
	struct strbuf why = STRBUF_INIT, detail = STRBUF_INIT;
	struct source_req req = {
		.t = t, .opt = opt, .cache = sources_dir(opt),
		.timeout = SOURCE_TIMEOUT,
	};
	size_t j;
	int ret = 0;

	r.work = xstrfmt("%s/regen/%s", results, t->name);
	r.repo = xstrfmt("%s/git", r.work);
	r.log = xstrfmt("%s/regen.log", r.work);
	rm_rf(r.work);
	mkdir_p(r.work);
	req.log = r.log;
	if (series_load(&r.s, ".", t->series, where, &why)) {
		fprintf(stderr, "kverify: %s", why.buf);
		ret = -2;
	} else if (source_get(&req, &r.source, &why, &detail)) {
		error("%s: fetch: %s (log: %s)", t->name, why.buf, r.log);
		ret = -1;
	} else if (series_fixes_only(&r.s)) {
		/* the semantic patch writes the knob, n/a there */
		printf("%s (%s): kept: a series of fixes only (every patch has Fixes:), which the semantic patch does not write\n",
		       t->name, t->series);
	} else {
		ret = regen_one(&r);
	}
	if (ret >= 0 && strcmp(t->series, "series"))
		for (j = 0; j < r.s.patches.nr && ret >= 0; j++)
			if (follow_origin(r.s.patches.v[j], u->origin.buf) < 0 ||
			    follow_trailers(r.s.patches.v[j], u) < 0 ||
			    follow_upstream_commit(r.s.patches.v[j], u) < 0)
				ret = -1;
	strbuf_release(&why);
	strbuf_release(&detail);
	series_clear(&r.s);
	source_clear(&r.source);
	free(r.work);
	free(r.repo);
	free(r.log);
	free(where);
	return ret;
}

int cmd_regenerate(const struct target_list *list, const struct options *opt,
		   const char *results)
{
	struct strvec done = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct upstream u = {
		.merged = STRVEC_INIT, .origin = STRBUF_INIT,
	};
	size_t i;
	int ret = 0, hand = 0;

	if (!path_has("spatch") || !path_has("git")) {
		error("make regenerate needs spatch and git: make deps");
		return EXIT_TOOL;
	}
	if (series_origin(&u.origin) ||
	    series_merged_load("series/merged", &u.merged)) {
		ret = -2;
		goto out;
	}
	if (series_load(&u.s, ".", "series", "series", &err)) {
		fprintf(stderr, "kverify: %s", err.buf);
		ret = -2;
		goto out;
	}
	for (i = 0; i < list->nr && ret >= 0; i++) {
		const struct target *t = &list->v[i];

		if (!t->series || t->auto_series ||
		    strvec_has(&done, t->series))
			continue;
		strvec_push(&done, t->series);
		ret = regen_target(t, opt, results, &u);
		hand += ret > 0;
		if (ret > 0)
			ret = 0;
	}
out:
	strvec_clear(&done);
	strbuf_release(&err);
	strbuf_release(&u.origin);
	strvec_clear(&u.merged);
	series_clear(&u.s);
	if (ret == -2)
		return EXIT_USAGE;
	if (ret < 0)
		return run_interrupted() ? EXIT_INTERRUPTED : EXIT_TOOL;
	if (hand) {
		printf("%d variant%s need%s a hand (above): make the change there yourself, then make verify-all\n",
		       hand, hand == 1 ? "" : "s", hand == 1 ? "s" : "");
		return EXIT_FAIL;
	}
	return 0;
}
