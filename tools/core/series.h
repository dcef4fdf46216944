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

/**
 * series_load() - Read a series directory.
 * @s: A zeroed series, filled in; free it with series_clear(), also when
 *	this fails.
 * @repo: The repository.
 * @rel: The series directory, relative to @repo, as kernels.list names
 *	it.
 * @where: What names the series (the kernels.list line), for the
 *	messages.
 * @err: Appended to when it fails: the file and line, and what to do.
 *
 * The series file's patches go to @s->patches in order, each checked by
 * series_check_names(); the directory's kabi.ignore, if any, must read
 * (symvers_ignore_read()); its revision and change-id files (those of
 * @repo/series when it has no revision file) and its message-id file
 * give @s->revision, @s->change_id and @s->message_id.
 *
 * Return: 0; -1 when the series file or a patch is missing or leads
 * outside the repository (a symlink), or kabi.ignore is wrong; -2 when a
 * line of the series file is more than a patch name, a patch fails
 * series_check_names(), or a revision, change-id or message-id file
 * holds no such thing or cannot be read.
 */
int series_load(struct series *s, const char *repo, const char *rel,
		const char *where, struct strbuf *err);

/**
 * series_clear() - Free what a series holds.
 * @s: The series; left zeroed.
 */
void series_clear(struct series *s);

/**
 * series_files() - The files a series changes, from its "+++ b/" lines.
 * @s: The series; a patch that cannot be read adds nothing.
 * @files: Appended to: each file once, tree-relative, in the order the
 *	patches name them.
 * @new_only: Nonzero for only the files the series adds ("new file mode"
 *	or "--- /dev/null").
 */
void series_files(const struct series *s, struct strvec *files, int new_only);

/**
 * series_names() - Every file a series' patches name.
 * @s: The series; a patch that cannot be read adds nothing.
 * @names: Appended to: each name once, tree-relative (a/ and b/ taken
 *	off), /dev/null left out.
 *
 * What series_files() reads, and also the names of the "--- " lines, of
 * "diff --git" and of a git rename or copy: a file renamed, copied or
 * created empty has no "+++ " line.
 */
void series_names(const struct series *s, struct strvec *names);

/**
 * series_patch_has_fixes() - Does a patch's message carry a Fixes: tag?
 * @patch: The patch; its message ends at its "---" line, or without one at
 *	its first "diff --git".
 *
 * Return: 1 if a line of the message starts with "Fixes:", else 0 (also
 * when @patch cannot be read).
 */
int series_patch_has_fixes(const char *patch);

/**
 * series_fixes_only() - Is a series fixes only?
 * @s: The series, or NULL.
 *
 * The parameter's patch and the selftest carry no Fixes: tag: a series
 * whose every patch carries one adds no parameter.
 *
 * Return: 1 when @s has patches and each has a Fixes: tag
 * (series_patch_has_fixes()); 0 when not, and for NULL, a series that
 * does not apply or one without patches.
 */
int series_fixes_only(const struct series *s);

/**
 * series_patchset_hash() - KCIDB's patchset_hash of a series.
 * @s: The series.
 *
 * The sha256 over the newline-terminated sha256s of each patch, in order
 * ("sha256sum *.patch | cut -c-64 | sha256sum"), run through sh.
 *
 * Return: The hash in hex, to be freed; "" for a series without patches;
 * NULL when sha256sum failed.
 */
char *series_patchset_hash(const struct series *s);

/**
 * patch_name() - A patch's file name.
 * @path: The patch's path.
 *
 * Return: What follows the last '/' of @path, or @path without one.
 */
const char *patch_name(const char *path);

/**
 * series_check_names() - Check a patch before anything touches a file.
 * @patch: The patch, read up to 16 MiB.
 * @err: Appended to: "file:line: what", and what to do.
 *
 * Every name the patch gives patch(1) must stay inside the tree: not
 * empty, relative, unquoted, no '..' component, no control character or
 * backslash (/dev/null is fine).  And the patch must be made of nothing
 * but unified hunks of regular files: no mode but 100644 or 100755, no
 * binary patch, no context diff, no ed script.
 *
 * Return: 0, or -1 when @patch fails, cannot be read or is larger than
 * 16 MiB.
 */
int series_check_names(const char *patch, struct strbuf *err);

/**
 * series_check_tree() - Check the files a series names in a tree.
 * @s: The series, whose names series_check_names() passed.
 * @root: The tree.
 * @err: Appended to: the name and what is wrong, without a newline.
 *
 * No name of series_names() may reach through a symlink in @root, or
 * name something there other than a regular file.  A name that is not
 * there yet (a new file or directory) is fine.
 *
 * Return: 0, or -1 at the first name that fails.
 */
int series_check_tree(const struct series *s, const char *root,
		      struct strbuf *err);

/**
 * series_merged_load() - Read series/merged: the patches merged upstream.
 * @path: The file, "NNNN-name.patch SHA" a line (series/'s file name and
 *	the upstream commit, 12 to 40 lowercase hex digits), # comments.
 * @out: Where each line's name and SHA are added, in pairs.
 *
 * Return: 0 (also when there is no such file: nothing merged yet), or -1
 * after naming each wrong line as @path:N.
 */
int series_merged_load(const char *path, struct strvec *out);

/**
 * series_merged_sha() - The upstream commit a merged patch became.
 * @merged: The pairs series_merged_load() gave.
 * @name: The patch's file name.
 *
 * Return: The SHA series/merged gives @name, or NULL when it names none.
 */
const char *series_merged_sha(const struct strvec *merged, const char *name);

/**
 * series_origin() - The DEP-3 Origin: and Forwarded: lines of a variant.
 * @out: Appended to: the two lines, for the revision of series/ (of the
 *	working directory): its posting on lore when series/message-id
 *	records one, else its revision and change-id and "not posted yet".
 *
 * Return: 0, or -1 after an error() when series/revision or
 * series/change-id is missing or wrong, or series/message-id is no
 * message-id.
 */
int series_origin(struct strbuf *out);

#endif
