// SPDX-License-Identifier: GPL-2.0
/*
 * Path checks: path_under() (a path in a directory, by whole names) and
 * tree_confined() (a tree from outside, before anything reads it: no
 * symlink leads out of it, nothing but files, directories and symlinks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/lib/fsutil.h"
#include "../../tools/lib/tree.h"

static void under(void **state)
{
	(void)state;
	assert_true(path_under("/a/b", "/a"));
	assert_true(path_under("/a", "/a"));
	assert_true(path_under("/a/b/c", "/a/b"));
	assert_false(path_under("/ab", "/a"));
	assert_false(path_under("/a", "/a/b"));
	assert_false(path_under("/b/a", "/a"));
	assert_true(path_under("/tmp/x", "/tmp"));
	assert_false(path_under("/tmpfoo/x", "/tmp"));
}

struct tree {
	char *dir;
	struct strbuf err;
};

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char tmpl[] = "/tmp/kverify-paths.XXXXXX";
	char *p;

	if (!t || !mkdtemp(tmpl))
		return -1;
	t->dir = xstrdup(tmpl);
	strbuf_init(&t->err);
	p = xstrfmt("%s/tree/arch/x86/kvm", t->dir);
	mkdir_p(p);
	free(p);
	p = xstrfmt("%s/tree/arch/x86/kvm/pmu.c", t->dir);
	write_file(p, "int a;\n", 7);
	free(p);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;

	rm_rf(t->dir);
	free(t->dir);
	strbuf_release(&t->err);
	free(t);
	return 0;
}

/* tree_confined() of @t's tree, with a symlink @rel -> @target first. */
static int confined_with_link(struct tree *t, const char *rel,
			      const char *target)
{
	char *root = xstrfmt("%s/tree", t->dir), *p;
	int ret;

	if (rel) {
		p = xstrfmt("%s/%s", root, rel);
		assert_int_equal(symlink(target, p), 0);
		free(p);
	}
	strbuf_reset(&t->err);
	ret = tree_confined(root, &t->err);
	free(root);
	return ret;
}

static void plain_tree(void **state)
{
	struct tree *t = *state;

	assert_int_equal(confined_with_link(t, NULL, NULL), 0);
	assert_string_equal(t->err.buf, "");
}

static void links_inside(void **state)
{
	struct tree *t = *state;

	assert_int_equal(confined_with_link(t, "arch/x86/kvm/a.c", "pmu.c"), 0);
	assert_int_equal(confined_with_link(t, "arch/up", "x86/kvm/../../x86"),
			 0);
	/* dangling, but it would stay inside */
	assert_int_equal(confined_with_link(t, "arch/gone", "no/such/../file"),
			 0);
}

static void absolute_link(void **state)
{
	struct tree *t = *state;

	assert_int_equal(confined_with_link(t, "arch/etc", "/etc/passwd"), -1);
	assert_string_equal(t->err.buf,
			    "arch/etc: a symlink to the absolute path /etc/passwd");
}

static void link_out_by_dots(void **state)
{
	struct tree *t = *state;

	assert_int_equal(confined_with_link(t, "arch/x86/out",
					    "kvm/../../../../x"), -1);
	assert_non_null(strstr(t->err.buf, "arch/x86/out: a symlink to kvm/../../../../x, which leads outside the tree"));
}

/*
 * ".." after a link is the real parent of where the link led: l1 is
 * arch/x86/kvm, so l1/../../.. is the tree itself (inside), though
 * arch/l1/../../.. spelled out would leave it; one ".." more leaves it.
 */
static void dots_after_a_link(void **state)
{
	struct tree *t = *state;

	assert_int_equal(confined_with_link(t, "arch/l1", "x86/kvm"), 0);
	assert_int_equal(confined_with_link(t, "arch/l2", "l1/../../.."), 0);
	assert_int_equal(confined_with_link(t, "arch/l3", "l1/../../../.."),
			 -1);
	assert_non_null(strstr(t->err.buf, "arch/l3: a symlink to l1/../../../.., which leads outside the tree"));
}

static void fifo(void **state)
{
	struct tree *t = *state;
	char *p = xstrfmt("%s/tree/arch/pipe", t->dir);

	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(confined_with_link(t, NULL, NULL), -1);
	assert_string_equal(t->err.buf,
			    "arch/pipe: neither a file, a directory nor a symlink");
	free(p);
}

static void not_a_directory(void **state)
{
	struct tree *t = *state;
	char *p = xstrfmt("%s/tree/arch/x86/kvm/pmu.c", t->dir);

	assert_int_equal(tree_confined(p, &t->err), -1);
	assert_non_null(strstr(t->err.buf, "is not a directory"));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(under),
		cmocka_unit_test_setup_teardown(plain_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(links_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(absolute_link, setup, teardown),
		cmocka_unit_test_setup_teardown(link_out_by_dots, setup,
						teardown),
		cmocka_unit_test_setup_teardown(dots_after_a_link, setup,
						teardown),
		cmocka_unit_test_setup_teardown(fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(not_a_directory, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
