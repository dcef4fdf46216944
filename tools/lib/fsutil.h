/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_FSUTIL_H
#define KVERIFY_FSUTIL_H

#include <stdint.h>
#include <stddef.h>

#include "lib/strbuf.h"

/*
 * Files and directories, made, removed, written, copied and read; names
 * in the cache and the cache's own check.  Below a guarded directory
 * (lib/guard.h) they open nothing through a symlink.  Hashes are in
 * lib/hash.h, locks and $TMPDIR in lib/lock.h, trees in lib/tree.h.
 */

/**
 * mkdir_p() - Make a directory and any of its parents that are missing.
 * @path: The directory; one that exists already is fine.
 *
 * Each directory is made mode 0755 (less the umask).  Below a guarded
 * directory each level is made and then opened with open_guarded(), so a
 * symlink planted on the way makes it fail with ELOOP.
 *
 * Return: 0, or -1 with errno set.
 */
int mkdir_p(const char *path);

/**
 * rm_rf() - Remove a file, or a directory with all it holds.
 * @path: What to remove; a symlink is removed, never followed.
 *
 * A directory is walked depth first (nftw(), FTW_PHYS) and each entry
 * unlinked or removed; no mode is changed on the way, so an entry of a
 * directory that kverify's user may not write stops it.
 *
 * Return: 0, also when @path does not exist, or -1 with errno set by the
 * call that failed (an unlink(), an rmdir(), or nftw() reading a
 * directory).
 */
int rm_rf(const char *path);

/**
 * is_dir() - Whether a path is a directory.
 * @path: The path; a symlink to a directory counts.
 *
 * Return: Nonzero for a directory, 0 for anything else or nothing.
 */
int is_dir(const char *path);

/**
 * is_file() - Whether a path is a regular file.
 * @path: The path; a symlink to a regular file counts.
 *
 * Return: Nonzero for a regular file, 0 for anything else or nothing.
 */
int is_file(const char *path);

/**
 * is_real_dir() - Whether a path is a directory itself.
 * @path: The path; a symlink is not followed.
 *
 * Return: Nonzero for a directory, 0 for a symlink to one, anything
 * else or nothing.
 */
int is_real_dir(const char *path);

/**
 * write_file() - Write a file whole, in place.
 * @path: The file, created mode 0644 (less the umask) or truncated;
 *	opened with open_guarded().
 * @data: The bytes.
 * @len: How many.
 *
 * Short writes and EINTR are written through.  A reader at the same time
 * may see part of the file: write_file_atomic() is for files others read.
 *
 * Return: 0, or -1 with errno set.
 */
int write_file(const char *path, const char *data, size_t len);

/**
 * write_file_atomic() - Write a file whole, seen whole or not at all.
 * @path: The file; its directory must exist.
 * @data: The bytes.
 * @len: How many.
 *
 * The bytes go to "@path.tmp.PID" by write_file(), which is then renamed
 * over @path (below a guarded directory with renameat() on the directory
 * opened by open_guarded_parent()).  On failure the temporary file is
 * removed and @path is as it was.  Nothing is synced to disk: see
 * sync_tree().
 *
 * Return: 0, or -1 with errno set.
 */
int write_file_atomic(const char *path, const char *data, size_t len);

/**
 * sync_tree() - Write a file system's data to disk.
 * @dir: A directory on the file system; syncfs(2) flushes all of it.
 *
 * Return: 0, or -1 with errno set.
 */
int sync_tree(const char *dir);

/**
 * copy_file() - Copy a regular file's bytes.
 * @from: The file, opened with open_guarded(); at most 256 MiB.
 * @to: The copy, created mode 0644 (less the umask) or truncated, and
 *	opened with open_guarded(); the directories it goes in are made.
 *
 * copy_file_range(2) copies in the kernel where the file systems allow,
 * read() and write() copy the rest.
 *
 * Return: 0, or -1 with errno set (EFBIG for a file over 256 MiB).
 */
int copy_file(const char *from, const char *to);

/**
 * read_first_line() - The first line of a file.
 * @path: The file; of it no more than its first 4096 bytes are read.
 *
 * Return: The line without its newline, to be freed; NULL if the file
 * cannot be read or is empty.
 */
char *read_first_line(const char *path);

/**
 * abspath() - A path made absolute.
 * @path: The path; one that is absolute is copied as it is.
 *
 * A relative @path is put behind the working directory, as text: no
 * symlink is resolved, no "." or ".." removed.  If getcwd() fails,
 * @path is copied as it is.
 *
 * Return: The path, to be freed.
 */
char *abspath(const char *path);

#endif
