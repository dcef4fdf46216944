/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_TOOLCHAIN_H
#define KVERIFY_TOOLCHAIN_H

#include "lib/strbuf.h"
#include "options.h"

char *toolchain_release(const char *suite);
int toolchain_usable(struct strbuf *why);
int toolchain_get(const struct options *opt, const char *suite,
		  const char *pkg, const char *log, char **root,
		  struct strbuf *why);

#endif
