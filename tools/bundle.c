// SPDX-License-Identifier: GPL-2.0
/*
 * --bundle: what a lab with a PMU needs to run the same tests: the kernel,
 * the initramfs with the KTAP runner, a README, SHA256SUMS and LAVA jobs a
 * lab can submit as they are, in results/<target>/bundle/.  The jobs are
 * tools/lava/'s templates with every @NAME@ filled in: the artifacts' URLs
 * (ARTIFACTS=, default the bundle's own directory as a file:// URL) and
 * sha256sum, the metadata (kverify version, target, package version, the
 * series' revision, change-id, KCIDB patchset hash and posted Message-Id) and
 * the vendor of the device tags (docs/lab.md).
 *
 * The kernel is the one verify booted: for a Debian source under BOOT=auto
 * or distro, Debian's own image of the source's version (vmlinuz), the
 * patched modules in the initramfs, so that a bare-metal x86 job boots a
 * kernel made for machines; with BOOT=own (a git: or tar: source), our
 * bzImage of configs/kvm-guest.config, made for a QEMU guest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bundle.h"
#include "kernels/kernel.h"
#include "lib/fsutil.h"
#include "lib/run.h"
#include "lib/usage.h"
#include "version.h"

/* The tolerance the jobs put on the kernel command line. */
#define BUNDLE_TOLERANCE "1000"

static int copy(const char *from, const char *to)
{
	int ret = copy_file(from, to);

	if (ret)
		error("bundle: %s: %s", from, strerror(errno));
	return ret;
}

/*
 * ARTIFACTS= is outside input: an http, https or file URL, its characters
 * those of a URL but for quotes (the jobs quote it in YAML) and braces
 * (LAVA's own substitutions).  0, or -1 with @why set.
 */
int bundle_check_artifacts(const char *url, struct strbuf *why)
{
	static const char punct[] = "-._~:/?#[]@!$&()*+,;=%";
	const char *rest = NULL;
	size_t n = 0;

	while (url[n] && ((url[n] >= 'a' && url[n] <= 'z') ||
			  (url[n] >= 'A' && url[n] <= 'Z') ||
			  (url[n] >= '0' && url[n] <= '9') ||
			  strchr(punct, url[n])))
		n++;

	if (!skip_prefix(url, "https://", &rest) &&
	    !skip_prefix(url, "http://", &rest) &&
	    !skip_prefix(url, "file://", &rest)) {
		strbuf_addstr(why, "not an http://, https:// or file:// URL");
		return -1;
	}
	if (url[n]) {
		strbuf_addf(why, "character %d is %s, which a URL of a LAVA job cannot hold",
			    (int)n + 1, url[n] == ' ' ? "a blank" :
			    url[n] == '\'' || url[n] == '"' ? "a quote" :
			    "not one of a URL's");
		return -1;
	}
	if (starts_with(url, "file://") ? *rest != '/' || !rest[1] :
	    !*rest || *rest == '/') {
		strbuf_addstr(why, starts_with(url, "file://") ?
			      "a file:// URL names a directory of the worker by its absolute path: file:///srv/kverify" :
			      "no host: https://HOST/PATH");
		return -1;
	}
	return 0;
}

/* The sha256sum of @path, as LAVA checks it after the download. */
static char *sha256(const char *path)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	char *sum = NULL;

	strvec_pushl(&c.args, "sha256sum", "--", path, NULL);
	c.out = &out;
	if (!run_child(&c) && out.len >= 64 && strspn(out.buf,
	    "0123456789abcdef") == 64) {
		strbuf_setlen(&out, 64);
		sum = strbuf_detach(&out, NULL);
	} else {
		error("bundle: sha256sum %s failed", path);
	}
	strbuf_release(&out);
	child_clear(&c);
	return sum;
}

struct subst {
	const char *name;	/* "@ARTIFACTS@" */
	const char *value;
};

