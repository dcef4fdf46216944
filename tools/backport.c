// SPDX-License-Identifier: GPL-2.0
/*
 * kverify backport --tree PATH --name X.Y: for a kernel nobody curated yet,
 * let the semantic patch find the shape of kvm_pmu_incr_counter() and
 * write backports/X.Y/ (series file and patch, with the header convention
 * of backports/), then print the kernels.list line to add.  The tree is
 * read, never written.
 *
 * The header is DEP-3 as Debian's kernel team writes it: the subject
 * prefix names the tree's stable branch (from its Makefile, not NAME);
 * Origin: and Forwarded: name the posting of the revision series/ holds
 * (series/message-id, which make am records), or say it is not posted
 * yet; Bug-Debian: when BUG= gives one; Last-Update:.  The author is the
 * upstream patch's From:, or the operator when it has none (the project's
 * own patches carry none in the repository); the last Signed-off-by, after
 * the backport note, is the operator's own git identity, never a
 * placeholder, with their Co-developed-by: right before it when
 * series/co-developed lists the patch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backport.h"
#include "backport_fixes.h"
#include "core/cocci.h"
#include "core/ident.h"
#include "core/probe.h"
#include "core/toolout.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/run.h"
#include "lib/usage.h"
#include "sources/source.h"
#include "sources/targets.h"

#define SMPL COCCI_SMPL
/* The patch of series/ the variant comes from: NNNN-<this>. */
#define PATCH_SUFFIX "-KVM-x86-pmu-Batch-counter-reprograms-for-emulated-in.patch"

static char *spatch_outcome(const char *tree, const char *work)
{
	struct strbuf why = STRBUF_INIT;
	char *repo = abspath("."), *outcome = NULL;

	if (cocci_run(repo, tree, work, 1, "/dev/null", 600, &outcome, &why))
		error("%s", why.buf);
	strbuf_release(&why);
	free(repo);
	return outcome;
}

/* diff -u of every input spatch changed, with git-style headers. */
static int make_diff(const char *work, struct strbuf *diff)
{
	size_t i;

	for (i = 0; i < nr_cocci_inputs; i++) {
		struct strbuf out = STRBUF_INIT;
		struct child c = CHILD_INIT;
		char *a = xstrfmt("a/%s", cocci_inputs[i]);
		char *b = xstrfmt("b/%s", cocci_inputs[i]);

		strvec_pushl(&c.args, "diff", "-u", "--label", a, "--label", b,
			     a, b, NULL);
		c.dir = work;
		c.out = &out;
		c.log = "/dev/null";
		if (run_child(&c) == 1)
			strbuf_addf(diff, "diff --git a/%s b/%s\n%s", cocci_inputs[i],
				    cocci_inputs[i], out.buf);
		child_clear(&c);
		strbuf_release(&out);
		free(a);
		free(b);
	}
	return diff->len ? 0 : -1;
}

/* The name of the knob's patch in series/series, or NULL after an error. */
static char *upstream_name(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *name = NULL;
	struct line l;

	if (strbuf_read_file(&sb, "series/series", 1 << 20) >= 0)
		for_each_line(l, sb.buf)
			if (l.len > strlen(PATCH_SUFFIX) && *l.s != '#' &&
			    !memchr(l.s, '/', l.len) &&
			    !strncmp(l.s + l.len - strlen(PATCH_SUFFIX),
				     PATCH_SUFFIX, strlen(PATCH_SUFFIX)))
				name = xstrfmt("%.*s", (int)l.len, l.s);
	strbuf_release(&sb);
	if (!name)
		error("series/series lists no NNNN%s: the variant is made from it",
		      PATCH_SUFFIX);
	return name;
}

/*
 * The variant copies the upstream patch's author and trailers: none may
 * be a placeholder.  0, or -1 after saying which line is one.
 */
static int upstream_checked(void)
{
	struct strvec one = STRVEC_INIT;
	char *name = upstream_name();
	int bad = 1;

	if (name) {
		strvec_pushf(&one, "series/%s", name);
		bad = ident_refuse_patches(&one, "backport");
	}
	strvec_clear(&one);
	free(name);
	return bad ? -1 : 0;
}

/*
 * The upstream patch's From: (empty when it has none), Subject: text and
 * message body.
 */
