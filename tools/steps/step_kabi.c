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

#include "debian/debian.h"
#include "debian/symvers.h"
#include "lib/fsutil.h"
#include "series.h"
#include "steps/kernel.h"
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

/* What the kabi step tells of the symbols whose CRC is not Debian's. */
struct kabi_diff {
	struct strvec changed, removed, added;
	struct strbuf log;
	const struct symvers_ignore *ignore;	/* the series' kabi.ignore */
	struct strvec ignored;			/* "symbol (reason)" */
};

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
		strvec_push(&d->changed, theirs->sym);
		strbuf_addf(&d->log, "changed %s: Debian %s, ours %s (%s)\n",
			    theirs->sym, theirs->crc, ours->crc, theirs->mod);
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

static enum step_status check_kabi(const struct verify_ctx *ctx, struct step_result *r)
{
	struct symvers_ignore ignore = SYMVERS_IGNORE_INIT;
	struct kabi_diff d = {
		STRVEC_INIT, STRVEC_INIT, STRVEC_INIT, STRBUF_INIT,
		&ignore, STRVEC_INIT
	};
	char *ignore_file = NULL;
	struct symvers ours = SYMVERS_INIT, theirs = SYMVERS_INIT;
	char *mine = NULL, *debian = NULL, *path;
	struct strbuf list = STRBUF_INIT, outside = STRBUF_INIT;
	struct strvec dirs = STRVEC_INIT, structs = STRVEC_INIT;
	enum step_status st = STEP_FAIL;
	size_t i, nkvm = 0, nout = 0, nout_changed = 0, nzero = 0;
	struct line l;

