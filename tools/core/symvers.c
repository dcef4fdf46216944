// SPDX-License-Identifier: GPL-2.0
/*
 * Module.symvers, the export CRCs modpost writes: read, and two of them
 * compared symbol by symbol (the kabi step's check of our modules against
 * Debian's).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/symvers.h"

/* By symbol; a symbol listed twice by its CRC, so that the order is fixed. */
static int by_symbol(const void *a, const void *b)
{
	const struct symver *x = a, *y = b;
	int cmp = strcmp(x->sym, y->sym);

	return cmp ? cmp : strcmp(x->crc, y->crc);
}

void symvers_parse(struct symvers *s, int (*keep)(const char *mod))
{
	char *line, *save = NULL;

	for (line = strtok_r(s->text.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[5], *fs = NULL;
		int i;

		f[0] = strtok_r(line, "\t", &fs);
		for (i = 1; i < 5; i++)
			f[i] = f[i - 1] ? strtok_r(NULL, "\t", &fs) : NULL;
		if (!f[2] || (keep && !keep(f[2])))
			continue;
		if (s->nr == s->alloc) {
			s->alloc = s->alloc ? 2 * s->alloc : 512;
			s->v = xrealloc(s->v, s->alloc * sizeof(*s->v));
		}
		s->v[s->nr].crc = f[0];
		s->v[s->nr].sym = f[1];
		s->v[s->nr].mod = f[2];
		s->v[s->nr].export = f[3];
		s->v[s->nr].ns = f[3] ? f[4] : NULL;
		s->nr++;
	}
	if (s->nr)
		qsort(s->v, s->nr, sizeof(*s->v), by_symbol);
}

int symvers_read(struct symvers *s, const char *path,
		 int (*keep)(const char *mod))
{
	if (strbuf_read_file(&s->text, path, 64 << 20) < 0)
		return -1;
	symvers_parse(s, keep);
	return 0;
}

void symvers_clear(struct symvers *s)
{
	strbuf_release(&s->text);
	free(s->v);
	s->v = NULL;
	s->nr = s->alloc = 0;
}

int symver_export_differs(const struct symver *a, const struct symver *b)
{
	if (!a->export || !b->export)
		return 0;
	return strcmp(a->export, b->export) ||
	       strcmp(a->ns ? a->ns : "", b->ns ? b->ns : "");
}

void symvers_diff(const struct symvers *old, const struct symvers *new,
		  void (*fn)(enum symver_change change, const struct symver *o,
			     const struct symver *n, void *data),
		  void *data)
{
	size_t i = 0, j = 0;

	while (i < old->nr || j < new->nr) {
		const struct symver *o = i < old->nr ? &old->v[i] : NULL;
		const struct symver *n = j < new->nr ? &new->v[j] : NULL;
		int cmp = !o ? 1 : !n ? -1 : strcmp(o->sym, n->sym);

		if (cmp < 0) {
			fn(SYMVER_REMOVED, o, NULL, data);
			i++;
		} else if (cmp > 0) {
			fn(SYMVER_ADDED, NULL, n, data);
			j++;
		} else {
			if (strcmp(o->crc, n->crc) || symver_export_differs(o, n))
				fn(SYMVER_CHANGED, o, n, data);
			i++;
			j++;
		}
	}
}

int symvers_ignore_read(struct symvers_ignore *ig, const char *path,
			struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct stat st;
	struct line l;
	int n = 0, ret = 0;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		strbuf_addf(err, "%s: cannot read: not a regular file (a link, say): make it one",
			    path);
		return -1;
	}
	if (strbuf_read_regular(&text, path, 1 << 20)) {
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
		strbuf_release(&text);
		return -1;
	}
	for_each_line(l, text.buf) {
		size_t pat, gap;

		n++;
		if (!l.len || *l.s == '#' ||
		    strspn(l.s, " \t") == l.len)
			continue;
		pat = strcspn(l.s, " \t\n");
		gap = pat + strspn(l.s + pat, " \t");
		if (!pat || gap >= l.len) {
			strbuf_addf(err, "%s:%d: '%.*s' has no reason: write the pattern (a symbol, or module:PATH), a blank and why the change is harmless",
				    path, n, (int)l.len, l.s);
			ret = -1;
			break;
		}
		strvec_pushf(&ig->pattern, "%.*s", (int)pat, l.s);
		strvec_pushf(&ig->reason, "%.*s", (int)(l.len - gap), l.s + gap);
	}
	strbuf_release(&text);
	return ret;
}

const char *symvers_ignored(const struct symvers_ignore *ig,
			    const struct symver *s)
{
	size_t i;

	for (i = 0; i < ig->pattern.nr; i++) {
		const char *p = ig->pattern.v[i];

		if (!strncmp(p, "module:", 7) ?
		    !fnmatch(p + 7, s->mod, 0) : !fnmatch(p, s->sym, 0))
			return ig->reason.v[i];
	}
	return NULL;
}

void symvers_ignore_clear(struct symvers_ignore *ig)
{
	strvec_clear(&ig->pattern);
	strvec_clear(&ig->reason);
}