static int upstream_message(const char *path, struct strbuf *from,
			    struct strbuf *subject, struct strbuf *body)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *s, *e;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0)
		return -1;
	p = strstr(sb.buf, "\nFrom: ");
	s = strstr(sb.buf, "\nSubject: [PATCH");
	e = strstr(sb.buf, "\n\n");
	if (!s || !e || !strstr(e, "\n---\n"))
		goto fail;
	if (p && p < e)
		strbuf_add(from, p + 7, strcspn(p + 7, "\n"));
	s = strchr(s, ']') + 2;
	while (*s && s < e) {
		size_t n = strcspn(s, "\n");

		strbuf_add(subject, s, n);
		s += n + 1;
		if (*s != ' ')
			break;
	}
	strbuf_add(body, e + 2, strstr(e, "\n---\n") - (e + 2) + 1);
	strbuf_release(&sb);
	return 0;
fail:
	strbuf_release(&sb);
	return -1;
}

/* What SERIES "auto" reads to know what the variant was made for. */
static int write_variant_file(const char *dir, const char *shape,
			      long version)
{
	char *path = xstrfmt("%s/variant", dir), *text;
	int ret;

	if (version < 0)
		text = xstrfmt("shape: %s\n", shape);
	else
		text = xstrfmt("shape: %s\nkernel: %ld.%ld\n", shape,
			       version / 1000, version % 1000);
	ret = write_file(path, text, strlen(text));
	free(text);
	free(path);
	return ret;
}

/* BUG=: a Debian bug number (or its URL), as Bug-Debian: wants it. */
static int dep3_bug(const char *bug, struct strbuf *out)
{
	const char *n;

	if (!bug || !*bug)
		return 0;
	if (!skip_prefix(bug, "https://bugs.debian.org/", &n) &&
	    !skip_prefix(bug, "#", &n))
		n = bug;
	if (!*n || strspn(n, "0123456789") != strlen(n) || strlen(n) > 9) {
		error("BUG='%s' is not a Debian bug: give its number, e.g. BUG=1234567", bug);
		return -1;
	}
	strbuf_addf(out, "Bug-Debian: https://bugs.debian.org/%s\n", n);
	return 0;
}

/*
 * The backporter's trailers, after the note: the operator's Signed-off-by,
 * with their Co-developed-by: right before it for a patch
 * series/co-developed lists whose author is someone else
 * (Documentation/process/submitting-patches.rst: the pair last); none
 * again when the message has it.  Written here, not by git
 * interpret-trailers: the note is no trailer, and interpret-trailers
 * would start a paragraph of its own after it.
 */
static int backporter_trailers(const char *name, const char *author,
			       const char *body, const struct ident *me,
			       struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	char *sob = xstrfmt("\nSigned-off-by: %s\n", me->full);
	int codev = ident_co_developed("series/co-developed", name, &err);

	if (codev < 0) {
		fprintf(stderr, "kverify: %s", err.buf);
		strbuf_release(&err);
		free(sob);
		return -1;
	}
	if (codev > 0 && !strstr(author, me->email))
		strbuf_addf(out, "Co-developed-by: %s\nSigned-off-by: %s\n",
			    me->full, me->full);
	else if (!strstr(body, sob + 1) &&
		 !starts_with(body, sob + 1))
		strbuf_addstr(out, sob + 1);
	strbuf_release(&err);
	free(sob);
	return 0;
}

static int write_variant(const struct backport_args *a, const char *branch,
			 const struct ident *me, const char *dep3,
			 const char *shape, const char *diff)
{
	struct strbuf from = STRBUF_INIT, subj = STRBUF_INIT, body = STRBUF_INIT;
	struct strbuf patch = STRBUF_INIT, trailers = STRBUF_INIT;
	char *dir = xstrfmt("backports/%s", a->name), *path;
	char *name = upstream_name(), *upstream, *text;
	char date[64];
	time_t now = time(NULL);
	int ret = -1;

	if (!name)
		goto out;
	upstream = xstrfmt("series/%s", name);
	ret = upstream_message(upstream, &from, &subj, &body);
	if (ret)
		error("cannot read %s: a git format-patch file is needed",
		      upstream);
	free(upstream);
	if (ret || backporter_trailers(name, from.buf, body.buf, me,
				       &trailers)) {
		ret = -1;
		goto out;
	}
	if (!from.len)	/* the project's own patch: the operator's */
		strbuf_addstr(&from, me->full);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", gmtime(&now));
	strbuf_addf(&patch, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
		    "From: %s\nDate: %s\nSubject: [PATCH %s.y] %s\n%s",
		    from.buf, date, branch, subj.buf, dep3);
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
	strbuf_addf(&patch, "Last-Update: %s\n\n%s", date, body.buf);
	strbuf_addf(&patch, "[ backport to %s.y: generated by the semantic patch\n  %s\n  for the %s shape of kvm_pmu_incr_counter(), with what it can\n  carry of patches 1-4 of the series in the same patch;\n  docs/backports.md says why it is correct and what it does not\n  cover.  The selftest and the documentation entry are not part of\n  this variant. ]\n%s---\n%s",
		    branch, SMPL, shape, trailers.buf, diff);
	/* The signature separator is "-- " with its trailing blank. */
	strbuf_addstr(&patch, "--");
	strbuf_addch(&patch, ' ');
	strbuf_addstr(&patch, "\nkverify\n");
	ret = -1;
	if (mkdir_p(dir))
		goto out;
	path = xstrfmt("%s/%s", dir, name);
	ret = write_file(path, patch.buf, patch.len);
	free(path);
	path = xstrfmt("%s/series", dir);
	text = xstrfmt("%s\n", name);
	ret |= write_file(path, text, strlen(text));
	free(text);
	free(path);
	ret |= write_variant_file(dir, shape, tree_version(a->tree));
	if (!ret)
		printf("wrote %s/series and %s/%s\n", dir, dir, name);
out:
	strbuf_release(&from);
	strbuf_release(&subj);
	strbuf_release(&body);
	strbuf_release(&patch);
	strbuf_release(&trailers);
	free(name);
	free(dir);
	return ret;
}

