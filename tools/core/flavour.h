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

/**
 * flavour_find() - A flavour of the table, by its name.
 * @name: Debian's name of it: "amd64", "cloud-amd64" or "rt-amd64".
 *
 * Return: The flavour, or NULL for a name the table does not have.
 */
const struct flavour *flavour_find(const char *name);

/**
 * flavour_pipeline() - The flavour of the pipeline's own rows.
 *
 * Return: amd64, the first of the table.
 */
const struct flavour *flavour_pipeline(void);

/**
 * flavour_owns_package() - Is an image package a flavour's and no other's?
 * @f: The flavour whose search for image packages found @pkg.
 * @pkg: The package's name.
 *
 * A flavour with an infix owns whatever its search found.  The pipeline
 * flavour's search (linux-image-*-amd64) finds the others' packages too:
 * those with another flavour's infix in their name are not its own.
 *
 * Return: 1 if @pkg is @f's, else 0.
 */
int flavour_owns_package(const struct flavour *f, const char *pkg);

#endif
