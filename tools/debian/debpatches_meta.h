/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_DEBPATCHES_META_H
#define KVERIFY_DEBPATCHES_META_H

#include "lib/strbuf.h"

/* The longest name (without ".patch") debian_patch_name() gives. */
#define DEBIAN_NAME_MAX 64

char *mail_header(const char *text, const char *key);
const char *plain_subject(const char *s);
char *debian_patch_name(const char *subject);
char *debian_name_of(const char *path);

/* The newest posted revision, as series/ and the send record keep it. */
struct posted {
	int rev;		/* 0: nothing posted */
	char *dir;		/* its patches: "series" or "series/old/vN" */
	char *msgid;		/* its cover's message-id, without <> */
	struct strvec names;	/* the Debian names of its patches */
	struct strvec ids;	/* "name\tmessage-id": each patch's own */
};

int posted_load(struct posted *po, int working, const char *results);
void posted_clear(struct posted *po);
const char *posted_patch_id(const struct posted *po, const char *name);
int add_collected_trailers(struct strbuf *text, const char *name);

#endif