/* @tmpl with every @NAME@ of @s replaced; -1 when one is left or unknown. */
static int fill(const char *tmpl_path, const char *out_path,
		const struct subst *s, size_t nr)
{
	struct strbuf tmpl = STRBUF_INIT, out = STRBUF_INIT;
	const char *p;
	size_t i;
	int ret = -1;

	if (strbuf_read_file(&tmpl, tmpl_path, 1 << 20) < 0) {
		error("bundle: %s: %s", tmpl_path, strerror(errno));
		goto out;
	}
	for (p = tmpl.buf; *p;) {
		for (i = 0; i < nr; i++)
			if (starts_with(p, s[i].name))
				break;
		if (i < nr) {
			strbuf_addstr(&out, s[i].value);
			p += strlen(s[i].name);
			continue;
		}
		strbuf_addch(&out, *p++);
	}
	/* No template word left: a lab submits the job as it is. */
	for (p = out.buf; (p = strchr(p, '@')); p++) {
		size_t n = strspn(p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

		if (n && p[n + 1] == '@') {
			error("bundle: %s: %.*s is not filled in", tmpl_path,
			      (int)n + 2, p);
			goto out;
		}
	}
	ret = write_file(out_path, out.buf, out.len);
	if (ret)
		error("bundle: %s: %s", out_path, strerror(errno));
out:
	strbuf_release(&tmpl);
	strbuf_release(&out);
	return ret;
}

/* What the jobs boot: the file's name in the bundle, and its description. */
struct bundle_kernel {
	char *from;		/* the image verify booted */
	const char *file;	/* its name in the bundle */
	char *what;		/* kverify.kernel of the jobs' metadata (no quote) */
	const char *tcg;	/* -accel of the TCG job (see step_boot.c) */
};

static void bundle_kernel(const struct verify_ctx *ctx, struct bundle_kernel *k)
{
	struct kernel_desc d;

	if (!kernel_describe(ctx, &d)) {
		k->from = xstrdup(d.image);
		k->file = "vmlinuz";
		k->what = xstrfmt("Debian %s %s, the patched KVM modules in the initramfs",
				  d.package, d.version);
		/* Debian's kernel patches its own text: one TCG thread */
		k->tcg = "tcg,thread=single";
	} else {
		k->from = xstrfmt("%s/arch/x86/boot/bzImage", build_dir(ctx));
		k->file = "bzImage";
		k->what = xstrdup("own build of configs/kvm-guest.config, made for a QEMU guest");
		k->tcg = "tcg";
	}
}

static int write_jobs(const struct verify_ctx *ctx, const char *dir,
		      const char *url, const struct bundle_kernel *k,
		      const char *sum_kernel, const char *sum_initramfs)
{
	static const struct {
		const char *tmpl, *out, *vendor;
	} jobs[] = {
		{ "qemu.yaml", "lava-qemu-intel.yaml", "intel" },
		{ "qemu.yaml", "lava-qemu-amd.yaml", "amd" },
		{ "x86.yaml", "lava-x86-intel.yaml", "intel" },
		{ "x86.yaml", "lava-x86-amd.yaml", "amd" },
		{ "qemu-tcg.yaml", "lava-qemu-tcg.yaml", "" },
	};
	const char *pkg_version = ctx->fetch.source.deb_version;
	const struct series *ser = series_of(ctx);
	char *rev = ser->revision ? xstrfmt("%d", ser->revision) : NULL;
	char *psh = series_patchset_hash(ser);
	struct subst s[] = {
		{ "@ARTIFACTS@", url },
		{ "@KERNEL_FILE@", k->file },
		{ "@KERNEL@", k->what },
		{ "@TCG_ACCEL@", k->tcg },
		{ "@SHA256_KERNEL@", sum_kernel },
		{ "@SHA256_INITRAMFS@", sum_initramfs },
		{ "@KVERIFY_VERSION@", kverify_version },
		{ "@TARGET@", ctx->t->name },
		{ "@PACKAGE@", ctx->t->deb_package ? ctx->t->deb_package :
			ctx->t->source },
		{ "@PACKAGE_VERSION@", pkg_version ? pkg_version : "none" },
		{ "@TOLERANCE@", BUNDLE_TOLERANCE },
		{ "@SERIES_REVISION@", rev ? rev : "none" },
		{ "@CHANGE_ID@", ser->change_id ? ser->change_id : "none" },
		{ "@PATCHSET_HASH@", psh ? psh : "none" },
		{ "@MESSAGE_ID@", ser->message_id ? ser->message_id : "none" },
		{ "@VENDOR@", NULL },
	};
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < ARRAY_SIZE(jobs); i++) {
		char *tmpl = xstrfmt("%s/tools/lava/%s", ctx->repo,
				     jobs[i].tmpl);
		char *out = xstrfmt("%s/%s", dir, jobs[i].out);

		s[ARRAY_SIZE(s) - 1].value = jobs[i].vendor;
		ret = fill(tmpl, out, s, ARRAY_SIZE(s));
		free(tmpl);
		free(out);
	}
	free(rev);
	free(psh);
	return ret;
}

