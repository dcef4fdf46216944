// SPDX-License-Identifier: GPL-2.0
/*
 * Module.symvers, the export CRCs modpost writes: read, and two of them
 * compared symbol by symbol (the kabi step's check of our modules against
 * Debian's).
 */
#include <stdlib.h>
#include <string.h>

#include "symvers.h"

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
		char *f[3], *fs = NULL;
		int i;

		f[0] = strtok_r(line, "\t", &fs);
		for (i = 1; i < 3; i++)
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
			if (strcmp(o->crc, n->crc))
				fn(SYMVER_CHANGED, o, n, data);
			i++;
			j++;
		}
	}
}
