// SPDX-License-Identifier: GPL-2.0
/* What the series' patches touch, read from their diffs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/series.h"
#include "core/symvers.h"
#include "lib/fsutil.h"
#include "lib/run.h"
#include "lib/usage.h"
#include "sources/manifest.h"
#include "sources/targets.h"

static void scan_patch(const char *text, struct strvec *files, int new_only)
{
	const char *p = text;
	int is_new = 0;

	while (p && *p) {
		const char *e = strchr(p, '\n'), *name;
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (starts_with(p, "diff --git "))
			is_new = 0;
		else if (starts_with(p, "new file mode") ||
			 starts_with(p, "--- /dev/null"))
			is_new = 1;
		else if (skip_prefix(p, "+++ b/", &name) && (!new_only || is_new)) {
			char *f = xstrfmt("%.*s", (int)(p + n - name), name);
			char *tab = strchr(f, '\t');

			if (tab)
				*tab = '\0';
			if (!strvec_has(files, f))
				strvec_push(files, f);
			free(f);
		}
		p = e ? e + 1 : NULL;
	}
}

/* Files the series changes (@new_only: adds), tree-relative, in order. */
void series_files(const struct series *s, struct strvec *files, int new_only)
{
	size_t i;

	for (i = 0; i < s->patches.nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (!strbuf_read_file(&sb, s->patches.v[i], 16 << 20))
			scan_patch(sb.buf, files, new_only);
		strbuf_release(&sb);
	}
}

const char *patch_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Every file name a patch gives patch(1): the "--- "/"+++ " pair, and in a
 * git header "diff --git a/X b/Y", "rename from/to" and "copy from/to".
 * @fn gets the name as written (@strip: the first component is a/ or b/
 * that -p1 removes) and the line it is on; non-zero stops the scan.
 */
typedef int (*name_fn)(const char *name, size_t len, int strip, int line,
		       void *data);

static int name_end(const char *s, size_t n)
{
	const char *tab = memchr(s, '\t', n);

	return tab ? tab - s : (int)n;
}

static int scan_names(const char *text, name_fn fn, void *data)
{
	const char *p = text, *prev = NULL;
	int line = 0, git_header = 0, ret = 0;
	size_t prev_n = 0;

	while (p && *p && !ret) {
		const char *e = strchr(p, '\n'), *s, *names, *from, *to;
		size_t n = e ? (size_t)(e - p) : strlen(p);

		line++;
		if (skip_prefix(p, "diff --git ", &names)) {
			git_header = 1;
			/* "a/X b/Y": the names are split at the last " b/" */
			s = p + n;
			while (s > names && !starts_with(s, " b/"))
				s--;
			if (s > names)
				ret = fn(names, s - names, 1, line, data) ||
				      fn(s + 1, p + n - s - 1, 1, line, data);
			else
				ret = fn(names, p + n - names, 1, line, data);
		} else if (git_header && (starts_with(p, "rename from ") ||
					  starts_with(p, "copy from ") ||
					  starts_with(p, "rename to ") ||
					  starts_with(p, "copy to "))) {
			s = strchr(p, ' ') + 1;
			s = strchr(s, ' ') + 1;
			ret = fn(s, p + n - s, 0, line, data);
		} else if (skip_prefix(p, "+++ ", &to) && prev &&
			   skip_prefix(prev, "--- ", &from)) {
			git_header = 0;
			ret = fn(from, name_end(from, prev + prev_n - from), 1,
				 line - 1, data) ||
			      fn(to, name_end(to, p + n - to), 1, line, data);
		} else if (starts_with(p, "@@ ")) {
			git_header = 0;
		}
		prev = p;
		prev_n = n;
		p = e ? e + 1 : NULL;
	}
	return ret;
}

struct name_check {
	const char *patch;
	struct strbuf *err;
};

