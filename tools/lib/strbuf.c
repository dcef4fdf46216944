// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/exitcode.h"
#include "lib/guard.h"
#include "lib/strbuf.h"

char strbuf_slopbuf[1];

char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

void strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_slopbuf;
	sb->len = 0;
	sb->alloc = 0;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;
	int fresh;

	if (!sb->buf) {
		/* zeroed, not initialised: a bug, wherever it is read */
		fputs("kverify: BUG: a strbuf used without STRBUF_INIT\n", stderr);
		abort();
	}
	if (want <= sb->alloc)
		return;
	fresh = !sb->alloc;
	if (fresh)
		sb->buf = NULL;	/* never realloc() the slopbuf */
	sb->alloc = sb->alloc ? sb->alloc : 64;
	while (sb->alloc < want)
		sb->alloc *= 2;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	strbuf_grow(sb, n);
	vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	sb->len += n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* Cut @sb to its first @len bytes (git's strbuf_setlen); never longer. */
void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > sb->len) {
		fprintf(stderr, "kverify: BUG: %s() beyond the string\n", __func__);
		abort();
	}
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

/* The string, the caller's to free (never the slopbuf); @sb is empty again. */
char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *s;

	strbuf_grow(sb, 0);
	s = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb);
	return s;
}

void strbuf_trim_trailing(struct strbuf *sb)
{
	while (sb->len && (sb->buf[sb->len - 1] == '\n' ||
			   sb->buf[sb->len - 1] == ' ' ||
			   sb->buf[sb->len - 1] == '\t' ||
			   sb->buf[sb->len - 1] == '\r'))
		sb->buf[--sb->len] = '\0';
}

/* Read at most @max bytes of @path; returns 0, or -1 with errno set. */
static int read_fd(struct strbuf *sb, int fd, size_t max)
{
	char chunk[8192];
	ssize_t n = 0;

	while (sb->len < max) {
		size_t want = sizeof(chunk);

		if (want > max - sb->len)
			want = max - sb->len;
		n = read(fd, chunk, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(sb, chunk, n);
	}
	close(fd);
	strbuf_grow(sb, 0);
	return n < 0 ? -1 : 0;
}

int strbuf_read_file(struct strbuf *sb, const char *path, size_t max)
{
	int fd = open_guarded(path, O_RDONLY, 0);

	return fd < 0 ? -1 : read_fd(sb, fd, max);
}

/* Only a regular file, never through a symlink, a FIFO or a device. */
int strbuf_read_regular(struct strbuf *sb, const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	return read_fd(sb, fd, max);
}

void strvec_push(struct strvec *sv, const char *s)
{
	if (sv->nr + 2 > sv->alloc) {
		sv->alloc = sv->alloc ? sv->alloc * 2 : 8;
		sv->v = xrealloc(sv->v, sv->alloc * sizeof(*sv->v));
	}
	sv->v[sv->nr++] = xstrdup(s);
	sv->v[sv->nr] = NULL;
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strvec_push(sv, sb.buf);
	strbuf_release(&sb);
}

void strvec_pushl(struct strvec *sv, ...)
{
	const char *s;
	va_list ap;

	va_start(ap, sv);
	while ((s = va_arg(ap, const char *)))
		strvec_push(sv, s);
	va_end(ap);
}

/* Does @sv hold the string @s? */
int strvec_has(const struct strvec *sv, const char *s)
{
	size_t i;

	for (i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

void strvec_clear(struct strvec *sv)
{
	size_t i;

	for (i = 0; i < sv->nr; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->nr = 0;
	sv->alloc = 0;
}
