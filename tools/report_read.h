/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_REPORT_READ_H
#define KVERIFY_REPORT_READ_H

#include <stddef.h>

#include "lib/json.h"
#include "lib/strbuf.h"

/*
 * A results/<target>/report.json read back (docs/report.md), for those who
 * judge a run after it: make send's gate, kverify matrix, kverify summary.
 */
struct report_step {
	char *name, *status, *reason;
	char *log;			/* NULL: not in the report */
	double seconds;
};

/* One of the sim's figures: a tolerance and its count per million. */
struct report_fig {
	double tolerance, value;
};

struct report_figs {
	struct report_fig *v;
	size_t nr, alloc;
};

struct report_view {
	struct report_step *steps;
	size_t nr, alloc;
	double seconds, cold_seconds;	/* -1: not in the report */
	long sim_traces;		/* -1: no "sim" object */
	long sim_traces_asked;		/* -1: not in the report */
	/* sim's reprograms_ and reads_per_million_emulated, in their order */
	struct report_figs reprograms, reads;
};

#define REPORT_VIEW_INIT { .seconds = -1, .cold_seconds = -1, \
	.sim_traces = -1, .sim_traces_asked = -1 }

/*
 * Parse @json (NUL-terminated) into @v: 0, or -1 after a line in @err
 * saying where the JSON is broken.
 */
int report_parse(struct report_view *v, const char *json, struct strbuf *err);
/* Read and parse @path: 0, or -1 with @err ("cannot read" or as above). */
int report_read(struct report_view *v, const char *path, struct strbuf *err);

/**
 * report_steps() - a "steps" array as report.json has it, into a view
 * @ps: the parse, at the array (a report's, or one of sweep.json's
 *	versions', which have the same steps)
 * @v: where each step is added, its seconds -1 and its reason and log
 *	NULL where the step has none
 *
 * Return: 0 with ps->p after the array, or -1 (ps->err says where; a step
 * without its name or status is an error).
 */
int report_steps(struct json_parser *ps, struct report_view *v);

const struct report_step *report_step(const struct report_view *v,
				      const char *name);
void report_view_clear(struct report_view *v);

#endif