/* A name must stay inside the tree: relative, no "..", plain bytes. */
static int check_name(const char *name, size_t len, int strip, int line,
		      void *data)
{
	struct name_check *nc = data;
	const char *why = NULL;
	size_t i;

	(void)strip;
	if (len == strlen("/dev/null") && starts_with(name, "/dev/null"))
		return 0;
	if (!len)
		why = "an empty file name";
	else if (name[0] == '/')
		why = "an absolute path";
	else if (name[0] == '"')
		why = "a quoted (escaped) file name";
	for (i = 0; i < len && !why; i++) {
		if ((unsigned char)name[i] < 0x20 || name[i] == '\\')
			why = "a control character or backslash";
		else if (name[i] == '.' && i + 1 < len && name[i + 1] == '.' &&
			 (i == 0 || name[i - 1] == '/') &&
			 (i + 2 == len || name[i + 2] == '/'))
			why = "a '..' component";
	}
	if (!why)
		return 0;
	strbuf_addf(nc->err, "%s:%d: '%.*s' has %s: a patch of the series may only name files inside the kernel tree; fix the patch\n",
		    nc->patch, line, (int)len, name, why);
	return -1;
}

/* "12a", "3,5c", "7d": an ed-script command, as GNU patch detects one. */
static int is_ed_command(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++;
	if (!i)
		return 0;
	if (i < n && p[i] == ',') {
		size_t j = ++i;

		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
		if (i == j)
			return 0;
	}
	return i < n && (p[i] == 'a' || p[i] == 'c' || p[i] == 'd') &&
	       (i + 1 == n || (p[i + 1] >= '0' && p[i + 1] <= '9'));
}

/*
 * What GNU patch or git would apply besides unified hunks of regular
 * files: a symlink or a setuid file created, a binary patch, an ed-script
 * or a normal or context diff (which checkpatch and the cocci step never
 * see).  Only the diff part is read, from the first diff header on.
 */
static const char *check_line(const char *p, size_t n)
{
	const char *mode;

	if (skip_prefix(p, "new file mode ", &mode) ||
	    skip_prefix(p, "new mode ", &mode) ||
	    skip_prefix(p, "old mode ", &mode) ||
	    skip_prefix(p, "deleted file mode ", &mode)) {
		size_t len = n - (mode - p);

		if (!(len == 6 && (starts_with(mode, "100644") ||
				   starts_with(mode, "100755"))))
			return "a file mode other than 100644 or 100755 (a symlink, a setuid file, a device)";
	} else if (starts_with(p, "GIT binary patch") ||
		   (starts_with(p, "Binary files ") && n > 7 &&
		    !memcmp(p + n - 7, " differ", 7))) {
		return "a binary patch";
	} else if (starts_with(p, "***************") || starts_with(p, "*** ")) {
		return "a context-diff hunk";
	} else if (is_ed_command(p, n)) {
		return "an ed-script or normal-diff hunk";
	}
	return NULL;
}

static int check_body(const char *patch, const char *text, struct strbuf *err)
{
	const char *p = text;
	int line = 0, in_diff = 0;

	while (p && *p) {
		const char *e = strchr(p, '\n'), *why;
		size_t n = e ? (size_t)(e - p) : strlen(p);

		line++;
		if (starts_with(p, "diff ") || starts_with(p, "--- ") ||
		    starts_with(p, "*** ") || starts_with(p, "Index: "))
			in_diff = 1;
		why = in_diff && !starts_with(p, "+") && !starts_with(p, "-") &&
		      !starts_with(p, " ") ? check_line(p, n) : NULL;
		if (why) {
			strbuf_addf(err, "%s:%d: %s: a patch of the series may only change regular files with unified hunks; make it a unified diff of text files (git format-patch without --binary)\n",
				    patch, line, why);
			return -1;
		}
		p = e ? e + 1 : NULL;
	}
	return 0;
}

