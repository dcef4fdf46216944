// SPDX-License-Identifier: GPL-2.0
/* The kernels a run boots: our own, and Debian's (kernel.h). */
#include "debian/debian.h"
#include "steps/kernel.h"

const struct kernel_ops own_kernel = {
	.boot = "own",
	.configure = configure_own_kernel,
	.build = build_own_kernel,
};

const struct kernel_ops debian_kernel = {
	.boot = "distro",
	.prebuilt = 1,
	.prefetch = debian_prefetch,
	.configure = configure_debian,
	.fallback = &own_kernel,
	.build = build_debian_modules,
	.symvers = debian_symvers,
	.initramfs = debian_initramfs,
	.describe = debian_describe,
};
