// SPDX-License-Identifier: GPL-2.0
/*
 * Who signs what leaves this machine.  The sender is the operator's own git
 * identity (GIT_COMMITTER_NAME/EMAIL, GIT_AUTHOR_NAME/EMAIL override it);
 * a placeholder (an address in a domain nobody owns, .example, .test,
 * .invalid, .localhost, example.com; "Patch Author"; no identity at all)
 * never goes into a mail, a backport or a bundle: make send, make backport
 * and make bundle refuse it, say where it came from and how to set a real
 * one.
 *
 * The patches this project writes carry no From: and no Signed-off-by: in
 * the repository: ident_stamp() gives them the operator's when they leave
 * (make send, make backport, the checkpatch step's copy), and
 * ident_unstamp() takes them off what make am brings back.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/ident.h"
#include "lib/fsutil.h"
#include "lib/run.h"

/*
 * git config --get @key and where git found it ("file:/home/u/.gitconfig"),
 * or NULL.
 */
static char *git_config(const char *key, char **where)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *tab;

	*where = NULL;
	strvec_pushl(&c.args, "git", "config", "--show-origin", "--get", key,
		     NULL);
	c.out = &out;
	c.log = "/dev/null";
	if (run_child(&c) || !out.len) {
		child_clear(&c);
		strbuf_release(&out);
		return NULL;
	}
	child_clear(&c);
	strbuf_trim_trailing(&out);
	tab = strchr(out.buf, '\t');
	if (!tab) {
		strbuf_release(&out);
		return NULL;
	}
	*where = xstrfmt("%.*s", (int)(tab - out.buf), out.buf);
	tab = xstrdup(tab + 1);
	strbuf_release(&out);
	return tab;
}

static int ends_with_icase(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcasecmp(s + n - m, suffix);
}

/*
 * Domains nobody owns: the top-level domains RFC 2606 and RFC 6761
 * reserve, and the second-level ones RFC 2606 reserves, with every
 * subdomain; what git makes up when it finds no domain; the example of
 * our own message.
 */
static const struct {
	const char *domain;	/* matches it and its subdomains */
	const char *why;
} reserved[] = {
	{ "example", "an address in the reserved top-level domain .example (RFC 2606: nobody owns it)" },
	{ "test", "an address in the reserved top-level domain .test (RFC 2606: nobody owns it)" },
	{ "invalid", "an address in the reserved top-level domain .invalid (RFC 2606: nobody owns it)" },
	{ "localhost", "an address in the reserved top-level domain .localhost (RFC 6761: this machine, nobody else's mail)" },
	{ "example.com", "an address in the reserved domain example.com (RFC 2606: nobody owns it)" },
	{ "example.net", "an address in the reserved domain example.net (RFC 2606: nobody owns it)" },
	{ "example.org", "an address in the reserved domain example.org (RFC 2606: nobody owns it)" },
	{ "localdomain", "an address in .localdomain, a name of this machine, nobody else's mail" },
	{ "your-domain", "the example address of this message, not yours" },
};

/* Why the address @email is a placeholder, or NULL. */
static const char *bad_email(const char *email)
{
	const char *at = strchr(email, '@');
	char *domain;
	size_t i, n;

	if (!*email)
		return "no email address";
	if (!at || at == email || !at[1] || strchr(at + 1, '@'))
		return "not an email address";
	if (strstr(email, "(none)"))
		return "git's guess of an address on a machine with no domain, (none)";
	/* "name@host." is the same domain as "name@host" */
	domain = xstrdup(at + 1);
	n = strlen(domain);
	while (n && domain[n - 1] == '.')
		domain[--n] = '\0';
	for (i = 0; i < ARRAY_SIZE(reserved); i++) {
		char *sub = xstrfmt(".%s", reserved[i].domain);
		int hit = !strcasecmp(domain, reserved[i].domain) ||
			  ends_with_icase(domain, sub);

		free(sub);
		if (hit) {
			free(domain);
			return reserved[i].why;
		}
	}
	if (!strchr(domain, '.')) {
		free(domain);
		return "an address at a bare host name (no domain: nobody off that machine can write to it)";
	}
	free(domain);
	if (!strncasecmp(email, "patch.author@", 13))
		return "the placeholder address patch.author@";
	return NULL;
}

