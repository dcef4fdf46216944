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

/**
 * ident_sender() - The operator's identity.
 * @id: Filled in, also when it fails: free it with ident_clear().
 * @err: Appended to when it fails: what is wrong, where it came from and
 *	the git config commands that set a real one.
 *
 * Each half is taken from the first of its sources that is set (see
 * struct ident); one that none sets is empty.
 *
 * Return: 0, or -1 when a half is unset or a placeholder (as
 * ident_placeholder() judges), or has <, > or a line break in it (or a
 * blank in the address).
 */
int ident_sender(struct ident *id, struct strbuf *err);

/**
 * ident_clear() - Free an identity's strings.
 * @id: The identity; its pointers are left NULL.
 */
void ident_clear(struct ident *id);

/**
 * ident_placeholder() - Why a "Name <email>" is a placeholder.
 * @s: The identity, as a From: or a trailer gives it.
 *
 * A placeholder has no name or address, or is a literal placeholder
 * ("Patch Author", EDITME, the example of ident_sender()'s message), or
 * an address in a reserved domain (RFC 2606, RFC 6761: .example, .test,
 * .invalid, .localhost, example.com/.net/.org and their subdomains),
 * which nobody owns.
 *
 * Return: The reason, a static string; NULL when @s is no placeholder.
 */
const char *ident_placeholder(const char *s);

/**
 * ident_check_patch() - Find the placeholders a patch names.
 * @path: The patch; its From:, Signed-off-by: and other person lines
 *	before the "---" that starts the diff are checked.
 * @err: Appended to: a "file:line: ..." line for each placeholder, or
 *	"cannot read it".
 *
 * Return: The number of placeholders found; 1 when @path cannot be read.
 */
int ident_check_patch(const char *path, struct strbuf *err);

/**
 * ident_refuse_patches() - Refuse a series that names a placeholder.
 * @patches: The series' patches, each checked by ident_check_patch().
 * @name: The target whose series it is, for the message.
 *
 * What was found, and how to fix it, goes to stderr.
 *
 * Return: How many placeholders were found in all; 0 for none.
 */
int ident_refuse_patches(const struct strvec *patches, const char *name);

/* What ident_stamp() adds besides a missing From:. */
#define STAMP_SIGNOFF	1	/* the operator's Signed-off-by: */
#define STAMP_CODEV	2	/* ... after a Co-developed-by: of theirs */

/**
 * ident_stamp() - A patch as the operator sends it.
 * @in: The patch, a git format-patch file.
 * @out: Where it is written; may be @in.
 * @op: The operator (ident_sender()).
 * @flags: 0 (the From: alone), STAMP_SIGNOFF, or STAMP_SIGNOFF |
 *	STAMP_CODEV.
 * @err: Appended to when it fails.
 *
 * A patch without From: gets the operator's.  With STAMP_SIGNOFF, their
 * Signed-off-by: goes at the end of the trailers unless it is there
 * already (git interpret-trailers places it); with STAMP_CODEV too, and a
 * From: of someone else, the pair "Co-developed-by:" + "Signed-off-by:"
 * of the operator, last, as Documentation/process/submitting-patches.rst
 * wants of a co-developer who submits.
 *
 * Return: 0, or -1 with why in @err: @in cannot be read or is no
 * format-patch file, @out cannot be written, or git interpret-trailers
 * failed or left the trailers out.
 */
int ident_stamp(const char *in, const char *out, const struct ident *op,
		unsigned int flags, struct strbuf *err);

/**
 * ident_unstamp() - Take the operator's stamp off a patch.
 * @sb: The patch's text, changed in place; left as it is when it has no
 *	"---" line.
 * @email: The operator's address; "" changes nothing.
 *
 * The reverse of ident_stamp(): the From: header and the Signed-off-by:
 * and Co-developed-by: trailers naming @email go.  It is what make am and
 * make trailers write into series/ for a patch the operator sent.
 */
void ident_unstamp(struct strbuf *sb, const char *email);

/**
 * ident_has_from() - Does a patch's header have a From: line?
 * @text: The patch; its header ends at the first blank line.
 *
 * Return: 1 if it has, else 0.
 */
int ident_has_from(const char *text);

/**
 * ident_co_developed() - Is a patch one the operator co-developed?
 * @list: The list, series/co-developed: one patch file name a line,
 *	# comments.
 * @patch: The patch; its file name is looked up.
 * @err: Appended to: "file:line: what" for a line that is no patch file
 *	name.
 *
 * Return: 1 when @list names @patch, 0 when not or there is no list; -1
 * for a line that is no patch file name.
 */
int ident_co_developed(const char *list, const char *patch,
		       struct strbuf *err);

#endif
