/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_RUN_H
#define KVERIFY_RUN_H

#include <signal.h>
#include <sys/types.h>

#include "lib/strbuf.h"

/*
 * One struct describes a child process, one function runs it (after git's
 * run-command).  Children get their own process group, so a timeout or an
 * interrupt stops everything they started.  Nothing goes through a shell.
 */
struct child {
	struct strvec args;
	struct strvec env;	/* "NAME=value" added to our environment */
	const char *dir;	/* working directory, or NULL */
	const char *log;	/* stdout and stderr appended here, or NULL */
	const char *in;		/* stdin from this file; default /dev/null */
	const char *out_file;	/* stdout to this file (truncated) */
	struct strbuf *out;	/* capture stdout here */
	unsigned int timeout;	/* seconds; 0 means none */
	/*
	 * Run in a mount namespace of its own (what it mounts goes when it
	 * ends), chrooted into @root if set, with the host's @bind, /dev,
	 * /proc and /tmp at their own paths there.  Needs root.
	 */
	unsigned int private_mounts;
	const char *root;
	const char *bind;
	/*
	 * No descriptor above stderr reaches it (make's jobserver, say): for a
	 * tool that hands its own to dash as "cat >&N", which reads one digit.
	 */
	unsigned int close_fds;
	/*
	 * Stop it (its whole group) as soon as what @out captured holds one
	 * of these strings (NULL-terminated): for a tool that reports a fatal
	 * error and then hangs instead of exiting.  @err_to_out captures its
	 * stderr in @out too.
	 */
	const char *const *stop_at;
	unsigned int err_to_out;

	/* results */
	int status;		/* exit code, 128 + signal, or -1 */
	int timed_out;
	int interrupted;
	int spawn_errno;	/* the exec failed with this errno */
	const char *stopped_at;	/* the string of @stop_at that stopped it */
};

/* What is not named is 0 or NULL. */
#define CHILD_INIT { .args = STRVEC_INIT, .env = STRVEC_INIT }

/**
 * run_interrupted() - The signal that asked kverify to stop.
 *
 * Set by the handlers run_install_signal_handlers() installs.
 *
 * Return: SIGINT, SIGTERM or SIGHUP, the last one received, or 0.
 */
int run_interrupted(void);

/**
 * now() - Seconds on the monotonic clock.
 *
 * Return: The time, for differences only (CLOCK_MONOTONIC).
 */
double now(void);

/**
 * run_install_signal_handlers() - Note SIGINT, SIGTERM and SIGHUP.
 *
 * Each is recorded for run_interrupted() instead of ending kverify: a
 * running child's group is then stopped and the run reports it.  SIGPIPE
 * is ignored.
 */
void run_install_signal_handlers(void);

/**
 * run_fork() - fork() a process of kverify's own (a step run beside the
 * others, a prefetch).
 *
 * The child gets SIGTERM when its parent dies, so that it and its tools
 * end with the run; a child that cannot arrange it exits EXIT_TOOL.
 * stdio is flushed first, so nothing buffered is written twice.
 *
 * Return: As fork(): 0 in the child, its pid in the parent, -1.
 */
pid_t run_fork(void);

/**
 * run_join() - Wait for a process of run_fork().
 * @pid: The child.
 *
 * An interrupt of kverify (run_interrupted()), before or while it waits,
 * is passed on to the child as SIGTERM, once.
 *
 * Return: Its wait status, as waitpid() sets it (0 when it failed).
 */
int run_join(pid_t pid);

/**
 * run_child() - Run one child and wait for it.
 * @c: The child (CHILD_INIT, then its args and what else it needs); its
 *	results (@c->status, @c->timed_out ...) are set.
 *
 * The same as run_pipeline() of one child.
 *
 * Return: Its exit code, 128 + a signal, or -1 when it could not start
 * (@c->spawn_errno says why).
 */
int run_child(struct child *c);

/**
 * run_set_tick() - Call a function while a child runs.
 * @fn: Called every 20 ms or so while run_child() or run_pipeline()
 *	waits (a progress line); NULL stops the calls.
 * @arg: Passed to @fn.
 */
void run_set_tick(void (*fn)(void *), void *arg);

/**
 * run_pipeline() - Run children connected stdout to stdin, and wait.
 * @cs: The children, in order; the last one's @out, @timeout and
 *	@stop_at are the pipeline's, and its results say how it ended.
 * @n: How many, 1 to 8.
 *
 * The children share one process group of their own: a timeout, an
 * interrupt or a @stop_at string stops the whole group (SIGTERM, then
 * SIGKILL 3 s later).  Orphans left in the group that end within 0.25 s
 * are reaped, so their CPU time is counted.  Nothing goes through a shell.
 *
 * Return: The last child's status, or an earlier child's failure (other
 * than SIGPIPE) when the last one exited 0; -1 when a child could not be
 * started or @n is out of range.
 */
int run_pipeline(struct child *cs, int n);

/**
 * child_clear() - Free a child's argument and environment vectors.
 * @c: The child; its results stay.
 */
void child_clear(struct child *c);

/**
 * child_describe_failure() - Say why a child failed, in one phrase.
 * @c: The child, after run_child().
 * @why: Appended to: the missing tool and its package, "cannot run",
 *	"interrupted", "timed out after Ns" or "exited with status N".
 */
void child_describe_failure(const struct child *c, struct strbuf *why);

/**
 * pipeline_describe_failure() - Say why a pipeline failed, in one phrase.
 * @cs: The children, after run_pipeline().
 * @n: How many.
 * @why: Appended to, as child_describe_failure() does, for the first
 *	child that failed to start or exit (SIGPIPE does not count), or for
 *	the last one when it timed out or was interrupted.
 */
void pipeline_describe_failure(const struct child *cs, int n,
			       struct strbuf *why);

/**
 * tool_package() - The Debian package that provides a tool.
 * @tool: The tool's name, or a path to it (its base name counts).
 *
 * Return: The package, from a table of the tools kverify runs, or NULL
 * for a tool the table does not know.
 */
const char *tool_package(const char *tool);

/**
 * missing_tool() - Say that a tool is missing and what to install.
 * @why: Appended to: "TOOL not found: install it with 'apt-get install
 *	PKG'".
 * @tool: The tool.
 * @pkg: Its package, or NULL to look it up with tool_package().
 */
void missing_tool(struct strbuf *why, const char *tool, const char *pkg);

/**
 * path_lookup() - Find the executable $PATH would run for a tool.
 * @tool: A name, looked up in $PATH (/usr/bin:/bin when unset), or a
 *	path with a '/', taken as it is.
 *
 * Return: The executable's path, the caller's to free(), or NULL when
 * there is none.
 */
char *path_lookup(const char *tool);

/**
 * path_has() - Is a tool in $PATH?
 * @tool: As for path_lookup().
 *
 * Return: 1 if path_lookup() finds it, else 0.
 */
int path_has(const char *tool);

#endif
