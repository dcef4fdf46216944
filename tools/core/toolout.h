/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_TOOLOUT_H
#define KVERIFY_TOOLOUT_H

#include "lib/strbuf.h"

/* What checkpatch --show-types said of one patch, against checkpatch.allow. */
struct checkpatch_counts {
	int errors, warnings, checks, allowed;
	struct strbuf allowed_types;	/* " TYPE TYPE", each type once */
	int stable_line;	/* about stable's "commit SHA upstream." line */
};

#define CHECKPATCH_COUNTS_INIT { 0, 0, 0, 0, STRBUF_INIT, 0 }

void checkpatch_count(const char *out, const char *allow,
		      struct checkpatch_counts *n, struct strbuf *detail,
		      const char *patch);
void quilt_failure(const char *log, struct strbuf *why);

/*
 * @p past stable's "commit SHA upstream." line (SHA 12 to 40 lowercase
 * hex digits) and its newline, or NULL when @p does not start with one.
 */
const char *skip_stable_upstream_line(const char *p);

/* The line the semantic patch prints last: what it did to the tree. */
enum cocci_outcome {
	COCCI_APPLIED,		/* "APPLIED <shape>" */
	COCCI_NOT_APPLICABLE,	/* "NOT-APPLICABLE <why>" */
	COCCI_ALREADY,		/* "ALREADY": the tree has the parameter */
	COCCI_UNKNOWN,		/* "UNKNOWN ...", or a line no rule prints */
};

enum cocci_outcome cocci_outcome(const char *line, const char **rest);

/*
 * The compiler that built the 64-bit ELF object @path, from the strings
 * the compiler leaves in its .comment section: "gcc (Debian 14.2.0-19)
 * 14.2.0" for "GCC: (Debian 14.2.0-19) 14.2.0", clang's "... clang version
 * ..." as it is.  NULL when @path is no such object or names no compiler.
 */
char *elf_compiler(const char *path);

#endif
