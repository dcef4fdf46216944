// SPDX-License-Identifier: GPL-2.0
/*
 * BOOT=distro (--boot distro), for deb: sources: Debian's own built kernel
 * of exactly the source's version, with the patched KVM modules.
 *
 * config: linux-image-<abi>-<flavour>-unsigned (or the signed image where
 *	the suite lists only that one), linux-headers-<abi>-<flavour>, its
 *	-common and its linux-kbuild, through the fetch step's private apt
 *	state, unpacked with dpkg-deb -x into <cache>/debian/<abi>_<version>
 *	(amd64) or <abi>-<flavour>_<version>, once.  The flavour is amd64,
 *	or one of --flavours' others (cloud-amd64, rt-amd64: their own
 *	.config, PREEMPT_RT for rt, and Module.symvers).
 *	A per-target objtree links Debian's headers (.config,
 *	Module.symvers, generated headers, kbuild's scripts) and includes the
 *	patched tree's Makefile: the patched tree is the srctree, so every
 *	header the series changes is the patched one in the build.
 * build: make -C <objtree> M=<tree>/arch/x86/kvm modules, with the build
 *	step's warnings policy; vermagic must be Debian's.  Another flavour
 *	builds in a copy of the tree's arch/x86/kvm and virt/kvm sources
 *	(trees/<target>@<flavour>), the srctree still the patched tree, so
 *	that each flavour keeps its own objects.
 * kabi: the CRCs of every symbol the rebuilt modules export against
 *	Debian's Module.symvers for that version.
 * boot: Debian's vmlinuz, an initramfs with the patched modules and what
 *	they depend on (their own depends= modinfo, resolved in the image).
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apt.h"
#include "fsutil.h"
#include "toolchain.h"
#include "series.h"
#include "debian.h"
#include "steps.h"
#include "symvers.h"

/* The modules arch/x86/kvm builds, in load order. */
const char *const kvm_modules[NR_KVM_MODULES] = { "kvm", "kvm-amd", "kvm-intel" };

/* Module names compare with '-' and '_' alike, as the kernel does. */
static char *mod_name(const char *s, size_t n)
{
	char *m = xstrfmt("%.*s", (int)n, s), *p;

	for (p = m; *p; p++)
		if (*p == '-')
			*p = '_';
	return m;
}

static int apt_query(const struct verify_ctx *ctx, struct step_result *r,
		     struct apt_suite *as, struct strvec *args,
		     struct strbuf *out)
{
	struct child c = CHILD_INIT;
	size_t i;
	int ret;

	apt_suite_args(as, &c, "apt-cache");
	for (i = 0; i < args->nr; i++)
		strvec_push(&c.args, args->v[i]);
	c.out = out;
	ret = step_run(ctx, r, &c);
	child_clear(&c);
	return ret;
}

/* The X.Y of linux-source-X.Y. */
static const char *source_xy(const struct verify_ctx *ctx)
{
	return ctx->t->deb_package + strlen("linux-source-");
}

/*
 * The image package of exactly the source's version: the unsigned one, or
 * the signed one where the suite lists only that (sid, backports).
 */
static int find_image(const struct verify_ctx *ctx,
		      struct config_out *cfg, struct step_result *r,
		      struct apt_suite *as)
{
	struct strvec args = STRVEC_INIT, seen = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *xy = source_xy(ctx), *p;
	char *unsigned_pkg = NULL, *signed_pkg = NULL;
	struct line l;
	size_t i, nnames = 0;
	int ret = -1;

	strvec_pushl(&args, "search", "--names-only", NULL);
	strvec_pushf(&args, "^linux-image-%s[.-].*-%s(-unsigned)?$", xy,
		     ctx->flavour->name);
	if (apt_query(ctx, r, as, &args, &out))
		goto out;
	strvec_clear(&args);
	strvec_push(&args, "show");
	for_each_line(l, out.buf) {
		char *name = xstrfmt("%.*s", (int)strcspn(l.s, "\n "), l.s);

		/* amd64's pattern also matches cloud-amd64 and rt-amd64 */
		if (flavour_owns_package(ctx->flavour, name)) {
			strvec_push(&args, name);
			nnames++;
		}
		free(name);
	}
	strbuf_reset(&out);
	if (nnames && apt_query(ctx, r, as, &args, &out))
		goto out;
	for (p = out.buf; *p; ) {
		const char *end = strstr(p, "\n\n");
		char *pkg, *ver;

		if (!end)
			end = p + strlen(p);
		pkg = deb822_field(p, end, "Package");
		ver = deb822_field(p, end, "Version");
		if (pkg && ver && !strcmp(ver, ctx->fetch.source.deb_version)) {
			char **slot = ends_with(pkg, "-unsigned") ?
				      &unsigned_pkg : &signed_pkg;

			if (!*slot)
				*slot = xstrdup(pkg);
		} else if (ver) {
			for (i = 0; i < seen.nr && strcmp(seen.v[i], ver); i++)
				;
			if (i == seen.nr)
				strvec_push(&seen, ver);
		}
		free(pkg);
		free(ver);
		p = *end ? end + 2 : end;
	}
	cfg->deb_image = unsigned_pkg ? unsigned_pkg : signed_pkg;
	if (unsigned_pkg)
		free(signed_pkg);
	if (!cfg->deb_image) {
		strbuf_reset(&r->reason);
		strbuf_addf(&r->reason, "%s has no linux-image-%s*-%s[-unsigned] of version %s (the source's): BOOT=distro needs Debian's kernel of exactly this version (never another); it lists",
			    ctx->t->deb_suite, xy, ctx->flavour->name,
			    ctx->fetch.source.deb_version);
		for (i = 0; i < seen.nr && i < 6; i++)
			strbuf_addf(&r->reason, " %s", seen.v[i]);
		if (!seen.nr)
			strbuf_addstr(&r->reason, " none");
		goto out;
	}
	p = cfg->deb_image + strlen("linux-image-");
	cfg->deb_release = xstrfmt("%.*s", (int)(strlen(p) -
				   (ends_with(p, "-unsigned") ?
				    strlen("-unsigned") : 0)), p);
	cfg->deb_abi = xstrfmt("%.*s", (int)(strlen(cfg->deb_release) -
				strlen(ctx->flavour->name) - 1),
				cfg->deb_release);
	ret = 0;
out:
	strvec_clear(&args);
	strvec_clear(&seen);
	strbuf_release(&out);
	return ret;
}

