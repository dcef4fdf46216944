/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SERIES_H
#define KVERIFY_SERIES_H

#include "lib/strbuf.h"

/* Where a posting's Message-Id leads: lore.kernel.org, then the id. */
#define LORE "https://lore.kernel.org/r/"

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

/**
 * series_merged_load() - series/merged: the patches merged upstream
 * @path: the file, "NNNN-name.patch SHA" a line (series/'s file name and
 *	the upstream commit, 12 to 40 lowercase hex digits), # comments
 * @out: where each line's name and SHA are added, in pairs
 *
 * Return: 0 (also when there is no such file: nothing merged yet), or -1
 * after naming each wrong line as @path:N.
 */
int series_merged_load(const char *path, struct strvec *out);

/* The upstream commit series_merged_load() gave @name (a file name), or NULL. */
const char *series_merged_sha(const struct strvec *merged, const char *name);

/*
 * The DEP-3 Origin: and Forwarded: lines of a variant of series/'s
 * revision: its posting (series/message-id) or "not posted yet"; 0, or -1
 * after an error when series/ says no revision.
 */
int series_origin(struct strbuf *out);

#endif
