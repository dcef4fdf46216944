/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_B4_H
#define KVERIFY_B4_H

#include "targets.h"

struct options;

struct b4_args {
	const char *cache;	/* the cache directory */
	const char *results;	/* the results directory (--results) */
	const char *work;	/* <results>/b4: logs and scratch */
	const char *to, *cc;	/* recipients for send */
	const char *mbox;	/* am, trailers: a local mbox */
	const char *msgid;	/* am: a message-id (needs lore) */
	const char *from;	/* range-diff: vN */
	int send;		/* really send (SEND=1) */
	int reflect;		/* SEND=1 REFLECT=1: only to the sender */
	int resend;		/* RESEND=1: a posted revision again */
	const struct target_list *list;	/* kernels.list: make verify-all's */
};

int cmd_b4(const char *what, const struct target *t,
	   const struct options *opt, const struct b4_args *a);

#endif
