/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_TARGETS_H
#define KVERIFY_TARGETS_H

#include <stddef.h>

#include "lib/strbuf.h"

/* The longest line of kernels.list, in bytes. */
#define TARGET_LINE_MAX 4096

/* What a SOURCE field names: deb:, git:, tar: or dir:. */
enum source_kind { SRC_DEB, SRC_GIT, SRC_TAR, SRC_DIR };

/* One line of kernels.list. */
struct target {
	char *name;
	enum source_kind kind;
	char *source;		/* the whole SOURCE field, e.g. "deb:..." */
	char *value;		/* SOURCE after "kind:" */
	char *deb_package;	/* deb: linux-source-X.Y */
	char *deb_version;	/* deb: =VERSION, or NULL for the candidate */
	char *deb_suite;	/* deb: @SUITE */
	char *git_ref;		/* git: #REF, or NULL for HEAD */
	char *series;		/* series directory, NULL when n/a or auto */
	int auto_series;	/* "auto": the semantic patch picks it */
	char *na_reason;
	char *config;		/* config fragment, NULL for the default */
	int line;
};

/* kernels.list's targets, in its order. */
struct target_list {
	struct target *v;
	size_t nr;
	size_t alloc;
	char *file;
};

/**
 * targets_parse() - Read the text of a kernels.list.
 * @file: Its name, for the messages and @out->file.
 * @text: The text: a target a line, "NAME SOURCE SERIES [CONFIG]",
 *	blank lines and # comments.
 * @len: Its length.
 * @out: A zeroed list, filled in; free it with targets_clear(), also when
 *	this fails.
 * @err: Appended to: "file:line: what is wrong" and a newline, for the
 *	first line that is.
 *
 * Everything in it is data, checked here: plain names, a known source
 * kind and its fields, a git URL git may fetch without running a
 * program, paths inside this repository, nothing that starts with '-',
 * no target named twice; valid UTF-8 text with LF line ends, no control
 * character, no line over TARGET_LINE_MAX bytes.
 *
 * Return: 0, or -1 at the first wrong line (@out keeps the targets
 * before it).
 */
int targets_parse(const char *file, const char *text, size_t len,
		  struct target_list *out, struct strbuf *err);

/**
 * targets_load() - Read a kernels.list file.
 * @file: The file, read up to 16 MiB.
 * @out: As for targets_parse().
 * @err: As for targets_parse(); or "cannot read" and why.
 *
 * Return: 0, or -1 when @file cannot be read or targets_parse() fails.
 */
int targets_load(const char *file, struct target_list *out,
		 struct strbuf *err);

/**
 * targets_find() - A target of the list, by its name or a prefix of it.
 * @list: The targets.
 * @name: The name, or the start of one target's name alone.
 * @err: Appended to when none is found: the target is unknown or
 *	ambiguous, and the names of the list.
 *
 * Return: The target named @name, else the one target whose name starts
 * with @name; NULL when there is none or more than one.
 */
const struct target *targets_find(const struct target_list *list,
				  const char *name, struct strbuf *err);

/**
 * targets_clear() - Free a list of targets.
 * @list: Left zeroed.
 */
void targets_clear(struct target_list *list);

/**
 * source_kind_name() - The name of a source kind.
 * @kind: The kind.
 *
 * Return: "deb", "git", "tar" or "dir", as a SOURCE field starts.
 */
const char *source_kind_name(enum source_kind kind);

/**
 * plain_chars() - Is a string made of plain characters only?
 * @s: The string.
 * @extra: The characters allowed besides ASCII letters and digits.
 *
 * Return: 1 when every character of @s is a letter, a digit or one of
 * @extra (also for ""), else 0.
 */
int plain_chars(const char *s, const char *extra);

/**
 * plain_name() - Is a name one file name and one argument, whatever
 * takes it?
 * @s: The name.
 *
 * Return: 1 for a name of letters, digits and ._-, not empty and not
 * starting with '.' or '-'; else 0.
 */
int plain_name(const char *s);

/**
 * repo_path_problem() - What is wrong with a path inside this repository.
 * @p: The path (a SERIES or CONFIG field).
 *
 * It must be relative, made of letters, digits and ._/+-, not start with
 * '-', and have no ".." component.
 *
 * Return: NULL for a good path, else what is wrong, a static string.
 */
const char *repo_path_problem(const char *p);

#endif
