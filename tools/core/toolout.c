// SPDX-License-Identifier: GPL-2.0
/*
 * What the tools print, read: checkpatch's findings and quilt's failed
 * hunk.  Text in, counts and one line out; tests/unit/test_toolout.c.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/toolout.h"

/* Is TYPE (@n bytes) listed in checkpatch.allow ("TYPE reason" lines)? */
static int type_allowed(const char *allow, const char *type, size_t n)
{
	struct line l;

	for_each_line(l, allow)
		if (!strncmp(l.s, type, n) && (l.s[n] == ' ' || l.s[n] == '\t'))
			return 1;
	return 0;
}

const char *skip_stable_upstream_line(const char *p)
{
	size_t n;

	if (!skip_prefix(p, "commit ", &p))
		return NULL;
	n = strspn(p, "0123456789abcdef");
	if (n < 12 || n > 40 || !skip_prefix(p + n, " upstream.\n", &p))
		return NULL;
	return p;
}

/* Does the list " TYPE TYPE" @types name TYPE (@n bytes)? */
static int has_type(const char *types, const char *type, size_t n)
{
	const char *p = types;

	while ((p = strstr(p, " ")) != NULL) {
		p++;
		if (!strncmp(p, type, n) && (p[n] == ' ' || !p[n]))
			return 1;
	}
	return 0;
}

/*
 * Is the finding at @e (its line's end) about stable's "commit SHA
 * upstream." line, the first of a backport's message once it is merged
 * (Documentation/process/stable-kernel-rules.rst)?  checkpatch wants
 * 'commit SHA ("title")' of every commit it names (GIT_COMMIT_ID) and, in
 * a tree without git, knows none (UNKNOWN_COMMIT_ID): neither applies to
 * the line stable asks for.  The line is the finding's context, after
 * its "#N: " line.
 */
static int stable_upstream_line(const char *type, size_t tn, const char *e)
{
	const char *l;

	if (!e || !((tn == 13 && !strncmp(type, "GIT_COMMIT_ID", 13)) ||
		    (tn == 17 && !strncmp(type, "UNKNOWN_COMMIT_ID", 17))))
		return 0;
	if (e[1] != '#')
		return 0;
	l = strchr(e + 1, '\n');
	return l && skip_stable_upstream_line(l + 1);
}

/*
 * "ERROR:TYPE: text", "WARNING:TYPE: text" and "CHECK:TYPE: text" lines of
 * checkpatch --show-types.  An error always counts, but for stable's
 * upstream line (stable_upstream_line(), counted apart); a warning or
 * check whose type checkpatch.allow lists is only noted, its type named
 * once.  What counts goes to @detail as "@patch: line".
 */
void checkpatch_count(const char *out, const char *allow,
		      struct checkpatch_counts *n, struct strbuf *detail,
		      const char *patch)
{
	const char *p = out;

	while (p && *p) {
		const char *e = strchr(p, '\n'), *type = strchr(p, ':');
		size_t len = e ? (size_t)(e - p) : strlen(p), tn;
		int err = starts_with(p, "ERROR:");
		int warn = starts_with(p, "WARNING:");
		int chk = starts_with(p, "CHECK:");

		if ((err || warn || chk) && type) {
			type++;
			tn = strcspn(type, ":\n");
			if (stable_upstream_line(type, tn, e)) {
				n->stable_line++;
			} else if (!err && type_allowed(allow, type, tn)) {
				n->allowed++;
				if (!has_type(n->allowed_types.buf, type, tn))
					strbuf_addf(&n->allowed_types, " %.*s",
						    (int)tn, type);
			} else {
				n->errors += err;
				n->warnings += warn;
				n->checks += chk;
				strbuf_addf(detail, "%s: %.*s\n", patch,
					    (int)len, p);
			}
		}
		p = e ? e + 1 : NULL;
	}
}

/*
 * quilt push's output: the first "Applying patch X" whose hunk failed, with
 * the file and the hunk line, as one line into @why.
 */
