// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's amd64 flavours: amd64, the pipeline's own rows, first; the
 * others --flavours (FLAVOURS=) may add.
 */
#include <stddef.h>
#include <string.h>

#include "core/flavour.h"
#include "lib/strbuf.h"

static const struct flavour flavours[] = {
	{ .name = "amd64", .pipeline = 1 },
	{ .name = "cloud-amd64", .infix = "-cloud-" },
	{ .name = "rt-amd64", .infix = "-rt-" },
};

const struct flavour *flavour_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flavours); i++)
		if (!strcmp(flavours[i].name, name))
			return &flavours[i];
	return NULL;
}

const struct flavour *flavour_pipeline(void)
{
	return &flavours[0];
}

int flavour_owns_package(const struct flavour *f, const char *pkg)
{
	size_t i;

	if (f->infix)
		return 1;
	for (i = 0; i < ARRAY_SIZE(flavours); i++)
		if (flavours[i].infix && strstr(pkg, flavours[i].infix))
			return 0;
	return 1;
}
