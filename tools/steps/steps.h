/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_STEPS_H
#define KVERIFY_STEPS_H

/*
 * A step's contract.  A step is a file, tools/steps/step_<name>.c, that
 * defines a const struct step <name>_step, and a line of pipeline.h.  It
 * reads the run's context, read-only; what it writes is its own output,
 * which the engine hands it: a type of its own header,
 * tools/steps/step_<name>.h, with the accessor the steps after it read it
 * by (STEP_OWN_OUTPUT), or one of the context's fields the kernels read
 * (STEP_OUTPUT).
 */
#include <stddef.h>

#include "core/step.h"

enum step_idx {
#define STEP(name) STEP_IDX_##name,
#include "steps/pipeline.h"
#undef STEP
	NR_STEPS
};

/* A step's needs: the steps whose outputs it reads. */
#define NEEDS(idx) (1u << (idx))

struct step {
	const char *name;
	/* @out: the step's output in the context, NULL when it has none */
	enum step_status (*run)(const struct verify_ctx *ctx, void *out,
				struct step_result *r);
	unsigned int timeout;	/* seconds, for each tool the step runs */
	unsigned int flags;	/* STEP_RUNS_WHEN_NA ... below */
	unsigned int needs;	/* NEEDS(STEP_IDX_x) | ... */
	/*
	 * STEP_OUTPUT(): where in struct verify_ctx, and its size (0: none);
	 * STEP_OWN_OUTPUT(): STEP_OUT_OWN, and its type's size
	 */
	size_t out, out_size;
	/* Its output before any step runs, zeroed first; and its end. */
	void (*init_out)(void *out);
	void (*clear_out)(void *out);
	/*
	 * STEP_BESIDE: its output, saved in the step's own process and
	 * loaded in the engine's (non-zero: what came is not whole).
	 */
	void (*save_out)(const void *out, struct strbuf *sb);
	int (*load_out)(void *out, struct strbuf *sb);
};

/* The step writes @field of struct verify_ctx, and nothing else there. */
#define STEP_OUTPUT(field)						\
	.out = offsetof(struct verify_ctx, field),			\
	.out_size = sizeof(((const struct verify_ctx *)0)->field)

/*
 * The step writes a @type of its own header, which the engine allocates
 * and finds by the step (step_output()), and nothing else.
 */
#define STEP_OUT_OWN	((size_t)-1)
#define STEP_OWN_OUTPUT(type)						\
	.out = STEP_OUT_OWN,						\
	.out_size = sizeof(type)

/* It also runs for targets whose series is n/a. */
#define STEP_RUNS_WHEN_NA	(1u << 0)
/* Its failure does not stop the later steps, even without --keep-going. */
#define STEP_INDEPENDENT	(1u << 1)
/*
 * It runs in a process of its own from the moment its needs have passed,
 * beside the engine's steps, unless make's jobserver counts the jobs: the
 * engine waits for it before a step that needs it, unless it is
 * independent before every step below it in the table (its failure stops
 * them as when the steps run one after another), and at the end.
 */
#define STEP_BESIDE		(1u << 2)
/*
 * kbuild compiles objects in it: the progress display counts them, and
 * the count of a PASS is the next run's total (progress.c).
 */
#define STEP_COUNTS_OBJECTS	(1u << 3)
/* It reads the source and the series, not a kernel built: a sweep runs it. */
#define STEP_SOURCE_ONLY	(1u << 4)

/* Each step's, defined in its tools/steps/step_<name>.c. */
extern const struct step
#define STEP(name) name##_step,
#include "steps/pipeline.h"
#undef STEP
	pipeline_end;	/* never defined: it only ends the list */

#endif
