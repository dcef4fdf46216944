/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_RESULT_H
#define KVERIFY_RESULT_H

/*
 * What a step gives back, and a tool run into it: below the steps, for the
 * pipeline's steps and for the source (source.c) that b4 uses as well.
 */
#include "lib/run.h"
#include "lib/strbuf.h"

/* ERROR: the tool or the machine failed (disk, tool, interrupt), not the patch. */
enum step_status { STEP_PASS, STEP_FAIL, STEP_SKIP, STEP_NA, STEP_ERROR };

/*
 * Whose fault the last failure in a step was: the patch's (or the tree's,
 * a timeout's), or the machine's: a tool that could not run, a missing
 * package, a full disk.  Set by what saw the failure, never read off the
 * reason's words.
 */
enum step_cause { CAUSE_PATCH, CAUSE_MACHINE };

/*
 * Why a step did not run: set with its SKIP or N-A by the engine's one
 * decision (verify.c's step_verdict()), for the pipeline's rows and each
 * flavour's alike, and read where a skip the user asked for must be told
 * from one a failure caused.
 */
enum skip_cause {
	SKIP_NONE,		/* it ran, or a step decided its own N-A */
	SKIP_NO_SERIES,		/* N-A: the target has no series */
	SKIP_INTERRUPTED,	/* the run was interrupted before it */
	SKIP_USER,		/* --skip named it */
	SKIP_NEEDS,		/* a step it needs failed or did not run */
	SKIP_STOPPED,		/* the run stopped at a failure before it */
	SKIP_KERNEL,		/* N-A: a flavour's row, and no Debian kernel */
};

struct step_result {
	const char *name;	/* the step's */
	enum step_status status;
	struct strbuf reason;	/* one line */
	struct strbuf detail;	/* shown on failure: log tail, diff, ... */
	double seconds;
	double cpu_seconds;	/* user + system, kverify's and its children's */
	char *log;
	enum step_cause cause;	/* of the last failure */
	enum skip_cause skipped;
};

#define STEP_RESULT_INIT(step) \
	{ .name = (step), .reason = STRBUF_INIT, .detail = STRBUF_INIT }

const char *step_status_name(enum step_status s);

/* What failed is the machine, not the patch (r->cause): returns -1. */
int blame_machine(struct step_result *r);
/* A step's @st as reported: a FAIL the machine caused is an ERROR. */
enum step_status step_outcome(enum step_status st,
			      const struct step_result *r);

/*
 * Run @c with @log and @timeout, unless it has its own; on failure say why
 * in @r, and whose fault it is: a tool that could not start, or a full
 * disk, is the machine's.
 */
int run_tool(const char *log, unsigned int timeout, struct step_result *r,
	     struct child *c);
void step_fail_tail(struct step_result *r, const char *log, int lines);
void note_enospc(struct step_result *r);

#endif
