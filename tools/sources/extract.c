// SPDX-License-Identifier: GPL-2.0
/*
 * extract: named top-level definitions out of a C file, by text.  A file is
 * cut into top-level items (brace and parenthesis matching, comments,
 * strings and preprocessor lines skipped): function definitions, struct,
 * union and enum definitions, variables, and #define macros.  The sim step
 * asks for items by name and writes them into a generated file, so that the
 * code it compiles is always the tree's own.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sources/extract.h"

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Past a comment, string or character literal at @p, or @p itself. */
static const char *skip_lexeme(const char *p, const char *end)
{
	if (p + 1 < end && p[0] == '/' && p[1] == '*') {
		const char *e = strstr(p + 2, "*/");

		return e && e < end ? e + 2 : end;
	}
	if (p + 1 < end && p[0] == '/' && p[1] == '/') {
		const char *e = memchr(p, '\n', end - p);

		return e ? e : end;
	}
	if (*p == '"' || *p == '\'') {
		char q = *p++;

		while (p < end && *p != q) {
			if (*p == '\\' && p + 1 < end)
				p++;
			p++;
		}
		return p < end ? p + 1 : end;
	}
	return p;
}

/* The end of the preprocessor line starting at @p (continuations joined). */
static const char *directive_end(const char *p, const char *end)
{
	while (p < end && *p != '\n') {
		if (*p == '\\' && p + 1 < end && p[1] == '\n')
			p++;
		else if (p + 1 < end && p[0] == '/' && p[1] == '*')
			p = skip_lexeme(p, end) - 1;
		p++;
	}
	return p;
}

