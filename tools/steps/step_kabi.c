// SPDX-License-Identifier: GPL-2.0
/*
 * kabi: the CRCs of every symbol the rebuilt modules export (KVM's and
 * the modules that include linux/kvm_host.h) against Debian's
 * Module.symvers for that version and flavour, less what the series'
 * kabi.ignore accepts; a change is named with the struct it is in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/series.h"
#include "core/symvers.h"
#include "kernels/debian.h"
#include "kernels/kernel.h"
#include "lib/fsutil.h"
#include "steps/steps.h"

/* @text's lines, without their newlines. */
static void split_lines(const char *text, struct strvec *lines)
{
	struct line l;

	for_each_line(l, text)
		strvec_pushf(lines, "%.*s", (int)strcspn(l.s, "\n"), l.s);
}

/*
 * The top-level structure or union whose body holds line @n (from 1) of
 * @lines: "struct kvm_pmc", or NULL.
 */
static const char *enclosing_struct(const struct strvec *lines, long n)
{
	static char name[128];
	long i;

	for (i = n - 2; i >= 0 && (size_t)i < lines->nr; i--) {
		const char *s = lines->v[i];

		if (!strcmp(s, "};"))
			return NULL;
		if ((starts_with(s, "struct ") || starts_with(s, "union ")) &&
		    ends_with(s, " {")) {
			snprintf(name, sizeof(name), "%.*s",
				 (int)(strlen(s) - 2), s);
			return name;
		}
	}
	return NULL;
}

/* Is @mod (a Module.symvers module path) one arch/x86/kvm builds? */
static int kvm_module(const char *mod)
{
	const char *base = strrchr(mod, '/');
	size_t i;

	base = base ? base + 1 : mod;
	for (i = 0; i < ARRAY_SIZE(kvm_modules); i++)
		if (!strcmp(base, kvm_modules[i]))
			return 1;
	return 0;
}

/* The module dirs of the build's KABI_DIRS list, for kabi_module(). */
static const struct strvec *kabi_dirs;

/* Is @mod one of KVM's, or of a module dir that includes KVM's headers? */
static int kabi_module(const char *mod)
{
	size_t i;

	if (kvm_module(mod))
		return 1;
	for (i = 0; kabi_dirs && i < kabi_dirs->nr; i++) {
		char *under = xstrfmt("/%s/", kabi_dirs->v[i]);
		int in = starts_with(mod, under + 1) || strstr(mod, under);

		free(under);
		if (in)
			return 1;
	}
	return 0;
}

/*
 * The structures the series' header hunks add lines to: for each added
 * line of a .h, the top-level "struct NAME {" (or union) of the patched
 * file that encloses it, "struct kvm_pmc (arch/x86/include/asm/kvm_host.h)".
 */
static void changed_structs(const struct verify_ctx *ctx, struct strvec *out)
{
	const struct strvec *patches = &series_of(ctx)->patches;
	size_t i;

	for (i = 0; i < patches->nr; i++) {
		struct strbuf patch = STRBUF_INIT, file = STRBUF_INIT;
		char *path = NULL;
		struct strvec lines = STRVEC_INIT;
		struct line l;
		long n = 0;

		strbuf_read_file(&patch, patches->v[i], 16 << 20);
		for_each_line(l, patch.buf) {
			size_t len = strcspn(l.s, "\n");
			const char *q;

			if (starts_with(l.s, "+++ ")) {
				free(path);
				path = NULL;
				strvec_clear(&lines);
				q = l.s + 4;
				skip_prefix(q, "b/", &q);
				if ((size_t)(q - l.s) < len &&
				    !memcmp(l.s + len - 2, ".h", 2)) {
					char *f;

					path = xstrfmt("%.*s", (int)(len - (q - l.s)), q);
					f = xstrfmt("%s/%s", ctx->tree, path);
					strbuf_reset(&file);
					strbuf_read_file(&file, f, 16 << 20);
					free(f);
					split_lines(file.buf, &lines);
				}
			} else if (path && starts_with(l.s, "@@ -")) {
				q = strstr(l.s, " +");
				n = q ? strtol(q + 2, NULL, 10) : 0;
			} else if (path && n > 0 && l.s[0] == '+') {
				const char *name = enclosing_struct(&lines, n);

				if (name && !strvec_has(out, name)) {
					char *both = xstrfmt("%s (%s)", name, path);

					if (!strvec_has(out, both))
						strvec_push(out, both);
					free(both);
				}
				n++;
			} else if (path && n > 0 && l.s[0] == ' ') {
				n++;
			}
		}
		free(path);
		strvec_clear(&lines);
		strbuf_release(&patch);
		strbuf_release(&file);
	}
}