/* series/series' NNNN-*.patch for @number, or NULL after an error. */
static char *series_patch(const char *number)
{
	struct strbuf sb = STRBUF_INIT;
	char *name = NULL;
	struct line l;

	if (strbuf_read_file(&sb, "series/series", 1 << 20) >= 0)
		for_each_line(l, sb.buf)
			if (!name && l.len > 5 && !strncmp(l.s, number, 4) &&
			    l.s[4] == '-' && !memchr(l.s, '/', l.len))
				name = xstrfmt("%.*s", (int)l.len, l.s);
	strbuf_release(&sb);
	if (!name)
		error("series/series lists no %s-*.patch: the fixes are made from series/'s",
		      number);
	return name;
}

/* One patch of fixes only: series/@name's message, its note and @diff. */
static int compose_fix(const char *branch, const struct ident *me,
		       const char *dep3, const char *name, const char *note,
		       const char *nth, const char *diff, struct strbuf *patch)
{
	struct strbuf from = STRBUF_INIT, subj = STRBUF_INIT, body = STRBUF_INIT;
	struct strbuf trailers = STRBUF_INIT;
	char *upstream = xstrfmt("series/%s", name);
	char date[64];
	time_t now = time(NULL);
	int ret = upstream_message(upstream, &from, &subj, &body);

	if (ret)
		error("cannot read %s: a git format-patch file is needed",
		      upstream);
	else
		ret = backporter_trailers(name, from.buf, body.buf, me,
					  &trailers);
	if (!ret) {
		if (!from.len)	/* the project's own patch: the operator's */
			strbuf_addstr(&from, me->full);
		strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000",
			 gmtime(&now));
		strbuf_addf(patch, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
			    "From: %s\nDate: %s\nSubject: [PATCH %s.y %s] %s\n%s",
			    from.buf, date, branch, nth, subj.buf, dep3);
		strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
		strbuf_addf(patch, "Last-Update: %s\n\n%s[ backport to %s.y: %s\n  Generated by the semantic patch\n  %s. ]\n%s---\n%s",
			    date, body.buf, branch, note, SMPL, trailers.buf,
			    diff);
		/* The signature separator is "-- " with its trailing blank. */
		strbuf_addstr(patch, "--");
		strbuf_addch(patch, ' ');
		strbuf_addstr(patch, "\nkverify\n");
	}
	strbuf_release(&from);
	strbuf_release(&subj);
	strbuf_release(&body);
	strbuf_release(&trailers);
	free(upstream);
	return ret;
}

/*
 * Fixes only (the prev_counter shape): each patch of @set as series/ names
 * it, with its hunks of @diff; the series file lists them in order.
 */
