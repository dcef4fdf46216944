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

/**
 * checkpatch_count() - Count what checkpatch --show-types found.
 * @out: checkpatch's output: "ERROR:TYPE: text", "WARNING:TYPE: text"
 *	and "CHECK:TYPE: text" lines, each with its context after it.
 * @allow: checkpatch.allow's text: "TYPE reason" lines.
 * @n: Added to (CHECKPATCH_COUNTS_INIT to start).
 * @detail: Appended to: "@patch: line" for each finding that counts.
 * @patch: The patch checkpatch read, for @detail.
 *
 * A GIT_COMMIT_ID or UNKNOWN_COMMIT_ID finding about stable's "commit SHA
 * upstream." line, the first of a backport's message once it is merged
 * (Documentation/process/stable-kernel-rules.rst), is counted apart in
 * @n->stable_line: checkpatch wants 'commit SHA ("title")' of every
 * commit it names, and in a tree without git knows none.  Any other
 * error counts.  A warning or check whose type @allow lists is only
 * noted, in @n->allowed and, once, in @n->allowed_types; the others
 * count.
 */
void checkpatch_count(const char *out, const char *allow,
		      struct checkpatch_counts *n, struct strbuf *detail,
		      const char *patch);

/**
 * quilt_failure() - Say which patch quilt push could not apply.
 * @log: quilt push's output.
 * @why: Appended to, one line: "patch X does not apply", with the file
 *	and the line of the first hunk that FAILED when the output has
 *	them; "quilt push failed" when it names no patch and no failed
 *	hunk.
 */
void quilt_failure(const char *log, struct strbuf *why);

/**
 * skip_stable_upstream_line() - Skip stable's "commit SHA upstream." line.
 * @p: The text, a message, say.
 *
 * Return: @p past the line (SHA 12 to 40 lowercase hex digits) and its
 * newline, or NULL when @p does not start with one.
 */
const char *skip_stable_upstream_line(const char *p);

/* The line the semantic patch prints last: what it did to the tree. */
enum cocci_outcome {
	COCCI_APPLIED,		/* "APPLIED <shape>" */
	COCCI_NOT_APPLICABLE,	/* "NOT-APPLICABLE <why>" */
	COCCI_ALREADY,		/* "ALREADY": the tree has the parameter */
	COCCI_UNKNOWN,		/* "UNKNOWN ...", or a line no rule prints */
};

/**
 * cocci_outcome() - What the semantic patch did to the tree.
 * @line: The line it printed last.
 * @rest: Set to what follows the keyword (the shape, the reason), "" if
 *	nothing; for COCCI_UNKNOWN, to all of @line.
 *
 * "APPLIED" without a shape after it is COCCI_UNKNOWN.
 *
 * Return: The outcome @line says.
 */
enum cocci_outcome cocci_outcome(const char *line, const char **rest);

/**
 * elf_compiler() - The compiler that built an ELF object.
 * @path: A 64-bit little-endian ELF object (x86_64).
 *
 * Read from the strings compilers leave in its .comment section: "gcc
 * (Debian 14.2.0-19) 14.2.0" for "GCC: (Debian 14.2.0-19) 14.2.0",
 * clang's "... clang version ..." as it is.
 *
 * Return: The compiler, to be freed; NULL when @path is no such object or
 * names no compiler.
 */
char *elf_compiler(const char *path);

#endif
