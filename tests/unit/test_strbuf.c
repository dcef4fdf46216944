// SPDX-License-Identifier: GPL-2.0
/* strbuf: the slopbuf (buf is always a string), strbuf_detach(), lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/lib/strbuf.h"

static int write_file_plain(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static void empty_is_a_string(void **state)
{
	struct strbuf sb = STRBUF_INIT, other;

	(void)state;
	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.alloc, 0);
	strbuf_reset(&sb);
	strbuf_trim_trailing(&sb);
	assert_ptr_equal(sb.buf, strbuf_slopbuf);
	strbuf_release(&sb);
	assert_ptr_equal(sb.buf, strbuf_slopbuf);
	strbuf_init(&other);
	assert_ptr_equal(other.buf, strbuf_slopbuf);
	assert_string_equal(strbuf_slopbuf, "");
}

static void grows_away_from_the_slopbuf(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_addstr(&sb, "");
	assert_string_equal(sb.buf, "");
	strbuf_addf(&sb, "%s=%d", "T", 3);
	assert_ptr_not_equal(sb.buf, strbuf_slopbuf);
	assert_string_equal(sb.buf, "T=3");
	assert_true(sb.alloc > sb.len);
	strbuf_reset(&sb);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
	assert_ptr_equal(sb.buf, strbuf_slopbuf);
	assert_int_equal(sb.len, 0);
	assert_string_equal(strbuf_slopbuf, "");
}

static void setlen(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_setlen(&sb, 0);
	assert_ptr_equal(sb.buf, strbuf_slopbuf);
	strbuf_addstr(&sb, "0123456789abcdef");
	strbuf_setlen(&sb, 12);
	assert_int_equal(sb.len, 12);
	assert_string_equal(sb.buf, "0123456789ab");
	strbuf_addch(&sb, '!');
	assert_string_equal(sb.buf, "0123456789ab!");
	strbuf_release(&sb);
}

static void detach(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = 99;
	char *s;

	(void)state;
	/* an empty buffer gives an allocated "", never the slopbuf */
	s = strbuf_detach(&sb, &len);
	assert_ptr_not_equal(s, strbuf_slopbuf);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	free(s);

	strbuf_addstr(&sb, "kvm");
	s = strbuf_detach(&sb, &len);
	assert_string_equal(s, "kvm");
	assert_int_equal(len, 3);
	assert_ptr_equal(sb.buf, strbuf_slopbuf);
	assert_int_equal(sb.len, 0);
	assert_int_equal(sb.alloc, 0);
	free(s);

	s = xstrfmt("%s", "");
	assert_string_equal(s, "");
	free(s);
}

static void read_file(void **state)
{
	const char *dir = getenv("TMPDIR");
	char *path = xstrfmt("%s/test_strbuf.XXXXXX", dir ? dir : "/tmp");
	struct strbuf sb = STRBUF_INIT;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(strbuf_read_file(&sb, path, 100), 0);
	unlink(path);
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
	assert_int_equal(strbuf_read_file(&sb, path, 100), -1);
	assert_ptr_equal(sb.buf, strbuf_slopbuf);
	free(path);
}

static const char *lines_of(const char *text)
{
	static struct strbuf sb = STRBUF_INIT;
	struct line l;

	strbuf_reset(&sb);
	for_each_line(l, text)
		strbuf_addf(&sb, "[%.*s]%zu", (int)l.len, l.s, l.len);
	return sb.buf;
}

/*
 * strbuf_read_regular(): a regular file is read; a symlink (even to a
 * regular file), a FIFO (without blocking) and a directory are not.
 */
static void read_regular(void **state)
{
	char dir[] = "/tmp/kverify-strbuf-XXXXXX";
	struct strbuf sb = STRBUF_INIT;
	char *file, *link, *fifo;

	(void)state;
	assert_non_null(mkdtemp(dir));
	file = xstrfmt("%s/file", dir);
	link = xstrfmt("%s/link", dir);
	fifo = xstrfmt("%s/fifo", dir);
	assert_int_equal(write_file_plain(file, "secret\n"), 0);
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(strbuf_read_regular(&sb, file, 64), 0);
	assert_string_equal(sb.buf, "secret\n");
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_regular(&sb, link, 64), -1);
	assert_int_equal(strbuf_read_regular(&sb, fifo, 64), -1);
	assert_int_equal(strbuf_read_regular(&sb, dir, 64), -1);
	assert_int_equal(sb.len, 0);
	/* strbuf_read_file() follows the link, as it always did */
	assert_int_equal(strbuf_read_file(&sb, link, 64), 0);
	assert_string_equal(sb.buf, "secret\n");
	unlink(file);
	unlink(link);
	unlink(fifo);
	rmdir(dir);
	free(file);
	free(link);
	free(fifo);
	strbuf_release(&sb);
}

static void lines(void **state)
{
	(void)state;
	assert_string_equal(lines_of(""), "");
	assert_string_equal(lines_of("\n"), "[]0");
	assert_string_equal(lines_of("a"), "[a]1");
	assert_string_equal(lines_of("a\n"), "[a]1");
	assert_string_equal(lines_of("a\n\nbc"), "[a]1[]0[bc]2");
	assert_string_equal(lines_of("a\r\n b\n\n"), "[a\r]2[ b]2[]0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_is_a_string),
		cmocka_unit_test(grows_away_from_the_slopbuf),
		cmocka_unit_test(setlen),
		cmocka_unit_test(detach),
		cmocka_unit_test(read_file),
		cmocka_unit_test(read_regular),
		cmocka_unit_test(lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
