/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_MODINFO_H
#define KVERIFY_MODINFO_H

/* A kernel module's .modinfo: "key=value" strings, NUL-separated. */
#include "lib/strbuf.h"

/*
 * The .modinfo section of @path, an ELF64 file, appended to @info; -1
 * when it cannot be read, is no ELF64 file, is cut short or has none.
 */
int read_modinfo(const char *path, struct strbuf *info);
/* The value of "key=" in @info, or NULL. */
const char *modinfo_get(const struct strbuf *info, const char *key);

#endif
