// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's kernel (debian_packages.c): the patched KVM modules built
 * against its headers.
 *
 * build: make -C <objtree> M=<tree>/arch/x86/kvm modules, with the build
 *	step's warnings policy; vermagic must be Debian's.  Another flavour
 *	builds in a copy of the tree's arch/x86/kvm and virt/kvm sources
 *	(trees/<target>@<flavour>), the srctree still the patched tree, so
 *	that each flavour keeps its own objects.  The module tree, its
 *	objects kept between runs and its copies, is debian_modtree.c's.
 * kabi: the CRCs of the other modules that include KVM's headers, from
 *	genksyms as kbuild runs it but with no compile (debian_kabi.c), so
 *	that the kabi step compares the CRCs of every symbol the patched
 *	modules export against Debian's Module.symvers for that version;
 *	which modules, and when their CRCs are current: debian_kabi_dirs.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/series.h"
#include "core/step.h"
#include "core/symvers.h"
#include "kernels/debian.h"
#include "kernels/debian_int.h"
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
