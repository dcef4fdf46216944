/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_DEBPATCHES_H
#define KVERIFY_DEBPATCHES_H

#include "sources/targets.h"

/**
 * cmd_debian_patches() - kverify debian-patches: the series as Debian's
 * linux package carries patches.
 * @l: kernels.list's targets.
 * @dest: DEST=: a directory, where each target's patches go to
 *	<target>/bugfix/x86/, with <target>/series and <target>/changelog;
 *	or a checkout of the linux package, whose debian/ tree gets one
 *	target's patches (debian/patches/series, an entry by dch).
 * @bug: BUG=, a Debian bug for Bug-Debian: and Closes:, or NULL.
 * @tmp: The process's $TMPDIR in the cache.
 * @results: The results directory, whose send/vN/sent/ holds the mails
 *	make send sent.
 * @names: The targets asked for (KERNEL=); none: every target with a
 *	series.
 * @nr_names: How many.
 *
 * Each patch is named by its subject (debian_patch_name()), stamped with
 * the operator's identity and given DEP-3 fields: the posted revision's
 * Origin: and Forwarded:, series/merged's upstream commits.
 *
 * Return: An exit_code: 0; EXIT_USAGE for what the user must fix (no
 * @dest, the identity, series/, a target, a patch); EXIT_TOOL when a tool
 * or a file failed.  What went wrong is said on stderr.
 */
int cmd_debian_patches(const struct target_list *l, const char *dest,
		       const char *bug, const char *tmp, const char *results,
		       const char *const *names, int nr_names);

#endif
