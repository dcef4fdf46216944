// SPDX-License-Identifier: GPL-2.0
/*
 * lib/sandbox.c's hand-over walk of a directory that a step beside it is
 * writing: the build's ccache renames its temporary files while the
 * selftests' sandbox hands the same store to the sandbox's user, and the
 * tree's code in that build may swap a directory for a symlink as root
 * walks it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/lib/strbuf.h"

static const char *swap_to;	/* where "swapped" and a/ are made to lead */
static const char *swap_top;	/* the walk's top, for a/ */

/* fstatat(2) of "unstattable", renamed away just before */
static int racing_fstatat(int dirfd, const char *name, struct stat *st,
			  int flags)
{
	if (!strcmp(name, "unstattable"))
		unlinkat(dirfd, name, 0);
	return fstatat(dirfd, name, st, flags);
}

/*
 * fchownat(2), with what a process beside the walk does just before it:
 * "vanishing-*" renamed away, "swapped" (a directory the walk has read)
 * replaced by a symlink to swap_to; at "victim", the walk inside a/b/,
 * a/ moved away and a symlink to swap_to put in its place.
 */
static int racing_fchownat(int dirfd, const char *name, uid_t uid,
			   gid_t gid, int flags)
{
	if (!strncmp(name, "vanishing", 9))
		unlinkat(dirfd, name, 0);
	if (!strcmp(name, "swapped") && swap_to) {
		unlinkat(dirfd, "swapped/inside", 0);
		unlinkat(dirfd, name, AT_REMOVEDIR);
		symlinkat(swap_to, dirfd, name);
	}
	if (!strcmp(name, "victim") && swap_top) {
		char *a = xstrfmt("%s/a", swap_top);
		char *gone = xstrfmt("%s/a.gone", swap_top);

		rename(a, gone);
		symlink(swap_to, a);
		free(a);
		free(gone);
	}
	return fchownat(dirfd, name, uid, gid, flags);
}

#define fchownat racing_fchownat
#define fstatat racing_fstatat
#include "../../tools/lib/sandbox.c"
#undef fstatat
#undef fchownat

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static char *dir_with(const char *const *names)
{
	char tmpl[] = "/tmp/kverify-walk.XXXXXX";
	char *dir = xstrdup(mkdtemp(tmpl));
	size_t i;

	for (i = 0; names[i]; i++) {
		char *p = xstrfmt("%s/%s", dir, names[i]);

		if (strchr(names[i], '/')) {
			char *d = xstrdup(p);

			*strrchr(d, '/') = '\0';
			assert_int_equal(mkdir_p(d), 0);
			free(d);
		}
		assert_int_equal(write_file_atomic(p, "x", 1), 0);
		free(p);
	}
	return dir;
}

static uid_t owner(const char *dir, const char *name)
{
	char *p = xstrfmt("%s/%s", dir, name);
	struct stat st;

	assert_int_equal(lstat(p, &st), 0);
	free(p);
	return st.st_uid;
}

/*
 * A change of owner to another user needs root: otherwise @dir and
 * @outside (or NULL) are removed and the test is skipped.
 */
static void skip_unless_root(const char *dir, const char *outside)
{
	if (!geteuid())
		return;
	rm_rf(dir);
	if (outside)
		rm_rf(outside);
	skip();
}

static void files_gone_midway_are_not_errors(void **state)
{
	static const char *const names[] = {
		"kept", "vanishing-1", "unstattable", NULL,
	};
	char *dir = dir_with(names);
	int ret;

	(void)state;
	ret = chown_tree(dir);
	if (geteuid()) {
		/* not root: a change of owner to another user is refused */
		assert_int_equal(ret, -1);
	} else {
		assert_int_equal(ret, 0);
		assert_int_equal(owner(dir, "kept"), SANDBOX_UID);
		assert_int_equal(owner(dir, "."), SANDBOX_UID);
	}
	assert_int_equal(rm_rf(dir), 0);
	free(dir);
}

/*
 * The walk has read "swapped", a directory, when it becomes a symlink to
 * a directory outside: nothing there changes owner, and the walk goes on
 * with the rest.
 */
static void a_directory_swapped_for_a_symlink_is_not_entered(void **state)
{
	static const char *const names[] = {
		"swapped/inside", "z/deeper/kept", NULL,
	};
	static const char *const outside_names[] = { "secret", NULL };
	char *dir = dir_with(names), *outside = dir_with(outside_names);

	(void)state;
	skip_unless_root(dir, outside);
	swap_to = outside;
	assert_int_equal(chown_tree(dir), 0);
	swap_to = NULL;
	assert_int_equal(owner(outside, "secret"), 0);
	assert_int_equal(owner(outside, "."), 0);
	assert_int_equal(owner(dir, "z/deeper/kept"), SANDBOX_UID);
	assert_int_equal(rm_rf(dir), 0);
	assert_int_equal(rm_rf(outside), 0);
	free(dir);
	free(outside);
}

/*
 * Inside a/b/, a/ becomes a symlink to a directory outside with a b/victim
 * of its own: the walk, holding b/ open, changes its own victim, not that
 * one (a walk by paths, as nftw(3)'s, hands the outside one to nobody).
 */
