// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's kernel (debian_packages.c): the patched KVM modules built
 * against its headers.
 *
 * build: make -C <objtree> M=<tree>/arch/x86/kvm modules, with the build
 *	step's warnings policy; vermagic must be Debian's.  Another flavour
 *	builds in a copy of the tree's arch/x86/kvm and virt/kvm sources
 *	(trees/<target>@<flavour>), the srctree still the patched tree, so
 *	that each flavour keeps its own objects.
 * kabi: the CRCs of the other modules that include KVM's headers, from
 *	genksyms as kbuild runs it but with no compile (debian_kabi.c), so
 *	that the kabi step compares the CRCs of every symbol the patched
 *	modules export against Debian's Module.symvers for that version.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/series.h"
#include "core/step.h"
#include "core/symvers.h"
#include "kernels/debian.h"
#include "kernels/modinfo.h"
#include "lib/fsutil.h"
#include "lib/hash.h"

/* The modules arch/x86/kvm builds, in load order. */
const char *const kvm_modules[NR_KVM_MODULES] = { "kvm", "kvm-amd", "kvm-intel" };

char *kvm_module_path(const struct verify_ctx *ctx, const char *name)
{
	return xstrfmt("%s/%s/%s.ko", ctx->kvm_tree, KVM_DIR, name);
}
/* vermagic of the rebuilt kvm.ko: Debian's release, or the step fails. */
static int check_vermagic(const struct verify_ctx *ctx, struct step_result *r)
{
	struct strbuf info = STRBUF_INIT;
	char *ko = kvm_module_path(ctx, "kvm");
	const char *magic = NULL;
	char *want = xstrfmt("%s ", ctx->config.debian->release);
	int ret = -1;

	if (!read_modinfo(ko, &info))
		magic = modinfo_get(&info, "vermagic");
	if (!magic)
		strbuf_addf(&r->reason, "%s has no .modinfo vermagic", ko);
	else if (!starts_with(magic, want))
		strbuf_addf(&r->reason, "vermagic '%s' is not Debian's %s",
			    magic, ctx->config.debian->release);
	else
		ret = 0;
	if (!ret) {
		strbuf_addf(&r->reason, "; vermagic %s", magic);
		strbuf_trim_trailing(&r->reason);
	}
	strbuf_release(&info);
	free(want);
	free(ko);
	return ret;
}

/*
 * What the modules were built from: the tree (and the patched files' mtimes),
 * Debian's root, the make command.
 */
static char *modules_stamp(const struct verify_ctx *ctx, const struct child *c)
{
	char *tree = tree_stamp(ctx), *ko = kvm_module_path(ctx, "kvm");
	uint64_t h = hash_bytes(HASH_INIT, tree, strlen(tree));
	struct stat st;
	size_t i;

	h = hash_patched_mtimes(ctx, h);
	h = hash_bytes(h, ctx->config.debian->root,
		       strlen(ctx->config.debian->root));
	if (ctx->config.toolchain)
		h = hash_bytes(h, ctx->config.toolchain, strlen(ctx->config.toolchain));
	for (i = 0; i < c->args.nr; i++)
		if (!starts_with(c->args.v[i], "-j"))
			h = hash_bytes(h, c->args.v[i], strlen(c->args.v[i]) + 1);
	if (!stat(ko, &st)) {
		h = hash_bytes(h, &st.st_ino, sizeof(st.st_ino));
		h = hash_bytes(h, &st.st_size, sizeof(st.st_size));
		h = hash_bytes(h, &st.st_mtim, sizeof(st.st_mtim));
	}
	free(tree);
	free(ko);
	return xstrfmt("%016llx", (unsigned long long)h);
}

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

/* The "module DIR" lines of @list. */
void kabi_module_dirs(const char *list, struct strvec *dirs)
{
	struct line l;

	for_each_line(l, list)
		if (l.len > 7 && starts_with(l.s, "module "))
			strvec_pushf(dirs, "%.*s", (int)(strcspn(l.s, "\n") - 7),
				     l.s + 7);
}

