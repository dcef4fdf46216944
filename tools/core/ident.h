/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_IDENT_H
#define KVERIFY_IDENT_H

#include "lib/strbuf.h"

/*
 * The operator: GIT_COMMITTER_NAME/EMAIL, else GIT_AUTHOR_NAME/EMAIL, else
 * git's user.name/user.email, else (the address) $EMAIL.
 */
struct ident {
	char *name;
	char *email;
	char *full;	/* "Name <email>" */
	char *origin;	/* where each came from, for the error message */
};

/*
 * The operator's identity, or -1 with what is wrong, where it came from
 * and how to fix it in @err: unset, or a placeholder (ident_placeholder()).
 */
int ident_sender(struct ident *id, struct strbuf *err);
void ident_clear(struct ident *id);

/*
 * Why "Name <email>" @s is a placeholder, or NULL when it is not: no name
 * or address, a literal placeholder ("Patch Author", EDITME, the example
 * of ident_sender()'s message), or an address in a reserved domain
 * (RFC 2606, RFC 6761: .example, .test, .invalid, .localhost,
 * example.com/.net/.org and their subdomains), which nobody owns.
 */
const char *ident_placeholder(const char *s);

/*
 * Every From:, Signed-off-by: and other person trailer of the patch
 * @path that names a placeholder, one "file:line: ..." line each in
 * @err; the number found.
 */
int ident_check_patch(const char *path, struct strbuf *err);

/*
 * ident_check_patch() on each of @patches (the series of target @name):
 * what it found and how to fix it on stderr; how many.
 */
int ident_refuse_patches(const struct strvec *patches, const char *name);

/* What ident_stamp() adds besides a missing From:. */
#define STAMP_SIGNOFF	1	/* the operator's Signed-off-by: */
#define STAMP_CODEV	2	/* ... after a Co-developed-by: of theirs */

/*
 * The patch @in as the operator sends it, into @out (which may be @in): a
 * patch without From: gets theirs; with STAMP_SIGNOFF, their
 * Signed-off-by: at the end of the trailers unless it is there already
 * (git interpret-trailers places it); with STAMP_CODEV too, and a From:
 * of someone else, the pair "Co-developed-by:" + "Signed-off-by:" of the
 * operator, last, as Documentation/process/submitting-patches.rst wants
 * of a co-developer who submits.  0, or -1 with why in @err.
 */
int ident_stamp(const char *in, const char *out, const struct ident *op,
		unsigned int flags, struct strbuf *err);

/*
 * The reverse, on the text of patch @sb: the From: header and the
 * Signed-off-by: and Co-developed-by: trailers naming @email go; what
 * make am and make trailers write into series/ for a patch the operator
 * sent.
 */
void ident_unstamp(struct strbuf *sb, const char *email);

/* 1 when @sb's header (before the first blank line) has a From: line. */
int ident_has_from(const char *text);

/*
 * 1 when the file name of @patch is listed in @list (series/co-developed:
 * one patch file name a line, # comments), 0 when not or there is no
 * list; -1 with "file:line: what" in @err for a line that is no patch
 * file name.
 */
int ident_co_developed(const char *list, const char *patch,
		       struct strbuf *err);

#endif
