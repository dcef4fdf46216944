/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_ARCHIVE_H
#define KVERIFY_ARCHIVE_H

#include "lib/options.h"
#include "lib/strbuf.h"

/*
 * A linux-source-X.Y version a suite offers: @suite, the package @pkg,
 * its @version, and the test hook's SOURCE (NULL from the archive).
 */
typedef void archive_add_fn(void *data, const char *suite, const char *pkg,
			    const char *version, const char *source);

/* What archive_list() asks, and where it says what it found. */
struct archive_query {
	const struct options *opt;	/* the mirror and the apt state */
	const char *suite;		/* only this suite, or NULL: every one */
	const char *log_dir;		/* apt-SUITE.log, apt's output */
	const char *list_file;		/* the test hook's list, or NULL */
	archive_add_fn *add;		/* called with @data a version */
	void *data;
	struct strvec *suites;		/* the suites asked, in order */
	struct strvec *missing;		/* "SUITE: why" of those not listed */
};

/**
 * archive_list() - the linux-source-X.Y versions the Debian suites offer
 * @q: the query; q->add is called for each version of each suite
 *
 * Each suite is listed through its private apt state (apt-get update when
 * its lists are stale, apt-cache pkgnames, then madison), or, when
 * q->list_file is set, the test hook's file stands for the archive (lines
 * "SUITE PACKAGE=VERSION SOURCE" or "SUITE -" for a suite the mirror
 * lacks).  A suite that cannot be listed goes to q->missing, not fatal.
 *
 * Return: 0, or 2 when the test hook's file is bad (said with file:line).
 */
int archive_list(const struct archive_query *q);

/**
 * archive_valid_package() - whether a name is a linux-source-X.Y package
 * @s: the name
 *
 * Return: 1 for "linux-source-" and a version of digits and dots, else 0.
 */
int archive_valid_package(const char *s);

#endif
