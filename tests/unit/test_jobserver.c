// SPDX-License-Identifier: GPL-2.0
/* make's jobserver, as a client: a pipe's descriptors or a fifo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/lib/jobserver.h"
#include "../../tools/lib/strbuf.h"

static void pipe_tokens(void **state)
{
	struct jobserver js;
	char *flags, c, got[4];
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "ab", 2), 2);
	flags = xstrfmt(" -j3 --jobserver-auth=%d,%d", p[0], p[1]);
	assert_int_equal(jobserver_open(&js, flags), 0);
	assert_int_equal(jobserver_take(&js, &c), 1);
	assert_int_equal(c, 'a');
	assert_int_equal(jobserver_take(&js, &c), 1);
	assert_int_equal(c, 'b');
	/* none left: it says so at once, it does not wait */
	assert_int_equal(jobserver_take(&js, &c), 0);
	/* make's own end is as make left it, blocking */
	assert_int_equal(fcntl(p[0], F_GETFL) & O_NONBLOCK, 0);
	jobserver_give(&js, 'b');
	jobserver_give(&js, 'a');
	jobserver_close(&js);
	assert_int_equal(read(p[0], got, sizeof(got)), 2);
	assert_memory_equal(got, "ba", 2);
	free(flags);
	close(p[0]);
	close(p[1]);
}

static void older_fds_and_the_last_one(void **state)
{
	struct jobserver js;
	char *flags, c;
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "t", 1), 1);
	flags = xstrfmt("-j2 --jobserver-fds=900,901 --jobserver-fds=%d,%d",
			p[0], p[1]);
	assert_int_equal(jobserver_open(&js, flags), 0);
	assert_int_equal(jobserver_take(&js, &c), 1);
	assert_int_equal(c, 't');
	jobserver_close(&js);
	free(flags);
	close(p[0]);
	close(p[1]);
}

static void fifo_tokens(void **state)
{
	char dir[] = "/tmp/kverify-jobserver-XXXXXX", *fifo, *flags, c;
	struct jobserver js;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	fifo = xstrfmt("%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	fd = open(fifo, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	flags = xstrfmt("-j2 --jobserver-auth=fifo:%s", fifo);
	assert_int_equal(jobserver_open(&js, flags), 0);
	assert_int_equal(jobserver_take(&js, &c), 1);
	assert_int_equal(c, 'x');
	assert_int_equal(jobserver_take(&js, &c), 0);
	jobserver_give(&js, 'x');
	jobserver_close(&js);
	assert_int_equal(read(fd, &c, 1), 1);
	assert_int_equal(c, 'x');
	close(fd);
	unlink(fifo);
	rmdir(dir);
	free(fifo);
	free(flags);
}

/*
 * None, or none we can use: make's flags without one, a recipe without
 * "+" (the descriptors not open), a file that is no pipe, nonsense.
 */
static void no_jobserver(void **state)
{
	static const char *const refused[] = {
		"", " -j2", " -j2 --jobserver-auth=800,801",
		" --jobserver-auth=", " --jobserver-auth=3", "--jobserver-auth=a,b",
		"--jobserver-auth=-1,4", "--jobserver-auth=fifo:/nonexistent/fifo",
	};
	struct jobserver js;
	char *flags, c;
	size_t i;
	int fd;

	(void)state;
	assert_int_equal(jobserver_open(&js, NULL), -1);
	assert_int_equal(jobserver_take(&js, &c), 0);
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		assert_int_equal(jobserver_open(&js, refused[i]), -1);
		assert_int_equal(js.rfd, -1);
		assert_int_equal(js.wfd, -1);
	}
	fd = open("/dev/null", O_RDWR);
	flags = xstrfmt("--jobserver-auth=%d,%d", fd, fd);
	assert_int_equal(jobserver_open(&js, flags), -1);
	free(flags);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pipe_tokens),
		cmocka_unit_test(older_fds_and_the_last_one),
		cmocka_unit_test(fifo_tokens),
		cmocka_unit_test(no_jobserver),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
