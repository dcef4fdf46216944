/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_MEMO_H
#define KVERIFY_MEMO_H

#include <stdint.h>

#include "step.h"

/*
 * A step whose outcome follows from its inputs alone (checkpatch: the
 * patches, the tree's checkpatch.pl, checkpatch.allow; cocci: the patches,
 * the pristine tree, the semantic patch, spatch) keeps its last PASS in
 * the cache under a hash of those inputs.  A run with the same hash
 * reports that PASS as up to date instead of running the tool again, as
 * the build step does not run make again; anything else runs the tool.
 *
 * Every key starts with the tree stamp (the source's key and every patch's
 * name and bytes) and this kverify executable's bytes.
 */
struct memo {
	uint64_t hash;
	char *path;		/* cache/memo/<target>.<step> */
	const char *log;	/* the step's: says why no tool ran */
	int incomplete;		/* an input could not be read: no reuse */
};

void memo_init(struct memo *m, const struct verify_ctx *ctx, const char *step);
void memo_add_file(struct memo *m, const char *path);
/* A string the outcome depends on (who signs the patches checked). */
void memo_add_string(struct memo *m, const char *s);
/* The executable PATH runs for @tool (its bytes). */
void memo_add_tool(struct memo *m, const char *tool);
/* 1: @r is the kept PASS, as up to date; 0: run the step. */
int memo_reuse(const struct memo *m, struct step_result *r);
/* Keep @r if @st is a PASS; forget what was kept otherwise. */
void memo_keep(const struct memo *m, enum step_status st,
	       const struct step_result *r);
void memo_clear(struct memo *m);

#endif
