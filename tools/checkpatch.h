/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_CHECKPATCH_H
#define KVERIFY_CHECKPATCH_H

#include "lib/run.h"
#include "lib/strbuf.h"

/*
 * perl <tree>/scripts/checkpatch.pl --strict --show-types on @patch, in
 * @tree, in the sandbox; @c's output fields are the caller's.
 */
int checkpatch_run(struct child *c, const char *tree, const char *patch,
		   struct strbuf *why);

/*
 * checkpatch --strict on one patch or mail outside a verify run: the number
 * of errors, and of warnings and checks checkpatch.allow does not list.
 */
int checkpatch_file(const char *tree, const char *patch, const char *allow,
		    const char *log, struct strbuf *detail);

#endif
