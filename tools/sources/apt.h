/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_APT_H
#define KVERIFY_APT_H

#include "lib/run.h"
#include "lib/strbuf.h"
#include "options.h"

/* A private apt state for one Debian suite; the system's is untouched. */
struct apt_suite {
	char *suite;
	char *dir;		/* <cache>/apt/<suite> */
	char *mirror;		/* from this machine's own apt sources */
	long max_age;		/* seconds before the lists are fetched again */
	const char *cache;	/* where locks/apt-<suite>.lock is */
	int lockfd;		/* -1 unless apt_suite_lock() holds it */
};

int apt_mirror_for_suite(const struct options *opt, const char *suite,
			 char **mirror, struct strbuf *err);
int apt_suite_init(struct apt_suite *as, const struct options *opt,
		   const char *suite, struct strbuf *err);
void apt_suite_args(const struct apt_suite *as, struct child *c,
		    const char *tool);
/*
 * The versions of @pkg the suite's index lists, newest first as apt-cache
 * madison prints them, ", "-separated into @out; how many (0: none, or
 * apt-cache failed).
 */
int apt_versions(const struct apt_suite *as, const char *pkg,
		 struct strbuf *out);
void apt_madison_parse(const char *text, struct strbuf *out, int *n);
void apt_show_args(const struct apt_suite *as, struct child *c,
		   const char *pkg, const char *version);
char *deb822_field(const char *para, const char *end, const char *name);
int apt_lists_fresh(const struct apt_suite *as);
void apt_lists_touch(const struct apt_suite *as);
int apt_suite_lock(struct apt_suite *as, struct strbuf *err);
void apt_suite_unlock(struct apt_suite *as);
void apt_suite_clear(struct apt_suite *as);

#endif
