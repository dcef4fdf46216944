/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_BACKPORT_FIXES_H
#define KVERIFY_BACKPORT_FIXES_H

#include <stddef.h>

struct strbuf;
struct hunk_rule;

/* A patch of series/ a shape gets adapted, and its backport note. */
struct fix_patch {
	const char *number;	/* NNNN of series/'s NNNN-<name>.patch */
	const char *note;	/* what differs, after "backport to X.Y.y: " */
};

/* The patches of fixes only a shape gets, and which hunk goes where. */
struct fix_set {
	const char *shape;
	const struct hunk_rule *rules;
	size_t nr_rules;
	const struct fix_patch *patches;
	size_t nr_patches;
};

extern const struct fix_set prev_counter_fixes;

/*
 * Split @diff, the semantic patch's, into @set's patches: @per_patch[k]
 * gets the hunks of patch k, numbered for the tree with patches 0..k-1
 * applied.  0, or -1 after an error (a hunk of no patch, a patch with no
 * hunk).
 */
int fixes_split(const struct fix_set *set, const char *diff,
		struct strbuf *per_patch);

#endif
