// SPDX-License-Identifier: GPL-2.0
/*
 * Module.symvers: kept lines sorted by symbol, and two of them compared;
 * a series' kabi.ignore.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/core/symvers.h"

static int kvm_only(const char *mod)
{
	return !strcmp(mod, "arch/x86/kvm/kvm");
}

static void parse(struct symvers *s, const char *text,
		  int (*keep)(const char *mod))
{
	strbuf_addstr(&s->text, text);
	symvers_parse(s, keep);
}

static void kept_and_sorted(void **state)
{
	struct symvers s = SYMVERS_INIT;

	(void)state;
	parse(&s,
	      "0x2\tkvm_zap\tarch/x86/kvm/kvm\tEXPORT_SYMBOL_GPL\tKVM\n"
	      "0x9\tprintk\tvmlinux\tEXPORT_SYMBOL\t\n"
	      "malformed line without tabs\n"
	      "0x3\tonly_two\n"
	      "\n"
	      "0x1\tkvm_apic\tarch/x86/kvm/kvm\tEXPORT_SYMBOL_GPL\n",
	      kvm_only);
	assert_int_equal(s.nr, 2);
	assert_string_equal(s.v[0].sym, "kvm_apic");
	assert_string_equal(s.v[0].crc, "0x1");
	assert_string_equal(s.v[0].mod, "arch/x86/kvm/kvm");
	assert_string_equal(s.v[1].sym, "kvm_zap");
	symvers_clear(&s);
	assert_int_equal(s.nr, 0);
	/* cleared, it parses again */
	parse(&s, "0x4\ta\tvmlinux\n", NULL);
	assert_int_equal(s.nr, 1);
	symvers_clear(&s);
}

static void empty_and_missing(void **state)
{
	struct symvers s = SYMVERS_INIT;

	(void)state;
	symvers_parse(&s, NULL);
	assert_int_equal(s.nr, 0);
	assert_int_equal(symvers_read(&s, "/nonexistent/Module.symvers",
				      NULL), -1);
	symvers_clear(&s);
}

struct seen {
	char text[512];
};

static void note(enum symver_change change, const struct symver *o,
		 const struct symver *n, void *data)
{
	static const char *const what[] = { "removed", "changed", "added" };
	struct seen *seen = data;
	size_t len = strlen(seen->text);

	snprintf(seen->text + len, sizeof(seen->text) - len, "%s %s %s %s\n",
		 what[change], o ? o->crc : "-", n ? n->crc : "-",
		 o ? o->sym : n->sym);
}

/* What symvers_diff() reports of two files' text, a line a change. */
static const char *diff_of(const char *old_text, const char *new_text,
			   struct seen *seen)
{
	struct symvers old = SYMVERS_INIT, new = SYMVERS_INIT;

	seen->text[0] = '\0';
	parse(&old, old_text, NULL);
	parse(&new, new_text, NULL);
	symvers_diff(&old, &new, note, seen);
	symvers_clear(&old);
	symvers_clear(&new);
	return seen->text;
}

static void diff_in_symbol_order(void **state)
{
	struct seen seen;

	(void)state;
	assert_string_equal(diff_of("0x5\tzz_gone\tm\n"
				    "0x1\tsame\tm\n"
				    "0x2\tbumped\tm\n"
				    "0x7\taa_gone\tm\n",
				    "0x3\tbumped\tm\n"
				    "0x1\tsame\tm\n"
				    "0x8\tnew_one\tm\n"
				    "0x9\tzzz_last\tm\n", &seen),
			    "removed 0x7 - aa_gone\n"
			    "changed 0x2 0x3 bumped\n"
			    "added - 0x8 new_one\n"
			    "removed 0x5 - zz_gone\n"
			    "added - 0x9 zzz_last\n");
}

static void diff_of_equal_and_empty(void **state)
{
	static const char xy[] = "0x1\tx\tm\n0x2\ty\tm\n";
	struct seen seen;

	(void)state;
	assert_string_equal(diff_of(xy, "0x2\ty\tm\n0x1\tx\tm\n", &seen), "");
	assert_string_equal(diff_of(xy, "", &seen),
			    "removed 0x1 - x\nremoved 0x2 - y\n");
	assert_string_equal(diff_of("", xy, &seen),
			    "added - 0x1 x\nadded - 0x2 y\n");
}

/* A symbol listed twice (modpost refuses to) is paired in CRC order. */
static void duplicates_paired_in_crc_order(void **state)
{
	struct seen seen;

	(void)state;
	assert_string_equal(diff_of("0x2\tdup\tm\n0x1\tdup\tm\n",
				    "0x1\tdup\tm\n", &seen),
			    "removed 0x2 - dup\n");
	assert_string_equal(diff_of("0x1\tdup\tm\n",
				    "0x2\tdup\tm\n0x1\tdup\tm\n", &seen),
			    "added - 0x2 dup\n");
}

/*
 * Without CONFIG_MODVERSIONS every CRC is 0x00000000: what is left is the
 * export type and the namespace, compared where both lines have them (a
 * genksyms line has neither), as Debian's buildcheck compares "export".
 */
