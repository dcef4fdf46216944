/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_MANIFEST_H
#define KVERIFY_MANIFEST_H

#include "lib/strbuf.h"

/* What manifest_check() found. */
enum manifest_state {
	MANIFEST_ERROR = -1,	/* could not check: @err says why */
	MANIFEST_OK = 0,
	MANIFEST_CHANGED = 1,	/* @bad names what changed */
	MANIFEST_NONE = 2,	/* no manifest (a cache older than them) */
};

/**
 * manifest_record() - Record what a pristine tree holds.
 * @root: The tree, walked without following a symlink.
 * @file: The manifest, written whole, then renamed into place: a line per
 *	directory (its mtime), regular file (its size, mtime and content
 *	hash) and symlink (the hash of its target), sorted by path.
 * @err: Appended to when it fails.
 *
 * Return: 0, or -1 when the tree cannot be walked or a file of it read,
 * when it holds an entry that is no file, directory or symlink or a name
 * with a newline, or when @file cannot be written.
 */
int manifest_record(const char *root, const char *file, struct strbuf *err);

/**
 * manifest_check() - Does a tree still hold what its manifest recorded?
 * @root: The tree.
 * @file: Its manifest (manifest_record()).
 * @full: Nonzero to hash every file again whatever their sizes and
 *	mtimes say (VERIFY_CACHE=1).
 * @bad: Appended to when it changed: the first 20 paths that are missing,
 *	new or changed, each with how, and how many more.
 * @err: Appended to when it cannot check.
 *
 * The cheap check compares the sizes and mtimes.  With @full, or when
 * one differs, every file is hashed again and the tree walked for new
 * entries: only content decides, and a record whose sizes and mtimes
 * moved but whose content did not is rewritten, so that the next cheap
 * check passes.
 *
 * Return: MANIFEST_OK; MANIFEST_CHANGED; MANIFEST_NONE when @file is not
 * there; MANIFEST_ERROR when @file cannot be read or is no manifest, or
 * the tree cannot be walked, or the record cannot be rewritten.
 */
enum manifest_state manifest_check(const char *root, const char *file,
				   int full, struct strbuf *bad,
				   struct strbuf *err);

#endif