static void a_parent_swapped_midway_leads_nowhere(void **state)
{
	static const char *const names[] = { "a/b/victim", NULL };
	static const char *const outside_names[] = { "b/victim", NULL };
	char *dir = dir_with(names), *outside = dir_with(outside_names);

	(void)state;
	skip_unless_root(dir, outside);
	swap_to = outside;
	swap_top = dir;
	assert_int_equal(chown_tree(dir), 0);
	swap_to = swap_top = NULL;
	assert_int_equal(owner(outside, "b/victim"), 0);
	assert_int_equal(owner(dir, "a.gone/b/victim"), SANDBOX_UID);
	assert_int_equal(rm_rf(dir), 0);
	assert_int_equal(rm_rf(outside), 0);
	free(dir);
	free(outside);
}

static void a_symlink_is_changed_never_followed(void **state)
{
	static const char *const outside_names[] = { "secret", NULL };
	char *outside = dir_with(outside_names);
	char tmpl[] = "/tmp/kverify-walk.XXXXXX";
	char *dir = xstrdup(mkdtemp(tmpl)), *link = xstrfmt("%s/l", dir);

	(void)state;
	skip_unless_root(dir, outside);
	assert_int_equal(symlink(outside, link), 0);
	assert_int_equal(chown_tree(dir), 0);
	assert_int_equal(owner(dir, "l"), SANDBOX_UID);
	assert_int_equal(owner(outside, "secret"), 0);
	assert_int_equal(rm_rf(dir), 0);
	assert_int_equal(rm_rf(outside), 0);
	free(link);
	free(dir);
	free(outside);
}

/*
 * A file with two links (a tree's file shares its inode with the pristine
 * source) is root's after the walk, whoever had it; a single-link file is
 * the sandbox's.
 */
static void a_file_with_two_links_is_never_the_sandboxs(void **state)
{
	static const char *const names[] = { "shared", "theirs", "one", NULL };
	char *dir = dir_with(names);
	char *shared = xstrfmt("%s/shared", dir), *theirs = xstrfmt("%s/theirs", dir);
	char *link1 = xstrfmt("%s/shared.link", dir);
	char *link2 = xstrfmt("%s/theirs.link", dir);

	(void)state;
	skip_unless_root(dir, NULL);
	assert_int_equal(link(shared, link1), 0);
	assert_int_equal(link(theirs, link2), 0);
	assert_int_equal(lchown(theirs, SANDBOX_UID, SANDBOX_UID), 0);
	assert_int_equal(chown_tree(dir), 0);
	assert_int_equal(owner(dir, "shared"), 0);
	assert_int_equal(owner(dir, "theirs"), 0);
	assert_int_equal(owner(dir, "one"), SANDBOX_UID);
	assert_int_equal(rm_rf(dir), 0);
	free(shared);
	free(theirs);
	free(link1);
	free(link2);
	free(dir);
}

/*
 * A directory handed over below a guarded one (arch/x86/kvm of a tree)
 * whose parent became a symlink to a directory outside with a kvm/ of its
 * own: refused, and nothing outside changes owner.
 */
static void a_symlink_above_the_top_is_refused_below_a_guard(void **state)
{
	static const char *const names[] = { "arch/x86/kvm/pmu.c", NULL };
	static const char *const outside_names[] = { "kvm/x", NULL };
	char *tree = dir_with(names), *outside = dir_with(outside_names);
	char *virt = xstrfmt("%s/virt", tree);
	char *top = xstrfmt("%s/virt/kvm", tree);
	uid_t me = geteuid();

	(void)state;
	assert_int_equal(symlink(outside, virt), 0);
	fs_guard(tree);
	assert_int_equal(chown_tree(top), -1);
	assert_true(errno == ELOOP || errno == ENOTDIR || errno == EXDEV);
	fs_unguard_all();
	assert_int_equal(owner(outside, "kvm"), me);
	assert_int_equal(owner(outside, "kvm/x"), me);
	assert_int_equal(rm_rf(tree), 0);
	assert_int_equal(rm_rf(outside), 0);
	free(virt);
	free(top);
	free(tree);
	free(outside);
}

static void a_top_that_is_a_symlink_is_refused(void **state)
{
	static const char *const outside_names[] = { "secret", NULL };
	char *outside = dir_with(outside_names);
	char *link = xstrfmt("%s.link", outside);

	(void)state;
	assert_int_equal(symlink(outside, link), 0);
	assert_int_equal(chown_tree(link), -1);
	/* O_DIRECTORY | O_NOFOLLOW on a symlink: ENOTDIR */
	assert_true(errno == ENOTDIR || errno == ELOOP);
	assert_int_equal(owner(outside, "secret"), geteuid());
	unlink(link);
	assert_int_equal(rm_rf(outside), 0);
	free(link);
	free(outside);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(files_gone_midway_are_not_errors),
		cmocka_unit_test(a_directory_swapped_for_a_symlink_is_not_entered),
		cmocka_unit_test(a_parent_swapped_midway_leads_nowhere),
		cmocka_unit_test(a_symlink_is_changed_never_followed),
		cmocka_unit_test(a_file_with_two_links_is_never_the_sandboxs),
		cmocka_unit_test(a_symlink_above_the_top_is_refused_below_a_guard),
		cmocka_unit_test(a_top_that_is_a_symlink_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
