// SPDX-License-Identifier: GPL-2.0
/*
 * kernels.list: one target per line, "NAME SOURCE SERIES [CONFIG]".
 * Everything in it is data: it is validated here, never given to a shell,
 * and no value may start with '-' (it would read as an option).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sources/targets.h"

static const char *const kind_names[] = {
	[SRC_DEB] = "deb", [SRC_GIT] = "git", [SRC_TAR] = "tar",
	[SRC_DIR] = "dir",
};

const char *source_kind_name(enum source_kind kind)
{
	return kind_names[kind];
}

/* The names seen so far: an open-addressing set of indexes into the list. */
struct name_set {
	size_t *slot;		/* index + 1, 0 for an empty slot */
	size_t cap;		/* a power of two */
};

struct line_ctx {
	const char *file;
	int line;
	struct strbuf *err;
	struct name_set names;
};
static __printf(2, 3) int fail(struct line_ctx *lc, const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(lc->err, "%s:%d: ", lc->file, lc->line);
	va_start(ap, fmt);
	strbuf_vaddf(lc->err, fmt, ap);
	va_end(ap);
	strbuf_addch(lc->err, '\n');
	return -1;
}

/* Length of the UTF-8 sequence at @s, or 0 if it is not valid. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > left)
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && s[0] == 0xe0 && s[1] < 0xa0)
		return 0;
	if (n == 3 && s[0] == 0xed && s[1] >= 0xa0)
		return 0;
	if (n == 4 && s[0] == 0xf0 && s[1] < 0x90)
		return 0;
	if (n == 4 && s[0] == 0xf4 && s[1] >= 0x90)
		return 0;
	return n;
}

static int check_bytes(struct line_ctx *lc, const char *s, size_t len)
{
	size_t i, n;

	if (len > TARGET_LINE_MAX)
		return fail(lc, "line is %zu bytes long, at most %d are allowed",
			    len, TARGET_LINE_MAX);
	for (i = 0; i < len; i += n) {
		unsigned char c = s[i];

		if (c == '\0')
			return fail(lc, "NUL byte at column %zu: kernels.list is a text file",
				    i + 1);
		if (c == '\r')
			return fail(lc, "carriage return at column %zu (CRLF line ends?): save the file with LF line ends",
				    i + 1);
		n = utf8_len((const unsigned char *)s + i, len - i);
		if (!n)
			return fail(lc, "invalid UTF-8 at column %zu", i + 1);
		if (c < 0x20 && c != '\t')
			return fail(lc, "control character 0x%02x at column %zu",
				    c, i + 1);
	}
	return 0;
}

static int plain_char(char c, const char *extra)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr(extra, c));
}

/* Every character of @s a letter, a digit or one of @extra. */
int plain_chars(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!plain_char(*s, extra))
			return 0;
	return 1;
}

/*
 * A name that is one file name and one argument, whatever takes it:
 * letters, digits and ._-, not empty, not starting with '.' or '-'.
 */
int plain_name(const char *s)
{
	return *s && *s != '.' && *s != '-' && plain_chars(s, "._-");
}

/*
 * A path inside this repository: relative, no "..", plain characters.
 * NULL, or what is wrong with @p.
 */
const char *repo_path_problem(const char *p)
{
	const char *c;

	if (!*p || *p == '/' || *p == '-' || !plain_chars(p, "._/+-"))
		return "must be a relative path in this repository made of letters, digits and ._/+-";
	for (c = p; c; c = strchr(c, '/')) {
		c += *c == '/';
		if (starts_with(c, "..") && (c[2] == '/' || !c[2]))
			return "must not contain '..'";
	}
	return NULL;
}

static int check_repo_path(struct line_ctx *lc, const char *what,
			   const char *p)
{
	const char *why = repo_path_problem(p);

	return why ? fail(lc, "%s '%s' %s", what, p, why) : 0;
}

static int parse_deb(struct line_ctx *lc, struct target *t)
{
	char *v = t->value, *at, *eq;
	const char *x_y;

	at = strchr(v, '@');
	if (!at || !at[1])
		return fail(lc, "deb source '%s' names no suite: expected deb:linux-source-X.Y[=VERSION]@SUITE",
			    t->source);
	*at = '\0';
	eq = strchr(v, '=');
	if (eq)
		*eq = '\0';
	t->deb_package = xstrdup(v);
	t->deb_suite = xstrdup(at + 1);
	t->deb_version = eq ? xstrdup(eq + 1) : NULL;
	*at = '@';
	if (eq)
		*eq = '=';
	if (!skip_prefix(t->deb_package, "linux-source-", &x_y) || !*x_y ||
	    !plain_chars(t->deb_package, ".+-"))
		return fail(lc, "deb package '%s' is not a linux-source-X.Y package name",
			    t->deb_package);
	if (!plain_chars(t->deb_suite, "-") || t->deb_suite[0] == '-')
		return fail(lc, "deb suite '%s' is not a Debian suite name (letters, digits, '-')",
			    t->deb_suite);
	if (t->deb_version && (!*t->deb_version ||
			       !plain_chars(t->deb_version, ".+~:-") ||
			       t->deb_version[0] == '-'))
		return fail(lc, "deb version '%s' is not a Debian version",
			    t->deb_version);
	return 0;
}

