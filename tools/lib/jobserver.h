/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_JOBSERVER_H
#define KVERIFY_JOBSERVER_H

/*
 * make's jobserver, as a client (GNU make's manual, "Job Slots"): every
 * job has one slot of its own; a token read from the jobserver is one
 * more, written back when that job ends.  Reached through $MAKEFLAGS'
 * --jobserver-auth= (or the older --jobserver-fds=): a pipe's "R,W"
 * descriptors, which make hands only to a recipe it runs with "+", or
 * "fifo:PATH".
 */
struct jobserver {
	int rfd;	/* our own non-blocking reading end */
	int wfd;
};

/*
 * Open the jobserver @makeflags names (NULL: none): 0, or -1 when it
 * names none, or one that is not open to us (a recipe without "+").
 */
int jobserver_open(struct jobserver *js, const char *makeflags);
/* A token, if one is free now: 1 and *@token, else 0 (never waits). */
int jobserver_take(struct jobserver *js, char *token);
/* Give back a token jobserver_take() returned. */
void jobserver_give(struct jobserver *js, char token);
void jobserver_close(struct jobserver *js);

#endif