/* The next package name of a Depends: field ("a (>= 1), b | c"), or NULL. */
static char *next_dep(char *field, char **save)
{
	char *tok = strtok_r(field, ",|", save);

	if (!tok)
		return NULL;
	while (*tok == ' ')
		tok++;
	tok[strcspn(tok, " (")] = '\0';
	return tok;
}

/*
 * Since 7.x the image package is a metapackage: the vmlinuz is in
 * linux-binary-<abi>-amd64 and the modules in linux-modules-<abi>-amd64,
 * which its Depends name at the same version.  Both, when it names them.
 */
static int find_image_parts(const struct verify_ctx *ctx,
			    struct config_out *cfg, struct step_result *r,
			    struct apt_suite *as, struct strvec *pkgs)
{
	struct strvec args = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	char *dep = NULL, *tok, *save = NULL;
	int ret;

	strvec_pushl(&args, "show", "--no-all-versions", NULL);
	strvec_pushf(&args, "%s=%s", cfg->deb_image, ctx->fetch.source.deb_version);
	ret = apt_query(ctx, r, as, &args, &out);
	if (!ret)
		dep = deb822_field(out.buf, out.buf + out.len, "Depends");
	for (tok = dep ? next_dep(dep, &save) : NULL; tok;
	     tok = next_dep(NULL, &save)) {
		if ((starts_with(tok, "linux-binary-") ||
		     starts_with(tok, "linux-modules-")) &&
		    ends_with(tok, cfg->deb_release))
			strvec_pushf(pkgs, "%s=%s", tok, ctx->fetch.source.deb_version);
	}
	free(dep);
	strvec_clear(&args);
	strbuf_release(&out);
	return ret;
}

/*
 * The headers' -common (-common-rt) and linux-kbuild packages, from their
 * Depends, and
 * the compiler package Debian built with (gcc-12, gcc-14-for-host).
 */
static int find_headers(const struct verify_ctx *ctx,
			struct config_out *cfg, struct step_result *r,
			struct apt_suite *as, struct strvec *pkgs, char **cc)
{
	struct strvec args = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	char *headers = xstrfmt("linux-headers-%s", cfg->deb_release);
	char *dep = NULL, *tok, *save = NULL;
	int common = 0, kbuild = 0;

	strvec_pushl(&args, "show", "--no-all-versions", NULL);
	strvec_pushf(&args, "%s=%s", headers, ctx->fetch.source.deb_version);
	if (!apt_query(ctx, r, as, &args, &out))
		dep = deb822_field(out.buf, out.buf + out.len, "Depends");
	strvec_pushf(pkgs, "%s=%s", cfg->deb_image, ctx->fetch.source.deb_version);
	strvec_pushf(pkgs, "%s=%s", headers, ctx->fetch.source.deb_version);
	for (tok = dep ? next_dep(dep, &save) : NULL; tok;
	     tok = next_dep(NULL, &save)) {
		/* rt-amd64's is linux-headers-<abi>-common-rt */
		if (starts_with(tok, "linux-headers-") &&
		    (ends_with(tok, "-common") || ends_with(tok, "-common-rt")) &&
		    !common++)
			strvec_pushf(pkgs, "%s=%s", tok, ctx->fetch.source.deb_version);
		else if (starts_with(tok, "linux-kbuild-") && !kbuild++)
			strvec_push(pkgs, tok);
		else if (starts_with(tok, "gcc-") && !*cc)
			*cc = xstrdup(tok);
	}
	if (!common || !kbuild) {
		strbuf_reset(&r->reason);
		strbuf_addf(&r->reason, "%s has no %s=%s depending on its -common and linux-kbuild packages",
			    ctx->t->deb_suite, headers, ctx->fetch.source.deb_version);
	}
	free(dep);
	free(headers);
	strvec_clear(&args);
	strbuf_release(&out);
	return common && kbuild ? 0 : -1;
}

