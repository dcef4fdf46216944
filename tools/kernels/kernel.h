/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_KERNEL_H
#define KVERIFY_KERNEL_H

/*
 * The kernel a run builds, as the fetch, config, build, kabi and boot
 * steps and the reports see it: our own, configured and built from the
 * tree (own.c); the tree's KVM objects in Debian's config (CONFIG=distro,
 * distro_config.c); or Debian's built kernel of the source's version,
 * with KVM's modules rebuilt against its headers (debian_*.c).  The
 * engine picks the one wanted (BOOT=, CONFIG=); the config step records
 * the one used (config_out.kernel_ops: BOOT=auto may fall back).
 */
#include "core/step.h"

struct kernel_ops {
	const char *boot;	/* report.json's "boot": "own", "distro" */
	/* its build directory in the cache, for the target's name */
	const char *build_dir;
	/* the fetch: Debian's linux-config package beside the source */
	int debian_config;
	/* its build makes arch/x86/kvm/'s objects only, which nothing boots */
	int objects_only;
	/*
	 * A kernel built already: only KVM's modules are, against its
	 * headers and config; --flavours' rows are its other flavours.
	 */
	int prebuilt;
	/* config: may set @out->boot_why, and then @fallback configures */
	enum step_status (*configure)(const struct verify_ctx *ctx,
				      struct config_out *out,
				      struct step_result *r);
	const struct kernel_ops *fallback;
	/* the reports: the config the build used, by name (allocated) */
	char *(*config_name)(const struct verify_ctx *ctx);
	/*
	 * fetch: what @configure would download, fetched while the source
	 * unpacks; NULL: nothing.  Returns as debian_prefetch() does.
	 */
	int (*prefetch)(const struct verify_ctx *ctx, struct step_result *r);
	/* build: the kernel, or the modules */
	enum step_status (*build)(const struct verify_ctx *ctx,
				  struct build_out *out,
				  struct step_result *r);
	/* kabi: the Module.symvers the modules' CRCs match; NULL: none */
	char *(*symvers)(const struct config_out *cfg);
	/* boot: the kernel's modules the initramfs takes; NULL: none */
	int (*initramfs)(const struct verify_ctx *ctx, struct step_result *r,
			 const char *dir, struct strbuf *list);
	/*
	 * boot, kabi, the bundle and the reports: the built kernel that
	 * boots, as kernel_describe() says; NULL: our own bzImage
	 */
	int (*describe)(const struct verify_ctx *ctx,
			const struct config_out *cfg, struct kernel_desc *d);
};

extern const struct kernel_ops own_kernel, distro_config_kernel,
	debian_kernel;

/**
 * kernel_describe() - The built kernel a run boots, when not its bzImage.
 * @ctx: The run, after its config step (a flavour's rows: theirs).
 * @d: Filled: the image, its release, its package and that package's
 *	version, which stay the config step's.
 *
 * Return: 0, or -1: the run boots the bzImage its build makes, or its
 * config step found no image.
 */
static inline int kernel_describe(const struct verify_ctx *ctx,
				  struct kernel_desc *d)
{
	const struct kernel_ops *k = kernel_of(ctx);

	return k->describe ? k->describe(ctx, &ctx->config, d) : -1;
}

/**
 * configure_own_kernel() - Our own kernel's config, from the fragment.
 * @ctx: The run: its tree patched.
 * @out: The config step's output, which our own kernel leaves as it is.
 * @r: Its result: the reason, the tools' output.
 *
 * Return: STEP_PASS when every option the fragment asks for survived.
 */
enum step_status configure_own_kernel(const struct verify_ctx *ctx,
				      struct config_out *out,
				      struct step_result *r);

/**
 * build_own_kernel() - Our own bzImage, or the tree's KVM objects.
 * @ctx: The run, configured.
 * @out: The build step's output: what was built, ccache's counts.
 * @r: Its result.
 *
 * Only arch/x86/kvm/ is built with --build=objects or for a kernel whose
 * build is objects only; a new warning in a file the series touches
 * fails it.
 *
 * Return: STEP_PASS, or STEP_FAIL.
 */
enum step_status build_own_kernel(const struct verify_ctx *ctx,
				  struct build_out *out,
				  struct step_result *r);

/**
 * own_config_name() - Our own kernel's config, by name.
 * @ctx: The run.
 *
 * Return: the fragment's path in the repository, to be freed.
 */
char *own_config_name(const struct verify_ctx *ctx);

/**
 * configure_distro() - Debian's amd64 config of the source's version.
 * @ctx: The run: its tree patched, Debian's config fetched beside it.
 * @out: The config step's output, which it leaves as it is.
 * @r: Its result.
 *
 * The config is made buildable here (no signing keys, no BTF) and must
 * have KVM, KVM_INTEL and KVM_AMD.
 *
 * Return: STEP_PASS, or STEP_FAIL: no such config, or no KVM in it.
 */
enum step_status configure_distro(const struct verify_ctx *ctx,
				  struct config_out *out,
				  struct step_result *r);

/**
 * distro_config_name() - CONFIG=distro's config, by name.
 * @ctx: The run.
 *
 * Return: "Debian config-amd64 of <package>", to be freed.
 */
char *distro_config_name(const struct verify_ctx *ctx);

#endif