/*
 * git: the transports git may use: a local path, file://, https://, git://
 * and ssh:// (also as [user@]host:path).  Anything else (ext:: runs a
 * command, fd:: reads one of our descriptors, other remote helpers) is
 * refused here; git_repo() tells git the same with GIT_ALLOW_PROTOCOL.
 */
static int check_git_url(struct line_ctx *lc, const char *url)
{
	static const char *const schemes[] = {
		"file://", "https://", "git://", "ssh://", "git+ssh://",
		"ssh+git://",
	};
	const char *colon = strchr(url, ':'), *slash = strchr(url, '/');
	const char *how = "file paths, file://, https://, git://, ssh:// or [user@]host:path";
	size_t i;

	if (strstr(url, "::"))
		return fail(lc, "git source '%s' names a git remote helper (TRANSPORT::ADDRESS), which may run programs or read descriptors: use %s",
			    url, how);
	if (!colon || (slash && slash < colon))
		return 0;	/* a local path */
	for (i = 0; i < ARRAY_SIZE(schemes); i++)
		if (starts_with(url, schemes[i]))
			return 0;
	if (strstr(url, "://"))
		return fail(lc, "git transport '%.*s' is not allowed: use %s",
			    (int)(strstr(url, "://") - url), url, how);
	/* scp-like ssh: [user@]host:path */
	for (i = 0; url + i < colon && plain_char(url[i], "._@_-"); i++)
		;
	if (url + i == colon && i)
		return 0;
	return fail(lc, "git source '%s' is neither a path nor a URL git may use: use %s",
		    url, how);
}

static int parse_source(struct line_ctx *lc, struct target *t)
{
	char *colon = strchr(t->source, ':');
	size_t i;

	if (!colon)
		return fail(lc, "SOURCE '%s' has no kind: expected deb:, git:, tar: or dir:",
			    t->source);
	for (i = 0; i < ARRAY_SIZE(kind_names); i++)
		if ((size_t)(colon - t->source) == strlen(kind_names[i]) &&
		    !strncmp(t->source, kind_names[i], colon - t->source))
			break;
	if (i == ARRAY_SIZE(kind_names))
		return fail(lc, "unknown source kind '%.*s:': expected deb:, git:, tar: or dir:",
			    (int)(colon - t->source), t->source);
	t->kind = i;
	t->value = xstrdup(colon + 1);
	if (!*t->value || t->value[0] == '-')
		return fail(lc, "%s source needs a value that does not start with '-'",
			    kind_names[i]);
	if (t->kind == SRC_DEB)
		return parse_deb(lc, t);
	if (t->kind == SRC_GIT) {
		char *hash = strchr(t->value, '#');

		if (hash) {
			*hash = '\0';
			t->git_ref = xstrdup(hash + 1);
			if (!*t->git_ref || t->git_ref[0] == '-' ||
			    !plain_chars(t->git_ref, "._/+-"))
				return fail(lc, "git ref '%s' is not a plain ref name",
					    t->git_ref);
		}
		return check_git_url(lc, t->value);
	}
	return 0;
}

/* Split @s at blanks; returns the number of fields, at most @max. */
static int split_fields(struct line_ctx *lc, char *s, char **f, int max,
			char **rest)
{
	int n = 0, tabs = 0, spaces = 0;

	*rest = NULL;
	while (*s) {
		while (*s == ' ' || *s == '\t') {
			tabs += *s == '\t';
			spaces += *s == ' ';
			s++;
		}
		if (!*s)
			break;
		if (n == max) {
			*rest = s;
			break;
		}
		if (n == 2 && starts_with(s, "n/a:")) {
			f[n++] = s;
			break;
		}
		f[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s) {
			tabs += *s == '\t';
			spaces += *s == ' ';
			*s++ = '\0';
		}
	}
	if (tabs && spaces)
		return fail(lc, "fields are separated by both tabs and spaces: use one kind of blank");
	return n;
}

static int parse_fields(struct line_ctx *lc, struct target *t, char **f,
			int n)
{
	static const char *const names[] = { "NAME", "SOURCE", "SERIES" };
	const char *r;

	if (n < 3)
		return fail(lc, "missing %s field: expected NAME SOURCE SERIES [CONFIG]",
			    names[n]);
	t->name = xstrdup(f[0]);
	if (!plain_name(t->name))
		return fail(lc, "target name '%s' may only hold letters, digits and ._- (and not start with . or -)",
			    t->name);
	t->source = xstrdup(f[1]);
	if (parse_source(lc, t))
		return -1;
	if (skip_prefix(f[2], "n/a:", &r)) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			return fail(lc, "n/a needs a reason: n/a: REASON");
		t->na_reason = xstrdup(r);
		return 0;
	}
	if (!strcmp(f[2], "auto")) {
		t->auto_series = 1;
	} else {
		t->series = xstrdup(f[2]);
		if (check_repo_path(lc, "SERIES", t->series))
			return -1;
	}
	if (n > 3) {
		t->config = xstrdup(f[3]);
		if (check_repo_path(lc, "CONFIG", t->config))
			return -1;
	}
	return 0;
}

