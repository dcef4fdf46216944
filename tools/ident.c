// SPDX-License-Identifier: GPL-2.0
/*
 * Who signs what leaves this machine.  The sender is the operator's own git
 * identity (GIT_COMMITTER_NAME/EMAIL override it, as they do for git); a
 * placeholder (example.invalid, "Patch Author", no identity at all) never
 * goes into a mail, a backport or a bundle: make send, make backport and
 * make bundle refuse it and say how to set a real one.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fsutil.h"
#include "ident.h"
#include "run.h"

static char *git_config(const char *key)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "git", "config", "--get", key, NULL);
	c.out = &out;
	c.log = "/dev/null";
	if (run_child(&c) || !out.len) {
		child_clear(&c);
		strbuf_release(&out);
		return NULL;
	}
	child_clear(&c);
	strbuf_trim_trailing(&out);
	return strbuf_detach(&out, NULL);
}

static int ends_with_icase(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcasecmp(s + n - m, suffix);
}

/* Why the address @email is a placeholder, or NULL. */
static const char *bad_email(const char *email)
{
	static const char *const domains[] = {
		".invalid", "@invalid", "@example.com", ".example.com",
		"@example.org", ".example.org", "@example.net", ".example.net",
		"@localhost", ".localdomain", "(none)",
	};
	const char *at = strchr(email, '@');
	size_t i;

	if (!*email)
		return "no email address";
	if (!at || at == email || !at[1] || strchr(at + 1, '@'))
		return "not an email address";
	for (i = 0; i < ARRAY_SIZE(domains); i++)
		if (ends_with_icase(email, domains[i]))
			return "a placeholder domain (nobody receives mail there)";
	if (!strncasecmp(email, "patch.author@", 13))
		return "the placeholder address patch.author@";
	return NULL;
}

static const char *bad_name(const char *name)
{
	if (!*name)
		return "no name";
	if (!strcasecmp(name, "Patch Author") || strstr(name, "EDITME"))
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

int ident_sender(struct ident *id, struct strbuf *err)
{
	const char *en = getenv("GIT_COMMITTER_NAME");
	const char *ee = getenv("GIT_COMMITTER_EMAIL");
	const char *why;

	id->name = en && *en ? xstrdup(en) : git_config("user.name");
	id->email = ee && *ee ? xstrdup(ee) : git_config("user.email");
	if (!id->name)
		id->name = xstrdup("");
	if (!id->email)
		id->email = xstrdup("");
	id->full = xstrfmt("%s <%s>", id->name, id->email);
	why = bad_name(id->name);
	if (!why)
		why = bad_email(id->email);
	if (!why && (strpbrk(id->full, "\n\r") || strchr(id->name, '<') ||
		     strchr(id->name, '>') || strpbrk(id->email, "<> ")))
		why = "a name or address with <, > or a line break";
	if (!why)
		return 0;
	strbuf_addf(err, "your git identity \"%s\" is %s: it would sign what leaves this machine.\n"
		    "  Set your own, as it should appear in the Signed-off-by: lines:\n"
		    "    git config --global user.name \"Your Name\"\n"
		    "    git config --global user.email you@your.domain\n",
		    id->full, why);
	return -1;
}

void ident_clear(struct ident *id)
{
	free(id->name);
	free(id->email);
	free(id->full);
	id->name = id->email = id->full = NULL;
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
