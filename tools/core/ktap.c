// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP, as the guest runner prints it on the console: the top-level
 * "ok N name # SKIP reason" / "not ok N name" lines after "KTAP version 1",
 * with "# " diagnostic lines before each result attached to it.  Kernel
 * messages interleaved on the console are ignored.
 */
#include <stdlib.h>
#include <string.h>

#include "core/ktap.h"
#include "lib/strbuf.h"

#define DIAG_MAX 8192

static void add_case(struct ktap_result *r, struct test_case *tc)
{
	if (r->nr == r->alloc) {
		r->alloc = r->alloc ? r->alloc * 2 : 16;
		r->v = xrealloc(r->v, r->alloc * sizeof(*r->v));
	}
	r->v[r->nr++] = *tc;
}

static char *dup_range(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* "ok 1 name # SKIP why" or "not ok 1 name # why" */
static int parse_result(char *line, struct test_case *tc)
{
	const char *rest;
	char *p, *hash;
	int ok = skip_prefix(line, "ok ", &rest);

	if (!ok && !skip_prefix(line, "not ok ", &rest))
		return 0;
	p = line + (rest - line);	/* the same place, writable */
	if (*p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	hash = strstr(p, " # ");
	if (hash)
		*hash = '\0';
	memset(tc, 0, sizeof(*tc));
	tc->name = xstrdup(trim(p));
	tc->status = ok ? TEST_PASS : TEST_FAIL;
	if (hash) {
		char *d = trim(hash + 3);

		if (!strncasecmp(d, "SKIP", 4) && ok) {
			tc->status = TEST_SKIP;
			d = trim(d + 4);
		}
		tc->reason = xstrdup(d);
	}
	return 1;
}

static void parse_line(char *line, struct ktap_result *r, int *started,
		       struct strbuf *diag, double *secs)
{
	struct test_case tc;
	const char *rest;
	char *end;

	if (starts_with(line, "KTAP version") ||
	    starts_with(line, "TAP version")) {
		*started = 1;
		return;
	}
	if (!*started)
		return;
	if (skip_prefix(line, "1..", &rest)) {
		r->planned = atoi(rest);
		return;
	}
	if (starts_with(line, "Bail out!")) {
		r->bail_out = 1;
		return;
	}
	if (line[0] == '#') {
		if (skip_prefix(line, "# time: ", &rest)) {
			double t = strtod(rest, &end);

			if (end != rest && t >= 0 && t < 1e7 &&
			    !strcmp(end, "s"))
				*secs = t;
		}
		if (diag->len < DIAG_MAX) {
			strbuf_addstr(diag, line);
			strbuf_addch(diag, '\n');
		}
		return;
	}
	if (!parse_result(line, &tc))
		return;
	tc.output = diag->len ? xstrdup(diag->buf) : NULL;
	tc.seconds = *secs;
	*secs = 0;
	strbuf_reset(diag);
	add_case(r, &tc);
}

int ktap_parse(const char *text, size_t len, struct ktap_result *out)
{
	struct strbuf diag = STRBUF_INIT;
	size_t pos = 0;
	double secs = 0;
	int started = 0;

	out->planned = -1;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t n = end - pos;
		char *line;

		if (n && text[pos + n - 1] == '\r')
			n--;
		line = dup_range(text + pos, n);
		parse_line(line, out, &started, &diag, &secs);
		free(line);
		pos = end + 1;
	}
	strbuf_release(&diag);
	return started ? 0 : -1;
}

size_t ktap_count(const struct ktap_result *r, enum test_status s)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr; i++)
		n += r->v[i].status == s;
	return n;
}

void ktap_clear(struct ktap_result *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free(r->v[i].name);
		free(r->v[i].reason);
		free(r->v[i].output);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/*
 * The guest runner's last line (tools/guest/init) is in @runner, what it
 * wrote to its port: "KVERIFY-DONE" as a whole line, a serial port's CR
 * before its newline.  The tests' output reaches that port only as the
 * runner's "# " lines, so the word inside a line is not the runner's.
 */
int ktap_runner_done(const char *runner)
{
	static const char done[] = "KVERIFY-DONE";
	const char *p = runner;
	size_t n = strlen(done);

	while ((p = strstr(p, done))) {
		const char *end = p + n;

		if (*end == '\r')
			end++;
		if ((p == runner || p[-1] == '\n') && (*end == '\n' || !*end))
			return 1;
		p += n;
	}
	return 0;
}