static const char *bad_name(const char *name)
{
	if (!*name)
		return "no name";
	if (!strcasecmp(name, "Patch Author") ||
	    !strcasecmp(name, "Your Name") || strstr(name, "EDITME"))
		return "a placeholder name";
	return NULL;
}

const char *ident_placeholder(const char *s)
{
	const char *lt = strchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	const char *why;
	char *name, *email;
	size_t n;

	if (!lt || !gt)
		return "not \"Name <email>\"";
	n = lt - s;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	name = xstrfmt("%.*s", (int)n, s);
	email = xstrfmt("%.*s", (int)(gt - lt - 1), lt + 1);
	why = bad_name(name);
	if (!why)
		why = bad_email(email);
	free(name);
	free(email);
	return why;
}

/*
 * One half of the identity, from the first of @vars (environment) that is
 * set, else git's @key, else from @fallback (environment) if given; where
 * it came from appended to @origin.
 */
static char *resolve(const char *const *vars, size_t nvars, const char *key,
		     const char *fallback, struct strbuf *origin)
{
	char *v, *where;
	size_t i;

	if (origin->len)
		strbuf_addstr(origin, "; ");
	for (i = 0; i < nvars; i++) {
		const char *e = getenv(vars[i]);

		if (e && *e) {
			strbuf_addf(origin, "%s=%s in the environment", vars[i],
				    e);
			return xstrdup(e);
		}
	}
	v = git_config(key, &where);
	if (v) {
		strbuf_addf(origin, "git config %s (%s)", key, where);
		free(where);
		return v;
	}
	if (fallback && getenv(fallback) && *getenv(fallback)) {
		strbuf_addf(origin, "%s=%s in the environment", fallback,
			    getenv(fallback));
		return xstrdup(getenv(fallback));
	}
	strbuf_addf(origin, "no %s: neither git config %s nor", key, key);
	for (i = 0; i < nvars; i++)
		strbuf_addf(origin, " %s", vars[i]);
	if (fallback)
		strbuf_addf(origin, " %s", fallback);
	strbuf_addstr(origin, " is set");
	return xstrdup("");
}

int ident_sender(struct ident *id, struct strbuf *err)
{
	static const char *const names[] = {
		"GIT_COMMITTER_NAME", "GIT_AUTHOR_NAME",
	};
	static const char *const emails[] = {
		"GIT_COMMITTER_EMAIL", "GIT_AUTHOR_EMAIL",
	};
	struct strbuf origin = STRBUF_INIT;
	const char *why;

	id->name = resolve(names, ARRAY_SIZE(names), "user.name", NULL,
			   &origin);
	id->email = resolve(emails, ARRAY_SIZE(emails), "user.email",
			    "EMAIL", &origin);
	id->origin = strbuf_detach(&origin, NULL);
	id->full = xstrfmt("%s <%s>", id->name, id->email);
	why = bad_name(id->name);
	if (!why)
		why = bad_email(id->email);
	if (!why && (strpbrk(id->full, "\n\r") || strchr(id->name, '<') ||
		     strchr(id->name, '>') || strpbrk(id->email, "<> ")))
		why = "a name or address with <, > or a line break";
	if (!why)
		return 0;
	strbuf_addf(err, "your git identity \"%s\" is %s: it would sign what leaves this machine (From:, Signed-off-by:).\n"
		    "  It came from: %s.\n"
		    "  Set your own, as it should appear in the Signed-off-by: lines:\n"
		    "    git config --global user.name \"Your Name\"\n"
		    "    git config --global user.email you@your-domain\n"
		    "  (GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL override it for one command)\n",
		    id->full, why, id->origin);
	return -1;
}

void ident_clear(struct ident *id)
{
	free(id->name);
	free(id->email);
	free(id->full);
	free(id->origin);
	id->name = id->email = id->full = id->origin = NULL;
}

static const char *const person_fields[] = {
	"From:", "Signed-off-by:", "Co-developed-by:", "Reviewed-by:",
	"Acked-by:", "Tested-by:", "Reported-by:", "Suggested-by:",
};

