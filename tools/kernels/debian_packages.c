// SPDX-License-Identifier: GPL-2.0
/*
 * BOOT=distro (--boot distro), for deb: sources: Debian's own built kernel
 * of exactly the source's version, with the patched KVM modules.  Its
 * packages, for the config step:
 *
 * linux-image-<abi>-<flavour>-unsigned (or the signed image where the
 * suite lists only that one), linux-headers-<abi>-<flavour>, its -common
 * and its linux-kbuild, through the fetch step's private apt state,
 * unpacked with dpkg-deb -x into <cache>/debian/<abi>_<version> (amd64) or
 * <abi>-<flavour>_<version>, once.  The flavour is amd64, or one of
 * --flavours' others (cloud-amd64, rt-amd64: their own .config, PREEMPT_RT
 * for rt, and Module.symvers).  A per-target objtree links Debian's
 * headers (.config, Module.symvers, generated headers, kbuild's scripts)
 * and includes the patched tree's Makefile: the patched tree is the
 * srctree, so every header the series changes is the patched one in the
 * build.  debian_modules.c builds the modules, debian_initramfs.c boots
 * them.
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
#include "kernels/debian.h"
#include "kernels/kernel.h"
#include "lib/fsutil.h"
#include "lib/guard.h"
#include "lib/lock.h"
#include "sources/apt.h"
#include "sources/toolchain.h"

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
	cfg->debian->package = unsigned_pkg ? unsigned_pkg : signed_pkg;
	if (unsigned_pkg)
		free(signed_pkg);
	if (!cfg->debian->package) {
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
	p = cfg->debian->package + strlen("linux-image-");
	cfg->debian->release = xstrfmt("%.*s", (int)(strlen(p) -
				   (ends_with(p, "-unsigned") ?
				    strlen("-unsigned") : 0)), p);
	cfg->debian->abi = xstrfmt("%.*s", (int)(strlen(cfg->debian->release) -
				strlen(ctx->flavour->name) - 1),
				cfg->debian->release);
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
	strvec_pushf(&args, "%s=%s", cfg->debian->package, ctx->fetch.source.deb_version);
	ret = apt_query(ctx, r, as, &args, &out);
	if (!ret)
		dep = deb822_field(out.buf, out.buf + out.len, "Depends");
	for (tok = dep ? next_dep(dep, &save) : NULL; tok;
	     tok = next_dep(NULL, &save)) {
		if ((starts_with(tok, "linux-binary-") ||
		     starts_with(tok, "linux-modules-")) &&
		    ends_with(tok, cfg->debian->release))
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
	char *headers = xstrfmt("linux-headers-%s", cfg->debian->release);
	char *dep = NULL, *tok, *save = NULL;
	int common = 0, kbuild = 0;

	strvec_pushl(&args, "show", "--no-all-versions", NULL);
	strvec_pushf(&args, "%s=%s", headers, ctx->fetch.source.deb_version);
	if (!apt_query(ctx, r, as, &args, &out))
		dep = deb822_field(out.buf, out.buf + out.len, "Depends");
	strvec_pushf(pkgs, "%s=%s", cfg->debian->package, ctx->fetch.source.deb_version);
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
	return default_flavour(ctx) ? cfg->debian->abi : cfg->debian->release;
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
	char *tmp = sources_path(ctx, "debian/.tmp-%s", deb_key(ctx, cfg));
	char *name = xstrfmt("%s/root/kverify-image", tmp), *root;
	char *marker = xstrfmt("%s/kverify-image", cfg->debian->root), *had;
	struct strbuf want = STRBUF_INIT;
	int lockfd = -1, ret;
	size_t i;

	/* What was unpacked: a list that changed is unpacked again. */
	for (i = 0; i < pkgs->nr; i++)
		strbuf_addf(&want, "%s%s", i ? " " : "", pkgs->v[i]);
	ret = lock_in_cache(sources_dir(ctx->opt), 1, &lockfd, &r->reason,
			    "debian-%s.lock", deb_key(ctx, cfg));
	had = ret ? NULL : read_first_line(marker);
	if (ret || (had && !strcmp(had, want.buf)))
		goto out;
	lock_inherit(lockfd);
	rm_rf(tmp);
	rm_rf(cfg->debian->root);
	ret = download_unpack(ctx, r, as, pkgs, tmp) ||
	      write_file(name, want.buf, want.len);
	root = xstrfmt("%s/root", tmp);
	if (!ret && rename(root, cfg->debian->root) < 0) {
		strbuf_addf(&r->reason, "rename %s: %s", cfg->debian->root,
			    strerror(errno));
		ret = -1;
	}
	free(root);
	rm_rf(tmp);
	if (!ret)
		cfg->debian->fetched = 1;
out:
	unlock_file(lockfd);
	strbuf_release(&want);
	free(had);
	free(marker);
	free(name);
	free(tmp);
	return ret;
}

