/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SYMVERS_H
#define KVERIFY_SYMVERS_H

#include "lib/strbuf.h"

/*
 * One Module.symvers line: "CRC<tab>symbol<tab>module path<tab>export
 * type<tab>namespace".  @export ("EXPORT_SYMBOL_GPL") is NULL for a line
 * without it (genksyms' lines), @ns NULL for no namespace.
 */
struct symver {
	const char *crc, *sym, *mod, *export, *ns;
};

/*
 * The lines of a Module.symvers, sorted by symbol.  Their fields point
 * into @text, which the struct owns.
 */
struct symvers {
	struct strbuf text;
	struct symver *v;
	size_t nr, alloc;
};

#define SYMVERS_INIT { STRBUF_INIT, NULL, 0, 0 }

/*
 * Into an empty @s (SYMVERS_INIT, or cleared): the lines of @path whose
 * module @keep accepts (every line for NULL); -1 if it cannot be read.
 */
int symvers_read(struct symvers *s, const char *path,
		 int (*keep)(const char *mod));
/* The same for the text in s->text, which it splits in place, once. */
void symvers_parse(struct symvers *s, int (*keep)(const char *mod));
void symvers_clear(struct symvers *s);

enum symver_change { SYMVER_REMOVED, SYMVER_CHANGED, SYMVER_ADDED };

/* Do @a and @b both say how the symbol is exported, and differently? */
int symver_export_differs(const struct symver *a, const struct symver *b);

/*
 * @fn for each symbol of @old that @new lacks (@n NULL), that both export
 * with different CRCs or, where both lines say it, a different export
 * type or namespace (as Debian's buildcheck compares the "export" column
 * of its debian/abi/ files), or that only @new has (@o NULL), in symbol
 * order.
 * A symbol listed twice in one file (modpost refuses to write that) is
 * paired with the other file's in CRC order; one left over is removed or
 * added.
 */
void symvers_diff(const struct symvers *old, const struct symvers *new,
		  void (*fn)(enum symver_change change, const struct symver *o,
			     const struct symver *n, void *data),
		  void *data);

/*
 * A series' kabi.ignore, as Debian's kernel team keeps the ABI changes it
 * accepts: a line "PATTERN REASON", PATTERN a shell glob of a symbol or
 * "module:GLOB" of a module's path (drivers/vfio/vfio); '#' starts a
 * comment.  Every pattern needs its reason.
 */
struct symvers_ignore {
	struct strvec pattern, reason;
};

#define SYMVERS_IGNORE_INIT { STRVEC_INIT, STRVEC_INIT }

/*
 * @path's patterns into @ig: 0, also when there is no such file; -1 and
 * "@path:LINE: what is wrong; what to do" in @err.
 */
int symvers_ignore_read(struct symvers_ignore *ig, const char *path,
			struct strbuf *err);
/* The reason a line of @ig gives for @s, or NULL. */
const char *symvers_ignored(const struct symvers_ignore *ig,
			    const struct symver *s);
void symvers_ignore_clear(struct symvers_ignore *ig);

#endif
