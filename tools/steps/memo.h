/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_MEMO_H
#define KVERIFY_MEMO_H

#include <stdint.h>

#include "core/step.h"

/*
 * A step whose outcome follows from its inputs alone (checkpatch: the
 * patches, the tree's checkpatch.pl, checkpatch.allow; cocci: the patches,
 * the pristine tree, the semantic patch, spatch; sim: the vPMU files it
 * cuts out of the trees, its sources, the compiler, seed and trace count;
 * boot: the initramfs's files, the kernel image, QEMU and its command line)
 * keeps its last PASS in the cache under a hash of those inputs.  A run
 * with the same hash reports that PASS as up to date instead of running
 * the tool again, as the build step does not run make again; anything
 * else runs the tool, and so does every run with FORCE=1 or
 * VERIFY_CACHE=1.
 *
 * The hash is computed afresh from the inputs each run and compared with
 * the one the file names; the file also carries a seal (a hash of its
 * contents under that key), so a file edited by hand or cut short is not
 * believed.  The seal catches edits and corruption, not an attacker: whoever
 * can write the cache can write a matching seal.
 *
 * memo_init() keys start with the tree stamp (the source's key and every
 * patch's name and bytes); memo_init_bare() keys do not, for a step that
 * adds the very files it reads.  Both add this kverify executable's bytes.
 */
struct memo {
	uint64_t hash;
	char *path;		/* cache/memo/<target>.<step> */
	const char *log;	/* the step's: says why no tool ran */
	int incomplete;		/* an input could not be read: no reuse */
	int force;		/* FORCE=1, VERIFY_CACHE=1: run, then keep */
};

void memo_init(struct memo *m, const struct verify_ctx *ctx, const char *step);
void memo_init_bare(struct memo *m, const struct verify_ctx *ctx,
		    const char *step);
void memo_add_file(struct memo *m, const char *path);
/* The file's name and bytes, or that it is absent (not an error). */
void memo_add_optional_file(struct memo *m, const char *path);
/*
 * A C file as the compiler reads it: its comments do not count, its lines
 * do (a comment edited in place leaves the hash as it was)
 */
void memo_add_optional_code(struct memo *m, const char *path);
/* A string the outcome depends on (who signs the patches checked). */
void memo_add_string(struct memo *m, const char *s);
/* The executable PATH runs for @tool (its bytes). */
void memo_add_tool(struct memo *m, const char *tool);
/* 1: @r is the kept PASS, as up to date; 0: run the step. */
int memo_reuse(const struct memo *m, struct step_result *r);
/* The same, and @data gets what memo_keep_data() kept beside it. */
int memo_reuse_data(const struct memo *m, struct step_result *r,
		    struct strbuf *data);
/* Keep @r if @st is a PASS; forget what was kept otherwise. */
void memo_keep(const struct memo *m, enum step_status st,
	       const struct step_result *r);
/* The same, with @data: what the step's output needs to be rebuilt. */
void memo_keep_data(const struct memo *m, enum step_status st,
		    const struct step_result *r, const struct strbuf *data);
void memo_clear(struct memo *m);

#endif
