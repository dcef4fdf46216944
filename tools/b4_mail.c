// SPDX-License-Identifier: GPL-2.0
/*
 * What b4's workflows read and check in files and mail: the change-id,
 * message-id and revision checks, series/revision, a mail's headers, the
 * patch files of a directory and their installation into series/, and the
 * record of a posted revision.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "b4_int.h"
#include "fsutil.h"
#include "series.h"
#include "usage.h"

/* 1 when @s is a change-id b4 could have made: letters, digits, ._- */
int valid_change_id(const char *s)
{
	return plain_name(s) && strlen(s) <= 128;
}

/*
 * A message-id as given on the command line: what b4 takes as a value,
 * never an option; "<...>" or a lore link allowed.
 */
int valid_msgid(const char *s)
{
	const char *p;

	if (!*s || *s == '-')
		return 0;
	for (p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return 0;
	return !!strchr(s, '@');
}

/* "vN" or "N" with 1 <= N <= MAX_REVISION: N, else 0. */
int parse_revision(const char *s)
{
	char *end;
	long n;

	if (*s == 'v')
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || *end || n < 1 || n > MAX_REVISION)
		return 0;
	return n;
}

char *read_trim(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_trim_trailing(&sb);
	return strbuf_detach(&sb, NULL);
}

/*
 * The revision series/revision holds; 0 when it holds none, after an error
 * that ends in "write the number of the revision @what".
 */
int series_revision(const char *what)
{
	char *s = read_trim("series/revision");
	int n = s ? parse_revision(s) : 0;

	if (!s)
		error("series/revision: cannot read it: write the number of the revision %s there",
		      what);
	else if (!n)
		error("series/revision:1: '%s' is not a revision (1 to %d): write the number of the revision %s",
		      s, MAX_REVISION, what);
	free(s);
	return n;
}

int list_dir(const char *dir, const char *suffix, struct strvec *out)
{
	struct dirent **names;
	int i, n = scandir(dir, &names, NULL, alphasort);

	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > strlen(suffix) &&
		    !strcmp(names[i]->d_name + len - strlen(suffix), suffix))
			strvec_pushf(out, "%s/%s", dir, names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return n < 0 ? -1 : 0;
}

/* "N" in @out/message-id: this revision was posted (a real send). */
char *posted(const char *out)
{
	char *path = xstrfmt("%s/message-id", out), *id = read_trim(path);

	free(path);
	return id;
}

char *header(const char *msg, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(name);
	const char *p = msg;

	while (p && *p && *p != '\n') {
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			const char *v = p + n + 1;

			while (*v == ' ')
				v++;
			for (;;) {
				size_t len = strcspn(v, "\n");

				strbuf_add(&sb, v, len);
				v += len + !!v[len];
				if (*v != ' ' && *v != '\t')
					break;
			}
			return strbuf_detach(&sb, NULL);
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

/* Patches of @dir (format-patch output) into series/; how many. */
/* Join a folded From: header, as git folds a long identity. */
static void unfold_from(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = sb->buf, *from = strstr(p, "\nFrom: ");
	const char *nl = from ? strchr(from + 1, '\n') : NULL;

	if (!nl || nl[1] != ' ')
		return;
	strbuf_add(&out, p, nl - p);
	strbuf_addstr(&out, nl + 1);
	strbuf_release(sb);
	*sb = out;
}

int install_patches(const char *dir)
{
	struct strvec files = STRVEC_INIT;
	struct strbuf series = STRBUF_INIT;
	size_t i;
	int ret = list_dir(dir, ".patch", &files);

	for (i = 0; i < files.nr && !ret; i++) {
		char *to = xstrfmt("series/%s", patch_name(files.v[i]));
		struct strbuf sb = STRBUF_INIT;

		ret = strbuf_read_file(&sb, files.v[i], 16 << 20);
		unfold_from(&sb);
		ret = ret || write_file(to, sb.buf, sb.len);
		strbuf_addf(&series, "%s\n", patch_name(files.v[i]));
		strbuf_release(&sb);
		free(to);
	}
	if (!ret)
		ret = write_file("series/series", series.buf, series.len);
	ret = ret ? -1 : (int)files.nr;
	strvec_clear(&files);
	strbuf_release(&series);
	return ret;
}

/*
 * What format-patch wrote in @dir, as series/ keeps it: a folded From:
 * joined, the sender's From:, Co-developed-by: and Signed-off-by: taken
 * off (the project's patches carry none in the repository: make send
 * stamps them), and no identity nobody owns.  0, or -1 after saying which
 * patch names one (nothing is imported then).
 */
int unstamp_dir(struct b4 *b, const char *dir)
{
	struct strvec files = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int ret = list_dir(dir, ".patch", &files), bad = 0;

	for (i = 0; i < files.nr && !ret; i++) {
		struct strbuf sb = STRBUF_INIT;

		ret = strbuf_read_file(&sb, files.v[i], 16 << 20) < 0;
		unfold_from(&sb);
		ident_unstamp(&sb, b->id.email);
		ret = ret || write_file(files.v[i], sb.buf, sb.len);
		bad += ident_check_patch(files.v[i], &err);
		strbuf_release(&sb);
	}
	if (bad)
		fprintf(stderr, "%skverify: the posting names %d identit%s nobody owns (above): nothing was imported; series/ keeps no such identity\n",
			err.buf, bad, bad == 1 ? "y" : "ies");
	strvec_clear(&files);
	strbuf_release(&err);
	return ret || bad ? -1 : 0;
}
