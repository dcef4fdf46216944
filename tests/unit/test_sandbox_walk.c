// SPDX-License-Identifier: GPL-2.0
/*
 * lib/sandbox.c's hand-over walk of a directory that a step beside it is
 * writing: the build's ccache renames its temporary files while the
 * selftests' sandbox hands the same store to the sandbox's user.
 */
#include <errno.h>
#include <ftw.h>
#include <string.h>
#include <unistd.h>

/* lchown(2) of a file that another process renames away just before */
static int vanishing_lchown(const char *path, uid_t uid, gid_t gid)
{
	if (strstr(path, "/vanishing"))
		unlink(path);
	return lchown(path, uid, gid);
}

#define lchown vanishing_lchown
#include "../../tools/lib/sandbox.c"
#undef lchown

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <cmocka.h>

static char *dir_with(const char *const *names)
{
	char tmpl[] = "/tmp/kverify-walk.XXXXXX";
	char *dir = xstrdup(mkdtemp(tmpl));
	size_t i;

	for (i = 0; names[i]; i++) {
		char *p = xstrfmt("%s/%s", dir, names[i]);

		assert_int_equal(write_file_atomic(p, "x", 1), 0);
		free(p);
	}
	return dir;
}

static void files_gone_midway_are_not_errors(void **state)
{
	static const char *const names[] = { "kept", "vanishing-1", NULL };
	char *dir = dir_with(names);
	char *kept = xstrfmt("%s/kept", dir);
	struct stat st;
	int ret;

	(void)state;
	ret = nftw(dir, chown_one, 32, FTW_PHYS);
	if (geteuid()) {
		/* not root: lchown of "kept" to another user is refused */
		assert_int_equal(ret, -1);
	} else {
		assert_int_equal(ret, 0);
		assert_int_equal(lstat(kept, &st), 0);
		assert_int_equal(st.st_uid, SANDBOX_UID);
	}
	unlink(kept);
	rmdir(dir);
	free(kept);
	free(dir);
}

static void unstattable_entry_is_skipped(void **state)
{
	(void)state;
	assert_int_equal(chown_one("/nonexistent/x", NULL, FTW_NS, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(files_gone_midway_are_not_errors),
		cmocka_unit_test(unstattable_entry_is_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