/* apt-get download into @tmp/debs, then dpkg-deb -x each into @tmp/root. */
static int download_unpack(const struct verify_ctx *ctx, struct step_result *r,
			   struct apt_suite *as, const struct strvec *pkgs,
			   const char *tmp)
{
	char *debs = xstrfmt("%s/debs", tmp), *root = xstrfmt("%s/root", tmp);
	struct child c = CHILD_INIT;
	struct dirent *de;
	int ret = -1;
	size_t i;
	DIR *d;

	mkdir_p(debs);
	mkdir_p(root);
	if (apt_suite_lock(as, &r->reason))
		goto out;
	apt_suite_args(as, &c, "apt-get");
	strvec_push(&c.args, "download");
	for (i = 0; i < pkgs->nr; i++)
		strvec_push(&c.args, pkgs->v[i]);
	c.dir = debs;
	ret = step_run(ctx, r, &c) ? blame_machine(r) : 0;	/* the mirror */
	child_clear(&c);
	apt_suite_unlock(as);
	d = ret ? NULL : opendir(debs);
	while (d && (de = readdir(d)) && !ret) {
		if (!ends_with(de->d_name, ".deb"))
			continue;
		strvec_pushl(&c.args, "dpkg-deb", "-x", NULL);
		strvec_pushf(&c.args, "%s/%s", debs, de->d_name);
		strvec_push(&c.args, root);
		ret = step_run(ctx, r, &c);
		child_clear(&c);
	}
	if (d)
		closedir(d);
out:
	rm_rf(debs);
	free(debs);
	free(root);
	return ret;
}

/*
 * Where a flavour's packages are kept: <abi> for amd64, <abi>-<flavour> for
 * the others.
 */
static const char *deb_key(const struct verify_ctx *ctx,
			   const struct config_out *cfg)
{
	return default_flavour(ctx) ? cfg->deb_abi : cfg->deb_release;
}

/*
 * The packages, unpacked once into <cache>/debian/<key>_<version>; the lock
 * locks/debian-<key>.lock owns debian/.tmp-<key>, so what a killed run left
 * there is abandoned and removed by that exact name.
 */
static int fetch_packages(const struct verify_ctx *ctx,
			  struct config_out *cfg, struct step_result *r,
			  struct apt_suite *as, const struct strvec *pkgs)
{
	char *tmp = cache_path(ctx, "debian/.tmp-%s", deb_key(ctx, cfg));
	char *name = xstrfmt("%s/root/kverify-image", tmp), *root;
	char *marker = xstrfmt("%s/kverify-image", cfg->deb_root), *had;
	struct strbuf want = STRBUF_INIT;
	int lockfd = -1, ret;
	size_t i;

	/* What was unpacked: a list that changed is unpacked again. */
	for (i = 0; i < pkgs->nr; i++)
		strbuf_addf(&want, "%s%s", i ? " " : "", pkgs->v[i]);
	ret = lock_in_cache(ctx->cache, 1, &lockfd, &r->reason, "debian-%s.lock",
			    deb_key(ctx, cfg));
	had = ret ? NULL : read_first_line(marker);
	if (ret || (had && !strcmp(had, want.buf)))
		goto out;
	lock_inherit(lockfd);
	rm_rf(tmp);
	rm_rf(cfg->deb_root);
	ret = download_unpack(ctx, r, as, pkgs, tmp) ||
	      write_file(name, want.buf, want.len);
	root = xstrfmt("%s/root", tmp);
	if (!ret && rename(root, cfg->deb_root) < 0) {
		strbuf_addf(&r->reason, "rename %s: %s", cfg->deb_root,
			    strerror(errno));
		ret = -1;
	}
	free(root);
	rm_rf(tmp);
	if (!ret)
		cfg->deb_fetched = 1;
out:
	unlock_file(lockfd);
	strbuf_release(&want);
	free(had);
	free(marker);
	free(name);
	free(tmp);
	return ret;
}

char *headers_dir(const struct config_out *cfg)
{
	return xstrfmt("%s/usr/src/linux-headers-%s", cfg->deb_root,
		       cfg->deb_release);
}

/* The headers' Module.symvers: the kabi step's reference. */
char *debian_symvers(const struct config_out *cfg)
{
	char *hdr = headers_dir(cfg);
	char *path = xstrfmt("%s/Module.symvers", hdr);

	free(hdr);
	return path;
}

/* A variable of the headers' .kernelvariables ("NAME = value"). */
static char *kernel_variable(const char *text, const char *name)
{
	struct line l;

	for_each_line(l, text) {
		const char *q = l.s, *val;

		skip_prefix(q, "override ", &q);
		if (skip_prefix(q, name, &q) && skip_prefix(q, " = ", &val))
			return xstrfmt("%.*s", (int)strcspn(val, "\n"), val);
	}
	return NULL;
}

