// SPDX-License-Identifier: GPL-2.0
/*
 * verify_beside: the engine's run of one step, in its own process
 * (run_one()) or, for a STEP_BESIDE step, in a process of its own beside
 * the others: its fork, the pipe its result and its output come back by
 * (save_out, load_out), and the wait for it.  verify.c decides which step
 * runs when.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/usage.h"
#include "progress.h"
#include "verify_int.h"

/* @s's output in @ctx, NULL when it has none. */
void *step_out(struct verify_ctx *ctx, const struct step *s)
{
	if (!s->out_size)
		return NULL;
	if (s->out == STEP_OUT_OWN)
		return step_output(ctx, s);
	return (char *)ctx + s->out;
}

/* User and system time of kverify and of every child it waited for. */
static double cpu_now(void)
{
	struct rusage self, children;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	return self.ru_utime.tv_sec + self.ru_stime.tv_sec +
	       children.ru_utime.tv_sec + children.ru_stime.tv_sec +
	       (self.ru_utime.tv_usec + self.ru_stime.tv_usec +
		children.ru_utime.tv_usec + children.ru_stime.tv_usec) / 1e6;
}

/*
 * Run @s into @r, with the progress display when @progress; the step's
 * lines name it as @r does ("build", or a flavour's "build:rt-amd64").
 */
void run_one(struct verify_ctx *ctx, const struct step *s,
	     struct step_result *r, int progress)
{
	struct progress prog;
	double t0 = now(), cpu0;

	ctx->timeout = s->timeout;
	ctx->log = r->log;
	if (!ctx->opt->quiet)
		note("%s: %s ...", ctx->t->name, r->name);
	if (progress)
		progress_start(&prog, ctx, r->name,
			       s->flags & STEP_COUNTS_OBJECTS);
	cpu0 = cpu_now();
	r->status = s->run(ctx, step_out(ctx, s), r);
	r->cpu_seconds = cpu_now() - cpu0;
	if (progress)
		progress_end(&prog, r->status);
	r->seconds = now() - t0;
	if (run_interrupted()) {
		r->status = STEP_ERROR;
		strbuf_reset(&r->reason);
		strbuf_addstr(&r->reason, "interrupted");
	} else {
		r->status = step_outcome(r->status, r);
	}
}

/*
 * What a step's process sends: a line "status cause seconds cpu_seconds
 * and the lengths of reason, detail and output", then those three.
 */
static void beside_send(struct verify_ctx *ctx, const struct step *s,
			const struct step_result *r, int fd)
{
	struct strbuf out = STRBUF_INIT, sb = STRBUF_INIT;
	size_t done = 0;
	ssize_t n;

	if (s->save_out)
		s->save_out(step_out(ctx, s), &out);
	strbuf_addf(&sb, "%d %d %.6f %.6f %zu %zu %zu\n", r->status, r->cause,
		    r->seconds, r->cpu_seconds, r->reason.len, r->detail.len,
		    out.len);
	strbuf_add(&sb, r->reason.buf, r->reason.len);
	strbuf_add(&sb, r->detail.buf, r->detail.len);
	strbuf_add(&sb, out.buf, out.len);
	while (done < sb.len) {
		n = write(fd, sb.buf + done, sb.len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += n;
	}
	strbuf_release(&out);
	strbuf_release(&sb);
}

/* Start @s in a process of its own; non-zero: it could not be. */
int beside_start(struct verify_ctx *ctx, const struct step *s,
		 struct step_result *r, struct beside *b)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	b->pid = run_fork();
	if (b->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!b->pid) {
		close(p[0]);
		run_one(ctx, s, r, 0);
		beside_send(ctx, s, r, p[1]);
		_exit(0);	/* the engine's exit handlers are not ours */
	}
	close(p[1]);
	b->fd = p[0];
	return 0;
}

static int beside_parse(struct verify_ctx *ctx, const struct step *s,
			struct step_result *r, struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	size_t rlen, dlen, olen;
	int status, cause, used = 0, ret = -1;
	double seconds, cpu;
	const char *p;

	if (sscanf(sb->buf, "%d %d %lf %lf %zu %zu %zu\n%n", &status, &cause,
		   &seconds, &cpu, &rlen, &dlen, &olen, &used) != 7 || !used)
		return -1;
	p = sb->buf + used;
	if (rlen > sb->len - used || dlen > sb->len - used - rlen ||
	    olen != sb->len - used - rlen - dlen)
		return -1;
	strbuf_reset(&r->reason);
	strbuf_add(&r->reason, p, rlen);
	strbuf_reset(&r->detail);
	strbuf_add(&r->detail, p + rlen, dlen);
	strbuf_add(&out, p + rlen + dlen, olen);
	r->status = status;
	r->cause = cause;
	r->seconds = seconds;
	r->cpu_seconds = cpu;
	ret = s->load_out ? s->load_out(step_out(ctx, s), &out) : 0;
	strbuf_release(&out);
	return ret;
}

/*
 * Wait for @s's process and take its result into @r; an interrupt of the
 * engine is passed on to it.
 */
void beside_join(struct verify_ctx *ctx, const struct step *s,
		 struct step_result *r, struct beside *b)
{
	struct strbuf sb = STRBUF_INIT;
	struct pollfd pfd = { .fd = b->fd, .events = POLLIN };
	int ws = 0, passed_on = 0;
	char buf[8192];
	ssize_t n;

	for (;;) {
		if (run_interrupted() && !passed_on) {
			kill(b->pid, SIGTERM);
			passed_on = 1;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(b->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(&sb, buf, n);
	}
	close(b->fd);
	ws = run_join(b->pid);
	if (beside_parse(ctx, s, r, &sb)) {
		r->status = STEP_ERROR;
		strbuf_reset(&r->reason);
		if (WIFSIGNALED(ws))
			strbuf_addf(&r->reason, "its process was killed by signal %d before it said how the step ended",
				    WTERMSIG(ws));
		else
			strbuf_addf(&r->reason, "its process ended (exit %d) before it said how the step ended",
				    WEXITSTATUS(ws));
		blame_machine(r);
		if (run_interrupted()) {
			strbuf_reset(&r->reason);
			strbuf_addstr(&r->reason, "interrupted");
		}
	}
	b->pid = 0;
	strbuf_release(&sb);
}
