/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_EXTRACT_H
#define KVERIFY_EXTRACT_H

#include "lib/strbuf.h"

enum item_kind { ITEM_FUNC, ITEM_TYPE, ITEM_VAR, ITEM_MACRO };

/* One top-level definition of a C file, pointing into the file's text. */
struct extract_item {
	enum item_kind kind;
	char *name;		/* "foo", or "struct foo" */
	const char *text;
	size_t len;
	size_t head_len;	/* a function: up to its body's '{' */
};

struct extract_file {
	char *path;
	struct strbuf text;
	struct extract_item *items;
	size_t nr, alloc;
};

int extract_parse(struct extract_file *f, const char *path,
		  struct strbuf *err);
const struct extract_item *extract_find(const struct extract_file *f,
					const char *name);
void extract_idents(const char *text, size_t len,
		    void (*fn)(const char *id, size_t n, void *data),
		    void *data);
void extract_clear(struct extract_file *f);

#endif