/* Debian's modules must be built with Debian's compiler: is it here? */
static int check_compiler(const struct config_out *cfg, struct step_result *r,
			  char **cc)
{
	char *hdr = headers_dir(cfg);
	char *path = xstrfmt("%s/.kernelvariables", hdr);
	struct strbuf sb = STRBUF_INIT;
	char *v, *cross, *word, *found;
	int ret = 0;

	free(hdr);
	*cc = NULL;
	strbuf_read_file(&sb, path, 1 << 16);
	v = kernel_variable(sb.buf, "CC");
	cross = kernel_variable(sb.buf, "CROSS_COMPILE");
	/* 6.1 sets it only when cross-building: "$(DEB_HOST_GNU_TYPE)-". */
	if (cross && strstr(cross, "$(")) {
		free(cross);
		cross = NULL;
	}
	if (!v) {
		*cc = xstrdup("gcc");
		goto out;
	}
	word = strrchr(v, ' ');
	word = word ? word + 1 : v;
	if (starts_with(word, "$(CROSS_COMPILE)"))
		*cc = xstrfmt("%s%s", cross ? cross : "",
			      word + strlen("$(CROSS_COMPILE)"));
	else
		*cc = xstrdup(word);
	if (cfg->toolchain) {
		char *in = xstrfmt("%s/usr/bin/%s", cfg->toolchain, *cc);

		found = access(in, X_OK) ? NULL : in;
		if (!found)
			free(in);
	} else {
		found = path_lookup(*cc);
	}
	if (!found) {
		const char *ver = strrchr(*cc, '-');

		strbuf_addf(&r->reason, "Debian built %s with %s (its headers' .kernelvariables), which is not installed %s: modules built with another compiler are not Debian's; install it with 'apt-get install gcc%s'",
			    cfg->deb_release, *cc, cfg->toolchain ? "in " : "here",
			    ver ? ver : "");
		if (cfg->toolchain)
			strbuf_addstr(&r->reason, cfg->toolchain);
		ret = blame_machine(r);	/* the machine lacks it: ERROR */
	}
	free(found);
out:
	free(path);
	free(v);
	free(cross);
	strbuf_release(&sb);
	return ret;
}

/*
 * Files of the series outside arch/x86/kvm: a header is the patched one
 * (the patched tree is the srctree); C files of virt/kvm/ are compiled into
 * kvm.ko;
 * tools/ and Documentation/ are not the kernel.  Anything else would be
 * built into Debian's vmlinux, which this mode does not rebuild.
 */
static int check_series_files(const struct verify_ctx *ctx, struct step_result *r,
			      struct strbuf *headers)
{
	struct strvec files = STRVEC_INIT;
	size_t i;
	int bad = 0;

	series_files(series_of(ctx), &files, 0);
	for (i = 0; i < files.nr; i++) {
		const char *f = files.v[i];

		if (starts_with(f, KVM_DIR "/") || starts_with(f, "tools/") ||
		    starts_with(f, "Documentation/") ||
		    (starts_with(f, "virt/kvm/") && ends_with(f, ".c")))
			continue;
		if (ends_with(f, ".h")) {
			strbuf_addf(headers, " %s", f);
			continue;
		}
		if (!bad++)
			strbuf_addstr(&r->reason, "BOOT=distro rebuilds only arch/x86/kvm's modules, and the series changes");
		strbuf_addf(&r->reason, " %s", f);
	}
	if (bad)
		strbuf_addstr(&r->reason, ", which Debian's vmlinux has unpatched: use BOOT=own");
	strvec_clear(&files);
	return bad ? -1 : 0;
}

/*
 * The objtree: Debian's amd64 headers by symbolic links, and a Makefile
 * that includes the patched tree's, which makes it the srctree.
 */
static int make_objtree(const struct verify_ctx *ctx,
			struct config_out *cfg, struct step_result *r)
{
	char *hdr = headers_dir(cfg), *mk = NULL;
	struct dirent *de;
	int ret = -1, bad = 0;
	DIR *d;

	cfg->kbuild = xstrfmt("%s-kbuild", ctx->build);
	mkdir_p(cfg->kbuild);
	d = opendir(hdr);
	if (!d) {
		strbuf_addf(&r->reason, "%s: %s", hdr, strerror(errno));
		goto out;
	}
	while ((de = readdir(d))) {
		char *from, *to;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, "Makefile"))
			continue;
		from = xstrfmt("%s/%s", hdr, de->d_name);
		to = xstrfmt("%s/%s", cfg->kbuild, de->d_name);
		unlink(to);
		if (symlink(from, to) < 0 && !bad++)
			strbuf_addf(&r->reason, "symlink %s: %s", to,
				    strerror(errno));
		free(from);
		free(to);
	}
	closedir(d);
	if (bad)
		goto out;
	/*
	 * Debian's own Makefile names its /usr/src path as KBUILD_OUTPUT,
	 * which 6.13 and later take as the objtree of an M= build.
	 */
	mk = xstrfmt("KBUILD_OUTPUT=%s\ninclude %s/Makefile\n", cfg->kbuild,
		     ctx->tree);
	free(hdr);
	hdr = xstrfmt("%s/Makefile", cfg->kbuild);
	ret = write_file_atomic(hdr, mk, strlen(mk));
	if (ret)
		strbuf_addf(&r->reason, "cannot write %s: %s", hdr,
			    strerror(errno));
out:
	free(mk);
	free(hdr);
	return ret;
}

/* BOOT=auto found no Debian compiler: our own kernel, in its build dir. */
static void boot_own_instead(const struct verify_ctx *ctx,
			     struct config_out *cfg, const char *why)
{
	free(cfg->boot_why);
	cfg->boot_why = xstrdup(why);
	free(cfg->build);
	cfg->build = cache_path(ctx, "build/%s", ctx->t->name);
}

/* The vmlinuz of Debian's image: boot/, or (7.x) beside the modules. */
static char *find_vmlinuz(const struct config_out *cfg)
{
	char *path = xstrfmt("%s/boot/vmlinuz-%s", cfg->deb_root,
			     cfg->deb_release);

	if (!is_file(path)) {
		free(path);
		path = xstrfmt("%s/usr/lib/modules/%s/vmlinuz",
			       cfg->deb_root, cfg->deb_release);
	}
	return is_file(path) ? path : (free(path), NULL);
}

