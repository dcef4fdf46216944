/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_EXTRACT_H
#define KVERIFY_EXTRACT_H

#include "lib/strbuf.h"

/*
 * What a top-level item defines: a function, a struct, union or enum, a
 * variable, a #define.
 */
enum item_kind { ITEM_FUNC, ITEM_TYPE, ITEM_VAR, ITEM_MACRO };

/* One top-level definition of a C file, pointing into the file's text. */
struct extract_item {
	enum item_kind kind;
	char *name;		/* "foo", or "struct foo" */
	const char *text;
	size_t len;
	size_t head_len;	/* a function: up to its body's '{' */
};

/* A C file's text and its top-level items, in the file's order. */
struct extract_file {
	char *path;
	struct strbuf text;
	struct extract_item *items;
	size_t nr, alloc;
};

/**
 * extract_parse() - Cut a C file into its top-level items.
 * @f: Filled in; free it with extract_clear(), also when this fails.
 * @path: The file, read up to 16 MiB.
 * @err: Appended to when it cannot be read.
 *
 * By text, not by a compiler: braces and parentheses are matched,
 * comments, strings and preprocessor lines skipped.  The items are
 * function definitions (not prototypes), struct, union and enum
 * definitions, variables and #define macros.
 *
 * Return: 0, or -1 when @path cannot be read.
 */
int extract_parse(struct extract_file *f, const char *path,
		  struct strbuf *err);

/**
 * extract_find() - An item of a file, by name.
 * @f: The file.
 * @name: The name: "foo", or "struct foo" for a type.
 *
 * Return: The first item of that name, or NULL.
 */
const struct extract_item *extract_find(const struct extract_file *f,
					const char *name);

/**
 * extract_idents() - Call a function on each identifier of C text.
 * @text: The text.
 * @len: Its length.
 * @fn: Called with each identifier (@id, @n bytes, not NUL-terminated)
 *	outside comments and string or character literals, in order.
 * @data: Passed to @fn.
 */
void extract_idents(const char *text, size_t len,
		    void (*fn)(const char *id, size_t n, void *data),
		    void *data);

/**
 * extract_clear() - Free a file's text and items.
 * @f: Left empty.
 */
void extract_clear(struct extract_file *f);

#endif
