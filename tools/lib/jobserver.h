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

/**
 * jobserver_open() - Open the jobserver $MAKEFLAGS names.
 * @js: Set up; both descriptors -1 when it fails.
 * @makeflags: $MAKEFLAGS, or NULL for none.  The last --jobserver-auth=
 *	(or --jobserver-fds=) counts, as make reads its own flags.
 *
 * Return: 0, or -1 when @makeflags names no jobserver, or one that is
 * not open to us (a recipe without "+").
 */
int jobserver_open(struct jobserver *js, const char *makeflags);

/**
 * jobserver_take() - Take a token if one is free now; never waits.
 * @js: The jobserver (one that failed to open has no token to give).
 * @token: Set to the token read, to be given back as it is.
 *
 * Return: 1 with *@token set, else 0.
 */
int jobserver_take(struct jobserver *js, char *token);

/**
 * jobserver_give() - Give back a token.
 * @js: The jobserver.
 * @token: A token jobserver_take() returned.
 */
void jobserver_give(struct jobserver *js, char token);

/**
 * jobserver_close() - Close our descriptors of the jobserver.
 * @js: The jobserver; both descriptors are -1 afterwards.
 */
void jobserver_close(struct jobserver *js);

#endif
