/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_STEPS_H
#define KVERIFY_STEPS_H

/*
 * The steps, a file each: what each reads is the context, read-only; what
 * it writes is its own output, the second argument where it has one.
 */
#include "step.h"

/* Steps that read the context only. */
enum step_status prepare_tree(const struct verify_ctx *ctx,
			      struct step_result *r);
enum step_status apply_series(const struct verify_ctx *ctx,
			      struct step_result *r);
enum step_status run_checkpatch(const struct verify_ctx *ctx,
				struct step_result *r);
enum step_status check_cocci(const struct verify_ctx *ctx,
			     struct step_result *r);
enum step_status check_kabi(const struct verify_ctx *ctx,
			    struct step_result *r);

/* Steps that write an output of their own, in the context. */
enum step_status fetch_source(const struct verify_ctx *ctx,
			      struct fetch_out *out, struct step_result *r);
void sim_out_save(const struct sim_out *out, struct strbuf *data);
int sim_out_load(struct sim_out *out, struct strbuf *data);
enum step_status run_sim(const struct verify_ctx *ctx, struct sim_out *out,
			 struct step_result *r);
enum step_status configure_kernel(const struct verify_ctx *ctx,
				  struct config_out *out,
				  struct step_result *r);
enum step_status build_kernel(const struct verify_ctx *ctx,
			      struct build_out *out, struct step_result *r);
enum step_status build_selftests(const struct verify_ctx *ctx,
				 struct selftests_out *out,
				 struct step_result *r);
enum step_status boot_and_test(const struct verify_ctx *ctx,
			       struct boot_out *out, struct step_result *r);

#endif
