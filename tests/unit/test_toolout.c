// SPDX-License-Identifier: GPL-2.0
/* The parsers of tool output: checkpatch's findings, quilt's failed hunk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/core/toolout.h"

static const char allow[] =
	"# checkpatch.allow\n"
	"LONG_LINE the context of a backport\n"
	"COMMIT_LOG_LONG_LINE\tquoted output\n";

static void checkpatch_findings(void **state)
{
	struct checkpatch_counts n = CHECKPATCH_COUNTS_INIT;
	struct strbuf detail = STRBUF_INIT;

	(void)state;
	checkpatch_count("ERROR:SPACING: space required\n"
			 "#12: FILE: arch/x86/kvm/pmu.c:12:\n"
			 "WARNING:LONG_LINE: line length of 110 exceeds 100\n"
			 "WARNING:COMMIT_LOG_LONG_LINE: wrap at 75\n"
			 "WARNING:LONG_LINE_COMMENT: a type with a listed prefix\n"
			 "CHECK:PARENTHESIS_ALIGNMENT: align\n"
			 "ERROR:LONG_LINE: an allowed type is still an error\n"
			 "WARNING:LONG_LINE: named once however often allowed\n"
			 "total: 2 errors, 3 warnings, 1 checks\n"
			 "WARNING: no type without --show-types",
			 allow, &n, &detail, "0001-x.patch");
	assert_int_equal(n.errors, 2);
	assert_int_equal(n.warnings, 2);
	assert_int_equal(n.checks, 1);
	assert_int_equal(n.allowed, 3);
	assert_string_equal(n.allowed_types.buf,
			    " LONG_LINE COMMIT_LOG_LONG_LINE");
	assert_string_equal(detail.buf,
			    "0001-x.patch: ERROR:SPACING: space required\n"
			    "0001-x.patch: WARNING:LONG_LINE_COMMENT: a type with a listed prefix\n"
			    "0001-x.patch: CHECK:PARENTHESIS_ALIGNMENT: align\n"
			    "0001-x.patch: ERROR:LONG_LINE: an allowed type is still an error\n"
			    "0001-x.patch: WARNING: no type without --show-types\n");
	strbuf_release(&n.allowed_types);
	strbuf_release(&detail);
}

/*
 * A backport's first line once merged, "commit SHA upstream.", as stable
 * wants it: checkpatch's GIT_COMMIT_ID error and UNKNOWN_COMMIT_ID warning
 * about it are noted, not counted; about any other line they count.
 */
static void checkpatch_stable_line(void **state)
{
	struct checkpatch_counts n = CHECKPATCH_COUNTS_INIT;
	struct strbuf detail = STRBUF_INIT;
	static const char sha[] = "0123456789abcdef0123456789abcdef01234567";
	char out[2048];

	(void)state;
	snprintf(out, sizeof(out),
		 "ERROR:GIT_COMMIT_ID: Please use git commit description style\n"
		 "#9:\n"
		 "commit %s upstream.\n"
		 "\n"
		 "WARNING:UNKNOWN_COMMIT_ID: Unknown commit id '%s'\n"
		 "#9:\n"
		 "commit %s upstream.\n"
		 "\n"
		 "ERROR:GIT_COMMIT_ID: Please use git commit description style\n"
		 "#20:\n"
		 "as commit %s upstream. did\n"
		 "\n"
		 "ERROR:GIT_COMMIT_ID: Please use git commit description style\n"
		 "#21:\n"
		 "commit %s upstream. And more\n"
		 "\n"
		 "ERROR:SPACING: a stable line is no excuse for another type\n"
		 "#9:\n"
		 "commit %s upstream.\n",
		 sha, sha, sha, sha, sha, sha);
	checkpatch_count(out, "", &n, &detail, "p");
	assert_int_equal(n.stable_line, 2);
	assert_int_equal(n.allowed, 0);
	assert_string_equal(n.allowed_types.buf, "");
	assert_int_equal(n.errors, 3);
	assert_int_equal(n.warnings, 0);
	strbuf_release(&n.allowed_types);
	strbuf_release(&detail);
}

