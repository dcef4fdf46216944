// SPDX-License-Identifier: GPL-2.0
/*
 * A module's .modinfo off its ELF64 file: small files the test writes, a
 * good one and cut or corrupt ones, which are refused.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/kernels/modinfo.h"

static const char strtab[] = "\0.shstrtab\0.modinfo\0.text";
static const char info[] = "license=GPL\0depends=kvm,irqbypass\0"
			   "vermagic=6.12.38+deb12-amd64 SMP mod_unload \0";

/* Where each part of the file is: the ELF header, then these. */
#define STRTAB_OFF	sizeof(Elf64_Ehdr)
#define INFO_OFF	(STRTAB_OFF + sizeof(strtab))
#define SHDR_OFF	((INFO_OFF + sizeof(info) + 7) & ~(size_t)7)
#define NR_SHDRS	4
#define FILE_LEN	(SHDR_OFF + NR_SHDRS * sizeof(Elf64_Shdr))

static char path[64];

/* A module's ELF64 file: sections "", .shstrtab, .modinfo, .text. */
static void make_elf(unsigned char *buf)
{
	Elf64_Ehdr eh = { 0 };
	Elf64_Shdr sh[NR_SHDRS] = { { 0 } };

	memset(buf, 0, FILE_LEN);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_REL;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_shoff = SHDR_OFF;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = NR_SHDRS;
	eh.e_shstrndx = 1;
	sh[1].sh_name = 1;
	sh[1].sh_type = SHT_STRTAB;
	sh[1].sh_offset = STRTAB_OFF;
	sh[1].sh_size = sizeof(strtab);
	sh[2].sh_name = 11;
	sh[2].sh_type = SHT_PROGBITS;
	sh[2].sh_offset = INFO_OFF;
	sh[2].sh_size = sizeof(info) - 1;
	sh[3].sh_name = 20;
	sh[3].sh_type = SHT_PROGBITS;
	memcpy(buf, &eh, sizeof(eh));
	memcpy(buf + STRTAB_OFF, strtab, sizeof(strtab));
	memcpy(buf + INFO_OFF, info, sizeof(info));
	memcpy(buf + SHDR_OFF, sh, sizeof(sh));
}

static void write_bytes(const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* read_modinfo() of the first @len bytes of @buf. */
static int read_back(const unsigned char *buf, size_t len, struct strbuf *sb)
{
	write_bytes(buf, len);
	return read_modinfo(path, sb);
}

static Elf64_Ehdr *ehdr(unsigned char *buf)
{
	return (Elf64_Ehdr *)buf;
}

static Elf64_Shdr *shdr(unsigned char *buf, int i)
{
	return (Elf64_Shdr *)(buf + SHDR_OFF) + i;
}

static void reads_a_module(void **state)
{
	unsigned char buf[FILE_LEN];
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	make_elf(buf);
	assert_int_equal(read_back(buf, sizeof(buf), &sb), 0);
	assert_int_equal(sb.len, sizeof(info) - 1);
	assert_string_equal(modinfo_get(&sb, "vermagic"),
			    "6.12.38+deb12-amd64 SMP mod_unload ");
	assert_string_equal(modinfo_get(&sb, "depends"), "kvm,irqbypass");
	assert_string_equal(modinfo_get(&sb, "license"), "GPL");
	assert_null(modinfo_get(&sb, "verm"));
	assert_null(modinfo_get(&sb, "vermagic="));
	assert_null(modinfo_get(&sb, "alias"));
	strbuf_release(&sb);
}

/* What is read is appended: the caller's text stays. */
static void appends(void **state)
{
	unsigned char buf[FILE_LEN];
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	make_elf(buf);
	strbuf_addstr(&sb, "x=1");
	strbuf_addch(&sb, '\0');
	assert_int_equal(read_back(buf, sizeof(buf), &sb), 0);
	assert_string_equal(modinfo_get(&sb, "x"), "1");
	assert_string_equal(modinfo_get(&sb, "depends"), "kvm,irqbypass");
	strbuf_release(&sb);
}

static void no_modinfo_section(void **state)
{
	unsigned char buf[FILE_LEN];
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	make_elf(buf);
	shdr(buf, 2)->sh_name = 20;	/* .text */
	assert_int_equal(read_back(buf, sizeof(buf), &sb), -1);
	assert_int_equal(sb.len, 0);
	assert_int_equal(read_modinfo("/nonexistent/kvm.ko", &sb), -1);
	strbuf_release(&sb);
}

/* Every cut of the file short of its section headers' end. */
static void truncated(void **state)
{
	unsigned char buf[FILE_LEN];
	struct strbuf sb = STRBUF_INIT;
	size_t len;

	(void)state;
	make_elf(buf);
	for (len = 0; len < FILE_LEN; len++) {
		assert_int_equal(read_back(buf, len, &sb), -1);
		assert_int_equal(sb.len, 0);
	}
	strbuf_release(&sb);
}

/* A good header, one field of it or of a section header broken. */
static void corrupt(void **state)
{
	unsigned char buf[FILE_LEN];
	struct strbuf sb = STRBUF_INIT;
	int i;

	(void)state;
	for (i = 0; i < 13; i++) {
		make_elf(buf);
		switch (i) {
		case 0:
			buf[0] = 0;				/* magic */
			break;
		case 1:
			ehdr(buf)->e_ident[EI_CLASS] = ELFCLASS32;
			break;
		case 2:
			ehdr(buf)->e_shentsize = sizeof(Elf32_Shdr);
			break;
		case 3:
			ehdr(buf)->e_shstrndx = NR_SHDRS;
			break;
		case 4:
			ehdr(buf)->e_shoff = FILE_LEN;
			break;
		case 5:
			ehdr(buf)->e_shoff = UINT64_MAX - 8;	/* wraps */
			break;
		case 6:
			ehdr(buf)->e_shoff = SHDR_OFF + 1;	/* unaligned */
			break;
		case 7:
			ehdr(buf)->e_shnum = NR_SHDRS + 1;
			break;
		case 8:
			shdr(buf, 1)->sh_offset = UINT64_MAX - 4;
			break;
		case 9:
			shdr(buf, 1)->sh_size = FILE_LEN;
			break;
		case 10:
			shdr(buf, 2)->sh_name = sizeof(strtab) - 3;
			break;
		case 11:
			shdr(buf, 2)->sh_offset = UINT64_MAX - 2;
			break;
		case 12:
			shdr(buf, 2)->sh_size = FILE_LEN;
			break;
		}
		assert_int_equal(read_back(buf, sizeof(buf), &sb), -1);
		assert_int_equal(sb.len, 0);
	}
	strbuf_release(&sb);
}

static void get_at_the_end(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_null(modinfo_get(&sb, "vermagic"));
	strbuf_addstr(&sb, "depends=");	/* the last string, unterminated */
	assert_string_equal(modinfo_get(&sb, "depends"), "");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "depends");
	assert_null(modinfo_get(&sb, "depends"));
	strbuf_release(&sb);
}

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_modinfo.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_a_module),
		cmocka_unit_test(appends),
		cmocka_unit_test(no_modinfo_section),
		cmocka_unit_test(truncated),
		cmocka_unit_test(corrupt),
		cmocka_unit_test(get_at_the_end),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
