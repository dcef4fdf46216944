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

struct strbuf;

/*
 * The DEP-3 Origin: and Forwarded: lines of a variant of series/'s
 * revision: its posting (series/message-id) or "not posted yet"; 0, or -1
 * after an error when series/ says no revision.
 */
int backport_origin(struct strbuf *out);

#endif
