/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SERIES_H
#define KVERIFY_SERIES_H

#include "step.h"

int series_load(struct series *s, const char *repo, const char *rel,
		const char *where, struct strbuf *err);
void series_clear(struct series *s);
void series_files(const struct series *s, struct strvec *files, int new_only);
const char *patch_name(const char *path);
int series_check_names(const char *patch, struct strbuf *err);
int series_check_tree(const struct series *s, const char *root,
		      struct strbuf *err);

/* The tree made of the source and the series (the tree and apply steps). */
char *tree_stamp(const struct verify_ctx *ctx);
char *tree_stamp_path(const struct verify_ctx *ctx);
int tree_is_current(const struct verify_ctx *ctx);

#endif
