/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_REPORT_READ_H
#define KVERIFY_REPORT_READ_H

#include <stddef.h>

#include "lib/strbuf.h"

/*
 * A results/<target>/report.json read back (docs/report.md), for those who
 * judge a run after it: make send's gate, kverify matrix.
 */
struct report_step {
	char *name, *status, *reason;
	double seconds;
};

struct report_view {
	struct report_step *steps;
	size_t nr, alloc;
	double seconds, cold_seconds;	/* -1: not in the report */
	long sim_traces;		/* -1: no "sim" object */
	long sim_traces_asked;		/* -1: not in the report */
};

#define REPORT_VIEW_INIT { NULL, 0, 0, -1, -1, -1, -1 }

/*
 * Parse @json (NUL-terminated) into @v: 0, or -1 after a line in @err
 * saying where the JSON is broken.
 */
int report_parse(struct report_view *v, const char *json, struct strbuf *err);
/* Read and parse @path: 0, or -1 with @err ("cannot read" or as above). */
int report_read(struct report_view *v, const char *path, struct strbuf *err);
const struct report_step *report_step(const struct report_view *v,
				      const char *name);
void report_view_clear(struct report_view *v);

#endif
