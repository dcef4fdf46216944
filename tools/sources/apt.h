/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_APT_H
#define KVERIFY_APT_H

#include "lib/options.h"
#include "lib/run.h"
#include "lib/strbuf.h"

/* A private apt state for one Debian suite; the system's is untouched. */
struct apt_suite {
	char *suite;
	char *dir;		/* <cache>/apt/<suite> */
	char *mirror;		/* from this machine's own apt sources */
	long max_age;		/* seconds before the lists are fetched again */
	const char *cache;	/* where locks/apt-<suite>.lock is */
	int lockfd;		/* -1 unless apt_suite_lock() holds it */
};

/**
 * apt_mirror_for_suite() - The Debian mirror that serves a suite.
 * @opt: The options: KVERIFY_DEBIAN_MIRROR or, for a -security suite,
 *	KVERIFY_SECURITY_MIRROR, when set, is the mirror.
 * @suite: The suite ("bookworm", "bookworm-security").
 * @mirror: Set to the mirror's URI, to be freed; NULL when there is none.
 * @err: Appended to when there is none: where it looked, what to set.
 *
 * Without the variable, the first entry of this machine's own apt sources
 * (/etc/apt/sources.list, then /etc/apt/sources.list.d/'s .list and
 * deb822 .sources files) for the same kind of suite: a -security one, or
 * another whose URI ends in /debian.
 *
 * Return: 0, or -1 when there is no mirror.
 */
int apt_mirror_for_suite(const struct options *opt, const char *suite,
			 char **mirror, struct strbuf *err);

/**
 * apt_suite_init() - Set up the private apt state of a suite.
 * @as: Filled in; free it with apt_suite_clear(), also when this fails.
 * @opt: The options: the store of fetched things, the mirrors.
 * @suite: The suite.
 * @err: Appended to when it fails.
 *
 * The state is <store>/apt/<suite>: its directories are made and its
 * sources.list written, "deb MIRROR SUITE main" (apt_mirror_for_suite()).
 * @as->max_age, after which its lists are fetched again, is a day.
 *
 * Return: 0, or -1 when there is no mirror or the state cannot be made.
 */
int apt_suite_init(struct apt_suite *as, const struct options *opt,
		   const char *suite, struct strbuf *err);

/**
 * apt_suite_args() - Start an apt command on a suite's private state.
 * @as: The suite.
 * @c: Appended to its args: @tool, -q, and the -o options that point
 *	apt's lists, sources, preferences and cache at the state's
 *	directory (apt's sandbox user is root's).
 * @tool: apt-get or apt-cache.
 */
void apt_suite_args(const struct apt_suite *as, struct child *c,
		    const char *tool);

/**
 * apt_versions() - The versions of a package a suite's index lists.
 * @as: The suite.
 * @pkg: The package.
 * @out: Appended to: the versions, newest first as apt-cache madison
 *	prints them, ", "-separated.
 *
 * Return: How many; 0 for none, or when apt-cache failed.
 */
int apt_versions(const struct apt_suite *as, const char *pkg,
		 struct strbuf *out);

/**
 * apt_madison_parse() - The versions apt-cache madison printed.
 * @text: Its lines, " PKG | VERSION | URI SUITE/COMPONENT TYPE".
 * @out: Appended to, ", "-separated: each version once (a version in
 *	both Packages and Sources is listed twice) that @out lacks.
 * @n: Incremented for each version added.
 */
void apt_madison_parse(const char *text, struct strbuf *out, int *n);

/**
 * apt_show_args() - An apt-cache show command of one package's record.
 * @as: The suite.
 * @c: Appended to its args: the apt-cache command of apt_suite_args(),
 *	then "show --no-all-versions" and the package.
 * @pkg: The package.
 * @version: Its version, or NULL for the candidate.
 */
void apt_show_args(const struct apt_suite *as, struct child *c,
		   const char *pkg, const char *version);

/**
 * deb822_field() - A field's value in a deb822 paragraph.
 * @para: The paragraph's start.
 * @end: Its end, or NULL for the end of the string.
 * @name: The field's name; as Debian policy 5.1 has it, case does not
 *	count.
 *
 * Return: The value on the field's line, blanks before it left out, to be
 * freed; NULL when the paragraph has no such field.
 */
char *deb822_field(const char *para, const char *end, const char *name);

/**
 * apt_lists_fresh() - Are a suite's lists recent enough to use?
 * @as: The suite.
 *
 * Return: 1 when apt_lists_touch() marked them less than @as->max_age
 * seconds ago, else 0.
 */
int apt_lists_fresh(const struct apt_suite *as);

/**
 * apt_lists_touch() - Mark a suite's lists as fetched now.
 * @as: The suite; its stamp file "updated" is written (with the mirror).
 *	An error is not reported: the lists are then fetched again.
 */
void apt_lists_touch(const struct apt_suite *as);

/**
 * apt_suite_lock() - Take a suite's apt state, waiting for its holder.
 * @as: The suite; @as->lockfd is set to the lock's descriptor.
 * @err: Appended to when it fails.
 *
 * Targets of one suite share its apt state: one apt runs on it at a time.
 * The lock is locks/apt-<suite>.lock of the store (lock_in_cache()).
 *
 * Return: 0 with the lock held, or -1.
 */
int apt_suite_lock(struct apt_suite *as, struct strbuf *err);

/**
 * apt_suite_unlock() - Let go of a suite's apt state.
 * @as: The suite; also one that is all zeroes, never initialised.
 */
void apt_suite_unlock(struct apt_suite *as);

/**
 * apt_suite_clear() - Let go of a suite's state and free what it holds.
 * @as: The suite; unlocked, and left zeroed.
 */
void apt_suite_clear(struct apt_suite *as);

#endif
