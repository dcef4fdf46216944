/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_DEBIAN_H
#define KVERIFY_DEBIAN_H

/* Debian's kernel: its packages, the patched modules against its headers. */
#include "step.h"

enum step_status configure_debian(const struct verify_ctx *ctx,
				  struct config_out *out,
				  struct step_result *r);
enum step_status build_debian_modules(const struct verify_ctx *ctx,
				      struct build_out *out,
				      struct step_result *r);
int debian_initramfs(const struct verify_ctx *ctx, struct step_result *r,
		     const char *dir, struct strbuf *list);

#endif
