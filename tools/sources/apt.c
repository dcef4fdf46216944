// SPDX-License-Identifier: GPL-2.0
/*
 * Reach any Debian suite through a private apt state directory: our own
 * sources.list, lists and archive cache under the cache directory.  The
 * mirror URIs come from this machine's own apt sources (or the
 * KVERIFY_DEBIAN_MIRROR and KVERIFY_SECURITY_MIRROR environment variables),
 * so no host name is written anywhere.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lib/fsutil.h"
#include "lib/lock.h"
#include "lib/options.h"
#include "sources/apt.h"

#define APT_SOURCES "/etc/apt/sources.list"
#define APT_SOURCES_D "/etc/apt/sources.list.d"
#define APT_LISTS_MAX_AGE 86400

static int is_security(const char *suite)
{
	size_t n = strlen(suite);

	return n > 9 && !strcmp(suite + n - 9, "-security");
}

/* Does this (uri, suites) entry serve @want_security suites? */
static int entry_fits(const char *uri, const char *suites, int want_security)
{
	char *copy = xstrdup(suites), *s, *save = NULL;
	size_t n = strlen(uri);
	int fits = 0;

	while (n && uri[n - 1] == '/')
		n--;
	for (s = strtok_r(copy, " \t", &save); s && !fits;
	     s = strtok_r(NULL, " \t", &save))
		fits = is_security(s) == want_security;
	if (fits && !want_security)
		fits = n >= 7 && starts_with(uri + n - 7, "/debian");
	free(copy);
	return fits;
}

/* One-line format: "deb [options] URI SUITE COMPONENT..." */
static char *scan_one_line(const char *text, int want_security)
{
	char *copy = xstrdup(text), *line, *save = NULL, *found = NULL;

	for (line = strtok_r(copy, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *uri, *suite;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!starts_with(p, "deb ") && !starts_with(p, "deb\t"))
			continue;
		p += strlen("deb");
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[') {
			p = strchr(p, ']');
			if (!p)
				continue;
			p++;
		}
		uri = strtok_r(p, " \t", &p);
		suite = uri ? strtok_r(NULL, " \t", &p) : NULL;
		if (uri && suite && entry_fits(uri, suite, want_security))
			found = xstrdup(uri);
	}
	free(copy);
	return found;
}

/*
 * The value of field @name in the deb822 paragraph [@para, @end) (Debian
 * policy 5.1: a field name is not case-sensitive), or NULL; @end NULL: to
 * the end of the string.
 */
char *deb822_field(const char *para, const char *end, const char *name)
{
	size_t n = strlen(name);
	const char *p = para;

	if (!end)
		end = para + strlen(para);
	while (p < end) {
		const char *e = memchr(p, '\n', end - p);

		if (!e)
			e = end;
		if ((size_t)(e - p) > n && !strncasecmp(p, name, n) &&
		    p[n] == ':') {
			const char *v = p + n + 1;

			while (v < e && (*v == ' ' || *v == '\t'))
				v++;
			return xstrfmt("%.*s", (int)(e - v), v);
		}
		p = e + 1;
	}
	return NULL;
}

/* deb822 format: paragraphs with Types:, URIs:, Suites:, Enabled:. */
static char *scan_deb822(const char *text, int want_security)
{
	char *copy = xstrdup(text), *para = copy, *found = NULL;

	while (para && *para && !found) {
		char *end = strstr(para, "\n\n");
		char *types, *uris, *suites, *enabled;

		if (end)
			*end = '\0';
		types = deb822_field(para, NULL, "Types");
		uris = deb822_field(para, NULL, "URIs");
		suites = deb822_field(para, NULL, "Suites");
		enabled = deb822_field(para, NULL, "Enabled");
		if (types && uris && suites && strstr(types, "deb") &&
		    (!enabled || strcasecmp(enabled, "no")) &&
		    entry_fits(uris, suites, want_security)) {
			char *sp = strpbrk(uris, " \t");

			if (sp)
				*sp = '\0';
			found = xstrdup(uris);
		}
		free(types);
		free(uris);
		free(suites);
		free(enabled);
		para = end ? end + 2 : NULL;
	}
	free(copy);
	return found;
}

static char *scan_file(const char *path, int deb822, int want_security)
{
	struct strbuf sb = STRBUF_INIT;
	char *found = NULL;

	if (!strbuf_read_file(&sb, path, 1 << 20) && sb.len)
		found = deb822 ? scan_deb822(sb.buf, want_security) :
				 scan_one_line(sb.buf, want_security);
	strbuf_release(&sb);
	return found;
}