enum step_status configure_debian(const struct verify_ctx *ctx,
				  struct config_out *cfg, struct step_result *r)
{
	struct strbuf headers = STRBUF_INIT;
	struct strvec pkgs = STRVEC_INIT;
	char *dir, *ver, *cc = NULL, *cc_pkg = NULL, *found = NULL;
	struct strbuf no_toolchain = STRBUF_INIT;
	enum step_status st = STEP_FAIL;
	struct apt_suite as = { 0 };
	int ret, toolchain = 0;

	if (ctx->t->kind != SRC_DEB || !ctx->fetch.source.deb_version) {
		strbuf_addf(&r->reason, "BOOT=distro needs a deb: source (Debian's built kernel of the same version); %s is %s: use BOOT=own",
			    ctx->t->name, source_kind_name(ctx->t->kind));
		return STEP_FAIL;
	}
	if (check_series_files(ctx, r, &headers))
		goto out;
	if (apt_suite_init(&as, ctx->opt, ctx->t->deb_suite, &r->reason) ||
	    apt_suite_lock(&as, &r->reason))
		goto out;
	ret = find_image(ctx, cfg, r, &as) ||
	      find_headers(ctx, cfg, r, &as, &pkgs, &cc_pkg) ||
	      find_image_parts(ctx, cfg, r, &as, &pkgs);
	apt_suite_unlock(&as);
	if (ret)
		goto out;
	/* gcc-14-for-host: the compiler gcc-14, for the machine it runs on */
	cc = cc_pkg ? xstrfmt("%.*s", (int)(strlen(cc_pkg) -
			       (ends_with(cc_pkg, "-for-host") ?
				strlen("-for-host") : 0)), cc_pkg) : NULL;
	found = cc ? path_lookup(cc) : NULL;
	/* Not here: the compiler in a chroot of the kernel's own release. */
	if (cc && !found)
		toolchain = toolchain_usable(&no_toolchain);
	if (cc && !found && !toolchain) {
		char *why = xstrfmt("Debian built %s with %s (a Depends: of linux-headers-%s), which is not installed here, and %s; modules built with another compiler are not Debian's%s",
				    cfg->deb_release, cc_pkg, cfg->deb_release,
				    no_toolchain.buf,
				    ctx->opt->boot == BOOT_AUTO ?
				    " (BOOT=distro makes this a failure)" : "");

		if (ctx->opt->boot == BOOT_AUTO) {
			boot_own_instead(ctx, cfg, why);
			st = STEP_PASS;
		} else {
			/* a missing tool, not the patch */
			strbuf_addstr(&r->reason, why);
			st = STEP_ERROR;
		}
		free(why);
		goto out;
	}
	free(found);
	free(cc);
	cc = NULL;
	dir = cache_path(ctx, "debian");
	mkdir_p(dir);
	free(dir);
	ver = xstrdup(ctx->fetch.source.deb_version);
	for (dir = ver; *dir; dir++)
		if (*dir == '~' || *dir == ':')
			*dir = '_';
	cfg->deb_root = cache_path(ctx, "debian/%s_%s", deb_key(ctx, cfg), ver);
	free(ver);
	strbuf_reset(&r->reason);
	if (fetch_packages(ctx, cfg, r, &as, &pkgs) || make_objtree(ctx, cfg, r))
		goto out;
	if (toolchain &&
	    toolchain_get(ctx->opt, ctx->t->deb_suite, cc_pkg, r->log,
			  &cfg->toolchain, &r->reason)) {
		st = STEP_ERROR;
		goto out;
	}
	if (check_compiler(cfg, r, &cc))
		goto out;
	cfg->kernel = find_vmlinuz(cfg);
	if (!cfg->kernel) {
		strbuf_addf(&r->reason, "no vmlinuz in %s (boot/ or usr/lib/modules/<abi>/)",
			    cfg->deb_image);
		goto out;
	}
	strbuf_addf(&r->reason, "Debian's %s: %s %s (%s); modules built against its headers with %s, srctree the patched tree",
		    cfg->deb_release, cfg->deb_image, ctx->fetch.source.deb_version,
		    cfg->deb_fetched ? "fetched" : "cached", cc);
	if (cfg->toolchain) {
		char *release = toolchain_release(ctx->t->deb_suite);

		strbuf_addf(&r->reason, ", %s in a chroot of Debian %s (%s)",
			    cc_pkg, release, cfg->toolchain);
		free(release);
	}
	if (headers.len)
		strbuf_addf(&r->reason, " (patched:%s)", headers.buf);
	st = STEP_PASS;
out:
	apt_suite_clear(&as);
	strvec_clear(&pkgs);
	strbuf_release(&headers);
	strbuf_release(&no_toolchain);
	free(cc);
	free(cc_pkg);
	return st;
}

