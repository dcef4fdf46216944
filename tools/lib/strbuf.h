/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_STRBUF_H
#define KVERIFY_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

/* As the kernel's compiler_attributes.h spells them. */
#define __printf(a, b) __attribute__(( \
	__format__(__printf__, a, b)))
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

/*
 * One growable, always NUL-terminated buffer (after git's strbuf).  Until
 * the first byte is added, buf is strbuf_slopbuf, an empty string that is
 * never written or freed: buf can always be read, and alloc == 0 says
 * nothing is allocated.
 */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { strbuf_slopbuf, 0, 0 }

void strbuf_init(struct strbuf *sb);

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
__printf(2, 3) void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_trim_trailing(struct strbuf *sb);
int strbuf_read_file(struct strbuf *sb, const char *path, size_t max);
int strbuf_read_regular(struct strbuf *sb, const char *path, size_t max);
char *strbuf_detach(struct strbuf *sb, size_t *len);

/* A NULL-terminated vector of strings, for argv and envp. */
struct strvec {
	char **v;
	size_t nr;
	size_t alloc;
};

#define STRVEC_INIT { NULL, 0, 0 }

void strvec_push(struct strvec *sv, const char *s);
__printf(2, 3) void strvec_pushf(struct strvec *sv, const char *fmt, ...);
void strvec_pushl(struct strvec *sv, ...);
void strvec_clear(struct strvec *sv);
int strvec_has(const struct strvec *sv, const char *s);

/* git's: does @s begin (end) with @prefix (@suffix)? */
static inline int starts_with(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return 0;
	return 1;
}

/* git's: if @s begins with @prefix, *@out is what follows it. */
static inline int skip_prefix(const char *s, const char *prefix,
			      const char **out)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return 0;
	*out = s;
	return 1;
}

static inline int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

/* One line of a string: @len bytes at @s, without the '\n'; @next follows. */
struct line {
	const char *s, *next;
	size_t len;
};

static inline int next_line(struct line *l)
{
	if (!*l->next)
		return 0;
	l->s = l->next;
	l->len = strcspn(l->s, "\n");
	l->next = l->s + l->len + !!l->s[l->len];
	return 1;
}

/* Each line of @text in turn, as the struct line @l. */
#define for_each_line(l, text) for ((l).next = (text); next_line(&(l));)

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
__printf(1, 2) char *xstrfmt(const char *fmt, ...);

#endif