static char *scan_sources(int want_security)
{
	struct dirent **names;
	char *found = scan_file(APT_SOURCES, 0, want_security);
	int n, i;

	n = scandir(APT_SOURCES_D, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		char *path = xstrfmt("%s/%s", APT_SOURCES_D, names[i]->d_name);

		if (!found && ends_with(path, ".sources"))
			found = scan_file(path, 1, want_security);
		else if (!found && ends_with(path, ".list"))
			found = scan_file(path, 0, want_security);
		free(path);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return found;
}

int apt_mirror_for_suite(const struct options *opt, const char *suite,
			 char **mirror, struct strbuf *err)
{
	int sec = is_security(suite);
	const char *set = sec ? opt->security_mirror : opt->debian_mirror;

	*mirror = set ? xstrdup(set) : scan_sources(sec);
	if (*mirror)
		return 0;
	strbuf_addf(err, "no %s mirror in this machine's apt sources (%s, %s/): add one, or set %s",
		    sec ? "Debian security" : "Debian", APT_SOURCES,
		    APT_SOURCES_D, sec ? "KVERIFY_SECURITY_MIRROR" :
		    "KVERIFY_DEBIAN_MIRROR");
	return -1;
}

int apt_suite_init(struct apt_suite *as, const struct options *opt,
		   const char *suite, struct strbuf *err)
{
	struct strbuf sl = STRBUF_INIT;
	char *path;
	int ret = -1;

	memset(as, 0, sizeof(*as));
	as->suite = xstrdup(suite);
	as->dir = xstrfmt("%s/apt/%s", sources_dir(opt), suite);
	as->cache = sources_dir(opt);
	as->lockfd = -1;
	as->max_age = opt->test && opt->test->apt_max_age >= 0 ?
		      opt->test->apt_max_age : APT_LISTS_MAX_AGE;
	if (apt_mirror_for_suite(opt, suite, &as->mirror, err))
		return -1;
	path = xstrfmt("%s/lists/partial", as->dir);
	ret = mkdir_p(path);
	free(path);
	path = xstrfmt("%s/cache/archives/partial", as->dir);
	ret |= mkdir_p(path);
	free(path);
	path = xstrfmt("%s/parts", as->dir);
	ret |= mkdir_p(path);
	free(path);
	path = xstrfmt("%s/preferences.d", as->dir);
	ret |= mkdir_p(path);
	free(path);
	if (ret) {
		strbuf_addf(err, "cannot create %s: %s", as->dir,
			    strerror(errno));
		return -1;
	}
	strbuf_addf(&sl, "deb %s %s main\n", as->mirror, suite);
	path = xstrfmt("%s/sources.list", as->dir);
	ret = write_file_atomic(path, sl.buf, sl.len);
	if (ret)
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
	free(path);
	strbuf_release(&sl);
	return ret;
}

void apt_suite_args(const struct apt_suite *as, struct child *c,
		    const char *tool)
{
	strvec_pushl(&c->args, tool, "-q", NULL);
	strvec_pushf(&c->args, "-oDir::State::Lists=%s/lists", as->dir);
	strvec_pushf(&c->args, "-oDir::Etc::SourceList=%s/sources.list",
		     as->dir);
	strvec_pushf(&c->args, "-oDir::Etc::SourceParts=%s/parts", as->dir);
	strvec_pushf(&c->args, "-oDir::Etc::PreferencesParts=%s/preferences.d",
		     as->dir);
	strvec_pushf(&c->args, "-oDir::Etc::Preferences=%s/preferences",
		     as->dir);
	strvec_pushf(&c->args, "-oDir::Cache=%s/cache", as->dir);
	strvec_push(&c->args, "-oAPT::Sandbox::User=root");
}

int apt_lists_fresh(const struct apt_suite *as)
{
	char *stamp = xstrfmt("%s/updated", as->dir);
	struct stat st;
	int fresh;

	fresh = !stat(stamp, &st) && time(NULL) - st.st_mtime < as->max_age;
	free(stamp);
	return fresh;
}

/*
 * apt-cache madison's lines, " PKG | VERSION | URI SUITE/COMPONENT TYPE":
 * each version once (a version in both Packages and Sources is listed
 * twice), into @out, ", "-separated; @n counts them.
 */
void apt_madison_parse(const char *text, struct strbuf *out, int *n)
{
	struct line l;

	for_each_line(l, text) {
		const char *bar = memchr(l.s, '|', l.len), *v, *e;
		char *one, *all;

		if (!bar)
			continue;
		v = bar + 1 + strspn(bar + 1, " ");
		e = memchr(v, '|', l.len - (v - l.s));
		if (!e)
			continue;
		while (e > v && e[-1] == ' ')
			e--;
		if (e == v)
			continue;
		one = xstrfmt(", %.*s,", (int)(e - v), v);
		all = xstrfmt(", %s,", out->buf);
		if (!strstr(all, one)) {	/* ", A, B," holds ", A," */
			strbuf_addf(out, "%s%.*s", out->len ? ", " : "",
				    (int)(e - v), v);
			(*n)++;
		}
		free(all);
		free(one);
	}
}

int apt_versions(const struct apt_suite *as, const char *pkg,
		 struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int n = 0;

	apt_suite_args(as, &c, "apt-cache");
	strvec_pushl(&c.args, "madison", pkg, NULL);
	c.out = &text;
	c.log = "/dev/null";
	if (!run_child(&c))
		apt_madison_parse(text.buf, out, &n);
	child_clear(&c);
	strbuf_release(&text);
	return n;
}

/* apt-cache show of @pkg: =@version if given, else the candidate. */
void apt_show_args(const struct apt_suite *as, struct child *c,
		   const char *pkg, const char *version)
{
	apt_suite_args(as, c, "apt-cache");
	strvec_pushl(&c->args, "show", "--no-all-versions", NULL);
	if (version)
		strvec_pushf(&c->args, "%s=%s", pkg, version);
	else
		strvec_push(&c->args, pkg);
}

void apt_lists_touch(const struct apt_suite *as)
{
	char *stamp = xstrfmt("%s/updated", as->dir);

	write_file_atomic(stamp, as->mirror, strlen(as->mirror));
	free(stamp);
}

/* Targets of one suite share its apt state: one apt at a time (waits). */
int apt_suite_lock(struct apt_suite *as, struct strbuf *err)
{
	return lock_in_cache(as->cache, 1, &as->lockfd, err, "apt-%s.lock",
			     as->suite);
}

/* Also on an apt_suite that is all zeroes, never initialised. */
void apt_suite_unlock(struct apt_suite *as)
{
	if (as->suite)
		unlock_file(as->lockfd);
	as->lockfd = -1;
}

void apt_suite_clear(struct apt_suite *as)
{
	apt_suite_unlock(as);
	free(as->suite);
	free(as->dir);
	free(as->mirror);
	memset(as, 0, sizeof(*as));
}
