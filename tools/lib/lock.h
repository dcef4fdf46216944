/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_LOCK_H
#define KVERIFY_LOCK_H

#include "lib/strbuf.h"

/**
 * lock_in_cache() - take the flock of a lock file in the cache
 * @cache: the cache; the file is <@cache>/locks/<name>, locks/ made if need be
 * @wait: nonzero to wait for the holder (naming it on stderr), 0 to fail
 * @fd: set to the lock file's descriptor, or -1 on failure
 * @err: what went wrong, added to
 * @fmt: printf format of the lock file's name, and its arguments
 *
 * The holder writes "PID SINCE" into the file once it has the lock, so
 * that a waiter can say who holds it.  The descriptor is close-on-exec:
 * see lock_inherit().
 *
 * Return: 0 with the lock held, or -1 (@err says why).
 */
__printf(5, 6) int lock_in_cache(const char *cache, int wait, int *fd,
				 struct strbuf *err, const char *fmt, ...);

/**
 * unlock_file() - let go of a lock lock_in_cache() took
 * @fd: its descriptor, or -1 (nothing is done)
 */
void unlock_file(int fd);

/**
 * lock_inherit() - the processes started from now on hold the lock too
 * @fd: the lock's descriptor, which then survives exec
 *
 * A killed driver takes its direct children along, but not their own
 * children, which go on writing until they finish: the next run waits.
 */
void lock_inherit(int fd);

/* The process's $TMPDIR, in the cache. */
struct tmpdir {
	char *path;
	int lockfd;
};

/**
 * tmpdir_enter() - a $TMPDIR of the process's own in the cache
 * @td: set to the directory and its lock; @td->path is NULL on failure
 * @cache: the cache; the directory is made under <@cache>/tmp
 *
 * The directory is locked while it lives, and the lock is inherited by
 * what the process runs.  A directory there whose lock nobody holds (or
 * that has no lock file) is what a process that is gone left: it is
 * removed first.  $TMPDIR is set to the new directory.
 *
 * Return: 0, or -1 if the directory cannot be made, locked or set.
 */
int tmpdir_enter(struct tmpdir *td, const char *cache);

/**
 * tmpdir_leave() - remove the $TMPDIR tmpdir_enter() made, and unlock it
 * @td: what tmpdir_enter() set; cleared
 */
void tmpdir_leave(struct tmpdir *td);

#endif