/*
 * A module dir's KABI_SYMVERS (genksyms', or an M=@dir build's
 * Module.symvers), appended to @out with each module path as Debian's
 * names it, "drivers/vfio/pci/vfio-pci-core": genksyms' lines have it
 * already, 6.12's modpost writes the absolute path, 7.x's the path below
 * M= ("pci/vfio-pci-core").
 */
static int read_dir_symvers(struct strbuf *out, const char *path,
			    const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *under = xstrfmt("/%s/", dir);
	struct line l;

	if (strbuf_read_file(&sb, path, 64 << 20)) {
		free(under);
		return -1;
	}
	for_each_line(l, sb.buf) {
		size_t len = strcspn(l.s, "\n");
		const char *t1 = memchr(l.s, '\t', len), *t2, *mod;

		t2 = t1 ? memchr(t1 + 1, '\t', len - (t1 + 1 - l.s)) : NULL;
		mod = t2 ? t2 + 1 : NULL;
		if (!mod) {
			strbuf_addf(out, "%.*s\n", (int)len, l.s);
			continue;
		}
		strbuf_add(out, l.s, mod - l.s);
		if (starts_with(mod, under + 1)) {
			/* already Debian's */
		} else if (memmem(mod, len - (mod - l.s), under,
				  strlen(under))) {
			mod = (const char *)memmem(mod, len - (mod - l.s),
						   under, strlen(under)) + 1;
		} else {
			strbuf_addf(out, "%s/", dir);
		}
		strbuf_addf(out, "%.*s\n", (int)(len - (mod - l.s)), mod);
	}
	strbuf_release(&sb);
	free(under);
	return 0;
}

/* What the kabi step tells of the symbols that are not as Debian's. */
struct kabi_diff {
	struct strvec changed, removed, added;
	struct strvec exported;		/* changed export type or namespace */
	struct strbuf log;
	const struct symvers_ignore *ignore;	/* the series' kabi.ignore */
	struct strvec ignored;			/* "symbol (reason)" */
};

static void kabi_note_changed(struct kabi_diff *d, const struct symver *theirs,
			      const struct symver *ours)
{
	if (strcmp(theirs->crc, ours->crc)) {
		strvec_push(&d->changed, theirs->sym);
		strbuf_addf(&d->log, "changed %s: Debian %s, ours %s (%s)\n",
			    theirs->sym, theirs->crc, ours->crc, theirs->mod);
		return;
	}
	strvec_push(&d->exported, theirs->sym);
	strbuf_addf(&d->log, "changed %s: Debian %s %s, ours %s %s (%s)\n",
		    theirs->sym, theirs->export,
		    theirs->ns ? theirs->ns : "(no namespace)", ours->export,
		    ours->ns ? ours->ns : "(no namespace)", theirs->mod);
}

static void kabi_note(enum symver_change change, const struct symver *theirs,
		      const struct symver *ours, void *data)
{
	struct kabi_diff *d = data;
	const char *why = theirs ? symvers_ignored(d->ignore, theirs) : NULL;

	if (why) {
		strvec_pushf(&d->ignored, "%s (%s)", theirs->sym, why);
		strbuf_addf(&d->log, "ignored %s %s (%s): %s\n",
			    change == SYMVER_REMOVED ? "removed" : "changed",
			    theirs->sym, theirs->mod, why);
		return;
	}
	switch (change) {
	case SYMVER_REMOVED:
		strvec_push(&d->removed, theirs->sym);
		strbuf_addf(&d->log, "removed %s (%s %s)\n", theirs->sym,
			    theirs->mod, theirs->crc);
		break;
	case SYMVER_CHANGED:
		kabi_note_changed(d, theirs, ours);
		break;
	case SYMVER_ADDED:
		strvec_push(&d->added, ours->sym);
		strbuf_addf(&d->log, "added %s (%s %s)\n", ours->sym,
			    ours->mod, ours->crc);
		break;
	}
}

static void name_some(struct strbuf *sb, const struct strvec *names)
{
	size_t i;

	for (i = 0; i < names->nr && i < 8; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : " ", names->v[i]);
	if (names->nr > 8)
		strbuf_addf(sb, " and %zu more", names->nr - 8);
}

