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

/**
 * step_status_name() - A status as the reports write it.
 * @s: The status.
 *
 * Return: "PASS", "FAIL", "SKIP", "N-A" or "ERROR".
 */
const char *step_status_name(enum step_status s);

/**
 * blame_machine() - What failed is the machine, not the patch.
 * @r: The step's result; its cause is set to CAUSE_MACHINE.
 *
 * Return: -1, for a caller's "return blame_machine(r);".
 */
int blame_machine(struct step_result *r);

/**
 * step_outcome() - A step's status as reported.
 * @st: What the step returned.
 * @r: Its result, whose cause decides.
 *
 * Return: @st, or STEP_ERROR for a FAIL the machine caused.
 */
enum step_status step_outcome(enum step_status st,
			      const struct step_result *r);

/**
 * run_tool() - Run a tool for a step, and say why it failed.
 * @log: The file its output is appended to, unless @c has its own.
 * @timeout: Seconds, unless @c has its own.
 * @r: The step's result: on failure the reason, the log's tail and the
 *	cause (a tool that could not start, or a full disk, is the machine's,
 *	anything else the patch's).
 * @c: The tool.
 *
 * Return: 0, or non-zero when it did not exit 0.
 */
int run_tool(const char *log, unsigned int timeout, struct step_result *r,
	     struct child *c);

/**
 * step_fail_tail() - The last lines of a log, as a failure's detail.
 * @r: The step's result, whose detail they replace.
 * @log: The log, or NULL: nothing.
 * @lines: How many.
 */
void step_fail_tail(struct step_result *r, const char *log, int lines);

/**
 * note_enospc() - A full disk, when that is why a step failed.
 * @r: The step's result: when its detail (a tool's output) says "No
 *	space left on device", the reason says so and the machine is blamed.
 */
void note_enospc(struct step_result *r);

#endif
