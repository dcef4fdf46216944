/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_TOOLCHAIN_H
#define KVERIFY_TOOLCHAIN_H

#include "lib/options.h"
#include "lib/strbuf.h"

/**
 * toolchain_release() - The Debian release of an apt suite.
 * @suite: The suite: "trixie-backports", "sid".
 *
 * Return: What comes before the first '-' ("trixie"), to be freed.
 */
char *toolchain_release(const char *suite);

/**
 * toolchain_usable() - Can a toolchain be made on this machine?
 * @why: Appended to when not: it needs root, or mmdebstrap and the
 *	package to install.
 *
 * Return: 1 if it can, else 0.
 */
int toolchain_usable(struct strbuf *why);

/**
 * toolchain_get() - A Debian release's own compiler, made once.
 * @opt: The options: the store of fetched things, the mirrors.
 * @suite: The suite whose release the kernel comes from
 *	("trixie-backports": trixie).
 * @pkg: The compiler package, a Depends: of Debian's headers
 *	(gcc-14-for-host).
 * @log: mmdebstrap's output goes here.
 * @root: Set to the toolchain's root, to be freed; NULL when it fails.
 * @why: Appended to when it fails.
 *
 * The release is bootstrapped (mmdebstrap, minbase, as root) with @pkg
 * and what kbuild needs for external modules into
 * <store>/toolchains/<release>-<pkg>, under a lock, unless it is there
 * already; the module build then runs chrooted into it.  The store gets
 * a mount point of its own path in it.
 *
 * Return: 0, or -1.
 */
int toolchain_get(const struct options *opt, const char *suite,
		  const char *pkg, const char *log, char **root,
		  struct strbuf *why);

#endif
