// SPDX-License-Identifier: GPL-2.0
/*
 * The linux-source-X.Y versions Debian's archive offers, suite by suite:
 * each suite through a private apt state of its own (sources/apt.c), its
 * packages named by apt-cache pkgnames and their versions read off
 * apt-cache madison.  make sweep asks it which versions to check.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/run.h"
#include "lib/strbuf.h"
#include "lib/usage.h"
#include "sources/apt.h"
#include "sources/archive.h"

/* The suites asked, unless the test hook names others. */
static const char *const default_suites[] = {
	"bullseye-security", "bookworm", "bookworm-security",
	"bookworm-backports", "trixie", "trixie-security", "trixie-backports",
	"sid", "experimental",
};

/*
 * Test hook: KVERIFY_TEST_SWEEP_LIST names a file that stands for the
 * archive (tests/README).  Each line is "SUITE PACKAGE=VERSION SOURCE"
 * (SOURCE as in kernels.list, a tar: fixture say) or "SUITE -" for a suite
 * the mirror lacks.
 */
#define TEST_LIST_ENV "KVERIFY_TEST_SWEEP_LIST"

int archive_valid_package(const char *s)
{
	if (!skip_prefix(s, "linux-source-", &s) || !isdigit(*s))
		return 0;
	for (; *s; s++)
		if (!isdigit(*s) && *s != '.')
			return 0;
	return 1;
}

/* " PKG | VERSION | URI SUITE/main amd64 Packages" lines of madison. */
static void parse_madison(const struct archive_query *q, const char *suite,
			  const char *out)
{
	char *copy = xstrdup(out), *line, *save = NULL;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[3], *s = line;
		int i;

		for (i = 0; i < 3 && s; i++) {
			f[i] = s;
			s = strchr(s, '|');
			if (s)
				*s++ = '\0';
		}
		if (i < 3 || !strstr(f[2], " Packages"))
			continue;
		for (i = 0; i < 2; i++) {
			while (isspace(*f[i]))
				f[i]++;
			f[i][strcspn(f[i], " \t")] = '\0';
		}
		if (archive_valid_package(f[0]) && *f[1])
			q->add(q->data, suite, f[0], f[1], NULL);
	}
	free(copy);
}

static int apt_tool(struct apt_suite *as, const char *tool,
		    const char *log, struct strvec *args, struct strbuf *out,
		    struct strbuf *why)
{
	struct child c = CHILD_INIT;
	size_t i;
	int ret;

	apt_suite_args(as, &c, tool);
	for (i = 0; i < args->nr; i++)
		strvec_push(&c.args, args->v[i]);
	c.log = log;
	c.out = out;
	c.timeout = 900;
	ret = run_child(&c);
	if (ret)
		child_describe_failure(&c, why);
	child_clear(&c);
	return ret;
}

/* One suite's linux-source-X.Y versions, through its private apt state. */
static int list_suite(const struct archive_query *q, const char *suite,
		      struct strbuf *why)
{
	char *log = xstrfmt("%s/apt-%s.log", q->log_dir, suite);
	struct strbuf out = STRBUF_INIT;
	struct strvec args = STRVEC_INIT;
	struct apt_suite as;
	int ret = -1;
	char *line, *save = NULL;

	unlink(log);
	if (apt_suite_init(&as, q->opt, suite, why) ||
	    apt_suite_lock(&as, why))
		goto out;
	if (!apt_lists_fresh(&as)) {
		strvec_push(&args, "update");
		if (apt_tool(&as, "apt-get", log, &args, NULL, why)) {
			strbuf_addf(why, " (apt-get update; %s)", log);
			goto out;
		}
		apt_lists_touch(&as);
		strvec_clear(&args);
	}
	strvec_pushl(&args, "pkgnames", "linux-source-", NULL);
	if (apt_tool(&as, "apt-cache", log, &args, &out, why))
		goto out;
	strvec_clear(&args);
	strvec_push(&args, "madison");
	for (line = strtok_r(out.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (archive_valid_package(line))
			strvec_push(&args, line);
	ret = 0;
	if (args.nr == 1)
		goto out;	/* no linux-source-X.Y in this suite */
	strbuf_reset(&out);
	ret = apt_tool(&as, "apt-cache", log, &args, &out, why);
	if (!ret)
		parse_madison(q, suite, out.buf);
out:
	apt_suite_clear(&as);
	strvec_clear(&args);
	strbuf_release(&out);
	free(log);
	return ret;
}

/* The test hook's list instead of the archive; 0, or 2 on bad input. */
static int list_from_file(const struct archive_query *q, const char *file)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	int n = 0, ret = 0;

	if (strbuf_read_file(&sb, file, 1 << 20) < 0) {
		error("%s=%s: cannot read it: %s", TEST_LIST_ENV, file, strerror(errno));
		return 2;
	}
	for (line = sb.buf; line && *line && !ret; line = save) {
		char *f[3] = { NULL, NULL, NULL }, *eq, *tok, *s2 = NULL;
		int i;

		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		n++;
		if (!*line || *line == '#')
			continue;
		for (i = 0, tok = strtok_r(line, " \t", &s2); tok && i < 3;
		     tok = strtok_r(NULL, " \t", &s2))
			f[i++] = tok;
		if (f[1] && !strcmp(f[1], "-")) {
			strvec_push(q->suites, f[0]);
			strvec_pushf(q->missing, "%s: the mirror has no such suite (%s)",
				     f[0], TEST_LIST_ENV);
			continue;
		}
		eq = f[1] ? strchr(f[1], '=') : NULL;
		if (eq)
			*eq = '\0';
		if (!f[2] || tok || !eq || !archive_valid_package(f[1])) {
			error("%s:%d: expected \"SUITE linux-source-X.Y=VERSION SOURCE\" or \"SUITE -\"",
			      file, n);
			ret = 2;
			break;
		}
		if (!strvec_has(q->suites, f[0]))
			strvec_push(q->suites, f[0]);
		q->add(q->data, f[0], f[1], eq + 1, f[2]);
	}
	strbuf_release(&sb);
	return ret;
}

int archive_list(const struct archive_query *q)
{
	const char *file = q->list_file;
	size_t i;

	if (file && *file)
		return list_from_file(q, file) ? 2 : 0;
	for (i = 0; i < ARRAY_SIZE(default_suites); i++) {
		struct strbuf why = STRBUF_INIT;
		const char *s = default_suites[i];

		if (q->suite && strcmp(q->suite, s))
			continue;
		strvec_push(q->suites, s);
		note("sweep: listing %s ...", s);
		if (list_suite(q, s, &why))
			strvec_pushf(q->missing, "%s: %s", s, why.buf);
		strbuf_release(&why);
	}
	return 0;
}
