/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_BACKPORT_H
#define KVERIFY_BACKPORT_H

struct backport_args {
	const char *tree;
	const char *name;
	const char *bug;	/* make's BUG=: a Debian bug, for Bug-Debian: */
	const char *tmp;	/* the process's $TMPDIR in the cache */
};

int cmd_backport(const struct backport_args *a);

#endif
