// SPDX-License-Identifier: GPL-2.0
/*
 * --bundle: what a lab with a PMU needs to run the same tests: the kernel,
 * the initramfs with the KTAP runner, a README and LAVA job definitions,
 * in results/<target>/bundle/.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "bundle.h"
#include "usage.h"

static int copy(const char *from, const char *to)
{
	int ret = copy_file(from, to);

	if (ret)
		error("bundle: %s: %s", from, strerror(errno));
	return ret;
}

int write_bundle(const struct verify_ctx *ctx)
{
	char *dir = xstrfmt("%s/bundle", ctx->results);
	char *files[5][2] = {
		{ xstrfmt("%s/arch/x86/boot/bzImage", build_dir(ctx)), "bzImage" },
		{ xstrfmt("%s/boot/initramfs.cpio", ctx->results),
		  "initramfs.cpio" },
		{ xstrfmt("%s/tools/guest/README", ctx->repo), "README" },
		{ xstrfmt("%s/tools/lava/qemu.yaml", ctx->repo),
		  "lava-qemu.yaml" },
		{ xstrfmt("%s/tools/lava/x86.yaml", ctx->repo),
		  "lava-x86.yaml" },
	};
	int i, ret = mkdir_p(dir);

	for (i = 0; i < 5; i++) {
		char *to = xstrfmt("%s/%s", dir, files[i][1]);

		if (!ret)
			ret = copy(files[i][0], to);
		free(to);
		free(files[i][0]);
	}
	if (!ret)
		printf("  bundle: %s\n", dir);
	free(dir);
	return ret;
}