/*
 * kbuild writes an M= build's objects into the tree, and the tree step makes
 * a fresh tree when a patch changes: without them, kbuild would compile
 * every object again.  After a good build, what is neither in the pristine
 * source nor a file the series names (kbuild's objects, .cmd files,
 * modules, generated headers) is copied to <build>/kvm-objects; before a
 * build, what a fresh tree lacks is copied back, with its mtime, and
 * kbuild rebuilds only what changed.
 */
static const char *const module_dirs[] = { KVM_DIR, "virt/kvm" };

/*
 * A copy of its own, with its mtime: the sandboxed build writes into
 * kbuild's files (.cmd) in place, and a link would let it write the kept
 * copy (and the sandbox may write no file with a second link: sandbox.c).
 */
static void copy_keeping_mtime(const char *from, const char *to)
{
	struct timespec ts[2];
	struct stat st;

	if (stat(from, &st) || copy_file(from, to))
		return;
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	utimensat(AT_FDCWD, to, ts, AT_SYMLINK_NOFOLLOW);
}

/*
 * @rel (tree-relative) is the build's: not in the pristine source (@pristine
 * its path there, NULL: not asked) and no file the series names.
 */
static int build_output(const char *pristine, const struct strvec *series,
			const char *rel)
{
	struct stat st;

	return (!pristine || lstat(pristine, &st)) && !strvec_has(series, rel);
}

static void copy_objects(const char *from, const char *to, const char *pristine,
			 const char *rel, const struct strvec *series)
{
	struct dirent *de;
	DIR *d = opendir(from);

	while (d && (de = readdir(d))) {
		char *f, *t, *p = NULL, *sub;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		f = xstrfmt("%s/%s", from, de->d_name);
		t = xstrfmt("%s/%s", to, de->d_name);
		sub = xstrfmt("%s/%s", rel, de->d_name);
		if (pristine)
			p = xstrfmt("%s/%s", pristine, de->d_name);
		if (lstat(f, &st)) {
			/* gone meanwhile */
		} else if (S_ISDIR(st.st_mode)) {
			copy_objects(f, t, p, sub, series);
		} else if (S_ISREG(st.st_mode) && build_output(p, series, sub) &&
			   lstat(t, &st)) {
			copy_keeping_mtime(f, t);
		}
		free(f);
		free(t);
		free(sub);
		free(p);
	}
	if (d)
		closedir(d);
}

/* Copy what is kbuild's from <from>/DIR to <to>/DIR, for each module dir. */
static void copy_module_dirs(const struct verify_ctx *ctx, const char *from,
			     const char *to, const char *pristine)
{
	struct strvec dirs = STRVEC_INIT, series = STRVEC_INIT;
	struct strbuf list = STRBUF_INIT;
	char *path = xstrfmt("%s/%s", ctx->config.kbuild, KABI_DIRS);
	size_t i;

	/* a file of the series is the tree's: the next series may not have it */
	series_names(series_of(ctx), &series);

	for (i = 0; i < ARRAY_SIZE(module_dirs); i++)
		strvec_push(&dirs, module_dirs[i]);
	/* and the last build's other dirs that include KVM's headers */
	strbuf_read_file(&list, path, 1 << 20);
	kabi_module_dirs(list.buf, &dirs);
	for (i = 0; i < dirs.nr; i++) {
		char *f = xstrfmt("%s/%s", from, dirs.v[i]);
		char *t = xstrfmt("%s/%s", to, dirs.v[i]);
		char *p = pristine ? xstrfmt("%s/%s", pristine, dirs.v[i]) :
				     NULL;

		copy_objects(f, t, p, dirs.v[i], &series);
		free(f);
		free(t);
		free(p);
	}
	strvec_clear(&series);
	strvec_clear(&dirs);
	strbuf_release(&list);
	free(path);
}

