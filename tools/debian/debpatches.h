/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_DEBPATCHES_H
#define KVERIFY_DEBPATCHES_H

#include "sources/targets.h"

/*
 * Each target's series of @l (or of @names) as Debian's linux package
 * carries patches: @dest/<target>/bugfix/x86/, @dest/<target>/series and
 * @dest/<target>/changelog; or, when @dest is a checkout of the linux
 * package, one target's patches into its debian/ tree (series, dch).
 * @bug: BUG=, a Debian bug for Bug-Debian: and Closes:, or NULL.  @tmp:
 * the process's $TMPDIR in the cache.  @results: the results directory,
 * whose send/vN/sent/ holds the mails make send sent.  An exit_code.
 */
int cmd_debian_patches(const struct target_list *l, const char *dest,
		       const char *bug, const char *tmp, const char *results,
		       const char *const *names, int nr_names);

#endif