static void checkpatch_clean(void **state)
{
	struct checkpatch_counts n = CHECKPATCH_COUNTS_INIT;
	struct strbuf detail = STRBUF_INIT;

	(void)state;
	checkpatch_count("", "", &n, &detail, "p");
	checkpatch_count("total: 0 errors, 0 warnings, 0 checks, 40 lines checked\n",
			 "", &n, &detail, "p");
	assert_int_equal(n.errors + n.warnings + n.checks + n.allowed, 0);
	assert_string_equal(detail.buf, "");
	strbuf_release(&n.allowed_types);
	strbuf_release(&detail);
}

static void quilt_hunk(void **state)
{
	struct strbuf why = STRBUF_INIT;

	(void)state;
	quilt_failure("Applying patch 0001-a.patch\n"
		      "patching file arch/x86/kvm/pmu.c\n"
		      "\n"
		      "Applying patch 0002-b.patch\n"
		      "patching file arch/x86/kvm/pmu.h\n"
		      "patching file arch/x86/kvm/x86.c\n"
		      "Hunk #1 succeeded at 10.\n"
		      "Hunk #2 FAILED at 8861.\n"
		      "Hunk #3 FAILED at 9000.\n"
		      "2 out of 3 hunks FAILED -- rejects in file arch/x86/kvm/x86.c\n"
		      "Patch 0002-b.patch does not apply (enforce with -f)\n",
		      &why);
	assert_string_equal(why.buf,
			    "patch 0002-b.patch does not apply: arch/x86/kvm/x86.c: Hunk #2 FAILED at 8861.");
	strbuf_release(&why);
}

static void quilt_other_failures(void **state)
{
	struct strbuf why = STRBUF_INIT;

	(void)state;
	quilt_failure("Applying patch 0001-a.patch\n"
		      "can't find file to patch at input line 5\n", &why);
	assert_string_equal(why.buf,
			    "patch 0001-a.patch does not apply");
	strbuf_reset(&why);
	quilt_failure("quilt: No series file found\n", &why);
	assert_string_equal(why.buf, "quilt push failed");
	strbuf_reset(&why);
	quilt_failure("", &why);
	assert_string_equal(why.buf, "quilt push failed");
	strbuf_release(&why);
}

static void cocci_outcomes(void **state)
{
	const char *rest;

	(void)state;
	assert_int_equal(cocci_outcome("APPLIED prev_counter", &rest),
			 COCCI_APPLIED);
	assert_string_equal(rest, "prev_counter");
	assert_int_equal(cocci_outcome("NOT-APPLICABLE no emulated counting (pre-5.19)",
				       &rest), COCCI_NOT_APPLICABLE);
	assert_string_equal(rest, "no emulated counting (pre-5.19)");
	/* a keyword alone: nothing after it, never past its end */
	assert_int_equal(cocci_outcome("NOT-APPLICABLE", &rest),
			 COCCI_NOT_APPLICABLE);
	assert_string_equal(rest, "");
	assert_int_equal(cocci_outcome("ALREADY", &rest), COCCI_ALREADY);
	/* APPLIED without a shape says nothing that can be used */
	assert_int_equal(cocci_outcome("APPLIED", &rest), COCCI_UNKNOWN);
	assert_string_equal(rest, "APPLIED");
	/* a longer word is no keyword */
	assert_int_equal(cocci_outcome("APPLIEDX y", &rest), COCCI_UNKNOWN);
	assert_string_equal(rest, "APPLIEDX y");
	assert_int_equal(cocci_outcome("UNKNOWN emulated_counter: no hunk",
				       &rest), COCCI_UNKNOWN);
	assert_int_equal(cocci_outcome("", &rest), COCCI_UNKNOWN);
}

