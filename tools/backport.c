// SPDX-License-Identifier: GPL-2.0
/*
 * kverify backport --tree PATH --name X.Y: for a kernel nobody curated yet,
 * let the semantic patch find the shape of kvm_pmu_incr_counter() and
 * write backports/X.Y/ (series file and patch, with the header convention
 * of backports/), then print the kernels.list line to add.  The tree is
 * read, never written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "run.h"
#include "backport.h"

#define SMPL "cocci/emulated_counter_reprogram_tolerance.cocci"
#define UPSTREAM_PATCH "series/0001-KVM-x86-pmu-Batch-counter-reprograms-for-emulated-in.patch"
#define PATCH_NAME "0001-KVM-x86-pmu-Batch-counter-reprograms-for-emulated-in.patch"
#define ORIGIN "https://lore.kernel.org/kvm/20260720192221.72912-1-absandze@amazon.de/"

static const char *const inputs[] = {
	"arch/x86/kvm/pmu.c", "arch/x86/kvm/x86.c", "arch/x86/kvm/x86.h",
};

static int copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	char *dir = xstrdup(to), *slash = strrchr(dir, '/');
	int ret;

	*slash = '\0';
	mkdir_p(dir);
	ret = strbuf_read_file(&sb, from, 64 << 20);
	if (!ret)
		ret = write_file(to, strbuf_str(&sb), sb.len);
	strbuf_release(&sb);
	free(dir);
	return ret;
}

/* Copies of the inputs under work/a (pristine) and work/b (for spatch). */
static int stage(const char *tree, const char *work, struct child *c)
{
	size_t i;
	int n = 0;

	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		char *from = xstrfmt("%s/%s", tree, inputs[i]);
		char *a = xstrfmt("%s/a/%s", work, inputs[i]);
		char *b = xstrfmt("%s/b/%s", work, inputs[i]);

		if (is_file(from) && !copy_file(from, a) && !copy_file(from, b)) {
			strvec_push(&c->args, b);
			n++;
		}
		free(from);
		free(a);
		free(b);
	}
	return n;
}

static char *spatch_outcome(const char *tree, const char *work)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *line = NULL;
	const char *p;

	strvec_pushl(&c.args, "spatch", "--sp-file", SMPL, "--no-includes",
		     "--include-headers", "--in-place", "--very-quiet", NULL);
	if (!stage(tree, work, &c)) {
		fprintf(stderr, "kverify: %s has no arch/x86/kvm/pmu.c: not a kernel tree?\n",
			tree);
		goto out;
	}
	c.out = &out;
	c.log = "/dev/null";
	run_child(&c);
	if (c.spawn_errno) {
		struct strbuf why = STRBUF_INIT;

		child_describe_failure(&c, &why);
		fprintf(stderr, "kverify: %s\n", why.buf);
		strbuf_release(&why);
		goto out;
	}
	for (p = strbuf_str(&out); *p; ) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, "APPLIED ", 8) || !strncmp(p, "ALREADY", 7) ||
		    !strncmp(p, "NOT-APPLICABLE", 14) || !strncmp(p, "UNKNOWN", 7))
			line = xstrfmt("%.*s", (int)n, p);
		p += n + !!p[n];
	}
out:
	child_clear(&c);
	strbuf_release(&out);
	return line;
}

/* diff -u of every input spatch changed, with git-style headers. */
static int make_diff(const char *work, struct strbuf *diff)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		struct strbuf out = STRBUF_INIT;
		struct child c = CHILD_INIT;
		char *a = xstrfmt("a/%s", inputs[i]);
		char *b = xstrfmt("b/%s", inputs[i]);

		strvec_pushl(&c.args, "diff", "-u", "--label", a, "--label", b,
			     a, b, NULL);
		c.dir = work;
		c.out = &out;
		c.log = "/dev/null";
		if (run_child(&c) == 1)
			strbuf_addf(diff, "diff --git a/%s b/%s\n%s", inputs[i],
				    inputs[i], out.buf);
		child_clear(&c);
		strbuf_release(&out);
		free(a);
		free(b);
	}
	return diff->len ? 0 : -1;
}

/* The upstream patch's From:, Subject: text and message body. */
static int upstream_message(struct strbuf *from, struct strbuf *subject,
			    struct strbuf *body)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *s, *e;

	if (strbuf_read_file(&sb, UPSTREAM_PATCH, 1 << 20) < 0)
		return -1;
	p = strstr(sb.buf, "\nFrom: ");
	s = strstr(sb.buf, "\nSubject: [PATCH");
	e = strstr(sb.buf, "\n\n");
	if (!p || !s || !e || !strstr(e, "\n---\n"))
		goto fail;
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