	if (!kernel_of(ctx)->symvers) {
		if (ctx->t->kind != SRC_DEB)
			strbuf_addf(&r->reason, "own-kernel boot: a %s: source has no Debian kernel to compare with",
				    source_kind_name(ctx->t->kind));
		else if (ctx->config.boot_why)
			strbuf_addf(&r->reason, "own-kernel boot: %s",
				    ctx->config.boot_why);
		else
			strbuf_addstr(&r->reason, "own-kernel boot (BOOT=own, CONFIG=, BUILD=objects or a bundle): the kABI is that of Debian's kernel, which BOOT=auto or distro boots");
		return STEP_NA;
	}
	if (!ctx->config.deb_root || !ctx->built.kernel_built) {
		strbuf_addstr(&r->reason, "no modules built against Debian's headers");
		return STEP_SKIP;
	}
	debian = kernel_of(ctx)->symvers(&ctx->config);
	mine = xstrfmt("%s/%s/Module.symvers", ctx->kvm_tree, KVM_DIR);
	path = xstrfmt("%s/%s", ctx->config.kbuild, KABI_DIRS);
	strbuf_read_file(&list, path, 1 << 20);
	free(path);
	kabi_module_dirs(list.buf, &dirs);
	kabi_dirs = &dirs;
	if (symvers_read(&theirs, debian, kabi_module) ||
	    strbuf_read_file(&ours.text, mine, 64 << 20)) {
		strbuf_addf(&r->reason, "cannot read %s or %s", debian, mine);
		goto out;
	}
	for (i = 0; i < dirs.nr; i++) {
		path = xstrfmt("%s/%s/%s", ctx->kvm_tree, dirs.v[i],
			       KABI_SYMVERS);
		if (read_dir_symvers(&ours.text, path, dirs.v[i]))
			strbuf_addf(&r->reason, "cannot read %s; ", path);
		free(path);
	}
	symvers_parse(&ours, kabi_module);
	for (i = 0; i < theirs.nr; i++) {
		if (kvm_module(theirs.v[i].mod))
			nkvm++;
		else
			nout++;
		if (!strcmp(theirs.v[i].crc, "0x00000000"))
			nzero++;
	}
	if (!nkvm) {
		strbuf_addf(&r->reason, "%s lists no symbol of %s's modules",
			    debian, KVM_DIR);
		goto out;
	}
	if (series_of(ctx)->dir) {
		ignore_file = xstrfmt("%s/kabi.ignore", series_of(ctx)->dir);
		if (symvers_ignore_read(&ignore, ignore_file, &r->reason)) {
			strbuf_addstr(&r->reason, " (the series' kabi.ignore: what kabi may accept)");
			goto out;
		}
	}
	symvers_diff(&theirs, &ours, kabi_note, &d);
	for (i = 0; i < theirs.nr; i++) {
		size_t j;

		if (kvm_module(theirs.v[i].mod))
			continue;
		for (j = 0; j < d.changed.nr + d.removed.nr; j++) {
			const char *sym = j < d.changed.nr ? d.changed.v[j] :
					  d.removed.v[j - d.changed.nr];

			if (!strcmp(sym, theirs.v[i].sym)) {
				strbuf_addf(&outside, "%s%s (%s)",
					    nout_changed++ ? ", " : "",
					    sym, theirs.v[i].mod);
				break;
			}
		}
	}
	strbuf_addf(&d.log, "%zu symbols in Debian's %s, %zu in ours\n",
		    theirs.nr, debian, ours.nr);
	write_file(ctx->log, d.log.buf, d.log.len);
	if (d.changed.nr || d.removed.nr) {
		strbuf_addf(&r->reason, "kABI broken against Debian's %s Module.symvers:",
			    ctx->config.deb_release);
		if (d.changed.nr) {
			strbuf_addf(&r->reason, " %zu changed CRC(s):",
				    d.changed.nr);
			name_some(&r->reason, &d.changed);
		}
		if (d.removed.nr) {
			strbuf_addf(&r->reason, "%s %zu removed:",
				    d.changed.nr ? ";" : "", d.removed.nr);
			name_some(&r->reason, &d.removed);
		}
		if (nout_changed)
			strbuf_addf(&r->reason, "; outside %s: %s",
				    KVM_DIR, outside.buf);
		changed_structs(ctx, &structs);
		if (structs.nr) {
			strbuf_addstr(&r->reason, "; the series changes");
			for (i = 0; i < structs.nr; i++)
				strbuf_addf(&r->reason, "%s %s",
					    i ? "," : "", structs.v[i]);
		}
		strbuf_addstr(&r->reason, "; what to do: keep new state out of structures that exported functions reach (a static variable, a structure of the file's own), or add a field at the end of a structure no module allocates inside #ifndef __GENKSYMS__, which hides it from the CRC as Debian's kernel team does");
		strbuf_addstr(&r->detail, d.log.buf);
	} else {
		strbuf_addf(&r->reason, "%zu exported symbols of %s's modules: CRCs equal Debian's %s Module.symvers",
			    nkvm, KVM_DIR, ctx->config.deb_release);
		if (dirs.nr) {
			strbuf_addf(&r->reason, ", and %zu of", nout);
			for (i = 0; i < dirs.nr; i++)
				strbuf_addf(&r->reason, "%s %s", i ? "," : "",
					    dirs.v[i]);
			strbuf_addstr(&r->reason, "'s, which include linux/kvm_host.h");
		}
		st = STEP_PASS;
	}
	if (nzero == theirs.nr)
		strbuf_addf(&r->reason, "; every CRC of Debian's %s is 0x00000000 (built without CONFIG_MODVERSIONS): this compares which symbols are exported, not their types",
			    ctx->config.deb_release);
	for_each_line(l, list.buf)
		if (starts_with(l.s, "vmlinux "))
			strbuf_addf(&r->reason, "; %.*s includes linux/kvm_host.h too, in vmlinux, which is not rebuilt",
				    (int)(strcspn(l.s, "\n") - 8), l.s + 8);
	if (d.added.nr) {
		strbuf_addf(&r->reason, "; %zu added:", d.added.nr);
		name_some(&r->reason, &d.added);
	}
	if (d.ignored.nr) {
		strbuf_addf(&r->reason, "; %zu change(s) accepted by %s/kabi.ignore:",
			    d.ignored.nr, series_of(ctx)->rel);
		name_some(&r->reason, &d.ignored);
	}
out:
	kabi_dirs = NULL;
	strbuf_release(&list);
	strbuf_release(&outside);
	strvec_clear(&dirs);
	strvec_clear(&structs);
	symvers_clear(&ours);
	symvers_clear(&theirs);
	strvec_clear(&d.changed);
	strvec_clear(&d.removed);
	strvec_clear(&d.added);
	strvec_clear(&d.ignored);
	symvers_ignore_clear(&ignore);
	free(ignore_file);
	strbuf_release(&d.log);
	free(mine);
	free(debian);
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
