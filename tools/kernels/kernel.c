// SPDX-License-Identifier: GPL-2.0
/* The kernels a run builds: our own, in Debian's config, Debian's. */
#include "kernels/debian.h"
#include "kernels/kernel.h"

const struct kernel_ops own_kernel = {
	.boot = "own",
	.build_dir = "build/%s",
	.configure = configure_own_kernel,
	.config_name = own_config_name,
	.build = build_own_kernel,
};

const struct kernel_ops distro_config_kernel = {
	.boot = "own",
	.build_dir = "build/%s-distro",
	.debian_config = 1,
	.objects_only = 1,
	.configure = configure_distro,
	.config_name = distro_config_name,
	.build = build_own_kernel,
};

const struct kernel_ops debian_kernel = {
	.boot = "distro",
	.build_dir = "build/%s-debian",
	.prebuilt = 1,
	.prefetch = debian_prefetch,
	.configure = configure_debian,
	.fallback = &own_kernel,
	.config_name = debian_config_name,
	.build = build_debian_modules,
	.symvers = debian_symvers,
	.initramfs = debian_initramfs,
	.describe = debian_describe,
};