/* Which packages: the image and the headers of the source's version. */
static int find_packages(const struct verify_ctx *ctx,
			 struct config_out *cfg, struct step_result *r,
			 struct apt_suite *as, struct strvec *pkgs,
			 char **cc_pkg)
{
	int ret;

	if (!cfg->debian) {
		cfg->debian = xmalloc(sizeof(*cfg->debian));
		*cfg->debian = (struct debian_state){ 0 };
	}
	if (apt_suite_init(as, ctx->opt, ctx->t->deb_suite, &r->reason) ||
	    apt_suite_lock(as, &r->reason))
		return -1;
	ret = find_image(ctx, cfg, r, as) ||
	      find_headers(ctx, cfg, r, as, pkgs, cc_pkg) ||
	      find_image_parts(ctx, cfg, r, as, pkgs);
	apt_suite_unlock(as);
	return ret ? -1 : 0;
}

static void set_deb_root(const struct verify_ctx *ctx, struct config_out *cfg)
{
	char *dir = sources_path(ctx, "debian"), *ver, *p;

	mkdir_p(dir);
	free(dir);
	ver = xstrdup(ctx->fetch.source.deb_version);
	for (p = ver; *p; p++)
		if (*p == '~' || *p == ':')
			*p = '_';
	cfg->debian->root = sources_path(ctx, "debian/%s_%s", deb_key(ctx, cfg),
				     ver);
	free(ver);
}

int debian_prefetch(const struct verify_ctx *ctx, struct step_result *r)
{
	struct config_out cfg = { 0 };
	struct strvec pkgs = STRVEC_INIT;
	struct apt_suite as = { 0 };
	char *cc_pkg = NULL;
	int ret;

	ret = find_packages(ctx, &cfg, r, &as, &pkgs, &cc_pkg);
	if (!ret) {
		set_deb_root(ctx, &cfg);
		ret = fetch_packages(ctx, &cfg, r, &as, &pkgs);
	}
	if (!ret)
		ret = !cfg.debian->fetched;
	apt_suite_clear(&as);
	strvec_clear(&pkgs);
	free(cc_pkg);
	debian_state_free(cfg.debian);
	return ret;
}

void debian_state_free(struct debian_state *s)
{
	if (!s)
		return;
	free(s->abi);
	free(s->release);
	free(s->root);
	free(s->package);
	free(s->image);
	free(s);
}

int debian_describe(const struct verify_ctx *ctx,
		    const struct config_out *cfg, struct kernel_desc *d)
{
	const struct debian_state *s = cfg->debian;

	if (!s || !s->image)
		return -1;
	d->image = s->image;
	d->release = s->release;
	d->package = s->package;
	d->version = ctx->fetch.source.deb_version;
	return 0;
}

char *debian_config_name(const struct verify_ctx *ctx)
{
	struct kernel_desc d;

	if (debian_describe(ctx, &ctx->config, &d))
		return own_config_name(ctx);
	return xstrfmt("Debian config-%s (modules of arch/x86/kvm)", d.release);
}

char *headers_dir(const struct config_out *cfg)
{
	return xstrfmt("%s/usr/src/linux-headers-%s", cfg->debian->root,
		       cfg->debian->release);
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
			    cfg->debian->release, *cc, cfg->toolchain ? "in " : "here",
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
	fs_guard(cfg->build);
}

/* The vmlinuz of Debian's image: boot/, or (7.x) beside the modules. */
static char *find_vmlinuz(const struct config_out *cfg)
{
	char *path = xstrfmt("%s/boot/vmlinuz-%s", cfg->debian->root,
			     cfg->debian->release);

	if (!is_file(path)) {
		free(path);
		path = xstrfmt("%s/usr/lib/modules/%s/vmlinuz",
			       cfg->debian->root, cfg->debian->release);
	}
	return is_file(path) ? path : (free(path), NULL);
}

enum step_status configure_debian(const struct verify_ctx *ctx,
				  struct config_out *cfg, struct step_result *r)
{
	struct strbuf headers = STRBUF_INIT;
	struct strvec pkgs = STRVEC_INIT;
	char *cc = NULL, *cc_pkg = NULL, *found = NULL;
	struct strbuf no_toolchain = STRBUF_INIT;
	enum step_status st = STEP_FAIL;
	struct apt_suite as = { 0 };
	int toolchain = 0;

	if (ctx->t->kind != SRC_DEB || !ctx->fetch.source.deb_version) {
		strbuf_addf(&r->reason, "BOOT=distro needs a deb: source (Debian's built kernel of the same version); %s is %s: use BOOT=own",
			    ctx->t->name, source_kind_name(ctx->t->kind));
		return STEP_FAIL;
	}
	if (check_series_files(ctx, r, &headers) ||
	    find_packages(ctx, cfg, r, &as, &pkgs, &cc_pkg))
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
				    cfg->debian->release, cc_pkg, cfg->debian->release,
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
	set_deb_root(ctx, cfg);
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
	cfg->debian->image = find_vmlinuz(cfg);
	if (!cfg->debian->image) {
		strbuf_addf(&r->reason, "no vmlinuz in %s (boot/ or usr/lib/modules/<abi>/)",
			    cfg->debian->package);
		goto out;
	}
	strbuf_addf(&r->reason, "Debian's %s: %s %s (%s); modules built against its headers with %s, srctree the patched tree",
		    cfg->debian->release, cfg->debian->package, ctx->fetch.source.deb_version,
		    cfg->debian->fetched ? "fetched" :
		    default_flavour(ctx) && ctx->fetch.packages_fetched ?
		    "fetched beside the source" : "cached", cc);
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
