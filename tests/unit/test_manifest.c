// SPDX-License-Identifier: GPL-2.0
/*
 * The manifest of a pristine tree: a tree as recorded checks OK, cheaply
 * and in full; what changed since (content, size, an entry added or
 * removed, a symlink's target, a type) is named; a touched file whose
 * content did not change is taken and the record rewritten; no manifest
 * and one kverify did not write are told apart.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/lib/fsutil.h"
#include "../../tools/sources/manifest.h"

struct fixture {
	char *dir, *tree, *file;
	struct strbuf bad, err;
};

static char *in(const struct fixture *f, const char *rel)
{
	return xstrfmt("%s/%s", f->tree, rel);
}

static void put(const struct fixture *f, const char *rel, const char *text)
{
	char *p = in(f, rel);

	assert_int_equal(write_file(p, text, strlen(text)), 0);
	free(p);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char tmpl[] = "/tmp/kverify-manifest.XXXXXX";
	char *p;

	if (!f || !mkdtemp(tmpl))
		return -1;
	f->dir = xstrdup(tmpl);
	f->tree = xstrfmt("%s/tree", f->dir);
	f->file = xstrfmt("%s/tree.manifest", f->dir);
	strbuf_init(&f->bad);
	strbuf_init(&f->err);
	p = in(f, "arch/x86/kvm");
	mkdir_p(p);
	free(p);
	put(f, "Makefile", "obj-y += arch/\n");
	put(f, "arch/x86/kvm/pmu.c", "int a;\n");
	put(f, "arch/x86/kvm/pmu.h", "int b;\n");
	p = in(f, "arch/x86/kvm/link.h");
	if (symlink("pmu.h", p))
		return -1;
	free(p);
	if (manifest_record(f->tree, f->file, &f->err))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	rm_rf(f->dir);
	free(f->dir);
	free(f->tree);
	free(f->file);
	strbuf_release(&f->bad);
	strbuf_release(&f->err);
	free(f);
	return 0;
}

static enum manifest_state check(struct fixture *f, int full)
{
	strbuf_reset(&f->bad);
	strbuf_reset(&f->err);
	return manifest_check(f->tree, f->file, full, &f->bad, &f->err);
}

/* Set @rel's mtime back to @ts, as an edit that hides itself would. */
static void set_mtime(const struct fixture *f, const char *rel,
		      const struct timespec *ts)
{
	struct timespec t[2] = { ts[0], ts[0] };
	char *p = in(f, rel);

	assert_int_equal(utimensat(AT_FDCWD, p, t, AT_SYMLINK_NOFOLLOW), 0);
	free(p);
}

static void mtime_of(const struct fixture *f, const char *rel,
		     struct timespec *ts)
{
	struct stat st;
	char *p = in(f, rel);

	assert_int_equal(lstat(p, &st), 0);
	*ts = st.st_mtim;
	free(p);
}

static void unchanged(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(check(f, 0), MANIFEST_OK);
	assert_int_equal(check(f, 1), MANIFEST_OK);
	assert_string_equal(f->bad.buf, "");
}

static void size_changed(void **state)
{
	struct fixture *f = *state;

	put(f, "arch/x86/kvm/pmu.c", "int a; int c;\n");
	assert_int_equal(check(f, 0), MANIFEST_CHANGED);
	assert_string_equal(f->bad.buf,
			    "arch/x86/kvm/pmu.c (changed size: 14 bytes, 7 recorded)");
}

/*
 * The same size and the old mtime: the cheap check cannot see it, the
 * full one (VERIFY_CACHE=1) does.
 */
static void content_changed(void **state)
{
	struct fixture *f = *state;
	struct timespec ts;

	mtime_of(f, "arch/x86/kvm/pmu.c", &ts);
	put(f, "arch/x86/kvm/pmu.c", "int z;\n");
	set_mtime(f, "arch/x86/kvm/pmu.c", &ts);
	assert_int_equal(check(f, 0), MANIFEST_OK);
	assert_int_equal(check(f, 1), MANIFEST_CHANGED);
	assert_string_equal(f->bad.buf,
			    "arch/x86/kvm/pmu.c (changed content)");
}

static void added_and_removed(void **state)
{
	struct fixture *f = *state;
	char *p = in(f, "arch/x86/kvm/pmu.h");

	put(f, "arch/x86/kvm/new.c", "");
	assert_int_equal(unlink(p), 0);
	assert_int_equal(check(f, 0), MANIFEST_CHANGED);
	assert_string_equal(f->bad.buf,
			    "arch/x86/kvm/new.c (new), arch/x86/kvm/pmu.h (missing)");
	free(p);
}

static void symlink_retargeted(void **state)
{
	struct fixture *f = *state;
	struct timespec ts;
	char *p = in(f, "arch/x86/kvm/link.h");

	mtime_of(f, "arch/x86/kvm", &ts);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink("pmu.c", p), 0);
	set_mtime(f, "arch/x86/kvm", &ts);
	assert_int_equal(check(f, 1), MANIFEST_CHANGED);
	assert_string_equal(f->bad.buf,
			    "arch/x86/kvm/link.h (changed content)");
	free(p);
}

static void type_changed(void **state)
{
	struct fixture *f = *state;
	char *p = in(f, "Makefile");

	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(check(f, 0), MANIFEST_CHANGED);
	assert_string_equal(f->bad.buf, "Makefile (changed type)");
	free(p);
}

/* Touched, not changed: OK, and the record follows so the next is cheap. */
static void touched_is_rewritten(void **state)
{
	struct fixture *f = *state;
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;
	char *p = in(f, "Makefile");

	assert_int_equal(strbuf_read_file(&before, f->file, 1 << 20), 0);
	assert_int_equal(utimensat(AT_FDCWD, p, NULL, 0), 0);
	assert_int_equal(check(f, 0), MANIFEST_OK);
	assert_int_equal(strbuf_read_file(&after, f->file, 1 << 20), 0);
	assert_string_not_equal(before.buf, after.buf);
	assert_int_equal(check(f, 0), MANIFEST_OK);
	strbuf_release(&before);
	strbuf_release(&after);
	free(p);
}

static void many_changes_are_counted(void **state)
{
	struct fixture *f = *state;
	char name[32];
	int i;

	for (i = 0; i < 25; i++) {
		snprintf(name, sizeof(name), "n%02d", i);
		put(f, name, "");
	}
	assert_int_equal(check(f, 0), MANIFEST_CHANGED);
	assert_non_null(strstr(f->bad.buf, "n19 (new)"));
	assert_null(strstr(f->bad.buf, "n20 (new)"));
	assert_true(strlen(f->bad.buf) > 11);
	assert_string_equal(f->bad.buf + strlen(f->bad.buf) - 11, " and 5 more");
}

static void no_manifest_or_not_ours(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(unlink(f->file), 0);
	assert_int_equal(check(f, 0), MANIFEST_NONE);
	assert_int_equal(write_file(f->file, "not a manifest\n", 15), 0);
	assert_int_equal(check(f, 0), MANIFEST_ERROR);
	assert_non_null(strstr(f->err.buf, "is not a manifest kverify wrote"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(unchanged, setup, teardown),
		cmocka_unit_test_setup_teardown(size_changed, setup, teardown),
		cmocka_unit_test_setup_teardown(content_changed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(added_and_removed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(symlink_retargeted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(type_changed, setup, teardown),
		cmocka_unit_test_setup_teardown(touched_is_rewritten, setup,
						teardown),
		cmocka_unit_test_setup_teardown(many_changes_are_counted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(no_manifest_or_not_ours, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