static void export_type_and_namespace(void **state)
{
	static const char debian[] =
		"0x0\tgpl\tarch/x86/kvm/kvm\tEXPORT_SYMBOL_GPL\t\n"
		"0x0\tinternal\tarch/x86/kvm/kvm\tEXPORT_SYMBOL_GPL\tmodule:kvm-amd,kvm-intel\n"
		"0x0\tplain\tarch/x86/kvm/kvm\tEXPORT_SYMBOL\t\n"
		"0x0\tvfio_x\tdrivers/vfio/vfio\tEXPORT_SYMBOL_GPL\t\n";
	struct symvers s = SYMVERS_INIT;
	struct seen seen;

	(void)state;
	parse(&s, debian, NULL);
	assert_string_equal(s.v[1].export, "EXPORT_SYMBOL_GPL");
	assert_string_equal(s.v[1].ns, "module:kvm-amd,kvm-intel");
	assert_null(s.v[0].ns);
	symvers_clear(&s);
	/* the same: nothing; genksyms' vfio line, without an export type: nothing */
	assert_string_equal(diff_of(debian,
				    "0x0\tgpl\tarch/x86/kvm/kvm\tEXPORT_SYMBOL_GPL\n"
				    "0x0\tinternal\tarch/x86/kvm/kvm\tEXPORT_SYMBOL_GPL\tmodule:kvm-amd,kvm-intel\n"
				    "0x0\tplain\tarch/x86/kvm/kvm\tEXPORT_SYMBOL\t\n"
				    "0x0\tvfio_x\tdrivers/vfio/vfio\n", &seen), "");
	/* GPL-only now, out of its namespace, into one: each a change */
	assert_string_equal(diff_of(debian,
				    "0x0\tgpl\tarch/x86/kvm/kvm\tEXPORT_SYMBOL_GPL\tKVM\n"
				    "0x0\tinternal\tarch/x86/kvm/kvm\tEXPORT_SYMBOL_GPL\t\n"
				    "0x0\tplain\tarch/x86/kvm/kvm\tEXPORT_SYMBOL_GPL\t\n"
				    "0x0\tvfio_x\tdrivers/vfio/vfio\n", &seen),
			    "changed 0x0 0x0 gpl\n"
			    "changed 0x0 0x0 internal\n"
			    "changed 0x0 0x0 plain\n");
}

static void read_a_file(void **state)
{
	const char *dir = getenv("TMPDIR");
	char *path = xstrfmt("%s/test_symvers.XXXXXX", dir ? dir : "/tmp");
	struct symvers s = SYMVERS_INIT;
	int fd = mkstemp(path);
	static const char text[] = "0x1\tb\tm\n0x2\ta\tm\n";

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	assert_int_equal(symvers_read(&s, path, NULL), 0);
	unlink(path);
	free(path);
	assert_int_equal(s.nr, 2);
	assert_string_equal(s.v[0].sym, "a");
	assert_string_equal(s.v[1].crc, "0x1");
	symvers_clear(&s);
}

/* @text as a file in $TMPDIR; its path, to free and unlink. */
static char *temp_file(const char *text)
{
	const char *dir = getenv("TMPDIR");
	char *path = xstrfmt("%s/test_symvers.XXXXXX", dir ? dir : "/tmp");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void ignore_file(void **state)
{
	struct symvers_ignore ig = SYMVERS_IGNORE_INIT;
	struct strbuf err = STRBUF_INIT;
	char *path = temp_file("# what Debian's kABI may lose\n"
			       "\n"
			       "kvm_pmu_*\tnot used outside kvm.ko\n"
			       "module:drivers/vfio/*  vfio is rebuilt with kvm\n"
			       "\040\040\n");
	struct symver pmu = { "0x1", "kvm_pmu_get_msr", "arch/x86/kvm/kvm", NULL, NULL };
	struct symver vfio = { "0x2", "vfio_file_set_kvm", "drivers/vfio/vfio", NULL, NULL };
	struct symver other = { "0x3", "kvm_vcpu_kick", "arch/x86/kvm/kvm", NULL, NULL };

	(void)state;
	assert_int_equal(symvers_ignore_read(&ig, path, &err), 0);
	assert_string_equal(err.buf, "");
	assert_int_equal(ig.pattern.nr, 2);
	assert_string_equal(symvers_ignored(&ig, &pmu), "not used outside kvm.ko");
	assert_string_equal(symvers_ignored(&ig, &vfio), "vfio is rebuilt with kvm");
	assert_null(symvers_ignored(&ig, &other));
	symvers_ignore_clear(&ig);
	unlink(path);
	free(path);

	/* No file: nothing ignored; a file in the way of reading: an error. */
	assert_int_equal(symvers_ignore_read(&ig, "/nonexistent/kabi.ignore", &err), 0);
	assert_int_equal(ig.pattern.nr, 0);
	assert_null(symvers_ignored(&ig, &pmu));
	assert_int_equal(symvers_ignore_read(&ig, "/", &err), -1);
	assert_non_null(strstr(err.buf, "/: cannot read"));
	strbuf_release(&err);
}

static void ignore_needs_a_reason(void **state)
{
	struct symvers_ignore ig = SYMVERS_IGNORE_INIT;
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT;
	char *path = temp_file("kvm_a reason one\n# c\nkvm_pmu_get_msr\t\040\n");

	(void)state;
	assert_int_equal(symvers_ignore_read(&ig, path, &err), -1);
	strbuf_addf(&want, "%s:3: 'kvm_pmu_get_msr\t ' has no reason: ", path);
	assert_memory_equal(err.buf, want.buf, want.len);
	symvers_ignore_clear(&ig);
	unlink(path);
	free(path);
	strbuf_release(&err);
	strbuf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kept_and_sorted),
		cmocka_unit_test(empty_and_missing),
		cmocka_unit_test(diff_in_symbol_order),
		cmocka_unit_test(diff_of_equal_and_empty),
		cmocka_unit_test(duplicates_paired_in_crc_order),
		cmocka_unit_test(export_type_and_namespace),
		cmocka_unit_test(read_a_file),
		cmocka_unit_test(ignore_file),
		cmocka_unit_test(ignore_needs_a_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