static int too_large(const char *patch, struct strbuf *err)
{
	strbuf_addf(err, "%s: larger than 16 MiB: every line of a patch is checked before it is applied; split it\n",
		    patch);
	return -1;
}

/*
 * Before anything touches a file: every name @patch gives stays inside,
 * and it is made of nothing but unified hunks of regular files.
 */
int series_check_names(const char *patch, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct name_check nc = { patch, err };
	int ret;

	ret = strbuf_read_file(&sb, patch, (16 << 20) + 1);
	if (ret)
		strbuf_addf(err, "%s: cannot read the patch\n", patch);
	else if (sb.len > 16 << 20)
		ret = too_large(patch, err);
	else
		ret = scan_names(sb.buf, check_name, &nc) ||
		      check_body(patch, sb.buf, err) ? -1 : 0;
	strbuf_release(&sb);
	return ret;
}

static int add_name(const char *name, size_t len, int strip, int line,
		    void *data)
{
	const char *slash = strip ? memchr(name, '/', len) : NULL;
	char *path;

	(void)line;
	if (len == strlen("/dev/null") && starts_with(name, "/dev/null"))
		return 0;
	if (slash) {
		len -= slash + 1 - name;
		name = slash + 1;
	}
	path = xstrfmt("%.*s", (int)len, name);
	if (!strvec_has(data, path))
		strvec_push(data, path);
	free(path);
	return 0;
}

/*
 * Every file the series' patches name, tree-relative: what series_files()
 * reads and also a git rename's or copy's names and a file created empty,
 * which have no "+++ " line.
 */
/* Whether @patch's message carries a Fixes: trailer. */
int series_patch_has_fixes(const char *patch)
{
	struct strbuf b = STRBUF_INIT;
	const char *p, *end;
	int ret = 0;

	if (strbuf_read_file(&b, patch, 16 << 20) < 0)
		return 0;
	end = strstr(b.buf, "\n---\n");
	if (!end)
		end = strstr(b.buf, "\ndiff --git ");
	for (p = b.buf; p && (!end || p < end); p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, "Fixes:", 6)) {
			ret = 1;
			break;
		}
	}
	strbuf_release(&b);
	return ret;
}

/*
 * Fixes only: every patch carries a Fixes: trailer (the parameter's patch
 * and the selftest carry none), so the series adds no parameter.
 */
int series_fixes_only(const struct series *s)
{
	size_t i;

	if (!s || !s->dir || !s->patches.nr)
		return 0;
	for (i = 0; i < s->patches.nr; i++)
		if (!series_patch_has_fixes(s->patches.v[i]))
			return 0;
	return 1;
}

void series_names(const struct series *s, struct strvec *names)
{
	size_t i;

	for (i = 0; i < s->patches.nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (!strbuf_read_file(&sb, s->patches.v[i], 16 << 20))
			scan_names(sb.buf, add_name, names);
		strbuf_release(&sb);
	}
}

/*
 * The names are plain (series_check_names()); in @root, none may reach
 * through a symlink or name something other than a regular file.
 */
int series_check_tree(const struct series *s, const char *root,
		      struct strbuf *err)
{
	struct strvec names = STRVEC_INIT;
	size_t i;
	int ret = 0;

	series_names(s, &names);
	for (i = 0; i < names.nr && !ret; i++) {
		char *path = xstrfmt("%s/%s", root, names.v[i]);
		char *c = path + strlen(root) + 1;
		struct stat st;

		for (;;) {
			char *slash = strchr(c, '/');

			if (slash)
				*slash = '\0';
			if (lstat(path, &st)) {
				break;	/* a new file, or new directories */
			} else if (S_ISLNK(st.st_mode)) {
				strbuf_addf(err, "the series names %s, but %s is a symlink in the tree: refusing to patch through it",
					    names.v[i], path + strlen(root) + 1);
				ret = -1;
			} else if (!slash && !S_ISREG(st.st_mode)) {
				strbuf_addf(err, "the series names %s, which is not a regular file in the tree",
					    names.v[i]);
				ret = -1;
			}
			if (!slash || ret)
				break;
			*slash = '/';
			c = slash + 1;
		}
		free(path);
	}
	strvec_clear(&names);
	return ret;
}