/* The strings of an ELF64 file's .modinfo section, NUL-separated. */
static int read_modinfo(const char *path, struct strbuf *info)
{
	struct strbuf sb = STRBUF_INIT;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh, *strs;
	int i, ret = -1;

	if (strbuf_read_file(&sb, path, 512 << 20) || sb.len < sizeof(*eh))
		goto out;
	eh = (const Elf64_Ehdr *)sb.buf;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(*sh) || eh->e_shstrndx >= eh->e_shnum ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > sb.len)
		goto out;
	sh = (const Elf64_Shdr *)(sb.buf + eh->e_shoff);
	strs = &sh[eh->e_shstrndx];
	for (i = 0; i < eh->e_shnum; i++) {
		size_t name = strs->sh_offset + sh[i].sh_name;

		if (name + 9 > sb.len || strcmp(sb.buf + name, ".modinfo") ||
		    sh[i].sh_offset + sh[i].sh_size > sb.len)
			continue;
		strbuf_add(info, sb.buf + sh[i].sh_offset, sh[i].sh_size);
		ret = 0;
		break;
	}
out:
	strbuf_release(&sb);
	return ret;
}

/* The value of "key=" in a module's .modinfo (a string in @info), or NULL. */
static const char *modinfo_get(const struct strbuf *info, const char *key)
{
	size_t n = strlen(key), off = 0;

	while (off < info->len) {
		const char *s = info->buf + off;
		size_t len = strnlen(s, info->len - off);

		if (len > n && !strncmp(s, key, n) && s[n] == '=')
			return s + n + 1;
		off += len + 1;
	}
	return NULL;
}

static char *module_path(const struct verify_ctx *ctx, const char *name)
{
	return xstrfmt("%s/%s/%s.ko", ctx->kvm_tree, KVM_DIR, name);
}

/* vermagic of the rebuilt kvm.ko: Debian's release, or the step fails. */
static int check_vermagic(const struct verify_ctx *ctx, struct step_result *r)
{
	struct strbuf info = STRBUF_INIT;
	char *ko = module_path(ctx, "kvm");
	const char *magic = NULL;
	char *want = xstrfmt("%s ", ctx->config.deb_release);
	int ret = -1;

	if (!read_modinfo(ko, &info))
		magic = modinfo_get(&info, "vermagic");
	if (!magic)
		strbuf_addf(&r->reason, "%s has no .modinfo vermagic", ko);
	else if (!starts_with(magic, want))
		strbuf_addf(&r->reason, "vermagic '%s' is not Debian's %s",
			    magic, ctx->config.deb_release);
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
	char *tree = tree_stamp(ctx), *ko = module_path(ctx, "kvm");
	uint64_t h = hash_bytes(HASH_INIT, tree, strlen(tree));
	struct stat st;
	size_t i;

	h = hash_patched_mtimes(ctx, h);
	h = hash_bytes(h, ctx->config.deb_root, strlen(ctx->config.deb_root));
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
 * module: that directory is rebuilt (M=) and compared.  One whose
 * directory has none is in vmlinux, which this mode does not rebuild: it
 * is named in the kabi step's reason.  The list is written beside the
 * objtree at build time, "module DIR" or "vmlinux FILE" a line.
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
 * every object again.  After a good build, what is not in the pristine
 * source (kbuild's objects, .cmd files, modules) is copied to
 * <build>/kvm-objects; before a build, what a fresh tree lacks is copied
 * back, with its mtime, and kbuild rebuilds only what changed.
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
	utimensat(AT_FDCWD, to, ts, 0);
}

static void copy_objects(const char *from, const char *to, const char *pristine)
{
	struct dirent *de;
	DIR *d = opendir(from);

	while (d && (de = readdir(d))) {
		char *f, *t, *p = NULL;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		f = xstrfmt("%s/%s", from, de->d_name);
		t = xstrfmt("%s/%s", to, de->d_name);
		if (pristine)
			p = xstrfmt("%s/%s", pristine, de->d_name);
		if (lstat(f, &st)) {
			/* gone meanwhile */
		} else if (S_ISDIR(st.st_mode)) {
			copy_objects(f, t, p);
		} else if (S_ISREG(st.st_mode) && (!p || lstat(p, &st)) &&
			   lstat(t, &st)) {
			copy_keeping_mtime(f, t);
		}
		free(f);
		free(t);
		free(p);
	}
	if (d)
		closedir(d);
}

/* Copy what is kbuild's from <from>/DIR to <to>/DIR, for each module dir. */
static void copy_module_dirs(const struct verify_ctx *ctx, const char *from,
			     const char *to, const char *pristine)
{
	struct strvec dirs = STRVEC_INIT;
	struct strbuf list = STRBUF_INIT;
	char *path = xstrfmt("%s/%s", ctx->config.kbuild, KABI_DIRS);
	size_t i;

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

		copy_objects(f, t, p);
		free(f);
		free(t);
		free(p);
	}
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

/* kbuild writes an M= build's objects next to its sources. */
static int run_module_build(const struct verify_ctx *ctx,
			    struct step_result *r, struct child *c)
{
	char *dirs[ARRAY_SIZE(module_dirs) + 1] = { NULL };
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(module_dirs); i++)
		dirs[i] = xstrfmt("%s/%s", ctx->kvm_tree, module_dirs[i]);
	ret = step_run_sandboxed(ctx, r, c, (const char *const *)dirs);
	for (i = 0; i < ARRAY_SIZE(module_dirs); i++)
		free(dirs[i]);
	return ret;
}

/*
 * The modules outside arch/x86/kvm that include KVM's headers (above):
 * each directory built as the kvm modules are, in the sandbox, writing
 * only that directory; for another flavour, in its copy.
 */
