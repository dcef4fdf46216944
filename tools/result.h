/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_RESULT_H
#define KVERIFY_RESULT_H

/*
 * What a step gives back, and a tool run into it: below the steps, for the
 * pipeline's steps and for the source (source.c) that b4 uses as well.
 */
#include "run.h"
#include "strbuf.h"

/* ERROR: the tool or the machine failed (disk, tool, interrupt), not the patch. */
enum step_status { STEP_PASS, STEP_FAIL, STEP_SKIP, STEP_NA, STEP_ERROR };

struct step_result {
	const char *name;	/* the step's */
	enum step_status status;
	struct strbuf reason;	/* one line */
	struct strbuf detail;	/* shown on failure: log tail, diff, ... */
	double seconds;
	char *log;
};

#define STEP_RESULT_INIT(step) \
	{ .name = (step), .reason = STRBUF_INIT, .detail = STRBUF_INIT }

const char *step_status_name(enum step_status s);

/* Run @c with @log and @timeout, unless it has its own; on failure say why in @r. */
int run_tool(const char *log, unsigned int timeout, struct step_result *r,
	     struct child *c);
void step_fail_tail(struct step_result *r, const char *log, int lines);
void note_enospc(struct step_result *r);

#endif
