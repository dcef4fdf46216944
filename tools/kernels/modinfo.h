/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_MODINFO_H
#define KVERIFY_MODINFO_H

/* A kernel module's .modinfo: "key=value" strings, NUL-separated. */
#include "lib/strbuf.h"

/**
 * read_modinfo() - Read a kernel module's .modinfo section.
 * @path: The module, an ELF64 file, read up to 512 MiB; every offset and
 *	size in it is checked against its length.
 * @info: Appended to: the section.
 *
 * Return: 0, or -1 when @path cannot be read, is no ELF64 file, is cut
 * short or has no .modinfo section.
 */
int read_modinfo(const char *path, struct strbuf *info);

/**
 * modinfo_get() - A value of a module's .modinfo.
 * @info: The section, as read_modinfo() gave it.
 * @key: The key: "vermagic", "depends".
 *
 * Return: The value of the first "@key=value" string, pointing into
 * @info; NULL when there is none.
 */
const char *modinfo_get(const struct strbuf *info, const char *key);

#endif