static int at_line_start(const char *buf, const char *p)
{
	while (p > buf && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	return p == buf || p[-1] == '\n';
}

static char *ident_at(const char *p, const char *end, const char **after)
{
	const char *s = p;

	while (p < end && is_ident(*p))
		p++;
	if (after)
		*after = p;
	return p > s ? strndup(s, p - s) : NULL;
}

static void add_item(struct extract_file *f, enum item_kind kind,
		     const char *start, const char *end, char *name,
		     const char *body)
{
	struct extract_item *it;

	if (!name)
		return;
	if (f->nr == f->alloc) {
		f->alloc = f->alloc ? 2 * f->alloc : 64;
		f->items = xrealloc(f->items, f->alloc * sizeof(*f->items));
	}
	it = &f->items[f->nr++];
	it->kind = kind;
	it->name = name;
	it->text = start;
	it->len = end - start;
	it->head_len = body ? (size_t)(body - start) : it->len;
}

/* The name a top-level item defines; @body is its first '{' at depth 0. */
static char *item_name(const char *s, const char *e, const char *body,
		       enum item_kind *kind)
{
	const char *p = s, *last = NULL, *after;
	int depth = 0;

	*kind = ITEM_VAR;
	for (; p < e; p++) {
		const char *q = skip_lexeme(p, e);

		if (q != p) {
			p = q - 1;
			continue;
		}
		if (*p == '(' || *p == '[') {
			const char *b = p;

			while (b > s && isspace((unsigned char)b[-1]))
				b--;
			while (b > s && is_ident(b[-1]))
				b--;
			if (!depth && *p == '(' && b < p && is_ident(*b)) {
				if (!body)	/* a prototype or macro call */
					return NULL;
				*kind = ITEM_FUNC;
				return ident_at(b, e, NULL);
			}
			if (!depth && *p == '[' && last)
				return ident_at(last, e, NULL);
			depth++;
		} else if (*p == ')' || *p == ']') {
			depth--;
		} else if (!depth && (*p == '=' || *p == ';')) {
			break;
		} else if (!depth && *p == '{') {
			/* struct/union/enum NAME { */
			const char *t = s, *rest;
			char *tag, *nm;

			while (t < p && isspace((unsigned char)*t))
				t++;
			if (skip_prefix(t, "typedef", &rest) && !is_ident(*rest))
				return NULL;
			tag = ident_at(t, p, &after);
			if (!tag)
				return NULL;
			if (strcmp(tag, "struct") && strcmp(tag, "union") &&
			    strcmp(tag, "enum")) {
				free(tag);
				/* "static struct x name[] = {": keep going */
				break;
			}
			while (after < p && isspace((unsigned char)*after))
				after++;
			nm = ident_at(after, p, NULL);
			if (!nm) {
				free(tag);
				return NULL;
			}
			*kind = ITEM_TYPE;
			after = xstrfmt("%s %s", tag, nm);
			free(tag);
			free(nm);
			return (char *)after;
		} else if (!depth && is_ident(*p) &&
			   (p == s || !is_ident(p[-1]))) {
			if (!starts_with(p, "__"))
				last = p;
		}
	}
	return last ? ident_at(last, e, NULL) : NULL;
}

int extract_parse(struct extract_file *f, const char *path, struct strbuf *err)
{
	const char *buf, *p, *end;

	memset(f, 0, sizeof(*f));
	strbuf_init(&f->text);
	f->path = xstrdup(path);
	if (strbuf_read_file(&f->text, path, 16 << 20) < 0) {
		strbuf_addf(err, "cannot read %s", path);
		return -1;
	}
	buf = f->text.buf;
	end = buf + f->text.len;
	p = buf;
	while (p < end) {
		const char *q = skip_lexeme(p, end), *start, *body = NULL;
		enum item_kind kind;
		int depth = 0;

		if (q != p) {
			p = q;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (*p == '#' && at_line_start(buf, p)) {
			const char *e = directive_end(p, end), *d = p + 1;

			while (d < e && (*d == ' ' || *d == '\t'))
				d++;
			if (skip_prefix(d, "define", &d) && isspace((unsigned char)*d)) {
				d++;
				while (d < e && (*d == ' ' || *d == '\t'))
					d++;
				add_item(f, ITEM_MACRO, p, e, ident_at(d, e, NULL),
					 NULL);
			}
			p = e;
			continue;
		}
		/* One item: up to ';' at depth 0, or a function's closing '}'. */
		start = p;
		for (; p < end; p++) {
			q = skip_lexeme(p, end);
			if (q != p) {
				p = q - 1;
				continue;
			}
			if (*p == '#' && at_line_start(buf, p)) {
				p = directive_end(p, end);
				continue;
			}
			if (*p == '(' || *p == '[' || *p == '{') {
				if (*p == '{' && !depth && !body)
					body = p;
				depth++;
			} else if (*p == ')' || *p == ']' || *p == '}') {
				depth--;
				if (*p == '}' && !depth && body) {
					const char *b = body;

					while (b > start && isspace((unsigned char)b[-1]))
						b--;
					if (b > start && b[-1] == ')') {
						p++;
						break;
					}
				}
			} else if (*p == ';' && !depth) {
				p++;
				break;
			}
		}
		{
			char *name = item_name(start, p, body, &kind);

			if (kind != ITEM_FUNC)
				body = NULL;
			add_item(f, kind, start, p, name, body);
		}
	}
	return 0;
}

const struct extract_item *extract_find(const struct extract_file *f,
					const char *name)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (!strcmp(f->items[i].name, name))
			return &f->items[i];
	return NULL;
}

/* @fn on every identifier of @text outside comments and literals. */
void extract_idents(const char *text, size_t len,
		    void (*fn)(const char *id, size_t n, void *data),
		    void *data)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *q = skip_lexeme(p, end), *s;

		if (q != p) {
			p = q;
			continue;
		}
		if (!is_ident(*p) || isdigit((unsigned char)*p)) {
			p++;
			continue;
		}
		for (s = p; p < end && is_ident(*p); p++)
			;
		fn(s, p - s, data);
	}
}

void extract_clear(struct extract_file *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		free(f->items[i].name);
	free(f->items);
	free(f->path);
	strbuf_release(&f->text);
	memset(f, 0, sizeof(*f));
	strbuf_init(&f->text);
}