static char *kept_objects_dir(const struct verify_ctx *ctx)
{
	return xstrfmt("%s/kvm-objects", build_dir(ctx));
}

static void restore_objects(const struct verify_ctx *ctx)
{
	char *kept = kept_objects_dir(ctx);

	copy_module_dirs(ctx, kept, ctx->kvm_tree, NULL);
	free(kept);
}

static void keep_objects(const struct verify_ctx *ctx)
{
	char *kept = kept_objects_dir(ctx);
	char *tmp = xstrfmt("%s.tmp", kept);

	rm_rf(tmp);
	copy_module_dirs(ctx, ctx->kvm_tree, tmp, ctx->fetch.source.src);
	rm_rf(kept);
	rename(tmp, kept);
	free(kept);
	free(tmp);
}

/* The tree's usr/gen_init_cpio, for the initramfs (no kernel build here). */
static int build_gen_init_cpio(const struct verify_ctx *ctx, struct step_result *r)
{
	char *out = xstrfmt("%s/usr/gen_init_cpio", build_dir(ctx));
	char *dir = xstrfmt("%s/usr", build_dir(ctx));
	struct child c = CHILD_INIT;
	int ret = 0;

	if (!is_file(out)) {
		mkdir_p(dir);
		strvec_pushl(&c.args, "gcc", "-O2", "-o", out, NULL);
		strvec_pushf(&c.args, "%s/usr/gen_init_cpio.c", ctx->tree);
		ret = step_run_in_build(ctx, r, &c);
		child_clear(&c);
	}
	free(out);
	free(dir);
	return ret;
}

/* Is @path's content that of @other? */
static int same_bytes(const char *path, const char *other)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int same;

	same = !strbuf_read_file(&a, path, 64 << 20) &&
	       !strbuf_read_file(&b, other, 64 << 20) &&
	       a.len == b.len && !memcmp(a.buf, b.buf, a.len);
	strbuf_release(&a);
	strbuf_release(&b);
	return same;
}

/*
 * Another flavour's module tree: the sources of @rel (a module dir, or one
 * below it) in the tree, those of the pristine source and those the series
 * adds, never kbuild's objects of the amd64 build there.  A file whose
 * bytes changed is written anew, newer than its objects, and kbuild
 * compiles it again; the others keep their mtime, and their objects.
 */
static int sync_sources(const struct verify_ctx *ctx, const char *rel,
			const struct strvec *added, struct step_result *r)
{
	char *from = xstrfmt("%s/%s", ctx->tree, rel);
	struct dirent *de;
	DIR *d = opendir(from);
	int ret = 0;

	if (!d) {
		strbuf_addf(&r->reason, "%s: %s", from, strerror(errno));
		free(from);
		return -1;
	}
	while ((de = readdir(d)) && !ret) {
		char *sub, *f, *t, *p;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		sub = xstrfmt("%s/%s", rel, de->d_name);
		f = xstrfmt("%s/%s", ctx->tree, sub);
		t = xstrfmt("%s/%s", ctx->kvm_tree, sub);
		p = xstrfmt("%s/%s", ctx->fetch.source.src, sub);
		if (lstat(f, &st)) {
			/* gone meanwhile */
		} else if (S_ISDIR(st.st_mode)) {
			ret = sync_sources(ctx, sub, added, r);
		} else if (S_ISREG(st.st_mode) &&
			   (is_file(p) || strvec_has(added, sub)) &&
			   !same_bytes(f, t)) {
			unlink(t);
			ret = copy_file(f, t);
			if (ret)
				strbuf_addf(&r->reason, "cannot copy %s to %s: %s",
					    f, t, strerror(errno));
		}
		free(sub);
		free(f);
		free(t);
		free(p);
	}
	closedir(d);
	free(from);
	return ret;
}

