/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_RUN_H
#define KVERIFY_RUN_H

#include <signal.h>

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

/* The signal that asked us to stop (SIGINT, SIGTERM, SIGHUP), or 0. */
int run_interrupted(void);

double now(void);

void run_install_signal_handlers(void);
int run_child(struct child *c);
void run_set_tick(void (*fn)(void *), void *arg);
int run_pipeline(struct child *cs, int n);
void child_clear(struct child *c);
void child_describe_failure(const struct child *c, struct strbuf *why);
void pipeline_describe_failure(const struct child *cs, int n,
			       struct strbuf *why);
const char *tool_package(const char *tool);
void missing_tool(struct strbuf *why, const char *tool, const char *pkg);
char *path_lookup(const char *tool);
int path_has(const char *tool);

#endif