static void target_free(struct target *t)
{
	free(t->name);
	free(t->source);
	free(t->value);
	free(t->deb_package);
	free(t->deb_version);
	free(t->deb_suite);
	free(t->git_ref);
	free(t->series);
	free(t->na_reason);
	free(t->config);
	memset(t, 0, sizeof(*t));
}

static size_t name_hash(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* The slot of @name: its entry, or the empty slot where it belongs. */
static size_t *name_find(struct name_set *ns, const struct target_list *l,
			 const char *name)
{
	size_t i = name_hash(name) & (ns->cap - 1);

	while (ns->slot[i] && strcmp(l->v[ns->slot[i] - 1].name, name))
		i = (i + 1) & (ns->cap - 1);
	return &ns->slot[i];
}

/* At most half full: rebuild twice as large. */
static void name_set_grow(struct name_set *ns, const struct target_list *l)
{
	size_t i;

	if (ns->cap && 2 * l->nr < ns->cap)
		return;
	free(ns->slot);
	ns->cap = ns->cap ? 2 * ns->cap : 64;
	ns->slot = xmalloc(ns->cap * sizeof(*ns->slot));
	memset(ns->slot, 0, ns->cap * sizeof(*ns->slot));
	for (i = 0; i < l->nr; i++)
		*name_find(ns, l, l->v[i].name) = i + 1;
}

static int parse_line(struct line_ctx *lc, struct target_list *out,
		      const char *s, size_t len)
{
	struct target t = { .line = lc->line };
	char *buf, *f[4], *rest;
	int n, ret = -1;
	size_t i, *dup;

	if (check_bytes(lc, s, len))
		return -1;
	buf = xmalloc(len + 1);
	memcpy(buf, s, len);
	buf[len] = '\0';
	for (i = 0; buf[i] == ' ' || buf[i] == '\t'; i++)
		;
	if (!buf[i] || buf[i] == '#') {
		ret = 0;
		goto out;
	}
	n = split_fields(lc, buf, f, 4, &rest);
	if (n < 0)
		goto out;
	if (rest) {
		fail(lc, "unexpected field '%s': expected NAME SOURCE SERIES [CONFIG]",
		     rest);
		goto out;
	}
	if (parse_fields(lc, &t, f, n))
		goto out;
	dup = name_find(&lc->names, out, t.name);
	if (*dup) {
		fail(lc, "duplicate target name '%s' (first defined at line %d)",
		     t.name, out->v[*dup - 1].line);
		goto out;
	}
	if (out->nr == out->alloc) {
		out->alloc = out->alloc ? out->alloc * 2 : 16;
		out->v = xrealloc(out->v, out->alloc * sizeof(*out->v));
	}
	out->v[out->nr++] = t;
	*dup = out->nr;
	memset(&t, 0, sizeof(t));
	name_set_grow(&lc->names, out);
	ret = 0;
out:
	target_free(&t);
	free(buf);
	return ret;
}

int targets_parse(const char *file, const char *text, size_t len,
		  struct target_list *out, struct strbuf *err)
{
	struct line_ctx lc = { .file = file, .line = 0, .err = err };
	size_t pos = 0;
	int ret = 0;

	out->file = xstrdup(file);
	name_set_grow(&lc.names, out);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		lc.line++;
		ret = parse_line(&lc, out, text + pos, end - pos);
		if (ret)
			break;
		pos = end + 1;
	}
	free(lc.names.slot);
	return ret;
}

int targets_load(const char *file, struct target_list *out,
		 struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&sb, file, 16 << 20) < 0) {
		strbuf_addf(err, "%s: cannot read: %s\n", file,
			    strerror(errno));
		strbuf_release(&sb);
		return -1;
	}
	ret = targets_parse(file, sb.buf, sb.len, out, err);
	strbuf_release(&sb);
	return ret;
}

/* @name exactly, or the one target it is a prefix of. */
const struct target *targets_find(const struct target_list *list,
				  const char *name, struct strbuf *err)
{
	const struct target *hit = NULL;
	size_t i, n = 0;

	for (i = 0; i < list->nr; i++)
		if (!strcmp(list->v[i].name, name))
			return &list->v[i];
	for (i = 0; i < list->nr; i++)
		if (*name && starts_with(list->v[i].name, name)) {
			hit = &list->v[i];
			n++;
		}
	if (n == 1)
		return hit;
	strbuf_addf(err, "%s: %s target '%s'; known targets:", list->file,
		    n ? "ambiguous" : "unknown", name);
	for (i = 0; i < list->nr; i++)
		strbuf_addf(err, " %s", list->v[i].name);
	strbuf_addch(err, '\n');
	return NULL;
}

void targets_clear(struct target_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		target_free(&list->v[i]);
	free(list->v);
	free(list->file);
	memset(list, 0, sizeof(*list));
}