static int sync_kvm_tree(const struct verify_ctx *ctx, struct step_result *r)
{
	struct strvec files = STRVEC_INIT;
	size_t i;
	int ret = 0;

	if (default_flavour(ctx))
		return 0;
	series_files(series_of(ctx), &files, 0);
	for (i = 0; i < ARRAY_SIZE(module_dirs) && !ret; i++)
		ret = sync_sources(ctx, module_dirs[i], &files, r);
	strvec_clear(&files);
	return ret;
}

/*
 * ccache in front of Debian's compiler, as Debian's headers offer it: their
 * .kernelvariables put $(CCACHE) before the compiler when
 * DEBIAN_KERNEL_USE_CCACHE is set.  Where ccache is installed (in the
 * chroot, for a compiler bootstrapped there) and CCACHE is not 0, with the
 * cache's store, as for our own kernel (step.c); returns whether.
 */
static int debian_ccache(const struct verify_ctx *ctx, struct child *c)
{
	char *hdr = headers_dir(&ctx->config);
	char *vars = xstrfmt("%s/.kernelvariables", hdr);
	struct strbuf text = STRBUF_INIT;
	int on = ctx->opt->ccache;

	if (on && ctx->config.toolchain) {
		char *in = xstrfmt("%s/usr/bin/ccache", ctx->config.toolchain);

		on = !access(in, X_OK) && path_has("ccache");
		free(in);
	} else if (on) {
		on = path_has("ccache");
	}
	if (on) {
		strbuf_read_file(&text, vars, 1 << 16);
		on = text.buf && !!strstr(text.buf, "DEBIAN_KERNEL_USE_CCACHE");
	}
	if (on)
		on = ccache_env(ctx, &c->env);
	if (on)
		strvec_push(&c->env, "DEBIAN_KERNEL_USE_CCACHE=1");
	strbuf_release(&text);
	free(vars);
	free(hdr);
	return on;
}