static int write_variant(const struct backport_args *a, const char *shape,
			 const char *diff)
{
	struct strbuf from = STRBUF_INIT, subj = STRBUF_INIT, body = STRBUF_INIT;
	struct strbuf patch = STRBUF_INIT;
	char *dir = xstrfmt("backports/%s", a->name), *path, *ident;
	char date[64];
	time_t now = time(NULL);
	int ret = -1;

	ident = read_first_line("series/IDENTITY");
	if (!ident || upstream_message(&from, &subj, &body)) {
		fprintf(stderr, "kverify: cannot read %s or series/IDENTITY\n",
			UPSTREAM_PATCH);
		goto out;
	}
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", gmtime(&now));
	strbuf_addf(&patch, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
		    "From: %s\nDate: %s\nSubject: [PATCH %s.y] %s\n"
		    "Origin: backport, %s\nForwarded: not-needed\n",
		    from.buf, date, a->name, subj.buf, ORIGIN);
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
	strbuf_addf(&patch, "Last-Update: %s\n\n%s", date, body.buf);
	strbuf_addf(&patch, "[ backport to %s.y: generated by the semantic patch\n  %s\n  for the %s shape of kvm_pmu_incr_counter();\n  docs/backports.md says why it is correct.  The selftest and the\n  documentation entry are not part of this variant. ]\nSigned-off-by: %s\n---\n%s",
		    a->name, SMPL, shape, ident, diff);
	/* The signature separator is "-- " with its trailing blank. */
	strbuf_addstr(&patch, "--");
	strbuf_addch(&patch, ' ');
	strbuf_addstr(&patch, "\nkverify\n");
	if (mkdir_p(dir))
		goto out;
	path = xstrfmt("%s/%s", dir, PATCH_NAME);
	ret = write_file(path, patch.buf, patch.len);
	free(path);
	path = xstrfmt("%s/series", dir);
	ret |= write_file(path, PATCH_NAME "\n", strlen(PATCH_NAME) + 1);
	free(path);
out:
	strbuf_release(&from);
	strbuf_release(&subj);
	strbuf_release(&body);
	strbuf_release(&patch);
	free(ident);
	free(dir);
	return ret;
}

static int valid_name(const char *s)
{
	if (!*s || *s == '.' || *s == '-')
		return 0;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s))
			return 0;
	return 1;
}

int cmd_backport(const struct backport_args *a)
{
	char tmpl[] = "/tmp/kverify-backport.XXXXXX";
	struct strbuf diff = STRBUF_INIT;
	char *work, *outcome = NULL, *dir = NULL, *tree = NULL;
	int ret = 2;

	if (!a->tree || !a->name || !valid_name(a->name)) {
		fprintf(stderr, "kverify: backport needs TREE=<kernel tree> and NAME=<X.Y> (letters, digits, ._-)\n");
		return 2;
	}
	tree = abspath(a->tree);
	dir = xstrfmt("backports/%s", a->name);
	if (is_dir(dir)) {
		fprintf(stderr, "kverify: %s exists: remove it or pick another NAME\n",
			dir);
		goto out;
	}
	work = mkdtemp(tmpl);
	outcome = work ? spatch_outcome(tree, work) : NULL;
	if (!outcome) {
		fprintf(stderr, "kverify: the semantic patch printed no outcome for %s\n",
			tree);
		goto clean;
	}
	printf("semantic patch: %s\n", outcome);
	if (!strncmp(outcome, "NOT-APPLICABLE", 14)) {
		printf("kernels.list line:\n%s\tdir:%s\tn/a: %s\n", a->name,
		       tree, outcome + 15);
		ret = 0;
	} else if (strncmp(outcome, "APPLIED ", 8)) {
		fprintf(stderr, "kverify: %s: nothing to generate (%s)\n", tree,
			outcome);
		ret = 1;
	} else if (make_diff(work, &diff) || write_variant(a, outcome + 8,
							   diff.buf)) {
		fprintf(stderr, "kverify: could not write %s\n", dir);
		ret = 1;
	} else {
		printf("wrote %s/series and %s/%s\nkernels.list line:\n%s\tdir:%s\t%s\n",
		       dir, dir, PATCH_NAME, a->name, tree, dir);
		ret = 0;
	}
clean:
	if (work)
		rm_rf(work);
out:
	strbuf_release(&diff);
	free(outcome);
	free(dir);
	free(tree);
	return ret;
}
