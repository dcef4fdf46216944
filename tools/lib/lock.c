// SPDX-License-Identifier: GPL-2.0
/*
 * Locks in the cache: a flock on a file under <cache>/locks, whose holder
 * writes who it is into it, so that a waiter can name it; and the
 * process's $TMPDIR, a directory in the cache locked while it lives.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/lock.h"
#include "lib/run.h"
#include "lib/usage.h"

/*
 * Who holds a lock: the kernel's /proc/locks names the process that took
 * the flock on this file (its children inherit the lock, not the entry);
 * its command line is /proc/PID/cmdline, and the holder writes "PID SINCE"
 * into the lock file once it has it, for the time.  A waiter names the
 * holder, or says that it has ended and what is left of it holds the lock.
 */
static void write_holder(int fd)
{
	char line[64], when[32];
	time_t now = time(NULL);
	int n;

	strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
	n = snprintf(line, sizeof(line), "%d %s\n", (int)getpid(), when);
	if (ftruncate(fd, 0) || pwrite(fd, line, n, 0) != n)
		return;		/* the waiter then names no time */
}

/* The pid of the flock on @fd's file in /proc/locks, or 0. */
static int flock_holder(int fd)
{
	unsigned int major, minor;
	unsigned long ino;
	char line[256], type[16];
	struct stat st;
	int pid = 0, p;
	FILE *f;

	if (fstat(fd, &st))
		return 0;
	f = fopen("/proc/locks", "re");
	while (f && !pid && fgets(line, sizeof(line), f))
		if (!strstr(line, "->") &&
		    sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%lu", type, &p,
			   &major, &minor, &ino) == 5 &&
		    !strcmp(type, "FLOCK") && ino == st.st_ino &&
		    major == major(st.st_dev) && minor == minor(st.st_dev))
			pid = p;
	if (f)
		fclose(f);
	return pid;
}

static void say_holder(int fd, const char *path)
{
	struct strbuf cmd = STRBUF_INIT;
	char buf[64], when[16] = "", *proc;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	int pid = flock_holder(fd), wrote = 0;
	size_t i;

	buf[n > 0 ? n : 0] = '\0';
	if (sscanf(buf, "%d %15s", &wrote, when) != 2 || wrote != pid)
		when[0] = '\0';	/* not a kverify's: no time */
	proc = xstrfmt("/proc/%d/cmdline", pid);
	if (pid > 0 && !strbuf_read_file(&cmd, proc, 4096) && cmd.len) {
		for (i = 0; i + 1 < cmd.len; i++)
			if ((unsigned char)cmd.buf[i] < ' ')
				cmd.buf[i] = ' ';
		note("waiting for pid %d (%.200s%s%s), which holds %s", pid,
		     cmd.buf, *when ? ", since " : "", when, path);
	} else if (pid > 0) {
		note("waiting for what is left of pid %d, which has ended, holding %s",
		     pid, path);
	} else {
		note("waiting for another run (or what is left of a killed one) holding %s",
		     path);
	}
	strbuf_release(&cmd);
	free(proc);
}

/* flock(@path); with @wait, say so on stderr and block. */
static int lock_file(const char *path, int wait, int *fd, struct strbuf *err)
{
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0) {
		strbuf_addf(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!flock(*fd, LOCK_EX | LOCK_NB))
		goto held;
	if (!wait) {
		strbuf_addf(err, "another run holds %s; not waiting (--no-wait)",
			    path);
		goto fail;
	}
	say_holder(*fd, path);
	while (flock(*fd, LOCK_EX) < 0) {
		if (errno != EINTR || run_interrupted()) {
			strbuf_addf(err, "flock %s: %s", path, strerror(errno));
			goto fail;
		}
	}
held:
	write_holder(*fd);
	return 0;
fail:
	close(*fd);
	*fd = -1;
	return -1;
}

/*
 * lock_file() of <@cache>/locks/<name>, @fmt making the name; locks/ is
 * made first when it is not there.
 */
int lock_in_cache(const char *cache, int wait, int *fd, struct strbuf *err,
		  const char *fmt, ...)
{
	struct strbuf path = STRBUF_INIT;
	va_list ap;
	int ret = -1;

	*fd = -1;
	strbuf_addf(&path, "%s/locks", cache);
	if (mkdir_p(path.buf)) {
		strbuf_addf(err, "cannot create %s: %s", path.buf,
			    strerror(errno));
		goto out;
	}
	strbuf_addch(&path, '/');
	va_start(ap, fmt);
	strbuf_vaddf(&path, fmt, ap);
	va_end(ap);
	ret = lock_file(path.buf, wait, fd, err);
out:
	strbuf_release(&path);
	return ret;
}

void unlock_file(int fd)
{
	if (fd >= 0)
		close(fd);
}

/*
 * The processes started from now on hold the lock too (the fd survives
 * exec): killed outright, the driver takes its direct children along, but
 * not their own children (quilt's push loop, make's compilers, tar behind
 * dpkg-deb), which go on writing until they finish; the next run waits.
 */
void lock_inherit(int fd)
{
	fcntl(fd, F_SETFD, 0);
}

/*
 * $TMPDIR for this process and every tool it runs (quilt, patch, gcc, ...
 * write there, and leave files behind when they are stopped): a directory
 * of its own under <cache>/tmp, locked while it lives, so that nothing is
 * written outside the cache.  A directory whose lock nobody holds is what
 * a process that is gone left, and is removed first (a lock, not a pid: a
 * cache may be shared by processes of other pid namespaces), as is one
 * without a lock file.  <cache>/tmp/lock keeps that sweep from a directory
 * made but not locked yet.
 */
int tmpdir_enter(struct tmpdir *td, const char *cache)
{
	char *base = xstrfmt("%s/tmp", cache), *lock;
	struct dirent *e;
	int sweep = -1;
	DIR *d;

	td->path = NULL;
	td->lockfd = -1;
	lock = xstrfmt("%s/lock", base);
	if (!mkdir_p(base))
		sweep = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (sweep < 0 || flock(sweep, LOCK_EX) < 0)
		goto out;
	d = opendir(base);
	while (d && (e = readdir(d))) {
		char *stale = xstrfmt("%s/%s", base, e->d_name);
		char *its = xstrfmt("%s/lock", stale);
		int fd = *e->d_name == '.' || !strcmp(e->d_name, "lock") ? -2 :
			 open(its, O_RDWR | O_CLOEXEC);

		/* no lock file: its process died before making it, or mid-rm_rf */
		if ((fd == -1 && errno == ENOENT) ||
		    (fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB)))
			rm_rf(stale);
		if (fd >= 0)
			close(fd);
		free(its);
		free(stale);
	}
	if (d)
		closedir(d);
	free(lock);
	td->path = xstrfmt("%s/XXXXXX", base);
	lock = NULL;
	if (!mkdtemp(td->path)) {
		free(td->path);
		td->path = NULL;
		goto out;
	}
	lock = xstrfmt("%s/lock", td->path);
	td->lockfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (td->lockfd < 0 || flock(td->lockfd, LOCK_EX) < 0 ||
	    setenv("TMPDIR", td->path, 1) < 0)
		goto fail;
	/* what outlives a killed kverify (make's compilers) holds it too */
	lock_inherit(td->lockfd);
out:
	unlock_file(sweep);
	free(lock);
	free(base);
	return td->path ? 0 : -1;
fail:
	tmpdir_leave(td);
	goto out;
}

void tmpdir_leave(struct tmpdir *td)
{
	if (td->path)
		rm_rf(td->path);
	unlock_file(td->lockfd);
	free(td->path);
	td->path = NULL;
	td->lockfd = -1;
}
