// SPDX-License-Identifier: GPL-2.0
/* run-command: argv without a shell, capture, pipelines, timeouts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/lib/run.h"

static void argv_is_data(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;

	(void)state;
	strvec_pushl(&c.args, "printf", "%s|", "a; touch /tmp/kverify-canary",
		     "$(id)", "`id`", NULL);
	c.out = &out;
	assert_int_equal(run_child(&c), 0);
	assert_string_equal(out.buf,
			    "a; touch /tmp/kverify-canary|$(id)|`id`|");
	assert_int_not_equal(access("/tmp/kverify-canary", F_OK), 0);
	child_clear(&c);
	strbuf_release(&out);
}

/*
 * A child that ends and leaves a process behind holding its output open
 * (as a sandbox's orphan does after an interrupt): its output is read and
 * the orphan, silent for 20 s, is not waited for.
 */
static void an_orphan_holding_the_pipe(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	struct timespec t0, t1;

	(void)state;
	strvec_pushl(&c.args, "sh", "-c", "echo out; sleep 20 2> /dev/null & exit 0",
		     NULL);
	c.out = &out;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(run_child(&c), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_string_equal(out.buf, "out\n");
	assert_true(t1.tv_sec - t0.tv_sec < 10);
	child_clear(&c);
	strbuf_release(&out);
}

/* A timed-out child's group goes, what ignores SIGTERM too. */
static void stopped_group_goes_whole(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char path[64], line[512], *paren;
	FILE *f;
	long pid;

	(void)state;
	strvec_pushl(&c.args, "sh", "-c",
		     "(trap '' TERM; sleep 20) 2> /dev/null & echo $!; exec sleep 30",
		     NULL);
	c.out = &out;
	c.timeout = 1;
	run_child(&c);
	pid = atol(out.buf);
	assert_true(pid > 0);
	usleep(300 * 1000);
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (f) {	/* still there: only as a zombie, killed */
		assert_non_null(fgets(line, sizeof(line), f));
		paren = strrchr(line, ')');
		assert_non_null(paren);
		assert_int_equal(paren[2], 'Z');
		fclose(f);
	}
	child_clear(&c);
	strbuf_release(&out);
}

static void exit_status_and_missing_tool(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct child c = CHILD_INIT;

	(void)state;
	strvec_pushl(&c.args, "false", NULL);
	assert_int_equal(run_child(&c), 1);
	child_clear(&c);
	strvec_pushl(&c.args, "quilt-that-is-not-there", NULL);
	assert_int_equal(run_child(&c), -1);
	child_describe_failure(&c, &why);
	assert_non_null(strstr(why.buf, "cannot run quilt-that-is-not-there"));
	child_clear(&c);
	assert_string_equal(tool_package("/usr/bin/spatch"), "coccinelle");
	assert_string_equal(tool_package("qemu-system-x86_64"),
			    "qemu-system-x86");
	strbuf_release(&why);
}

/* close_fds: what we hold open (make's jobserver, say) does not reach it. */
static void close_fds(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int fd = dup(2);

	(void)state;
	assert_true(fd > 2);
	strvec_pushl(&c.args, "sh", "-c", "ls /proc/$$/fd", NULL);
	c.out = &out;
	assert_int_equal(run_child(&c), 0);
	assert_non_null(strstr(out.buf, "\n3\n"));
	strbuf_reset(&out);
	c.close_fds = 1;
	assert_int_equal(run_child(&c), 0);
	assert_string_equal(out.buf, "0\n1\n2\n");
	/* an exec that fails is still reported */
	strvec_clear(&c.args);
	strvec_push(&c.args, "quilt-that-is-not-there");
	assert_int_equal(run_child(&c), -1);
	close(fd);
	child_clear(&c);
	strbuf_release(&out);
}

static void pipeline(void **state)
{
	struct child cs[2] = { CHILD_INIT, CHILD_INIT };
	struct strbuf out = STRBUF_INIT;

	(void)state;
	strvec_pushl(&cs[0].args, "printf", "b\\na\\n", NULL);
	strvec_pushl(&cs[1].args, "sort", NULL);
	cs[1].out = &out;
	assert_int_equal(run_pipeline(cs, 2), 0);
	assert_string_equal(out.buf, "a\nb\n");
	child_clear(&cs[0]);
	child_clear(&cs[1]);
	strbuf_reset(&out);
	strvec_pushl(&cs[0].args, "false", NULL);
	strvec_pushl(&cs[1].args, "cat", NULL);
	cs[1].out = &out;
	assert_int_not_equal(run_pipeline(cs, 2), 0);
	child_clear(&cs[0]);
	child_clear(&cs[1]);
	strbuf_release(&out);
}

/* Dead, or a zombie nobody reaped yet (PID 1 in a container may not). */
static int process_alive(int pid)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("/proc/%d/stat", pid);
	const char *paren;
	int alive = 0;

	if (!strbuf_read_file(&sb, path, 4096) && sb.len) {
		paren = strrchr(sb.buf, ')');
		alive = paren && paren[1] == ' ' && paren[2] != 'Z' &&
			paren[2] != 'X';
	}
	strbuf_release(&sb);
	free(path);
	return alive;
}

static void timeout_kills_the_group(void **state)
{
	struct child c = CHILD_INIT;
	char pidfile[] = "/tmp/kverify-test-XXXXXX";
	int fd = mkstemp(pidfile);
	char script[256];

	(void)state;
	close(fd);
	/* A grandchild in the same group must die with its parent. */
	snprintf(script, sizeof(script),
		 "sleep 30 & echo $! > %s; wait", pidfile);
	strvec_pushl(&c.args, "sh", "-c", script, NULL);
	c.timeout = 1;
	run_child(&c);
	assert_true(c.timed_out);
	{
		struct strbuf sb = STRBUF_INIT;
		int pid;

		strbuf_read_file(&sb, pidfile, 64);
		pid = atoi(sb.buf);
		assert_true(pid > 0);
		usleep(200000);
		assert_false(process_alive(pid));
		strbuf_release(&sb);
	}
	unlink(pidfile);
	child_clear(&c);
}

