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

/**
 * symvers_read() - Read a Module.symvers.
 * @s: An empty one (SYMVERS_INIT, or cleared), filled in.
 * @path: The file, read up to 64 MiB.
 * @keep: Whether to keep the lines of a module (its path); NULL keeps
 *	every line.
 *
 * Return: 0, or -1 with errno set when @path cannot be read.
 */
int symvers_read(struct symvers *s, const char *path,
		 int (*keep)(const char *mod));

/**
 * symvers_parse() - symvers_read() of the text in @s->text.
 * @s: Its text is split in place, once; a line with fewer than three
 *	fields is left out.
 * @keep: As for symvers_read().
 */
void symvers_parse(struct symvers *s, int (*keep)(const char *mod));

/**
 * symvers_clear() - Free a Module.symvers' text and lines.
 * @s: Left empty, as SYMVERS_INIT.
 */
void symvers_clear(struct symvers *s);

enum symver_change { SYMVER_REMOVED, SYMVER_CHANGED, SYMVER_ADDED };

/**
 * symver_export_differs() - Is a symbol exported differently?
 * @a: One line of it.
 * @b: Another.
 *
 * Return: 1 when both lines say how the symbol is exported, and differ in
 * the export type or the namespace; else 0.
 */
int symver_export_differs(const struct symver *a, const struct symver *b);

/**
 * symvers_diff() - Compare two Module.symvers, symbol by symbol.
 * @old: The one before (Debian's).
 * @new: The one after (ours).
 * @fn: Called in symbol order: SYMVER_REMOVED for a symbol of @old that
 *	@new lacks (@n NULL), SYMVER_CHANGED for one both export with
 *	different CRCs or, where both lines say it, a different export type
 *	or namespace (as Debian's buildcheck compares the "export" column of
 *	its debian/abi/ files), SYMVER_ADDED for one only @new has (@o NULL).
 * @data: Passed to @fn.
 *
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

/**
 * symvers_ignore_read() - Read a kabi.ignore.
 * @ig: Appended to: each line's pattern and reason.
 * @path: The file, up to 1 MiB; a symlink or anything but a regular file
 *	is refused.
 * @err: Appended to when it fails, without a newline: "@path: cannot
 *	read: why", or "@path:LINE: what is wrong; what to do" for the first
 *	line without a reason.
 *
 * Return: 0, also when there is no such file; -1 when it fails.
 */
int symvers_ignore_read(struct symvers_ignore *ig, const char *path,
			struct strbuf *err);

/**
 * symvers_ignored() - Does a kabi.ignore accept a symbol's change?
 * @ig: The patterns.
 * @s: A line of the symbol (either side's).
 *
 * Return: The reason of the first line whose pattern matches @s's symbol
 * (a "module:" pattern: its module's path); NULL when none does.
 */
const char *symvers_ignored(const struct symvers_ignore *ig,
			    const struct symver *s);

/**
 * symvers_ignore_clear() - Free a kabi.ignore's patterns and reasons.
 * @ig: Left empty.
 */
void symvers_ignore_clear(struct symvers_ignore *ig);

#endif
