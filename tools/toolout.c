// SPDX-License-Identifier: GPL-2.0
/*
 * What the tools print, read: checkpatch's findings and quilt's failed
 * hunk.  Text in, counts and one line out; tests/unit/test_toolout.c.
 */
#include <string.h>

#include "toolout.h"

/* Is TYPE (@n bytes) listed in checkpatch.allow ("TYPE reason" lines)? */
static int type_allowed(const char *allow, const char *type, size_t n)
{
	struct line l;

	for_each_line(l, allow)
		if (!strncmp(l.s, type, n) && (l.s[n] == ' ' || l.s[n] == '\t'))
			return 1;
	return 0;
}

/*
 * "ERROR:TYPE: text", "WARNING:TYPE: text" and "CHECK:TYPE: text" lines of
 * checkpatch --show-types.  An error always counts; a warning or check
 * whose type checkpatch.allow lists is only noted.  What counts goes to
 * @detail as "@patch: line".
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
			if (!err && type_allowed(allow, type, tn)) {
				n->allowed++;
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