/* The series' kabi.ignore (the kabi step reads it) reads, if it is there. */
static int kabi_ignore_check(const char *dir, struct strbuf *err)
{
	struct symvers_ignore ig = SYMVERS_IGNORE_INIT;
	char *path = xstrfmt("%s/kabi.ignore", dir);
	int ret = symvers_ignore_read(&ig, path, err);

	if (ret)
		strbuf_addch(err, '\n');
	symvers_ignore_clear(&ig);
	free(path);
	return ret;
}

/*
 * @path, symlinks resolved, is @top or below it (@top already resolved);
 * 0 if not, or if it cannot be resolved.
 */
static int resolves_inside(const char *path, const char *top)
{
	char *real = realpath(path, NULL);
	size_t n = strlen(top);
	int ok;

	ok = real && !strncmp(real, top, n) &&
	     (real[n] == '/' || !real[n] || !strcmp(top, "/"));
	free(real);
	return ok;
}

/*
 * A series line is a patch name and nothing else.  quilt takes what
 * follows the name as the patch's options (-R, -pN, --fuzz): a reversed
 * patch, or names read with another strip level than the checks below
 * read them with.  -1 with @err set (file:line) if @line is not one.
 */
static int series_line(const char *file, int nr, char *line,
		       struct strbuf *err)
{
	size_t n = strcspn(line, " \t"), rest;

	rest = n + strspn(line + n, " \t");
	if (!n && line[rest]) {
		strbuf_addf(err, "%s:%d: the line starts with a blank: write the patch name at its start\n",
			    file, nr);
		return -1;
	}
	if (line[rest] && *line != '#') {
		strbuf_addf(err, "%s:%d: '%.*s' is followed by '%s', which quilt would take as its options: a series line names one patch and nothing else; make the patch itself what is meant (a/ b/ paths, not reversed)\n",
			    file, nr, (int)n, line, line + rest);
		return -1;
	}
	if (*line == '-') {
		strbuf_addf(err, "%s:%d: '%s' starts with '-': rename the patch\n",
			    file, nr, line);
		return -1;
	}
	line[n] = '\0';
	return 0;
}

/*
 * Read <repo>/<rel>/series: patch names, in order; 0, or with @err set -1
 * when it or a patch is missing or leads outside the repository, -2 when
 * a line is more than a patch name or a patch names a file outside the
 * tree.  @where: the kernels.list line that names it, for the message.
 */
/*
 * The first line of @dir/@name into *@v (NULL when there is no such file),
 * checked by @ok: -2 after an error naming @dir/@name:1.
 */
static int posting_file(const char *dir, const char *name,
			int (*ok)(const char *), const char *want, char **v,
			struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/%s", dir, name);
	int ret = 0;

	*v = NULL;
	if (strbuf_read_file(&sb, path, 4096) >= 0) {
		strbuf_trim_trailing(&sb);
		if (!ok(sb.buf) || strchr(sb.buf, '\n')) {
			strbuf_addf(err, "%s:1: not %s: '%.80s'\n", path, want,
				    sb.buf);
			ret = -2;
		} else {
			*v = strbuf_detach(&sb, NULL);
		}
	} else if (errno != ENOENT) {
		strbuf_addf(err, "%s: %s\n", path, strerror(errno));
		ret = -2;
	}
	strbuf_release(&sb);
	free(path);
	return ret;
}

static int revision_ok(const char *s)
{
	return strspn(s, "0123456789") == strlen(s) && *s && *s != '0' &&
	       strlen(s) <= 3;
}

static int change_id_ok(const char *s)
{
	return plain_name(s) && strlen(s) <= 128;
}