void quilt_failure(const char *log, struct strbuf *why)
{
	const char *patch = NULL, *hunk = NULL, *file = NULL;
	struct line l;
	int pn = 0, hn = 0, fn = 0;

	for_each_line(l, log) {
		int n = l.len;

		if (skip_prefix(l.s, "Applying patch ", &patch)) {
			pn = n - (patch - l.s);
		} else if (skip_prefix(l.s, "patching file ", &file)) {
			fn = n - (file - l.s);
		} else if (starts_with(l.s, "Hunk #") &&
			   memmem(l.s, n, "FAILED", 6)) {
			hunk = l.s;
			hn = n;
			break;
		}
	}
	if (patch)
		strbuf_addf(why, "patch %.*s does not apply", pn, patch);
	if (hunk && file)
		strbuf_addf(why, ": %.*s: %.*s", fn, file, hn, hunk);
	else if (!patch)
		strbuf_addstr(why, "quilt push failed");
}

/*
 * The kind of the semantic patch's outcome @line; *@rest is what follows
 * the keyword (the shape, the reason), "" if nothing, or all of an
 * UNKNOWN line.
 */
enum cocci_outcome cocci_outcome(const char *line, const char **rest)
{
	static const struct {
		const char *word;
		enum cocci_outcome kind;
	} words[] = {
		{ "APPLIED", COCCI_APPLIED },
		{ "NOT-APPLICABLE", COCCI_NOT_APPLICABLE },
		{ "ALREADY", COCCI_ALREADY },
	};
	const char *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++) {
		if (skip_prefix(line, words[i].word, &p) &&
		    (!*p || *p == ' ')) {
			*rest = *p ? p + 1 : p;
			/* APPLIED names the shape it applied */
			if (words[i].kind == COCCI_APPLIED && !**rest)
				break;
			return words[i].kind;
		}
	}
	*rest = line;
	return COCCI_UNKNOWN;
}

/* Little-endian fields of an ELF64 header or section header. */
static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

#define COMMENT_MAX (64 << 10)

char *elf_compiler(const char *path)
{
	unsigned char eh[64], sh[64], *names = NULL, *text = NULL;
	uint64_t shoff, off, size, noff = 0, nsize = 0;
	unsigned int shentsize, shnum, shstrndx, i;
	char *found = NULL, *s, *end;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (pread(fd, eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh, "\177ELF", 4) || eh[4] != 2 || eh[5] != 1)
		goto out;	/* not ELF64 little-endian (x86_64) */
	shoff = le(eh + 0x28, 8);
	shentsize = le(eh + 0x3a, 2);
	shnum = le(eh + 0x3c, 2);
	shstrndx = le(eh + 0x3e, 2);
	if (shentsize < 64 || shstrndx >= shnum ||
	    pread(fd, sh, 64, shoff + (uint64_t)shstrndx * shentsize) != 64)
		goto out;
	noff = le(sh + 0x18, 8);
	nsize = le(sh + 0x20, 8);
	if (!nsize || nsize > COMMENT_MAX)
		goto out;
	names = malloc(nsize + 1);
	if (!names || pread(fd, names, nsize, noff) != (ssize_t)nsize)
		goto out;
	names[nsize] = '\0';
	for (i = 0; i < shnum; i++) {
		if (pread(fd, sh, 64, shoff + (uint64_t)i * shentsize) != 64)
			goto out;
		if (le(sh, 4) >= nsize ||
		    strcmp((char *)names + le(sh, 4), ".comment"))
			continue;
		off = le(sh + 0x18, 8);
		size = le(sh + 0x20, 8);
		if (!size || size > COMMENT_MAX)
			goto out;
		text = malloc(size + 1);
		if (!text || pread(fd, text, size, off) != (ssize_t)size)
			goto out;
		text[size] = '\0';
		/* NUL-separated strings, one per compiler that left one */
		for (s = (char *)text, end = s + size; s < end;
		     s += strlen(s) + 1) {
			if (starts_with(s, "GCC: ")) {
				found = xstrfmt("gcc %s", s + 5);
				break;
			}
			if (strstr(s, "clang version")) {
				found = xstrdup(s);
				break;
			}
		}
		break;
	}
out:
	free(names);
	free(text);
	close(fd);
	return found;
}
