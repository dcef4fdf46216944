/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_REGEN_H
#define KVERIFY_REGEN_H

#include "sources/targets.h"

struct options;

/*
 * make regenerate: every curated variant of @list rewritten from the
 * semantic patch where it covers the change (tools/b4/regen.c).  0; 1 when
 * a variant needs a hand; 2 on bad input; 3 when a tool failed.
 */
int cmd_regenerate(const struct target_list *list, const struct options *opt,
		   const char *results);

#endif