/*
 * stop_at: a tool that reports a fatal error on stderr and then hangs (QEMU
 * after a KVM internal error) is stopped as soon as it says so, not at
 * its timeout; output without the string runs to the end as before.
 */
static void stop_at_a_string(void **state)
{
	static const char *const fatal[] = { "KVM internal error", NULL };
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	struct timespec t0, t1;

	(void)state;
	strvec_pushl(&c.args, "sh", "-c",
		     "echo booting; sleep 0.2; echo 'KVM internal error. Suberror: 1' >&2; exec sleep 30",
		     NULL);
	c.out = &out;
	c.err_to_out = 1;
	c.stop_at = fatal;
	c.timeout = 20;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run_child(&c);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t1.tv_sec - t0.tv_sec < 5);
	assert_non_null(c.stopped_at);
	assert_string_equal(c.stopped_at, "KVM internal error");
	assert_false(c.timed_out);
	assert_non_null(strstr(out.buf, "booting\nKVM internal error"));
	child_clear(&c);
	strbuf_reset(&out);

	strvec_pushl(&c.args, "sh", "-c", "echo all fine >&2", NULL);
	c.out = &out;
	c.err_to_out = 1;
	c.stop_at = fatal;
	assert_int_equal(run_child(&c), 0);
	assert_null(c.stopped_at);
	assert_string_equal(out.buf, "all fine\n");
	child_clear(&c);
	strbuf_release(&out);
}

static double children_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * A command in bubblewrap's PID namespace, as the sandbox runs one:
 * bwrap does not wait for its init there, and its CPU time is counted
 * only because run.c waits for the orphan (a step's cpu_seconds).
 */
static void sandboxed_cpu_counted(void **state)
{
	struct child c = CHILD_INIT;
	double before;

	(void)state;
	if (!path_has("bwrap")) {
		print_message("%s: SKIP: bwrap is not installed\n", __func__);
		skip();
	}
	strvec_pushl(&c.args, "bwrap", "--die-with-parent", "--unshare-pid",
		     "--dev-bind", "/", "/", "sh", "-c",
		     "i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done",
		     NULL);
	before = children_cpu();
	assert_int_equal(run_child(&c), 0);
	/* the loop takes 0.2 CPU-s here; bwrap alone a few ms */
	assert_true(children_cpu() - before > 0.05);
	child_clear(&c);
}

/* @pid runs: it exists and is no zombie (init may reap it late). */
static int alive(pid_t pid)
{
	char path[64], stat[256];
	FILE *f;
	char *p;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(stat, sizeof(stat), f)) {
		p = strrchr(stat, ')');
		ret = p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
	}
	fclose(f);
	return ret;
}

/* A run_fork() child ends with its parent, by the SIGTERM it is given. */
static void fork_dies_with_parent(void **state)
{
	int p[2], ready[2];
	pid_t mid, child;
	char buf[16];
	ssize_t n;
	int ws;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(ready), 0);
	mid = fork();
	assert_true(mid >= 0);
	if (!mid) {
		child = run_fork();
		if (!child) {
			/* past run_fork()'s checks: its parent may go now */
			n = write(ready[1], "", 1);
			pause();
			_exit(0);
		}
		if (child < 0 || read(ready[0], buf, 1) != 1)
			_exit(1);
		dprintf(p[1], "%d\n", (int)child);
		_exit(0);	/* the parent dies: its child must follow */
	}
	waitpid(mid, &ws, 0);
	assert_true(WIFEXITED(ws) && !WEXITSTATUS(ws));
	close(p[1]);
	close(ready[0]);
	close(ready[1]);
	n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	assert_true(n > 0);
	buf[n] = '\0';
	child = atoi(buf);
	for (n = 0; n < 100 && alive(child); n++)
		usleep(20000);
	assert_false(alive(child));
}

/*
 * An interrupt that comes while run_join() waits is passed on: the child
 * ends by SIGTERM at once, not when it would have.  Last: the interrupt
 * stays recorded for the rest of the program.
 */
static void join_passes_an_interrupt_on(void **state)
{
	pid_t child, killer, self = getpid();
	double t0 = now();
	int ws;

	(void)state;
	run_install_signal_handlers();
	child = run_fork();
	if (!child) {
		/* kverify's own handlers, inherited: it notes the SIGTERM */
		sleep(30);
		_exit(run_interrupted());
	}
	assert_true(child > 0);
	killer = fork();
	if (!killer) {
		usleep(200000);
		kill(self, SIGINT);
		_exit(0);
	}
	ws = run_join(child);
	waitpid(killer, NULL, 0);
	assert_int_equal(run_interrupted(), SIGINT);
	assert_true(WIFEXITED(ws));
	assert_int_equal(WEXITSTATUS(ws), SIGTERM);
	assert_true(now() - t0 < 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(argv_is_data),
		cmocka_unit_test(an_orphan_holding_the_pipe),
		cmocka_unit_test(stopped_group_goes_whole),
		cmocka_unit_test(exit_status_and_missing_tool),
		cmocka_unit_test(close_fds),
		cmocka_unit_test(pipeline),
		cmocka_unit_test(timeout_kills_the_group),
		cmocka_unit_test(stop_at_a_string),
		cmocka_unit_test(sandboxed_cpu_counted),
		cmocka_unit_test(fork_dies_with_parent),
		cmocka_unit_test(join_passes_an_interrupt_on),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
