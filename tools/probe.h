/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_PROBE_H
#define KVERIFY_PROBE_H

#include "core/step.h"

/* VERSION and PATCHLEVEL of @tree's Makefile as X * 1000 + Y, or -1. */
long tree_version(const char *tree);

/* SERIES auto: the variant of the series that applies to the source. */
enum step_status probe_series(const struct verify_ctx *ctx,
			      struct fetch_out *out, struct step_result *r);

#endif
