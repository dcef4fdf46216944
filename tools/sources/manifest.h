/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_MANIFEST_H
#define KVERIFY_MANIFEST_H

#include "lib/strbuf.h"

/* What manifest_check() found. */
enum manifest_state {
	MANIFEST_ERROR = -1,	/* could not check: @err says why */
	MANIFEST_OK = 0,
	MANIFEST_CHANGED = 1,	/* @bad names what changed */
	MANIFEST_NONE = 2,	/* no manifest (a cache older than them) */
};

int manifest_record(const char *root, const char *file, struct strbuf *err);
enum manifest_state manifest_check(const char *root, const char *file,
				   int full, struct strbuf *bad,
				   struct strbuf *err);

#endif
