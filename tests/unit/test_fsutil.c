// SPDX-License-Identifier: GPL-2.0
/*
 * tree_relink(): a tree of hard links to a source, written since by a
 * series and by anyone else, linked to the source again.  copy_file():
 * the bytes, whichever way the kernel lets them be copied.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ftw.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "../../tools/lib/fsutil.h"
#include "../../tools/lib/run.h"
#include "../../tools/lib/tree.h"

struct fixture {
	char *top, *src, *tree;
};

static char *at(const char *dir, const char *rel)
{
	return xstrfmt("%s/%s", dir, rel);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = at(dir, rel);

	assert_int_equal(write_file(p, text, strlen(text)), 0);
	free(p);
}

static void mk(const char *dir, const char *rel)
{
	char *p = at(dir, rel);

	assert_int_equal(mkdir_p(p), 0);
	free(p);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct child c = CHILD_INIT;
	char *tmpl = xstrdup("build/test-fsutil-XXXXXX"), *link;

	assert_non_null(mkdtemp(tmpl));
	f->top = tmpl;
	f->src = at(f->top, "src");
	f->tree = at(f->top, "tree");
	mk(f->src, "arch/x86/kvm");
	mk(f->src, "tools/testing");
	put(f->src, "Makefile", "all:\n");
	put(f->src, "arch/x86/kvm/pmu.c", "pmu\n");
	put(f->src, "arch/x86/kvm/x86.c", "x86\n");
	put(f->src, "tools/testing/gone.c", "deleted by a patch\n");
	link = at(f->src, "link");
	assert_int_equal(symlink("arch/x86/kvm/pmu.c", link), 0);
	free(link);
	strvec_pushl(&c.args, "cp", "-al", f->src, f->tree, NULL);
	assert_int_equal(run_child(&c), 0);
	child_clear(&c);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	rm_rf(f->top);
	free(f->src);
	free(f->tree);
	free(f->top);
	free(f);
	return 0;
}

/* Each entry of @a is at the same path in @b as the same inode. */
static const char *walk_other;
static size_t walk_root_len;
static int walk_bad;

static int same_in_other(const char *path, const struct stat *st, int type,
			 struct FTW *ftw)
{
	char *peer = xstrfmt("%s%s", walk_other, path + walk_root_len);
	struct stat ps;

	(void)ftw;
	if (lstat(peer, &ps) < 0)
		walk_bad++;
	else if (type == FTW_D ? !S_ISDIR(ps.st_mode) :
		 ps.st_ino != st->st_ino)
		walk_bad++;
	free(peer);
	return 0;
}

static int differences(const char *a, const char *b)
{
	walk_bad = 0;
	walk_other = b;
	walk_root_len = strlen(a);
	nftw(a, same_in_other, 16, FTW_PHYS);
	walk_other = a;
	walk_root_len = strlen(b);
	nftw(b, same_in_other, 16, FTW_PHYS);
	return walk_bad;
}

static void replace(const char *dir, const char *rel, const char *text)
{
	char *p = at(dir, rel), *tmp = xstrfmt("%s.new", p);

	assert_int_equal(write_file(tmp, text, strlen(text)), 0);
	assert_int_equal(rename(tmp, p), 0);
	free(tmp);
	free(p);
}

static void relinked_after_everything(void **state)
{
	struct fixture *f = *state;
	struct strbuf err = STRBUF_INIT;
	char *p;
	size_t n;

	assert_int_equal(differences(f->src, f->tree), 0);
	/* as patch(1) does: a new file renamed over the old name */
	replace(f->tree, "arch/x86/kvm/pmu.c", "patched\n");
	/* a file and a directory the series added */
	mk(f->tree, "tools/testing/new/x86");
	put(f->tree, "tools/testing/new/x86/test.c", "new\n");
	put(f->tree, "arch/x86/kvm/pmu.c.rej", "@@ rejected\n");
	/* quilt's state */
	mk(f->tree, ".pc/0001.patch/arch");
	put(f->tree, ".pc/applied-patches", "0001.patch\n");
	/* a file a patch deleted */
	p = at(f->tree, "tools/testing/gone.c");
	assert_int_equal(unlink(p), 0);
	free(p);
	/* a symlink made a file, a file made a directory */
	replace(f->tree, "link", "not a link\n");
	p = at(f->tree, "arch/x86/kvm/x86.c");
	assert_int_equal(unlink(p), 0);
	free(p);
	mk(f->tree, "arch/x86/kvm/x86.c/inner");
	assert_int_not_equal(differences(f->src, f->tree), 0);

	assert_int_equal(tree_relink(f->tree, f->src, &n, &err), 0);
	assert_string_equal(err.buf, "");
	assert_int_equal(differences(f->src, f->tree), 0);
	/* pmu.c, the .rej, new/ (3), .pc (4), gone.c, link, x86.c (3) */
	assert_true(n >= 10);

	/* nothing left to do */
	assert_int_equal(tree_relink(f->tree, f->src, &n, &err), 0);
	assert_int_equal(n, 0);
	strbuf_release(&err);
}