/* One kabi check: Debian's symbols, ours, and what differs. */
struct kabi_run {
	struct symvers theirs, ours;
	struct symvers_ignore ignore;
	struct kabi_diff d;
	char *debian, *mine, *ignore_file;
	const char *release;	/* of Debian's kernel: its uname -r */
	struct strbuf list, outside;
	struct strvec dirs;
	size_t nkvm, nout, nout_changed, nzero, nexport;
};

/*
 * Why kabi does not run, into @r, and @st NA or SKIP: 1; 0: it runs, on the
 * modules built for @d.
 */
static int kabi_not_run(const struct verify_ctx *ctx, struct step_result *r,
			enum step_status *st, struct kernel_desc *d)
{
	if (!kernel_of(ctx)->symvers) {
		if (ctx->t->kind != SRC_DEB)
			strbuf_addf(&r->reason, "own-kernel boot: a %s: source has no Debian kernel to compare with",
				    source_kind_name(ctx->t->kind));
		else if (ctx->config.boot_why)
			strbuf_addf(&r->reason, "own-kernel boot: %s",
				    ctx->config.boot_why);
		else
			strbuf_addstr(&r->reason, "own-kernel boot (BOOT=own, CONFIG= or BUILD=objects): the kABI is that of Debian's kernel, which BOOT=auto or distro boots");
		*st = STEP_NA;
		return 1;
	}
	if (kernel_describe(ctx, d) || !ctx->built.kernel_built) {
		strbuf_addstr(&r->reason, "no modules built against Debian's headers");
		*st = STEP_SKIP;
		return 1;
	}
	return 0;
}

/*
 * How many symbols of KVM's modules both Module.symvers list with an
 * export type (Debian's always, ours from modpost; genksyms' have none):
 * those whose export type and namespace symvers_diff() compared.
 */
static size_t both_exported(const struct symvers *theirs,
			    const struct symvers *ours)
{
	size_t i = 0, j = 0, n = 0;

	while (i < theirs->nr && j < ours->nr) {
		int cmp = strcmp(theirs->v[i].sym, ours->v[j].sym);

		if (!cmp && theirs->v[i].export && ours->v[j].export &&
		    kvm_module(theirs->v[i].mod))
			n++;
		i += cmp <= 0;
		j += cmp >= 0;
	}
	return n;
}

/* Debian's Module.symvers and ours (KVM's and the kabi dirs'), counted. */
static int kabi_load(const struct verify_ctx *ctx, struct kabi_run *k,
		     struct step_result *r)
{
	char *path;
	size_t i;

	k->debian = kernel_of(ctx)->symvers(&ctx->config);
	k->mine = xstrfmt("%s/%s/Module.symvers", ctx->kvm_tree, KVM_DIR);
	path = xstrfmt("%s/%s", ctx->config.kbuild, KABI_DIRS);
	strbuf_read_file(&k->list, path, 1 << 20);
	free(path);
	kabi_module_dirs(k->list.buf, &k->dirs);
	kabi_dirs = &k->dirs;
	if (symvers_read(&k->theirs, k->debian, kabi_module) ||
	    strbuf_read_file(&k->ours.text, k->mine, 64 << 20)) {
		strbuf_addf(&r->reason, "cannot read %s or %s", k->debian,
			    k->mine);
		return -1;
	}
	for (i = 0; i < k->dirs.nr; i++) {
		path = xstrfmt("%s/%s/%s", ctx->kvm_tree, k->dirs.v[i],
			       KABI_SYMVERS);
		if (read_dir_symvers(&k->ours.text, path, k->dirs.v[i]))
			strbuf_addf(&r->reason, "cannot read %s; ", path);
		free(path);
	}
	symvers_parse(&k->ours, kabi_module);
	for (i = 0; i < k->theirs.nr; i++) {
		if (kvm_module(k->theirs.v[i].mod))
			k->nkvm++;
		else
			k->nout++;
		if (!strcmp(k->theirs.v[i].crc, "0x00000000"))
			k->nzero++;
	}
	k->nexport = both_exported(&k->theirs, &k->ours);
	if (!k->nkvm) {
		strbuf_addf(&r->reason, "%s lists no symbol of %s's modules",
			    k->debian, KVM_DIR);
		return -1;
	}
	return 0;
}