/*
 * The latency job's kit: the guest's initramfs (tools/guest/latency-initrd:
 * busybox, pmu-toggle built static, the workload as /init), the host
 * driver and the guest's source, for a lab host (docs/lab.md).
 */
static int write_latency_kit(const struct verify_ctx *ctx, const char *dir)
{
	struct child c = CHILD_INIT;
	char *out = xstrfmt("%s/latency.cpio", dir);
	char *from = xstrfmt("%s/tools/guest/latency-host", ctx->repo);
	char *to = xstrfmt("%s/latency-host", dir);
	int ret;

	strvec_pushf(&c.args, "%s/tools/guest/latency-initrd", ctx->repo);
	strvec_push(&c.args, out);
	if (ctx->opt->busybox)
		strvec_pushf(&c.env, "KVERIFY_BUSYBOX=%s", ctx->opt->busybox);
	c.log = ctx->log;
	ret = run_child(&c);
	if (ret || c.status)
		ret = error("bundle: tools/guest/latency-initrd %s failed (gcc -static, a static busybox: see the log)",
			    out);
	if (!ret)
		ret = copy(from, to);
	if (!ret && chmod(to, 0755))
		ret = error("bundle: chmod %s: %s", to, strerror(errno));
	child_clear(&c);
	free(out);
	free(from);
	free(to);
	return ret;
}

int write_bundle(const struct verify_ctx *ctx)
{
	char *dir = xstrfmt("%s/bundle", ctx->results);
	struct bundle_kernel k;
	char *from[3];
	const char *name[3];
	char *sums[2] = { NULL, NULL }, *url = NULL, *path;
	struct strbuf list = STRBUF_INIT;
	int i, ret = mkdir_p(dir);

	bundle_kernel(ctx, &k);
	from[0] = k.from;
	name[0] = k.file;
	from[1] = xstrfmt("%s/boot/initramfs.cpio", ctx->results);
	name[1] = "initramfs.cpio";
	from[2] = xstrfmt("%s/tools/guest/README", ctx->repo);
	name[2] = "README";

	for (i = 0; i < 3; i++) {
		char *to = xstrfmt("%s/%s", dir, name[i]);

		if (!ret)
			ret = copy(from[i], to);
		if (!ret && i < 2) {
			sums[i] = sha256(to);
			if (!sums[i])
				ret = -1;
		}
		free(to);
		free(from[i]);
	}
	if (!ret)
		ret = write_latency_kit(ctx, dir);
	if (!ret) {
		strbuf_addf(&list, "%s  %s\n%s  initramfs.cpio\n",
			    sums[0], k.file, sums[1]);
		path = xstrfmt("%s/SHA256SUMS", dir);
		ret = write_file(path, list.buf, list.len);
		free(path);
	}
	if (!ret) {
		const char *given = ctx->opt->artifacts;
		char *abs = abspath(dir);

		url = given ? xstrdup(given) : xstrfmt("file://%s", abs);
		free(abs);
		strbuf_reset(&list);
		if (!given && bundle_check_artifacts(url, &list)) {
			error("bundle: %s: %s; give ARTIFACTS=URL", url,
			      list.buf);
			ret = -1;
		}
		/* ARTIFACTS=https://host/kverify/ is https://host/kverify */
		while (ends_with(url, "/") && !ends_with(url, ":///"))
			url[strlen(url) - 1] = '\0';
		if (!ret)
			ret = write_jobs(ctx, dir, url, &k, sums[0], sums[1]);
	}
	if (!ret)
		printf("  bundle: %s (artifacts at %s; the kernel: %s)\n",
		       dir, url, k.what);
	free(k.what);
	strbuf_release(&list);
	free(sums[0]);
	free(sums[1]);
	free(url);
	free(dir);
	return ret;
}
