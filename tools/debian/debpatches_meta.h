/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_DEBPATCHES_META_H
#define KVERIFY_DEBPATCHES_META_H

#include "lib/strbuf.h"

/* The longest name (without ".patch") debian_patch_name() gives. */
#define DEBIAN_NAME_MAX 64

/**
 * mail_header() - A header's value in a mail.
 * @text: The mail; its header ends at its first blank line (LF or CRLF).
 * @key: The header's name, without ':'; case does not count.
 *
 * Return: The value of the first such header, continuation lines unfolded
 * and blanks before it left out, to be freed; NULL when there is none.
 */
char *mail_header(const char *text, const char *key);

/**
 * plain_subject() - A subject without its "[PATCH ...]" prefixes.
 * @s: The subject.
 *
 * Return: @s past each leading "[...]" and the blanks after it.
 */
const char *plain_subject(const char *s);

/**
 * debian_patch_name() - The name Debian's linux package gives a patch.
 * @subject: The patch's subject; its "[PATCH ...]" prefixes do not count.
 *
 * The subject's words (ASCII letters and digits) in lower case, joined by
 * '-', as many whole words as fit in DEBIAN_NAME_MAX characters (a first
 * word that does not is cut), then ".patch".  It depends on the subject
 * alone: not on the patch's number, nor on the revision.
 *
 * Return: The name, to be freed; NULL when the subject has no word.
 */
char *debian_patch_name(const char *subject);

/**
 * debian_name_of() - The Debian name of a patch file.
 * @path: The patch, a mail (an mbox "From " line first is skipped).
 *
 * Return: debian_patch_name() of its Subject:, to be freed; NULL when
 * it cannot be read, has no Subject: or the subject no word.
 */
char *debian_name_of(const char *path);

/* The newest posted revision, as series/ and the send record keep it. */
struct posted {
	int rev;		/* 0: nothing posted */
	char *dir;		/* its patches: "series" or "series/old/vN" */
	char *msgid;		/* its cover's message-id, without <> */
	struct strvec names;	/* the Debian names of its patches */
	struct strvec ids;	/* "name\tmessage-id": each patch's own */
};

/**
 * posted_load() - The newest posted revision of the series.
 * @po: A zeroed one, filled in; free it with posted_clear(), also when
 *	this fails.
 * @working: The revision series/revision gives.
 * @results: The results directory: the mails make send sent are in its
 *	send/vN/sent/.
 *
 * series/ (of the working directory) when series/message-id says it is
 * posted, else the newest series/old/vN/ with a message-id (make reroll
 * and make am keep the posted one there).  Each patch's own message-id
 * comes from its message-ids file (make am) and from the mails sent,
 * keyed by the patch's Debian name.
 *
 * Return: 0 (@po->rev 0: nothing posted), or a negative number after
 * saying on stderr what is wrong: a message-id or message-ids file, or
 * the revision's series (series_load()).
 */
int posted_load(struct posted *po, int working, const char *results);

/**
 * posted_clear() - Free what a posted revision holds.
 * @po: The revision.
 */
void posted_clear(struct posted *po);

/**
 * posted_patch_id() - A patch's own message-id in the posting.
 * @po: The posted revision.
 * @name: The patch's Debian name.
 *
 * Return: The message-id, without <>, pointing into @po; NULL when it is
 * not known.
 */
const char *posted_patch_id(const struct posted *po, const char *name);

/**
 * add_collected_trailers() - Add the trailers make trailers collected.
 * @text: A patch's text: each trailer a reviewer gave in series/'s patch
 *	of the same Debian name (Reviewed-by:, Tested-by:, Acked-by: ...,
 *	not Signed-off-by: or Co-developed-by:) that @text lacks goes into
 *	its message's last paragraph, before the backport note ("[ backport
 *	to ..."), else at the end.
 * @name: The patch's Debian name.
 *
 * Return: How many trailers @text lacked; they are added only when @text
 * has its "---" line.
 */
int add_collected_trailers(struct strbuf *text, const char *name);

#endif
