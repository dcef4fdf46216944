// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/exitcode.h"
#include "lib/run.h"

static sig_atomic_t interrupted_by;

static void on_interrupt(int sig)
{
	__atomic_store_n(&interrupted_by, sig, __ATOMIC_RELAXED);
}

int run_interrupted(void)
{
	return __atomic_load_n(&interrupted_by, __ATOMIC_RELAXED);
}

void run_install_signal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static const struct {
	const char *tool;
	const char *package;
} tool_packages[] = {
	{ "quilt", "quilt" },
	{ "spatch", "coccinelle" },
	{ "b4", "b4" },
	{ "qemu-system-x86_64", "qemu-system-x86" },
	{ "busybox", "busybox-static" },
	{ "apt-get", "apt" },
	{ "apt-cache", "apt" },
	{ "dpkg-deb", "dpkg" },
	{ "tar", "tar" },
	{ "xz", "xz-utils" },
	{ "cp", "coreutils" },
	{ "perl", "perl" },
	{ "make", "make" },
	{ "gcc", "gcc" },
	{ "git", "git" },
	{ "pahole", "dwarves" },
	{ "objcopy", "binutils" },
	{ "bwrap", "bubblewrap" },
	{ "setpriv", "util-linux" },
	{ "dch", "devscripts" },
};

/* "TOOL not found: install it with 'apt-get install PKG'"; NULL PKG: looked up */
void missing_tool(struct strbuf *why, const char *tool, const char *pkg)
{
	if (!pkg)
		pkg = tool_package(tool);
	strbuf_addf(why, "%s not found: install it with 'apt-get install %s'",
		    tool, pkg ? pkg : "the package that provides it");
}

/* The executable PATH would run for tool, or NULL; free() it. */
char *path_lookup(const char *tool)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (strchr(tool, '/'))
		return access(tool, X_OK) ? NULL : xstrdup(tool);
	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *p = xstrfmt("%s/%s", dir, tool);

		if (!access(p, X_OK))
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}

int path_has(const char *tool)
{
	char *p = path_lookup(tool);

	free(p);
	return p != NULL;
}

const char *tool_package(const char *tool)
{
	const char *base = strrchr(tool, '/');
	size_t i;

	base = base ? base + 1 : tool;
	for (i = 0; i < ARRAY_SIZE(tool_packages); i++)
		if (!strcmp(base, tool_packages[i].tool))
			return tool_packages[i].package;
	return NULL;
}

void child_clear(struct child *c)
{
	strvec_clear(&c->args);
	strvec_clear(&c->env);
}

