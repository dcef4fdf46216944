/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_CHECKPATCH_H
#define KVERIFY_CHECKPATCH_H

#include "lib/run.h"
#include "lib/strbuf.h"

/**
 * checkpatch_run() - The tree's checkpatch.pl on one patch.
 * @c: The child to run it as; its output fields are the caller's.
 * @tree: The pristine tree whose scripts/checkpatch.pl runs, in it, in
 *	the sandbox, with --strict --show-types.
 * @patch: The patch or mail.
 * @why: Why the sandbox could not be had.
 *
 * Return: as run_child() does, or -1 with @why when the sandbox could
 * not be had.
 */
int checkpatch_run(struct child *c, const char *tree, const char *patch,
		   struct strbuf *why);

/**
 * checkpatch_file() - checkpatch --strict on one patch outside a run.
 * @tree: The pristine tree whose checkpatch.pl runs.
 * @patch: The patch or mail.
 * @allow: checkpatch.allow: the warnings and checks let through, or NULL.
 * @log: Where checkpatch's output goes.
 * @detail: What it found that counts, or NULL.
 *
 * Return: the number of errors, and of warnings and checks @allow does
 * not list; -1 when it could not run or ended other than with 0 or 1.
 */
int checkpatch_file(const char *tree, const char *patch, const char *allow,
		    const char *log, struct strbuf *detail);

#endif
