/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SOURCE_INT_H
#define KVERIFY_SOURCE_INT_H

/*
 * What source.c and the kinds of source share: a kind's operations, one
 * const struct source_ops a kind in a file of its own (source_deb.c,
 * source_git.c, source_tar.c, source_dir.c), which source.c's fetch_tree(),
 * unpack_into_cache() and source_get() call through the table of the
 * kinds.  A kind's file calls nothing of source.c (tests/layering.py:
 * no two files call each other).
 */
#include "lib/options.h"
#include "lib/result.h"
#include "lib/strbuf.h"
#include "sources/source.h"

struct source_ops {
	/*
	 * fetch_tree(): find the source, or fetch what its tree is made
	 * from; set @key, its name in the cache (allocated), and what
	 * @unpack needs: @what (the deb version, the git repository) and
	 * @commit (git: the commit id), allocated or left NULL.  It may
	 * fill @out's fields of its kind (deb_version, git_commit...).  A
	 * kind used in place (@unpack NULL) sets @out->src and
	 * @out->src_key itself and leaves @key NULL.
	 */
	enum step_status (*fetch)(const struct source_req *req,
				  struct source *out, struct step_result *r,
				  char **key, char **what, char **commit);
	/*
	 * unpack_into_cache(), under the source's lock: unpack the tree
	 * into @tmp, where it must make one top-level directory, from
	 * what @fetch set.  Returns 0, or -1 with @r's reason.  NULL: the
	 * source is used in place, never unpacked.
	 */
	int (*unpack)(const struct source_req *req, struct step_result *r,
		      const char *what, const char *commit, const char *tmp);
	/*
	 * source_get(), after @fetch: the manifest check of the tree.
	 * NULL: a cached tree's, check_source() (a changed tree is
	 * fetched again).
	 */
	enum step_status (*check)(const struct source_req *req,
				  struct source *out, struct step_result *r);
	/* @unpack takes the whole tree, whatever opt->extract_only says */
	int whole;
};

extern const struct source_ops deb_source, git_source, tar_source,
	dir_source;

/**
 * extract_only_members() - The paths of make sweep's partial tree, for tar.
 * @req: The fetch; its opt->extract_only, or NULL for the whole tree.
 * @args: A tar command's arguments, appended to: nothing, or the members
 *	tar extracts, after "--".
 *
 * make sweep (tools/sweep.c): only the paths opt->extract_only names (a
 * file, or a directory and what is under it) of the source's one top-level
 * directory, under a key of their own (source.c's extract_only_key()), so
 * that a full verify never gets such a partial tree.
 */
static inline void extract_only_members(const struct source_req *req,
					struct strvec *args)
{
	const struct strvec *m = req->opt->extract_only;
	size_t i;

	if (!m)
		return;
	strvec_pushl(args, "--wildcards", "--no-wildcards-match-slash", "--",
		     NULL);
	for (i = 0; i < m->nr; i++)
		strvec_pushf(args, "*/%s", m->v[i]);
}

#endif
