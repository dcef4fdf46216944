/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_B4_H
#define KVERIFY_B4_H

#include "sources/targets.h"

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

/*
 * The workflows, one for each of kverify's commands send, am, trailers,
 * range-diff, reroll, edit and series: what runs it and what it needs
 * (b4_int.h).
 */
struct b4_cmd;
extern const struct b4_cmd b4_send, b4_am, b4_trailers, b4_range_diff,
	b4_reroll, b4_edit, b4_series;

int cmd_b4(const struct b4_cmd *cmd, const struct target *t,
	   const struct options *opt, const struct b4_args *a);

#endif
