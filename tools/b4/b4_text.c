// SPDX-License-Identifier: GPL-2.0
/*
 * The string functions of b4's workflows that read no file and run
 * nothing (tests/unit/test_b4.c): the checks of a change-id, a message-id
 * and a revision; the revision of a posting's subject; a cover's changelog
 * section; a folded From: joined; a mail without the headers a send sets
 * anew.  What git reads in mail (headers, trailers, mailboxes) is
 * b4_mail.c's, through git mailinfo, mailsplit and interpret-trailers.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "b4/b4_int.h"
#include "sources/targets.h"

/* 1 when @s is a change-id b4 could have made: letters, digits, ._- */
int valid_change_id(const char *s)
{
	return plain_name(s) && strlen(s) <= 128;
}

/*
 * A message-id as given on the command line: what b4 takes as a value,
 * never an option; "<...>" or a lore link allowed.
 */
int valid_msgid(const char *s)
{
	const char *p;

	if (!*s || *s == '-')
		return 0;
	for (p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return 0;
	return !!strchr(s, '@');
}

/* "vN" or "N" with 1 <= N <= MAX_REVISION: N, else 0. */
int parse_revision(const char *s)
{
	char *end;
	long n;

	if (*s == 'v')
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || *end || n < 1 || n > MAX_REVISION)
		return 0;
	return n;
}

/* "[PATCH vN ..." in @text: N, 1 without one, 0 when out of range. */
int revision_of(const char *text)
{
	const char *p = strstr(text, "[PATCH v");
	char *n;
	int rev;

	if (!p)
		return 1;
	p += 8;
	n = xstrfmt("%.*s", (int)strspn(p, "0123456789"), p);
	rev = parse_revision(n);
	free(n);
	return rev;
}

/*
 * A changelog section of revision @rev in the cover @text: a line of its
 * own "Changes in vN:" or "Changes since vN-1:", as b4 and the lists write
 * it, followed by at least one line of text (not the words anywhere).
 */
int has_changelog(const char *text, int rev)
{
	char *in = xstrfmt("Changes in v%d:", rev);
	char *since = xstrfmt("Changes since v%d:", rev - 1);
	struct line l;
	int found = 0, want_text = 0;

	for_each_line(l, text) {
		size_t n = l.len;

		while (n && (l.s[n - 1] == ' ' || l.s[n - 1] == '\r'))
			n--;
		if (want_text) {
			found = n > 0;
			break;
		}
		if ((n == strlen(in) && !strncmp(l.s, in, n)) ||
		    (n == strlen(since) && !strncmp(l.s, since, n)))
			want_text = 1;
	}
	free(in);
	free(since);
	return found;
}

/* Join a folded From: header, as git folds a long identity. */
void unfold_from(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = sb->buf, *from = strstr(p, "\nFrom: ");
	const char *nl = from ? strchr(from + 1, '\n') : NULL;

	if (!nl || nl[1] != ' ')
		return;
	strbuf_add(&out, p, nl - p);
	strbuf_addstr(&out, nl + 1);
	strbuf_release(sb);
	*sb = out;
}

/*
 * @text without \r, and without the headers a send sets anew (Date,
 * Message-Id, In-Reply-To, References) and patatt adds.
 */
void sendable(const char *text, struct strbuf *out)
{
	static const char *const volatile_hdr[] = {
		"Date:", "Message-Id:", "In-Reply-To:", "References:",
		"X-Developer-Signature:", "X-Developer-Key:",
		"X-B4-Tracking:",	/* gzip, with the time in it */
	};
	const char *p = text;
	int in_header = 1, skip = 0;

	while (*p) {
		size_t len = strcspn(p, "\n");
		size_t n = len;
		size_t i;

		if (n && p[n - 1] == '\r')
			n--;
		if (in_header && !n) {
			in_header = 0;
		} else if (in_header && (*p == ' ' || *p == '\t')) {
			/* a folded line goes with its header */
		} else if (in_header) {
			skip = 0;
			for (i = 0; i < ARRAY_SIZE(volatile_hdr); i++)
				if (!strncasecmp(p, volatile_hdr[i],
						 strlen(volatile_hdr[i])))
					skip = 1;
		}
		if (!in_header || !skip) {
			strbuf_add(out, p, n);
			strbuf_addch(out, '\n');
		}
		p += len + !!p[len];
	}
}
