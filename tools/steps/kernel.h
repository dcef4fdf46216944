/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_KERNEL_H
#define KVERIFY_KERNEL_H

/*
 * The kernel a run boots, as the config, build, kabi and boot steps see
 * it: our own, configured and built from the tree, or Debian's built
 * kernel of the source's version, with KVM's modules rebuilt against its
 * headers.  The engine picks the one wanted (BOOT=); the config step
 * records the one used (config_out.kernel_ops: BOOT=auto may fall back).
 */
#include "core/step.h"

struct kernel_ops {
	const char *boot;	/* report.json's "boot": "own", "distro" */
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

extern const struct kernel_ops own_kernel, debian_kernel;

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

/* Our own, in step_config.c and step_build.c. */
enum step_status configure_own_kernel(const struct verify_ctx *ctx,
				      struct config_out *out,
				      struct step_result *r);
enum step_status build_own_kernel(const struct verify_ctx *ctx,
				  struct build_out *out,
				  struct step_result *r);

#endif