static int build_kabi_dirs(const struct verify_ctx *ctx, struct step_result *r,
			   const struct child *kvm)
{
	struct strbuf list = STRBUF_INIT;
	struct strvec dirs = STRVEC_INIT, files = STRVEC_INIT;
	char *path = xstrfmt("%s/%s", ctx->config.kbuild, KABI_DIRS);
	size_t i, j;
	int ret;

	unlink(path);
	ret = find_kabi_dirs(ctx, r, &list);
	kabi_module_dirs(list.buf, &dirs);
	series_files(series_of(ctx), &files, 0);
	for (i = 0; i < dirs.nr && !ret; i++) {
		struct child c = CHILD_INIT;
		char *rw[2] = { NULL, NULL };

		if (!default_flavour(ctx))
			ret = sync_sources(ctx, dirs.v[i], &files, r);
		for (j = 0; j < kvm->args.nr && !ret; j++)
			if (starts_with(kvm->args.v[j], "M="))
				strvec_pushf(&c.args, "M=%s/%s", ctx->kvm_tree,
					     dirs.v[i]);
			else
				strvec_push(&c.args, kvm->args.v[j]);
		c.root = kvm->root;
		c.bind = kvm->bind;
		rw[0] = xstrfmt("%s/%s", ctx->kvm_tree, dirs.v[i]);
		if (!ret)
			ret = step_run_sandboxed(ctx, r, &c,
						 (const char *const *)rw);
		free(rw[0]);
		child_clear(&c);
	}
	if (!ret)
		ret = write_file_atomic(path, list.buf, list.len);
	strbuf_release(&list);
	strvec_clear(&dirs);
	strvec_clear(&files);
	free(path);
	return ret;
}

static int has_kabi_dirs(const struct verify_ctx *ctx)
{
	char *path = xstrfmt("%s/%s", ctx->config.kbuild, KABI_DIRS);
	int has = is_file(path);

	free(path);
	return has;
}

enum step_status build_debian_modules(const struct verify_ctx *ctx,
				      struct build_out *out,
				      struct step_result *r)
{
	char *stamp_path = NULL, *stamp = NULL, *had = NULL;
	char *kept = kept_objects_dir(ctx);
	enum step_status st = STEP_FAIL;
	struct child c = CHILD_INIT;

	if (!ctx->config.kbuild || !ctx->config.deb_root) {
		strbuf_addstr(&r->reason, "BOOT=distro: the config step prepares Debian's headers, and it did not run");
		goto out;
	}
	strvec_pushl(&c.args, "make", "-C", ctx->config.kbuild, NULL);
	strvec_pushf(&c.args, "M=%s/%s", ctx->kvm_tree, KVM_DIR);
	c.root = ctx->config.toolchain;
	c.bind = ctx->cache;
	make_jobs(ctx, &c);
	strvec_push(&c.args, "modules");
	stamp_path = xstrfmt("%s/.kverify-modules", ctx->config.kbuild);
	stamp = modules_stamp(ctx, &c);
	had = read_first_line(stamp_path);
	if (had && !strcmp(had, stamp)) {
		strbuf_addstr(&r->reason, "up to date: tree, Debian's headers and make command unchanged since the last build");
		if (!is_dir(kept))	/* built by a kverify that kept none */
			keep_objects(ctx);
		/* ... or did not build what includes KVM's headers */
		if (!has_kabi_dirs(ctx) && build_kabi_dirs(ctx, r, &c))
			goto out;
	} else {
		unlink(stamp_path);
		restore_objects(ctx);
		if (sync_kvm_tree(ctx, r) || run_module_build(ctx, r, &c))
			goto out;
		if (new_warnings(ctx, r))
			goto out;
		if (build_kabi_dirs(ctx, r, &c))
			goto out;
		strbuf_addf(&r->reason, "%s modules built against Debian's %s headers",
			    KVM_DIR, ctx->config.deb_release);
		keep_objects(ctx);
		free(stamp);
		stamp = modules_stamp(ctx, &c);
	}
	if (check_vermagic(ctx, r) || build_gen_init_cpio(ctx, r))
		goto out;
	write_file_atomic(stamp_path, stamp, strlen(stamp));
	out->kernel_built = 1;
	st = STEP_PASS;
out:
	child_clear(&c);
	free(stamp_path);
	free(stamp);
	free(had);
	free(kept);
	return st;
}

/* Every *.ko[.xz] under @dir: module names in @names, paths in @paths. */
static void index_modules(const char *dir, struct strvec *names,
			  struct strvec *paths)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		char *p;
		const char *ext;

		if (de->d_name[0] == '.')
			continue;
		p = xstrfmt("%s/%s", dir, de->d_name);
		ext = strstr(de->d_name, ".ko");
		if (is_dir(p)) {
			index_modules(p, names, paths);
		} else if (ext && (!strcmp(ext, ".ko") ||
				   !strcmp(ext, ".ko.xz"))) {
			char *n = mod_name(de->d_name, ext - de->d_name);

			strvec_push(names, n);
			strvec_push(paths, p);
			free(n);
		}
		free(p);
	}
	if (d)
		closedir(d);
}

struct mod_set {
	struct strvec names, paths;	/* the image's modules */
	struct strvec order;		/* staged, in load order */
	struct strvec seen;
	const char *stage;
};