/* The changed or removed symbols of the kabi dirs, in k->outside. */
static void kabi_outside(struct kabi_run *k)
{
	const struct kabi_diff *d = &k->d;
	size_t i, j, nc = d->changed.nr, nr = d->removed.nr;

	for (i = 0; i < k->theirs.nr; i++) {
		if (kvm_module(k->theirs.v[i].mod))
			continue;
		for (j = 0; j < nc + nr + d->exported.nr; j++) {
			const char *sym = j < nc ? d->changed.v[j] :
					  j < nc + nr ? d->removed.v[j - nc] :
					  d->exported.v[j - nc - nr];

			if (!strcmp(sym, k->theirs.v[i].sym)) {
				strbuf_addf(&k->outside, "%s%s (%s)",
					    k->nout_changed++ ? ", " : "",
					    sym, k->theirs.v[i].mod);
				break;
			}
		}
	}
}

static void kabi_fail_reason(const struct verify_ctx *ctx,
			     const struct kabi_run *k, struct step_result *r)
{
	const struct kabi_diff *d = &k->d;
	struct strvec structs = STRVEC_INIT;
	const char *sep = "";
	size_t i;

	strbuf_addf(&r->reason, "kABI broken against Debian's %s Module.symvers:",
		    k->release);
	if (d->changed.nr) {
		strbuf_addf(&r->reason, " %zu changed CRC(s):", d->changed.nr);
		name_some(&r->reason, &d->changed);
		sep = ";";
	}
	if (d->removed.nr) {
		strbuf_addf(&r->reason, "%s %zu removed:", sep, d->removed.nr);
		name_some(&r->reason, &d->removed);
		sep = ";";
	}
	if (d->exported.nr) {
		strbuf_addf(&r->reason, "%s %zu exported otherwise (export type or namespace):",
			    sep, d->exported.nr);
		name_some(&r->reason, &d->exported);
	}
	if (k->nzero == k->theirs.nr)
		strbuf_addf(&r->reason, " (Debian's %s is built without CONFIG_MODVERSIONS, every CRC 0x00000000: names, export types and namespaces compared, not types)",
			    k->release);
	if (k->nout_changed)
		strbuf_addf(&r->reason, "; outside %s: %s", KVM_DIR,
			    k->outside.buf);
	changed_structs(ctx, &structs);
	if (structs.nr) {
		strbuf_addstr(&r->reason, "; the series changes");
		for (i = 0; i < structs.nr; i++)
			strbuf_addf(&r->reason, "%s %s", i ? "," : "",
				    structs.v[i]);
	}
	if (d->changed.nr || d->removed.nr)
		strbuf_addstr(&r->reason, "; what to do: keep new state out of structures that exported functions reach (a static variable, a structure of the file's own), or add a field at the end of a structure no module allocates inside #ifndef __GENKSYMS__, which hides it from the CRC as Debian's kernel team does");
	if (d->exported.nr)
		strbuf_addstr(&r->reason, "; what to do: export each symbol as Debian's kernel does, with the same EXPORT_SYMBOL*() and namespace (the kabi log has both)");
	strbuf_addstr(&r->detail, d->log.buf);
	strvec_clear(&structs);
}

/*
 * What was compared.  With CONFIG_MODVERSIONS, the CRCs; without it
 * (every CRC of Debian's 0x00000000, Debian's 7.x), the names alone, and
 * for KVM's the export type and namespace: Debian keeps no other ABI
 * record of such a kernel (docs/debian.md).
 */
static void kabi_pass_reason(const struct kabi_run *k, struct step_result *r)
{
	int names_only = k->nzero == k->theirs.nr;
	size_t i;

	if (names_only)
		strbuf_addf(&r->reason, "%zu exported symbols of %s's modules: the same names, %zu of them with the same export type and namespace, as Debian's %s Module.symvers",
			    k->nkvm, KVM_DIR, k->nexport,
			    k->release);
	else
		strbuf_addf(&r->reason, "%zu exported symbols of %s's modules: CRCs equal Debian's %s Module.symvers",
			    k->nkvm, KVM_DIR, k->release);
	if (k->dirs.nr) {
		strbuf_addf(&r->reason, ", and %zu of", k->nout);
		for (i = 0; i < k->dirs.nr; i++)
			strbuf_addf(&r->reason, "%s %s", i ? "," : "",
				    k->dirs.v[i]);
		strbuf_addstr(&r->reason, "'s, which include linux/kvm_host.h");
	}
	if (names_only)
		strbuf_addf(&r->reason, "; not their types: Debian's %s is built without CONFIG_MODVERSIONS, every CRC is 0x00000000, and Debian keeps no other ABI file for it",
			    k->release);
}

