// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's kernel boots (debian_packages.c): its vmlinuz, and in the
 * initramfs the patched modules (debian_modules.c) and what they depend
 * on, their own depends= modinfo resolved in the image.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/step.h"
#include "kernels/debian.h"
#include "kernels/modinfo.h"
#include "lib/fsutil.h"

/* Module names compare with '-' and '_' alike, as the kernel does. */
static char *mod_name(const char *s, size_t n)
{
	char *m = xstrfmt("%.*s", (int)n, s), *p;

	for (p = m; *p; p++)
		if (*p == '-')
			*p = '_';
	return m;
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
			from = kvm_module_path(ctx, kvm_modules[i]);
		free(n);
	}
	for (i = 0; i < ms->names.nr && !from; i++)
		if (!strcmp(ms->names.v[i], name))
			from = xstrdup(ms->paths.v[i]);
	if (!from) {
		strbuf_addf(&r->reason, "module %s (needed by %s) is not in %s",
			    name, by, ctx->config.debian->package);
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
			     ctx->config.debian->root,
			     ctx->config.debian->release);
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = 0;

	rm_rf(stage);
	mkdir_p(stage);
	ms.stage = stage;
	if (!is_dir(kdir)) {
		free(kdir);
		kdir = xstrfmt("%s/lib/modules/%s/kernel",
			       ctx->config.debian->root,
			       ctx->config.debian->release);
	}
	index_modules(kdir, &ms.names, &ms.paths);
	for (i = 0; i < ARRAY_SIZE(kvm_modules) && !ret; i++) {
		char *ko = kvm_module_path(ctx, kvm_modules[i]);
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