/*
 * @from as @stage/@name.ko, decompressed (the image's .ko.xz) or without
 * debug info; its .modinfo in @info.
 */
static int stage_module(const struct verify_ctx *ctx, struct step_result *r,
			const char *stage, const char *name, const char *from,
			struct strbuf *info)
{
	char *to = xstrfmt("%s/%s.ko", stage, name);
	struct child c = CHILD_INIT;
	int ret;

	if (ends_with(from, ".xz")) {
		strvec_pushl(&c.args, "xz", "-dc", from, NULL);
		c.out_file = to;
	} else {
		strvec_pushl(&c.args, "objcopy", "--strip-debug", from, to,
			     NULL);
	}
	ret = step_run(ctx, r, &c);
	if (!ret && read_modinfo(to, info)) {
		strbuf_addf(&r->reason, "%s has no .modinfo section", from);
		ret = -1;
	}
	child_clear(&c);
	free(to);
	return ret;
}

static int add_module(const struct verify_ctx *ctx, struct step_result *r,
		      struct mod_set *ms, const char *name, const char *by);

/* What @deps, a module's "depends=kvm,irqbypass", names; for @name. */
static int add_depends(const struct verify_ctx *ctx, struct step_result *r,
		       struct mod_set *ms, const char *deps, const char *name)
{
	while (deps && *deps) {
		size_t len = strcspn(deps, ",");

		if (len) {
			char *n = mod_name(deps, len);
			int ret = add_module(ctx, r, ms, n, name);

			free(n);
			if (ret)
				return ret;
		}
		deps += len + (deps[len] == ',');
	}
	return 0;
}

/* @name and, first, what its depends= names, from the rebuilt or the image. */
static int add_module(const struct verify_ctx *ctx, struct step_result *r,
		      struct mod_set *ms, const char *name, const char *by)
{
	struct strbuf info = STRBUF_INIT;
	char *from = NULL;
	size_t i;
	int ret = -1;

	if (strvec_has(&ms->seen, name))
		return 0;
	strvec_push(&ms->seen, name);
	for (i = 0; i < ARRAY_SIZE(kvm_modules) && !from; i++) {
		char *n = mod_name(kvm_modules[i], strlen(kvm_modules[i]));

		if (!strcmp(n, name))
			from = module_path(ctx, kvm_modules[i]);
		free(n);
	}
	for (i = 0; i < ms->names.nr && !from; i++)
		if (!strcmp(ms->names.v[i], name))
			from = xstrdup(ms->paths.v[i]);
	if (!from) {
		strbuf_addf(&r->reason, "module %s (needed by %s) is not in %s",
			    name, by, ctx->config.deb_image);
		goto out;
	}
	ret = stage_module(ctx, r, ms->stage, name, from, &info) ||
	      add_depends(ctx, r, ms, modinfo_get(&info, "depends"), name);
	if (!ret)
		strvec_push(&ms->order, name);
out:
	strbuf_release(&info);
	free(from);
	return ret;
}

/*
 * The initramfs part of BOOT=distro: the rebuilt modules and what they
 * depend on, in /lib/modules/, and /tests/modules, their load order.
 */
int debian_initramfs(const struct verify_ctx *ctx, struct step_result *r,
		     const char *dir, struct strbuf *list)
{
	struct mod_set ms = { STRVEC_INIT, STRVEC_INIT, STRVEC_INIT,
			      STRVEC_INIT, NULL };
	char *stage = xstrfmt("%s/modules", dir);
	char *load = xstrfmt("%s/modules.load", dir);
	/* /usr/lib/modules since trixie's usr-merge, /lib/modules before */
	char *kdir = xstrfmt("%s/usr/lib/modules/%s/kernel",
			     ctx->config.deb_root, ctx->config.deb_release);
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = 0;

	rm_rf(stage);
	mkdir_p(stage);
	ms.stage = stage;
	if (!is_dir(kdir)) {
		free(kdir);
		kdir = xstrfmt("%s/lib/modules/%s/kernel", ctx->config.deb_root,
			       ctx->config.deb_release);
	}
	index_modules(kdir, &ms.names, &ms.paths);
	for (i = 0; i < ARRAY_SIZE(kvm_modules) && !ret; i++) {
		char *ko = module_path(ctx, kvm_modules[i]);
		char *n = mod_name(kvm_modules[i], strlen(kvm_modules[i]));

		if (is_file(ko))
			ret = add_module(ctx, r, &ms, n, "the series");
		free(ko);
		free(n);
	}
	if (ret)
		goto out;
	strbuf_addstr(list, "dir /lib 755 0 0\ndir /lib/modules 755 0 0\n");
	for (i = 0; i < ms.order.nr; i++) {
		strbuf_addf(&sb, "%s\n", ms.order.v[i]);
		strbuf_addf(list, "file /lib/modules/%s.ko %s/%s.ko 644 0 0\n",
			    ms.order.v[i], stage, ms.order.v[i]);
	}
	strbuf_addf(list, "file /tests/modules %s 644 0 0\n", load);
	ret = write_file(load, sb.buf, sb.len);
out:
	strvec_clear(&ms.names);
	strvec_clear(&ms.paths);
	strvec_clear(&ms.order);
	strvec_clear(&ms.seen);
	strbuf_release(&sb);
	free(stage);
	free(load);
	free(kdir);
	return ret;
}