/* What is said whatever the verdict: vmlinux, added, accepted; export types. */
static void kabi_notes(const struct verify_ctx *ctx, const struct kabi_run *k,
		       struct step_result *r)
{
	struct line l;

	for_each_line(l, k->list.buf)
		if (starts_with(l.s, "vmlinux "))
			strbuf_addf(&r->reason, "; %.*s includes linux/kvm_host.h too, in vmlinux, which is not rebuilt",
				    (int)(strcspn(l.s, "\n") - 8), l.s + 8);
	if (k->nzero != k->theirs.nr)
		strbuf_addf(&r->reason, "; export types and namespaces compared too: %zu of %s's",
			    k->nexport, KVM_DIR);
	if (k->d.added.nr) {
		strbuf_addf(&r->reason, "; %zu added:", k->d.added.nr);
		name_some(&r->reason, &k->d.added);
	}
	if (k->d.ignored.nr) {
		strbuf_addf(&r->reason, "; %zu change(s) accepted by %s/kabi.ignore:",
			    k->d.ignored.nr, series_of(ctx)->rel);
		name_some(&r->reason, &k->d.ignored);
	}
}

static void kabi_clear(struct kabi_run *k)
{
	kabi_dirs = NULL;
	symvers_clear(&k->theirs);
	symvers_clear(&k->ours);
	symvers_ignore_clear(&k->ignore);
	strvec_clear(&k->d.changed);
	strvec_clear(&k->d.removed);
	strvec_clear(&k->d.added);
	strvec_clear(&k->d.exported);
	strvec_clear(&k->d.ignored);
	strbuf_release(&k->d.log);
	free(k->debian);
	free(k->mine);
	free(k->ignore_file);
	strbuf_release(&k->list);
	strbuf_release(&k->outside);
	strvec_clear(&k->dirs);
}

static enum step_status check_kabi(const struct verify_ctx *ctx,
				   struct step_result *r)
{
	struct kabi_run k = {
		.theirs = SYMVERS_INIT, .ours = SYMVERS_INIT,
		.ignore = SYMVERS_IGNORE_INIT,
		.list = STRBUF_INIT, .outside = STRBUF_INIT,
		.dirs = STRVEC_INIT,
	};
	enum step_status st = STEP_FAIL;
	const struct kabi_diff *d = &k.d;
	struct kernel_desc kd;

	if (kabi_not_run(ctx, r, &st, &kd))
		return st;
	k.release = kd.release;
	k.d = (struct kabi_diff){
		STRVEC_INIT, STRVEC_INIT, STRVEC_INIT, STRVEC_INIT,
		STRBUF_INIT, &k.ignore, STRVEC_INIT
	};
	if (kabi_load(ctx, &k, r))
		goto out;
	if (series_of(ctx)->dir) {
		k.ignore_file = xstrfmt("%s/kabi.ignore", series_of(ctx)->dir);
		if (symvers_ignore_read(&k.ignore, k.ignore_file, &r->reason)) {
			strbuf_addstr(&r->reason, " (the series' kabi.ignore: what kabi may accept)");
			goto out;
		}
	}
	symvers_diff(&k.theirs, &k.ours, kabi_note, &k.d);
	kabi_outside(&k);
	strbuf_addf(&k.d.log, "%zu symbols in Debian's %s, %zu in ours\n",
		    k.theirs.nr, k.debian, k.ours.nr);
	write_file(ctx->log, d->log.buf, d->log.len);
	if (d->changed.nr || d->removed.nr || d->exported.nr) {
		kabi_fail_reason(ctx, &k, r);
	} else {
		kabi_pass_reason(&k, r);
		st = STEP_PASS;
	}
	kabi_notes(ctx, &k, r);
out:
	kabi_clear(&k);
	return st;
}

static enum step_status kabi_step_run(const struct verify_ctx *ctx, void *out,
				      struct step_result *r)
{
	(void)out;	/* it has none */
	return check_kabi(ctx, r);
}

const struct step kabi_step = {
	.name = "kabi",
	.run = kabi_step_run,
	.timeout = 300,
	.needs = NEEDS(STEP_IDX_config) | NEEDS(STEP_IDX_build),
};