static void log_command(const struct child *c, int fd)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addstr(&sb, "$");
	if (c->root)
		strbuf_addf(&sb, " (chroot %s)", c->root);
	if (c->dir)
		strbuf_addf(&sb, " (cd %s &&", c->dir);
	for (i = 0; i < c->env.nr; i++)
		strbuf_addf(&sb, " %s", c->env.v[i]);
	for (i = 0; i < c->args.nr; i++)
		strbuf_addf(&sb, strpbrk(c->args.v[i], " \t\n'\"$`\\;|&<>*?") ?
			    " '%s'" : " %s", c->args.v[i]);
	strbuf_addstr(&sb, c->dir ? ")\n" : "\n");
	if (write(fd, sb.buf, sb.len) < 0)
		perror("kverify: log");
	strbuf_release(&sb);
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0644);

	if (fd < 0) {
		dprintf(2, "kverify: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	return fd;
}

/*
 * In the child: a mount namespace of its own and, with @c->root, that
 * directory as / with the host's @c->bind, /dev, /proc and /tmp mounted at
 * their own paths in it (the mount points exist there).
 */
static int enter_mounts(const struct child *c)
{
	const char *const host[] = { c->bind, "/dev", "/proc", "/tmp" };
	char at[PATH_MAX];
	size_t i;

	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	if (!c->root)
		return 0;
	for (i = 0; i < ARRAY_SIZE(host); i++) {
		if (!host[i])
			continue;
		if (snprintf(at, sizeof(at), "%s%s", c->root, host[i]) >=
		    (int)sizeof(at)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (mount(host[i], at, NULL, MS_BIND | MS_REC, NULL) < 0)
			return -1;
	}
	return chroot(c->root) < 0 || chdir("/") < 0 ? -1 : 0;
}

/* In the child: wire up fds, enter the group, exec; report errno on @errfd. */
static void exec_child(const struct child *c, int in, int out, int errfd,
		       pid_t pgid)
{
	int err, logfd = -1;
	size_t i;

	setpgid(0, pgid);
	/* If the driver is killed outright, its children go with it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (c->log)
		logfd = open_or_die(c->log, O_WRONLY | O_CREAT | O_APPEND);
	if (in < 0)
		in = open_or_die(c->in ? c->in : "/dev/null", O_RDONLY);
	if (out < 0 && c->out_file)
		out = open_or_die(c->out_file, O_WRONLY | O_CREAT | O_TRUNC);
	if (out < 0)
		out = logfd >= 0 ? logfd : 1;
	dup2(in, 0);
	dup2(out, 1);
	if (logfd >= 0)
		dup2(logfd, 2);
	if (c->err_to_out)
		dup2(1, 2);
	for (i = 0; i < c->env.nr; i++)
		putenv(c->env.v[i]);
	if ((c->private_mounts || c->root) && enter_mounts(c) < 0)
		goto fail;
	if (c->dir && chdir(c->dir) < 0)
		goto fail;
	/* closed by the exec, so that @errfd still reports its failure */
	if (c->close_fds && close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		goto fail;
	execvp(c->args.v[0], c->args.v);
fail:
	err = errno;
	if (write(errfd, &err, sizeof(err)) < 0)
		_exit(126);
	_exit(127);
}

static pid_t spawn(struct child *c, int in, int out, pid_t pgid)
{
	int errpipe[2], err = 0;
	ssize_t n;
	pid_t pid;

	if (c->log) {
		int fd = open(c->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			      0644);

		if (fd >= 0) {
			log_command(c, fd);
			close(fd);
		}
	}
	if (pipe2(errpipe, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		c->spawn_errno = errno;
		close(errpipe[0]);
		close(errpipe[1]);
		return -1;
	}
	if (!pid)
		exec_child(c, in, out, errpipe[1], pgid);
	setpgid(pid, pgid ? pgid : pid);
	close(errpipe[1]);
	do {
		n = read(errpipe[0], &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(errpipe[0]);
	if (n == sizeof(err)) {
		c->spawn_errno = err;
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/* Seconds on the monotonic clock. */
double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void kill_group(pid_t pgid, int sig)
{
	if (pgid > 0)
		kill(-pgid, sig);
}

static int decode_status(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return -1;
}

static void drain(int fd, struct strbuf *out, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[8192];
	ssize_t n;

	if (poll(&pfd, 1, timeout_ms) <= 0)
		return;
	n = read(fd, buf, sizeof(buf));
	if (n > 0)
		strbuf_add(out, buf, n);
}

static void (*tick_fn)(void *);
static void *tick_arg;

/* Call @fn(@arg) often (every 20 ms) while a child runs; NULL: stop. */
void run_set_tick(void (*fn)(void *), void *arg)
{
	tick_fn = fn;
	tick_arg = arg;
}

/* The string of @c->stop_at that its output holds from @from on, or NULL. */
static const char *stop_string(const struct child *c, size_t from)
{
	const char *const *s;

	if (!c->stop_at || !c->out)
		return NULL;
	for (s = c->stop_at; *s; s++) {
		size_t n = strlen(*s), at = from > n ? from - n : 0;

		if (c->out->len >= at &&
		    memmem(c->out->buf + at, c->out->len - at, *s, n))
			return *s;
	}
	return NULL;
}

/* Wait for @n pids of group @pgid; the last child's status is the result. */
static void wait_all(struct child *cs, pid_t *pids, int n, pid_t pgid,
		     int outfd)
{
	struct child *last = &cs[n - 1];
	double deadline = last->timeout ? now() + last->timeout : 0;
	double killed_at = 0;
	int left = n, i, ws;
	size_t seen = 0;

	while (left) {
		if (outfd >= 0)
			drain(outfd, last->out, 20);
		else
			poll(NULL, 0, 20);
		if (!killed_at && last->out && last->out->len > seen) {
			last->stopped_at = stop_string(last, seen);
			seen = last->out->len;
			if (last->stopped_at) {
				kill_group(pgid, SIGTERM);
				killed_at = now();
			}
		}
		for (i = 0; i < n; i++) {
			if (pids[i] <= 0 || waitpid(pids[i], &ws, WNOHANG) <= 0)
				continue;
			cs[i].status = decode_status(ws);
			pids[i] = 0;
			left--;
		}
		if (!left)
			break;
		if (tick_fn)
			tick_fn(tick_arg);
		if (!killed_at && (run_interrupted() ||
				   (deadline && now() > deadline))) {
			last->timed_out = !run_interrupted();
			last->interrupted = !!run_interrupted();
			kill_group(pgid, SIGTERM);
			killed_at = now();
		} else if (killed_at && now() > killed_at + 3) {
			kill_group(pgid, SIGKILL);
		}
	}
	/*
	 * Stopped (an interrupt, a timeout): what the children left behind
	 * in the group goes with them, as a bubblewrap whose sandbox was
	 * killed as it started, which waits on forever holding the locks.
	 */
	if (killed_at)
		kill_group(pgid, SIGKILL);
	/*
	 * What is left in the pipe, to its end; a process the children left
	 * behind that holds it open and writes nothing (a sandbox's orphan,
	 * after an interrupt) is not waited for.
	 */
	while (outfd >= 0 && last->out) {
		struct pollfd pfd = { .fd = outfd, .events = POLLIN };
		char buf[8192];
		ssize_t r;

		if (poll(&pfd, 1, 200) <= 0)
			break;
		r = read(outfd, buf, sizeof(buf));
		if (r <= 0)
			break;
		strbuf_add(last->out, buf, r);
	}
}

/*
 * The group's orphans, ours as the subreaper: bubblewrap does not wait for
 * its init in the sandbox's PID namespace, so without this the CPU time of
 * every sandboxed command counted for no one (not in RUSAGE_CHILDREN, not
 * in a step's cpu_seconds).  Those that end within a moment are waited
 * for; one that lives on is left alone.
 */
static void reap_orphans(pid_t pgid)
{
	double until = now() + 0.25;

	while (pgid > 0) {
		pid_t p = waitpid(-pgid, NULL, WNOHANG);

		if (p > 0 || (p < 0 && errno == EINTR))
			continue;
		if (p < 0 || now() > until)	/* ECHILD: none left */
			break;
		poll(NULL, 0, 2);
	}
}

/* Run @n children connected stdout to stdin, in one process group. */
int run_pipeline(struct child *cs, int n)
{
	struct child *last = &cs[n - 1];
	int in = -1, outpipe[2] = { -1, -1 }, i;
	pid_t pids[8] = { 0 }, pgid = 0;

	if (n < 1 || n > 8)
		return -1;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	for (i = 0; i < n; i++) {
		int p[2] = { -1, -1 }, out = -1;

		cs[i].status = -1;
		cs[i].stopped_at = NULL;
		if (i < n - 1) {
			if (pipe2(p, O_CLOEXEC) < 0)
				goto fail;
			out = p[1];
		} else if (last->out) {
			if (pipe2(outpipe, O_CLOEXEC) < 0)
				goto fail;
			out = outpipe[1];
		}
		pids[i] = spawn(&cs[i], in, out, pgid);
		if (!pgid)
			pgid = pids[i] > 0 ? pids[i] : 0;
		if (in >= 0)
			close(in);
		if (out >= 0)
			close(out);
		in = p[0];
		if (pids[i] < 0) {
			if (in >= 0)
				close(in);
			goto fail;
		}
	}
	wait_all(cs, pids, n, pgid, outpipe[0]);
	reap_orphans(pgid);
	if (outpipe[0] >= 0)
		close(outpipe[0]);
	for (i = 0; i < n - 1; i++)
		if (cs[i].status && cs[i].status != 128 + SIGPIPE &&
		    !last->status)
			last->status = cs[i].status;
	return last->status;
fail:
	kill_group(pgid, SIGKILL);
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
	if (outpipe[0] >= 0)
		close(outpipe[0]);
	last->status = -1;
	return -1;
}

pid_t run_fork(void)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	/* It goes with its parent, and its tools with it (run_pipeline()). */
	if (!pid && (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 ||
		     getppid() != parent))
		_exit(EXIT_TOOL);
	return pid;
}

int run_join(pid_t pid)
{
	int ws = 0, passed_on = 0;

	for (;;) {
		if (run_interrupted() && !passed_on) {
			kill(pid, SIGTERM);
			passed_on = 1;
		}
		if (waitpid(pid, &ws, 0) == pid || errno != EINTR)
			return ws;
	}
}

int run_child(struct child *c)
{
	return run_pipeline(c, 1);
}

static void describe_one(const struct child *c, struct strbuf *why);

/* Say why a pipeline failed: the first child that failed to start or exit. */
void pipeline_describe_failure(const struct child *cs, int n,
			       struct strbuf *why)
{
	int i;

	for (i = 0; i < n - 1; i++)
		if (cs[i].spawn_errno ||
		    (cs[i].status && cs[i].status != 128 + SIGPIPE))
			break;
	describe_one(&cs[i], why);
	if (cs[n - 1].interrupted || cs[n - 1].timed_out) {
		strbuf_reset(why);
		describe_one(&cs[n - 1], why);
	}
}

void child_describe_failure(const struct child *c, struct strbuf *why)
{
	describe_one(c, why);
}

static void describe_one(const struct child *c, struct strbuf *why)
{
	const char *tool = c->args.nr ? c->args.v[0] : "?";
	const char *pkg = tool_package(tool);

	if (c->spawn_errno == ENOENT && pkg)
		missing_tool(why, tool, pkg);
	else if (c->spawn_errno)
		strbuf_addf(why, "cannot run %s: %s", tool,
			    strerror(c->spawn_errno));
	else if (c->interrupted)
		strbuf_addf(why, "interrupted (%s stopped)", tool);
	else if (c->timed_out)
		strbuf_addf(why, "%s timed out after %us", tool, c->timeout);
	else
		strbuf_addf(why, "%s exited with status %d", tool, c->status);
}