int ident_check_patch(const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *why;
	int lineno = 0, bad = 0;
	size_t i;

	if (strbuf_read_file(&sb, path, 64 << 20) < 0) {
		strbuf_addf(err, "%s: cannot read it\n", path);
		return 1;
	}
	for (p = sb.buf; p && *p; ) {
		size_t len = strcspn(p, "\n");

		lineno++;
		if (len == 3 && starts_with(p, "---"))
			break;	/* the diff starts */
		for (i = 0; i < ARRAY_SIZE(person_fields); i++) {
			size_t n = strlen(person_fields[i]);
			char *v;

			if (len <= n || strncasecmp(p, person_fields[i], n))
				continue;
			v = xstrfmt("%.*s", (int)(len - n), p + n);
			if (p[len] == '\n' && p[len + 1] == ' ' &&
			    !strchr(v, '<')) {	/* a folded header */
				char *w = xstrfmt("%s%.*s", v,
						  (int)strcspn(p + len + 1, "\n"),
						  p + len + 1);

				free(v);
				v = w;
			}
			why = ident_placeholder(v + strspn(v, " \t"));
			if (why) {
				strbuf_addf(err, "%s:%d: %.*s: %s\n", path,
					    lineno, (int)len, p, why);
				bad++;
			}
			free(v);
		}
		p += len;
		p = *p ? p + 1 : NULL;
	}
	strbuf_release(&sb);
	return bad;
}

int ident_refuse_patches(const struct strvec *patches, const char *name)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int bad = 0;

	for (i = 0; i < patches->nr; i++)
		bad += ident_check_patch(patches->v[i], &err);
	if (bad)
		fprintf(stderr, "%skverify: %s: placeholder identities never leave this machine: put the real author (From:) and their Signed-off-by: in these patches\n",
			err.buf, name);
	strbuf_release(&err);
	return bad;
}

