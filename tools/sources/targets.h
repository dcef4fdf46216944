/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_TARGETS_H
#define KVERIFY_TARGETS_H

#include <stddef.h>

#include "lib/strbuf.h"

#define TARGET_LINE_MAX 4096

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

struct target_list {
	struct target *v;
	size_t nr;
	size_t alloc;
	char *file;
};

int targets_parse(const char *file, const char *text, size_t len,
		  struct target_list *out, struct strbuf *err);
int targets_load(const char *file, struct target_list *out,
		 struct strbuf *err);
const struct target *targets_find(const struct target_list *list,
				  const char *name, struct strbuf *err);
void targets_clear(struct target_list *list);
const char *source_kind_name(enum source_kind kind);
int plain_chars(const char *s, const char *extra);
int plain_name(const char *s);
const char *repo_path_problem(const char *p);

#endif
