/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_PROBE_H
#define KVERIFY_PROBE_H

#include "core/step.h"

/**
 * tree_version() - A tree's version, from its Makefile.
 * @tree: The tree.
 *
 * Return: VERSION * 1000 + PATCHLEVEL, or -1 when the Makefile has none.
 */
long tree_version(const char *tree);

/**
 * probe_series() - SERIES auto: the variant that applies to the source.
 * @ctx: The run: its source fetched.
 * @out: The fetch step's output: the series found.
 * @r: The fetch step's result: which variant, or why none.
 *
 * Return: STEP_PASS (a variant, or n/a); STEP_FAIL when no variant
 * applies; STEP_ERROR when spatch cannot run here.
 */
enum step_status probe_series(const struct verify_ctx *ctx,
			      struct fetch_out *out, struct step_result *r);

#endif
