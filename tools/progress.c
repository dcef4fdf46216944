// SPDX-License-Identifier: GPL-2.0
/*
 * The progress display of a running step: its time, and for a step that
 * counts objects (STEP_COUNTS_OBJECTS) the objects kbuild compiled so far,
 * from the "  CC  x.o" lines of its log, against what its last PASS
 * compiled.  A line a second on a TTY, else a line every 30 s.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/run.h"
#include "lib/options.h"
#include "progress.h"

/* Count the complete new lines of the step's log that kbuild's CC/AS print. */
static void count_objects(struct progress *p)
{
	char buf[65536];
	ssize_t n, i, bol;
	int fd = p->ctx->log ? open(p->ctx->log, O_RDONLY | O_CLOEXEC) : -1;

	if (fd < 0)
		return;
	while ((n = pread(fd, buf, sizeof(buf), p->off)) > 0) {
		for (bol = 0, i = 0; i < n; i++) {
			if (buf[i] != '\n')
				continue;
			if (i - bol >= 5 && (!memcmp(buf + bol, "  CC ", 5) ||
					     !memcmp(buf + bol, "  AS ", 5)))
				p->objects++;
			bol = i + 1;
		}
		if (!bol && n < (ssize_t)sizeof(buf))
			break;		/* a line still being written */
		p->off += bol ? bol : n;	/* or one longer than buf */
	}
	close(fd);
}

static void progress_tick(void *arg)
{
	struct progress *p = arg;
	double t = now();
	long el;

	if (t - p->last < p->every)
		return;
	p->last = t;
	count_objects(p);
	el = (long)(t - p->t0);
	fprintf(stderr, "%skverify: %s: %s: %ldm%02lds", p->tty ? "\r\033[K" : "",
		p->ctx->t->name, p->step, el / 60, el % 60);
	if (p->objects && p->total >= p->objects)
		fprintf(stderr, ", %ld/%ld objects compiled", p->objects,
			p->total);
	else if (p->objects)
		fprintf(stderr, ", %ld objects compiled", p->objects);
	fputs(p->tty ? "" : "\n", stderr);
	p->shown = 1;
}

/* How many objects the last build of this tree compiled: the progress total. */
static char *objects_memo(const struct verify_ctx *ctx)
{
	return xstrfmt("%s.kverify-objects", build_dir(ctx));
}

void progress_start(struct progress *p, const struct verify_ctx *ctx,
		    const char *step, int counts_objects)
{
	struct strbuf sb = STRBUF_INIT;
	char *memo = objects_memo(ctx);

	memset(p, 0, sizeof(*p));
	p->ctx = ctx;
	p->step = step;
	p->counts_objects = counts_objects;
	p->t0 = p->last = now();
	/*
	 * On a TTY one line updated every second, else a line every 30 s.
	 * Under make's jobserver (make -jN verify-all) other targets share
	 * the terminal: lines, not one line rewritten by all of them.
	 */
	p->tty = isatty(STDERR_FILENO) && !ctx->opt->make_jobserver;
	p->every = p->tty ? 1 : 30;
	if (ctx->opt->test && ctx->opt->test->progress_seconds)	/* tests/README */
		p->every = ctx->opt->test->progress_seconds;
	if (p->every <= 0)
		p->every = 1;
	if (strbuf_read_file(&sb, memo, 64) > 0)
		p->total = atol(sb.buf);
	strbuf_release(&sb);
	free(memo);
	if (!ctx->opt->quiet)
		run_set_tick(progress_tick, p);
}

void progress_end(struct progress *p, enum step_status st)
{
	run_set_tick(NULL, NULL);
	if (p->shown && p->tty)
		fputs("\r\033[K", stderr);
	if (st == STEP_PASS && p->counts_objects) {
		char *memo = objects_memo(p->ctx), *n;

		count_objects(p);
		n = xstrfmt("%ld\n", p->objects);
		if (p->objects > p->total)
			write_file_atomic(memo, n, strlen(n));
		free(n);
		free(memo);
	}
}
