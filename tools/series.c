// SPDX-License-Identifier: GPL-2.0
/* What the series' patches touch, read from their diffs. */
#include <stdlib.h>
#include <string.h>

#include "verify.h"

static int has(const struct strvec *sv, const char *s)
{
	size_t i;

	for (i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

static void scan_patch(const char *text, struct strvec *files, int new_only)
{
	const char *p = text;
	int is_new = 0;

	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (!strncmp(p, "diff --git ", 11))
			is_new = 0;
		else if (!strncmp(p, "new file mode", 13) ||
			 !strncmp(p, "--- /dev/null", 13))
			is_new = 1;
		else if (!strncmp(p, "+++ b/", 6) && (!new_only || is_new)) {
			char *f = xstrfmt("%.*s", (int)(n - 6), p + 6);
			char *tab = strchr(f, '\t');

			if (tab)
				*tab = '\0';
			if (!has(files, f))
				strvec_push(files, f);
			free(f);
		}
		p = e ? e + 1 : NULL;
	}
}

/* Files the series changes (@new_only: adds), tree-relative, in order. */
void series_files(const struct verify_ctx *ctx, struct strvec *files,
		  int new_only)
{
	size_t i;

	for (i = 0; i < ctx->patches.nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (!strbuf_read_file(&sb, ctx->patches.v[i], 16 << 20))
			scan_patch(strbuf_str(&sb), files, new_only);
		strbuf_release(&sb);
	}
}

const char *patch_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}
