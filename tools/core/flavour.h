/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_FLAVOUR_H
#define KVERIFY_FLAVOUR_H

/*
 * Debian's amd64 flavours that --flavours (FLAVOURS=) names: the one table
 * of them, and what differs from one to another.
 */
struct flavour {
	const char *name;	/* Debian's: "amd64", "rt-amd64" */
	/*
	 * The flavour of the pipeline's own rows (config, build, kabi, boot):
	 * its packages kept under <abi>, its modules built in the tree, its
	 * memo the step's own.  The others' rows are "<step>:<name>", their
	 * packages kept under <abi>-<name>, their modules built in a copy of
	 * the tree's module dirs, their memos "<step>@<name>".
	 */
	int pipeline;
	/*
	 * What its image package's name has that the pipeline flavour's has
	 * not ("-rt-"), or NULL: the pipeline flavour's search for
	 * linux-image-*-amd64 matches the others' too.
	 */
	const char *infix;
};

/* The flavour named @name, or NULL. */
const struct flavour *flavour_find(const char *name);
/* The pipeline's own: amd64. */
const struct flavour *flavour_pipeline(void);
/* Is @pkg, an image package @f's search found, @f's and no other's? */
int flavour_owns_package(const struct flavour *f, const char *pkg);

#endif
