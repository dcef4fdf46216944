/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_GUARD_H
#define KVERIFY_GUARD_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Opening below a directory that code from the tree under test could
 * write (guard.c says why): below a guarded directory no component of a
 * path may be a symlink, and no path leaves it.
 */

/**
 * fs_guard() - Guard a directory from now on.
 * @dir: An absolute path (a relative one is ignored); trailing slashes
 *	do not count, and a directory guarded already is not added again.
 *
 * Out of memory it aborts: nothing may be opened unguarded.
 */
void fs_guard(const char *dir);

/**
 * fs_unguard_all() - Forget every guarded directory.
 */
void fs_unguard_all(void);

/**
 * fs_guarded_root() - The guarded directory a path is below.
 * @path: An absolute path.
 *
 * Return: The outermost guarded directory that @path is strictly below
 * (not the directory itself), or NULL.
 */
const char *fs_guarded_root(const char *path);

/**
 * open_guarded() - open() that follows no symlink below a guarded
 *	directory.
 * @path: The path.  Below a guarded directory it is resolved with
 *	openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS),
 *	or, on a kernel without openat2(), by a walk of O_NOFOLLOW opens;
 *	elsewhere it is opened as open() would.
 * @flags: As for open(); O_CLOEXEC is added.
 * @mode: As for open(), with O_CREAT.
 *
 * Return: The descriptor, or -1 with errno set: ELOOP for a symlink
 * below the guarded directory, EXDEV for a ".." that would leave it.
 */
int open_guarded(const char *path, int flags, mode_t mode);

/**
 * open_guarded_parent() - Open the directory that holds a path.
 * @path: The path; its directory is opened with open_guarded(), O_PATH.
 * @name: Set to @path's last component, for renameat(), unlinkat() or
 *	linkat() relative to the descriptor.
 * @size: @name's size.
 *
 * Return: The directory's descriptor, or -1 with errno set (EINVAL when
 * @path has no '/', ends in one, or its last name does not fit @name).
 */
int open_guarded_parent(const char *path, char *name, size_t size);

#endif