/* kbuild writes an M= build's objects next to its sources. */
static int run_module_build(const struct verify_ctx *ctx,
			    struct step_result *r, struct child *c)
{
	char *dirs[ARRAY_SIZE(module_dirs) + 2] = { NULL };
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(module_dirs); i++)
		dirs[i] = xstrfmt("%s/%s", ctx->kvm_tree, module_dirs[i]);
	if (ccache_dir(c))
		dirs[i] = xstrdup(ccache_dir(c));
	ret = step_run_sandboxed(ctx, r, c, (const char *const *)dirs);
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		free(dirs[i]);
	return ret;
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
static int build_kabi_dirs(const struct verify_ctx *ctx, struct step_result *r,
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
static char *kabi_stamp(const struct verify_ctx *ctx, const struct child *kvm)
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

static char *kabi_stamp_path(const struct verify_ctx *ctx)
{
	return xstrfmt("%s/%s.stamp", ctx->config.kbuild, KABI_DIRS);
}

/*
 * Were the CRCs of the module dirs beyond arch/x86/kvm computed (and kept)
 * from what @stamp says, their KABI_SYMVERS in the tree?  Their names in @dirs.
 */
static int kabi_dirs_current(const struct verify_ctx *ctx, const char *stamp,
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

/*
 * A make killed outright (SIGKILL, the machine gone) leaves objects that
 * look finished and are not: kbuild appends an object's CRCs (#SYMVER) to
 * its .cmd after writing both, so one killed in between has an object
 * newer than its source and no CRC, and the next make keeps it.  A file
 * in <objtree> marks a module build from its start (before the kept
 * objects are put back) to its end; when a build finds it, what was
 * written in the module tree since, neither the source's nor a file the
 * series names, is removed, to be made again.
 */
#define MODULES_BUILDING ".kverify-modules-building"

static void drop_outputs_since(const struct verify_ctx *ctx, const char *rel,
			       const struct strvec *series,
			       const struct timespec *since)
{
	char *dir = xstrfmt("%s/%s", ctx->kvm_tree, rel);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *sub, *path, *pristine;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = xstrfmt("%s/%s", rel, de->d_name);
		path = xstrfmt("%s/%s", ctx->kvm_tree, sub);
		pristine = xstrfmt("%s/%s", ctx->fetch.source.src, sub);
		if (lstat(path, &st)) {
			/* gone meanwhile */
		} else if (S_ISDIR(st.st_mode)) {
			drop_outputs_since(ctx, sub, series, since);
		} else if ((st.st_mtim.tv_sec > since->tv_sec ||
			    (st.st_mtim.tv_sec == since->tv_sec &&
			     st.st_mtim.tv_nsec >= since->tv_nsec)) &&
			   build_output(pristine, series, sub)) {
			unlink(path);
		}
		free(sub);
		free(path);
		free(pristine);
	}
	if (d)
		closedir(d);
	free(dir);
}

/* The marker of an unfinished build: what it wrote removed; 1 if there was one. */
static int drop_unfinished_build(const struct verify_ctx *ctx, const char *marker)
{
	/* arch/x86/kvm, virt/kvm, and where the kabi dirs may be */
	static const char *const dirs[] = { "arch/x86", "virt/kvm", "drivers" };
	struct strvec series = STRVEC_INIT;
	struct stat st;
	size_t i;

	if (stat(marker, &st))
		return 0;
	series_names(series_of(ctx), &series);
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		drop_outputs_since(ctx, dirs[i], &series, &st.st_mtim);
	strvec_clear(&series);
	unlink(marker);
	return 1;
}

static int mark_building(const char *marker, struct step_result *r)
{
	if (!write_file(marker, "", 0))
		return 0;
	strbuf_addf(&r->reason, "cannot write %s: %s", marker, strerror(errno));
	return -1;
}

/*
 * Modules up to date: their objects kept, and the CRCs of the module dirs
 * beyond arch/x86/kvm computed unless current (a kverify that computed
 * none, or compiled those dirs: kabi_stamp() differs), then kept too.
 */
static int up_to_date_modules(const struct verify_ctx *ctx,
			      struct step_result *r, const struct child *c,
			      const char *marker)
{
	char *kept = kept_objects_dir(ctx), *kabi = kabi_stamp(ctx, c);
	char *kabi_path = kabi_stamp_path(ctx);
	struct strvec dirs = STRVEC_INIT;
	int ret = 0;

	if (!is_dir(kept))	/* built by a kverify that kept none */
		keep_objects(ctx);
	if (!kabi_dirs_current(ctx, kabi, &dirs)) {
		unlink(kabi_path);
		ret = mark_building(marker, r) || build_kabi_dirs(ctx, r, c);
		if (!ret) {
			keep_objects(ctx);
			write_file_atomic(kabi_path, kabi, strlen(kabi));
		}
	}
	if (!ret)
		unlink(marker);
	strvec_clear(&dirs);
	free(kabi_path);
	free(kabi);
	free(kept);
	return ret;
}

/* "; drivers/vfio up to date: ..." for the module dirs @dirs kept. */
static void note_kabi_dirs_kept(struct strbuf *reason, const struct strvec *dirs)
{
	size_t i;

	if (!dirs->nr)
		return;
	strbuf_addstr(reason, "; ");
	for (i = 0; i < dirs->nr; i++)
		strbuf_addf(reason, "%s%s", i ? ", " : "", dirs->v[i]);
	strbuf_addstr(reason, " up to date: no header the series touches, and none of their files, changed since their build");
}

/* The make of the kvm modules, against Debian's headers. */
static void kvm_make_command(const struct verify_ctx *ctx, struct child *c)
{
	strvec_pushl(&c->args, "make", "-C", ctx->config.kbuild, NULL);
	strvec_pushf(&c->args, "M=%s/%s", ctx->kvm_tree, KVM_DIR);
	c->root = ctx->config.toolchain;
	c->bind = ctx->cache;
	make_jobs(ctx, c);
	/*
	 * No debug information, which no step reads: about a quarter of the
	 * compile with Debian's configuration.  Debian's packages ship their
	 * modules stripped, and neither the CRCs (genksyms reads the
	 * preprocessed code) nor the vermagic depend on it; without DWARF
	 * there is no BTF to make for the modules either.
	 */
	strvec_pushl(&c->args, "CONFIG_DEBUG_INFO=",
		     "CONFIG_DEBUG_INFO_BTF_MODULES=", NULL);
	strvec_push(&c->args, "modules");
	/* reproducible: Makefile.btf then gives pahole no -j alone (6.12+) */
	strvec_push(&c->env, "KBUILD_BUILD_TIMESTAMP=2026-01-01");
}

enum step_status build_debian_modules(const struct verify_ctx *ctx,
				      struct build_out *out,
				      struct step_result *r)
{
	char *stamp_path = NULL, *stamp = NULL, *had = NULL, *marker = NULL;
	char *kabi = NULL, *kabi_path = NULL;
	enum step_status st = STEP_FAIL;
	struct strvec kabi_dirs = STRVEC_INIT;
	struct child c = CHILD_INIT;
	long h0 = 0, m0 = 0, h1, m1;
	int ccache, build;

	out->ccache_hits = out->ccache_misses = -1;
	if (!ctx->config.kbuild || !ctx->config.debian ||
	    !ctx->config.debian->root) {
		strbuf_addstr(&r->reason, "BOOT=distro: the config step prepares Debian's headers, and it did not run");
		goto out;
	}
	kvm_make_command(ctx, &c);
	ccache = debian_ccache(ctx, &c) && !ccache_counts(ctx, &h0, &m0);
	stamp_path = xstrfmt("%s/.kverify-modules", ctx->config.kbuild);
	marker = xstrfmt("%s/%s", ctx->config.kbuild, MODULES_BUILDING);
	stamp = modules_stamp(ctx, &c);
	had = read_first_line(stamp_path);
	build = drop_unfinished_build(ctx, marker) || !had || strcmp(had, stamp);
	if (!build) {
		strbuf_addstr(&r->reason, "up to date: tree, Debian's headers and make command unchanged since the last build");
		if (up_to_date_modules(ctx, r, &c, marker))
			goto out;
	} else {
		unlink(stamp_path);
		if (mark_building(marker, r))
			goto out;
		restore_objects(ctx);
		if (sync_kvm_tree(ctx, r) || run_module_build(ctx, r, &c))
			goto out;
		if (new_warnings(ctx, r))
			goto out;
		kabi = kabi_stamp(ctx, &c);
		kabi_path = kabi_stamp_path(ctx);
		if (!kabi_dirs_current(ctx, kabi, &kabi_dirs)) {
			strvec_clear(&kabi_dirs);
			unlink(kabi_path);
			if (build_kabi_dirs(ctx, r, &c))
				goto out;
		}
		strbuf_addf(&r->reason, "%s modules built against Debian's %s headers",
			    KVM_DIR, ctx->config.debian->release);
		note_kabi_dirs_kept(&r->reason, &kabi_dirs);
		if (ccache && !ccache_counts(ctx, &h1, &m1)) {
			out->ccache_hits = h1 - h0;
			out->ccache_misses = m1 - m0;
			strbuf_addf(&r->reason, "; ccache %ld hits, %ld misses",
				    out->ccache_hits, out->ccache_misses);
		}
		keep_objects(ctx);
		/* only now: a fresh tree gets back what keep_objects() kept */
		write_file_atomic(kabi_path, kabi, strlen(kabi));
		free(stamp);
		stamp = modules_stamp(ctx, &c);
	}
	if (check_vermagic(ctx, r) || build_gen_init_cpio(ctx, r))
		goto out;
	unlink(marker);
	write_file_atomic(stamp_path, stamp, strlen(stamp));
	out->kernel_built = 1;
	st = STEP_PASS;
out:
	child_clear(&c);
	strvec_clear(&kabi_dirs);
	free(marker);
	free(kabi_path);
	free(kabi);
	free(stamp_path);
	free(stamp);
	free(had);
	return st;
}
