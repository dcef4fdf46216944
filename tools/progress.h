/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_PROGRESS_H
#define KVERIFY_PROGRESS_H

#include <sys/types.h>

#include "core/step.h"

struct progress {
	const struct verify_ctx *ctx;
	const char *step;
	double t0, last, every;
	long objects, total;
	off_t off;
	int tty, shown, counts_objects;
};

void progress_start(struct progress *p, const struct verify_ctx *ctx,
		    const char *step, int counts_objects);
void progress_end(struct progress *p, enum step_status st);

#endif
