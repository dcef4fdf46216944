// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel module's .modinfo section, read off the ELF64 file: vermagic=
 * and depends= for Debian's kernel (debian_modules.c, debian_initramfs.c).
 * Every offset and size is checked against the file's length before it is
 * used, and headers are copied out: a cut or corrupt file is refused.
 */
#include <elf.h>
#include <string.h>

#include "kernels/modinfo.h"

/* [@off, @off + @size) within @len bytes, without overflow. */
static int within(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

int read_modinfo(const char *path, struct strbuf *info)
{
	struct strbuf sb = STRBUF_INIT;
	Elf64_Ehdr eh;
	Elf64_Shdr sh, strs;
	int i, ret = -1;

	if (strbuf_read_file(&sb, path, 512 << 20) || sb.len < sizeof(eh))
		goto out;
	memcpy(&eh, sb.buf, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(sh) || eh.e_shstrndx >= eh.e_shnum ||
	    !within(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(sh), sb.len))
		goto out;
	memcpy(&strs, sb.buf + eh.e_shoff + eh.e_shstrndx * sizeof(sh),
	       sizeof(strs));
	if (!within(strs.sh_offset, strs.sh_size, sb.len))
		goto out;
	for (i = 0; i < eh.e_shnum; i++) {
		memcpy(&sh, sb.buf + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_name >= strs.sh_size ||
		    strs.sh_size - sh.sh_name < sizeof(".modinfo") ||
		    memcmp(sb.buf + strs.sh_offset + sh.sh_name, ".modinfo",
			   sizeof(".modinfo")) ||
		    !within(sh.sh_offset, sh.sh_size, sb.len))
			continue;
		strbuf_add(info, sb.buf + sh.sh_offset, sh.sh_size);
		ret = 0;
		break;
	}
out:
	strbuf_release(&sb);
	return ret;
}

const char *modinfo_get(const struct strbuf *info, const char *key)
{
	size_t n = strlen(key), off = 0;

	while (off < info->len) {
		const char *s = info->buf + off;
		size_t len = strnlen(s, info->len - off);

		if (len > n && !strncmp(s, key, n) && s[n] == '=')
			return s + n + 1;
		off += len + 1;
	}
	return NULL;
}