/*
 * user@host or <user@host>: one @, no blank, control character, quote or
 * backslash (a LAVA job carries it in a YAML quoted string).
 */
static int message_id_ok(const char *s)
{
	size_t n = strlen(s);
	const char *p;

	if (*s == '<') {
		if (n < 3 || s[n - 1] != '>')
			return 0;
		s++;
		n -= 2;
	}
	for (p = s; p < s + n; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f ||
		    strchr("<>'\"\\", *p))
			return 0;
	p = memchr(s, '@', n);
	return p && p > s && p < s + n - 1 && !memchr(p + 1, '@', s + n - p - 1);
}

/* s->revision, change_id and message_id (struct series). */
static int series_posting(struct series *s, const char *repo,
			  struct strbuf *err)
{
	char *rev = NULL, *top = xstrfmt("%s/series", repo), *id;
	const char *from = s->dir;
	int ret;

	ret = posting_file(s->dir, "revision", revision_ok,
			   "a revision (1 to 999)", &rev, err);
	if (!ret && !rev && strcmp(s->dir, top)) {
		from = top;
		ret = posting_file(top, "revision", revision_ok,
				   "a revision (1 to 999)", &rev, err);
	}
	ret = ret ? ret : posting_file(from, "change-id", change_id_ok,
				       "a change-id (letters, digits, ._-)",
				       &s->change_id, err);
	ret = ret ? ret : posting_file(s->dir, "message-id", message_id_ok,
				       "a Message-Id (id@host)",
				       &s->message_id, err);
	s->revision = rev ? atoi(rev) : 0;
	id = s->message_id;
	if (id && *id == '<') {
		memmove(id, id + 1, strlen(id));
		id[strlen(id) - 1] = '\0';
	}
	free(rev);
	free(top);
	return ret;
}

int series_load(struct series *s, const char *repo, const char *rel,
		const char *where, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *file, *line, *next, *top;
	int ret = -1, nr = 0;

	s->rel = xstrdup(rel);
	s->dir = xstrfmt("%s/%s", repo, rel);
	file = xstrfmt("%s/series", s->dir);
	top = realpath(repo, NULL);
	if (strbuf_read_file(&sb, file, 1 << 20) < 0) {
		strbuf_addf(err, "%s: series directory '%s' has no readable series file (%s): create it or fix the SERIES field\n",
			    where, rel, strerror(errno));
		goto out;
	}
	/* series/ and backports/X are the repository's, not a link out */
	if (!top || !resolves_inside(s->dir, top) ||
	    !resolves_inside(file, top)) {
		strbuf_addf(err, "%s: series directory '%s' or its series file leads outside the repository (a symlink): keep the series in the repository\n",
			    where, rel);
		goto out;
	}
	for (line = sb.buf; line && *line; line = next) {
		char *patch;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		nr++;
		if (series_line(file, nr, line, err)) {
			ret = -2;
			goto out;
		}
		if (!*line || *line == '#')
			continue;
		patch = xstrfmt("%s/%s", s->dir, line);
		if (strstr(line, "..") || !is_file(patch)) {
			strbuf_addf(err, "%s:%d: patch '%s' listed in the series is missing: add the patch to %s/ or take the line out\n",
				    file, nr, line, rel);
			free(patch);
			goto out;
		}
		if (!resolves_inside(patch, top)) {
			strbuf_addf(err, "%s:%d: patch '%s' is a symlink leading outside the repository: put the patch itself there\n",
				    file, nr, line);
			free(patch);
			goto out;
		}
		strvec_push(&s->patches, patch);
		free(patch);
		if (series_check_names(s->patches.v[s->patches.nr - 1], err)) {
			ret = -2;
			goto out;
		}
	}
	ret = kabi_ignore_check(s->dir, err);
	if (!ret)
		ret = series_posting(s, repo, err);
out:
	free(top);
	free(file);
	strbuf_release(&sb);
	return ret;
}

