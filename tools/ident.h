/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_IDENT_H
#define KVERIFY_IDENT_H

#include "strbuf.h"

/* The sender: GIT_COMMITTER_NAME/EMAIL, else git's user.name/user.email. */
struct ident {
	char *name;
	char *email;
	char *full;	/* "Name <email>" */
};

/*
 * The sender's identity, or -1 with what is wrong and how to fix it in
 * @err: unset, or a placeholder (ident_placeholder()).
 */
int ident_sender(struct ident *id, struct strbuf *err);
void ident_clear(struct ident *id);

/* Why "Name <email>" @s is a placeholder, or NULL when it is not. */
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

#endif