static int write_fixes(const struct backport_args *a, const char *branch,
		       const struct ident *me, const char *dep3,
		       const struct fix_set *set, const char *diff)
{
	struct strbuf *parts = xmalloc(set->nr_patches * sizeof(*parts));
	struct strbuf list = STRBUF_INIT;
	char *dir = xstrfmt("backports/%s", a->name);
	int ret = 0;
	size_t k;

	for (k = 0; k < set->nr_patches; k++)
		strbuf_init(&parts[k]);
	ret = fixes_split(set, diff, parts) || mkdir_p(dir) ? -1 : 0;
	for (k = 0; !ret && k < set->nr_patches; k++) {
		struct strbuf patch = STRBUF_INIT;
		char *name = series_patch(set->patches[k].number);
		char *nth = xstrfmt("%zu/%zu", k + 1, set->nr_patches);
		char *path = name ? xstrfmt("%s/%s", dir, name) : NULL;
		struct strvec one = STRVEC_INIT;

		if (name)
			strvec_pushf(&one, "series/%s", name);
		ret = !name || ident_refuse_patches(&one, "backport") ||
		      compose_fix(branch, me, dep3, name, set->patches[k].note,
				  nth, parts[k].buf, &patch) ||
		      write_file(path, patch.buf, patch.len) ? -1 : 0;
		if (!ret)
			strbuf_addf(&list, "%s\n", name);
		strvec_clear(&one);
		strbuf_release(&patch);
		free(path);
		free(nth);
		free(name);
	}
	if (!ret) {
		char *path = xstrfmt("%s/series", dir);

		ret = write_file(path, list.buf, list.len) ||
		      write_variant_file(dir, set->shape, tree_version(a->tree));
		free(path);
	}
	if (!ret)
		printf("wrote %s/series and %zu patches of fixes only (%s shape: no knob)\n",
		       dir, set->nr_patches, set->shape);
	for (k = 0; k < set->nr_patches; k++)
		strbuf_release(&parts[k]);
	free(parts);
	strbuf_release(&list);
	free(dir);
	return ret;
}

/* The knob's variant, or for the prev_counter shape the fixes only. */
static int write_shape(const struct backport_args *a, const char *branch,
		       const struct ident *me, const char *dep3,
		       const char *shape, const char *diff)
{
	if (!strcmp(shape, prev_counter_fixes.shape))
		return write_fixes(a, branch, me, dep3, &prev_counter_fixes,
				   diff);
	return write_variant(a, branch, me, dep3, shape, diff);
}

int cmd_backport(const struct backport_args *a)
{
	struct strbuf diff = STRBUF_INIT;
	char *work = NULL, *outcome = NULL, *dir = NULL, *tree = NULL, *branch = NULL;
	enum cocci_outcome kind;
	const char *rest;
	struct strbuf dep3 = STRBUF_INIT, err = STRBUF_INIT;
	struct ident me = { 0 };
	int ret = 2;

	if (!a->tree || !a->name || !plain_name(a->name)) {
		error("backport needs TREE=<kernel tree> and NAME=<X.Y> (letters, digits, ._-)");
		return 2;
	}
	tree = abspath(a->tree);
	if (ident_sender(&me, &err)) {
		fprintf(stderr, "kverify: %s", err.buf);
		goto out;
	}
	if (upstream_checked())
		goto out;
	branch = kernel_release(tree, 0);
	if (!branch) {
		error("%s/Makefile names no VERSION and PATCHLEVEL: TREE= must be a kernel tree (its stable branch names the variant)",
		      tree);
		goto out;
	}
	if (series_origin(&dep3) || dep3_bug(a->bug, &dep3))
		goto out;
	dir = xstrfmt("backports/%s", a->name);
	if (is_dir(dir)) {
		error("%s exists: remove it or pick another NAME", dir);
		goto out;
	}
	if (!a->tmp) {
		error("backport works in a temporary directory in the cache, and there is none (above)");
		ret = EXIT_TOOL;
		goto out;
	}
	/* the process's own $TMPDIR, in the cache */
	work = xstrfmt("%s/backport", a->tmp);
	outcome = !mkdir_p(work) ? spatch_outcome(tree, work) : NULL;
	if (!outcome) {
		error("the semantic patch printed no outcome for %s", tree);
		goto clean;
	}
	printf("semantic patch: %s\n", outcome);
	kind = cocci_outcome(outcome, &rest);
	if (kind == COCCI_NOT_APPLICABLE) {
		printf("kernels.list line:\n%s\tdir:%s\tn/a: %s\n", a->name,
		       tree, rest);
		ret = 0;
	} else if (kind != COCCI_APPLIED) {
		error("%s: nothing to generate (%s)", tree, outcome);
		ret = 1;
	} else if (make_diff(work, &diff) ||
		   write_shape(a, branch, &me, dep3.buf, rest, diff.buf)) {
		error("could not write %s", dir);
		ret = 1;
	} else {
		printf("kernels.list line:\n%s\tdir:%s\t%s\n", a->name, tree,
		       dir);
		ret = 0;
	}
clean:
	if (work)
		rm_rf(work);
out:
	free(work);
	strbuf_release(&diff);
	strbuf_release(&dep3);
	strbuf_release(&err);
	ident_clear(&me);
	free(branch);
	free(outcome);
	free(dir);
	free(tree);
	return ret;
}