void series_clear(struct series *s)
{
	free(s->dir);
	free(s->rel);
	free(s->na_reason);
	free(s->change_id);
	free(s->message_id);
	strvec_clear(&s->patches);
	memset(s, 0, sizeof(*s));
}

/*
 * KCIDB's patchset_hash: the sha256 over the newline-terminated sha256s of
 * each patch, in order ("sha256sum *.patch | cut -c-64 | sha256sum"); ""
 * without patches, NULL when sha256sum failed.
 */
char *series_patchset_hash(const struct series *s)
{
	const struct strvec *patches = &s->patches;
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	char *hash = NULL;
	size_t i;

	if (!patches->nr)
		return xstrdup("");
	strvec_pushl(&c.args, "sh", "-c",
		     "sha256sum -- \"$@\" | cut -c-64 | sha256sum | cut -c-64",
		     "sh", NULL);
	for (i = 0; i < patches->nr; i++)
		strvec_push(&c.args, patches->v[i]);
	c.out = &out;
	c.log = "/dev/null";
	if (!run_child(&c) && out.len >= 64 &&
	    strspn(out.buf, "0123456789abcdef") == 64)
		hash = xstrfmt("%.64s", out.buf);
	child_clear(&c);
	strbuf_release(&out);
	return hash;
}

int series_merged_load(const char *path, struct strvec *out)
{
	static const char hex[] = "0123456789abcdef";
	struct strbuf sb = STRBUF_INIT;
	struct line l;
	int n = 0, ret = 0;

	if (strbuf_read_file(&sb, path, 1 << 20) < 0)
		return 0;	/* nothing merged yet */
	for_each_line(l, sb.buf) {
		char name[256], sha[64], extra;

		n++;
		if (!l.len || *l.s == '#')
			continue;
		if (sscanf(l.s, "%255s %63s %c", name, sha, &extra) != 2 ||
		    !ends_with(name, ".patch") || strchr(name, '/') ||
		    strlen(sha) < 12 || strlen(sha) > 40 ||
		    sha[strspn(sha, hex)]) {
			error("%s:%d: '%.*s' is not 'NNNN-name.patch SHA' (the upstream commit, 12 to 40 lowercase hex digits)",
			      path, n, (int)l.len, l.s);
			ret = -1;
			continue;
		}
		strvec_push(out, name);
		strvec_push(out, sha);
	}
	strbuf_release(&sb);
	return ret;
}

const char *series_merged_sha(const struct strvec *merged, const char *name)
{
	size_t i;

	for (i = 0; i + 1 < merged->nr; i += 2)
		if (!strcmp(merged->v[i], name))
			return merged->v[i + 1];
	return NULL;
}

/*
 * Origin: and Forwarded: for the revision of series/: its posting when
 * series/message-id records one, else what it is and that it is not
 * posted.  -1 when series/ says no revision.
 */
int series_origin(struct strbuf *out)
{
	char *rev = read_first_line("series/revision");
	char *id = read_first_line("series/change-id");
	char *msgid = read_first_line("series/message-id");
	int ret = -1;

	if (!rev || !id || !*rev || strspn(rev, "0123456789") != strlen(rev)) {
		error("series/revision and series/change-id are needed (the revision the variant comes from)");
		goto out;
	}
	if (msgid && (strpbrk(msgid, " \t<>\"") || !strchr(msgid, '@'))) {
		error("series/message-id:1: '%s' is not a message-id: write the posting's, without <>",
		      msgid);
		goto out;
	}
	if (msgid)
		strbuf_addf(out, "Origin: backport, " LORE "%s\nForwarded: " LORE "%s\n",
			    msgid, msgid);
	else
		strbuf_addf(out, "Origin: backport, v%s of change-id %s (not posted yet)\nForwarded: no\n",
			    rev, id);
	ret = 0;
out:
	free(rev);
	free(id);
	free(msgid);
	return ret;
}
