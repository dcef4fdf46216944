/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_TREE_H
#define KVERIFY_TREE_H

#include <stddef.h>

#include "lib/strbuf.h"

/**
 * path_under() - whether a path is a directory or below it
 * @path: the path
 * @dir: the directory
 *
 * Compared as strings: resolve both first if need be.
 *
 * Return: nonzero if @path is @dir or below it.
 */
int path_under(const char *path, const char *dir);

/**
 * tree_confined() - a tree from outside holds nothing but what stays in it
 * @root: the tree (a real directory, not a symlink)
 * @err: each entry that breaks the rule, or what failed, added to
 *
 * A tree from a tarball, a package or a repository may hold files,
 * directories and symlinks that lead inside it, nothing else: quilt and the
 * build write through what the tree holds.
 *
 * Return: 0, or -1 (@err says which entries, or what failed).
 */
int tree_confined(const char *root, struct strbuf *err);

/**
 * tree_relink() - a tree of hard links to a source, made so again
 * @tree: the tree, made by cp -al of @src and written since
 * @src: the source it was linked from
 * @changed: set to how many entries were removed or added
 * @err: what failed, added to
 *
 * Whatever in @tree is not @src's own inode at the same path is removed,
 * and what @src has and @tree lacks is linked in: two walks of lstat()s
 * instead of a new tree.  On failure @tree is half done: the caller
 * removes it.
 *
 * Return: 0, or -1 (@err says why).
 */
int tree_relink(const char *tree, const char *src, size_t *changed,
		struct strbuf *err);

/**
 * tree_normalize() - what was unpacked into the cache made ours alone
 * @root: the tree
 * @err: what failed, added to
 *
 * Every entry owned by us, no setuid, setgid or sticky bit, nothing others
 * may write (so no other user changes a file behind the manifest).
 *
 * Return: 0, or -1 (@err says why).
 */
int tree_normalize(const char *root, struct strbuf *err);

#endif
