// SPDX-License-Identifier: GPL-2.0
/*
 * The string functions of b4's workflows that read no file and run
 * nothing (tests/unit/test_b4.c): the checks of a change-id, a message-id
 * and a revision; the revision of a posting's subject; a cover's changelog
 * section; a folded From: joined; a mail as sent compared with the one
 * checked; the next revision's changelog lines from a range-diff.  What git reads in mail (headers, trailers, mailboxes) is
 * b4_mail.c's, through git mailinfo, mailsplit and interpret-trailers.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "b4/b4_int.h"
#include "lib/escape.h"
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

/* The headers a send sets anew, and those patatt adds. */
static const char *const volatile_hdr[] = {
	"Date", "Message-Id", "In-Reply-To", "References",
	"X-Developer-Signature", "X-Developer-Key",
	"X-B4-Tracking",	/* gzip, with the time in it */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* @s (@n bytes), its runs of blanks one space, without blanks around. */
static void add_squeezed(struct strbuf *out, const char *s, size_t n)
{
	int blank = 0;

	for (; n && isspace((unsigned char)*s); s++, n--)
		;
	for (; n; s++, n--) {
		if (isspace((unsigned char)*s)) {
			blank = 1;
			continue;
		}
		if (blank)
			strbuf_addch(out, ' ');
		blank = 0;
		strbuf_addch(out, *s);
	}
}

/*
 * The addresses of the list @s, split at the commas outside quotes, <>
 * and comments, each squeezed, sorted, joined again by ", ".
 */
static void add_address_set(struct strbuf *out, const char *s)
{
	struct strvec set = STRVEC_INIT;
	struct strbuf one = STRBUF_INIT;
	const char *p, *start = s;
	int quoted = 0, angle = 0, paren = 0;
	size_t i;

	for (p = s; ; p++) {
		if (*p && *p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '"')
			quoted = !quoted;
		else if (!quoted && *p == '<')
			angle++;
		else if (!quoted && *p == '>' && angle)
			angle--;
		else if (!quoted && *p == '(')
			paren++;
		else if (!quoted && *p == ')' && paren)
			paren--;
		if (*p && (*p != ',' || quoted || angle || paren))
			continue;
		strbuf_reset(&one);
		add_squeezed(&one, start, p - start);
		if (one.len)
			strvec_push(&set, one.buf);
		if (!*p)
			break;
		start = p + 1;
	}
	qsort(set.v, set.nr, sizeof(*set.v), cmp_str);
	for (i = 0; i < set.nr; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", set.v[i]);
	strvec_clear(&set);
	strbuf_release(&one);
}

/*
 * The unfolded header @h as "Name: value" into @hdrs: the name in one
 * spelling (Message-Id, Cc), the value squeezed, To:/Cc:/Bcc: as a set
 * of addresses; a header a send sets anew is left out.
 */
static void add_header(struct strvec *hdrs, const char *h, size_t len)
{
	const char *colon = memchr(h, ':', len);
	struct strbuf sb = STRBUF_INIT;
	size_t n, i;
	int up = 1;

	if (!colon) {
		add_squeezed(&sb, h, len);
		strvec_push(hdrs, sb.buf);
		strbuf_release(&sb);
		return;
	}
	for (n = colon - h; n && isspace((unsigned char)h[n - 1]); n--)
		;
	for (i = 0; i < n; i++) {
		char c = h[i];

		strbuf_addch(&sb, up ? toupper((unsigned char)c) :
				      tolower((unsigned char)c));
		up = c == '-';
	}
	for (i = 0; i < ARRAY_SIZE(volatile_hdr); i++)
		if (!strcasecmp(sb.buf, volatile_hdr[i])) {
			strbuf_release(&sb);
			return;
		}
	strbuf_addstr(&sb, ": ");
	if (!strcmp(sb.buf, "To: ") || !strcmp(sb.buf, "Cc: ") ||
	    !strcmp(sb.buf, "Bcc: ")) {
		char *v = xstrfmt("%.*s", (int)(h + len - colon - 1), colon + 1);

		add_address_set(&sb, v);
		free(v);
	} else {
		add_squeezed(&sb, colon + 1, h + len - colon - 1);
	}
	strvec_push(hdrs, sb.buf);
	strbuf_release(&sb);
}

/*
 * The mail @text as mail_compare() reads it, its line ends \r\n or \n
 * alike: the headers (add_header()) sorted into @hdrs, the body into
 * @body.  An mbox "From " line before the headers is none of them.
 */
static void mail_read(const char *text, struct strvec *hdrs,
		      struct strbuf *body)
{
	struct strbuf norm = STRBUF_INIT, h = STRBUF_INIT;
	const char *p;
	size_t n;

	for (p = text; *p; p++)
		if (p[0] != '\r' || p[1] != '\n')
			strbuf_addch(&norm, *p);
	p = norm.buf;
	if (starts_with(p, "From ")) {
		n = strcspn(p, "\n");
		p += n + !!p[n];
	}
	while (*p) {
		n = strcspn(p, "\n");
		if (!n) {
			p++;
			break;
		}
		if (h.len && (*p == ' ' || *p == '\t')) {
			strbuf_addch(&h, ' ');	/* a folded line */
		} else if (h.len) {
			add_header(hdrs, h.buf, h.len);
			strbuf_reset(&h);
		}
		strbuf_add(&h, p, n);
		p += n + !!p[n];
	}
	if (h.len)
		add_header(hdrs, h.buf, h.len);
	strbuf_addstr(body, p);
	qsort(hdrs->v, hdrs->nr, sizeof(*hdrs->v), cmp_str);
	strbuf_release(&norm);
	strbuf_release(&h);
}

/* "  @what '@s'" (@n bytes of it, at most 200, escaped), a line of @why. */
static void why_line(struct strbuf *why, const char *what, const char *s,
		     size_t n)
{
	char *v = xstrfmt("%.*s", (int)(n > 200 ? 200 : n), s);

	strbuf_addf(why, "  %s '", what);
	term_escape(why, v);
	strbuf_addf(why, "'%s\n", n > 200 ? "..." : "");
	free(v);
}

/*
 * Did the mail @sent go out as the checked mail @checked says?  Both are
 * read as mail, line ends \r\n or \n alike: the headers unfolded, in any
 * order, but for those a send sets anew (Date:, Message-Id:, threading,
 * X-B4-Tracking:) and patatt's; To:, Cc: and Bcc: compared as sets of
 * addresses; the body byte for byte.  0, else 1 with each differing
 * header and the first differing line of the body, a line each, in @why.
 */
int mail_compare(const char *checked, const char *sent, struct strbuf *why)
{
	struct strvec a = STRVEC_INIT, b = STRVEC_INIT;
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	size_t i = 0, j = 0;
	int bad = 0;

	mail_read(checked, &a, &x);
	mail_read(sent, &b, &y);
	while (i < a.nr || j < b.nr) {
		int c = i == a.nr ? 1 : j == b.nr ? -1 : strcmp(a.v[i], b.v[j]);

		if (!c) {
			i++;
			j++;
		} else if (c < 0) {
			why_line(why, "checked, not sent: header", a.v[i],
				 strlen(a.v[i]));
			i++;
		} else {
			why_line(why, "sent, not checked: header", b.v[j],
				 strlen(b.v[j]));
			j++;
		}
		bad |= !!c;
	}
	if (strcmp(x.buf, y.buf)) {
		const char *p = x.buf, *q = y.buf;
		size_t n, m;
		int line = 1;

		for (;;) {
			n = strcspn(p, "\n");
			m = strcspn(q, "\n");
			if (n != m || memcmp(p, q, n) || p[n] != q[m])
				break;
			p += n + 1;
			q += m + 1;
			line++;
		}
		strbuf_addf(why, "  body line %d:\n", line);
		if (*p)
			why_line(why, "  checked", p, n);
		else
			strbuf_addstr(why, "    checked: the body ends before it\n");
		if (*q)
			why_line(why, "  sent   ", q, m);
		else
			strbuf_addstr(why, "    sent:    the body ends before it\n");
		bad = 1;
	}
	strvec_clear(&a);
	strvec_clear(&b);
	strbuf_release(&x);
	strbuf_release(&y);
	return bad;
}

/*
 * What a range-diff says of one pair of patches: its mark ('!' changed,
 * '>' new, '<' dropped), its number in the new revision and subject, and
 * for a changed pair which of its sections changed: "@@ Metadata" and
 * "@@ Commit message" are the message, any other "@@ <file>" the code.
 */
struct rd_pair {
	char mark;
	int n;
	char *subject;
	int code, message, trailers_only;
};

/* "Reviewed-by: ...", "Link: ...": a line of the trailer block. */
static int is_trailer_line(const char *s, size_t len)
{
	static const char *const tokens[] = { "Link", "Cc", "Fixes", "Closes" };
	size_t tok = 0, i;

	while (tok < len && (isalnum((unsigned char)s[tok]) || s[tok] == '-'))
		tok++;
	if (!tok || tok + 1 >= len || s[tok] != ':' || s[tok + 1] != ' ')
		return 0;
	if (tok > 3 && !strncasecmp(s + tok - 3, "-by", 3))
		return 1;
	for (i = 0; i < ARRAY_SIZE(tokens); i++)
		if (strlen(tokens[i]) == tok && !strncasecmp(s, tokens[i], tok))
			return 1;
	return 0;
}

/* A line of a changed pair's body ("    @@ ...", "    +    ..."). */
static void rd_body_line(struct rd_pair *p, const char *s, size_t len,
			 int *in_message)
{
	const char *t;

	if (len < 5 || strncmp(s, "    ", 4))
		return;
	if (s[4] == '@' && len > 7 && s[5] == '@' && s[6] == ' ') {
		t = s + 7;
		*in_message = starts_with(t, "Metadata") ||
			      starts_with(t, "Commit message");
		if (!*in_message)
			p->code = 1;
		return;
	}
	if (!*in_message || (s[4] != '+' && s[4] != '-'))
		return;
	p->message = 1;
	for (t = s + 5; t < s + len && *t == ' '; t++)
		;
	if (t < s + len && !is_trailer_line(t, s + len - t))
		p->trailers_only = 0;
}

/* "N:  abc ! N:  def Subject": a pair's header line into @p; 0 if not one. */
static int rd_header(struct rd_pair *p, const char *line)
{
	const char *s = line;

	s += strspn(s, " ");
	s += strcspn(s, " ");	/* "N:" or "-:" */
	s += strspn(s, " ");
	s += strcspn(s, " ");	/* the commit, or dashes */
	if (s[0] != ' ' || !s[1] || !strchr("=!<>", s[1]) || s[2] != ' ')
		return 0;
	p->mark = s[1];
	s += 3;
	p->n = atoi(s);
	s += strcspn(s, " ");
	s += strspn(s, " ");
	s += strcspn(s, " ");
	s += strspn(s, " ");
	p->subject = xstrdup(s);
	p->code = p->message = 0;
	p->trailers_only = 1;
	return 1;
}

/*
 * One changelog line for @p: EDITME for the author to put into words only
 * where there is something to say, a patch whose code changed, a new or a
 * dropped patch; a message-only change says so, and collected trailers
 * are listed in @trailers for one line at the end.
 */
static void rd_pair_line(struct rd_pair *p, struct strbuf *out,
			 struct strbuf *trailers, int *editme)
{
	if (p->mark == '!' && p->code) {
		strbuf_addf(out, "- Patch %d, %s: EDITME: say what changed (the range-diff shows it)\n",
			    p->n, p->subject);
		*editme = 1;
	} else if (p->mark == '!' && p->message && p->trailers_only) {
		strbuf_addf(trailers, "%s%d", trailers->len ? ", " : "", p->n);
	} else if (p->mark == '!' && p->message) {
		strbuf_addf(out, "- Patch %d, %s: commit message reworded, no code change\n",
			    p->n, p->subject);
	} else if (p->mark == '>') {
		strbuf_addf(out, "- New patch %d, %s: EDITME: say why\n",
			    p->n, p->subject);
		*editme = 1;
	} else if (p->mark == '<') {
		strbuf_addf(out, "- Dropped %s: EDITME: say why\n", p->subject);
		*editme = 1;
	}
	free(p->subject);
	p->subject = NULL;
	p->mark = 0;
}

void reroll_changelog(const char *range_diff, struct strbuf *out)
{
	struct rd_pair p = { 0 };
	struct strbuf trailers = STRBUF_INIT;
	int in_message = 0, editme = 0;
	struct line l;

	for_each_line(l, range_diff) {
		char *s;

		if (l.len && l.s[0] == ' ' && l.len > 4 && !strncmp(l.s, "    ", 4)) {
			if (p.mark == '!')
				rd_body_line(&p, l.s, l.len, &in_message);
			continue;
		}
		rd_pair_line(&p, out, &trailers, &editme);
		s = xstrfmt("%.*s", (int)l.len, l.s);
		if (!rd_header(&p, s))
			p.mark = 0;
		in_message = 0;
		free(s);
	}
	rd_pair_line(&p, out, &trailers, &editme);
	if (trailers.len)
		strbuf_addf(out, "- Collected trailers (patch %s)\n", trailers.buf);
	if (!editme)
		strbuf_addstr(out, "- EDITME: no code changed: say why there is a new revision\n");
	strbuf_release(&trailers);
}

static const char *const review_trailers[] = {
	"Reviewed-by:", "Acked-by:", "Tested-by:",
};

/* The review trailers ("Reviewed-by: ...\n" each) of a patch's message. */
static void patch_review_trailers(const char *patch, struct strbuf *out)
{
	const char *end = strstr(patch, "\n---\n");
	struct line l;
	size_t i;

	for_each_line(l, patch) {
		if (end && l.s > end)
			break;
		for (i = 0; i < ARRAY_SIZE(review_trailers); i++)
			if (starts_with(l.s, review_trailers[i]))
				strbuf_addf(out, "%.*s\n", (int)l.len, l.s);
	}
}

int carry_review_trailers(const char *from, const char *to,
			  struct strbuf *out)
{
	struct strbuf theirs = STRBUF_INIT, ours = STRBUF_INIT;
	const char *end = strstr(to, "\n---\n"), *para, *at;
	struct line l;
	int n = 0;

	if (!end)
		return -1;
	patch_review_trailers(from, &theirs);
	patch_review_trailers(to, &ours);
	/* the message's last paragraph, and in it the first "[ note" line */
	para = to;
	for (at = to; at < end; at++)
		if (at[0] == '\n' && at[1] == '\n')
			para = at + 2;
	at = end + 1;
	for_each_line(l, para) {
		if (l.s > end)
			break;
		if (l.s[0] == '[') {
			at = l.s;
			break;
		}
	}
	strbuf_add(out, to, at - to);
	for_each_line(l, theirs.buf) {
		char *one = xstrfmt("%.*s\n", (int)l.len, l.s);

		if (!strstr(ours.buf, one)) {
			strbuf_addstr(out, one);
			strbuf_addstr(&ours, one);
			n++;
		}
		free(one);
	}
	strbuf_addstr(out, at);
	strbuf_release(&theirs);
	strbuf_release(&ours);
	return n;
}
