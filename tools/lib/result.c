// SPDX-License-Identifier: GPL-2.0
/* A step's result, and a tool run into it. */
#include <string.h>

#include "lib/result.h"

const char *step_status_name(enum step_status s)
{
	static const char *const names[] = {
		[STEP_PASS] = "PASS", [STEP_FAIL] = "FAIL",
		[STEP_SKIP] = "SKIP", [STEP_NA] = "N-A",
		[STEP_ERROR] = "ERROR",
	};

	return names[s];
}

int blame_machine(struct step_result *r)
{
	r->cause = CAUSE_MACHINE;
	return -1;
}

enum step_status step_outcome(enum step_status st,
			      const struct step_result *r)
{
	return st == STEP_FAIL && r->cause == CAUSE_MACHINE ? STEP_ERROR : st;
}

/* The last @lines lines of @log, into r->detail. */
void step_fail_tail(struct step_result *r, const char *log, int lines)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int n = 0;

	if (!log || strbuf_read_file(&sb, log, 64 << 20) < 0 || !sb.len)
		goto out;
	for (i = sb.len - 1; i > 0; i--)
		if (sb.buf[i - 1] == '\n' && ++n >= lines)
			break;
	strbuf_reset(&r->detail);
	strbuf_add(&r->detail, sb.buf + i, sb.len - i);
out:
	strbuf_release(&sb);
}

int run_tool(const char *log, unsigned int timeout, struct step_result *r,
	     struct child *c)
{
	int ret;

	if (!c->log)
		c->log = log;
	if (!c->timeout)
		c->timeout = timeout;
	ret = run_child(c);
	if (ret) {
		strbuf_reset(&r->reason);
		child_describe_failure(c, &r->reason);
		r->cause = c->spawn_errno ? CAUSE_MACHINE : CAUSE_PATCH;
		step_fail_tail(r, log, 20);
		note_enospc(r);
	}
	return ret;
}

/* A tool that ran out of disk says so in its output; say it in the reason. */
void note_enospc(struct step_result *r)
{
	if (strstr(r->detail.buf, "No space left on device")) {
		strbuf_addstr(&r->reason,
			      "; no space left on device (cache or results)");
		blame_machine(r);
	}
}
