/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_CACHE_H
#define KVERIFY_CACHE_H

#include "lib/strbuf.h"

/**
 * cache_name() - Make a string a name in the cache.
 * @s: The string (a source key, a sweep row), changed in place: letters,
 *	digits, '.' and '-' stay, every other byte ('~', '+', ':', '/')
 *	becomes '_'.
 */
void cache_name(char *s);

/**
 * cache_check() - Whether kverify's cache is kverify's user's alone.
 * @cache: The cache directory; it need not exist yet.
 * @err: Each directory that fails, with what to do, added to, a line
 *	each.
 *
 * The cache and every directory or symlink at its top (src, trees,
 * build, tmp, locks, memo, ccache...) must be a real directory, not a
 * symlink, owned by kverify's user and writable by no one else; as root,
 * ccache/ may belong to the sandbox's user (SANDBOX_UID): an older
 * cache's one store, which the sandbox wrote (kverify makes it anew as a
 * directory of stores, its own).  A directory that does not exist
 * passes: kverify makes it.  Called before anything in the cache is read
 * or written.
 *
 * Return: 0, or -1 with @err saying what is wrong and what to do.
 */
int cache_check(const char *cache, struct strbuf *err);

#endif
