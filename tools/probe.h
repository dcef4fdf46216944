/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_PROBE_H
#define KVERIFY_PROBE_H

/* VERSION and PATCHLEVEL of @tree's Makefile as X * 1000 + Y, or -1. */
long tree_version(const char *tree);

#endif
