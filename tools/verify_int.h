/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_VERIFY_INT_H
#define KVERIFY_VERIFY_INT_H

/*
 * What the engine's two files share, private to them: verify.c (the
 * order, the verdicts, the flavours) runs a step by verify_beside.c.
 */
#include <sys/types.h>

#include "steps/steps.h"

/* A STEP_BESIDE step's process, and the pipe its result comes by. */
struct beside {
	pid_t pid;
	int fd;
};

void *step_out(struct verify_ctx *ctx, const struct step *s);
void run_one(struct verify_ctx *ctx, const struct step *s,
	     struct step_result *r, int progress);
int beside_start(struct verify_ctx *ctx, const struct step *s,
		 struct step_result *r, struct beside *b);
void beside_join(struct verify_ctx *ctx, const struct step *s,
		 struct step_result *r, struct beside *b);

#endif
