// SPDX-License-Identifier: GPL-2.0
/* make's jobserver, as a client (jobserver.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/jobserver.h"
#include "lib/strbuf.h"

static int is_fifo(int fd)
{
	struct stat st;

	return fd >= 0 && fcntl(fd, F_GETFD) >= 0 && !fstat(fd, &st) &&
	       S_ISFIFO(st.st_mode);
}

/*
 * The reading end is opened anew (/proc/self/fd/N: a description of our
 * own), so that O_NONBLOCK does not reach make and the other jobs, which
 * share the one make opened.
 */
static int open_fds(struct jobserver *js, const char *auth)
{
	char *end, *path;
	long r, w;

	errno = 0;
	r = strtol(auth, &end, 10);
	if (errno || end == auth || *end != ',' || r < 0 || r > 1 << 20)
		return -1;
	auth = end + 1;
	w = strtol(auth, &end, 10);
	if (errno || end == auth || (*end && *end != ' ') || w < 0 ||
	    w > 1 << 20 || !is_fifo(r) || !is_fifo(w))
		return -1;
	path = xstrfmt("/proc/self/fd/%ld", r);
	js->rfd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	free(path);
	js->wfd = fcntl(w, F_DUPFD_CLOEXEC, 3);
	return js->rfd >= 0 && js->wfd >= 0 ? 0 : -1;
}

static int open_fifo(struct jobserver *js, const char *auth)
{
	char *path = xstrfmt("%.*s", (int)strcspn(auth, " "), auth);

	js->rfd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	js->wfd = open(path, O_WRONLY | O_CLOEXEC);
	free(path);
	return js->rfd >= 0 && js->wfd >= 0 && is_fifo(js->rfd) ? 0 : -1;
}

int jobserver_open(struct jobserver *js, const char *makeflags)
{
	static const char *const keys[] = {
		"--jobserver-auth=", "--jobserver-fds=",
	};
	const char *auth = NULL, *p;
	size_t i;
	int ret;

	js->rfd = js->wfd = -1;
	/* make names it once; the last one, as make reads its own flags */
	for (i = 0; makeflags && i < ARRAY_SIZE(keys); i++)
		for (p = makeflags; (p = strstr(p, keys[i])); p++)
			if (!auth || p > auth)
				auth = p + strlen(keys[i]);
	if (!auth)
		return -1;
	ret = starts_with(auth, "fifo:") ? open_fifo(js, auth + 5) :
	      open_fds(js, auth);
	if (ret)
		jobserver_close(js);
	return ret;
}

int jobserver_take(struct jobserver *js, char *token)
{
	ssize_t n;

	if (js->rfd < 0)
		return 0;
	do
		n = read(js->rfd, token, 1);
	while (n < 0 && errno == EINTR);
	return n == 1;
}

void jobserver_give(struct jobserver *js, char token)
{
	ssize_t n;

	do
		n = write(js->wfd, &token, 1);
	while (n < 0 && errno == EINTR);
}

void jobserver_close(struct jobserver *js)
{
	if (js->rfd >= 0)
		close(js->rfd);
	if (js->wfd >= 0)
		close(js->wfd);
	js->rfd = js->wfd = -1;
}