/* Little-endian @v in @n bytes at @p. */
static void put(unsigned char *p, uint64_t v, int n)
{
	while (n--) {
		*p++ = v & 0xff;
		v >>= 8;
	}
}

/*
 * A minimal ELF64 object: the header, .shstrtab, .comment holding
 * @comment (NUL-separated strings, @len bytes), and 3 section headers.
 */
static char *elf_with_comment(const char *comment, size_t len)
{
	static const char names[] = "\0.shstrtab\0.comment\0";
	unsigned char buf[1024] = { 0 };
	const char *tmp = getenv("TMPDIR");
	char *path = malloc(4096);
	size_t noff = 64, coff = noff + sizeof(names), shoff;
	unsigned char *sh;
	int fd;

	snprintf(path, 4096, "%s/kverify-elf-XXXXXX", tmp ? tmp : "/tmp");
	fd = mkstemp(path);

	assert_true(fd >= 0 && coff + len + 3 * 64 + 8 < sizeof(buf));
	memcpy(buf, "\177ELF", 4);
	buf[4] = 2;			/* ELFCLASS64 */
	buf[5] = 1;			/* little-endian */
	buf[6] = 1;			/* EV_CURRENT */
	put(buf + 0x10, 1, 2);		/* ET_REL */
	put(buf + 0x12, 62, 2);		/* EM_X86_64 */
	memcpy(buf + noff, names, sizeof(names));
	memcpy(buf + coff, comment, len);
	shoff = (coff + len + 7) & ~7ul;
	put(buf + 0x28, shoff, 8);
	put(buf + 0x34, 64, 2);		/* e_ehsize */
	put(buf + 0x3a, 64, 2);		/* e_shentsize */
	put(buf + 0x3c, 3, 2);		/* e_shnum */
	put(buf + 0x3e, 1, 2);		/* e_shstrndx */
	sh = buf + shoff + 64;		/* [1] .shstrtab */
	put(sh, 1, 4);
	put(sh + 4, 3, 4);		/* SHT_STRTAB */
	put(sh + 0x18, noff, 8);
	put(sh + 0x20, sizeof(names), 8);
	sh += 64;			/* [2] .comment */
	put(sh, 11, 4);
	put(sh + 4, 1, 4);		/* SHT_PROGBITS */
	put(sh + 0x18, coff, 8);
	put(sh + 0x20, len, 8);
	assert_int_equal(write(fd, buf, shoff + 3 * 64), shoff + 3 * 64);
	close(fd);
	return path;
}

static void elf_compilers(void **state)
{
	static const char gcc14[] = "GCC: (Debian 14.2.0-19) 14.2.0";
	static const char two[] = "Linker: LLD 19.1.7\0Debian clang version 19.1.7 (3)";
	static const char none[] = "a comment that names no compiler";
	char *path, *cc;

	(void)state;
	/* what a module built in a chroot of trixie says, on a bookworm host */
	path = elf_with_comment(gcc14, sizeof(gcc14));
	cc = elf_compiler(path);
	assert_non_null(cc);
	assert_string_equal(cc, "gcc (Debian 14.2.0-19) 14.2.0");
	free(cc);
	unlink(path);
	free(path);
	path = elf_with_comment(two, sizeof(two));
	cc = elf_compiler(path);
	assert_non_null(cc);
	assert_string_equal(cc, "Debian clang version 19.1.7 (3)");
	free(cc);
	unlink(path);
	free(path);
	path = elf_with_comment(none, sizeof(none));
	assert_null(elf_compiler(path));
	unlink(path);
	free(path);
	/* no ELF, no file */
	assert_null(elf_compiler("Makefile"));
	assert_null(elf_compiler("/nonexistent/kvm.ko"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(checkpatch_findings),
		cmocka_unit_test(checkpatch_stable_line),
		cmocka_unit_test(checkpatch_clean),
		cmocka_unit_test(quilt_hunk),
		cmocka_unit_test(quilt_other_failures),
		cmocka_unit_test(cocci_outcomes),
		cmocka_unit_test(elf_compilers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
