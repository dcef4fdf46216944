/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SERIES_H
#define KVERIFY_SERIES_H

#include "lib/strbuf.h"

/* The patches verified on a target, or why none applies. */
struct series {
	char *dir;		/* absolute series directory, or NULL: n/a */
	char *rel;		/* as kernels.list names it, or as probed */
	char *na_reason;	/* why the series does not apply, or NULL */
	struct strvec patches;	/* absolute patch paths, series order */
	/*
	 * What names the series where it was posted (b4's tracking data):
	 * the revision and change-id of its directory, else of the
	 * repository's series/ (a backport is of that revision); the cover's
	 * Message-Id, without <>, only where this directory was posted
	 * (make send SEND=1 writes message-id).  0 and NULL: none.
	 */
	int revision;
	char *change_id;
	char *message_id;
};

int series_load(struct series *s, const char *repo, const char *rel,
		const char *where, struct strbuf *err);
void series_clear(struct series *s);
void series_files(const struct series *s, struct strvec *files, int new_only);
void series_names(const struct series *s, struct strvec *names);
int series_patch_has_fixes(const char *patch);
int series_fixes_only(const struct series *s);
char *series_patchset_hash(const struct series *s);
const char *patch_name(const char *path);
int series_check_names(const char *patch, struct strbuf *err);
int series_check_tree(const struct series *s, const char *root,
		      struct strbuf *err);

#endif
