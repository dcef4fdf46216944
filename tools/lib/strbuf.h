/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_STRBUF_H
#define KVERIFY_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "lib/compat.h"

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

/**
 * strbuf_init() - Make a buffer empty, as STRBUF_INIT does.
 * @sb: The buffer; what it held is not freed (strbuf_release() does).
 */
void strbuf_init(struct strbuf *sb);

/**
 * strbuf_grow() - Make room for more bytes.
 * @sb: The buffer, set up with STRBUF_INIT or strbuf_init(); a zeroed
 *	one aborts, as a bug.
 * @extra: How many bytes may be added after the current ones, besides
 *	the terminating NUL.
 *
 * The first growth allocates (the slopbuf is never reallocated); out of
 * memory the program exits with EXIT_TOOL.
 */
void strbuf_grow(struct strbuf *sb, size_t extra);

/**
 * strbuf_add() - Append bytes.
 * @sb: The buffer.
 * @data: The bytes, which may hold NULs.
 * @len: How many.
 */
void strbuf_add(struct strbuf *sb, const void *data, size_t len);

/**
 * strbuf_addstr() - Append a string.
 * @sb: The buffer.
 * @s: The string, NUL-terminated.
 */
void strbuf_addstr(struct strbuf *sb, const char *s);

/**
 * strbuf_addch() - Append one byte.
 * @sb: The buffer.
 * @c: The byte.
 */
void strbuf_addch(struct strbuf *sb, char c);

/**
 * strbuf_addf() - Append printf-formatted text.
 * @sb: The buffer.
 * @fmt: The format, as for printf().
 * @...: Its arguments.
 */
__printf(2, 3) void strbuf_addf(struct strbuf *sb, const char *fmt, ...);

/**
 * strbuf_vaddf() - Append printf-formatted text from a va_list.
 * @sb: The buffer.
 * @fmt: The format, as for vprintf().
 * @ap: Its arguments; used up.
 *
 * A format vsnprintf() refuses appends nothing.
 */
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);

/**
 * strbuf_setlen() - Cut a buffer to its first bytes (git's strbuf_setlen).
 * @sb: The buffer.
 * @len: The new length, at most the current one: a longer one aborts, as
 *	a bug.
 */
void strbuf_setlen(struct strbuf *sb, size_t len);

/**
 * strbuf_reset() - Empty a buffer, keeping its allocation.
 * @sb: The buffer.
 */
void strbuf_reset(struct strbuf *sb);

/**
 * strbuf_release() - Free a buffer's bytes and make it empty again.
 * @sb: The buffer; usable again at once.
 */
void strbuf_release(struct strbuf *sb);

/**
 * strbuf_trim_trailing() - Drop trailing newlines, spaces, tabs and CRs.
 * @sb: The buffer.
 */
void strbuf_trim_trailing(struct strbuf *sb);

/**
 * strbuf_read_file() - Append a file's contents.
 * @sb: The buffer.
 * @path: The file, opened with open_guarded(): below a guarded directory
 *	no component may be a symlink.
 * @max: Read no more than this many bytes in all (counting what @sb
 *	already holds).
 *
 * Return: 0, or -1 with errno set (what was read before an error stays
 * in @sb).
 */
int strbuf_read_file(struct strbuf *sb, const char *path, size_t max);

/**
 * strbuf_read_regular() - Append a regular file's contents.
 * @sb: The buffer.
 * @path: The file; never read through a symlink, nor a FIFO or a device.
 * @max: Read no more than this many bytes in all (counting what @sb
 *	already holds).
 *
 * Return: 0, or -1 with errno set, also when @path is not a regular file.
 */
int strbuf_read_regular(struct strbuf *sb, const char *path, size_t max);

/**
 * strbuf_detach() - Take a buffer's string.
 * @sb: The buffer; empty again afterwards.
 * @len: Where to store the string's length, or NULL.
 *
 * Return: The string, allocated (never the slopbuf): the caller's to free().
 */
char *strbuf_detach(struct strbuf *sb, size_t *len);

/* A NULL-terminated vector of strings, for argv and envp. */
struct strvec {
	char **v;
	size_t nr;
	size_t alloc;
};

#define STRVEC_INIT { NULL, 0, 0 }

/**
 * strvec_push() - Append a copy of a string.
 * @sv: The vector; v[nr] stays NULL.
 * @s: The string, copied.
 */
void strvec_push(struct strvec *sv, const char *s);

/**
 * strvec_pushf() - Append a printf-formatted string.
 * @sv: The vector.
 * @fmt: The format, as for printf().
 * @...: Its arguments.
 */
__printf(2, 3) void strvec_pushf(struct strvec *sv, const char *fmt, ...);

/**
 * strvec_pushl() - Append copies of several strings.
 * @sv: The vector.
 * @...: The strings, ended by NULL.
 */
void strvec_pushl(struct strvec *sv, ...);

/**
 * strvec_clear() - Free every string and the vector, and make it empty.
 * @sv: The vector; usable again at once.
 */
void strvec_clear(struct strvec *sv);

/**
 * strvec_has() - Does a vector hold a string?
 * @sv: The vector.
 * @s: The string, compared whole.
 *
 * Return: 1 if one of @sv's strings equals @s, else 0.
 */
int strvec_has(const struct strvec *sv, const char *s);

/**
 * starts_with() - Does a string begin with a prefix? (git's)
 * @s: The string.
 * @prefix: The prefix.
 *
 * Return: 1 if @s begins with @prefix, else 0.
 */
static inline int starts_with(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return 0;
	return 1;
}

/**
 * skip_prefix() - Step over a prefix (git's).
 * @s: The string.
 * @prefix: The prefix.
 * @out: Set to what follows @prefix in @s, when @s begins with it; left
 *	alone otherwise.
 *
 * Return: 1 if @s begins with @prefix, else 0.
 */
static inline int skip_prefix(const char *s, const char *prefix,
			      const char **out)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return 0;
	*out = s;
	return 1;
}

/**
 * ends_with() - Does a string end with a suffix? (git's)
 * @s: The string.
 * @suffix: The suffix.
 *
 * Return: 1 if @s ends with @suffix, else 0.
 */
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

/**
 * next_line() - Step to the next line of a string.
 * @l: The line; its @next, set to the text before the first call, says
 *	where the next line starts.
 *
 * Return: 1 with @l set to that line, or 0 at the end of the text.
 */
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

/**
 * xstrfmt() - A printf-formatted string, allocated.
 * @fmt: The format, as for printf().
 * @...: Its arguments.
 *
 * Return: The string, the caller's to free().
 */
__printf(1, 2) char *xstrfmt(const char *fmt, ...);

#endif
