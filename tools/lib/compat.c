// SPDX-License-Identifier: GPL-2.0
/* Allocation that never fails (compat.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compat.h"
#include "lib/exitcode.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fputs("kverify: out of memory\n", stderr);
		exit(EXIT_TOOL);
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("kverify: out of memory\n", stderr);
		exit(EXIT_TOOL);
	}
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}
