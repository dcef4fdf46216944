// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's kernel: the module dirs beyond arch/x86/kvm whose sources
 * include KVM's headers, for the kabi step.  Found in the patched tree at
 * build time (KABI_DIRS), their CRCs computed (debian_kabi.c) or, with
 * CONFIG_GENDWARFKSYMS, their modules built, unless the stamp of what
 * they were computed from says they are current (debian_modules.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/series.h"
#include "core/step.h"
#include "kernels/debian.h"
#include "kernels/debian_int.h"
#include "lib/fsutil.h"
#include "lib/hash.h"

/*
 * kABI beyond arch/x86/kvm: a module elsewhere whose sources include
 * <linux/kvm_host.h> (drivers/vfio: vfio_file_set_kvm(struct file *,
 * struct kvm *)) has CRCs that KVM's headers move.  Found from the patched
 * tree, not a list: each .c under drivers/ and arch/x86/ (bar KVM's own)
 * that includes it, whose object its directory's Makefile builds in
 * Debian's .config, in a directory where Debian's Module.symvers has a
 * module: that directory's CRCs are computed (debian_kabi.c) and
 * compared.  One whose directory has none is in vmlinux, which this mode
 * does not rebuild: it is named in the kabi step's reason.  The list is
 * written beside the objtree at build time, "module DIR" or "vmlinux
 * FILE" a line.
 */

/*
 * Does @mk (a Makefile's text) build @obj ("vfio_main.o") in @config?  The
 * line that names it, its $(CONFIG_X) set to y or m; a part of a composite
 * object ("vfio-y += vfio_main.o", "vfio_ap-objs := ... vfio_ap_ops.o")
 * only when the composite is built too (@depth: how deep, at most 4).
 */
static int makefile_builds(const char *mk, const char *obj, const char *config,
			   int depth)
{
	char *text = xstrdup(mk), *p, *line, *save = NULL;
	size_t n = strlen(obj);
	int built = 0;

	/* continuation lines joined: the CONFIG_ is on the first */
	for (p = text; (p = strstr(p, "\\\n")); )
		p[0] = p[1] = ' ';
	for (line = strtok_r(text, "\n", &save); line && !built && depth < 4;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *at = line, *cfg;
		size_t lhs = strcspn(line, " \t+:=");

		while ((at = strstr(at, obj)) &&
		       ((at > line && !strchr(" \t=", at[-1])) ||
			(at[n] && !strchr(" \t", at[n]))))
			at += n;
		if (!at || *line == '#' || at < line + lhs)
			continue;
		cfg = strstr(line, "$(CONFIG_");
		if (cfg && cfg < at) {
			char *sym = xstrfmt("%.*s", (int)strcspn(cfg + 2, ")"),
					    cfg + 2);
			char *y = xstrfmt("\n%s=y\n", sym);
			char *m = xstrfmt("\n%s=m\n", sym);

			built = strstr(config, y) || strstr(config, m);
			free(sym);
			free(y);
			free(m);
		} else {
			built = 1;
		}
		if (built && !starts_with(line, "obj-")) {
			/* "NAME-y", "NAME-objs", "NAME-$(CONFIG_X)" */
			const char *dash = cfg && cfg < line + lhs ? cfg - 1 :
					   line + lhs;
			char *comp;

			while (dash > line && *dash != '-')
				dash--;
			comp = xstrfmt("%.*s.o", (int)(dash - line), line);
			built = dash > line &&
				makefile_builds(mk, comp, config, depth + 1);
			free(comp);
		}
	}
	free(text);
	return built;
}

/* Has Debian's Module.symvers text a module right in @dir? */
static int symvers_has_module_in(const char *symvers, const char *dir)
{
	char *want = xstrfmt("\t%s/", dir);
	const char *p = symvers;
	int found = 0;

	while (!found && (p = strstr(p, want))) {
		p += strlen(want);
		found = !memchr(p, '/', strcspn(p, "\t\n"));
	}
	free(want);
	return found;
}

static int find_kabi_dirs(const struct verify_ctx *ctx, struct step_result *r,
			  struct strbuf *list)
{
	struct strbuf out = STRBUF_INIT, config = STRBUF_INIT,
		      symvers = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *hdr = headers_dir(&ctx->config), *path;
	struct strvec dirs = STRVEC_INIT;
	struct line l;

	path = xstrfmt("%s/.config", hdr);
	strbuf_addch(&config, '\n');
	strbuf_read_file(&config, path, 16 << 20);
	free(path);
	path = xstrfmt("%s/Module.symvers", hdr);
	strbuf_read_file(&symvers, path, 64 << 20);
	free(path);
	strvec_pushl(&c.args, "grep", "-rl", "--include=*.c", "-e",
		     "^#include <linux/kvm_host.h>", "drivers", "arch/x86",
		     NULL);
	c.dir = ctx->tree;
	c.out = &out;
	c.log = r->log;
	run_child(&c);		/* 1: none */
	child_clear(&c);
	for_each_line(l, out.buf) {
		char *f = xstrfmt("%.*s", (int)strcspn(l.s, "\n"), l.s);
		char *slash = strrchr(f, '/'), *obj, *mk;
		struct strbuf text = STRBUF_INIT;

		if (!slash || starts_with(f, KVM_DIR "/")) {
			free(f);
			continue;
		}
		*slash = '\0';
		obj = xstrfmt("%.*s.o", (int)(strlen(slash + 1) - 2), slash + 1);
		mk = xstrfmt("%s/%s/Makefile", ctx->tree, f);
		strbuf_read_file(&text, mk, 1 << 20);
		if (!makefile_builds(text.buf, obj, config.buf, 0)) {
			/* not built for amd64 (vfio_pci_zdev.c: s390) */
		} else if (symvers_has_module_in(symvers.buf, f)) {
			if (!strvec_has(&dirs, f)) {
				strvec_push(&dirs, f);
				strbuf_addf(list, "module %s\n", f);
			}
		} else {
			strbuf_addf(list, "vmlinux %s/%s\n", f, slash + 1);
		}
		strbuf_release(&text);
		free(mk);
		free(obj);
		free(f);
	}
	strvec_clear(&dirs);
	strbuf_release(&out);
	strbuf_release(&config);
	strbuf_release(&symvers);
	free(hdr);
	return 0;
}

/*
 * With CONFIG_GENDWARFKSYMS the CRCs come from the objects' DWARF: @dir
 * built as the kvm modules are, in the sandbox, writing only that
 * directory, and its Module.symvers kept as KABI_SYMVERS.
 */
static int compile_kabi_dir(const struct verify_ctx *ctx, struct step_result *r,
			    const struct child *kvm, const char *dir)
{
	struct child c = CHILD_INIT;
	char *rw[3] = { NULL, NULL, NULL }, *from, *to;
	size_t j;
	int ret;

	for (j = 0; j < kvm->args.nr; j++)
		if (starts_with(kvm->args.v[j], "M="))
			strvec_pushf(&c.args, "M=%s/%s", ctx->kvm_tree, dir);
		else
			strvec_push(&c.args, kvm->args.v[j]);
	for (j = 0; j < kvm->env.nr; j++)
		strvec_push(&c.env, kvm->env.v[j]);
	c.root = kvm->root;
	c.bind = kvm->bind;
	rw[0] = xstrfmt("%s/%s", ctx->kvm_tree, dir);
	rw[1] = ccache_dir(&c) ? xstrdup(ccache_dir(&c)) : NULL;
	ret = step_run_sandboxed(ctx, r, &c, (const char *const *)rw);
	from = xstrfmt("%s/Module.symvers", rw[0]);
	to = xstrfmt("%s/%s", rw[0], KABI_SYMVERS);
	if (!ret && copy_file(from, to)) {
		strbuf_addf(&r->reason, "cannot copy %s to %s: %s", from, to,
			    strerror(errno));
		ret = -1;
	}
	free(from);
	free(to);
	free(rw[0]);
	free(rw[1]);
	child_clear(&c);
	return ret;
}

/*
 * The modules outside arch/x86/kvm that include KVM's headers (above):
 * each directory's CRCs from genksyms, as kbuild computes them, without
 * compiling it (debian_kabi.c), or built when the CRCs need the objects;
 * for another flavour, in its copy.
 */
int build_kabi_dirs(const struct verify_ctx *ctx, struct step_result *r,
			   const struct child *kvm)
{
	struct strbuf list = STRBUF_INIT, config = STRBUF_INIT;
	struct strvec dirs = STRVEC_INIT, files = STRVEC_INIT;
	char *path = xstrfmt("%s/%s", ctx->config.kbuild, KABI_DIRS);
	char *hdr = headers_dir(&ctx->config), *cfg = xstrfmt("%s/.config", hdr);
	size_t i;
	int ret, dwarf;

	unlink(path);
	strbuf_addch(&config, '\n');
	strbuf_read_file(&config, cfg, 16 << 20);
	dwarf = config_value(config.buf, "CONFIG_GENDWARFKSYMS") == 'y';
	ret = find_kabi_dirs(ctx, r, &list);
	kabi_module_dirs(list.buf, &dirs);
	series_files(series_of(ctx), &files, 0);
	for (i = 0; i < dirs.nr && !ret; i++) {
		if (!default_flavour(ctx))
			ret = sync_sources(ctx, dirs.v[i], &files, r);
		if (!ret && dwarf)
			ret = compile_kabi_dir(ctx, r, kvm, dirs.v[i]);
		else if (!ret)
			ret = kabi_genksyms(ctx, r, kvm, dirs.v[i], config.buf);
	}
	if (!ret)
		ret = write_file_atomic(path, list.buf, list.len);
	strbuf_release(&list);
	strbuf_release(&config);
	strvec_clear(&dirs);
	strvec_clear(&files);
	free(path);
	free(cfg);
	free(hdr);
	return ret;
}

/*
 * What the build of the module dirs beyond arch/x86/kvm reads of the tree,
 * and so the list of them: the source, and the content of each file the
 * series touches but KVM's own .c files, Documentation/ and tools/ (a
 * comment edited in pmu.c leaves them as they were); Debian's root, the
 * toolchain and the make command.
 */
char *kabi_stamp(const struct verify_ctx *ctx, const struct child *kvm)
{
	const char *key = ctx->fetch.source.src_key;
	uint64_t h = hash_bytes(HASH_INIT, key, strlen(key));
	struct strvec files = STRVEC_INIT;
	size_t i;

	/* how: genksyms (debian_kabi.c), not the modules kbuild compiled */
	h = hash_bytes(h, KABI_SYMVERS, strlen(KABI_SYMVERS));
	h = hash_bytes(h, ctx->config.debian->root,
		       strlen(ctx->config.debian->root));
	if (ctx->config.toolchain)
		h = hash_bytes(h, ctx->config.toolchain, strlen(ctx->config.toolchain));
	for (i = 0; i < kvm->args.nr; i++)
		if (!starts_with(kvm->args.v[i], "-j") &&
		    !starts_with(kvm->args.v[i], "M="))
			h = hash_bytes(h, kvm->args.v[i], strlen(kvm->args.v[i]) + 1);
	series_files(series_of(ctx), &files, 0);
	for (i = 0; i < files.nr; i++) {
		const char *f = files.v[i];
		char *path;

		if (starts_with(f, "Documentation/") || starts_with(f, "tools/") ||
		    ((starts_with(f, KVM_DIR "/") || starts_with(f, "virt/kvm/")) &&
		     ends_with(f, ".c")))
			continue;
		h = hash_bytes(h, f, strlen(f) + 1);
		path = xstrfmt("%s/%s", ctx->tree, f);
		if (hash_file(&h, path))
			h = hash_bytes(h, "gone", 4);
		free(path);
	}
	strvec_clear(&files);
	return xstrfmt("%016llx", (unsigned long long)h);
}

char *kabi_stamp_path(const struct verify_ctx *ctx)
{
	return xstrfmt("%s/%s.stamp", ctx->config.kbuild, KABI_DIRS);
}

/*
 * Were the CRCs of the module dirs beyond arch/x86/kvm computed (and kept)
 * from what @stamp says, their KABI_SYMVERS in the tree?  Their names in @dirs.
 */
int kabi_dirs_current(const struct verify_ctx *ctx, const char *stamp,
			     struct strvec *dirs)
{
	char *path = kabi_stamp_path(ctx), *had = read_first_line(path);
	char *list_path = xstrfmt("%s/%s", ctx->config.kbuild, KABI_DIRS);
	struct strbuf list = STRBUF_INIT;
	int current = had && !strcmp(had, stamp) &&
		      !strbuf_read_file(&list, list_path, 1 << 20);
	size_t i;

	kabi_module_dirs(list.buf, dirs);
	for (i = 0; current && i < dirs->nr; i++) {
		char *symvers = xstrfmt("%s/%s/%s", ctx->kvm_tree, dirs->v[i],
					KABI_SYMVERS);

		current = is_file(symvers);
		free(symvers);
	}
	strbuf_release(&list);
	free(list_path);
	free(had);
	free(path);
	return current;
}

/* "; drivers/vfio up to date: ..." for the module dirs @dirs kept. */
void note_kabi_dirs_kept(struct strbuf *reason, const struct strvec *dirs)
{
	size_t i;

	if (!dirs->nr)
		return;
	strbuf_addstr(reason, "; ");
	for (i = 0; i < dirs->nr; i++)
		strbuf_addf(reason, "%s%s", i ? ", " : "", dirs->v[i]);
	strbuf_addstr(reason, " up to date: no header the series touches, and none of their files, changed since their build");
}