int ident_has_from(const char *text)
{
	const char *p = text;

	while (*p && *p != '\n') {
		if (!strncasecmp(p, "From:", 5))
			return 1;
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return 0;
}

/* The address of the header From: of @text, or NULL. */
static char *from_email(const char *text)
{
	const char *p = text;

	while (*p && *p != '\n') {
		size_t len = strcspn(p, "\n");

		if (!strncasecmp(p, "From:", 5)) {
			const char *lt = memchr(p, '<', len);
			const char *gt = lt ? memchr(lt, '>', len - (lt - p)) :
					 NULL;

			/* a folded header: the address is on the next line */
			if (!lt && p[len] == '\n' && p[len + 1] == ' ')
				return from_email(p + len + 1);
			return gt ? xstrfmt("%.*s", (int)(gt - lt - 1), lt + 1) :
				    NULL;
		}
		p += len + (p[len] == '\n');
	}
	return NULL;
}

/* A line "@line" in the commit message of @text (before its "---")? */
static int has_message_line(const char *text, const char *line)
{
	const char *end = strstr(text, "\n---\n"), *p = text;
	size_t n = strlen(line);

	if (!end)
		end = text + strlen(text);
	while (p && p < end) {
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return 1;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

int ident_stamp(const char *in, const char *out, const struct ident *op,
		unsigned int flags, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT, res = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *sob = xstrfmt("Signed-off-by: %s", op->full);
	char *cdb = xstrfmt("Co-developed-by: %s", op->full);
	char *author = NULL;
	int ret = -1, codev;

	if (strbuf_read_file(&sb, in, 64 << 20) < 0) {
		strbuf_addf(err, "%s: cannot read it\n", in);
		goto out;
	}
	if (!strstr(sb.buf, "\n\n") || !strstr(sb.buf, "\n---\n")) {
		strbuf_addf(err, "%s: no headers, message and \"---\" before the diff: not a git format-patch file\n",
			    in);
		goto out;
	}
	author = from_email(sb.buf);
	if (!ident_has_from(sb.buf)) {
		/* after the mbox "From <commit> <date>" line, if any */
		size_t at = starts_with(sb.buf, "From ") ?
			    strcspn(sb.buf, "\n") + 1 : 0;

		strbuf_add(&res, sb.buf, at);
		strbuf_addf(&res, "From: %s\n", op->full);
		strbuf_addstr(&res, sb.buf + at);
		strbuf_release(&sb);
		sb = res;
		strbuf_init(&res);
	}
	if (write_file(out, sb.buf, sb.len)) {
		strbuf_addf(err, "%s: cannot write it\n", out);
		goto out;
	}
	ret = 0;
	if (!(flags & STAMP_SIGNOFF))
		goto out;
	/* Co-developed-by: credits an author the From: does not name. */
	codev = (flags & STAMP_CODEV) && author &&
		strcasecmp(author, op->email);
	strvec_pushl(&c.args, "git", "interpret-trailers", "--in-place",
		     "--where", "end", "--if-missing", "add", NULL);
	if (codev && !has_message_line(sb.buf, cdb))
		strvec_pushl(&c.args, "--if-exists", "add", "--trailer", cdb,
			     "--trailer", sob, NULL);
	else
		strvec_pushl(&c.args, "--if-exists", "addIfDifferent",
			     "--trailer", sob, NULL);
	strvec_push(&c.args, out);
	c.log = "/dev/null";
	if (run_child(&c)) {
		strbuf_addf(err, "%s: git interpret-trailers failed: ", out);
		child_describe_failure(&c, err);
		strbuf_addch(err, '\n');
		ret = -1;
		goto out;
	}
	if (strbuf_read_file(&res, out, 64 << 20) < 0 ||
	    !has_message_line(res.buf, sob) ||
	    (codev && !has_message_line(res.buf, cdb))) {
		strbuf_addf(err, "%s: git interpret-trailers left no \"%s\" in the message\n",
			    out, sob);
		ret = -1;
	}
out:
	child_clear(&c);
	strbuf_release(&sb);
	strbuf_release(&res);
	free(sob);
	free(cdb);
	free(author);
	return ret;
}

/* "Key: Name <@email>" with Key @key? */
static int names_email(const char *line, size_t len, const char *key,
		       const char *email)
{
	size_t k = strlen(key), m = strlen(email);

	return len > k + m + 2 && !strncasecmp(line, key, k) &&
	       line[len - 1] == '>' && line[len - m - 2] == '<' &&
	       !strncasecmp(line + len - m - 1, email, m);
}

void ident_unstamp(struct strbuf *sb, const char *email)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = sb->buf, *end = strstr(sb->buf, "\n---\n");
	int in_header = 1, dropping = 0;

	if (!end || !*email)
		return;
	while (*p) {
		size_t len = strcspn(p, "\n");
		int keep = 1;

		if (p > end) {
			strbuf_addstr(&out, p);	/* the diff, as it is */
			break;
		}
		if (in_header && !len)
			in_header = 0;
		if (in_header && dropping && (*p == ' ' || *p == '\t'))
			keep = 0;	/* the folded rest of a From: */
		else if (in_header && !strncasecmp(p, "From:", 5)) {
			char *a = from_email(p);

			dropping = a && !strcasecmp(a, email);
			keep = !dropping;
			free(a);
		} else if (!in_header &&
			   (names_email(p, len, "Signed-off-by:", email) ||
			    names_email(p, len, "Co-developed-by:", email))) {
			keep = 0;
		} else if (in_header) {
			dropping = 0;
		}
		if (keep)
			strbuf_add(&out, p, len + (p[len] == '\n'));
		p += len + (p[len] == '\n');
	}
	/* a trailer paragraph left empty: no blank line before "---" */
	for (;;) {
		char *hdr = strstr(out.buf, "\n\n");
		char *div = strstr(out.buf, "\n---\n");

		if (!hdr || !div || div <= hdr + 1 || div[-1] != '\n')
			break;
		memmove(div, div + 1, out.len - (div - out.buf));
		out.len--;
	}
	strbuf_release(sb);
	*sb = out;
}

int ident_co_developed(const char *list, const char *patch,
		       struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *base = strrchr(patch, '/');
	struct line l;
	int lineno = 0, found = 0;

	base = base ? base + 1 : patch;
	if (strbuf_read_file(&sb, list, 1 << 20) < 0) {
		strbuf_release(&sb);
		return 0;
	}
	for_each_line(l, sb.buf) {
		lineno++;
		if (!l.len || *l.s == '#')
			continue;
		if (memchr(l.s, '/', l.len) || l.len < 7 ||
		    strncmp(l.s + l.len - 6, ".patch", 6) ||
		    memchr(l.s, ' ', l.len) || memchr(l.s, '\t', l.len)) {
			strbuf_addf(err, "%s:%d: '%.*s' is not a patch file name: write one file name of series/ a line (# for a comment)\n",
				    list, lineno, (int)l.len, l.s);
			found = -1;
			break;
		}
		if (l.len == strlen(base) && !strncmp(l.s, base, l.len))
			found = 1;
	}
	strbuf_release(&sb);
	return found;
}
