// SPDX-License-Identifier: GPL-2.0
/*
 * lib/guard.c: below a directory a sandboxed step could write, root's
 * writes, copies, reads, renames and directories follow no symlink the
 * sandbox planted there, at the last name or at any name on the way, and
 * the file the link leads to keeps its bytes.  Outside it, and in it
 * without links, everything works as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "../../tools/lib/fsutil.h"
#include "../../tools/lib/guard.h"
#include "../../tools/lib/strbuf.h"

struct fixture {
	char *top;	/* not guarded: where the victims live */
	char *sandbox;	/* guarded */
	char *victim;	/* a file outside, the links' target */
	char *victim_dir;
};

#define VICTIM "the machine's file\n"

static char *at(const char *dir, const char *rel)
{
	return xstrfmt("%s/%s", dir, rel);
}

static void plant(const char *target, const char *dir, const char *rel)
{
	char *p = at(dir, rel);

	assert_int_equal(symlink(target, p), 0);
	free(p);
}

static void victim_untouched(const struct fixture *f)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	assert_int_equal(strbuf_read_file(&sb, f->victim, 1024), 0);
	assert_string_equal(sb.buf, VICTIM);
	strbuf_release(&sb);
	/* nothing made in the directory a link leads to */
	assert_int_equal(stat(f->victim_dir, &st), 0);
	assert_int_equal(st.st_nlink, 2);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *tmpl = xstrdup("build/test-guard-XXXXXX");

	assert_non_null(mkdtemp(tmpl));
	f->top = abspath(tmpl);
	free(tmpl);
	f->sandbox = at(f->top, "build/6.12");
	f->victim = at(f->top, "victim");
	f->victim_dir = at(f->top, "victim-dir");
	assert_int_equal(mkdir_p(f->sandbox), 0);
	assert_int_equal(mkdir_p(f->victim_dir), 0);
	assert_int_equal(write_file(f->victim, VICTIM, strlen(VICTIM)), 0);
	fs_guard(f->sandbox);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	fs_unguard_all();
	rm_rf(f->top);
	free(f->top);
	free(f->sandbox);
	free(f->victim);
	free(f->victim_dir);
	free(f);
	return 0;
}

static void last_name_a_link(void **state)
{
	struct fixture *f = *state;
	struct strbuf sb = STRBUF_INIT;
	char *p = at(f->sandbox, ".config");

	plant(f->victim, f->sandbox, ".config");
	errno = 0;
	assert_int_equal(write_file(p, "x", 1), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(copy_file(f->victim, p), -1);
	assert_int_equal(strbuf_read_file(&sb, p, 1024), -1);
	assert_null(read_first_line(p));
	victim_untouched(f);
	/* atomic: a new file replaces the link, the target keeps its bytes */
	assert_int_equal(write_file_atomic(p, "new\n", 4), 0);
	assert_int_equal(strbuf_read_file(&sb, p, 1024), 0);
	assert_string_equal(sb.buf, "new\n");
	victim_untouched(f);
	strbuf_release(&sb);
	free(p);
}

static void a_directory_on_the_way_a_link(void **state)
{
	struct fixture *f = *state;
	struct strbuf sb = STRBUF_INIT;
	char *p = at(f->sandbox, "arch/x86/kvm/pmu.o");
	char *mid = at(f->sandbox, "arch");
	char *in_victim = at(f->victim_dir, "x86/kvm/pmu.o");

	plant(f->victim_dir, f->sandbox, "arch");
	errno = 0;
	assert_int_equal(mkdir_p(p), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(write_file(p, "x", 1), -1);
	assert_int_equal(write_file_atomic(p, "x", 1), -1);
	assert_int_equal(copy_file(f->victim, p), -1);
	assert_int_equal(strbuf_read_file(&sb, p, 1024), -1);
	assert_int_not_equal(access(in_victim, F_OK), 0);
	victim_untouched(f);
	strbuf_release(&sb);
	free(p);
	free(mid);
	free(in_victim);
}

static void reading_through_a_link_out(void **state)
{
	struct fixture *f = *state;
	char *p = at(f->sandbox, "stolen");

	plant(f->victim, f->sandbox, "stolen");
	errno = 0;
	assert_int_equal(copy_file(p, f->victim_dir), -1);
	assert_int_equal(errno, ELOOP);
	free(p);
}

static void no_links_all_works(void **state)
{
	struct fixture *f = *state;
	struct strbuf sb = STRBUF_INIT;
	char *p = at(f->sandbox, "arch/x86/kvm/pmu.o");
	char *q = at(f->sandbox, "arch/x86/kvm/copy.o");
	char *dir = at(f->sandbox, "arch/x86/kvm");
	char *line;

	assert_int_equal(mkdir_p(dir), 0);
	assert_int_equal(mkdir_p(dir), 0);
	assert_int_equal(write_file(p, "obj\n", 4), 0);
	assert_int_equal(write_file_atomic(p, "obj2\n", 5), 0);
	assert_int_equal(copy_file(p, q), 0);
	assert_int_equal(strbuf_read_file(&sb, q, 1024), 0);
	assert_string_equal(sb.buf, "obj2\n");
	line = read_first_line(q);
	assert_string_equal(line, "obj2");
	free(line);
	/* outside the guarded directory a link is followed, as before */
	plant(f->victim, f->top, "outside-link");
	free(p);
	p = at(f->top, "outside-link");
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_file(&sb, p, 1024), 0);
	assert_string_equal(sb.buf, VICTIM);
	strbuf_release(&sb);
	free(p);
	free(q);
	free(dir);
}

static void escape_by_dotdot_refused(void **state)
{
	struct fixture *f = *state;
	char *p = at(f->sandbox, "../../victim");

	errno = 0;
	assert_int_equal(write_file(p, "x", 1), -1);
	assert_int_equal(errno, EXDEV);
	victim_untouched(f);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(last_name_a_link, setup, teardown),
		cmocka_unit_test_setup_teardown(a_directory_on_the_way_a_link,
						setup, teardown),
		cmocka_unit_test_setup_teardown(reading_through_a_link_out,
						setup, teardown),
		cmocka_unit_test_setup_teardown(no_links_all_works, setup,
						teardown),
		cmocka_unit_test_setup_teardown(escape_by_dotdot_refused, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