/* The source's files are never written, only linked. */
static void source_untouched(void **state)
{
	struct fixture *f = *state;
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	char *p = at(f->src, "arch/x86/kvm/pmu.c");
	size_t n;

	replace(f->tree, "arch/x86/kvm/pmu.c", "patched\n");
	assert_int_equal(tree_relink(f->tree, f->src, &n, &err), 0);
	assert_int_equal(strbuf_read_file(&sb, p, 64), 0);
	assert_string_equal(sb.buf, "pmu\n");
	strbuf_release(&sb);
	strbuf_release(&err);
	free(p);
}

/* A source that is gone fails, and says so, for the caller to link anew. */
static void missing_source_fails(void **state)
{
	struct fixture *f = *state;
	struct strbuf err = STRBUF_INIT;
	char *gone = at(f->top, "no-such-source");
	size_t n;

	assert_int_equal(tree_relink(f->tree, gone, &n, &err), -1);
	assert_non_null(strstr(err.buf, "cannot link"));
	strbuf_release(&err);
	free(gone);
}

/* @path holds exactly @len bytes of @want. */
static void holds(const char *path, const char *want, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(strbuf_read_file(&sb, path, 1 << 20), 0);
	assert_int_equal(sb.len, len);
	assert_memory_equal(sb.buf, want, len);
	strbuf_release(&sb);
}

/*
 * A file larger than one read, an empty one, one over a longer file, one
 * whose directories do not exist yet, and a /proc file, whose size says 0
 * and which copy_file_range() does not copy.
 */
static void copy_file_copies_the_bytes(void **state)
{
	struct fixture *f = *state;
	size_t len = 300 * 1024 + 7, i;
	char *big = malloc(len), *from = at(f->top, "big"),
	     *to = at(f->top, "deep/er/big"), *empty = at(f->top, "empty"),
	     *to_empty = at(f->top, "empty.copy"), *proc = at(f->top, "version");
	struct strbuf sb = STRBUF_INIT;

	for (i = 0; i < len; i++)
		big[i] = (char)(i * 131 + i / 4096);
	assert_int_equal(write_file(from, big, len), 0);
	assert_int_equal(copy_file(from, to), 0);
	holds(to, big, len);

	assert_int_equal(write_file(empty, "", 0), 0);
	assert_int_equal(write_file(to_empty, "longer text before\n", 19), 0);
	assert_int_equal(copy_file(empty, to_empty), 0);
	holds(to_empty, "", 0);

	assert_int_equal(copy_file(from, to_empty), 0);
	holds(to_empty, big, len);

	assert_int_equal(strbuf_read_file(&sb, "/proc/version", 4096), 0);
	assert_true(sb.len > 0);
	assert_int_equal(copy_file("/proc/version", proc), 0);
	holds(proc, sb.buf, sb.len);

	strbuf_release(&sb);
	free(big);
	free(from);
	free(to);
	free(empty);
	free(to_empty);
	free(proc);
}

/* No source: -1 with its errno, and no copy made. */
static void copy_file_of_nothing_fails(void **state)
{
	struct fixture *f = *state;
	char *from = at(f->top, "no-such-file"), *to = at(f->top, "copy");

	errno = 0;
	assert_int_equal(copy_file(from, to), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_not_equal(access(to, F_OK), 0);
	free(from);
	free(to);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(relinked_after_everything,
						setup, teardown),
		cmocka_unit_test_setup_teardown(source_untouched, setup,
						teardown),
		cmocka_unit_test_setup_teardown(missing_source_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(copy_file_copies_the_bytes,
						setup, teardown),
		cmocka_unit_test_setup_teardown(copy_file_of_nothing_fails,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
